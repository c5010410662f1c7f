#!/usr/bin/env python3
"""Random differential testing of the optimizers and the PTX path.

For each program of randprog.py (seeded, well typed, 2 to 10 graph ops):

1. the reference: `mirage-run` in fp64 (r) and in the program's own dtypes
   (o), on inputs N(0, 1) times the program's scale (weights N(0, 1/K)),
   rounded to each argument's dtype;
2. every optimizer pass with small budgets (`--superoptimize`,
   `--graph-optimize`, `--graph-saturate`, `--partial-equivalence-optimize`,
   `--joint-optimize`): the optimized program runs in fp64 (f) and in its
   own dtypes (c); f must match r as the verifier's exact check says and c
   must pass its native check against r, with the original's own error E;
3. the PTX path: the original (default schedule) and every optimized
   program that differs from it go through `--mirage-to-ptx` and
   `mirage-gpu-run --emulate` (memcheck, initcheck and racecheck on); the
   emulated outputs must pass the native check against r with the
   original's error E.

The tolerance rule is docs/Verification.md's ("Floating point"):
|c - r| <= rtol |r| + atol m + floor + 2 E, with (rtol, atol) 1e-2 for f16,
6e-2 for bf16, 1e-5 for f32, floor two of the dtype's smallest subnormals,
m the median of |r|'s non-zero finite values and E = max |o - r| over the
judged positions (those where r and o are finite and r is in the dtype's
range); fp64 against fp64: |f - r| <= 1e-9 (|r| + m).

Each stage of each program is classified: pass; refused (exit status 1
with a diagnostic: the reason is recorded); known (a failure another piece
of work is fixing, with its reason: KNOWN below); sensitive (out of the
tolerance above, but within it when E is the fp64 result's change on
inputs moved by a few ulps (or by the backward error of the program's
longest f32 sum, about sqrt(K) f32 ulps): f32 accumulation in a sum that
cancels or in a sum an exp amplifies, which
the native interpreter, rounding a matmul once, does not model; judge());
wrong; crash (a signal,
an abort, a stack dump, a Python traceback, or a failure without a
diagnostic); hang (past --timeout). A table of outcomes per stage and of
the reasons is printed; every wrong, crash and hang is written to
--out/findings.txt with the commands that reproduce it. The exit status is
1 if there was any wrong, crash or hang.

  test/Random/run_random.py --count 2000 --seed 1 --jobs 2 --out /tmp/rand
"""

import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import warnings

import numpy as np

# inf - inf and the like are judged, not warned of (in every thread).
warnings.filterwarnings("ignore", category=RuntimeWarning)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import randprog  # noqa: E402

try:  # the Python package, when installed: a second front end (python_check)
    import mirage_opt as mo
except ImportError:
    mo = None

OPTIMIZERS = [
    ("superoptimize", "--superoptimize=target=sm_90 state-budget=20000 "
     "time-budget=5 threads=1 cache=off"),
    ("graph-optimize", "--graph-optimize=budget=30 time-limit=10"),
    ("graph-saturate", "--graph-saturate=iter-limit=4 time-limit=10"),
    ("pet", "--partial-equivalence-optimize=budget=4"),
    ("joint", "--joint-optimize=budget=10 mugraph-searches=4 "
     "state-budget=20000 time-budget=5 threads=1"),
]

# Tolerances of docs/Verification.md (NumericComparison.h).
TOL = {"f16": 1e-2, "bf16": 6e-2, "f32": 1e-5}
SUBNORMAL = {"f16": 2.0 ** -24, "bf16": 2.0 ** -133, "f32": 2.0 ** -149}
MAXVAL = {"f16": 65504.0, "bf16": 3.3895313892515355e38,
          "f32": 3.4028234663852886e38}
# Where rounding goes to infinity: the largest value plus half an ulp.
OVERFLOW = {"f16": 65520.0, "bf16": 3.3961776292126e38,
            "f32": 3.4028235677973366e38}

# Failures that other work is fixing: (pattern on the tool's message,
# reason). Empty: the view-only functions and returned arguments of the PTX
# path now get copy kernels, and initcheck reports only unwritten bytes that
# reach a store, an address or a branch.
KNOWN = []

