"""ONNX models into the graph dialect, through the ``onnx`` package.

``from_onnx(path_or_model)`` runs ONNX shape inference, binds the
initializers as inputs of the function (``Program.run`` takes the model's
other inputs), folds the shape arithmetic that exporters emit (Shape,
Gather, Concat, ... on constants) with NumPy, and maps every remaining node
to graph ops. Every value must have a static shape and a float dtype.
Nodes that cannot be expressed raise ``MirageError`` naming the node, its
op type and why. docs/Python.md lists the supported operators.
"""

from __future__ import annotations

import math

import numpy as np

from ._mirage_opt import MirageError
from .graph import Graph, GraphError, Tensor

try:
    import onnx
    from onnx import numpy_helper, shape_inference
except ImportError as e:  # pragma: no cover
    raise ImportError("mirage_opt.from_onnx needs the onnx package (pip install onnx)") from e

_FLOAT = {onnx.TensorProto.FLOAT: "f32", onnx.TensorProto.FLOAT16: "f16",
          onnx.TensorProto.BFLOAT16: "bf16"}


def from_onnx(path_or_model, *, name: str | None = None, keep_weights_as_inputs: bool = False):
    """Imports an ONNX model (a path or an ``onnx.ModelProto``)."""
    model = onnx.load(path_or_model) if not isinstance(path_or_model, onnx.ModelProto) \
        else path_or_model
    try:
        model = shape_inference.infer_shapes(model, strict_mode=False)
    except Exception as e:  # noqa: BLE001
        raise MirageError(f"ONNX shape inference failed: {e}") from None
    return _Importer(model, name, keep_weights_as_inputs).run()


class _Unsupported(MirageError):
    pass


