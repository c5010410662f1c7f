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

import functools
import math

import numpy as np

from ._mirage_opt import MirageError
from . import _windows
from .graph import Graph, GraphError, Tensor

try:
    import onnx
    from onnx import numpy_helper, shape_inference
except ImportError as e:  # pragma: no cover
    raise ImportError("mirage_opt.from_onnx needs the onnx package (pip install onnx)") from e

_FLOAT = {onnx.TensorProto.FLOAT: "f32", onnx.TensorProto.FLOAT16: "f16",
          onnx.TensorProto.BFLOAT16: "bf16"}
# Integer graph inputs are index tensors (token ids, positions).
_INDEX = {onnx.TensorProto.INT64: "i64", onnx.TensorProto.INT32: "i32"}


def from_onnx(path_or_model, *, name: str | None = None, keep_weights_as_inputs: bool = False):
    """Imports an ONNX model (a path or an ``onnx.ModelProto``)."""
    model = onnx.load(path_or_model) if not isinstance(path_or_model, onnx.ModelProto) \
        else path_or_model
    try:
        model = shape_inference.infer_shapes(model, strict_mode=False)
    except Exception as e:  # noqa: BLE001
        raise MirageError(f"ONNX shape inference failed: {e}") from None
    try:
        return _Importer(model, name, keep_weights_as_inputs).run()
    except GraphError as e:
        raise MirageError(f"ONNX model: {_shorten(str(e))}") from None


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
        self.bound_consts: dict = {}   # id(array) -> (bound input, array)
        self.input_names: list = []
        opsets = {o.domain: o.version for o in model.opset_import}
        self.opset = opsets.get("", opsets.get("ai.onnx", 13))

    def run(self):
        from .program import Program
        inits = {i.name: _initializer(i) for i in self.graph.initializer}
        init_types = {i.name: _FLOAT.get(i.data_type) for i in self.graph.initializer}
        used = {name for node in self.graph.node for name in node.input}
        self.used = used
        self.outputs = {vo.name for vo in self.graph.output}
        names = self.input_names
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
            if 0 in v.shape:
                raise MirageError(f"initializer {k!r} has zero-size shape {list(v.shape)}; "
                                  f"the graph dialect has no empty tensors")
            t = self.g.input(v.shape, init_types.get(k) or _np_dtype(v.dtype), name=_clean(k))
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
            except (GraphError, MirageError) as e:
                raise MirageError(f"ONNX node {node.name or '(unnamed)'} ({node.op_type}): "
                                  f"{_shorten(str(e))}") from None
            except Exception as e:  # noqa: BLE001 - no Python error reaches the user raw
                raise MirageError(f"ONNX node {node.name or '(unnamed)'} ({node.op_type}): "
                                  f"cannot import it ({type(e).__name__}: "
                                  f"{_shorten(str(e))})") from None
            outs = outs if isinstance(outs, (list, tuple)) else [outs]
            for name, value in zip(node.output, outs):
                if isinstance(value, np.generic):
                    value = np.asarray(value)  # NumPy folds 0-d arrays to scalars
                if name:
                    self._check_size(node, name, value)
                    self.env[name] = value
        for vo in self.graph.output:
            v = self.env.get(vo.name)
            if isinstance(v, _Marker):
                v = self._unmark(v)
            if isinstance(v, np.ndarray):
                raise MirageError(f"output {vo.name!r} is a constant; the graph dialect has "
                                  f"no constants")
            if isinstance(v, _Empty):
                raise MirageError(f"output {vo.name!r} has zero-size shape {list(v.shape)}; "
                                  f"the graph dialect has no empty tensors")
            if not isinstance(v, Tensor):
                raise MirageError(f"output {vo.name!r} is not computed by a supported op")
            self.g.output(v)
        return Program(self.g.mlir(), self.g.name, input_names=names, bound=self.bound,
                       source=f"<onnx {self.g.name}>")

    def _check_size(self, node, name, value):
        """The graph dialect has no empty tensors: a zero-size value is refused
        here, at the node that makes it, rather than deep in a shape rule."""
        shape = value.shape if isinstance(value, (Tensor, np.ndarray)) else None
        if shape is not None and 0 in tuple(shape) and isinstance(value, Tensor):
            raise MirageError(f"ONNX node {node.name or '(unnamed)'} ({node.op_type}): output "
                              f"{name!r} has zero-size shape {list(shape)}; the graph dialect "
                              f"has no empty tensors")

    def _value_info(self, vi):
        kind = vi.type.WhichOneof("value")
        if kind != "tensor_type":
            what = {"sequence_type": "a sequence", "optional_type": "an optional",
                    "map_type": "a map", "sparse_tensor_type": "a sparse tensor"}.get(kind, "untyped")
            raise MirageError(f"input {vi.name!r} is {what}, not a tensor; the graph dialect "
                              f"has dense tensors only")
        t = vi.type.tensor_type
        if t.elem_type not in _FLOAT and t.elem_type not in _INDEX:
            raise MirageError(f"input {vi.name!r} has ONNX element type "
                              f"{onnx.TensorProto.DataType.Name(t.elem_type)}; the graph "
                              f"dialect computes in float32, float16 and bfloat16 (and "
                              f"reads int64/int32 inputs as indices)")
        dims = []
        for d in t.shape.dim:
            if not d.HasField("dim_value"):
                raise MirageError(f"input {vi.name!r} has a dynamic dimension "
                                  f"({d.dim_param or '?'}); export the model with static shapes")
            dims.append(d.dim_value)
        if 0 in dims:
            raise MirageError(f"input {vi.name!r} has zero-size shape {dims}; the graph "
                              f"dialect has no empty tensors")
        return tuple(dims), {**_FLOAT, **_INDEX}[t.elem_type]

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
        if isinstance(v, _Marker):
            return self._unmark(v)
        if isinstance(v, _Empty):
            raise _Unsupported(f"an operand of zero-size shape {list(v.shape)}; the graph "
                               f"dialect has no empty tensors")
        if isinstance(v, np.ndarray):
            return self._bind_constant(v)
        if not isinstance(v, Tensor):
            raise _Unsupported(f"operand {v!r} is not a tensor the graph computes")
        return v

    def _bind_constant(self, v: np.ndarray, dtype: str | None = None) -> Tensor:
        """A float constant that a graph op reads as a tensor (a causal mask
        built by Trilu/Where at import, a folded weight) is an input of the
        function bound to its values, as initializers are: the graph dialect
        has no tensor constants."""
        if v.dtype.kind != "f":
            raise _Unsupported(f"a constant {v.dtype} tensor operand of shape {list(v.shape)}: "
                               f"graph tensors are float")
        if v.size == 0:
            raise _Unsupported(f"an operand of zero-size shape {list(v.shape)}; the graph "
                               f"dialect has no empty tensors")
        key = id(v)
        if key not in self.bound_consts:
            name = _clean(self.node.name or self.node.op_type) + f"_const{len(self.bound_consts)}"
            t = self.g.input(v.shape, dtype or _np_dtype(v.dtype), name=name, late=True)
            self.bound[name] = v.astype(np.float64)
            self.input_names.append(name)
            self.bound_consts[key] = (t, v)  # v kept alive: its id stays unique
        return self.bound_consts[key][0]

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
            try:
                folded = self._fold(node, ins)
            except (ValueError, IndexError, TypeError) as e:
                # The constants do not fit the op (a Reshape to a size they
                # do not have, a Gather index past the end): say so here,
                # with their shapes, rather than as NumPy's exception.
                shapes = ", ".join(str(list(v.shape)) for v in ins if v is not None)
                raise _Unsupported(f"cannot fold its constant operands ({shapes}): "
                                   f"{_shorten(str(e))}") from None
            if folded is not None:
                return folded
        handler = getattr(self, "op_" + node.op_type, None)
        if handler is None and node.op_type in _FOLDED_OPS:
            raise _Unsupported(f"{node.op_type} of a computed tensor: the graph dialect has no "
                               f"such op (only constant operands are folded at import)")
        if handler is None:
            raise _Unsupported("unsupported operator")
        return handler(node, self._attrs(node))

    def _fold(self, node, ins):
        """NumPy semantics for shape arithmetic on constants."""
        a = self._attrs(node)
        op = node.op_type
        if op not in _FOLDED_OPS:
            return None
        x = ins[0] if ins else None
        if op == "Shape":
            return np.array(x.shape, dtype=np.int64)
        if op == "Identity":
            return x
        if op == "Cast":
            if a["to"] == onnx.TensorProto.BFLOAT16:
                # NumPy has no bfloat16: float32 values rounded to it.
                return _round_to(x, "bf16")
            return x.astype(onnx.helper.tensor_dtype_to_np_dtype(a["to"]))
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
                  "Div": (_int_divide if x.dtype.kind in "iu" else np.divide),
                  "Equal": np.equal, "Less": np.less, "Greater": np.greater,
                  "LessOrEqual": np.less_equal, "GreaterOrEqual": np.greater_equal,
                  "And": np.logical_and, "Or": np.logical_or, "Xor": np.logical_xor,
                  "Pow": np.power,
                  "Max": np.maximum, "Min": np.minimum}
        if op in ("Max", "Min", "Sum") and ins:
            return functools.reduce(np.add if op == "Sum" else binary[op], ins)
        if op == "Relu":
            return np.maximum(x, np.zeros((), x.dtype))
        if op in binary and len(ins) == 2:
            return binary[op](ins[0], ins[1])
        if op == "Mod":
            return np.fmod(ins[0], ins[1]) if a.get("fmod", 0) else np.mod(ins[0], ins[1])
        unary = {"Floor": np.floor, "Ceil": np.ceil, "Abs": np.abs, "Not": np.logical_not,
                 "Log": np.log, "Exp": np.exp}
        if op in unary:
            return unary[op](x)
        if op == "Where":
            return np.where(ins[0], ins[1], ins[2])
        if op == "Reshape":
            return x.reshape(_onnx_reshape(x.shape, ins[1], a.get("allowzero", 0)))
        if op == "Range":
            start, limit, delta = (v.reshape(()) for v in ins[:3])
            count = max(int(math.ceil((limit - start) / delta)), 0)
            return (start + np.arange(count) * delta).astype(start.dtype)
        if op == "Trilu":
            k = int(ins[1].reshape(())) if len(ins) > 1 and ins[1] is not None else 0
            return (np.triu if a.get("upper", 1) else np.tril)(x, k)
        if op == "Expand":
            return np.array(np.broadcast_to(x, np.broadcast_shapes(x.shape, tuple(ins[1].tolist()))))
        if op == "CastLike":
            return x.astype(ins[1].dtype)
        if op == "Transpose":
            return np.transpose(x, a.get("perm"))
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
        if self.opset < 10 or "starts" in a:
            starts, ends = a["starts"], a["ends"]
            axes = a.get("axes", range(len(starts)))
            steps = [1] * len(starts)
        else:
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
        """Gather. With constant indices from a computed tensor, a few
        strided runs of the indices become slices (_windows.take); more
        indices (a relative-position bucket table), or indices the graph
        computes or takes as input (token ids, topk's), a graph.gather."""
        x = self._t(self._in(node, 0))
        axis = a.get("axis", 0)
        if not -x.rank <= axis < x.rank:
            raise _Unsupported(f"axis {axis} is out of range for rank {x.rank}")
        axis %= x.rank
        n = x.shape[axis]
        idx = self._in(node, 1)
        if isinstance(idx, Tensor):
            # Positions are checked where they are read (the interpreter
            # reports a negative or out-of-range one; ONNX's negative
            # positions have no graph form when not constant).
            return self.g.gather(x, self._index(idx), axis)
        idx = self._const(node, 1)
        if idx.dtype.kind not in "iu":
            raise _Unsupported(f"indices of dtype {idx.dtype}")
        flat = idx.reshape(-1)
        if flat.size and not ((flat >= -n) & (flat < n)).all():
            raise _Unsupported(f"an index out of range [{-n}, {n - 1}]")
        positions = [int(v) % n for v in flat]
        if len(positions) > 16 and idx.ndim > 0:
            return self.g.gather(x, self._bind_index(np.asarray(positions).reshape(idx.shape)),
                                 axis)
        part = _windows.take(self.g, x, axis, positions)
        shape = x.shape[:axis] + tuple(idx.shape) + x.shape[axis + 1:]
        return part if part.shape == shape else self.g.reshape(part, shape)

    # -- indexing (issue 24): gathers, scatters, one_hot, topk ---------------------

    def _index(self, v) -> Tensor:
        """An index operand: a graph index tensor, or a constant one bound as
        an index input with its negative positions kept for the caller."""
        if isinstance(v, Tensor):
            if v.dtype not in ("i64", "i32"):
                raise _Unsupported(f"indices {v.type} are not an integer tensor")
            return v
        raise _Unsupported(f"indices {v!r} are not a tensor")

    def _bind_index(self, v: np.ndarray) -> Tensor:
        name = _clean(self.node.name or self.node.op_type) + f"_index{len(self.bound_consts)}"
        t = self.g.input(v.shape, "i64", name=name, late=True)
        self.bound[name] = v.astype(np.float64)
        self.input_names.append(name)
        self.bound_consts[id(v)] = (t, v)
        return t

    def _positions(self, node, i, extent: int) -> Tensor:
        """Index operand i: constant indices with ONNX's negative positions
        counted from the end, bound as an index input; graph ones as they are."""
        v = self._in(node, i)
        if isinstance(v, np.ndarray):
            if v.dtype.kind not in "iu":
                raise _Unsupported(f"indices of dtype {v.dtype}")
            if v.size and not ((v >= -extent) & (v < extent)).all():
                raise _Unsupported(f"an index out of range [{-extent}, {extent - 1}]")
            return self._bind_index(np.where(v < 0, v + extent, v))
        return self._index(v)

    def op_GatherElements(self, node, a):
        x = self._t(self._in(node, 0))
        axis = self._axis(a.get("axis", 0), x.rank)
        return self.g.gather_elements(x, self._positions(node, 1, x.shape[axis]), axis)

    def op_ScatterElements(self, node, a):
        x = self._t(self._in(node, 0))
        axis = self._axis(a.get("axis", 0), x.rank)
        reduction = a.get("reduction", b"none")
        reduction = reduction.decode() if isinstance(reduction, bytes) else reduction
        if reduction not in ("none", "add"):
            raise _Unsupported(f"ScatterElements with reduction {reduction!r}")
        idx = self._positions(node, 1, x.shape[axis])
        return self.g.scatter_elements(x, idx, self._t(self._in(node, 2)), axis, reduction)

    def op_TopK(self, node, a):
        x = self._t(self._in(node, 0))
        k = self._const(node, 1)
        if k.size != 1:
            raise _Unsupported(f"TopK with k of shape {list(k.shape)}")
        # sorted = 0 allows any order; the sorted one is one of them.
        axis = self._axis(a.get("axis", -1), x.rank)
        return list(self.g.topk(x, int(k.reshape(())), axis, largest=bool(a.get("largest", 1))))

    def op_OneHot(self, node, a):
        idx = self._in(node, 0)
        depth = self._const(node, 1)
        values = self._const(node, 2)
        if depth.size != 1 or values.size != 2:
            raise _Unsupported("OneHot with a depth or values of the wrong size")
        depth = int(depth.reshape(()))
        rank = idx.ndim if isinstance(idx, np.ndarray) else idx.rank
        if self._axis(a.get("axis", -1), rank + 1) != rank:
            raise _Unsupported("OneHot along an axis other than the last")
        if isinstance(idx, np.ndarray):
            # ONNX: negative indices count from the end; out of range gives a
            # row of off values (PyTorch refuses it): folded to positions,
            # refused when out of range.
            if idx.size and not ((idx >= -depth) & (idx < depth)).all():
                raise _Unsupported(f"a OneHot index outside [{-depth}, {depth - 1}] (its row of "
                                   f"off values has no graph form)")
            idx = self._bind_index(np.where(idx < 0, idx + depth, idx))
        if values.dtype.kind == "f":
            dtype = _np_dtype(values.dtype)
        else:
            # Integer values (PyTorch's export of one_hot): the graph has no
            # integer arithmetic, so every reader must cast the result to a
            # float type; the one-hot tensor is made in that type directly.
            readers = [n for n in self.graph.node if node.output[0] in n.input]
            targets = {_FLOAT.get(self._attrs(n).get("to")) if n.op_type == "Cast" else None
                       for n in readers}
            if len(targets) != 1 or None in targets or node.output[0] in self.outputs:
                raise _Unsupported(f"OneHot with values of dtype {values.dtype} read as "
                                   f"integers (the graph dialect has no integer arithmetic)")
            dtype = targets.pop()
        h = self.g.one_hot(self._index(idx), depth, dtype)
        off, on = float(values.reshape(-1)[0]), float(values.reshape(-1)[1])
        if (off, on) != (0.0, 1.0):
            h = self.g.scalar_add(self.g.scalar_mul(h, on - off), off)
        return h

    @staticmethod
    def _axis(axis: int, rank: int) -> int:
        if not -rank <= axis < rank:
            raise _Unsupported(f"axis {axis} is out of range for rank {rank}")
        return axis % rank

    def op_Size(self, node, a):
        return np.array(math.prod(self._in(node, 0).shape), dtype=np.int64)

    def op_Identity(self, node, a):
        return self._in(node, 0)

    def op_Dropout(self, node, a):
        # Inference: the identity, unless the model asks for training mode,
        # whose random mask has no place in an inference graph.
        if len(node.input) > 2 and node.input[2]:
            mode = self._in(node, 2)
            if not isinstance(mode, np.ndarray):
                raise _Unsupported("a training_mode computed by the graph (only a constant "
                                   "false: a random mask has no place in an inference graph)")
            if bool(np.asarray(mode).reshape(-1)[0]):
                raise _Unsupported("training_mode = true: dropout draws a random mask, which "
                                   "has no place in an inference graph")
        if a.get("is_test", 1) == 0 and self.opset < 7:
            raise _Unsupported("is_test = 0: dropout in training mode")
        if len(node.output) > 1 and node.output[1]:
            raise _Unsupported("Dropout's mask output (a boolean tensor)")
        return self._in(node, 0)

    def op_Cast(self, node, a):
        x = self._t(self._in(node, 0))
        if a["to"] == onnx.TensorProto.BOOL:
            # x != 0, as a 0/1 mask in x's dtype.
            return self.g.ne(x, self._bind_constant(np.zeros((1,) if x.rank else ()), x.dtype))
        to = _FLOAT.get(a["to"])
        if to is None:
            raise _Unsupported(f"a cast from {x.dtype} to "
                               f"{onnx.TensorProto.DataType.Name(a['to'])}: the graph dialect "
                               f"computes in FLOAT, FLOAT16 and BFLOAT16 only")
        return self.g.cast(x, to)

    def op_CastLike(self, node, a):
        """A cast to the dtype of the second operand: a constant is rounded
        to it here (exporters cast their scalars so), a computed tensor is
        a Cast."""
        x, like = self._in(node, 0), self._in(node, 1)
        to = like.dtype if isinstance(like, Tensor) else _np_dtype(np.asarray(like).dtype)
        if isinstance(x, np.ndarray):
            if x.dtype.kind != "f" and not isinstance(like, np.ndarray):
                x = x.astype(np.float64)
            return _round_to(x, to)
        onnx_type = {v: k for k, v in _FLOAT.items()}[to]
        return self.op_Cast(node, {"to": onnx_type})

    def op_MatMul(self, node, a):
        g = self.g
        x, w = self._t(self._in(node, 0)), self._t(self._in(node, 1))
        if x.rank == 1 or w.rank == 1:
            # numpy.matmul's rule: a vector operand is a matrix with a unit
            # dimension (prepended for the left, appended for the right),
            # which the result then drops.
            xm = g.reshape(x, (1,) + x.shape) if x.rank == 1 else x
            wm = g.reshape(w, w.shape + (1,)) if w.rank == 1 else w
            y = self._matmul(xm, wm)
            shape = y.shape[:-2] + ((y.shape[-2],) if x.rank > 1 else ()) + \
                ((y.shape[-1],) if w.rank > 1 else ())
            return g.reshape(y, shape)
        return self._matmul(x, w)

    def _matmul(self, x, w):
        g = self.g
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
        return self._combine(op, self._in(node, 0), self._in(node, 1))

    def _combine(self, op, x, y):
        g = self.g
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

    # -- comparisons, masks and select (selectop) ---------------------------------
    # A boolean value the graph computes is a 0/1 mask in its operands' float
    # dtype (graph tensors are float); And, Or, Not and Xor read it so. A
    # boolean constant (a causal mask folded at import) becomes a 0/1 bound
    # input where a graph op reads it.

    def _mask_operand(self, v, dtype: str, rank: int = 1) -> Tensor:
        """A computed mask, or a constant bound as a float input (booleans as
        0/1; one element as shape [1], which broadcasts like a scalar and has
        a tile on the GPU path, unless every operand has rank 0)."""
        if isinstance(v, np.ndarray) and v.dtype.kind in "biu":
            v = v.astype(np.float64)
        if isinstance(v, np.ndarray):
            if v.ndim == 0 and rank > 0:
                v = v.reshape(1)
            return self._bind_constant(v, dtype)
        return self._t(v)

    @staticmethod
    def _rank(*values) -> int:
        return max((len(v.shape) for v in values if isinstance(v, (Tensor, np.ndarray))),
                   default=0)

    def _compare(self, node, kind):
        x, y = self._in(node, 0), self._in(node, 1)
        dtype = next((v.dtype for v in (x, y) if isinstance(v, Tensor)), None)
        if dtype is None:
            raise _Unsupported("a comparison of non-tensor operands")
        rank = self._rank(x, y)
        return getattr(self.g, kind)(self._mask_operand(x, dtype, rank),
                                     self._mask_operand(y, dtype, rank))

    def op_Equal(self, node, a): return self._compare(node, "eq")
    def op_Less(self, node, a): return self._compare(node, "lt")
    def op_LessOrEqual(self, node, a): return self._compare(node, "le")
    def op_Greater(self, node, a): return self._compare(node, "gt")
    def op_GreaterOrEqual(self, node, a): return self._compare(node, "ge")

    def op_Where(self, node, a):
        ins = [self._in(node, i) for i in range(3)]
        dtype = next((v.dtype for v in ins[1:] + ins[:1] if isinstance(v, Tensor)), None)
        if dtype is None:
            raise _Unsupported("a Where of non-tensor operands")
        rank = self._rank(*ins)
        cond, x, y = (self._mask_operand(v, dtype, rank) for v in ins)
        return self.g.select(cond, x, y)

    def op_Not(self, node, a):
        m = self._t(self._in(node, 0))
        return self.g.scalar_add(self.g.scalar_mul(m, -1.0), 1.0)

    def _logic(self, node, kind):
        x, y = self._in(node, 0), self._in(node, 1)
        dtype = next((v.dtype for v in (x, y) if isinstance(v, Tensor)), "f32")
        rank = self._rank(x, y)
        x, y = self._mask_operand(x, dtype, rank), self._mask_operand(y, dtype, rank)
        g = self.g
        if kind == "and":
            return g.mul(x, y)
        if kind == "xor":
            return g.ne(x, y)
        return g.sub(g.add(x, y), g.mul(x, y))  # or, exact on 0/1 masks

    def op_And(self, node, a): return self._logic(node, "and")
    def op_Or(self, node, a): return self._logic(node, "or")
    def op_Xor(self, node, a): return self._logic(node, "xor")

    def op_Trilu(self, node, a):
        """Trilu of a computed tensor: the triangle's 0/1 mask (a constant)
        selects x, zeros elsewhere."""
        x = self._t(self._in(node, 0))
        if x.rank < 2:
            raise _Unsupported(f"Trilu of a rank-{x.rank} tensor")
        k = self._const(node, 1, None)
        k = int(k.reshape(())) if k is not None else 0
        ones = np.ones(x.shape[-2:])
        mask = np.triu(ones, k) if a.get("upper", 1) else np.tril(ones, k)
        return self.g.select(self._bind_constant(mask, x.dtype), x,
                             self._bind_constant(np.zeros((1,)), x.dtype))

    def op_Add(self, node, a): return self._binary(node, "add")
    def op_Sub(self, node, a): return self._binary(node, "sub")
    def op_Mul(self, node, a): return self._binary(node, "mul")
    def op_Div(self, node, a): return self._binary(node, "div")

    # GELU as exporters write it: 0.5 x (1 + erf(x / sqrt 2)), in either
    # association, becomes graph.gelu. Until the pattern completes, its
    # intermediate values are markers; any other use turns a marker into
    # the graph ops it stands for (graph.erf and what follows it).
    def op_Erf(self, node, a):
        z = self._t(self._in(node, 0))
        src = self.scaled.get(z.name)
        # The exporter stores 1/sqrt(2) (or sqrt(2) for a Div) in the model's
        # dtype: f16's nearest sqrt(2) is 1.4140625. Accept the constant within
        # a rounding of that dtype.
        tol = {"f16": 2.0 ** -10, "bf16": 2.0 ** -7}.get(z.dtype, 2.0 ** -20)
        if src is None or abs(src[1] * math.sqrt(2) - 1) > tol:
            return self.g.erf(z)
        return _Marker("erf", src[0], z)

    def _marker_binary(self, op, x, y):
        m, other = (x, y) if isinstance(x, _Marker) else (y, x)
        s = self._scalar(other)
        if isinstance(other, _Marker):
            s = None
        if m.kind == "erf" and op == "add" and s == 1.0:
            return _Marker("one_plus_erf", m.x, m.z, m)
        if m.kind == "one_plus_erf" and op == "mul" and isinstance(other, Tensor):
            if other.name == m.x.name:
                return _Marker("twice_gelu", m.x, m.z, m)
            src = self.scaled.get(other.name)
            if src and src[0].name == m.x.name and abs(src[1] - 0.5) < 1e-12:
                return self.g.gelu(m.x)
        if m.kind == "twice_gelu" and op == "mul" and s == 0.5:
            return self.g.gelu(m.x)
        # Not the pattern: the markers' own graph ops.
        x = self._unmark(x) if isinstance(x, _Marker) else x
        y = self._unmark(y) if isinstance(y, _Marker) else y
        return self._combine(op, x, y)

    def _unmark(self, m) -> Tensor:
        """The graph ops a GELU-pattern marker stands for, each emitted once
        (a marker shares those of the marker it was made from)."""
        if m.value is None:
            g = self.g
            if m.kind == "erf":
                m.value = g.erf(m.z)
            elif m.kind == "one_plus_erf":
                m.value = g.scalar_add(self._unmark(m.parent), 1.0)
            else:  # twice_gelu
                m.value = g.mul(m.x, self._unmark(m.parent))
        return m.value

    def _gelu(self, x, y):
        return None

    def op_Max(self, node, a): return self._extremum(node, "max")
    def op_Min(self, node, a): return self._extremum(node, "min")

    def _extremum(self, node, kind):
        """Max / Min of one computed tensor and constant scalars: a clamp
        (relu for max with 0). Of two computed tensors it has no graph op."""
        vals = [self._in(node, i) for i in range(len(node.input))]
        vals = [self._unmark(v) if isinstance(v, _Marker) else v for v in vals]
        tensors = [v for v in vals if isinstance(v, Tensor)]
        consts = [v for v in vals if not isinstance(v, Tensor)]
        scalars = [self._scalar(v) for v in consts]
        name = "Max" if kind == "max" else "Min"
        if len(tensors) != 1 or None in scalars:
            raise _Unsupported(f"{name} of {len(tensors)} computed tensors and "
                               f"{len(consts)} constants (only one computed tensor and constant "
                               f"scalars: a clamp)")
        x = tensors[0]
        if any(math.prod(np.asarray(v).shape) == 1 and np.asarray(v).ndim > x.rank for v in consts):
            raise _Unsupported(f"{name} whose constant broadcasts the result to a higher rank")
        if not scalars:
            return x
        c = (max if kind == "max" else min)(scalars)
        if kind == "max":
            return self.g.relu(x) if c == 0.0 else self.g.clamp(x, c, math.inf)
        return self.g.clamp(x, -math.inf, c)

    def op_Sum(self, node, a):
        xs = [self._in(node, i) for i in range(len(node.input))]
        y = xs[0]
        for x in xs[1:]:
            y = self._combine("add", y, x)
        return self._t(y) if len(xs) == 1 else y

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
        x, ev = self._t(self._in(node, 0)), self._in(node, 1)
        e = self._scalar(ev)
        if e is None and isinstance(ev, np.ndarray) and ev.size and \
                np.broadcast_shapes(x.shape, ev.shape) == x.shape and (ev == ev.flat[0]).all():
            e = float(ev.flat[0])  # one exponent for every element
        if e is None:
            raise _Unsupported("an exponent that is not one constant (graph.pow takes a "
                               "constant scalar exponent)")
        return self.g.square(x) if e == 2.0 else self.g.pow(x, e)

    def op_Clip(self, node, a):
        x = self._t(self._in(node, 0))
        bounds = []
        for i, name in ((1, "min"), (2, "max")):
            v = self._in(node, i)
            if v is not None and self._scalar(v) is None:
                raise _Unsupported(f"a {name} bound that is not a constant scalar "
                                   f"(graph.clamp takes constant bounds)")
            bounds.append(self._scalar(v) if v is not None else None)
        lo = a.get("min", bounds[0])
        hi = a.get("max", bounds[1])
        lo = -math.inf if lo is None else float(lo)
        hi = math.inf if hi is None else float(hi)
        lo = min(lo, hi)  # ONNX: every value is max when min > max
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
        axis = a.get("axis", 1)
        if not -x.rank <= axis <= x.rank:
            raise _Unsupported(f"axis {axis} is out of range for rank {x.rank}")
        axis = axis + x.rank if axis < 0 else axis
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
        xs = [self._in(node, i) for i in range(len(node.input))]
        xs = [self._t(x) for x in xs if not isinstance(x, _Empty)]
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
        split = [int(v) for v in split]
        if sum(split) != x.shape[axis] or any(v < 0 for v in split):
            raise _Unsupported(f"split sizes {split} do not add up to {x.shape[axis]}")
        # Zero-size pieces (ONNX allows them) have no graph form: they stand
        # for themselves, refused only where a computation reads them.
        parts = iter(self.g.split(x, axis, [v for v in split if v]) if any(split) else [])
        return [next(parts) if v else _Empty(x.shape[:axis] + (0,) + x.shape[axis + 1:])
                for v in split]

    def _slice_args(self, node, a, rank):
        """starts, ends, axes, steps as lists: inputs since opset 10, attributes before."""
        if self.opset < 10 or "starts" in a:
            starts, ends = list(a["starts"]), list(a["ends"])
            axes = list(a.get("axes", range(len(starts))))
            steps = [1] * len(starts)
        else:
            starts, ends = self._const(node, 1).tolist(), self._const(node, 2).tolist()
            axes = self._const(node, 3, None)
            steps = self._const(node, 4, None)
            axes = axes.tolist() if axes is not None else list(range(len(starts)))
            steps = steps.tolist() if steps is not None else [1] * len(starts)
        if not len(starts) == len(ends) == len(axes) == len(steps):
            raise _Unsupported("starts, ends, axes and steps of different lengths")
        for ax in axes:
            if not -rank <= int(ax) < rank:
                raise _Unsupported(f"axis {ax} is out of range for rank {rank}")
        return starts, ends, [int(ax) % rank for ax in axes], steps

    def op_Slice(self, node, a):
        x = self._t(self._in(node, 0))
        for s, e, ax, st in zip(*self._slice_args(node, a, x.rank)):
            n = x.shape[ax]
            if st == 0:
                raise _Unsupported("a Slice with step 0")
            picked = range(*slice(int(s), int(e), int(st)).indices(n))
            if len(picked) == 0:
                raise _Unsupported("an empty Slice (the graph dialect has no empty tensors)")
            if st > 0:
                x = _windows.strided(self.g, x, ax, picked.start, len(picked), int(st))
            else:  # backwards: one piece per element
                x = _windows.take(self.g, x, ax, picked)
        return x

    def op_Conv(self, node, a):
        g = self.g
        x, w = self._t(self._in(node, 0)), self._t(self._in(node, 1))
        if x.rank != 4:
            raise _Unsupported(f"a {x.rank - 2}-d convolution (only 2-d)")
        strides = [int(v) for v in a.get("strides", (1, 1))]
        dilations = [int(v) for v in a.get("dilations", (1, 1))]
        pads = self._pads(node, a, x.shape[2:], list(w.shape[2:]), strides, dilations)
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
        nd = x.rank - 2
        kernel = [int(k) for k in a["kernel_shape"]]
        strides = [int(v) for v in a.get("strides", [1] * nd)]
        dilations = [int(v) for v in a.get("dilations", [1] * nd)]
        if len(kernel) != nd or len(strides) != nd or len(dilations) != nd:
            raise _Unsupported(f"kernel_shape {kernel}, strides {strides} or dilations "
                               f"{dilations} do not match a {nd}-d input")
        pads = self._pads(node, a, x.shape[2:], kernel, strides, dilations)
        return _windows.pool(self.g, x, kind, kernel, strides, dilations, pads[:nd], pads[nd:],
                             ceil=bool(a.get("ceil_mode", 0)),
                             counted=bool(a.get("count_include_pad", 0)),
                             zeros=lambda shape, dtype: self._bind_constant(np.zeros(shape), dtype))

    def _pads(self, node, a, sizes, kernel, strides, dilations=None):
        """Explicit pads [begin..., end...] from `pads` or `auto_pad`."""
        nd = len(sizes)
        dilations = dilations or [1] * nd
        auto = a.get("auto_pad", b"NOTSET")
        auto = auto.decode() if isinstance(auto, bytes) else auto
        if auto in ("NOTSET", ""):
            pads = [int(v) for v in a.get("pads", [0] * 2 * nd)]
            if len(pads) != 2 * nd:
                raise _Unsupported(f"pads {pads} do not match a {nd}-d input")
            return pads
        if auto == "VALID":
            return [0] * 2 * nd
        if auto not in ("SAME_UPPER", "SAME_LOWER"):
            raise _Unsupported(f"auto_pad {auto!r}")
        begin, end = [], []
        for size, k, s, d in zip(sizes, kernel, strides, dilations):
            out = -(-size // s)
            total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
            small, big = total // 2, total - total // 2
            begin.append(small if auto == "SAME_UPPER" else big)
            end.append(big if auto == "SAME_UPPER" else small)
        return begin + end

    def op_MaxPool(self, node, a):
        if len(node.output) > 1 and node.output[1]:
            raise _Unsupported("MaxPool's indices output")
        return self._pool(node, a, "max")

    def op_AveragePool(self, node, a): return self._pool(node, a, "avg")

    def op_GlobalAveragePool(self, node, a):
        return _windows.global_pool(self.g, self._t(self._in(node, 0)), "avg")

    def op_GlobalMaxPool(self, node, a):
        return _windows.global_pool(self.g, self._t(self._in(node, 0)), "max")

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
        inv_std = g.pow(g.scalar_add(var, float(a.get("epsilon", 1e-5))), -0.5)
        y = g.mul(xc, inv_std)
        scale, bias = self._in(node, 1), self._in(node, 2)
        if scale is not None:
            y = g.mul(y, self._t(scale))
        if bias is not None:
            y = g.add(y, self._t(bias))
        # The optional Mean and InvStdDev outputs keep the normalized
        # dimensions as 1, as graph's reductions do.
        return [y, mean, inv_std][:len(node.output)]


class _Empty:
    """A zero-size value (a piece of a Split): usable by no graph op."""

    def __init__(self, shape):
        self.shape = tuple(shape)


class _Marker:
    """An intermediate value of the GELU pattern, z = x / sqrt 2: erf(z),
    1 + erf(z) or x (1 + erf(z)); `value` its graph ops once emitted."""

    def __init__(self, kind, x, z, parent=None):
        self.kind, self.x, self.z, self.parent = kind, x, z, parent
        self.value = None

    @property
    def dtype(self) -> str:
        return self.z.dtype

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


def _initializer(init) -> np.ndarray:
    """An initializer's values; bfloat16 ones (NumPy has no bfloat16) as float32."""
    if init.data_type == onnx.TensorProto.BFLOAT16:
        try:
            return numpy_helper.to_array(init).astype(np.float32)
        except (TypeError, ValueError):
            # Raw bf16 bits are the high half of an IEEE float32.
            if init.raw_data:
                bits = np.frombuffer(init.raw_data, dtype=np.uint16)
            else:
                bits = np.asarray(init.int32_data, dtype=np.uint32).astype(np.uint16)
            wide = bits.astype(np.uint32) << 16
            return wide.view(np.float32).reshape(tuple(init.dims))
    return numpy_helper.to_array(init)


# The operators _Importer._fold evaluates with NumPy when every operand is a
# constant (shape arithmetic, masks); those without an op_ handler have no
# graph form for computed operands.
_FOLDED_OPS = frozenset({
    "Shape", "Identity", "Cast", "CastLike", "Gather", "Unsqueeze", "Squeeze", "Concat",
    "Add", "Sub", "Mul", "Div", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
    "And", "Or", "Pow", "Max", "Min", "Mod", "Floor", "Ceil", "Abs", "Not", "Where", "Log", "Exp",
    "Reshape", "Range", "Trilu", "Expand", "Transpose", "ConstantOfShape", "Slice", "Sqrt",
    "Neg", "Relu", "Sum", "Xor"})


def _int_divide(a, b):
    """ONNX's integer Div truncates toward zero (as C does); NumPy's // floors."""
    a, b = np.asarray(a), np.asarray(b)
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q).astype(np.result_type(a, b))


def _shorten(text: str, limit: int = 300) -> str:
    """Messages stay short: a constant of 128x128 must not print 64 KB."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 20] + f" ... ({len(text)} chars)"


def _round_to(v: np.ndarray, dtype: str) -> np.ndarray:
    """v rounded to a graph dtype, as NumPy holds it (bf16 as float32 with
    the low 16 bits clear, rounded to nearest even); an index tensor as is."""
    if dtype in ("i64", "i32"):
        return v
    if dtype == "f16":
        return v.astype(np.float16)
    v = np.asarray(v, dtype=np.float32)
    if dtype != "bf16":
        return v
    bits = v.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    keep = ~np.isfinite(v)  # inf and nan keep their bits
    out = np.where(keep, bits, rounded).astype(np.uint32).view(np.float32)
    return out.reshape(v.shape)


def _np_dtype(dtype) -> str:
    return {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16"}.get(np.dtype(dtype), "f32")


def _clean(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._" else "_" for c in name)
