# Writes INPUT's text into OUTPUT as a C++ string literal (raw strings of
# at most 8000 characters each, concatenated), so that a data file of the
# repository can be compiled into a library. Run with cmake -P.
file(READ "${INPUT}" content)
string(LENGTH "${content}" length)
set(out "// Generated from ${INPUT}; do not edit.\n")
set(offset 0)
while(offset LESS length)
  string(SUBSTRING "${content}" ${offset} 8000 chunk)
  string(APPEND out "R\"mirageEmbedded(${chunk})mirageEmbedded\"\n")
  math(EXPR offset "${offset} + 8000")
endwhile()
if(length EQUAL 0)
  string(APPEND out "\"\"\n")
endif()
file(WRITE "${OUTPUT}" "${out}")
