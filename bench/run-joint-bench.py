#!/usr/bin/env python3
"""Joint search benchmark (docs/JointSearch.md): for each program, the
estimated time on the target of

  default      --graph-to-kernel (one predefined kernel per graph op)
  graph-only   --graph-optimize (the rules' search by predefined kernels)
  µGraph-only  --superoptimize (the µGraph search on the input graph)
  joint        --joint-optimize (rewrites ranked by their µGraph cost)

and each command's wall time, one table row per program. Ops on weights
only count 0 in the graph-only and joint columns (folded before the run, as
TASO and --graph-optimize assume); "joint+w" is the joint result with them
counted. Every optimized result is verified by its pass; a row whose pass
did not report a verified result fails the script.

Usage: bench/run-joint-bench.py [--build build] [--target sm_90]
       [--state-budget N] [--mugraph-searches N] [--budget N] [programs...]
"""
import argparse, pathlib, re, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAMS = ["bench/programs/gated_mlp.mlir", "bench/programs/lora.mlir",
            "bench/programs/gqa_b1.mlir", "bench/programs/gqa_b8.mlir",
            "bench/programs/qknorm_b1.mlir", "bench/programs/qknorm_b8.mlir",
            "bench/programs/rmsnorm_b1.mlir", "bench/programs/rmsnorm_b8.mlir",
            "bench/programs/ntrans_b1.mlir", "bench/programs/ntrans_b8.mlir",
            "bench/models/bert_layer.mlir", "bench/models/llama_layer.mlir",
            "bench/graph-models/nasnet_a_cell.mlir"]
# Arguments from this index on are weights (as bench/run-graph-rules-bench.py).
WEIGHTS_FROM = {"bert_layer": 2, "llama_layer": 1, "nasnet_a_cell": 2,
                "gated_mlp": 1, "lora": 1, "rmsnorm_b1": 1, "rmsnorm_b8": 1}

COST = re.compile(r"remark: @\w+: (?P<us>[\d.]+) us on \w+ in (?P<k>\d+) kernel")
GRAPH = re.compile(r"graph-optimize @\w+: \d+ ops, [\d.]+ us -> \d+ ops, (?P<us>[\d.]+) us")
GRAPH_NONE = re.compile(r"graph-optimize @\w+: (?:no cheaper graph found|kept the input) \(\d+ ops, (?P<us>[\d.]+) us")
JOINT = re.compile(
    r"joint-optimize @\w+ on \w+: default (?P<default>[\d.]+) us; graph-only (?P<graph>[\d.]+) us; "
    r"µGraph-only (?P<mu>[\d.]+) us; joint (?P<joint>[\d.]+) us in (?P<k>\d+) kernel\(s\), (?P<gd>\d+) graph-defined "
    r".*?: (?P<withw>[\d.]+) us with them\); (?P<n>\d+) rewrite\(s\)(?:: (?P<rules>[^;]*))?;"
    r".*?µGraph searches: (?P<searches>\d+) of \d+ allowed \((?P<hits>\d+) memo hits"
    r".*?; verified: (?P<verified>[^;\n]*)")


def run(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    return p, time.perf_counter() - start


def fail(what, p):
    sys.exit(f"{what} failed ({p.returncode}):\n{p.stderr[-3000:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--target", default="sm_90")
    ap.add_argument("--state-budget", type=int, default=1000000)
    ap.add_argument("--mugraph-searches", type=int, default=64)
    ap.add_argument("--budget", type=int, default=100)
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    opt = str((ROOT / args.build / "bin" / "mirage-opt").resolve())
    programs = args.programs or PROGRAMS
    t = args.target
    print(f"# {t}; graph search budget {args.budget} graphs (alpha 1.05); µGraph state budget "
          f"{args.state_budget} per subprogram; joint: at most {args.mugraph_searches} µGraph searches")
    print("| program | default us | graph-only us | µGraph-only us | joint us | joint+w us | joint kernels (graph-defined) "
          "| vs better alone | rewrites | µGraph searches (memo hits) | graph s | µGraph s | joint s |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|")
    better = 0
    for prog in programs:
        name = pathlib.Path(prog).stem
        wf = WEIGHTS_FROM.get(name, -1)
        p, _ = run([opt, prog, "--graph-to-kernel", f"--estimate-cost=target={t}", "-o", "/dev/null"])
        m = COST.search(p.stderr)
        if p.returncode or not m:
            fail(f"{name}: default", p)
        default = float(m["us"])
        p, graph_s = run([opt, prog, f"--graph-optimize=weights-from={wf} target={t} budget={args.budget}",
                          "-o", "/dev/null"])
        m = GRAPH.search(p.stderr) or GRAPH_NONE.search(p.stderr)
        if p.returncode or not m:
            fail(f"{name}: graph-optimize", p)
        graph = float(m["us"])
        p, mu_s = run([opt, prog, f"--superoptimize=target={t} state-budget={args.state_budget} cache=false",
                       f"--estimate-cost=target={t}", "-o", "/dev/null"])
        costs = COST.findall(p.stderr)
        if p.returncode or not costs or "verified:" not in p.stderr:
            fail(f"{name}: superoptimize", p)
        mu = float(costs[-1][0])
        p, joint_s = run([opt, prog, f"--joint-optimize=weights-from={wf} target={t} budget={args.budget} "
                          f"state-budget={args.state_budget} mugraph-searches={args.mugraph_searches}",
                          "-o", "/dev/null"])
        m = JOINT.search(p.stderr)
        if p.returncode or not m:
            fail(f"{name}: joint-optimize", p)
        joint = float(m["joint"])
        ratio = min(graph, mu) / joint
        better += joint < min(graph, mu) * (1 - 1e-6)
        rules = (m["rules"] or "-").replace(",", "")
        if len(rules) > 40:
            rules = rules[:37] + "..."
        print(f"| {name} | {default:.2f} | {graph:.2f} | {mu:.2f} | {joint:.2f} | {float(m['withw']):.2f} | "
              f"{m['k']} ({m['gd']}) | {ratio:.2f}x | {m['n']}: {rules} | {m['searches']} ({m['hits']}) | "
              f"{graph_s:.1f} | {mu_s:.1f} | {joint_s:.1f} |", flush=True)
    print(f"# joint strictly better than both alone on {better} of {len(programs)} programs")


if __name__ == "__main__":
    main()
