#!/usr/bin/env python3
"""Mutation fuzzer for mirage-opt: mutates the repository's .mlir test inputs
and runs each mutant through a pass pipeline under a time limit.

A run passes when mirage-opt either succeeds, and its output parses again,
or fails with a diagnostic (exit code 1). It is a finding when mirage-opt
 - dies from a signal or aborts (SIGSEGV, SIGFPE, SIGABRT, "LLVM ERROR",
   a stack dump, a sanitizer report),
 - runs past the time limit (a hang), or
 - succeeds but prints IR that mirage-opt itself cannot parse back.

The mutants are reproducible from --seed; every finding is written to the
output folder with the command that reproduces it. Usage:

  test/Fuzz/mutate-and-run.py --opt build/bin/mirage-opt \
      --mutants 3000 --jobs 2 --out /tmp/fuzz

It prints a table of outcomes and exits 1 if there was any finding.
"""

import argparse
import concurrent.futures
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Values that stress size arithmetic, divisors and loops.
INTERESTING_INTS = [0, 1, 2, 3, 7, 16, 31, 97, 127, 128, 1024, 4095, 65536,
                    2**31 - 1, 2**31, 2**32, 2**32 + 1, 2**40, 2**62,
                    2**63 - 1, 999999937]
INTERESTING_FLOATS = ["0.0", "-0.0", "1.0e+300", "-1.0e+300", "1.0e-320",
                     "0x7FF0000000000000", "0xFFF0000000000000",
                     "0x7FF8000000000000", "65504.0", "3.4e+38", "-1.5"]
DTYPES = ["f16", "bf16", "f32", "f64", "i32", "i8", "i1"]

# Pipelines by the level of the input's ops. %T is a scratch folder.
GRAPH_PIPELINES = [
    [],
    ["--graph-to-kernel"],
    ["--estimate-cost=target=sm_90", "-o", "/dev/null"],
    ["--graph-to-kernel", "--kernel-to-block"],
    ["--graph-to-kernel", "--kernel-to-block", "--fuse-thread-chains",
     "--estimate-cost=target=sm_80"],
    ["--superoptimize=target=sm_90 time-budget=3 state-budget=100000 "
     "cache-dir=%T/cache"],
    ["--superoptimize=target=sm_80 time-budget=3 state-budget=20000 "
     "threads=1 max-subprogram-ops=3 cache-dir=%T/cache"],
    ["--mirage-to-ptx=target=sm_80 output=%T/out cubin=false"],
    ["--verify-equivalence=time-limit=30", "-o", "/dev/null"],
]
KERNEL_PIPELINES = [
    [],
    ["--kernel-to-block"],
    ["--fuse-thread-chains"],
    ["--estimate-cost=target=sm_90", "-o", "/dev/null"],
    ["--kernel-to-block", "--fuse-thread-chains", "--thread-to-arith",
     "--block-to-gpu"],
    ["--kernel-to-block", "--thread-to-arith", "--block-to-gpu",
     "--kernel-to-gpu"],
    ["--mirage-to-ptx=target=sm_90 output=%T/out cubin=false"],
    ["--verify-equivalence=time-limit=30", "-o", "/dev/null"],
]

# Inputs in the importers' source dialects (docs/Importers.md).
TOSA_PIPELINES = [
    ["--tosa-to-graph"],
    ["--tosa-to-graph=lift-constants=false"],
    ["--tosa-to-graph", "--graph-to-kernel"],
    ["--tosa-to-graph", "--verify-equivalence=time-limit=30", "-o",
     "/dev/null"],
]
LINALG_PIPELINES = [
    ["--linalg-to-graph"],
    ["--linalg-to-graph=lift-constants=false"],
    ["--linalg-to-graph", "--graph-to-kernel"],
]

CRASH_MARKERS = ["Stack dump", "LLVM ERROR", "PLEASE submit a bug report",
                 "Assertion", "AddressSanitizer", "runtime error:",
                 "UndefinedBehaviorSanitizer", "LeakSanitizer",
                 "terminate called", "Segmentation fault"]


def corpus():
    files = []
    for top in ["test", "bench/programs"]:
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            if "Fuzz" in dirpath:
                continue
            for n in sorted(names):
                if n.endswith(".mlir"):
                    files.append(os.path.join(dirpath, n))
    return sorted(files)


