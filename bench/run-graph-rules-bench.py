#!/usr/bin/env python3
"""Graph substitution benchmarks (docs/Benchmarks.md, "Graph substitutions").

discovery: runs --discover-substitutions with the default menu (the shipped
rule set's options) and prints, per stage, the count and the time: graphs
enumerated, candidates, the candidates left after each pruning step, rules
generalized, checked and proved.

search: runs --cse then --graph-optimize (the shipped rules, sm_90, alpha
1.05, the default budget of 300 graphs) on each model of bench/models
(imported at full size by the Python importers, weights as arguments) and
the NASNet-A cell of bench/graph-models, and each program of
bench/programs, and prints ops and estimated time before
and after, the rules applied, the search time (wall clock, and the CPU time
the search took: on a shared machine the wall clock includes waiting for a
core) and the whole run's time (search + verification of the result
against the input).

Usage: run-graph-rules-bench.py [--build build] discovery [--max-ops N]
                                                [--threads N]
       run-graph-rules-bench.py [--build build] search [--budget N] [files...]
"""
import argparse, os, pathlib, re, subprocess, sys, tempfile, time

HERE = pathlib.Path(__file__).resolve().parent

DISCOVERY = re.compile(
    r"(?P<graphs>\d+) graphs enumerated \((?P<states>\d+) states, (?P<renamings>\d+) more keyed "
    r"under other variable names, (?P<tenum>[\d.]+) s\); (?P<candidates>\d+) candidates -> "
    r"(?P<renaming>\d+) after renaming -> (?P<subgraph>\d+) after common subgraph -> "
    r"(?P<context>\d+) after common context -> (?P<irrelevant>\d+) after irrelevant subterms -> "
    r"(?P<conj>\d+) after conjunctions \((?P<tprune>[\d.]+) s\); (?P<generalized>\d+) generalized "
    r"\((?P<dups>\d+) the same rule as another, (?P<notgen>\d+) not generalizable\) "
    r"\((?P<tgen>[\d.]+) s\); (?P<checked>\d+) checked at generic sizes, (?P<failed>\d+) failed "
    r"\((?P<tcheck>[\d.]+) s\); (?P<proved>\d+) proved, (?P<notproved>\d+) not "
    r"\((?P<tprove>[\d.]+) s\); (?P<accepted>\d+) rules accepted(?P<budget>; the time budget.*)?")

OPT = re.compile(
    r"graph-optimize @(?P<fn>\w+): (?P<ops>\d+) ops, (?P<before>[\d.]+) us -> (?P<ops2>\d+) ops, "
    r"(?P<after>[\d.]+) us on (?P<target>\w+) \((?P<speedup>[\d.]+)x;.*?(?P<n>\d+) rewrite\(s\): "
    r"(?P<rules>.*?); search: (?P<visited>\d+) graphs visited.*?, (?P<search>[\d.]+) s(?P<rest>.*)")
NONE = re.compile(
    r"graph-optimize @(?P<fn>\w+): no cheaper graph found \((?P<ops>\d+) ops, (?P<before>[\d.]+) us "
    r"on (?P<target>\w+)\); search: (?P<visited>\d+) graphs visited.*?, (?P<search>[\d.]+) s(?P<rest>.*)")

# Arguments from this index on are weights (folded before the run, as in
# TASO); -1: none.
WEIGHTS_FROM = {
    "bert_layer": 2, "llama_layer": 1, "resnet50": 1, "resnext50": 1, "inception_v3": 1,
    "squeezenet1_1": 1, "vgg19": 1, "nasnet_a_cell": 2,
    "gated_mlp": 1, "lora": 1, "rmsnorm_b1": 1, "rmsnorm_b8": 1,
}


