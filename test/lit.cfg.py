# -*- Python -*-
# lit configuration for mirage-opt's regression tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MIRAGE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mirage_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "Unit"]

llvm_config.use_default_substitutions()
config.substitutions.append(("%mirage_libs", config.mirage_libs_dir))
config.substitutions.append(("%mirage_src", config.mirage_src_root))
config.substitutions.append(("%mirage_obj", config.mirage_obj_root))
# In a MIRAGE_SANITIZE build, programs built without ASan that load our
# libraries (upstream mlir-opt with the plugins, the install test's
# consumer) need the ASan runtime preloaded; %sanitizer_env prefixes them.
# Their own leaks are not ours to report.
if config.mirage_asan_runtime:
    config.available_features.add("sanitizer")
    sanitizer_env = "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0" % (
        config.mirage_asan_runtime)
else:
    sanitizer_env = "env"
config.substitutions.append(("%sanitizer_env", sanitizer_env))
# Upstream mlir-opt from the same LLVM, which loads the plugins.
config.substitutions.append(
    ("%upstream_mlir_opt",
     sanitizer_env + " " + os.path.join(config.llvm_tools_dir, "mlir-opt")))

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["mirage-opt", "mirage-run", "mirage-gpu-run", "mirage-timing-validation"],
    [config.mirage_tools_dir, config.llvm_tools_dir])

# Upstream MLIR's CPU runner and its runtime libraries: the importers'
# end-to-end tests run the original program there and compare it with
# mirage-run on the imported one (REQUIRES: mlir-runner).
mlir_runner = os.path.join(config.llvm_tools_dir, "mlir-runner")
runner_libs = [os.path.join(config.llvm_libs_dir, name) for name in
               ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")]
if os.path.exists(mlir_runner) and all(map(os.path.exists, runner_libs)):
    config.available_features.add("mlir-runner")
config.substitutions.append(
    ("%mlir_runner", mlir_runner + " -e main -entry-point-result=void "
     "-shared-libs=" + ",".join(runner_libs)))

# Tests that assemble cubins need ptxas from the CUDA toolkit; without it
# they report UNSUPPORTED (REQUIRES: ptxas) rather than fail.
# %ptxas runs it directly, e.g. for its -v resource report.
if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")
config.substitutions.append(("%ptxas", "/usr/local/cuda/bin/ptxas"))

# The Python package's pytest suite (test/Python) runs with the virtual
# environment's interpreter that CMake was given (MIRAGE_PYTHON_EXECUTABLE,
# set by scripts/setup.sh); without one it is UNSUPPORTED.
config.substitutions.append(("%mirage_python", config.mirage_python or "false"))
if config.mirage_python:
    config.available_features.add("python-package")
quick = lit_config.params.get("quick", "0") not in ("0", "")
config.substitutions.append(("%pytest_markers", '-m "not slow"' if quick else ""))

# Graphviz's `dot`, when on PATH, checks that --print-mugraph-dot's output
# is a graph it draws (REQUIRES: graphviz); it is not needed otherwise.
if shutil.which("dot", path=config.environment.get("PATH")):
    config.available_features.add("graphviz")

# check-mirage-quick passes quick=1: tests marked `REQUIRES: slow` (the
# full-size benchmark sweeps through ptxas, the install test) then report
# UNSUPPORTED; check-mirage runs them.
if lit_config.params.get("quick", "0") in ("0", ""):
    config.available_features.add("slow")
