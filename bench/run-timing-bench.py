#!/usr/bin/env python3
"""Simulated time of every benchmark program (docs/TimingModel.md, "The
benchmark programs on the clock").

For each program of bench/programs (full size) and chip: the default
schedule and the µGraph --superoptimize finds, lowered to PTX
(--mirage-to-ptx, cubin=false) and run by `mirage-gpu-run --emulate
--timing` (checkers on, the outputs checked against the fp64 reference),
beside the cost model's estimate (--estimate-cost) and the physical floor:

  floor = max(compulsory HBM bytes / HBM bandwidth, FLOP / f16 tensor peak)
          + one launch overhead

where the compulsory bytes are the function's inputs and outputs once and
the FLOP the cost model's count. Every time includes one launch overhead per
kernel (in a stream). Labels: "estimated" is the cost model, "simulated" the
timing model; nothing here is measured on a GPU.

The second table, per kernel: the cost model's estimate, the simulated
time, their ratio, and the simulated bound (what docs/TimingModel.md's
"The cost model against the clock" discusses).

The eager baseline (bench/timing/peers.py, needs PyPI `triton`, which the
setup's .venv has): one Triton kernel per op, run and checked the same way;
for GQA and QKNorm also the attention fused into one FlashAttention-style
Triton kernel;
on sm_90 it is Ampere code (mma.sync), since Triton's Hopper tl.dot is
wgmma, which the emulator does not run yet.

Usage: bench/run-timing-bench.py [--build build] [--chips sm_80,sm_90]
       [--no-searched] [--no-eager] [--state-budget 1000000] [--json FILE]
       [programs...]
"""
import argparse, json, math, os, pathlib, re, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent

FUNCTION_REMARK = re.compile(
    r"remark: @(?P<name>\w+): (?P<us>[\d.]+) us on \w+ in (?P<kernels>\d+) kernel")
KERNEL_REMARK = re.compile(
    r"remark: (?P<op>[\w.]+): (?P<us>[\d.]+) us on \w+, (?P<bound>[\w-]+); "
    r"device memory (?P<dram>\d+) B, L2 (?P<l2>\d+) B, shared memory (?P<smem>\d+) B, "
    r"(?P<flop>\d+) FLOP")

# The datasheet figures the floor uses (the target database's; the timing
# model prints them in its JSON too).
PEAKS = {"sm_80": {"hbm_gbs": 2039, "tflops": 312, "launch_us": 3.0},
         "sm_90": {"hbm_gbs": 3350, "tflops": 989.4, "launch_us": 2.5}}


def run(cmd, ok=(0,)):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in ok:
        sys.exit(f"failed ({proc.returncode}): {' '.join(map(str, cmd))}\n"
                 f"{proc.stderr[-4000:]}")
    return proc


def python_with_triton():
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def measure(build, program, chip, schedule, budget, tmp):
    opt = str(build / "bin" / "mirage-opt")
    tool = str(build / "bin" / "mirage-gpu-run")
    if schedule in ("eager", "fused"):
        return measure_eager(build, program, chip, tmp, schedule)
    module = program
    if schedule == "searched":
        module = tmp / f"{program.stem}.{chip}.mlir"
        run([opt, str(program),
             f"--superoptimize=target={chip} state-budget={budget} cache=false",
             "-o", str(module)])
    cost = run([opt, str(module), f"--estimate-cost=target={chip}",
                "-o", "/dev/null"]).stderr
    function = FUNCTION_REMARK.search(cost)
    kernels = [m.groupdict() for m in KERNEL_REMARK.finditer(cost)
               if m.group("bound") != "free"]
    flop = sum(int(k["flop"]) for k in kernels)
    out = tmp / f"{program.stem}.{chip}.{schedule}"
    run([opt, str(module),
         f"--mirage-to-ptx=target={chip} output={out} cubin=false",
         "-o", "/dev/null"])
    manifest = json.loads(pathlib.Path(f"{out}.json").read_text())
    buffers = manifest["functions"][0]["buffers"]
    compulsory = sum(b["bytes"] for b in buffers
                     if b.get("role") in ("input", "output"))
    start = time.monotonic()
    proc = run([tool, f"{out}.json", "--emulate", "--timing", "--json"],
               ok=(0, 3))
    wall = time.monotonic() - start
    report = json.loads(proc.stdout)
    timing = report["timing"]
    peak = PEAKS[chip]
    floor = max(compulsory / (peak["hbm_gbs"] * 1e3),
                flop / (peak["tflops"] * 1e6)) + peak["launch_us"]
    per_kernel = []
    for i, k in enumerate(timing["kernels"]):
        est = float(kernels[i]["us"]) if i < len(kernels) else None
        per_kernel.append({"kernel": k["kernel"], "estimated_us": est,
                           "simulated_us": k["time_us"] + timing["launch_overhead_us"],
                           "bound": k["bound"], "hbm": k["hbm_fraction"],
                           "tensor": k["tensor_fraction"]})
    return {"program": program.stem, "chip": chip, "schedule": schedule,
            "kernels": len(timing["kernels"]),
            "estimated_us": float(function["us"]) if function else None,
            "simulated_us": timing["total_us"], "floor_us": floor,
            "compulsory_bytes": compulsory, "flop": flop,
            "pass": report["pass"], "wall_s": wall, "per_kernel": per_kernel}


