#!/usr/bin/env python3
"""PET benchmark (docs/PartialEquivalence.md).

Runs --partial-equivalence-optimize (target sm_90, the default budget and
verifier options) on each program of bench/pet-programs (or the files
given) and prints, per program: graph ops before and after, the estimated
time on sm_90 before and after (the analytic cost model, each op its
predefined kernel), the corrected program's estimate (kept only when it is
lower), mutants tried, regions (boxes, wrong), the correction's
ops, the region analysis's time, the whole run's time (analysis, costing
and verification) and the verification's outcome.

Usage: run-pet-bench.py [--build build] [files...]
"""
import argparse, pathlib, re, subprocess, sys, time

HERE = pathlib.Path(__file__).resolve().parent

SITE = re.compile(
    r"regions: (?P<boxes>\d+) box\(es\) \((?P<wrong>\d+) wrong\); (?P<tested>\d+) of "
    r"(?P<positions>\d+) positions tested in each of (?P<tests>\d+) test\(s\) over Z_p, "
    r"p = (?P<p>\d+) \(degree (?P<degree>\d+)\); P\(a wrong box passed\) <= 2\^(?P<bound>[-\d.]+)"
    r"(?:.*?correction: (?P<ops>\d+) op\(s\), slices (?P<layout>[\w ]+?), (?P<extra>\d+) extra rows"
    r".*?; [\d.]+ us -> (?P<corrected>[\d.]+) us on \w+; analysis (?P<analysis>[\d.]+) s; "
    r"(?P<outcome>.*))?")
FUNC = re.compile(
    r"@(?P<fn>\w+): (?P<tried>\d+) mutant\(s\) tried of (?P<sites>\d+) site\(s\).*?, "
    r"(?P<rewritten>\d+) rewritten; (?P<before>[\d.]+) us -> (?P<after>[\d.]+) us")


def count_ops(text):
    return sum(1 for line in text.splitlines() if re.search(r"= graph\.", line))


def outcome(text):
    if "moved the chains after the concat alone" in text:
        m = re.search(r"finite-field test: (\d+) tests?.*?bound 2\^([-\d.]+)", text)
        return ("chains moved only: " + (f"field {m.group(1)} tests, 2^{m.group(2)}"
                                          if m else "verified"))
    if text.startswith("verified: "):
        m = re.search(r"finite-field test: (\d+) tests?.*?bound 2\^([-\d.]+)", text)
        if m:
            return f"verified: field {m.group(1)} tests, 2^{m.group(2)}"
        return "verified: " + text[len("verified: "):][:60]
    return text[:60]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    opt = str(pathlib.Path(args.build) / "bin" / "mirage-opt")
    files = [pathlib.Path(f) for f in args.files] or sorted((HERE / "pet-programs").glob("*.mlir"))
    header = ("program", "ops", "est us before", "est us after", "corrected us", "mutants",
              "regions (wrong)", "corr. ops", "analysis s", "total s", "verification")
    rows = []
    for f in files:
        start = time.perf_counter()
        p = subprocess.run([opt, str(f), "--partial-equivalence-optimize=target=sm_90"],
                           capture_output=True, text=True)
        total = time.perf_counter() - start
        if p.returncode != 0:
            rows.append((f.stem, "-", "-", "-", "-", "-", "-", "-", "-", f"{total:.1f}",
                         "error: " + p.stderr.strip().splitlines()[-1][:60]))
            continue
        func = FUNC.search(p.stderr)
        sites = [m for m in SITE.finditer(p.stderr)]
        before = count_ops(f.read_text())
        after = count_ops(p.stdout)
        # A function with several sites: the sums, and each site's outcome.
        regions = (f"{sum(int(m['boxes']) for m in sites)} "
                   f"({sum(int(m['wrong']) for m in sites)})") if sites else "-"
        corrected = [m for m in sites if m["ops"]]
        ops = str(sum(int(m["ops"]) for m in corrected)) if corrected else "-"
        analysis = f"{sum(float(m['analysis']) for m in corrected):.3f}" if corrected else "-"
        verdict = "; ".join(outcome(m["outcome"]) for m in corrected) or "-"
        # The corrected program's estimate: the last site's (it includes the
        # earlier sites' rewrites, if they were kept).
        estimate = corrected[-1]["corrected"] if corrected else "-"
        rows.append((f.stem, f"{before} -> {after}", func["before"], func["after"], estimate,
                     func["tried"], regions, ops, analysis, f"{total:.1f}", verdict))
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))


if __name__ == "__main__":
    sys.exit(main())
