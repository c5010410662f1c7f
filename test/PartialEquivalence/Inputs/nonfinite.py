"""Plants non-finite values in mirage-run inputs and compares two runs.

  nonfinite.py plant IN.npy OUT.npy ROW COL VALUE
      Copies an NCHW float64 .npy file, setting image 0, channel 1,
      (ROW, COL) to VALUE (a Python float literal: inf, -inf, nan).
  nonfinite.py compare ORIGINAL.npy CORRECTED.npy
      Prints how many elements of ORIGINAL are finite and non-finite, at
      how many finite ones CORRECTED differs (or is not finite), and at how
      many non-finite ones it is not the same (an inf of the same sign, or
      a NaN): a NaN where the original has inf would leak through a later
      relu or exp, which map -inf to 0 and NaN to NaN.
"""

import ast
import math
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Tools", "mirage-run", "Inputs"))
import npy  # noqa: E402


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == npy.MAGIC and data[6] == 1, "expected a v1 .npy file"
    (length,) = struct.unpack("<H", data[8:10])
    fields = ast.literal_eval(data[10:10 + length].decode("latin1"))
    assert fields["descr"] == "<f8" and not fields["fortran_order"]
    shape = list(fields["shape"])
    count = 1
    for d in shape:
        count *= d
    values = list(struct.unpack_from("<%dd" % count, data, 10 + length))
    return shape, values


def plant(argv):
    src, dst, row, col, value = argv
    shape, values = read(src)
    _, c, h, w = shape
    values[(1 * h + int(row)) * w + int(col)] = float(value)
    payload = struct.pack("<%dd" % len(values), *values)
    with open(dst, "wb") as f:
        f.write(npy.encode("<f8", shape, payload))


def compare(argv):
    shape_a, a = read(argv[0])
    shape_b, b = read(argv[1])
    assert shape_a == shape_b, "shapes differ"
    finite = [i for i, v in enumerate(a) if math.isfinite(v)]
    differ = sum(1 for i in finite
                 if not abs(a[i] - b[i]) <= 1e-9 * (1 + abs(a[i])))
    def kind(v):
        return "nan" if math.isnan(v) else v
    changed = sum(1 for i, v in enumerate(a)
                  if not math.isfinite(v) and kind(v) != kind(b[i]))
    print("finite %d non-finite %d differ %d changed %d" %
          (len(finite), len(a) - len(finite), differ, changed))


if __name__ == "__main__":
    {"plant": plant, "compare": compare}[sys.argv[1]](sys.argv[2:])
