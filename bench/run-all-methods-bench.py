#!/usr/bin/env python3
"""Every optimization method on every evaluation program (docs/JointSearch.md,
"All methods"): for each program, after --cse, the estimated time on the
target of

  default       one predefined kernel per graph op (--graph-to-kernel)
  backtracking  --graph-optimize (TASO's best-first search over the rules)
  saturation    --graph-saturate (equality saturation over the same rules)
  µGraph-only   --superoptimize (the µGraph search on the input graph)
  joint         --joint-optimize (rewrites ranked by their µGraph cost)

with each pass's wall time (the search and the verification of its result)
and whether its result was verified, one table row per program. Every
estimate counts ops on weights only as 0 (folded before the run, as TASO
and the graph searches assume). The µGraph-only estimate is the one
--joint-optimize reports for its input (the same cut, search and
verification as --superoptimize, with the ops on weights folded); its time
is --superoptimize's own run, and "superopt+w" its own result through
--estimate-cost with every op counted. A pass that runs past --timeout is
stopped and its cell says so.

Usage: bench/run-all-methods-bench.py [--build build] [--target sm_90]
       [--timeout S] [--budget N] [--state-budget N] [--mugraph-searches N]
       [programs...]
"""
import argparse, importlib.util, pathlib, re, sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, HERE / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The parsers and settings of the two benchmarks this one joins.
joint_bench = load("joint_bench", "run-joint-bench.py")
saturation_bench = load("saturation_bench", "run-saturation-bench.py")

PROGRAMS = (sorted(str(p.relative_to(ROOT)) for p in (HERE / "models").glob("*.mlir"))
            + ["bench/graph-models/nasnet_a_cell.mlir"]
            + sorted(str(p.relative_to(ROOT)) for p in (HERE / "programs").glob("*.mlir")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--target", default="sm_90")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per pass run")
    ap.add_argument("--budget", type=int, default=100, help="graphs of the backtracking and joint searches")
    ap.add_argument("--state-budget", type=int, default=1000000,
                    help="states per µGraph search, --superoptimize's and the joint's alike")
    ap.add_argument("--mugraph-searches", type=int, default=256,
                    help="the joint search's µGraph searches (a CNN's input alone needs 60-200)")
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    opt = str((ROOT / args.build / "bin" / "mirage-opt").resolve())
    t = args.target
    print(f"# {t}; estimates in us from the cost model (ops on weights only folded); "
          f"pass wall seconds in parentheses; backtracking and joint budget {args.budget} graphs; "
          f"µGraph state budget {args.state_budget} per subprogram; joint: at most {args.mugraph_searches} µGraph searches")
    print("| program | default | backtracking (s) | saturation (s) | µGraph-only (s) | joint (s) | joint vs best other "
          "| superopt+w | verified: bt / sat / µGraph / joint |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|---|")
    wins = clear_wins = 0
    for prog in args.programs or PROGRAMS:
        name = pathlib.Path(prog).stem
        wf = joint_bench.WEIGHTS_FROM.get(name, -1)
        base = [opt, str(ROOT / prog), "--cse"]

        def timed(extra):
            """(stderr, seconds); stderr None on a timeout, and the first
            error line (printed in the cell) when the pass fails."""
            rc, err, s = saturation_bench.run(base + extra + ["-o", "/dev/null"], args.timeout)
            if rc is None:
                return None, s
            if rc:
                line = next((l for l in err.splitlines() if "error:" in l), err.strip()[-200:])
                print(f"# {name}: {' '.join(extra)} failed ({rc}): {line}", file=sys.stderr)
                return "failed: " + line.split("error:")[-1].strip(), s
            return err, s

        def failed(err):
            return err.startswith("failed: ")

        cells, verified, default = {}, {}, None
        err, s = timed([f"--graph-optimize=weights-from={wf} target={t} budget={args.budget}"])
        if err is None or failed(err):
            cells["bt"], verified["bt"] = err or f"timeout ({s:.0f})", "-"
        else:
            before, after, _ = saturation_bench.parse_optimize(err)
            cells["bt"], default = (after, s), before
            verified["bt"] = "yes" if "verified:" in err else "input kept"
        err, s = timed([f"--graph-saturate=weights-from={wf} target={t}"])
        if err is None or failed(err):
            cells["sat"], verified["sat"] = err or f"timeout ({s:.0f})", "-"
        else:
            row = saturation_bench.parse_saturate(err)
            cells["sat"] = (row["after"], s)
            verified["sat"] = ("yes" if row["verified"] else
                               "input kept" if row["after"] == row["before"] else "no")
        err, s = timed([f"--superoptimize=target={t} cache=false state-budget={args.state_budget}",
                        f"--estimate-cost=target={t}"])
        superopt_w, mu_s = "-", s
        if err is None or failed(err):
            cells["mu"], verified["mu"] = err or f"timeout ({s:.0f})", "-"
        else:
            costs = joint_bench.COST.findall(err)
            superopt_w = f"{float(costs[-1][0]):.2f}"
            parts = re.findall(r"remark: superoptimize @\S+ part \d+:[^\n]*", err)
            kept = sum("verified:" not in p for p in parts)
            # A part kept in its default schedule has nothing to verify.
            verified["mu"] = f"yes ({len(parts) - kept} of {len(parts)} parts changed)"
        err, s = timed([f"--joint-optimize=weights-from={wf} target={t} budget={args.budget} "
                        f"mugraph-searches={args.mugraph_searches} state-budget={args.state_budget}"])
        if err is None or failed(err):
            cells["joint"], verified["joint"] = err or f"timeout ({s:.0f})", "-"
            if "mu" not in cells:
                # No figure with the ops on weights folded: --superoptimize's
                # own, every op counted.
                cells["mu"] = f"{superopt_w} +w ({mu_s:.1f})"
        else:
            m = joint_bench.JOINT.search(err)
            if not m:
                sys.exit(f"{name}: no joint-optimize remark:\n{err[-3000:]}")
            default = float(m["default"])
            cells["joint"] = (float(m["joint"]), s)
            if "mu" not in cells:
                cells["mu"] = (float(m["mu"]), mu_s)
            verified["joint"] = "yes"

        def show(c):
            return c if isinstance(c, str) else f"{c[0]:.2f} ({c[1]:.1f})"

        others = [c[0] for k, c in cells.items() if k != "joint" and not isinstance(c, str)]
        vs = "-"
        if not isinstance(cells["joint"], str) and others:
            best_other = min(others)
            vs = f"{best_other / cells['joint'][0]:.2f}x"
            wins += cells["joint"][0] < best_other * (1 - 1e-6)
            clear_wins += cells["joint"][0] < best_other * 0.99
        print(f"| {name} | {'-' if default is None else f'{default:.2f}'} | {show(cells['bt'])} | {show(cells['sat'])} | {show(cells['mu'])} | "
              f"{show(cells['joint'])} | {vs} | {superopt_w} | {verified['bt']} / {verified['sat']} / "
              f"{verified['mu']} / {verified['joint']} |", flush=True)
    print(f"# joint strictly better than every other method on {wins} program(s), "
          f"by 1% or more on {clear_wins}")


if __name__ == "__main__":
    main()
