#!/usr/bin/env python3
"""What the cost model assumes against what the emulator counts, per kernel.

For each program (bench/programs by default) and chip: the µGraph
(--superoptimize, or the default schedule with --default), --estimate-cost's
per-kernel remarks, then the same module lowered to PTX and run under
`mirage-gpu-run --emulate --profile`. One row per launched kernel:

  model B/emu B    the model's device-memory + L2 bytes, and the bytes of the
                   32-byte sectors the emulated warps moved (loads + stores)
  ld/st eff        requested bytes / sector bytes of global loads and stores
                   (the model assumes every byte it counts is useful)
  smem model/emu   the model's shared-memory bytes and the bytes the emulated
                   threads requested (ld/st.shared and cp.async's shared side)
  conflicts        extra shared wavefronts over the conflict-free count (the
                   model has no bank conflicts, only smemEfficiency)
  TC share         mma.sync's share of the warp-level instructions
  TC FLOP emu      2 x 16 x 8 x K per mma.sync (m16n8k16 or m16n8k8), against
                   the model's FLOP
  regs model/ptxas registers per thread
  waves model/emu  the model's waves, and grid / (SMs x CTAs per SM) from the
                   occupancy ptxas's registers and the launch's shared memory
                   allow

Usage: bench/profile-vs-cost-model.py [--build build] [--chip sm_80]
       [--default] [--state-budget N] [programs...]
docs/GpuEmulator.md ("Counters against the cost model") discusses the
differences.
"""
import argparse, json, pathlib, re, subprocess, sys, tempfile

KERNEL_REMARK = re.compile(
    r"remark: (?P<op>[\w.]+): (?P<us>[\d.]+) us on \w+, (?P<bound>[\w-]+); "
    r"device memory (?P<dram>\d+) B, L2 (?P<l2>\d+) B, shared memory (?P<smem>\d+) B, "
    r"(?P<flop>\d+) FLOP(?:; (?P<blocks>\d+) blocks in (?P<waves>\d+) wave\(s\), "
    r"(?P<smem_block>\d+) B shared memory per block, (?P<regs>\d+) registers per thread)?")


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 3):
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    return proc


def human(n):
    n = float(n)
    for unit in ("", "K", "M", "G"):
        if abs(n) < 1000:
            return f"{n:.0f}{unit}" if unit == "" else f"{n:.1f}{unit}"
        n /= 1000
    return f"{n:.1f}T"


def rows_for(build, program, chip, searched, budget, tmp):
    opt = str(build / "bin" / "mirage-opt")
    run_tool = str(build / "bin" / "mirage-gpu-run")
    module = program
    if searched:
        module = tmp / f"{program.stem}.{chip}.mlir"
        run([opt, str(program),
             f"--superoptimize=target={chip} state-budget={budget} cache=false",
             "-o", str(module)])
    cost = run([opt, str(module), f"--estimate-cost=target={chip}", "-o", "/dev/null"])
    # Kernels in program order; reshapes are views, with no launch.
    model = [m.groupdict() for m in KERNEL_REMARK.finditer(cost.stderr)
             if m.group("bound") != "free"]
    out = tmp / f"{program.stem}.{chip}"
    run([opt, str(module), f"--mirage-to-ptx=target={chip} output={out} cubin=false",
         "-o", "/dev/null"])
    emu = json.loads(run([run_tool, f"{out}.json", "--emulate", "--profile",
                          "--json"]).stdout)
    launches = emu["emulator"]
    if len(launches) != len(model):
        sys.exit(f"{program.stem}: {len(model)} kernels in the cost model's "
                 f"remarks but {len(launches)} launches")
    rows = []
    for m, launch in zip(model, launches):
        p = launch["profile"]
        sector_bytes = 32 * (p["global_load_sectors"] + p["global_store_sectors"])
        conflicts = (p["bank_conflict_wavefronts"] / p["shared_wavefronts"]
                     if p["shared_wavefronts"] else 0.0)
        rows.append({
            "program": program.stem, "kernel": launch["kernel"],
            "pass": emu["pass"],
            "model_bytes": int(m["dram"]) + int(m["l2"]), "emu_bytes": sector_bytes,
            "ld_eff": p["global_load_efficiency"], "st_eff": p["global_store_efficiency"],
            "model_smem": int(m["smem"]), "emu_smem": p["shared_bytes"],
            "conflicts": conflicts,
            "model_flop": int(m["flop"]),
            "emu_tc_flop": p["tensor_core_flops"],
            "tc_share": p["tensor_core_instructions"] / launch["warp_instructions"]
                        if launch["warp_instructions"] else 0.0,
            "model_regs": m["regs"] or "-", "ptxas_regs": p.get("registers", "-"),
            "model_waves": m["waves"] or "-", "emu_waves": p.get("waves", "-"),
            "ctas_per_sm": p.get("ctas_per_sm", "-"),
            "limited_by": p.get("occupancy_limited_by", "-"),
        })
    return rows


def main():
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", type=pathlib.Path)
    parser.add_argument("--chip", default="sm_80", choices=["sm_80", "sm_90"])
    parser.add_argument("--default", action="store_true",
                        help="the default schedule instead of the searched µGraph")
    parser.add_argument("--state-budget", default=1000000, type=int)
    parser.add_argument("--json", type=pathlib.Path, help="also write the rows here")
    parser.add_argument("programs", nargs="*")
    args = parser.parse_args()
    programs = ([pathlib.Path(p) for p in args.programs] or
                sorted((here / "programs").glob("*.mlir")))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for program in programs:
            print(f"... {program.stem}", file=sys.stderr, flush=True)
            rows += rows_for(args.build.resolve(), program.resolve(), args.chip,
                             not args.default, args.state_budget, pathlib.Path(tmp))
    header = ("program", "kernel", "bytes model/emu", "ld/st eff", "smem model/emu",
              "conflicts", "FLOP model/TC emu", "TC share", "regs model/ptxas", "waves model/emu",
              "CTAs/SM")
    table = [header]
    for r in rows:
        table.append((
            r["program"], r["kernel"] + ("" if r["pass"] else " (FAIL)"),
            f"{human(r['model_bytes'])}/{human(r['emu_bytes'])}",
            f"{100 * r['ld_eff']:.0f}%/{100 * r['st_eff']:.0f}%",
            f"{human(r['model_smem'])}/{human(r['emu_smem'])}",
            f"{100 * r['conflicts']:.0f}%",
            f"{human(r['model_flop'])}/{human(r['emu_tc_flop'])}",
            f"{100 * r['tc_share']:.1f}%",
            f"{r['model_regs']}/{r['ptxas_regs']}",
            f"{r['model_waves']}/{r['emu_waves']}",
            f"{r['ctas_per_sm']} ({r['limited_by']})"))
    widths = [max(len(str(row[i])) for row in table) for i in range(len(header))]
    schedule = "default schedule" if args.default else "searched µGraphs"
    print(f"cost model vs emulator, {args.chip}, {schedule}")
    for i, row in enumerate(table):
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