def measure_eager(build, program, chip, tmp, schedule):
    """The Triton baselines (bench/timing/peers.py), with the default
    schedule's reference and buffers: "eager", one Triton kernel per op;
    "fused", the attention as one FlashAttention-style kernel."""
    tool = str(build / "bin" / "mirage-gpu-run")
    default = tmp / f"{program.stem}.{chip}.default.json"
    prefix = tmp / f"{program.stem}.{chip}.{schedule}"
    env = dict(os.environ, TRITON_DEFAULT_FP_FUSION="1")
    proc = subprocess.run([python_with_triton(),
                           str(ROOT / "bench" / "timing" / "peers.py"),
                           program.stem, str(default), str(prefix)] +
                          (["fused"] if schedule == "fused" else []),
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"peers.py failed for {program.stem}:\n{proc.stderr[-4000:]}")
    start = time.monotonic()
    report = json.loads(run([tool, f"{prefix}.json", "--emulate", "--timing",
                             f"--timing-target={chip}", "--json"],
                            ok=(0, 3)).stdout)
    wall = time.monotonic() - start
    timing = report["timing"]
    buffers = json.loads(pathlib.Path(f"{prefix}.json").read_text())[
        "functions"][0]["buffers"]
    compulsory = sum(b["bytes"] for b in buffers
                     if b.get("role") in ("input", "output"))
    return {"program": program.stem, "chip": chip, "schedule": schedule,
            "kernels": len(timing["kernels"]), "estimated_us": None,
            "simulated_us": timing["total_us"], "floor_us": None,
            "compulsory_bytes": compulsory, "flop": None,
            "pass": report["pass"], "wall_s": wall,
            "per_kernel": [{"kernel": k["kernel"], "estimated_us": None,
                            "simulated_us": k["time_us"] +
                            timing["launch_overhead_us"],
                            "bound": k["bound"], "hbm": k["hbm_fraction"],
                            "tensor": k["tensor_fraction"]}
                           for k in timing["kernels"]]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--chips", default="sm_80,sm_90")
    parser.add_argument("--no-searched", action="store_true")
    parser.add_argument("--no-eager", action="store_true",
                        help="skip the Triton eager baseline (needs triton)")
    parser.add_argument("--state-budget", type=int, default=1000000)
    parser.add_argument("--json")
    parser.add_argument("programs", nargs="*")
    args = parser.parse_args()
    build = pathlib.Path(args.build).resolve()
    programs = ([pathlib.Path(p) for p in args.programs] or
                sorted((ROOT / "bench" / "programs").glob("*.mlir")))
    chips = args.chips.split(",")
    schedules = (["default"] + ([] if args.no_searched else ["searched"]) +
                 ([] if args.no_eager else ["eager", "fused"]))
    results = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = pathlib.Path(tmpdir)
        for program in programs:
            for chip in chips:
                for schedule in schedules:
                    if schedule == "fused" and not re.match(
                            r"(gqa|qknorm)(_b\d+)?$", program.stem):
                        continue
                    r = measure(build, program, chip, schedule,
                                args.state_budget, tmp)
                    results.append(r)
                    print(f"# {r['program']} {chip} {schedule}: "
                          f"{r['simulated_us']:.1f} us simulated "
                          f"({r['wall_s']:.1f} s)", file=sys.stderr,
                          flush=True)

    print("# mirage-gpu-run --emulate --timing (simulated), --estimate-cost "
          "(estimated), full size; us, one launch overhead per kernel")
    print("| program | chip | schedule | kernels | estimated | simulated | "
          "estimated / simulated | floor | simulated / floor | check |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    floors = {(r["program"], r["chip"]): r["floor_us"] for r in results
              if r["floor_us"]}
    def fmt(value, digits=1):
        return "-" if value is None else f"{value:.{digits}f}"

    for r in results:
        est, sim = r["estimated_us"], r["simulated_us"]
        floor = floors.get((r["program"], r["chip"]))
        label = {"eager": "eager (Triton)",
                 "fused": "fused attention (Triton)"}.get(r["schedule"],
                                                          r["schedule"])
        print(f"| {r['program']} | {r['chip']} | {label} | {r['kernels']} | "
              f"{fmt(est)} | {fmt(sim)} | "
              f"{fmt(est / sim if est else None, 2)} | {fmt(floor)} | "
              f"{fmt(sim / floor if floor else None, 2)} | "
              f"{'pass' if r['pass'] else 'FAIL'} |")
    print()
    print("Speedup of the searched µGraph over the default schedule "
          "(estimated and simulated) and over the eager Triton baseline "
          "(simulated):")
    print("| program | chip | vs default, estimated | vs default, simulated "
          "| vs eager, simulated | vs fused attention, simulated |")
    print("|---|---|---|---|---|---|")
    by_key = {(r["program"], r["chip"], r["schedule"]): r for r in results}
    for r in results:
        if r["schedule"] != "searched":
            continue
        d = by_key.get((r["program"], r["chip"], "default"))
        e = by_key.get((r["program"], r["chip"], "eager"))
        est = (f"{d['estimated_us'] / r['estimated_us']:.2f}x" if d else "-")
        sim = (f"{d['simulated_us'] / r['simulated_us']:.2f}x" if d else "-")
        eager = (f"{e['simulated_us'] / r['simulated_us']:.2f}x" if e else "-")
        f = by_key.get((r["program"], r["chip"], "fused"))
        fused = (f"{f['simulated_us'] / r['simulated_us']:.2f}x" if f else "-")
        print(f"| {r['program']} | {r['chip']} | {est} | {sim} | {eager} | "
              f"{fused} |")
    print()
    print("Per kernel (launch overhead included in both):")
    print("| program | chip | schedule | kernel | estimated | simulated | "
          "estimated / simulated | bound (simulated) | HBM | tensor |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        for k in r["per_kernel"]:
            est = k["estimated_us"]
            ratio = f"{est / k['simulated_us']:.2f}" if est else "-"
            print(f"| {r['program']} | {r['chip']} | {r['schedule']} | "
                  f"{k['kernel']} | {fmt(est, 2)} | "
                  f"{k['simulated_us']:.1f} | {ratio} | {k['bound']} | "
                  f"{100 * k['hbm']:.0f}% | {100 * k['tensor']:.0f}% |")
    print()
    print("The cost model against the clock, by the simulated bound: the "
          "estimate / simulated ratio of every kernel of ours (geometric "
          "mean, range):")
    print("| schedule | simulated bound | kernels | estimated / simulated | "
          "range |")
    print("|---|---|---|---|---|")
    groups = {}
    for r in results:
        if r["schedule"] in ("eager", "fused"):
            continue
        for k in r["per_kernel"]:
            if k["estimated_us"]:
                groups.setdefault((r["schedule"], k["bound"]), []).append(
                    k["estimated_us"] / k["simulated_us"])
    for (schedule, bound), ratios in sorted(groups.items()):
        mean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"| {schedule} | {bound} | {len(ratios)} | {mean:.2f} | "
              f"{min(ratios):.2f}-{max(ratios):.2f} |")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=1))
    if not all(r["pass"] for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