# The emulator's checkers: a finding on an emitted kernel is a bug in the
# kernel (or a false alarm of the checker), never a refusal.
# A kernel that fails on the emulator (a checker, a deadlock, any fault of
# a launch) is wrong, never a refusal: the GPU would hang or misbehave.
CHECKER = re.compile(r"\b(initcheck|racecheck|memcheck|synccheck|deadlock)\b"
                     r"|error: launch \d+:")

CRASH_MARKS = ("Stack dump", "LLVM ERROR", "Assertion", "PLEASE submit",
               "Traceback (most recent call last)", "AddressSanitizer",
               "runtime error:", "terminate called", "Segmentation fault")

OUTCOMES = ["pass", "refused", "known", "sensitive", "wrong", "crash",
            "hang"]
# Unit roundoff per dtype: the perturbation of the sensitivity reference.
UNIT = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8, "f32": 2.0 ** -24}
SENSITIVE = ("out of the verifier's tolerance, within the program's "
             "sensitivity to a few ulps on its inputs")


# -- inputs -----------------------------------------------------------------

def round_to(x, dtype):
    """x (float64) rounded to dtype, to nearest even, back in float64."""
    if dtype == "f32":
        return x.astype(np.float32).astype(np.float64)
    if dtype == "f16":
        return x.astype(np.float16).astype(np.float64)
    # bf16: round the f32 bits to their top 16, ties to even.
    f = x.astype(np.float32)
    b = f.view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16 << 16
    out = (b & 0xFFFFFFFF).astype(np.uint32).view(np.float32)
    out = np.where(np.isnan(f), f, out)
    return out.astype(np.float64)


def draw_inputs(prog, seed):
    rng = np.random.default_rng(seed)
    return [round_to(rng.standard_normal(shape) * scale, prog.dtype)
            for shape, _, scale in prog.args]


# -- comparisons ------------------------------------------------------------

def median_magnitude(r):
    a = np.abs(r[np.isfinite(r) & (r != 0)])
    return float(np.median(a)) if a.size else 0.0


def check_exact(f, r):
    """fp64 against fp64: None or a description of the worst position."""
    if f.shape != r.shape:
        return "shape %s, expected %s" % (list(f.shape), list(r.shape))
    m = median_magnitude(r)
    fin = np.isfinite(r)
    err = np.abs(f - r)
    bad = fin & ~(err <= 1e-9 * (np.abs(r) + m))
    if not bad.any():
        return None
    i = np.unravel_index(np.argmax(np.where(bad, np.nan_to_num(err, nan=np.inf)
                                            , -1)), r.shape)
    return "at %s: %r, fp64 reference %r (%d positions)" % (
        [int(k) for k in i], float(f[i]), float(r[i]), int(bad.sum()))


def check_native(c, r, o, dtype):
    """c (native run or GPU) against the fp64 reference r, with the
    original's own error E = max |o - r|: None or the worst position;
    and the fraction of positions judged."""
    if c.shape != r.shape:
        return "shape %s, expected %s" % (list(c.shape), list(r.shape)), 0.0
    tol = TOL[dtype]
    judged = np.isfinite(r) & np.isfinite(o) & (np.abs(r) <= MAXVAL[dtype])
    m = median_magnitude(r)
    e = float(np.max(np.abs(o - r)[judged])) if judged.any() else 0.0
    allowed = tol * np.abs(r) + tol * m + 2 * SUBNORMAL[dtype] + 2 * e
    err = np.abs(c - r)
    ok = err <= allowed
    edge = np.isinf(c) & (np.sign(c) == np.sign(r)) & \
        (np.abs(r) + allowed >= OVERFLOW[dtype])
    bad = judged & ~ok & ~edge
    frac = float(judged.mean()) if judged.size else 1.0
    if not bad.any():
        return None, frac
    score = np.where(bad, np.nan_to_num(err / np.maximum(allowed, 1e-300),
                                        nan=np.inf), -1)
    i = np.unravel_index(np.argmax(score), r.shape)
    return ("at %s: %r, fp64 reference %r, own dtype %r, allowed error %.3g "
            "(%d of %d positions)"
            % ([int(k) for k in i], float(c[i]), float(r[i]), float(o[i]),
               float(allowed[i]), int(bad.sum()), bad.size)), frac


# -- running tools ----------------------------------------------------------

class Run:
    def __init__(self, cmd, rc, out, err, seconds, timed_out):
        self.cmd, self.rc, self.out, self.err = cmd, rc, out, err
        self.seconds, self.timed_out = seconds, timed_out


