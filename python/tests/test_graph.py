"""Graph building, parsing, the interpreter, passes and errors, with NumPy
as the independent reference."""

import numpy as np
import pytest

import mirage_opt as mo
from conftest import rel_error


def gated_mlp(m=8, k=64, n=32, dtype="f32"):
    g = mo.Graph("gated_mlp")
    x = g.input((m, k), dtype, name="X")
    w1 = g.input((k, n), dtype, name="W1")
    w2 = g.input((k, n), dtype, name="W2")
    g.output(g.mul(g.silu(g.matmul(x, w1)), g.matmul(x, w2)))
    return g.program()


def test_build_print_parse_roundtrip():
    p = gated_mlp()
    assert [i.name for i in p.inputs] == ["X", "W1", "W2"]
    assert p.outputs[0].shape == (8, 32) and p.outputs[0].dtype == "f32"
    again = mo.parse(p.text)
    assert again.function == "gated_mlp"
    assert "graph.silu" in again.text and "graph.matmul" in again.text


def test_run_matches_numpy(rng):
    p = gated_mlp()
    x, w1, w2 = (rng.uniform(-4, 4, i.shape) for i in p.inputs)
    out = p.run([x, w1, w2])[0]
    a = x @ w1
    ref = a / (1 + np.exp(-a)) * (x @ w2)
    assert rel_error(out, ref) < 1e-14
    # By name, and in the program's own dtypes.
    native = p.run({"X": x, "W1": w1, "W2": w2}, mode="native")[0]
    assert 0 < rel_error(native, ref) < 1e-5


