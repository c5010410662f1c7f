#!/usr/bin/env python3
"""µGraph search benchmark: runs --superoptimize on the programs of the benchmark set (docs/Benchmarks.md)
(bench/programs, and prefill attention in bench/search-programs) with 1 and 2 threads, and once with pruning off under a
time cap, and prints one table row per program.

Usage: bench/run-search-bench.py [--build build] [--target sm_90]
       [--ablation-cap 60] [--time-budget 600] [--state-budget N]
       [--preset default|mirage-limits] [--search-options "k=v ..."]
       [programs...]

--time-budget is the search's wall-clock safety limit (a search it cuts is
marked "(budget)", like one its deterministic state budget cuts); the
ablation without pruning runs until --ablation-cap seconds.
"""
import argparse, pathlib, re, resource, subprocess, sys, tempfile, time

REMARK = re.compile(
    r"(?P<ops>\d+) graph op\(s\) -> (?P<kernels>\d+) kernel\(s\) \((?P<gd>\d+) graph-defined\), "
    r"was (?P<was>\d+); estimated (?P<before>[\d.]+) us -> (?P<after>[\d.]+) us .*?"
    r"search: (?P<states>\d+) states explored, (?P<pruned>\d+) pruned, (?P<graphs>\d+) block graphs, "
    r"(?P<costed>\d+) instantiations costed, (?P<verified>\d+) candidates verified \((?P<rejected>\d+) rejected\), "
    r"(?P<search>[\d.]+) s search \+ (?P<verify>[\d.]+) s verification(?P<budget>; (?:[a-z]+ budget|time limit) reached)?")


BOUND = re.compile(r"false-positive bound 2\^-(?P<bits>[\d.]+)")
# The kernel-level enumeration's part of the remark (docs/Search.md,
# "Kernel-level enumeration").
KERNEL_LEVEL = re.compile(
    r"kernel level: (?:not enumerated, (?P<skipped>[^;]*)|(?P<kstates>\d+) states, \d+ pruned, "
    r"(?P<forms>\d+) other formulation\(s\) searched .*?; chosen: (?P<chosen>[^;]*))")


def known_structure(name, ir):
    """Whether Mirage's best known µGraph structure is in the output."""
    defs = ir.split("kernel.graph_def")[1:]
    if name.startswith("rmsnorm"):
        # The norm fused into the matmul's block graph: Mirage's form (the
        # loop accumulates X W and red_rms of X, divided after it), the same
        # with fine-grained ops, or block.rms_norm of a whole row.
        if any("block.matmul" in d and "block.accum red_rms" in d for d in defs) or \
                (len(defs) == 1 and "block.rms_norm" in defs[0] and "kernel." not in ir.replace("kernel.graph_def", "")):
            return True
        return any("block.matmul" in d and d.count("block.accum sum") >= 2
                   and re.search(r"forloop = ([2-9]|\d\d+)", "forloop" + d.split("forloop", 1)[1][:12])
                   and "div" in d.split("block.accum")[-1] for d in defs)
    if name.startswith("gated_mlp"):
        return any(d.count("block.matmul") == 2 and "silu" in d and "mul" in d for d in defs)
    if name.startswith(("gqa", "qknorm")):
        # A FlashAttention-like kernel: Q K^T and an online softmax
        # (block.softmax_accum, which multiplies by V) in one block graph.
        return any("block.matmul" in d and "block.softmax_accum" in d for d in defs)
    if name.startswith("prefill"):
        return any("block.matmul" in d and "block.softmax_accum" in d for d in defs)
    if name.startswith("lora"):
        # One kernel (Mirage: X W + (X A) B fused; the search may also find
        # X (W + A B), which distributivity allows).
        return len(defs) == 1 and "kernel.matmul" not in ir
    if name.startswith("ntrans"):
        return len(defs) >= 1 and "kernel.rms_norm" not in ir
    return False


def merged_lora_best(name, parts):
    """Whether the naive merged LoRA X (A B) became (X A) B: the kernel-level
    enumeration's formulation that multiplies X by A first (A B, a [K, N]
    tensor, is what the program as written forms). The subprogram's inputs
    are numbered in order of first use: A, B, X."""
    return name.startswith("merged_lora") and any(
        (p.get("chosen") or "").startswith("%t3 = matmul(%arg2,%arg0), %t4 = matmul(%t3,%arg1)")
        for p in parts)