def run(cmd, timeout):
    start = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        timed_out = True
    return Run(cmd, p.returncode, out.decode(errors="replace"),
               err.decode(errors="replace"), time.time() - start, timed_out)


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line[line.index("error:") + 6:].strip()
    return None


def normalize(reason):
    """A reason with its numbers, types and names taken out, so that equal
    causes count together."""
    r = re.sub(r"tensor<[^>]*>|!block\.tile<[^>]*>", "T", reason)
    r = re.sub(r"'[^']*/[^']*'|\"[^\"]*/[^\"]*\"", "'FILE'", r)
    r = re.sub(r"'\w+_\d+'", "'KERNEL'", r)
    r = re.sub(r"@\w+", "@F", r)
    r = re.sub(r"\[[-0-9, ]*\]", "[..]", r)
    r = re.sub(r"(?<![\w.])-?\d+(\.\d+)?(e[-+]?\d+)?(?!\w)", "N", r)
    return r[:160]


def tool_failure(r, allowed_rcs=(0,)):
    """(outcome, reason) of a tool run that did not succeed, or None."""
    if r.timed_out:
        return "hang", "past the time limit of the stage"
    text = r.err + r.out
    for mark in CRASH_MARKS:
        if mark in text:
            return "crash", "%s (exit status %d)" % (mark, r.rc)
    if r.rc in allowed_rcs:
        return None
    if r.rc < 0:
        return "crash", "signal %d" % -r.rc
    msg = first_error(text)
    if r.rc == 1 and msg:
        for pattern, why in KNOWN:
            if pattern.search(msg):
                return "known", why
        return "refused", normalize(msg)
    return "crash", "exit status %d without a diagnostic" % r.rc


# -- one program ------------------------------------------------------------

class Result:
    def __init__(self, index, seed, prog):
        self.index, self.seed, self.prog = index, seed, prog
        self.stages = []  # (stage, outcome, reason, detail, commands)
        self.seconds = 0.0

    def add(self, stage, outcome, reason="", detail="", commands=()):
        self.stages.append((stage, outcome, reason, detail, list(commands)))


def load_outputs(folder, n):
    return [np.load(os.path.join(folder, "out%d.npy" % i)) for i in range(n)]


def interpret(tools, mlir, inputs, arith, folder, timeout):
    cmd = [tools["mirage-run"], mlir, "--func=main", "--arith=" + arith,
           "--input=" + ",".join(inputs), "--output-dir=" + folder]
    return run(cmd, timeout), cmd


def digest_of(text):
    """Of mirage-opt's printed form, without its comments: equal for a
    program an optimizer left as it was."""
    return hashlib.sha1(re.sub(r"//.*", "", text).encode()).hexdigest()


TENSOR = re.compile(r"tensor<((?:\d+x)*)\w+>")


def longest_sum(text):
    """The most terms any one sum of the program adds: a matmul's K, a
    reduce_sum's, softmax's or rms_norm's row (1 when it has none)."""
    longest = 1
    for line in text.splitlines():
        shapes = [[int(d) for d in m.group(1).split("x") if d]
                  for m in TENSOR.finditer(line)]
        if not shapes or not shapes[0]:
            continue
        if "graph.matmul" in line:
            longest = max(longest, shapes[0][-1])
        elif "graph.rms_norm" in line:
            longest = max(longest, shapes[0][-1])
        elif "graph.reduce_sum" in line or "graph.softmax" in line:
            m = re.search(r"dim = (\d+)", line)
            if m and int(m.group(1)) < len(shapes[0]):
                longest = max(longest, shapes[0][int(m.group(1))])
    return longest


def n_results(text):
    m = re.search(r"func\.func @main\([^)]*\)\s*->\s*\((.*)\)\s*{", text)
    if m:
        return len(re.findall(r"tensor<", m.group(1)))
    m = re.search(r"func\.func @main\([^)]*\)\s*->\s*tensor<", text)
    return 1 if m else 0