def test_every_op_runs_like_numpy(rng):
    g = mo.Graph("ops")
    x = g.input((2, 3, 6, 6), "f32")
    w = g.input((4, 3, 3, 3), "f32")
    v = g.input((6,), "f32")
    c = g.conv2d(x, w, strides=(1, 1), padding=(1, 1))
    outs = [
        g.relu(c), g.tanh(x), g.sigmoid(x), g.scalar_add(x, 0.5), g.scalar_mul(x, -2.0),
        g.clamp(x, -0.5, 0.25), g.pow(g.square(x), 1.5), g.softmax(x, -1),
        g.reduce_sum(x, 1), g.reduce_max(x, 2), g.transpose(x, [0, 2, 3, 1]),
        g.add(x, v), g.div(x, g.scalar_add(g.square(v), 1.0)),
        g.max_pool2d(x, (2, 2)), g.avg_pool2d(x, (3, 3), (1, 1), (1, 1)),
        g.concat(g.split(x, 3, [2, 4])[::-1], 3), g.repeat(g.reshape(v, (1, 6)), (2, 1)),
        g.rms_norm(x, 1e-6),
    ]
    g.output(*outs)
    p = g.program()
    xv, wv, vv = rng.normal(size=(2, 3, 6, 6)), rng.normal(size=(4, 3, 3, 3)), rng.normal(size=6)
    res = p.run([xv, wv, vv])
    pad = np.pad(xv, ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((2, 4, 6, 6))
    for i in range(6):
        for j in range(6):
            conv[:, :, i, j] = np.einsum("nchw,ochw->no", pad[:, :, i:i + 3, j:j + 3], wv)
    e = np.exp(xv - xv.max(-1, keepdims=True))
    avg = np.zeros_like(xv)
    for i in range(6):
        for j in range(6):
            avg[:, :, i, j] = pad[:, :, i:i + 3, j:j + 3].sum((2, 3)) / 9
    refs = [
        np.maximum(conv, 0), np.tanh(xv), 1 / (1 + np.exp(-xv)), xv + 0.5, -2 * xv,
        np.clip(xv, -0.5, 0.25), np.abs(xv) ** 3, e / e.sum(-1, keepdims=True),
        xv.sum(1, keepdims=True), xv.max(2, keepdims=True), xv.transpose(0, 2, 3, 1),
        xv + vv, xv / (vv ** 2 + 1),
        xv.reshape(2, 3, 3, 2, 3, 2).max((3, 5)), avg,
        np.concatenate([xv[..., 2:], xv[..., :2]], 3), np.tile(vv, (2, 1)),
        xv / np.sqrt((xv ** 2).mean(-1, keepdims=True) + 1e-6),
    ]
    for i, (out, ref) in enumerate(zip(res, refs)):
        assert out.shape == ref.shape, i
        assert rel_error(out, ref) < 1e-12, i


def test_builder_rejects_bad_programs():
    g = mo.Graph("bad")
    a, b = g.input((4, 8)), g.input((4, 8))
    with pytest.raises(mo.GraphError, match="do not match"):
        g.matmul(a, b)
    with pytest.raises(mo.GraphError, match="do not broadcast"):
        g.add(a, g.reshape(b, (8, 4)))
    with pytest.raises(mo.GraphError, match="out of range"):
        g.reduce_sum(a, 2)
    with pytest.raises(mo.GraphError, match="no outputs"):
        mo.Graph("empty").mlir()
    other = mo.Graph("other")
    with pytest.raises(mo.GraphError, match="not a value"):
        g.relu(other.input((2,)))


def test_parse_errors_carry_mlir_diagnostics():
    text = ("func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
            "  %0 = graph.softmax %x, dim = 2 : tensor<4x8xf32>\n"
            "  return %0 : tensor<4x8xf32>\n}\n")
    with pytest.raises(mo.MirageError) as e:
        mo.parse(text)
    assert "<python>:2:8: error:" in str(e.value)
    with pytest.raises(mo.MirageError, match="takes 1 inputs"):
        mo.parse(text.replace("dim = 2", "dim = 1")).run([])
    with pytest.raises(mo.MirageError, match="has shape \\[3\\]"):
        mo.parse(text.replace("dim = 2", "dim = 1")).run([np.zeros(3)])


def test_passes_superoptimize_verify_and_lower(tmp_path, rng):
    p = gated_mlp(dtype="f16")
    kernels = p.to_kernels()
    assert "kernel.matmul" in kernels.text and "graph." not in kernels.text
    fast = p.superoptimize("sm_90", state_budget=200000, cache="off", verbose=False)
    assert "kernel.graph_def" in fast.text
    # Verified on a reduced instance (the rows are uniform: docs/Verification.md).
    assert "verified: on a reduced instance" in fast.last_remarks
    assert "finite-field test" in fast.last_remarks
    verdict = p.verify(fast)
    assert "is equivalent to" in verdict and "false-positive bound" in verdict
    xs = [rng.uniform(-1, 1, i.shape) for i in p.inputs]
    assert rel_error(fast.run(xs)[0], p.run(xs)[0]) < 1e-12
    assert "remark: graph.matmul" in p.estimate_cost("sm_80")
    # The program remembers the target it was searched for, and lowering
    # and the cost report use it unless told otherwise.
    assert p.target is None and fast.target == "sm_90"
    assert "on sm_90" in fast.estimate_cost() and "on sm_90" in p.estimate_cost()
    paths = fast.lower(output=tmp_path / "gm", cubin=False)
    ptx = (tmp_path / "gm.ptx").read_text()
    assert ptx.count(".entry") >= 1 and ".target sm_90" in ptx
    assert paths["manifest"].endswith("gm.json")
    with pytest.warns(UserWarning, match="searched for 'sm_90'"):
        fast.lower("sm_80", tmp_path / "gm80", cubin=False)
    assert ".target sm_80" in (tmp_path / "gm80.ptx").read_text()
    with pytest.warns(DeprecationWarning, match="use target="):
        fast.lower(chip="sm_90", output=tmp_path / "gmc", cubin=False)


def test_verify_rejects_a_different_program():
    p = gated_mlp()
    g = mo.Graph("wrong")
    x, w1, w2 = (g.input(i.shape, i.dtype) for i in p.inputs)
    g.output(g.mul(g.silu(g.matmul(x, w2)), g.matmul(x, w1)))  # weights swapped
    with pytest.raises(mo.MirageError, match="not equivalent"):
        p.verify(g.program())


def test_bad_pipelines_raise():
    p = gated_mlp()
    with pytest.raises(mo.MirageError, match="does not refer to a registered pass"):
        p.apply("no-such-pass")
    with pytest.raises(mo.MirageError, match="superoptimize"):
        p.apply("superoptimize{target=sm_12}")


def test_to_dot_draws_the_mugraph():
    p = gated_mlp(dtype="f16").superoptimize("sm_90", state_budget=100000, cache="off",
                                             verbose=False)
    dot = p.to_dot()
    assert dot.lstrip().startswith("digraph")
    assert "cluster" in dot and "block.matmul" in dot
    assert "cluster" not in p.to_dot(block_graphs=False)


def test_superoptimize_reports_progress_and_budget(capfd):
    p = gated_mlp(m=16, k=256, n=64, dtype="f16")
    fast = p.superoptimize("sm_90", state_budget=500, cache="off", progress=True)
    err = capfd.readouterr().err
    assert "[superoptimize]" in err
    assert "state budget reached" in fast.last_remarks
