#!/usr/bin/env python3
"""The µGraph search on the imported real models (bench/models, generated
from PyTorch by bench/models/generate.py): estimated time on the target
before (default schedule: one predefined kernel per op) and after
--superoptimize, summed over the function's subprograms, one table row per
model (docs/Benchmarks.md, "Importers").

Usage: bench/run-model-search-bench.py [--build build] [--target sm_90]
       [--state-budget N] [models...]
"""
import argparse, importlib.util, pathlib, re

here = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("search_bench", here / "run-search-bench.py")
search_bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(search_bench)


def graph_ops(program):
    return len(re.findall(r"= graph\.", program.read_text()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--target", default="sm_90")
    ap.add_argument("--state-budget", type=int, default=0,
                    help="the search's state budget (0: its default)")
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    opt = str(pathlib.Path(args.build).resolve() / "bin" / "mirage-opt")
    models = [pathlib.Path(p) for p in args.models] or sorted((here / "models").glob("*.mlir"))
    options = f"target={args.target} threads=1"
    if args.state_budget:
        options += f" state-budget={args.state_budget}"
    total = search_bench.total
    print(f"| model | graph ops | subprograms | kernels (was) | graph-defined | "
          f"estimated ms before | after ({args.target}) | speedup | search s | wall s | budget-cut subprograms |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for model in models:
        parts, _, wall, _ = search_bench.run(opt, model, options, timeout=1800)
        before, after = total(parts, "before", float), total(parts, "after", float)
        cut = sum(1 for p in parts if p["budget"])
        print(f"| {model.stem} | {graph_ops(model)} | {len(parts)} | {total(parts, 'kernels')} "
              f"({total(parts, 'was')}) | {total(parts, 'gd')} | {before / 1000:.3f} | {after / 1000:.3f} "
              f"| {before / after:.2f}x | {total(parts, 'search', float):.2f} | {wall:.1f} | {cut} |",
              flush=True)


if __name__ == "__main__":
    main()