def check_program(index, seed, tools, out_root, timeout, chip, stages_on):
    prog = randprog.generate(seed)
    res = Result(index, seed, prog)
    start = time.time()
    d = os.path.join(out_root, "p%05d" % index)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    src = os.path.join(d, "prog.mlir")
    with open(src, "w") as f:
        f.write(prog.text)
    inputs = []
    for i, x in enumerate(draw_inputs(prog, seed)):
        path = os.path.join(d, "in%d.npy" % i)
        np.save(path, x)
        inputs.append(path)
    nres = n_results(prog.text)

    # The reference, in fp64 and in the program's dtypes.
    refs = {}
    for arith in ("fp64", "native"):
        folder = os.path.join(d, "ref-" + arith)
        r, cmd = interpret(tools, src, inputs, arith, folder, timeout)
        bad = tool_failure(r)
        if bad:
            res.add("interpret", bad[0], bad[1], r.err[-2000:], [cmd])
            res.seconds = time.time() - start
            return res
        refs[arith] = load_outputs(folder, nres)
    r64, rnat = refs["fp64"], refs["native"]
    # The sensitivity reference: fp64 on the inputs moved by up to 8 units
    # of roundoff each, or by the backward error of the longest f32 sum
    # (a kernel accumulates in f32 whatever the dtype: about sqrt(K) units
    # of f32 roundoff for K terms rounded at random), whichever is larger
    # (see judge()).
    pinputs = []
    prng = np.random.default_rng(seed + 1)
    spread = max(8 * UNIT[prog.dtype],
                 8 * UNIT["f32"] * np.sqrt(longest_sum(prog.text)))
    for i, path in enumerate(inputs):
        x = np.load(path)
        x = round_to(x * (1 + spread * prng.uniform(-1, 1, x.shape)),
                     prog.dtype)
        pinputs.append(os.path.join(d, "pin%d.npy" % i))
        np.save(pinputs[-1], x)
    folder = os.path.join(d, "ref-perturbed")
    r, cmd = interpret(tools, src, pinputs, "fp64", folder, timeout)
    bad = tool_failure(r)
    if bad:
        res.add("interpret", bad[0], "perturbed inputs: " + bad[1],
                r.err[-2000:], [cmd])
        res.seconds = time.time() - start
        return res
    rpert = load_outputs(folder, nres)
    res.add("interpret", "pass")
    ref = (r64, rnat, rpert)
    if mo is not None and "python" in stages_on:
        python_check(res, prog, [np.load(p) for p in inputs], r64, rnat)

    # Programs to lower: the original, then every optimized one that differs.
    lower = [("default", src)]
    seen = set()
    canon = os.path.join(d, "canonical.mlir")
    if not run([tools["mirage-opt"], src, "-o", canon], timeout).rc:
        with open(canon) as f:
            seen.add(digest_of(f.read()))
    for name, flag in OPTIMIZERS:
        if name not in stages_on:
            continue
        stage = "opt:" + name
        dst = os.path.join(d, name + ".mlir")
        cmd = [tools["mirage-opt"], src, flag, "-o", dst]
        r = run(cmd, timeout)
        bad = tool_failure(r)
        if bad:
            res.add(stage, bad[0], bad[1], r.err[-2000:], [cmd])
            continue
        with open(dst) as f:
            text = f.read()
        digest = digest_of(text)
        failure = None
        outs = {}
        for arith in ("fp64", "native"):
            folder = os.path.join(d, name + "-" + arith)
            rr, rcmd = interpret(tools, dst, inputs, arith, folder, timeout)
            bad = tool_failure(rr)
            if bad:
                # The optimizer emitted a program the interpreter refuses.
                outcome = "wrong" if bad[0] == "refused" else bad[0]
                failure = (outcome, "interpreting the result: " + bad[1],
                           rr.err[-2000:], [cmd, rcmd])
                break
            outs[arith] = load_outputs(folder, nres)
        if not failure:
            for k in range(nres):
                why = check_exact(outs["fp64"][k], r64[k])
                if why:
                    failure = ("wrong", "fp64 result differs",
                               "output %d %s" % (k, why), [cmd])
                    break
            if not failure:
                verdict = judge(outs["native"], ref, prog.dtype)
                if verdict:
                    failure = (verdict[0], "native result " + (
                        "out of tolerance" if verdict[0] == "wrong" else
                        SENSITIVE), verdict[1], [cmd])
        if failure:
            res.add(stage, *failure)
            continue
        res.add(stage, "pass")
        if digest not in seen:
            seen.add(digest)
            lower.append((name, dst))

    if "ptx" in stages_on:
        for name, mlir in lower:
            lower_one(res, name, mlir, inputs, tools, d, timeout, chip, ref,
                      nres, prog.dtype)
    res.seconds = time.time() - start
    return res