def split_chunks(text):
    """The -split-input-file chunks of a test, without lit/FileCheck lines."""
    chunks = re.split(r"^// -----\s*$", text, flags=re.M)
    out = []
    for c in chunks:
        lines = [l for l in c.splitlines()
                 if not re.match(r"\s*//\s*(RUN|CHECK|[A-Z0-9-]+:|expected-)", l)
                 and "expected-" not in l]
        body = "\n".join(lines).strip()
        if body:
            out.append(body + "\n")
    return out


def mutate_ints(text, rng):
    nums = list(re.finditer(r"(?<![\w.#%@])\d+(?![\w.])", text))
    if not nums:
        return text
    m = rng.choice(nums)
    return text[:m.start()] + str(rng.choice(INTERESTING_INTS)) + text[m.end():]


def mutate_dim_everywhere(text, rng):
    """Replaces one extent in every shaped type, so that the types stay
    consistent and the mutant reaches the passes."""
    dims = sorted(set(re.findall(r"(?<=[<x])(\d+)(?=x)", text)))
    if not dims:
        return text
    d = rng.choice(dims)
    new = str(rng.choice(INTERESTING_INTS))
    return re.sub(r"(?<=[<x])" + d + r"(?=x)", new, text)


def mutate_floats(text, rng):
    fl = list(re.finditer(r"-?\d+\.\d+(e[+-]?\d+)?", text))
    if not fl:
        return mutate_ints(text, rng)
    m = rng.choice(fl)
    return text[:m.start()] + rng.choice(INTERESTING_FLOATS) + text[m.end():]


def mutate_dtype(text, rng):
    present = [t for t in DTYPES if re.search(r"x" + t + r">", text)]
    if not present:
        return text
    a = rng.choice(present)
    b = rng.choice(DTYPES)
    if rng.random() < 0.5:
        return re.sub(r"x" + a + r">", "x" + b + ">", text)
    occ = list(re.finditer(r"x" + a + r">", text))
    m = rng.choice(occ)
    return text[:m.start()] + "x" + b + ">" + text[m.end():]


def mutate_lines(text, rng):
    lines = text.splitlines()
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(j, lines[i])
    elif kind == 2:
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines = lines[:i + 1]
    return "\n".join(lines) + "\n"


def mutate_op_name(text, rng):
    ops = list(re.finditer(r"\b(graph|kernel|block|thread)\.(\w+)", text))
    if not ops:
        return text
    m = rng.choice(ops)
    others = sorted(set(o.group(0) for o in ops if o.group(1) == m.group(1)))
    return text[:m.start()] + rng.choice(others) + text[m.end():]


def mutate_bytes(text, rng):
    if not text:
        return text
    i = rng.randrange(len(text))
    junk = rng.choice(["(", ")", "{", "}", "<", ">", ",", "%", "@\"weird name\"",
                       "x", "?", "#", "\0", "\"", "-1", ":"])
    return text[:i] + junk + text[i + rng.randrange(3):]


def mutate_symbol(text, rng):
    names = sorted(set(re.findall(r"func\.func @(\w+)", text)))
    if not names:
        return text
    n = rng.choice(names)
    return re.sub(r"@" + n + r"\b", "@\"" + n + " weird-" + n + "\"", text)


MUTATORS = [mutate_ints, mutate_dim_everywhere, mutate_dim_everywhere,
            mutate_floats, mutate_dtype, mutate_lines, mutate_op_name,
            mutate_bytes, mutate_symbol]


def make_mutant(files, rng):
    src = rng.choice(files)
    with open(src, encoding="utf-8", errors="replace") as f:
        chunks = split_chunks(f.read())
    if not chunks:
        return None
    text = rng.choice(chunks)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text = rng.choice(MUTATORS)(text, rng)
    if re.search(r"\btosa\.", text):
        pipelines = TOSA_PIPELINES
    elif re.search(r"\blinalg\.", text) and not re.search(
            r"\b(kernel|block|gpu)\.", text):
        pipelines = LINALG_PIPELINES
    elif re.search(r"\bgraph\.", text) and not re.search(r"\bkernel\.", text):
        pipelines = GRAPH_PIPELINES
    else:
        pipelines = KERNEL_PIPELINES
    return os.path.relpath(src, ROOT), text, list(rng.choice(pipelines))


