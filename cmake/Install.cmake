# `cmake --install build --prefix <dir>` installs:
#   bin/                      mirage-opt, mirage-run, mirage-gpu-run
#   lib/                      the Mirage* libraries and both plugins
#   include/mirage/           headers, ODS and generated .inc files
#   lib/cmake/MirageOpt/      the package, for find_package(MirageOpt)
# Everything links Debian's libMLIR.so and libLLVM.so, found through the
# RUNPATH set in the top-level CMakeLists.txt.

include(CMakePackageConfigHelpers)

set(MIRAGE_INSTALL_INCLUDE_DIR include)
set(MIRAGE_INSTALL_CMAKE_DIR lib${LLVM_LIBDIR_SUFFIX}/cmake/MirageOpt)

install(TARGETS mirage-opt mirage-run mirage-gpu-run
  RUNTIME DESTINATION bin COMPONENT mirage-tools)
install(TARGETS MirageDialectPlugin MiragePassPlugin
  LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX} COMPONENT mirage-plugins)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/
  DESTINATION ${MIRAGE_INSTALL_INCLUDE_DIR} COMPONENT mirage-headers
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td"
  PATTERN "CMakeLists.txt" EXCLUDE)
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/
  DESTINATION ${MIRAGE_INSTALL_INCLUDE_DIR} COMPONENT mirage-headers
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# add_mlir_library puts every library into the export set "MLIRTargets" (its
# name is fixed by MLIR's CMake); in this project that set holds only the
# Mirage* libraries, so it is exported as the package's targets, with the
# include folder the installed headers need.
get_property(mirageLibraries GLOBAL PROPERTY MLIR_EXPORTS)
foreach(lib IN LISTS mirageLibraries)
  # The project's own version, not LLVM's (add_llvm_library's default).
  set_target_properties(${lib} PROPERTIES
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  target_include_directories(${lib} INTERFACE
    $<INSTALL_INTERFACE:${MIRAGE_INSTALL_INCLUDE_DIR}>)
endforeach()
install(EXPORT MLIRTargets
  NAMESPACE MirageOpt::
  FILE MirageOptTargets.cmake
  DESTINATION ${MIRAGE_INSTALL_CMAKE_DIR}
  COMPONENT mirage-cmake)

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/MirageOptConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/MirageOptConfig.cmake
  INSTALL_DESTINATION ${MIRAGE_INSTALL_CMAKE_DIR}
  PATH_VARS MIRAGE_INSTALL_INCLUDE_DIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/MirageOptConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/MirageOptConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/MirageOptConfigVersion.cmake
  DESTINATION ${MIRAGE_INSTALL_CMAKE_DIR}
  COMPONENT mirage-cmake)