def python_check(res, prog, arrays, r64, rnat):
    """The same program through the Python package: parsed by mo.parse
    (mirage-opt's verifiers) and run by Program.run in both arithmetics,
    which must give mirage-run's results (one interpreter, two front
    ends: a difference is a bug in how one of them passes values)."""
    try:
        p = mo.parse(prog.text)
        for mode, ref in (("fp64", r64), ("native", rnat)):
            outs = p.run(arrays, mode=mode)
            for k, (a, b) in enumerate(zip(outs, ref)):
                a = np.asarray(a, dtype=np.float64)
                if a.shape != b.shape or not np.array_equal(a, b,
                                                            equal_nan=True):
                    res.add("python", "wrong", "Program.run differs from "
                            "mirage-run", "output %d in %s" % (k, mode))
                    return
    except mo.MirageError as e:
        res.add("python", "refused", normalize(str(e).splitlines()[0]))
        return
    except Exception as e:  # noqa: BLE001 - any other exception is a crash
        res.add("python", "crash", "%s: %s" % (type(e).__name__, e))
        return
    res.add("python", "pass")


def lower_one(res, name, mlir, inputs, tools, d, timeout, chip, ref, nres,
              dtype):
    stage = "ptx:" + name
    prefix = os.path.join(d, "ptx-" + name)
    cmd = [tools["mirage-opt"], mlir,
           "--mirage-to-ptx=target=%s output=%s cubin=false" % (chip, prefix),
           "-o", os.path.join(d, "ptx-" + name + ".mlir")]
    r = run(cmd, timeout)
    bad = tool_failure(r)
    if bad:
        res.add(stage, bad[0], bad[1], r.err[-2000:], [cmd])
        return
    folder = os.path.join(d, "emu-" + name)
    emu = [tools["mirage-gpu-run"], prefix + ".json", "--function=main",
           "--emulate", "--input=" + ",".join(inputs),
           "--output-dir=" + folder, "--tolerance=1e30",
           "--expected=" + ",".join(os.path.join(d, "ref-fp64", "out%d.npy" % k)
                                    for k in range(nres))]
    r = run(emu, timeout)
    bad = tool_failure(r, allowed_rcs=(0, 3))
    if bad and bad[0] == "refused" and CHECKER.search(r.err + r.out):
        bad = ("wrong", "checker finding: " + bad[1])
    if bad:
        res.add(stage, bad[0], "emulator: " + bad[1], r.err[-2000:],
                [cmd, emu])
        return
    verdict = compare_gpu(folder, nres, ref, dtype)
    if verdict:
        res.add(stage, verdict[0], "emulated result " + (
            "out of tolerance" if verdict[0] == "wrong" else SENSITIVE),
            verdict[1], [cmd, emu])
    else:
        res.add(stage, "pass")


def compare_gpu(folder, nres, ref, dtype):
    try:
        outs = load_outputs(folder, nres)
    except OSError as e:
        return "wrong", "no output: %s" % e
    return judge(outs, ref, dtype)


def judge(outs, ref, dtype):
    """The native check of `outs` against the fp64 reference, lending the
    original's own error in its dtypes (the verifier's rule); None when it
    passes. An output that fails it is "sensitive" when it passes with the
    error lent by the fp64 run on inputs moved by a few ulps instead: the
    native interpreter rounds a matmul or a reduction once, as an exact
    accumulator would, while f32 code accumulates the rounding of every
    partial sum, which a sum that cancels (|sum| << sum of |terms|) turns
    into a large relative error. Backward error analysis puts that error
    at the program's sensitivity to its inputs' last bits; a bug is rarely
    that small. Otherwise "wrong"."""
    r64, rnat, rpert = ref
    sensitive = None
    for k in range(len(r64)):
        why, _ = check_native(outs[k], r64[k], rnat[k], dtype)
        if not why:
            continue
        why2, _ = check_native(outs[k], r64[k], rpert[k], dtype)
        if why2:
            return "wrong", "output %d %s" % (k, why)
        sensitive = sensitive or "output %d %s" % (k, why)
    return ("sensitive", sensitive) if sensitive else None


