"""Building graph-dialect programs in Python.

A ``Graph`` is one function under construction: inputs with shape and dtype,
graph ops (each method returns a ``Tensor`` whose shape follows the op's
shape rule, as docs/MicroGraphs.md states them), and outputs. ``Graph.program()``
prints it as MLIR and checks it with mirage-opt's verifiers::

    import mirage_opt as mo
    g = mo.Graph("gated_mlp")
    x = g.input((8, 4096), "f16", name="X")
    w1, w2 = g.input((4096, 4096), "f16"), g.input((4096, 4096), "f16")
    y = g.mul(g.silu(g.matmul(x, w1)), g.matmul(x, w2))
    g.output(y)
    program = g.program()

The shape rules here mirror lib/Dialect/Graph/IR/ShapeRules.cpp so that
result types can be printed; the C++ verifiers remain the authority, and a
program they reject raises ``MirageError`` with their diagnostics.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, field
from typing import Iterable, Sequence

DTYPES = ("f16", "bf16", "f32")
# Index tensors (token ids, gather/scatter positions, topk's indices): only
# the indexing ops (gather, gather_elements, scatter_elements, one_hot) read
# them and only topk computes them.
INDEX_DTYPES = ("i32", "i64")


class GraphError(ValueError):
    """A program that cannot be built: wrong shapes, dtypes or arguments."""


@dataclass(frozen=True)
class Tensor:
    """A value of a ``Graph``: its SSA name, shape and dtype."""

    graph: "Graph" = field(repr=False, compare=False)
    name: str
    shape: tuple
    dtype: str

    @property
    def type(self) -> str:
        return tensor_type(self.shape, self.dtype)

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"Tensor({self.name}: {self.type})"


def tensor_type(shape: Sequence[int], dtype: str) -> str:
    dims = "x".join(str(d) for d in shape)
    return f"tensor<{dims}x{dtype}>" if dims else f"tensor<{dtype}>"


def float_literal(value: float) -> str:
    """An MLIR float literal that reads back as exactly `value`."""
    value = float(value)
    if not math.isfinite(value):
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
    text = repr(value)
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    elif "e" not in text and "." not in text:
        text += ".0"
    return text


def _int_list(values: Iterable[int]) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def broadcast_shapes(a: Sequence[int], b: Sequence[int]) -> tuple:
    """NumPy broadcasting: shapes aligned at the trailing dimension."""
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + tuple(a)
    b = (1,) * (rank - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise GraphError(f"shapes {list(a)} and {list(b)} do not broadcast")
        out.append(y if x == 1 else x)
    return tuple(out)


def _window(size: int, kernel: int, stride: int, pad: int, dilation: int = 1) -> int:
    extent = dilation * (kernel - 1) + 1
    span = size + 2 * pad - extent
    if span < 0:
        raise GraphError(f"a window of {extent} does not fit {size} + 2 x {pad} padding")
    return span // stride + 1


class Graph:
    """One graph-dialect function under construction."""

    def __init__(self, name: str = "main"):
        if not name.replace("_", "a").isalnum() or name[0].isdigit():
            raise GraphError(f"function name {name!r} is not an identifier")
        self.name = name
        self.inputs: list[Tensor] = []
        self.input_names: list[str] = []
        self.outputs: list[Tensor] = []
        self._lines: list[str] = []
        self._count = 0
        self._locations: list[str | None] = []

    # -- structure ---------------------------------------------------------

    def input(self, shape: Sequence[int], dtype: str = "f32", name: str | None = None,
              late: bool = False) -> Tensor:
        """A function argument of static `shape` and `dtype` (f16, bf16, f32),
        appended to the signature. Inputs come before the first op, except
        `late` ones: a constant an importer meets mid-graph, bound as an
        argument."""
        if self._lines and not late:
            raise GraphError("inputs must be declared before the first op")
        shape = tuple(int(d) for d in shape)
        if any(d <= 0 for d in shape):
            raise GraphError(f"input shape {list(shape)} must have positive sizes")
        if dtype not in DTYPES + INDEX_DTYPES:
            raise GraphError(f"dtype {dtype!r} is not one of {DTYPES + INDEX_DTYPES}")
        t = Tensor(self, f"%arg{len(self.inputs)}", shape, dtype)
        self.inputs.append(t)
        self.input_names.append(name or f"arg{len(self.inputs) - 1}")
        return t

    def output(self, *tensors: Tensor) -> None:
        """Marks results of the function, in order."""
        for t in tensors:
            self._own(t, index_ok=True)
            self.outputs.append(t)

    def _own(self, t: Tensor, index_ok: bool = False) -> Tensor:
        if not isinstance(t, Tensor) or t.graph is not self:
            raise GraphError(f"{t!r} is not a value of graph {self.name!r}")
        if not index_ok and t.dtype in INDEX_DTYPES:
            raise GraphError(f"{t!r} is an index tensor: only gather, gather_elements, "
                             "scatter_elements and one_hot read index tensors")
        return t

    def _own_index(self, t: Tensor) -> Tensor:
        self._own(t, index_ok=True)
        if t.dtype not in INDEX_DTYPES:
            raise GraphError(f"{t!r} must be an index tensor ({', '.join(INDEX_DTYPES)})")
        return t

    def _emit(self, text: str, shapes: Sequence[tuple], dtype: str,
              location: str | None = None) -> list:
        results = []
        base = f"%{self._count}"
        self._count += 1
        dtypes = [dtype] * len(shapes) if isinstance(dtype, str) else list(dtype)
        if len(shapes) == 1:
            results.append(Tensor(self, base, tuple(shapes[0]), dtypes[0]))
            head = base
        else:
            head = f"{base}:{len(shapes)}"
            for i, s in enumerate(shapes):
                results.append(Tensor(self, f"{base}#{i}", tuple(s), dtypes[i]))
        loc = f" loc({_location(location)})" if location else ""
        self._lines.append(f"    {head} = {text}{loc}")
        return results

    # -- printing ----------------------------------------------------------

    def mlir(self) -> str:
        """The function as MLIR text (a module with one func.func)."""
        if not self.outputs:
            raise GraphError(f"graph {self.name!r} has no outputs")
        args = ", ".join(f"{t.name}: {t.type}" for t in self.inputs)
        results = ", ".join(t.type for t in self.outputs)
        ret = ", ".join(t.name for t in self.outputs)
        body = "\n".join(self._lines)
        return (f"module {{\n  func.func @{self.name}({args}) -> ({results}) {{\n"
                f"{body}\n    return {ret} : {results}\n  }}\n}}\n")

    def program(self, bound: dict | None = None):
        """The function as a checked ``Program``. `bound` maps input names to
        arrays that ``Program.run`` supplies itself (weights)."""
        from .program import Program
        return Program(self.mlir(), self.name, input_names=list(self.input_names),
                       bound=bound or {})

    # -- ops ---------------------------------------------------------------

    def matmul(self, a: Tensor, b: Tensor, loc: str | None = None) -> Tensor:
        self._own(a), self._own(b)
        if a.rank < 2 or a.rank != b.rank:
            raise GraphError(f"matmul needs operands of equal rank >= 2, got {a.type} and {b.type}")
        if a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2]:
            raise GraphError(f"matmul shapes {list(a.shape)} and {list(b.shape)} do not match")
        self._same_dtype(a, b)
        shape = a.shape[:-1] + (b.shape[-1],)
        return self._emit(f"graph.matmul {a.name}, {b.name} : ({a.type}, {b.type}) -> "
                          f"{tensor_type(shape, a.dtype)}", [shape], a.dtype, loc)[0]

    def _unary(self, op: str, x: Tensor, params: str = "", loc: str | None = None) -> Tensor:
        self._own(x)
        return self._emit(f"graph.{op} {x.name}{params} : {x.type}", [x.shape], x.dtype, loc)[0]

    def exp(self, x, loc=None): return self._unary("exp", x, loc=loc)
    def sqrt(self, x, loc=None): return self._unary("sqrt", x, loc=loc)
    def square(self, x, loc=None): return self._unary("square", x, loc=loc)
    def silu(self, x, loc=None): return self._unary("silu", x, loc=loc)
    def gelu(self, x, loc=None): return self._unary("gelu", x, loc=loc)
    def relu(self, x, loc=None): return self._unary("relu", x, loc=loc)
    def tanh(self, x, loc=None): return self._unary("tanh", x, loc=loc)
    def sigmoid(self, x, loc=None): return self._unary("sigmoid", x, loc=loc)

    def clamp(self, x, lo: float, hi: float, loc=None):
        if not lo <= hi:
            raise GraphError(f"clamp bounds are empty: {lo} > {hi}")
        return self._unary("clamp", x, f", min = {float_literal(lo)}, max = {float_literal(hi)}", loc)

    def scalar_mul(self, x, c: float, loc=None):
        return self._unary("scalar_mul", x, f", {float_literal(c)}", loc)

    def scalar_add(self, x, c: float, loc=None):
        return self._unary("scalar_add", x, f", {float_literal(c)}", loc)

    def pow(self, x, e: float, loc=None):
        return self._unary("pow", x, f", {float_literal(e)}", loc)

    # -- casts and erf (issue 24) -------------------------------------------

    def erf(self, x, loc=None): return self._unary("erf", x, loc=loc)

    def cast(self, x: Tensor, dtype: str, loc=None) -> Tensor:
        """`x` rounded to `dtype` (f16, bf16, f32); `x` itself when it has
        that dtype already. Every other op takes operands of one dtype, so
        mixed precision states each conversion with a cast."""
        self._own(x)
        if dtype not in DTYPES:
            raise GraphError(f"dtype {dtype!r} is not one of {DTYPES}")
        if dtype == x.dtype:
            return x
        return self._emit(f"graph.cast {x.name} : {x.type} -> {tensor_type(x.shape, dtype)}",
                          [x.shape], dtype, loc)[0]

    def _binary(self, op: str, a: Tensor, b: Tensor, loc=None) -> Tensor:
        self._own(a), self._own(b)
        self._same_dtype(a, b)
        shape = broadcast_shapes(a.shape, b.shape)
        return self._emit(f"graph.{op} {a.name}, {b.name} : ({a.type}, {b.type}) -> "
                          f"{tensor_type(shape, a.dtype)}", [shape], a.dtype, loc)[0]

    def add(self, a, b, loc=None): return self._binary("add", a, b, loc)
    def sub(self, a, b, loc=None): return self._binary("sub", a, b, loc)
    def mul(self, a, b, loc=None): return self._binary("mul", a, b, loc)
    def div(self, a, b, loc=None): return self._binary("div", a, b, loc)

    # Comparisons: a 0/1 mask in the operands' dtype (1.0 where the relation
    # holds; NaN compares unequal to everything).
    def eq(self, a, b, loc=None): return self._binary("eq", a, b, loc)
    def ne(self, a, b, loc=None): return self._binary("ne", a, b, loc)
    def lt(self, a, b, loc=None): return self._binary("lt", a, b, loc)
    def le(self, a, b, loc=None): return self._binary("le", a, b, loc)
    def gt(self, a, b, loc=None): return self._binary("gt", a, b, loc)
    def ge(self, a, b, loc=None): return self._binary("ge", a, b, loc)

    def select(self, cond: Tensor, a: Tensor, b: Tensor, loc=None) -> Tensor:
        """Elementwise `cond != 0 ? a : b`; the three broadcast together and
        share one dtype. The value not taken never reaches the result."""
        self._own(cond), self._own(a), self._own(b)
        self._same_dtype(cond, a)
        self._same_dtype(a, b)
        shape = broadcast_shapes(broadcast_shapes(cond.shape, a.shape), b.shape)
        return self._emit(f"graph.select {cond.name}, {a.name}, {b.name} : "
                          f"({cond.type}, {a.type}, {b.type}) -> {tensor_type(shape, a.dtype)}",
                          [shape], a.dtype, loc)[0]

    def _reduce(self, op: str, x: Tensor, dim: int, loc=None) -> Tensor:
        self._own(x)
        dim = self._dim(x, dim)
        shape = x.shape[:dim] + (1,) + x.shape[dim + 1:]
        return self._emit(f"graph.{op} {x.name}, dim = {dim} : {x.type} -> "
                          f"{tensor_type(shape, x.dtype)}", [shape], x.dtype, loc)[0]

    def reduce_sum(self, x, dim: int, loc=None): return self._reduce("reduce_sum", x, dim, loc)
    def reduce_max(self, x, dim: int, loc=None): return self._reduce("reduce_max", x, dim, loc)

    def rms_norm(self, x, eps: float = 0.0, loc=None):
        attr = f" {{eps = {float_literal(eps)} : f64}}" if eps else ""
        self._own(x)
        return self._emit(f"graph.rms_norm {x.name}{attr} : {x.type}", [x.shape], x.dtype, loc)[0]

    def softmax(self, x, dim: int, loc=None):
        self._own(x)
        dim = self._dim(x, dim)
        return self._emit(f"graph.softmax {x.name}, dim = {dim} : {x.type}", [x.shape], x.dtype, loc)[0]

    def transpose(self, x, perm: Sequence[int], loc=None):
        self._own(x)
        perm = [int(p) for p in perm]
        if sorted(perm) != list(range(x.rank)):
            raise GraphError(f"{perm} is not a permutation of {x.rank} dimensions")
        shape = tuple(x.shape[p] for p in perm)
        return self._emit(f"graph.transpose {x.name}, perm = {_int_list(perm)} : {x.type} -> "
                          f"{tensor_type(shape, x.dtype)}", [shape], x.dtype, loc)[0]

    def reshape(self, x, shape: Sequence[int], loc=None):
        self._own(x)
        shape = tuple(int(d) for d in shape)
        if math.prod(shape) != math.prod(x.shape):
            raise GraphError(f"cannot reshape {list(x.shape)} to {list(shape)}")
        if shape == x.shape:
            return x
        return self._emit(f"graph.reshape {x.name} : {x.type} -> {tensor_type(shape, x.dtype)}",
                          [shape], x.dtype, loc)[0]

    def broadcast(self, x, shape: Sequence[int], loc=None):
        self._own(x)
        shape = tuple(int(d) for d in shape)
        if broadcast_shapes(x.shape, shape) != shape:
            raise GraphError(f"cannot broadcast {list(x.shape)} to {list(shape)}")
        if shape == x.shape:
            return x
        return self._emit(f"graph.broadcast {x.name} : {x.type} -> {tensor_type(shape, x.dtype)}",
                          [shape], x.dtype, loc)[0]

    def repeat(self, x, repeats: Sequence[int], loc=None):
        self._own(x)
        repeats = [int(r) for r in repeats]
        if len(repeats) != x.rank or any(r < 1 for r in repeats):
            raise GraphError(f"repeats {repeats} do not fit {x.type}")
        shape = tuple(d * r for d, r in zip(x.shape, repeats))
        return self._emit(f"graph.repeat {x.name}, repeats = {_int_list(repeats)} : {x.type} -> "
                          f"{tensor_type(shape, x.dtype)}", [shape], x.dtype, loc)[0]

    def concat(self, xs: Sequence[Tensor], dim: int, loc=None):
        xs = [self._own(x) for x in xs]
        if not xs:
            raise GraphError("concat needs at least one input")
        dim = self._dim(xs[0], dim)
        for x in xs[1:]:
            self._same_dtype(xs[0], x)
            if x.rank != xs[0].rank or any(a != b for i, (a, b) in enumerate(zip(x.shape, xs[0].shape)) if i != dim):
                raise GraphError(f"concat inputs {[list(y.shape) for y in xs]} differ outside dim {dim}")
        if len(xs) == 1:
            return xs[0]
        shape = list(xs[0].shape)
        shape[dim] = sum(x.shape[dim] for x in xs)
        names = ", ".join(x.name for x in xs)
        types = ", ".join(x.type for x in xs)
        return self._emit(f"graph.concat ({names}) dim = {dim} : ({types}) -> "
                          f"{tensor_type(shape, xs[0].dtype)}", [tuple(shape)], xs[0].dtype, loc)[0]

    def split(self, x, dim: int, sizes: Sequence[int], loc=None) -> list:
        self._own(x)
        dim = self._dim(x, dim)
        sizes = [int(s) for s in sizes]
        if any(s <= 0 for s in sizes) or sum(sizes) != x.shape[dim]:
            raise GraphError(f"split sizes {sizes} do not add up to {x.shape[dim]}")
        if len(sizes) == 1:
            return [x]
        shapes = [x.shape[:dim] + (s,) + x.shape[dim + 1:] for s in sizes]
        types = ", ".join(tensor_type(s, x.dtype) for s in shapes)
        return self._emit(f"graph.split {x.name}, dim = {dim}, sizes = {_int_list(sizes)} : "
                          f"{x.type} -> {types}", shapes, x.dtype, loc)

    def conv2d(self, x, w, strides=(1, 1), padding=(0, 0), dilations=(1, 1), groups=1, loc=None):
        self._own(x), self._own(w)
        self._same_dtype(x, w)
        if x.rank != 4 or w.rank != 4:
            raise GraphError(f"conv2d takes NCHW input and OIHW weight, got {x.type} and {w.type}")
        n, c, h, wd = x.shape
        o, cg, kh, kw = w.shape
        if c != cg * groups or o % groups:
            raise GraphError(f"conv2d channels: input {c}, weight {list(w.shape)}, groups {groups}")
        oh = _window(h, kh, strides[0], padding[0], dilations[0])
        ow = _window(wd, kw, strides[1], padding[1], dilations[1])
        shape = (n, o, oh, ow)
        attrs = []
        if tuple(strides) != (1, 1):
            attrs.append(f"strides = array<i64: {strides[0]}, {strides[1]}>")
        if tuple(padding) != (0, 0):
            attrs.append(f"padding = array<i64: {padding[0]}, {padding[1]}>")
        if tuple(dilations) != (1, 1):
            attrs.append(f"dilations = array<i64: {dilations[0]}, {dilations[1]}>")
        if groups != 1:
            attrs.append(f"groups = {int(groups)} : i64")
        attr = (" {" + ", ".join(attrs) + "}") if attrs else ""
        return self._emit(f"graph.conv2d {x.name}, {w.name}{attr} : ({x.type}, {w.type}) -> "
                          f"{tensor_type(shape, x.dtype)}", [shape], x.dtype, loc)[0]

    def _pool(self, op, x, kernel, strides, padding, loc):
        self._own(x)
        if x.rank != 4:
            raise GraphError(f"{op} takes an NCHW input, got {x.type}")
        kernel, strides, padding = tuple(kernel), tuple(strides or kernel), tuple(padding)
        for p, k in zip(padding, kernel):
            if 2 * p > k:
                raise GraphError(f"{op}: padding {list(padding)} is more than half the window {list(kernel)}")
        n, c, h, w = x.shape
        shape = (n, c, _window(h, kernel[0], strides[0], padding[0]),
                 _window(w, kernel[1], strides[1], padding[1]))
        attrs = []
        if strides != (1, 1):
            attrs.append(f"strides = array<i64: {strides[0]}, {strides[1]}>")
        if padding != (0, 0):
            attrs.append(f"padding = array<i64: {padding[0]}, {padding[1]}>")
        attr = (" {" + ", ".join(attrs) + "}") if attrs else ""
        return self._emit(f"graph.{op} {x.name}, kernel = [{kernel[0]}, {kernel[1]}]{attr} : "
                          f"{x.type} -> {tensor_type(shape, x.dtype)}", [shape], x.dtype, loc)[0]

    def max_pool2d(self, x, kernel, strides=None, padding=(0, 0), loc=None):
        return self._pool("max_pool2d", x, kernel, strides, padding, loc)

    def avg_pool2d(self, x, kernel, strides=None, padding=(0, 0), loc=None):
        return self._pool("avg_pool2d", x, kernel, strides, padding, loc)

    # -- indexing (token ids, embeddings, MoE routing) ---------------------------

    def gather(self, data: Tensor, indices: Tensor, axis: int = 0, loc=None) -> Tensor:
        """ONNX Gather / torch index_select and embedding: `data` with dimension
        `axis` replaced by the dimensions of `indices` (each in [0, size))."""
        self._own(data), self._own_index(indices)
        axis = self._dim(data, axis)
        shape = data.shape[:axis] + indices.shape + data.shape[axis + 1:]
        return self._emit(f"graph.gather {data.name}, {indices.name}, axis = {axis} : "
                          f"({data.type}, {indices.type}) -> {tensor_type(shape, data.dtype)}",
                          [shape], data.dtype, loc)[0]

    def _check_elements_index(self, data: Tensor, indices: Tensor, axis: int) -> int:
        axis = self._dim(data, axis)
        if indices.rank != data.rank or any(
                i > d for k, (i, d) in enumerate(zip(indices.shape, data.shape)) if k != axis):
            raise GraphError(f"indices {indices.type} do not fit data {data.type} along axis {axis}")
        return axis

    def gather_elements(self, data: Tensor, indices: Tensor, axis: int, loc=None) -> Tensor:
        """torch.gather / ONNX GatherElements: the result has the shape of
        `indices`; each index replaces the position along `axis`."""
        self._own(data), self._own_index(indices)
        axis = self._check_elements_index(data, indices, axis)
        return self._emit(f"graph.gather_elements {data.name}, {indices.name}, axis = {axis} : "
                          f"({data.type}, {indices.type}) -> {tensor_type(indices.shape, data.dtype)}",
                          [indices.shape], data.dtype, loc)[0]

    def scatter_elements(self, data: Tensor, indices: Tensor, updates: Tensor, axis: int,
                         reduction: str = "none", loc=None) -> Tensor:
        """torch.scatter / scatter_add, ONNX ScatterElements: a copy of `data`
        with updates[i] placed (reduction "none") or added ("add") at i's
        position with its `axis` coordinate replaced by indices[i]."""
        self._own(data), self._own_index(indices), self._own(updates)
        axis = self._check_elements_index(data, indices, axis)
        self._same_dtype(data, updates)
        if updates.shape != indices.shape:
            raise GraphError(f"updates {updates.type} must have the shape of the indices {indices.type}")
        if reduction not in ("none", "add"):
            raise GraphError(f"scatter reduction {reduction!r} is not 'none' or 'add'")
        return self._emit(f"graph.scatter_elements {data.name}, {indices.name}, {updates.name}, "
                          f"axis = {axis}, reduction = {reduction} : ({data.type}, {indices.type}, "
                          f"{updates.type}) -> {data.type}", [data.shape], data.dtype, loc)[0]

    def one_hot(self, indices: Tensor, depth: int, dtype: str = "f32", loc=None) -> Tensor:
        """1.0 at each index's position of a new last dimension of size
        `depth`, 0.0 elsewhere, in float `dtype` (each index in [0, depth))."""
        self._own_index(indices)
        if dtype not in DTYPES:
            raise GraphError(f"dtype {dtype!r} is not one of {DTYPES}")
        if int(depth) < 1:
            raise GraphError(f"one_hot depth must be at least 1, not {depth}")
        shape = indices.shape + (int(depth),)
        return self._emit(f"graph.one_hot {indices.name} : {indices.type} -> "
                          f"{tensor_type(shape, dtype)}", [shape], dtype, loc)[0]

    def topk(self, x: Tensor, k: int, dim: int = -1, largest: bool = True, loc=None) -> tuple:
        """The `k` largest (smallest with largest=False) elements along `dim`,
        largest first, and their positions (i64); ties in position order."""
        self._own(x)
        dim = self._dim(x, dim)
        if not 1 <= int(k) <= x.shape[dim]:
            raise GraphError(f"topk k = {k} must lie in [1, {x.shape[dim]}]")
        shape = x.shape[:dim] + (int(k),) + x.shape[dim + 1:]
        attrs = "" if largest else " {largest = false}"
        values, indices = self._emit(
            f"graph.topk {x.name}, k = {int(k)}, dim = {dim}{attrs} : {x.type} -> "
            f"({tensor_type(shape, x.dtype)}, {tensor_type(shape, 'i64')})",
            [shape, shape], [x.dtype, "i64"], loc)
        return values, indices

    # -- helpers -------------------------------------------------------------

    @staticmethod
    def _dim(x: Tensor, dim: int) -> int:
        d = dim + x.rank if dim < 0 else dim
        if not 0 <= d < x.rank:
            raise GraphError(f"dimension {dim} is out of range for {x.type}")
        return d

    @staticmethod
    def _same_dtype(a: Tensor, b: Tensor) -> None:
        if a.dtype != b.dtype:
            raise GraphError(f"operands of different dtypes: {a.type} and {b.type}")


def _location(text: str) -> str:
    """An MLIR location: "path:line" becomes a file location (so that
    diagnostics read path:line:col), anything else a name."""
    m = re.fullmatch(r"(.+):(\d+)", text)
    if m:
        return f"{_quote(m.group(1))}:{m.group(2)}:0"
    return _quote(text)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
