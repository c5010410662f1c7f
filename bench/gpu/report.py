#!/usr/bin/env python3
"""The GPU benchmark's table (bench/gpu/README.md), from the results of
bench/gpu/run.sh: mirage-gpu-run's JSON per program and schedule
(NAME.default.json, NAME.searched.json, with .log and .rc beside them),
torch_baselines.py's JSON (torch.json), and prepare.sh's status.tsv.

    python3 bench/gpu/report.py --results DIR [--results DIR2 ...]
        [--stage bench/gpu/stage] [--out FILE.md]

Several --results folders (from runs split over several calls) are merged;
a later folder's file wins. Needs no GPU and no PyTorch.
"""

import argparse
import glob
import json
import os
import sys

SCHEDULES = ("default", "searched")
# The order of the benchmark set's table (docs/Benchmarks.md).
ORDER = ["gqa_b1", "gqa_b8", "qknorm_b1", "qknorm_b8", "rmsnorm_b1",
         "rmsnorm_b8", "lora", "gated_mlp", "ntrans_b1", "ntrans_b8"]
LABELS = {"gqa": "GQA", "qknorm": "QKNorm", "rmsnorm": "RMSNorm",
          "lora": "LoRA", "gated_mlp": "GatedMLP", "ntrans": "nTrans"}


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def last_error(log):
    """The most telling line of a runner's stderr."""
    if not log:
        return "no output"
    lines = [l.strip() for l in log.splitlines() if l.strip()]
    for line in reversed(lines):
        if "error" in line:
            return line
    return lines[-1] if lines else "no output"


def find(results_dirs, name):
    """The path of `name` in the last results folder that has it."""
    for d in reversed(results_dirs):
        path = os.path.join(d, name)
        if os.path.exists(path):
            return path
    return None


def read_status(stage):
    """prepare.sh's verdict per (program, schedule)."""
    status = {}
    text = read_text(os.path.join(stage, "status.tsv")) or ""
    for line in text.splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) >= 3:
            status[(fields[0], fields[1])] = fields[2]
    return status


def split_name(name):
    base, _, batch = name.rpartition("_b")
    if base and batch.isdigit():
        return LABELS.get(base, base), batch
    return LABELS.get(name, name), "-"


def fmt_us(x):
    if x is None:
        return "-"
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def median(timing):
    return timing["median"] if timing else None