# -- the run ----------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0,
                    help="index of the first program (to resume a run)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds per tool run: beyond it, a hang")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--out", default="/tmp/mirage-random")
    ap.add_argument("--stages", default="python,ptx," + ",".join(
        n for n, _ in OPTIMIZERS),
        help="comma-separated: python, ptx and the optimizers to run")
    ap.add_argument("--keep", action="store_true",
                    help="keep every program's folder, not only findings'")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()

    tools = {t: os.path.join(args.bin, t)
             for t in ("mirage-opt", "mirage-run", "mirage-gpu-run")}
    for t, p in tools.items():
        if not os.access(p, os.X_OK):
            sys.exit("run_random.py: %s not found at %s (--bin)" % (t, p))
    stages_on = set(args.stages.split(","))
    os.makedirs(args.out, exist_ok=True)
    start = time.time()
    results = []
    indices = range(args.first, args.first + args.count)

    def job(i):
        seed = args.seed * 1000003 + i
        chip = "sm_80" if i % 2 == 0 else "sm_90"
        return check_program(i, seed, tools, args.out, args.timeout, chip,
                             stages_on)

    # SIGINT or SIGTERM ends the run with the table of what finished (a
    # background job ignores SIGINT unless told otherwise).
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    try:
        for res in pool.map(job, indices):
            results.append(res)
            worst = [s for s in res.stages
                     if s[1] in ("wrong", "crash", "hang")]
            if not args.keep and not worst:
                shutil.rmtree(os.path.join(args.out, "p%05d" % res.index),
                              ignore_errors=True)
            if not args.quiet:
                print("program %d (seed %d, %s, %d ops, %.1f s): %s" % (
                    res.index, res.seed, res.prog.dtype, len(res.prog.ops),
                    res.seconds, " ".join(
                        "%s=%s" % (s[0], s[1]) for s in res.stages)),
                    file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        # Interrupted (SIGINT): the table of the programs finished so far.
        print("interrupted after %d programs" % len(results), file=sys.stderr)
        pool.shutdown(wait=False, cancel_futures=True)
    report(results, args, time.time() - start)


def report(results, args, seconds):
    stages = []
    table = collections.defaultdict(collections.Counter)
    reasons = collections.Counter()
    examples = {}
    for res in results:
        for stage, outcome, reason, _, _ in res.stages:
            if stage not in stages:
                stages.append(stage)
            table[stage][outcome] += 1
            if outcome != "pass":
                key = (stage.split(":")[0] + (":" + stage.split(":")[1]
                                              if ":" in stage else ""),
                       outcome, reason)
                reasons[key] += 1
                examples.setdefault(key, res.index)
    order = ["interpret", "python"] + ["opt:" + n for n, _ in OPTIMIZERS] + \
        ["ptx:default"] + ["ptx:" + n for n, _ in OPTIMIZERS]
    stages.sort(key=lambda s: order.index(s) if s in order else len(order))
    print("random differential run: %d programs, seed %d, %.0f s" % (
        len(results), args.seed, seconds))
    print()
    print("| stage | " + " | ".join(OUTCOMES) + " |")
    print("|---" * (len(OUTCOMES) + 1) + "|")
    total = collections.Counter()
    for s in stages:
        total.update(table[s])
        print("| %s | " % s + " | ".join(str(table[s][o]) for o in OUTCOMES)
              + " |")
    print("| all | " + " | ".join(str(total[o]) for o in OUTCOMES) + " |")
    if reasons:
        print()
        print("| stage | outcome | count | reason | first program |")
        print("|---|---|---|---|---|")
        for key, n in sorted(reasons.items(),
                             key=lambda kv: (OUTCOMES.index(kv[0][1]),
                                             -kv[1])):
            print("| %s | %s | %d | %s | %d |" % (key[0], key[1], n,
                                                  key[2].replace("|", "/"),
                                                  examples[key]))
    findings = [(res, s) for res in results for s in res.stages
                if s[1] in ("wrong", "crash", "hang")]
    with open(os.path.join(args.out, "findings.txt"), "w") as f:
        for res, (stage, outcome, reason, detail, cmds) in findings:
            f.write("program %d (seed %d) %s: %s: %s\n%s\n" % (
                res.index, res.seed, stage, outcome, reason, detail))
            for c in cmds:
                f.write("  " + " ".join(shlex.quote(x) for x in c) + "\n")
            f.write("\n")
    print()
    print("wrong %d, crash %d, hang %d (details: %s)" % (
        total["wrong"], total["crash"], total["hang"],
        os.path.join(args.out, "findings.txt")))
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
