#!/usr/bin/env python3
"""Equality saturation (--graph-saturate) beside TASO's backtracking search
(--graph-optimize) on the graph-level evaluation models (bench/models, at
full size, weights from argument 1 on; bench/graph-models, the NASNet-A
cell, weights from argument 2 on) and the µGraph benchmark programs
(bench/programs, no weights): one table row per program and search, with
the e-graph's size, iterations, stop reason, extraction, times and the
estimated time on the target before and after (docs/EqualitySaturation.md).

Usage: bench/run-saturation-bench.sh [build-dir] [--only NAME] [--opt-time S]
                                     [--sat-options 'k=v ...']
"""
import argparse
import pathlib
import re
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent


def run(cmd, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stderr, time.monotonic() - t0
    except subprocess.TimeoutExpired:
        return None, "", time.monotonic() - t0


def parse_optimize(err):
    m = re.search(r"graph-optimize @\S+: (\d+) ops, ([\d.]+) us -> (\d+) ops, ([\d.]+) us", err)
    s = re.search(r"search: (\d+) graphs visited.*?([\d.]+) s;", err)
    if m:
        return float(m.group(2)), float(m.group(4)), s.group(2) if s else "?"
    m = re.search(r"graph-optimize @\S+: (?:no cheaper graph found|kept the input) \((\d+) ops, ([\d.]+) us", err)
    if m:
        return float(m.group(2)), float(m.group(2)), s.group(2) if s else "?"
    return None


def parse_saturate(err):
    row = {}
    m = re.search(r"graph-saturate @\S+: (\d+) ops, ([\d.]+) us -> (\d+) ops, ([\d.]+) us", err)
    if m:
        row["before"], row["after"] = float(m.group(2)), float(m.group(4))
    else:
        m = re.search(r"graph-saturate @\S+: (?:no cheaper graph extracted|kept the input) \((\d+) ops, ([\d.]+) us", err)
        if not m:
            return None
        row["before"] = row["after"] = float(m.group(2))
    m = re.search(r"e-graph: (\d+) e-nodes, (\d+) e-classes, (\d+) iteration\(s\), stopped: ([a-z ]+)", err)
    row["nodes"], row["classes"], row["iters"], row["stop"] = m.groups()
    m = re.search(r"extraction: (sharing \(fallback|sharing|ilp \(optimal\)|greedy)", err)
    row["extraction"] = {"greedy": "greedy", "ilp (optimal)": "ilp", "sharing": "sharing",
                         "sharing (fallback": "sharing (ilp fallback)"}[m.group(1)]
    m = re.search(r"saturation ([\d.]+) s, extraction ([\d.]+) s", err)
    row["sat_s"], row["ext_s"] = float(m.group(1)), float(m.group(2))
    row["verified"] = "verified" in err and "failed verification" not in err
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--only", default=None)
    ap.add_argument("--opt-time", default="20",
                    help="--graph-optimize's time-limit (a safety cut)")
    ap.add_argument("--target", default="sm_90")
    ap.add_argument("--sat-options", default="",
                    help="extra --graph-saturate options (default: its defaults)")
    args = ap.parse_args()
    opt = pathlib.Path(args.build) / "bin" / "mirage-opt"
    files = (sorted((HERE / "models").glob("*.mlir")) + sorted((HERE / "graph-models").glob("*.mlir"))
             + sorted((HERE / "programs").glob("*.mlir")))
    print("| program | e-nodes | e-classes | iters | stop | extraction | sat + extract (s) "
          "| start (us) | eqsat (us) | backtracking (us) | backtracking search (s) | eqsat ≤ backtracking |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for f in files:
        name = f.stem
        if args.only and name != args.only:
            continue
        weights = {"models": "weights-from=1 ", "graph-models": "weights-from=2 "}.get(f.parent.name, "")
        extra = f" {args.sat_options}" if args.sat_options else ""
        rc, err, _ = run([str(opt), str(f), f"--graph-saturate={weights}target={args.target}{extra}",
                          "-o", "/dev/null"], 600)
        sat = parse_saturate(err) if rc == 0 else None
        rc2, err2, _ = run([str(opt), str(f),
                            f"--graph-optimize={weights}target={args.target} time-limit={args.opt_time}",
                            "-o", "/dev/null"], 900)
        bt = parse_optimize(err2) if rc2 == 0 else None
        if sat is None:
            print(f"| {name} | failed (exit {rc}) | | | | | | | | | | |")
            sys.stdout.flush()
            continue
        bt_after = f"{bt[1]:.2f}" if bt else "failed"
        bt_time = bt[2] if bt else "-"
        cmp = "-" if not bt else ("yes" if sat["after"] <= bt[1] + 1e-9 else "**no**")
        print(f"| {name} | {sat['nodes']} | {sat['classes']} | {sat['iters']} | {sat['stop']} | "
              f"{sat['extraction']} | {sat['sat_s']:.3f} + {sat['ext_s']:.3f} | {sat['before']:.2f} | "
              f"{sat['after']:.2f}{'' if sat['verified'] or sat['after'] == sat['before'] else ' (unverified, kept input)'} | "
              f"{bt_after} | {bt_time} | {cmp} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