class Row:
    def __init__(self, name):
        self.name = name
        self.ours = {}        # schedule -> runner JSON
        self.cells = {}       # schedule -> the time cell
        self.problems = {}    # schedule -> why there is no result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", action="append", required=True,
                        help="a folder of run.sh's results (repeatable)")
    parser.add_argument("--stage", default="bench/gpu/stage",
                        help="prepare.sh's stage (status.tsv, manifests)")
    parser.add_argument("--out", help="also write the table here")
    options = parser.parse_args()

    status = read_status(options.stage)
    torch_path = find(options.results, "torch.json")
    baselines = read_json(torch_path) if torch_path else None
    torch_programs = (baselines or {}).get("programs", {})

    # The programs with anything to show: a result, a verdict of
    # prepare.sh, or a baseline; all of them when there is nothing yet.
    names = set(torch_programs) | {program for program, _ in status}
    for d in options.results:
        for path in glob.glob(os.path.join(d, "*.*.*")):
            names.add(os.path.basename(path).split(".")[0])
    names.discard("selftest")
    names = names or set(ORDER)
    names = sorted(names, key=lambda n: (ORDER.index(n) if n in ORDER
                                         else len(ORDER), n))

    notes = []

    def note(text):
        notes.append(text)
        return f"[{len(notes)}]"

    rows = []
    for name in names:
        row = Row(name)
        for schedule in SCHEDULES:
            key = f"{name}.{schedule}"
            result = find(options.results, key + ".json")
            data = read_json(result) if result else None
            if data and "outputs" in data:
                row.ours[schedule] = data
                continue
            verdict = status.get((name, schedule))
            if verdict and verdict != "ok":
                row.problems[schedule] = "not compiled: " + verdict
            elif result or find(options.results, key + ".log"):
                log = find(options.results, key + ".log")
                rc = read_text(find(options.results, key + ".rc") or "")
                row.problems[schedule] = (
                    f"mirage-gpu-run exit {(rc or '?').strip()}: "
                    + last_error(read_text(log) if log else None))
            elif (name, schedule) not in status and status:
                row.problems[schedule] = "not compiled (not in status.tsv)"
            else:
                row.problems[schedule] = "not run"
        rows.append(row)

    header = ["program", "b", "correct (max rel err: default / searched)",
              "default µs", "searched µs", "eager µs", "torch.compile µs",
              "cuBLAS µs", "roofline µs", "speedup searched vs eager",
              "searched / roofline"]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(["---"] * 2 + [":--"] + ["--:"] * 8) + "|"]
    for row in rows:
        label, batch = split_name(row.name)
        base = torch_programs.get(row.name, {})

        correctness, times = [], {}
        for schedule in SCHEDULES:
            data = row.ours.get(schedule)
            if not data:
                why = row.problems.get(schedule, "no result")
                correctness.append("n/a " + note(f"{row.name} {schedule}: {why}"))
                times[schedule] = None
                continue
            errors = [o["relative_error"] for o in data["outputs"]]
            worst = (None if any(e is None for e in errors)
                     else max(errors, default=0.0))
            verdict = "ok" if data["pass"] else "FAIL"
            correctness.append(
                ("inf" if worst is None else f"{worst:.1e}") + " " + verdict)
            plain = data["time_us"].get("plain")
            graph = data["time_us"].get("graph")
            times[schedule] = median(plain)
            cell = fmt_us(median(plain))
            if graph:
                cell += f" (graph {fmt_us(median(graph))})"
            row.cells[schedule] = cell
            # The manifest's inputs must be the shapes PyTorch runs.
            manifest = read_json(data.get("manifest", "")) or {}
            for function in manifest.get("functions", [])[:1]:
                shapes = [b["shape"] for b in sorted(
                    (b for b in function.get("buffers", [])
                     if b.get("role") == "input"),
                    key=lambda b: b["index"])]
                expected = list(base.get("args", {}).values())
                if expected and shapes != expected:
                    correctness[-1] += " " + note(
                        f"{row.name} {schedule}: input shapes {shapes} differ "
                        f"from the PyTorch baseline's {expected}")

        eager = median(base.get("eager"))
        compiled = median(base.get("compile"))
        cublas = median(base.get("cublas"))
        roofline = base.get("roofline_us")
        compile_cell = fmt_us(compiled)
        if base.get("compile_error"):
            compile_cell = "error " + note(
                f"{row.name} torch.compile: {base['compile_error']}")
        if base.get("error"):
            compile_cell = "error " + note(f"{row.name} PyTorch: {base['error']}")
        searched = times.get("searched")
        speedup = (f"{eager / searched:.2f}x"
                   if eager and searched else "-")
        ratio = (f"{searched / roofline:.1f}x"
                 if roofline and searched else "-")
        cells = [label, batch, " / ".join(correctness),
                 row.cells.get("default", "-"),
                 row.cells.get("searched", "-"),
                 fmt_us(eager), compile_cell, fmt_us(cublas),
                 fmt_us(roofline), speedup, ratio]
        lines.append("| " + " | ".join(cells) + " |")

    device = (baselines or {}).get("device")
    if not device:
        for row in rows:
            for data in row.ours.values():
                device = device or data.get("device")
    out = []
    out.append(f"GPU benchmark on {device or 'an unknown GPU'}"
               + (f", PyTorch {baselines['torch']} (CUDA {baselines['cuda']})"
                  if baselines else ", no PyTorch baselines")
               + ". Times are medians in µs of back-to-back runs; ours are "
                 "plain launches, with the CUDA-graph time in parentheses.")
    if baselines:
        peak = baselines["peak"]
        out.append(f"Roofline: max(inputs + outputs once / "
                   f"{peak['bandwidth'] / 1e12:.2f} TB/s, matmul flops / "
                   f"{peak['fp16_flops'] / 1e12:.0f} TFLOP/s) "
                   f"({peak['table_entry']} peaks).")
    out.append("")
    out.extend(lines)
    if notes:
        out.append("")
        out.extend(f"[{i + 1}] {text}" for i, text in enumerate(notes))
    selftest = find(options.results, "selftest.json")
    data = read_json(selftest) if selftest else None
    out.append("")
    out.append("Runner self-test (test/Tools/mirage-gpu-run/Inputs/add.json): "
               + ("pass" if data and data.get("pass") else
                  "FAILED or not run: " + last_error(read_text(
                      find(options.results, "selftest.log") or ""))))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if options.out:
        with open(options.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
