# The mirage_opt Python package (python/), for the virtual environment whose
# interpreter is MIRAGE_PYTHON_EXECUTABLE (scripts/setup.sh: .venv/bin/python).
# `mirage-python-package` installs the build tree into build/install and
# pip-installs the package against it (scikit-build-core keeps its build in
# build/python/, so a rebuild only recompiles what changed); check-mirage
# depends on it and runs the package's pytest suite (test/Python).

set(MIRAGE_PYTHON_EXECUTABLE "" CACHE FILEPATH
  "Python of the virtual environment the mirage_opt package is installed into and tested with (empty: no Python package)")

if(MIRAGE_PYTHON_EXECUTABLE)
  get_property(mirageLibraries GLOBAL PROPERTY MLIR_EXPORTS)
  set(MIRAGE_PYTHON_PREFIX ${PROJECT_BINARY_DIR}/install)
  add_custom_target(mirage-python-package
    COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR}
            --prefix ${MIRAGE_PYTHON_PREFIX} > ${PROJECT_BINARY_DIR}/python-install.log
    COMMAND ${MIRAGE_PYTHON_EXECUTABLE} -m pip install --quiet --no-build-isolation
            --no-deps ${PROJECT_SOURCE_DIR}/python
            -Ccmake.define.CMAKE_PREFIX_PATH=${MIRAGE_PYTHON_PREFIX}
    COMMENT "Installing the mirage_opt Python package into ${MIRAGE_PYTHON_EXECUTABLE}"
    USES_TERMINAL
    VERBATIM)
  add_dependencies(mirage-python-package
    mirage-opt mirage-run mirage-gpu-run MirageDialectPlugin MiragePassPlugin
    ${mirageLibraries})
endif()