def run(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p, time.perf_counter() - start


def discovery(args):
    opt = str(pathlib.Path(args.build) / "bin" / "mirage-opt")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rules.mlir")
        options = f"output={out} max-ops={args.max_ops} threads={args.threads} time-budget={args.time_budget}"
        p, wall = run([opt, "/dev/null", f"--discover-substitutions={options}", "-o", "/dev/null"])
    m = DISCOVERY.search(p.stderr)
    if p.returncode or not m:
        sys.exit(f"discover-substitutions failed:\n{p.stderr[-3000:]}")
    g = m.groupdict()
    print(f"# --discover-substitutions, default menu, max-ops {args.max_ops}, "
          f"{args.threads} threads, {os.cpu_count()} cores visible; wall {wall:.1f} s")
    rows = [
        ("graphs enumerated (canonical, connected)", g["graphs"], g["tenum"]),
        ("  (keyed again under other variable names)", g["renamings"], ""),
        ("candidate pairs (equal fingerprints)", g["candidates"], g["tprune"]),
        ("  after renaming", g["renaming"], ""),
        ("  after common subgraph", g["subgraph"], ""),
        ("  after common context", g["context"], ""),
        ("  after irrelevant subterms", g["irrelevant"], ""),
        ("  after conjunctions", g["conj"], ""),
        (f"rules generalized (+{g['dups']} duplicates, {g['notgen']} not generalizable)",
         g["generalized"], g["tgen"]),
        (f"numerical check passed ({g['failed']} failed)", g["checked"], g["tcheck"]),
        (f"proved from the axioms ({g['notproved']} not)", g["proved"], g["tprove"]),
        ("accepted (proved and checked)", g["accepted"], ""),
    ]
    print(f"{'stage':<62} {'count':>8} {'seconds':>8}")
    print("-" * 80)
    for name, count, secs in rows:
        print(f"{name:<62} {count:>8} {secs:>8}")
    if g["budget"]:
        print("time budget reached:", g["budget"])


def search(args):
    opt = str(pathlib.Path(args.build) / "bin" / "mirage-opt")
    files = [pathlib.Path(f) for f in args.files] or (
        sorted((HERE / "models").glob("*.mlir")) + sorted((HERE / "graph-models").glob("*.mlir"))
        + sorted((HERE / "programs").glob("*.mlir")))
    print(f"# --cse --graph-optimize (shipped rules, {args.target}, alpha 1.05, budget {args.budget}); "
          f"{os.cpu_count()} cores visible")
    head = (f"{'program':<15} {'ops':>5} {'ops after':>9} {'est. us':>9} {'after':>9} {'speedup':>7} "
            f"{'rewrites':>8} {'visited':>8} {'search s':>8} {'cpu s':>6} {'total s':>7}  rules")
    print(head)
    print("-" * len(head))
    print("(visited*: the budget of graphs taken from the queue was reached; search s: wall clock;\n"
          " cpu s: the search's CPU time; total s: cse + search + verification of the result\n"
          " against the input, wall clock)")
    for f in files:
        name = f.stem
        wf = WEIGHTS_FROM.get(name, -1)
        p, wall = run([opt, str(f), "--cse",
                       f"--graph-optimize=weights-from={wf} target={args.target} budget={args.budget}",
                       "-o", "/dev/null"])
        m = OPT.search(p.stderr) or NONE.search(p.stderr)
        if p.returncode or not m:
            print(f"{name:<15} failed: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.returncode}")
            continue
        g = m.groupdict()
        after = g.get("after") or g["before"]
        ops2 = g.get("ops2") or g["ops"]
        n = g.get("n") or "0"
        rules = sorted(set(r.split(" ")[0] for r in (g.get("rules") or "").split(", ") if r))
        speed = float(g["before"]) / float(after)
        visited = g["visited"] + ("*" if "budget of" in g["rest"] else "")
        cpu = re.search(r"([\d.]+) s of CPU", g["rest"])
        cpu = f"{float(cpu.group(1)):.3f}" if cpu else "-"
        print(f"{name:<15} {g['ops']:>5} {ops2:>9} {float(g['before']):>9.1f} {float(after):>9.1f} "
              f"{speed:>6.2f}x {n:>8} {visited:>8} {float(g['search']):>8.3f} {cpu:>6} {wall:>7.1f}  "
              f"{' '.join(rules[:6])}{' ...' if len(rules) > 6 else ''}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    sub = parser.add_subparsers(dest="mode", required=True)
    d = sub.add_parser("discovery")
    d.add_argument("--max-ops", type=int, default=3)
    d.add_argument("--threads", type=int, default=2)
    d.add_argument("--time-budget", type=float, default=600)
    s = sub.add_parser("search")
    s.add_argument("--budget", type=int, default=300)
    s.add_argument("--target", default="sm_90")
    s.add_argument("files", nargs="*")
    args = parser.parse_args()
    discovery(args) if args.mode == "discovery" else search(args)


if __name__ == "__main__":
    main()