class _Importer:
    def __init__(self, model, name, keep_weights):
        self.model = model
        self.graph = model.graph
        fname = name or self.graph.name or "main"
        fname = "".join(c if c.isalnum() else "_" for c in fname)
        if fname[0].isdigit():
            fname = "m_" + fname
        self.g = Graph(fname)
        self.keep_weights = keep_weights
        self.env: dict = {}      # value name -> Tensor or np.ndarray (constant)
        self.bound: dict = {}
        self.scaled: dict = {}   # Tensor name -> (source Tensor, factor): x * c
        self.node = None
        opsets = {o.domain: o.version for o in model.opset_import}
        self.opset = opsets.get("", opsets.get("ai.onnx", 13))

    def run(self):
        from .program import Program
        inits = {i.name: numpy_helper.to_array(i) for i in self.graph.initializer}
        used = {name for node in self.graph.node for name in node.input}
        names = []
        # Graph inputs that are not initializers are the model's inputs.
        for vi in self.graph.input:
            if vi.name in inits:
                continue
            shape, dtype = self._value_info(vi)
            self.env[vi.name] = self.g.input(shape, dtype, name=_clean(vi.name))
            names.append(_clean(vi.name))
        # Float initializers that a computing node reads are bound inputs;
        # the others (shapes, axes, indices) are NumPy constants.
        self.consts = {}
        float_inits = []
        for k, v in inits.items():
            if k in used and v.dtype.kind == "f" and v.ndim > 0 and v.size > 1:
                float_inits.append((k, v))
            else:
                self.consts[k] = v
        for k, v in float_inits:
            t = self.g.input(v.shape, _np_dtype(v.dtype), name=_clean(k))
            self.env[k] = t
            names.append(_clean(k))
            if not self.keep_weights:
                self.bound[_clean(k)] = v.astype(np.float64)
        for k, v in self.consts.items():
            self.env[k] = v
        for node in self.graph.node:
            self.node = node
            try:
                outs = self._convert(node)
            except (GraphError, _Unsupported) as e:
                raise MirageError(f"ONNX node {node.name or '(unnamed)'} ({node.op_type}): {e}") from None
            outs = outs if isinstance(outs, (list, tuple)) else [outs]
            for name, value in zip(node.output, outs):
                if name:
                    self.env[name] = value
        for vo in self.graph.output:
            v = self.env.get(vo.name)
            if isinstance(v, np.ndarray):
                raise MirageError(f"output {vo.name!r} is a constant; the graph dialect has "
                                  f"no constants")
            if not isinstance(v, Tensor):
                raise MirageError(f"output {vo.name!r} is not computed by a supported op")
            self.g.output(v)
        return Program(self.g.mlir(), self.g.name, input_names=names, bound=self.bound,
                       source=f"<onnx {self.g.name}>")

    def _value_info(self, vi):
        t = vi.type.tensor_type
        if t.elem_type not in _FLOAT:
            raise MirageError(f"input {vi.name!r} has ONNX element type "
                              f"{onnx.TensorProto.DataType.Name(t.elem_type)}; the graph "
                              f"dialect computes in float32, float16 and bfloat16")
        dims = []
        for d in t.shape.dim:
            if not d.HasField("dim_value"):
                raise MirageError(f"input {vi.name!r} has a dynamic dimension "
                                  f"({d.dim_param or '?'}); export the model with static shapes")
            dims.append(d.dim_value)
        return tuple(dims), _FLOAT[t.elem_type]

    # -- helpers -----------------------------------------------------------------

    def _attrs(self, node) -> dict:
        return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}

    def _in(self, node, i, default=None):
        if i >= len(node.input) or not node.input[i]:
            return default
        name = node.input[i]
        if name not in self.env:
            raise _Unsupported(f"input {name!r} is not available")
        return self.env[name]

    def _const(self, node, i, default=None):
        v = self._in(node, i, default)
        if v is default:
            return default
        if not isinstance(v, np.ndarray):
            raise _Unsupported(f"input {i} ({node.input[i]!r}) must be a constant")
        return v

    def _t(self, v) -> Tensor:
        if isinstance(v, np.ndarray):
            raise _Unsupported("a constant tensor operand: the graph dialect has no "
                               "tensor constants (bind it as an input)")
        if not isinstance(v, Tensor):
            raise _Unsupported(f"operand {v!r} is not a tensor the graph computes")
        return v

    def _scalar(self, v):
        if isinstance(v, np.ndarray) and v.size == 1:
            return float(v.reshape(()))
        return None

    # -- conversion ------------------------------------------------------------------

    def _convert(self, node):
        ins = [self.env.get(n) if n else None for n in node.input]
        if node.op_type not in ("Constant",) and ins and \
                all(isinstance(v, np.ndarray) for v in ins if v is not None) and \
                any(v is not None for v in ins):
            folded = self._fold(node, ins)
            if folded is not None:
                return folded
        handler = getattr(self, "op_" + node.op_type, None)
        if handler is None:
            raise _Unsupported("unsupported operator")
        return handler(node, self._attrs(node))

    def _fold(self, node, ins):
        """NumPy semantics for shape arithmetic on constants."""
        a = self._attrs(node)
        op = node.op_type
        x = ins[0] if ins else None
        if op == "Shape":
            return np.array(x.shape, dtype=np.int64)
        if op in ("Identity", "Cast"):
            return x if op == "Identity" else x.astype(onnx.helper.tensor_dtype_to_np_dtype(a["to"]))
        if op == "Gather":
            return np.take(x, ins[1], axis=a.get("axis", 0))
        if op == "Unsqueeze":
            axes = a.get("axes") if "axes" in a else ins[1].tolist()
            for ax in sorted(int(ax) % (x.ndim + len(axes)) for ax in axes):
                x = np.expand_dims(x, ax)
            return x
        if op == "Squeeze":
            axes = a.get("axes") if "axes" in a else (ins[1].tolist() if len(ins) > 1 else None)
            return np.squeeze(x, axis=tuple(axes) if axes is not None else None)
        if op == "Concat":
            return np.concatenate([v for v in ins], axis=a["axis"])
        binary = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply,
                  "Div": (np.floor_divide if x.dtype.kind in "iu" else np.divide),
                  "Equal": np.equal, "Less": np.less, "Greater": np.greater,
                  "LessOrEqual": np.less_equal, "GreaterOrEqual": np.greater_equal,
                  "And": np.logical_and, "Or": np.logical_or, "Pow": np.power,
                  "Max": np.maximum, "Min": np.minimum}
        if op in binary and len(ins) == 2:
            return binary[op](ins[0], ins[1])
        if op == "Mod":
            return np.fmod(ins[0], ins[1]) if a.get("fmod", 0) else np.mod(ins[0], ins[1])
        unary = {"Floor": np.floor, "Ceil": np.ceil, "Abs": np.abs, "Not": np.logical_not}
        if op in unary:
            return unary[op](x)
        if op == "Where":
            return np.where(ins[0], ins[1], ins[2])
        if op == "Reshape":
            return x.reshape(_onnx_reshape(x.shape, ins[1], a.get("allowzero", 0)))
        if op == "Range":
            return np.arange(ins[0], ins[1], ins[2])
        if op == "ConstantOfShape":
            value = numpy_helper.to_array(a["value"]) if "value" in a else np.zeros(1, np.float32)
            return np.full(tuple(x.tolist()), value.reshape(-1)[0], dtype=value.dtype)
        if op == "Slice":
            return self._slice_const(x, ins, a)
        if op == "Sqrt":
            return np.sqrt(x)
        if op == "Neg":
            return -x
        return None

    def _slice_const(self, x, ins, a):
        starts, ends = ins[1], ins[2]
        axes = ins[3] if len(ins) > 3 and ins[3] is not None else np.arange(len(starts))
        steps = ins[4] if len(ins) > 4 and ins[4] is not None else np.ones(len(starts), np.int64)
        index = [slice(None)] * x.ndim
        for s, e, ax, st in zip(starts, ends, axes, steps):
            index[int(ax)] = slice(int(s), int(e), int(st))
        return x[tuple(index)]

    # -- operators ----------------------------------------------------------------------

    def op_Constant(self, node, a):
        if "value" in a:
            return numpy_helper.to_array(a["value"])
        for k in ("value_float", "value_int"):
            if k in a:
                return np.array(a[k])
        for k in ("value_floats", "value_ints"):
            if k in a:
                return np.array(a[k])
        raise _Unsupported("a Constant without a value")

    def op_Shape(self, node, a):
        # Static shapes: the shape of any value is a constant.
        x = self._in(node, 0)
        shape = np.array(x.shape, dtype=np.int64)
        start, end = a.get("start", 0), a.get("end", len(shape))
        return shape[start:end]

    def op_Gather(self, node, a):
        """Gather with constant indices that pick one index (a select) or a
        contiguous range (a slice) of a computed tensor."""
        x = self._t(self._in(node, 0))
        idx = self._const(node, 1)
        axis = a.get("axis", 0) % x.rank
        n = x.shape[axis]
        flat = [int(v) % n for v in idx.reshape(-1)]
        if not flat or flat != list(range(flat[0], flat[0] + len(flat))):
            raise _Unsupported(f"a Gather of indices {idx.tolist()} (only one index or a "
                               f"contiguous range of constant indices)")
        start, end = flat[0], flat[-1] + 1
        part = x
        if (start, end) != (0, n):
            part = self.g.split(x, axis, [v for v in (start, end - start, n - end) if v > 0])
            part = part[1 if start > 0 else 0]
        shape = x.shape[:axis] + tuple(idx.shape) + x.shape[axis + 1:]
        return self.g.reshape(part, shape)

    def op_Size(self, node, a):
        return np.array(math.prod(self._in(node, 0).shape), dtype=np.int64)

    def op_Identity(self, node, a):
        return self._in(node, 0)

    def op_Dropout(self, node, a):
        return self._in(node, 0)

    def op_Cast(self, node, a):
        x = self._t(self._in(node, 0))
        to = _FLOAT.get(a["to"])
        if to != x.dtype:
            raise _Unsupported(f"a cast from {x.dtype} to "
                               f"{onnx.TensorProto.DataType.Name(a['to'])}: the graph dialect has no cast")
        return x

    def op_MatMul(self, node, a):
        g = self.g
        x, w = self._t(self._in(node, 0)), self._t(self._in(node, 1))
        if x.rank == 1 or w.rank == 1:
            raise _Unsupported("MatMul with a vector operand")
        if w.rank == 2 and x.rank > 2:
            lead = x.shape[:-1]
            y = g.matmul(g.reshape(x, (math.prod(lead), x.shape[-1])), w)
            return g.reshape(y, lead + (w.shape[-1],))
        batch = tuple(np.broadcast_shapes(x.shape[:-2], w.shape[:-2]))
        if x.shape[:-2] != batch:
            x = g.broadcast(x, batch + x.shape[-2:])
        if w.shape[:-2] != batch:
            w = g.broadcast(w, batch + w.shape[-2:])
        return g.matmul(x, w)

    def op_Gemm(self, node, a):
        g = self.g
        x, w = self._t(self._in(node, 0)), self._t(self._in(node, 1))
        if a.get("transA", 0):
            x = g.transpose(x, [1, 0])
        if a.get("transB", 0):
            w = g.transpose(w, [1, 0])
        y = g.matmul(x, w)
        alpha, beta = a.get("alpha", 1.0), a.get("beta", 1.0)
        if alpha != 1.0:
            y = g.scalar_mul(y, alpha)
        c = self._in(node, 2)
        if c is not None and beta != 0.0:
            s = self._scalar(c)
            if s is not None:
                return g.scalar_add(y, beta * s)
            c = self._t(c)
            if beta != 1.0:
                c = g.scalar_mul(c, beta)
            y = g.add(y, c)
        return y

    def _binary(self, node, op):
        g = self.g
        x, y = self._in(node, 0), self._in(node, 1)
        sx, sy = self._scalar(x), self._scalar(y)
        if isinstance(x, Tensor) and isinstance(y, Tensor):
            if op == "mul":
                fused = self._gelu(x, y) or self._gelu(y, x)
                if fused is not None:
                    return fused
            return getattr(g, op)(x, y)
        if isinstance(x, _Marker) or isinstance(y, _Marker):
            return self._marker_binary(op, x, y)
        if isinstance(x, Tensor) and sy is not None:
            if op == "add":
                return g.scalar_add(x, sy)
            if op == "sub":
                return g.scalar_add(x, -sy)
            if op == "mul":
                r = g.scalar_mul(x, sy)
                self.scaled[r.name] = (x, sy)
                return r
            if op == "div":
                r = g.scalar_mul(x, 1.0 / sy)
                self.scaled[r.name] = (x, 1.0 / sy)
                return r
        if sx is not None and isinstance(y, Tensor):
            if op == "add":
                return g.scalar_add(y, sx)
            if op == "mul":
                r = g.scalar_mul(y, sx)
                self.scaled[r.name] = (y, sx)
                return r
            if op == "sub":
                return g.scalar_add(g.scalar_mul(y, -1.0), sx)
            if op == "div":
                return g.scalar_mul(g.pow(y, -1.0), sx)
        return getattr(g, op)(self._t(x), self._t(y))

    def op_Add(self, node, a): return self._binary(node, "add")
    def op_Sub(self, node, a): return self._binary(node, "sub")
    def op_Mul(self, node, a): return self._binary(node, "mul")
    def op_Div(self, node, a): return self._binary(node, "div")

    # GELU as exporters write it: 0.5 x (1 + erf(x / sqrt 2)), in either
    # association. Erf has no graph op of its own, so its intermediate
    # values are markers that only this pattern may consume.
    def op_Erf(self, node, a):
        z = self._t(self._in(node, 0))
        src = self.scaled.get(z.name)
        if src is None or abs(src[1] - 1 / math.sqrt(2)) > 1e-6:
            raise _Unsupported("Erf outside the GELU pattern 0.5 x (1 + erf(x / sqrt 2))")
        return _Marker("erf", src[0])

    def _marker_binary(self, op, x, y):
        m, other = (x, y) if isinstance(x, _Marker) else (y, x)
        s = self._scalar(other)
        if m.kind == "erf" and op == "add" and s == 1.0:
            return _Marker("one_plus_erf", m.x)
        if m.kind == "one_plus_erf" and op == "mul" and isinstance(other, Tensor):
            if other.name == m.x.name:
                return _Marker("twice_gelu", m.x)
            src = self.scaled.get(other.name)
            if src and src[0].name == m.x.name and abs(src[1] - 0.5) < 1e-12:
                return self.g.gelu(m.x)
        if m.kind == "twice_gelu" and op == "mul" and s == 0.5:
            return self.g.gelu(m.x)
        raise _Unsupported("Erf outside the GELU pattern 0.5 x (1 + erf(x / sqrt 2))")

    def _gelu(self, x, y):
        return None

    def op_Neg(self, node, a): return self.g.scalar_mul(self._t(self._in(node, 0)), -1.0)
    def op_Relu(self, node, a): return self.g.relu(self._t(self._in(node, 0)))
    def op_Sigmoid(self, node, a): return self.g.sigmoid(self._t(self._in(node, 0)))
    def op_Tanh(self, node, a): return self.g.tanh(self._t(self._in(node, 0)))
    def op_Exp(self, node, a): return self.g.exp(self._t(self._in(node, 0)))
    def op_Sqrt(self, node, a): return self.g.sqrt(self._t(self._in(node, 0)))
    def op_Reciprocal(self, node, a): return self.g.pow(self._t(self._in(node, 0)), -1.0)

    def op_Gelu(self, node, a):
        if a.get("approximate", b"none") not in ("none", b"none"):
            raise _Unsupported("Gelu with approximate='tanh'")
        return self.g.gelu(self._t(self._in(node, 0)))

    def op_Pow(self, node, a):
        x, e = self._t(self._in(node, 0)), self._scalar(self._in(node, 1))
        if e is None:
            raise _Unsupported("a non-constant exponent")
        return self.g.square(x) if e == 2.0 else self.g.pow(x, e)

    def op_Clip(self, node, a):
        x = self._t(self._in(node, 0))
        lo = a.get("min", self._scalar(self._in(node, 1)) if len(node.input) > 1 and node.input[1] else None)
        hi = a.get("max", self._scalar(self._in(node, 2)) if len(node.input) > 2 and node.input[2] else None)
        lo = -math.inf if lo is None else float(lo)
        hi = math.inf if hi is None else float(hi)
        return self.g.relu(x) if (lo, hi) == (0.0, math.inf) else self.g.clamp(x, lo, hi)

    def op_Softmax(self, node, a):
        x = self._t(self._in(node, 0))
        axis = a.get("axis", -1 if self.opset >= 13 else 1)
        if self.opset < 13 and (axis % x.rank) != x.rank - 1:
            raise _Unsupported("Softmax before opset 13 flattens the trailing dims; only the last axis")
        return self.g.softmax(x, axis)

    def _axes(self, node, a, x):
        if "axes" in a:
            axes = list(a["axes"])
        else:
            c = self._const(node, 1, None)
            axes = c.tolist() if c is not None else []
        if not axes:
            if a.get("noop_with_empty_axes", 0):
                return []
            axes = list(range(x.rank))
        return sorted({int(ax) % x.rank for ax in axes})

    def _reduce(self, node, a, kind):
        g = self.g
        x = self._t(self._in(node, 0))
        axes = self._axes(node, a, x)
        r = x
        for ax in axes:
            r = (g.reduce_max if kind == "max" else g.reduce_sum)(r, ax)
        if kind == "mean":
            r = g.scalar_mul(r, 1.0 / math.prod(x.shape[ax] for ax in axes))
        if not a.get("keepdims", 1):
            r = g.reshape(r, [s for i, s in enumerate(x.shape) if i not in axes])
        return r

    def op_ReduceSum(self, node, a): return self._reduce(node, a, "sum")
    def op_ReduceMean(self, node, a): return self._reduce(node, a, "mean")
    def op_ReduceMax(self, node, a): return self._reduce(node, a, "max")

    def op_Transpose(self, node, a):
        x = self._t(self._in(node, 0))
        perm = list(a.get("perm", reversed(range(x.rank))))
        return x if perm == list(range(x.rank)) else self.g.transpose(x, perm)

    def op_Reshape(self, node, a):
        x = self._t(self._in(node, 0))
        shape = self._const(node, 1)
        return self.g.reshape(x, _onnx_reshape(x.shape, shape, a.get("allowzero", 0)))

    def op_Flatten(self, node, a):
        x = self._t(self._in(node, 0))
        axis = a.get("axis", 1) % (x.rank + 1) if x.rank else 0
        return self.g.reshape(x, (math.prod(x.shape[:axis]), math.prod(x.shape[axis:])))

    def op_Unsqueeze(self, node, a):
        x = self._t(self._in(node, 0))
        axes = list(a["axes"]) if "axes" in a else self._const(node, 1).tolist()
        shape = list(x.shape)
        for ax in sorted(int(ax) % (x.rank + len(axes)) for ax in axes):
            shape.insert(ax, 1)
        return self.g.reshape(x, shape)

    def op_Squeeze(self, node, a):
        x = self._t(self._in(node, 0))
        axes = a.get("axes") if "axes" in a else (self._const(node, 1).tolist()
                                                   if len(node.input) > 1 and node.input[1] else None)
        axes = {int(ax) % x.rank for ax in axes} if axes is not None else \
            {i for i, s in enumerate(x.shape) if s == 1}
        return self.g.reshape(x, [s for i, s in enumerate(x.shape) if i not in axes])

    def op_Expand(self, node, a):
        x = self._t(self._in(node, 0))
        shape = tuple(np.broadcast_shapes(x.shape, tuple(self._const(node, 1).tolist())))
        return self.g.broadcast(x, shape)

    def op_Concat(self, node, a):
        xs = [self._t(self._in(node, i)) for i in range(len(node.input))]
        return self.g.concat(xs, a["axis"])

    def op_Split(self, node, a):
        x = self._t(self._in(node, 0))
        axis = a.get("axis", 0) % x.rank
        split = a.get("split")
        if split is None and len(node.input) > 1 and node.input[1]:
            split = self._const(node, 1).tolist()
        if split is None:
            n = len(node.output)
            size = -(-x.shape[axis] // n)
            split = [size] * (n - 1) + [x.shape[axis] - size * (n - 1)]
        return self.g.split(x, axis, split)

    def op_Slice(self, node, a):
        x = self._t(self._in(node, 0))
        starts, ends = self._const(node, 1), self._const(node, 2)
        axes = self._const(node, 3, None)
        steps = self._const(node, 4, None)
        axes = axes.tolist() if axes is not None else list(range(len(starts)))
        steps = steps.tolist() if steps is not None else [1] * len(starts)
        for s, e, ax, st in zip(starts.tolist(), ends.tolist(), axes, steps):
            ax = int(ax) % x.rank
            n = x.shape[ax]
            if st != 1:
                raise _Unsupported(f"a Slice with step {st}")
            s = max(0, min(s + n if s < 0 else s, n))
            e = max(0, min(e + n if e < 0 else e, n))
            if e <= s:
                raise _Unsupported("an empty Slice")
            if (s, e) == (0, n):
                continue
            parts = self.g.split(x, ax, [v for v in (s, e - s, n - e) if v > 0])
            x = parts[1 if s > 0 else 0]
        return x

    def op_Conv(self, node, a):
        g = self.g
        x, w = self._t(self._in(node, 0)), self._t(self._in(node, 1))
        if x.rank != 4:
            raise _Unsupported(f"a {x.rank - 2}-d convolution (only 2-d)")
        pads = list(a.get("pads", [0, 0, 0, 0]))
        if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
            raise _Unsupported("auto_pad; export with explicit pads")
        if pads[0] != pads[2] or pads[1] != pads[3]:
            raise _Unsupported(f"asymmetric pads {pads} have no graph.conv2d form")
        y = g.conv2d(x, w, tuple(a.get("strides", (1, 1))), (pads[0], pads[1]),
                     tuple(a.get("dilations", (1, 1))), a.get("group", 1))
        b = self._in(node, 2)
        if b is not None:
            b = self._t(b)
            y = g.add(y, g.reshape(b, (b.shape[0], 1, 1)))
        return y

    def _pool(self, node, a, kind):
        x = self._t(self._in(node, 0))
        kernel = tuple(a["kernel_shape"])
        strides = tuple(a.get("strides", (1, 1)))
        pads = list(a.get("pads", [0, 0, 0, 0]))
        if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
            raise _Unsupported("auto_pad; export with explicit pads")
        if pads[0] != pads[2] or pads[1] != pads[3]:
            raise _Unsupported(f"asymmetric pads {pads}")
        if a.get("ceil_mode", 0):
            for size, k, s, p in zip(x.shape[2:], kernel, strides, pads[:2]):
                if (size + 2 * p - k) % s:
                    raise _Unsupported("ceil_mode that adds a partial window")
        if kind == "max":
            if tuple(a.get("dilations", (1, 1))) != (1, 1):
                raise _Unsupported("dilated MaxPool")
            return self.g.max_pool2d(x, kernel, strides, tuple(pads[:2]))
        if pads[:2] != [0, 0] and not a.get("count_include_pad", 0):
            raise _Unsupported("AveragePool with padding and count_include_pad=0 "
                               "(graph.avg_pool2d counts padded zeros)")
        return self.g.avg_pool2d(x, kernel, strides, tuple(pads[:2]))

    def op_MaxPool(self, node, a):
        if len(node.output) > 1 and node.output[1]:
            raise _Unsupported("MaxPool's indices output")
        return self._pool(node, a, "max")

    def op_AveragePool(self, node, a): return self._pool(node, a, "avg")

    def op_GlobalAveragePool(self, node, a):
        x = self._t(self._in(node, 0))
        return self.g.avg_pool2d(x, x.shape[2:], x.shape[2:])

    def op_GlobalMaxPool(self, node, a):
        x = self._t(self._in(node, 0))
        return self.g.max_pool2d(x, x.shape[2:], x.shape[2:])

    def op_BatchNormalization(self, node, a):
        g = self.g
        if a.get("training_mode", 0):
            raise _Unsupported("BatchNormalization in training mode")
        x, scale, bias, mean, var = (self._t(self._in(node, i)) for i in range(5))
        channel = (x.shape[1],) + (1,) * (x.rank - 2)
        inv = g.pow(g.scalar_add(var, float(a.get("epsilon", 1e-5))), -0.5)
        y = g.mul(g.sub(x, g.reshape(mean, channel)), g.reshape(g.mul(inv, scale), channel))
        return g.add(y, g.reshape(bias, channel))

    def op_LayerNormalization(self, node, a):
        g = self.g
        x = self._t(self._in(node, 0))
        axis = a.get("axis", -1) % x.rank
        dims = list(range(axis, x.rank))
        count = math.prod(x.shape[d] for d in dims)
        mean = x
        for d in dims:
            mean = g.reduce_sum(mean, d)
        mean = g.scalar_mul(mean, 1.0 / count)
        xc = g.sub(x, mean)
        var = g.square(xc)
        for d in dims:
            var = g.reduce_sum(var, d)
        var = g.scalar_mul(var, 1.0 / count)
        y = g.mul(xc, g.pow(g.scalar_add(var, float(a.get("epsilon", 1e-5))), -0.5))
        scale, bias = self._in(node, 1), self._in(node, 2)
        if scale is not None:
            y = g.mul(y, self._t(scale))
        if bias is not None:
            y = g.add(y, self._t(bias))
        return [y] + [None] * (len(node.output) - 1)


class _Marker:
    """An intermediate value of the GELU pattern (no graph op of its own)."""

    def __init__(self, kind, x):
        self.kind, self.x = kind, x

    def __repr__(self):
        return f"<{self.kind}({self.x.name})>"


def _onnx_reshape(shape, target, allowzero):
    target = [int(v) for v in np.asarray(target).reshape(-1)]
    out = []
    for i, v in enumerate(target):
        out.append(shape[i] if v == 0 and not allowzero else v)
    if -1 in out:
        known = math.prod(v for v in out if v != -1)
        out[out.index(-1)] = math.prod(shape) // known
    return out


def _np_dtype(dtype) -> str:
    return {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16"}.get(np.dtype(dtype), "f32")


def _clean(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._" else "_" for c in name)
