#!/usr/bin/env python3
"""ONNX's backend node tests through mirage_opt.from_onnx, per operator.

The `onnx` package ships a conformance case for every operator it defines
(onnx.backend.test.case.node: a one-node model, or its function expanded into
several nodes, with inputs and expected outputs). This script runs the cases
whose operator the importer claims (an `op_<Name>` handler of
mirage_opt.onnx_import, or an operator of its constant folding,
onnx_import._FOLDED_OPS, so the list cannot drift from the code) through
`from_onnx` and `Program.run`, and optionally `superoptimize` then `run`
again, and prints a table per operator:

  cases, pass (of which folded: every operand was constant, so the importer
  computed the result with NumPy, and that value is what is compared),
  refused (a MirageError, its reason grouped), wrong (a result outside the
  case's tolerance, or of another shape or integer dtype), crash (any other
  exception). A boolean result the graph computes (a comparison) is a 0/1
  mask in its operands' float dtype and must equal the reference exactly.

A case's operator is its one node's op type, or for an `_expanded` case (the
operator's function body) that of the case it expands.

Node tests feed a model's shape-like operands (Reshape's shape, Slice's
starts, Clip's bounds ...) as graph inputs; exporters write them as
constants. So integer and boolean inputs and rank-0 float inputs are turned
into initializers holding the case's values before import (--keep-inputs
turns this off). Exit status 1 if any case is wrong or crashed.

  python onnx_conformance.py --all           # every claimed case
  python onnx_conformance.py                 # a seeded sample, 3 cases per operator
  python onnx_conformance.py --all --superoptimize 1000 --markdown --reasons
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import sys
import time
import warnings

import numpy as np

import onnx
from onnx import numpy_helper
from onnx.backend.test.case.node import collect_testcases

import mirage_opt as mo
from mirage_opt import onnx_import


def claimed_operators() -> set:
    """What the importer claims: its handlers and the operators its constant
    folding evaluates."""
    ops = {n[3:] for n in dir(onnx_import._Importer) if n.startswith("op_")}
    return ops | set(onnx_import._FOLDED_OPS)


def operators_of(cases) -> dict:
    """The operator each case tests, by case name. A case of one node tests
    that node's op type (its name need not spell it: test_batchnorm_* tests
    BatchNormalization); an `_expanded` case (the operator's function body)
    tests the operator of the case it expands."""
    single = {}
    for case in cases:
        nodes = [n for n in case.model.graph.node if n.domain in ("", "ai.onnx")]
        if len(nodes) == 1 and len(case.model.graph.node) == 1:
            single[case.name] = nodes[0].op_type
    ops = {}
    for case in cases:
        if case.name in single:
            ops[case.name] = single[case.name]
            continue
        stem = re.sub(r"_expanded(_ver\d+)?$", "", case.name)
        if stem != case.name and stem in single:
            ops[case.name] = single[stem]
    return ops


def constant_inputs(model, inputs, keep: bool):
    """The model with integer and rank-0 float inputs as initializers; the
    remaining inputs' values by name."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    graph = model.graph
    feeds, keep_vi = {}, []
    for vi, value in zip(list(graph.input), inputs):
        if isinstance(value, np.generic):
            value = np.asarray(value)
        folded = isinstance(value, np.ndarray) and not keep and \
            (value.dtype.kind in "iub" or (value.ndim == 0 and value.dtype.kind == "f"))
        if folded:
            graph.initializer.append(numpy_helper.from_array(value, vi.name))
        else:
            keep_vi.append(vi)
            feeds[vi.name] = value
    del graph.input[:]
    graph.input.extend(keep_vi)
    return model, feeds


def close(out, ref, rtol, atol, dtype) -> bool:
    if np.asarray(ref).dtype.kind in "iu":
        # An index result (TopK's indices) is an integer tensor: same dtype,
        # same values, no tolerance.
        out, ref = np.asarray(out), np.asarray(ref)
        return out.dtype == ref.dtype and out.shape == ref.shape and np.array_equal(out, ref)
    out, ref = np.asarray(out, np.float64), np.asarray(ref)
    if ref.dtype.kind == "b":
        # A boolean result the graph computes is a 0/1 mask (graph tensors
        # are float): exactly 1.0 where the reference is true, 0.0 elsewhere.
        return out.shape == ref.shape and np.array_equal(out, ref.astype(np.float64))
    if ref.dtype.kind not in "f" and dtype != "bfloat16":  # ml_dtypes' kind is 'V'
        return False
    ref = ref.astype(np.float64)
    if out.shape != ref.shape:
        return False
    # The case's tolerance, widened to the dtype's rounding for 16-bit types.
    rtol = max(rtol, {"float16": 2e-3, "bfloat16": 1.6e-2}.get(dtype, 0.0))
    same_nonfinite = (np.isnan(out) == np.isnan(ref)).all() and \
        (out[np.isinf(ref)] == ref[np.isinf(ref)]).all()
    finite = np.isfinite(ref)
    return bool(same_nonfinite and (np.abs(out[finite] - ref[finite]) <=
                                    atol + rtol * np.abs(ref[finite])).all())


def _array(v):
    """A case's value as NumPy: some cases (Cast's) store TensorProtos."""
    return numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v


def run_case(case, op: str, keep: bool, search: bool):
    """('pass' | 'refused' | 'wrong' | 'crash', detail). The program runs in
    fp64 and each result is then rounded to its declared dtype, as any
    implementation hands it over (a Cast to FLOAT16 overflows to inf)."""
    inputs, outputs = case.data_sets[0]
    inputs, outputs = [_array(v) for v in inputs], [_array(v) for v in outputs]
    model, feeds = constant_inputs(case.model, inputs, keep)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = mo.from_onnx(model)
        outs = p.run([feeds[_raw(p, i.name, feeds)] for i in p.user_inputs])
        if search:
            q = p.superoptimize("sm_90", state_budget=2000, cache="off", verbose=False)
            outs = q.run([feeds[_raw(p, i.name, feeds)] for i in q.user_inputs])
        outs = [onnx_import._round_to(o, info.dtype) for o, info in zip(outs, p.outputs)]
    except mo.MirageError as e:
        if "is a constant" in str(e):
            # Every operand was constant: the importer folded the node with
            # NumPy. Its folding is what the case checks.
            return check_folded(model, case, op, outputs)
        return "refused", _reason(str(e), op)
    except Exception as e:  # noqa: BLE001 - the harness counts it
        return "crash", f"{type(e).__name__}: {str(e)[:200]}"
    return compare(outs, outputs, case)


def compare(outs, outputs, case, kind="pass"):
    if len(outs) != len(outputs):
        return "wrong", f"{len(outs)} results, {len(outputs)} expected"
    for out, ref in zip(outs, outputs):
        dtype = str(np.asarray(ref).dtype)
        if not close(out, ref, case.rtol, case.atol, dtype):
            err = np.abs(np.asarray(out, np.float64) - np.asarray(ref, np.float64)).max() \
                if np.asarray(out).shape == np.asarray(ref).shape else "shape"
            return "wrong", f"max error {err}"
    return kind, ""


def check_folded(model, case, op, outputs):
    """('folded' | 'wrong' | 'crash' | 'refused', detail) for a model whose
    outputs the importer computes as constants: their values, dtypes and
    shapes against the case's expected outputs."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
            imp = onnx_import._Importer(inferred, None, False)
            try:
                imp.run()
            except mo.MirageError as e:
                if "is a constant" not in str(e):
                    return "refused", _reason(str(e), op)
        outs = [imp.env.get(vo.name) for vo in model.graph.output]
    except Exception as e:  # noqa: BLE001 - the harness counts it
        return "crash", f"{type(e).__name__}: {str(e)[:200]}"
    if not all(isinstance(o, np.ndarray) for o in outs):
        return "refused", "an output is computed, another is a constant"
    for out, ref in zip(outs, outputs):
        ref = np.asarray(ref)
        if ref.dtype in (np.float16, np.float32, np.float64) and out.dtype != ref.dtype:
            return "wrong", f"folded as {out.dtype}, expected {ref.dtype}"
        if ref.dtype.kind in "iub" or out.dtype.kind in "iub":
            if out.dtype != ref.dtype or out.shape != ref.shape or not np.array_equal(out, ref):
                return "wrong", (f"folded {out.dtype}{list(out.shape)} "
                                 f"{_short(out)}, expected {ref.dtype}{list(ref.shape)} {_short(ref)}")
    floats = [(o, r) for o, r in zip(outs, outputs) if np.asarray(r).dtype.kind == "f"]
    return compare([o for o, _ in floats], [r for _, r in floats], case, "folded")


def _short(v) -> str:
    return np.array2string(np.asarray(v).reshape(-1)[:6], separator=",")


def _raw(p, clean, feeds):
    for name in feeds:
        if onnx_import._clean(name) == clean:
            return name
    raise mo.MirageError(f"no value for input {clean}")


def _reason(message: str, op: str) -> str:
    """The reason of a refusal without the node's name, for grouping; the
    refusing node's op type where it is not the case's operator (a node of
    an expanded function body)."""
    m = re.match(r"ONNX node .*?\((\w+)\): ", message)
    if m:
        message = message[m.end():] if m.group(1) == op else f"{m.group(1)}: {message[m.end():]}"
    message = re.sub(r"(?<![A-Za-z])'[^']*'", "'…'", message)
    message = re.sub(r"\[[^\]]*\]", "[…]", message)
    return message[:120]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true",
                    help="every claimed case (default: a seeded sample of --per-op cases per operator)")
    ap.add_argument("--per-op", type=int, default=3, metavar="N")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--superoptimize", type=int, default=0, metavar="N",
                    help="also superoptimize the first N cases that import and re-check them")
    ap.add_argument("--keep-inputs", action="store_true", help="do not turn integer/scalar inputs into constants")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--reasons", action="store_true", help="list the refusal reasons per operator")
    ap.add_argument("--filter", default="", help="only cases whose name contains this")
    args = ap.parse_args()

    claimed = claimed_operators()
    by_op = collections.defaultdict(list)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases(None)
    ops = operators_of(cases)
    for case in cases:
        op = ops.get(case.name)
        if op in claimed and args.filter in case.name:
            by_op[op].append(case)
    rng = random.Random(args.seed)
    if not args.all:
        for op in by_op:
            cases = sorted(by_op[op], key=lambda c: c.name)
            by_op[op] = sorted(rng.sample(cases, min(args.per_op, len(cases))), key=lambda c: c.name)

    start = time.time()
    table, reasons, failures = {}, collections.defaultdict(collections.Counter), []
    searched = 0
    for op in sorted(by_op):
        row = collections.Counter()
        for case in sorted(by_op[op], key=lambda c: c.name):
            search = searched < args.superoptimize
            kind, detail = run_case(case, op, args.keep_inputs, search)
            if search and kind == "pass":
                searched += 1
            row[kind] += 1
            if kind == "refused":
                reasons[op][detail] += 1
            elif kind in ("wrong", "crash"):
                failures.append((case.name, kind, detail))
        table[op] = row

    cols = ("cases", "pass", "folded", "refused", "wrong", "crash")
    total = collections.Counter()
    if args.markdown:
        print("| operator | " + " | ".join(cols) + " |")
        print("|---|" + "--:|" * len(cols))
    else:
        print(f"{'operator':24}" + "".join(f"{c:>9}" for c in cols))
    for op, row in table.items():
        n = sum(row.values())
        total.update(row)
        vals = (n, row["pass"] + row["folded"], row["folded"], row["refused"], row["wrong"], row["crash"])
        if args.markdown:
            print(f"| {op} | " + " | ".join(map(str, vals)) + " |")
        else:
            print(f"{op:24}" + "".join(f"{v:>9}" for v in vals))
    n = sum(total.values())
    vals = (n, total["pass"] + total["folded"], total["folded"], total["refused"], total["wrong"],
            total["crash"])
    if args.markdown:
        print("| **all** | " + " | ".join(f"**{v}**" for v in vals) + " |")
    else:
        print(f"{'all':24}" + "".join(f"{v:>9}" for v in vals))
    print(f"{len(table)} operators, {n} cases, {searched} superoptimized and re-checked, "
          f"{time.time() - start:.1f} s")
    if args.reasons:
        for op in sorted(reasons):
            for r, k in reasons[op].most_common():
                print(f"- {op} ({k}): {r}" if args.markdown else f"  {op}: {r} ({k})")
    for name, kind, detail in failures:
        print(f"{kind.upper()}: {name}: {detail}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
