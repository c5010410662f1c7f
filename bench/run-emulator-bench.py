#!/usr/bin/env python3
"""PTX emulator benchmark (docs/GpuEmulator.md, "Speed").

Every program of bench/programs at full size, in its default schedule and
as the µGraph --superoptimize finds, lowered for sm_80 and sm_90
(`--mirage-to-ptx`, cubin=false) and run by `mirage-gpu-run --emulate`
with memcheck, initcheck and racecheck on, checked against the fp64
reference. One row per run: launches, thread-instructions, the emulation's
wall time on all cores (the launches only, as the runner reports them),
the runner's whole wall time (inputs, reference interpreter and
comparison included), throughput, and the relative error.

Then the single-core throughput: each program's default sm_80 kernels with
--emulate-threads=1, checkers on and off.

Usage: bench/run-emulator-bench.py [--build build] [--chips sm_80,sm_90]
       [--no-searched] [--state-budget 1000000] [programs...]
"""
import argparse, json, os, pathlib, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(cmd, ok=(0,)):
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if proc.returncode not in ok:
        sys.exit(f"failed ({proc.returncode}): {' '.join(map(str, cmd))}\n"
                 f"{proc.stderr[-4000:]}")
    return proc, elapsed


def emulate(tool, manifest, extra=()):
    proc, wall = run([tool, str(manifest), "--emulate", "--json", *extra],
                     ok=(0, 3))
    report = json.loads(proc.stdout)
    launches = report["emulator"]
    instrs = sum(l["thread_instructions"] for l in launches)
    seconds = sum(l["seconds"] for l in launches)
    rel = max(o["relative_error"] for o in report["outputs"])
    return {"launches": len(launches), "instrs": instrs, "seconds": seconds,
            "wall": wall, "rel": rel, "pass": proc.returncode == 0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--chips", default="sm_80,sm_90")
    parser.add_argument("--no-searched", action="store_true")
    parser.add_argument("--state-budget", type=int, default=1000000)
    parser.add_argument("programs", nargs="*")
    args = parser.parse_args()
    build = pathlib.Path(args.build).resolve()
    opt, tool = str(build / "bin" / "mirage-opt"), str(build / "bin" / "mirage-gpu-run")
    programs = ([pathlib.Path(p) for p in args.programs] or
                sorted((ROOT / "bench" / "programs").glob("*.mlir")))
    chips = args.chips.split(",")
    schedules = ["default"] + ([] if args.no_searched else ["searched"])
    print(f"# mirage-gpu-run --emulate, full size, checkers on, "
          f"{os.cpu_count()} host threads", flush=True)
    header = (f"{'program':<11} {'schedule':<8} {'chip':<5} {'launches':>8} "
              f"{'thread-instrs':>14} {'emulate s':>9} {'run s':>7} "
              f"{'M instr/s':>9} {'rel error':>9}  result")
    print(header)
    print("-" * len(header), flush=True)
    failures = 0
    single = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for program in programs:
            for schedule in schedules:
                for chip in chips:
                    stem = f"{program.stem}.{schedule}.{chip}"
                    module = program
                    if schedule == "searched":
                        module = tmp / f"{stem}.mlir"
                        run([opt, str(program),
                             f"--superoptimize=target={chip} state-budget="
                             f"{args.state_budget} cache=off", "-o", str(module)])
                    run([opt, str(module),
                         f"--mirage-to-ptx=target={chip} output={tmp / stem} cubin=false",
                         "-o", os.devnull])
                    r = emulate(tool, tmp / f"{stem}.json")
                    failures += not r["pass"]
                    print(f"{program.stem:<11} {schedule:<8} {chip:<5} {r['launches']:>8} "
                          f"{r['instrs']:>14,} {r['seconds']:>9.2f} {r['wall']:>7.2f} "
                          f"{r['instrs'] / r['seconds'] / 1e6:>9.1f} {r['rel']:>9.2e}  "
                          f"{'pass' if r['pass'] else 'FAIL'}", flush=True)
                    if schedule == "default" and chip == chips[0]:
                        single.append((program.stem, tmp / f"{stem}.json"))
        print()
        print(f"# one host thread (--emulate-threads=1), default schedule, {chips[0]}")
        header = (f"{'program':<11} {'thread-instrs':>14} {'checkers on':>12} "
                  f"{'checkers off':>13}   (M thread-instructions/s)")
        print(header)
        print("-" * len(header), flush=True)
        total = {"on": [0, 0.0], "off": [0, 0.0]}
        for name, manifest in single:
            on = emulate(tool, manifest, ["--emulate-threads=1"])
            off = emulate(tool, manifest, ["--emulate-threads=1", "--no-initcheck",
                                           "--no-racecheck"])
            for key, r in (("on", on), ("off", off)):
                total[key][0] += r["instrs"]
                total[key][1] += r["seconds"]
            print(f"{name:<11} {on['instrs']:>14,} {on['instrs'] / on['seconds'] / 1e6:>12.1f} "
                  f"{off['instrs'] / off['seconds'] / 1e6:>13.1f}", flush=True)
        print(f"{'all':<11} {total['on'][0]:>14,} "
              f"{total['on'][0] / total['on'][1] / 1e6:>12.1f} "
              f"{total['off'][0] / total['off'][1] / 1e6:>13.1f}")
    if failures:
        print(f"\n{failures} run(s) failed the reference comparison")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
