#!/usr/bin/env python3
"""Front-door benchmark (docs/Benchmarks.md, "Importers").

For each model of mirage_opt.models at full size (CNNs at 224x224, 299 for
Inception-v3; the Llama-style layer at hidden 4096 / 14336, sequence 16; the
BERT-base layer at sequence 128): the time of torch.export alone, of the
whole from_torch (export + graph building + mirage-opt's parse and verify),
and of from_onnx on the same model exported by torch.onnx.export; the
number of graph ops; the fp64 interpreter run and its relative error against
PyTorch. Then the Llama layer end to end: torch.nn.Module -> graph ->
superoptimize (sm_80) -> PTX, each stage timed.

Run with the virtual environment's Python, on one core for the import
times (taskset -c 0), as bench/run-import-bench.sh does.
Usage: run-import-bench.py [--no-run] [--no-onnx] [--state-budget N] [models...]
"""
import argparse
import io
import os
import sys
import tempfile
import time
import warnings

import numpy as np
import torch

import mirage_opt as mo
from mirage_opt import models


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-run", action="store_true", help="skip the interpreter runs")
    parser.add_argument("--no-onnx", action="store_true")
    parser.add_argument("--state-budget", type=int, default=200000)
    parser.add_argument("models", nargs="*")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)
    names = args.models or list(models.MODELS)
    print(f"# mirage_opt importers, full size, {os.cpu_count()} cores visible, "
          f"torch {torch.__version__}", flush=True)
    header = (f"{'model':<14} {'graph ops':>9} {'export s':>9} {'from_torch s':>12} "
              f"{'from_onnx s':>11} {'run s':>7} {'rel error':>10}")
    print(header)
    print("-" * len(header), flush=True)
    for name in names:
        m, ins = models.build(name)
        with torch.no_grad():
            _, export_s = timed(lambda: torch.export.export(m, ins))
        p, torch_s = timed(lambda: mo.from_torch(m, ins))
        onnx_s = "-"
        if not args.no_onnx:
            buf = io.BytesIO()
            torch.onnx.export(m, ins, buf, dynamo=False, opset_version=17)
            import onnx
            model = onnx.load_from_string(buf.getvalue())
            _, t = timed(lambda: mo.from_onnx(model))
            onnx_s = f"{t:.2f}"
        run_s, err = "-", "-"
        if not args.no_run:
            out, t = timed(lambda: p.run([x.numpy() for x in ins])[0])
            with torch.no_grad():
                ref = m(*ins).double().numpy()
            run_s = f"{t:.2f}"
            err = f"{np.abs(out - ref).max() / np.abs(ref).max():.1e}"
        ops = p.mlir(locations=False).count(" = graph.")
        print(f"{name:<14} {ops:>9} {export_s:>9.2f} {torch_s:>12.2f} {onnx_s:>11} "
              f"{run_s:>7} {err:>10}", flush=True)

    print("\n# torch.nn.Module -> PTX: the Llama-style decoder layer (full size), sm_80")
    m, ins = models.build("llama_layer")
    p, t_import = timed(lambda: mo.from_torch(m, ins))
    fast, t_search = timed(lambda: p.superoptimize(
        "sm_80", state_budget=args.state_budget, cache="off", verbose=False))
    with tempfile.TemporaryDirectory() as tmp:
        paths, t_lower = timed(lambda: fast.lower("sm_80", os.path.join(tmp, "llama")))
        ptx_kb = os.path.getsize(paths["ptx"]) / 1024
    kernels = fast.mlir(locations=False).count("kernel.graph_def")
    print(f"{'stage':<28} {'s':>7}")
    print(f"{'from_torch':<28} {t_import:>7.2f}")
    print(f"{'superoptimize (sm_80)':<28} {t_search:>7.2f}")
    print(f"{'mirage-to-ptx + cubin':<28} {t_lower:>7.2f}")
    print(f"{'total':<28} {t_import + t_search + t_lower:>7.2f}")
    print(f"({kernels} graph-defined kernels; PTX {ptx_kb:.0f} KiB; state budget "
          f"{args.state_budget})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