def run(cmd, timeout, stdin=None):
    """(returncode or 'timeout', stdout, stderr); kills the process group on
    timeout so that no child survives."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin else None,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(stdin.encode() if stdin else None,
                                 timeout=timeout)
        return p.returncode, out.decode(errors="replace"), err.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return "timeout", "", ""


def classify(opt, index, mutant, timeout, scratch):
    src, text, pipeline = mutant
    work = os.path.join(scratch, "m%d" % index)
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "input.mlir")
    with open(path, "w") as f:
        f.write(text)
    args = [a.replace("%T", work) for a in pipeline]
    cmd = [opt, path] + args
    rc, out, err = run(cmd, timeout)
    outcome = None
    if rc == "timeout":
        outcome = "hang"
    elif rc < 0 or rc not in (0, 1) or any(m in err for m in CRASH_MARKERS):
        outcome = "crash"
        # Upstream MLIR's custom parsers of linalg.broadcast and
        # linalg.transpose crash on some malformed `dimensions` lists,
        # before any pass runs: not ours to fix, counted apart.
        if UPSTREAM_PARSER_CRASH.search(err) and "PassManager" not in err:
            outcome = "upstream-parser-crash"
    elif rc == 1:
        outcome = "diagnosed" if "error:" in err else "silent-failure"
    elif "-o" in args or not out.strip():
        outcome = "ok"
    else:
        rc2, _, err2 = run([opt, "-"], timeout, stdin=out)
        if rc2 == 0:
            outcome = "ok"
        elif rc2 == "timeout" or rc2 < 0 or rc2 not in (0, 1) or \
                any(m in err2 for m in CRASH_MARKERS):
            outcome = "crash"
            err = "re-parsing the output crashed:\n" + err2
        else:
            outcome = "unparseable-output"
            err = "mirage-opt cannot parse its own output:\n" + err2
    shutil.rmtree(work, ignore_errors=True)
    return index, src, cmd, outcome, err, text


FINDINGS = ("crash", "hang", "unparseable-output", "silent-failure")
UPSTREAM_PARSER_CRASH = re.compile(
    r"MLIR Parser: custom op parser '(linalg|tensor|tosa|arith|math)\.")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opt", default=os.path.join(ROOT, "build/bin/mirage-opt"))
    ap.add_argument("--mutants", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds per run before it counts as a hang")
    ap.add_argument("--out", default=None,
                    help="folder for the findings (default: a temp folder)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--corpus", default="",
                    help="only inputs whose path contains this (e.g. "
                         "test/Importers)")
    opts = ap.parse_args()

    files = [f for f in corpus() if opts.corpus in f]
    rng = random.Random(opts.seed)
    mutants = []
    while len(mutants) < opts.mutants:
        m = make_mutant(files, rng)
        if m:
            mutants.append(m)

    out_dir = opts.out or tempfile.mkdtemp(prefix="mirage-fuzz-")
    os.makedirs(out_dir, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="mirage-fuzz-work-")
    counts = {}
    findings = []
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        futures = [pool.submit(classify, opts.opt, i, m, opts.timeout,
                               scratch) for i, m in enumerate(mutants)]
        for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            index, src, cmd, outcome, err, text = fut.result()
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome in FINDINGS or outcome == "upstream-parser-crash":
                findings.append(index)
                base = os.path.join(out_dir, "%s-%05d" % (outcome, index))
                with open(base + ".mlir", "w") as f:
                    f.write(text)
                with open(base + ".txt", "w") as f:
                    f.write("mutant of %s\n%s\n\n%s" % (
                        src, " ".join(cmd).replace(
                            os.path.join(scratch, "m%d" % index, "input.mlir"),
                            base + ".mlir"), err))
            if not opts.quiet and (done % 100 == 0 or done == len(mutants)):
                print("fuzz: %d/%d mutants, %d findings, %.0f s" %
                      (done, len(mutants), len(findings), time.time() - start),
                      file=sys.stderr, flush=True)
    shutil.rmtree(scratch, ignore_errors=True)

    print("| outcome | mutants |")
    print("|---|---|")
    for k in ["ok", "diagnosed", "upstream-parser-crash"] + list(FINDINGS):
        print("| %s | %d |" % (k, counts.get(k, 0)))
    print("| total | %d |" % len(mutants))
    print("seed %d, %d inputs, %.0f s, findings in %s" %
          (opts.seed, len(files), time.time() - start, out_dir))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