def run(opt, program, options, timeout=600):
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "out.mlir"
        cmd = [opt, str(program), f"--superoptimize={options} cache=false",
               "-o", str(out)]
        start = time.monotonic()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        wall = time.monotonic() - start
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        if proc.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
        parts = [m.groupdict() for m in REMARK.finditer(proc.stderr)]
        levels = [m.groupdict() for m in KERNEL_LEVEL.finditer(proc.stderr)]
        for part, level in zip(parts, levels):
            part.update(level)
        bounds = [float(b) for b in BOUND.findall(proc.stderr)]
        for part in parts:
            part["bounds"] = bounds
        return parts, out.read_text(), wall, max(rss, before) / 1024


def total(parts, key, conv=int):
    return sum(conv(p[key]) for p in parts)


def kernel_level(parts):
    """The kernel-level enumeration of the parts: its states, the other
    formulations searched, and the formulations chosen other than the
    program's own ('-' when it did not run)."""
    if not any(p.get("kstates") or p.get("skipped") for p in parts):
        return "-"
    states = sum(int(p.get("kstates") or 0) for p in parts)
    forms = sum(int(p.get("forms") or 0) for p in parts)
    chosen = [p["chosen"] for p in parts
              if p.get("chosen") and p["chosen"] != "the program as written"]
    skipped = sum(1 for p in parts if p.get("skipped"))
    text = f"{states} states, {forms} formulations"
    if skipped:
        text += f", {skipped} part(s) not enumerated"
    return text + (f", chose {' / '.join(chosen)}" if chosen else ", as written")


def bound(parts):
    """The weakest field-test bound of the parts (each part's verification
    states its own; a part kept in its default schedule states none)."""
    bits = parts[0]["bounds"] if parts else []
    return f"2^-{min(bits):g}" if bits else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--target", default="sm_90")
    ap.add_argument("--ablation-cap", type=float, default=60)
    ap.add_argument("--time-budget", type=float, default=600)
    ap.add_argument("--preset", default="default",
                    help="the search's preset (default or mirage-limits)")
    ap.add_argument("--state-budget", type=int, default=0,
                    help="the search's state budget (0: its default)")
    ap.add_argument("--search-options", default="",
                    help="more --superoptimize options for every run, e.g. "
                         "kernel-graph-ops=0 (the kernel-level enumeration off)")
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    root = pathlib.Path(__file__).resolve().parent.parent
    opt = str(pathlib.Path(args.build).resolve() / "bin" / "mirage-opt")
    programs = [pathlib.Path(p) for p in args.programs] or (
        sorted((root / "bench" / "programs").glob("*.mlir")) +
        sorted((root / "bench" / "search-programs").glob("*.mlir")))
    base = f"target={args.target} time-budget={args.time_budget} preset={args.preset}"
    if args.state_budget:
        base += f" state-budget={args.state_budget}"
    if args.search_options:
        base += " " + args.search_options

    print(f"| program | search 1 thread (s) | search 2 threads (s) | wall 1 thread (s) | peak RSS (MiB) "
          f"| states | pruned | kernels (was) | est. speedup | known best found "
          f"| pruning off: states in {args.ablation_cap:g} s cap | pruning off: kernels "
          f"| default (us) | searched (us) | verification (s) | false-positive bound "
          f"| structures x maps | kernel level |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|---|")
    for program in programs:
        name = program.stem
        p1, ir1, wall1, rss = run(opt, program, base + " threads=1")
        p2, ir2, wall2, _ = run(opt, program, base + " threads=2")
        if ir1 != ir2:
            print(f"warning: {name}: 1 and 2 threads gave different µGraphs", file=sys.stderr)
        pa, ira, _, _ = run(opt, program,
                            f"target={args.target} threads=1 pruning=false time-budget={args.ablation_cap} "
                            f"preset={args.preset} {args.search_options}")
        before, after = total(p1, "before", float), total(p1, "after", float)
        budget = " (budget)" if any(p["budget"] for p in p1) else ""
        print(f"| {name} | {total(p1, 'search', float):.2f}{budget} | {total(p2, 'search', float):.2f} "
              f"| {wall1:.1f} | {rss:.0f} | {total(p1, 'states')} | {total(p1, 'pruned')} "
              f"| {total(p1, 'kernels')} ({total(p1, 'was')}) | {before / after:.2f}x "
              f"| {'yes' if known_structure(name, ir1) or merged_lora_best(name, p1) else 'no'} "
              f"| {total(pa, 'states')}{' (cap)' if any(p['budget'] for p in pa) else ''} "
              f"| {total(pa, 'kernels')} | {before:.2f} | {after:.2f} "
              f"| {total(p1, 'verify', float):.1f} "
              f"| {bound(p1)} | {total(p1, 'costed')} ({total(p1, 'graphs')} structures) "
              f"| {kernel_level(p1)} |", flush=True)


if __name__ == "__main__":
    main()
