"""PyTorch programs into the graph dialect, through ``torch.export``.

``from_torch(module, example_inputs)`` exports the module (in eval mode, the
way it runs for inference), walks the exported ATen graph and builds one
graph-dialect function. Parameters, buffers and constant tensors become
inputs of the function bound to their values, so ``Program.run`` takes only
the module's own inputs. ATen ops without a graph counterpart are
decomposed here into graph ops (linear, layer and batch norm,
scaled_dot_product_attention, mean, slicing, adaptive pooling ...); an op
that cannot be expressed raises ``MirageError`` naming the op and the
source line that produced it. docs/Python.md lists the supported ops.
"""

from __future__ import annotations

import math
import operator
import re

import numpy as np

from ._mirage_opt import MirageError
from . import _windows
from .graph import Graph, GraphError, Tensor

try:  # imported lazily by mirage_opt.from_torch
    import torch
    import torch.export
except ImportError as e:  # pragma: no cover
    raise ImportError("mirage_opt.from_torch needs PyTorch (pip install torch)") from e

_DTYPES = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}
# Index tensors: token ids as module inputs, constant positions (T5's
# relative-position buckets), topk's indices.
_INDEX_DTYPES = {torch.int64: "i64", torch.int32: "i32"}


def from_torch(module_or_fn, example_inputs, *, name: str | None = None,
               decompose: bool = False, keep_weights_as_inputs: bool = False):
    """Imports `module_or_fn` (an ``nn.Module`` or a function of tensors)
    called on `example_inputs` (a tensor or a tuple of them).

    `decompose` first runs ``torch.export``'s decompositions to core ATen.
    With `keep_weights_as_inputs`, parameters and buffers are left unbound
    (``Program.run`` then takes them after the module's inputs)."""
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    if isinstance(module_or_fn, torch.nn.Module):
        module = module_or_fn
        default_name = type(module).__name__
    elif callable(module_or_fn):
        module = _FunctionModule(module_or_fn)
        default_name = getattr(module_or_fn, "__name__", "main")
    else:
        raise MirageError(f"from_torch needs an nn.Module or a function, not {type(module_or_fn)}")
    was_training = module.training
    module.eval()
    try:
        with torch.no_grad():
            ep = None
            if not isinstance(module_or_fn, torch.nn.Module):
                # Strict (TorchDynamo) export records the function's own
                # source lines; the default records only a module's forward.
                try:
                    ep = torch.export.export(module, example_inputs, strict=True)
                except Exception:  # noqa: BLE001 - fall back to the default
                    ep = None
            if ep is None:
                try:
                    ep = torch.export.export(module, example_inputs)
                except Exception as e:  # noqa: BLE001 - torch's own error, shortened
                    raise MirageError(f"torch.export failed ({type(e).__name__}: "
                                      f"{_shorten(str(e))})") from None
    finally:
        module.train(was_training)
    if decompose:
        ep = ep.run_decompositions()
    fname = _identifier(name or default_name)
    try:
        return _Importer(ep, fname, keep_weights_as_inputs).run()
    except GraphError as e:
        raise MirageError(f"{fname}: {_shorten(str(e))}") from None


class _FunctionModule(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def _identifier(name: str) -> str:
    name = re.sub(r"\W", "_", name)
    return name if name and not name[0].isdigit() else "f_" + name


class _Unsupported(MirageError):
    pass


class _Importer:
    def __init__(self, ep, name: str, keep_weights: bool):
        self.ep = ep
        self.g = Graph(name)
        self.keep_weights = keep_weights
        self.env: dict = {}
        self.bound: dict = {}
        self.loc = None
        self.node = None
        # Values known at import: the weights' (unless kept as inputs) and
        # those of every node computed from known values alone (arange,
        # index arithmetic, a bucketed position table, a causal mask).
        self.values: dict = {}
        self.raw_weights: set = set()
        self.late_inputs: list = []
        self.scalars: dict = {}  # (value, dtype) -> rank-0 bound input

    # -- driver ------------------------------------------------------------------

    def run(self):
        from .program import Program
        nodes = list(self.ep.graph.nodes)
        specs = {s.arg.name: s for s in self.ep.graph_signature.input_specs
                 if hasattr(s.arg, "name")}
        placeholders = [n for n in nodes if n.op == "placeholder"]
        # The module's own inputs first, then the weights, so that run()
        # takes inputs in the order the module does.
        def is_user(n):
            spec = specs.get(n.name)
            return spec is None or spec.kind.name == "USER_INPUT"
        ordered = [n for n in placeholders if is_user(n)] + \
                  [n for n in placeholders if not is_user(n)]
        # Weights read only as the weight of linear layers are bound
        # transposed, [in, out], so that the program multiplies by them
        # directly (no transpose kernel in front of every matmul).
        linear = torch.ops.aten.linear.default
        self.pre_transposed = {
            n.name for n in ordered
            if not is_user(n) and not self.keep_weights and n.users and
            all(u.target is linear and len(u.args) > 1 and u.args[1] is n and
                u.args[0] is not n for u in n.users)}
        names = []
        for n in ordered:
            val = n.meta.get("val")
            if not isinstance(val, torch.Tensor):
                raise self._error(n, f"input {n.name!r} is not a tensor ({type(val).__name__})")
            if not n.users and not is_user(n):
                continue  # an unused buffer (e.g. BatchNorm's num_batches_tracked)
            if not is_user(n) and not self.keep_weights:
                self.values[n.name] = self._value(specs[n.name], native=True)
                self.raw_weights.add(n.name)
                if val.dtype not in _DTYPES:
                    # An integer or boolean buffer (position ids, a mask) is
                    # a constant of the import, never a graph input.
                    continue
            if val.dtype not in _DTYPES and not (is_user(n) and val.dtype in _INDEX_DTYPES):
                raise self._error(n, f"input {n.name!r} has dtype {val.dtype}; the graph "
                                     f"dialect computes in float32, float16 and bfloat16 "
                                     f"(and reads int64/int32 inputs as indices)")
            shape = tuple(val.shape)
            if n.name in self.pre_transposed:
                shape = shape[::-1]
            if 0 in shape:
                raise self._error(n, f"input {n.name!r} has the zero-size shape {list(shape)}")
            t = self.g.input(shape, {**_DTYPES, **_INDEX_DTYPES}[val.dtype], name=n.name)
            self.env[n.name] = t
            names.append(n.name)
            if not is_user(n) and not self.keep_weights:
                value = self._value(specs[n.name])
                self.bound[n.name] = value.T.copy() if n.name in self.pre_transposed else value
        for n in nodes:
            if n.op == "call_function":
                self.node = n
                self.loc = _source_location(n)
                self.env[n.name] = self._call(n)
            elif n.op == "output":
                outs = n.args[0]
                outs = outs if isinstance(outs, (tuple, list)) else (outs,)
                for o in outs:
                    v = self.env.get(getattr(o, "name", None))
                    if not isinstance(v, Tensor):
                        raise self._error(n, f"output {o} is not a tensor the graph computes")
                    self.g.output(v)
            elif n.op not in ("placeholder",):
                raise self._error(n, f"unsupported FX node kind {n.op!r}")
        return Program(self.g.mlir(), self.g.name, input_names=names + self.late_inputs,
                       bound=self.bound, source=f"<torch {self.g.name}>")

    def _value(self, spec, native: bool = False):
        target = spec.target
        if target in self.ep.state_dict:
            value = self.ep.state_dict[target]
        elif target in self.ep.constants:
            value = self.ep.constants[target]
        else:  # pragma: no cover
            raise MirageError(f"no value for {spec.arg.name} ({target})")
        if native:
            return value.detach().cpu()
        return value.detach().to(torch.float64).cpu().numpy()

    def _call(self, n):
        target = n.target
        if target is operator.getitem:
            seq, index = n.args
            return self.env[seq.name][index]
        packet = getattr(target, "_overloadpacket", None)
        opname = getattr(packet, "__name__", str(target))
        folded = self._fold(n)
        if folded is not _NOT_FOLDED:
            return folded
        handler = getattr(self, "op_" + opname.rstrip("_"), None)
        if handler is None:
            raise self._error(n, f"unsupported op {target}")
        args = [self._arg(a) for a in n.args]
        kwargs = {k: self._arg(v) for k, v in n.kwargs.items()}
        if any(isinstance(a, torch.Tensor) for a in _flat(args) + _flat(list(kwargs.values()))):
            dtype = next((a.dtype for a in _flat(args) if isinstance(a, Tensor)), "f32")
            args = [self._materialize(a, n, dtype) for a in args]
            kwargs = {k: self._materialize(v, n, dtype) for k, v in kwargs.items()}
        try:
            result = handler(*args, **kwargs)
            self._check_dtype(n, result)
            return result
        except (GraphError, _Unsupported) as e:
            raise self._error(n, f"{target}: {_shorten(str(e))}") from None
        except TypeError as e:
            raise self._error(n, f"{target}: unsupported arguments ({_shorten(str(e))})") from None
        except MirageError:
            raise
        except Exception as e:  # noqa: BLE001 - no Python error reaches the user raw
            raise self._error(n, f"{target}: cannot import it ({type(e).__name__}: "
                                 f"{_shorten(str(e))})") from None

    def _check_dtype(self, n, result):
        """A float result must have the dtype PyTorch's has: an op that
        converts (type promotion, a dtype argument) must state it as a cast,
        never leave a value in another precision than the model's."""
        val = n.meta.get("val")
        if isinstance(result, Tensor) and isinstance(val, torch.Tensor) and \
                val.dtype in _DTYPES and _DTYPES[val.dtype] != result.dtype:
            raise _Unsupported(f"PyTorch computes {val.dtype} here; the import gives "
                               f"{result.dtype} (a conversion the importer does not know)")

    # -- constants known at import -------------------------------------------

    _FOLD_LIMIT = 1 << 24  # elements: larger values are never folded

    def _known(self, a):
        """The torch value of an FX argument if it is known at import, else
        raises KeyError."""
        if isinstance(a, torch.fx.Node):
            v = self.env.get(a.name)
            if isinstance(v, torch.Tensor):
                return v
            if a.name in self.values:
                return self.values[a.name]
            raise KeyError(a.name)
        if isinstance(a, (list, tuple)):
            return type(a)(self._known(x) for x in a)
        return a

    def _fold(self, n):
        """Evaluates `n` with PyTorch itself when every tensor it reads is known
        at import. Its result becomes a constant of the import when it is not
        a float function of the weights alone (integers and booleans, a
        position-bucket embedding, an arange, a mask); a float op on raw
        weights (a transpose of a weight, say) is still emitted as a graph op,
        with its value kept for the nodes after it."""
        target = n.target
        val = n.meta.get("val")
        outs = val if isinstance(val, (tuple, list)) else [val]
        if not all(isinstance(v, torch.Tensor) or v is None for v in outs):
            return _NOT_FOLDED
        if any(v is not None and v.numel() > self._FOLD_LIMIT for v in outs):
            return _NOT_FOLDED
        try:
            args = self._known(list(n.args))
            kwargs = {k: self._known(v) for k, v in n.kwargs.items()}
        except KeyError:
            return _NOT_FOLDED
        inputs = [a for a in _flat(args) + _flat(list(kwargs.values()))
                  if isinstance(a, torch.Tensor)]
        nodes = [a for a in _flat(list(n.args)) + _flat(list(n.kwargs.values()))
                 if isinstance(a, torch.fx.Node)]
        on_weights = any(a.name in self.raw_weights or
                         (a.name in self.values and not isinstance(self.env.get(a.name), torch.Tensor))
                         for a in nodes)
        floats = all(t.is_floating_point() for t in inputs) and             all(v is None or v.is_floating_point() for v in outs)
        if on_weights and floats:
            # Emitted as a graph op; its value is kept for later folds.
            if all(v is not None for v in outs) and len(outs) == 1:
                try:
                    with torch.no_grad():
                        self.values[n.name] = target(*args, **kwargs)
                except Exception:  # noqa: BLE001 - then it is only a graph op
                    pass
            return _NOT_FOLDED
        try:
            with torch.no_grad():
                result = target(*args, **kwargs)
        except Exception:  # noqa: BLE001 - not evaluable here: a graph op, if any
            return _NOT_FOLDED
        if isinstance(result, torch.Tensor):
            self.values[n.name] = result
        return result

    def _materialize(self, a, n, dtype):
        """A constant of the import where a graph op reads it: a number if it
        has one element, a bound input if it is a float tensor (booleans become
        0/1 in the op's dtype); integer tensors have no graph form."""
        if isinstance(a, (list, tuple)):
            return type(a)(self._materialize(x, n, dtype) for x in a)
        if not isinstance(a, torch.Tensor):
            return a
        if a.numel() == 1 and a.dim() == 0:
            return a.item()
        if a.dtype == torch.bool:
            a = a.to(_torch_dtype(dtype))
        if 0 in a.shape:
            raise _Unsupported(f"a constant of zero-size shape {list(a.shape)}")
        if not a.is_floating_point():
            if a.dtype not in _INDEX_DTYPES:
                raise _Unsupported(f"a {a.dtype} tensor of shape {list(a.shape)} computed at "
                                   f"import is read by a graph op")
            # An index constant (positions, relative-position buckets): bound
            # as an index input, which only the indexing ops accept.
            if a.dim() == 0:
                a = a.reshape(1)
            name = f"{n.name}_index{len(self.late_inputs)}"
            t = self.g.input(tuple(a.shape), _INDEX_DTYPES[a.dtype], name=name, late=True)
            self.late_inputs.append(name)
            self.bound[name] = a.detach().to(torch.float64).cpu().numpy()
            return t
        name = f"{n.name}_const{len(self.late_inputs)}"
        dt = _DTYPES.get(a.dtype, "f32")
        t = self.g.input(tuple(a.shape), dt, name=name, late=True)
        self.late_inputs.append(name)
        self.bound[name] = a.detach().to(torch.float64).cpu().numpy()
        return t

    def _arg(self, a):
        if isinstance(a, torch.fx.Node):
            if a.name not in self.env and a.name in self.values:
                # A constant known at import that is not a graph input (a
                # boolean mask buffer): _materialize binds it where read.
                return self.values[a.name]
            if a.name not in self.env:
                raise self._error(a, f"{a.name} is not available")
            return self.env[a.name]
        if isinstance(a, (list, tuple)):
            return type(a)(self._arg(x) for x in a)
        if isinstance(a, torch.dtype):
            return a
        return a

    def _error(self, n, message: str) -> MirageError:
        where = _source_location(n)
        return MirageError(f"{message}" + (f" (at {where})" if where else "") +
                           f" [FX node {n.name}]")

    # -- helpers ---------------------------------------------------------------

    def _t(self, x) -> Tensor:
        if not isinstance(x, Tensor):
            raise _Unsupported(f"expected a tensor operand, got {x!r}")
        return x

    def _dim(self, x: Tensor, d: int) -> int:
        return d + x.rank if d < 0 else d

    def _scalar_binary(self, op, a, b):
        g, loc = self.g, self.loc
        if isinstance(a, Tensor) and isinstance(b, Tensor):
            a, b = self._promote(a, b)
            return getattr(g, op)(a, b, loc=loc)
        if isinstance(a, Tensor) and _is_number(b):
            b = float(b)
            if op == "add":
                return g.scalar_add(a, b, loc=loc)
            if op == "sub":
                return g.scalar_add(a, -b, loc=loc)
            if op == "mul":
                return g.scalar_mul(a, b, loc=loc)
            if op == "div":
                return g.scalar_mul(a, 1.0 / b, loc=loc)
        if _is_number(a) and isinstance(b, Tensor):
            a = float(a)
            if op == "add":
                return g.scalar_add(b, a, loc=loc)
            if op == "mul":
                return g.scalar_mul(b, a, loc=loc)
            if op == "sub":
                return g.scalar_add(g.scalar_mul(b, -1.0, loc=loc), a, loc=loc)
            if op == "div":
                return g.scalar_mul(g.pow(b, -1.0, loc=loc), a, loc=loc)
        raise _Unsupported(f"operands {a!r} and {b!r}")

    def _reduce_dims(self, x: Tensor, dims, keepdim: bool, kind: str) -> Tensor:
        g, loc = self.g, self.loc
        if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
            dims = list(range(x.rank))
        if isinstance(dims, int):
            dims = [dims]
        dims = sorted({self._dim(x, d) for d in dims})
        if x.rank == 0:
            return x
        r = x
        for d in dims:
            r = (g.reduce_sum if kind == "sum" else g.reduce_max)(r, d, loc=loc)
        if not keepdim:
            shape = [s for i, s in enumerate(x.shape) if i not in dims]
            r = g.reshape(r, shape, loc=loc)
        return r

    def _mean(self, x, dims, keepdim):
        x = self._t(x)
        if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
            dims = list(range(x.rank))
        dims = [dims] if isinstance(dims, int) else list(dims)
        count = math.prod(x.shape[self._dim(x, d)] for d in dims) if x.rank else 1
        s = self._reduce_dims(x, dims, keepdim, "sum")
        return self.g.scalar_mul(s, 1.0 / count, loc=self.loc)

    def _matmul2d_weight(self, x: Tensor, wt: Tensor) -> Tensor:
        """x [..., K] @ wt [K, N] for any rank of x."""
        g, loc = self.g, self.loc
        if x.rank == 2:
            return g.matmul(x, wt, loc=loc)
        lead = x.shape[:-1]
        flat = g.reshape(x, (math.prod(lead), x.shape[-1]), loc=loc)
        y = g.matmul(flat, wt, loc=loc)
        return g.reshape(y, lead + (wt.shape[-1],), loc=loc)

    # -- ATen ops ------------------------------------------------------------------
    # Named op_<overload packet>; they receive the node's arguments with FX
    # nodes replaced by graph tensors.

    def op_linear(self, x, w, b=None):
        g, loc = self.g, self.loc
        w = self._t(w)
        if self.node.args[1].name not in self.pre_transposed:
            w = g.transpose(w, [1, 0], loc=loc)
        y = self._matmul2d_weight(self._t(x), w)
        return g.add(y, b, loc=loc) if b is not None else y

    def op_addmm(self, b, x, w, beta=1, alpha=1):
        g, loc = self.g, self.loc
        y = g.matmul(x, w, loc=loc)
        if alpha != 1:
            y = g.scalar_mul(y, float(alpha), loc=loc)
        if beta != 1:
            b = g.scalar_mul(b, float(beta), loc=loc)
        return g.add(y, b, loc=loc)

    def op_mm(self, a, b):
        return self.g.matmul(a, b, loc=self.loc)

    def op_bmm(self, a, b):
        return self.g.matmul(a, b, loc=self.loc)

    def op_matmul(self, a, b):
        g, loc = self.g, self.loc
        a, b = self._t(a), self._t(b)
        if a.rank == 1 or b.rank == 1:
            raise _Unsupported("matmul of a vector (rank 1); reshape it to a matrix")
        if b.rank == 2 and a.rank > 2:
            return self._matmul2d_weight(a, b)
        batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
        a = g.broadcast(a, batch + a.shape[-2:], loc=loc) if a.shape[:-2] != batch else a
        b = g.broadcast(b, batch + b.shape[-2:], loc=loc) if b.shape[:-2] != batch else b
        return g.matmul(a, b, loc=loc)

    def op_t(self, x):
        x = self._t(x)
        return x if x.rank < 2 else self.g.transpose(x, [1, 0], loc=self.loc)

    def op_transpose(self, x, d0, d1):
        x = self._t(x)
        perm = list(range(x.rank))
        d0, d1 = self._dim(x, d0), self._dim(x, d1)
        perm[d0], perm[d1] = perm[d1], perm[d0]
        return x if d0 == d1 else self.g.transpose(x, perm, loc=self.loc)

    def op_permute(self, x, dims):
        x = self._t(x)
        dims = [self._dim(x, d) for d in dims]
        return x if dims == list(range(x.rank)) else self.g.transpose(x, dims, loc=self.loc)

    def _reshape_to(self, x, shape):
        x = self._t(x)
        shape = list(shape)
        if -1 in shape:
            known = math.prod(s for s in shape if s != -1)
            shape[shape.index(-1)] = math.prod(x.shape) // known
        return self.g.reshape(x, shape, loc=self.loc)

    def op_view(self, x, shape):
        return self._reshape_to(x, shape)

    op_reshape = op_view
    op__unsafe_view = op_view

    def op_flatten(self, x, start=0, end=-1):
        x = self._t(x)
        if x.rank == 0:
            return self.g.reshape(x, [1], loc=self.loc)
        s, e = self._dim(x, start), self._dim(x, end)
        shape = x.shape[:s] + (math.prod(x.shape[s:e + 1]),) + x.shape[e + 1:]
        return self.g.reshape(x, shape, loc=self.loc)

    def op_unflatten(self, x, dim, sizes):
        x = self._t(x)
        d = self._dim(x, dim)
        sizes = list(sizes)
        if -1 in sizes:
            known = math.prod(v for v in sizes if v != -1)
            sizes[sizes.index(-1)] = x.shape[d] // known
        return self.g.reshape(x, x.shape[:d] + tuple(sizes) + x.shape[d + 1:], loc=self.loc)

    def op_unbind(self, x, dim=0):
        x = self._t(x)
        d = self._dim(x, dim)
        parts = self.g.split(x, d, [1] * x.shape[d], loc=self.loc)
        shape = x.shape[:d] + x.shape[d + 1:]
        return tuple(self.g.reshape(p, shape, loc=self.loc) for p in parts)

    def op_repeat(self, x, repeats):
        x = self._t(x)
        repeats = list(repeats)
        if len(repeats) > x.rank:
            x = self.g.reshape(x, (1,) * (len(repeats) - x.rank) + x.shape, loc=self.loc)
        return self.g.repeat(x, repeats, loc=self.loc)

    def op_expand_as(self, x, other):
        return self.g.broadcast(self._t(x), self._t(other).shape, loc=self.loc)

    def op_view_as(self, x, other):
        return self.g.reshape(self._t(x), self._t(other).shape, loc=self.loc)

    def op_unsqueeze(self, x, d):
        x = self._t(x)
        d = d + x.rank + 1 if d < 0 else d
        return self.g.reshape(x, x.shape[:d] + (1,) + x.shape[d:], loc=self.loc)

    def op_squeeze(self, x, dims=None):
        x = self._t(x)
        if dims is None:
            dims = [i for i, s in enumerate(x.shape) if s == 1]
        dims = [dims] if isinstance(dims, int) else dims
        dims = {self._dim(x, d) for d in dims if x.shape[self._dim(x, d)] == 1}
        return self.g.reshape(x, [s for i, s in enumerate(x.shape) if i not in dims], loc=self.loc)

    def op_expand(self, x, shape, implicit=False):
        x = self._t(x)
        shape = list(shape)
        offset = len(shape) - x.rank
        for i, s in enumerate(shape):
            if s == -1:
                shape[i] = x.shape[i - offset]
        return self.g.broadcast(x, shape, loc=self.loc)

    def _identity(self, x, *args, **kwargs):
        return x

    op_contiguous = _identity
    op_clone = _identity
    op_alias = _identity
    op_detach = _identity
    op_lift_fresh_copy = _identity

    def op_dropout(self, x, p=0.5, train=False):
        if train:
            raise _Unsupported("dropout in training mode")
        return x

    def op__assert_tensor_metadata(self, x, size=None, stride=None, dtype=None, **kwargs):
        # torch.export's check that a value has the metadata the trace saw
        # (e.g. before `x.to(torch.float32)`); it computes nothing. A dtype
        # that disagrees with the imported one would be an importer bug.
        if isinstance(x, Tensor) and dtype is not None and dtype in _DTYPES and \
                _DTYPES[dtype] != x.dtype:
            raise _Unsupported(f"the trace expects {dtype}, the imported value is {x.dtype}")
        if isinstance(x, Tensor) and size is not None and tuple(size) != x.shape:
            raise _Unsupported(f"the trace expects shape {list(size)}, the imported value "
                               f"is {list(x.shape)}")
        return None

    # -- casts (issue 24) ------------------------------------------------------

    def _cast(self, x, dtype) -> Tensor:
        """`x` as `dtype` (a torch.dtype or None: unchanged): graph.cast
        between float32, float16 and bfloat16; other dtypes have no graph
        form."""
        x = self._t(x)
        if dtype is None:
            return x
        if dtype not in _DTYPES:
            raise _Unsupported(f"a conversion from {x.dtype} to {dtype}: the graph dialect "
                               f"computes in float32, float16 and bfloat16 only")
        return self.g.cast(x, _DTYPES[dtype], loc=self.loc)

    def op_to(self, x, *args, **kwargs):
        # aten.to.dtype(x, dtype, ...), to.device(x, device, dtype, ...),
        # to.dtype_layout(x, dtype=...), to.other(x, other, ...) and
        # _to_copy(x, dtype=...): only the dtype computes anything.
        other = next((a for a in args if isinstance(a, Tensor)), None)
        dtype = kwargs.get("dtype") or next((a for a in args if isinstance(a, torch.dtype)), None)
        if other is not None and dtype is None:
            return self.g.cast(self._t(x), other.dtype, loc=self.loc)
        return self._cast(x, dtype)

    op__to_copy = op_to

    def op_type_as(self, x, other):
        return self.g.cast(self._t(x), self._t(other).dtype, loc=self.loc)

    def _promote(self, a: Tensor, b: Tensor) -> tuple:
        """Both operands in the dtype PyTorch computes a binary op in (the
        node's own result dtype: float32 for float16 with float32 or with
        bfloat16), each conversion an explicit cast: graph ops take one
        dtype."""
        if a.dtype == b.dtype:
            return a, b
        val = self.node.meta.get("val") if self.node is not None else None
        dtype = _DTYPES.get(getattr(val, "dtype", None))
        if dtype is None:
            dtype = "f32"
        return (self.g.cast(a, dtype, loc=self.loc), self.g.cast(b, dtype, loc=self.loc))

    def op_add(self, a, b, alpha=1):
        if alpha != 1:
            b = self._scalar_binary("mul", b, alpha)
        return self._scalar_binary("add", a, b)

    def op_sub(self, a, b, alpha=1):
        if alpha != 1:
            b = self._scalar_binary("mul", b, alpha)
        return self._scalar_binary("sub", a, b)

    def op_rsub(self, a, b, alpha=1):
        return self.op_sub(b, a, alpha) if not isinstance(b, Tensor) else self.op_sub(b, a, alpha)

    def op_mul(self, a, b):
        return self._scalar_binary("mul", a, b)

    def op_div(self, a, b, rounding_mode=None):
        if rounding_mode is not None:
            raise _Unsupported(f"division with rounding_mode={rounding_mode!r}")
        return self._scalar_binary("div", a, b)

    def op_neg(self, x):
        return self.g.scalar_mul(self._t(x), -1.0, loc=self.loc)

    def op_pow(self, x, e):
        if not isinstance(x, Tensor) or not _is_number(e):
            raise _Unsupported("only tensor ** scalar")
        e = float(e)
        if e == 2.0:
            return self.g.square(x, loc=self.loc)
        if e == 1.0:
            return x
        return self.g.pow(x, e, loc=self.loc)

    def op_rsqrt(self, x):
        return self.g.pow(self._t(x), -0.5, loc=self.loc)

    def op_reciprocal(self, x):
        return self.g.pow(self._t(x), -1.0, loc=self.loc)

    def op_sqrt(self, x): return self.g.sqrt(self._t(x), loc=self.loc)
    def op_exp(self, x): return self.g.exp(self._t(x), loc=self.loc)
    def op_relu(self, x): return self.g.relu(self._t(x), loc=self.loc)
    def op_silu(self, x): return self.g.silu(self._t(x), loc=self.loc)
    def op_sigmoid(self, x): return self.g.sigmoid(self._t(x), loc=self.loc)
    def op_tanh(self, x): return self.g.tanh(self._t(x), loc=self.loc)
    def op_erf(self, x): return self.g.erf(self._t(x), loc=self.loc)

    def op_gelu(self, x, approximate="none"):
        g, loc, x = self.g, self.loc, self._t(x)
        if approximate == "none":
            return g.gelu(x, loc=loc)
        if approximate == "tanh":
            # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
            inner = g.add(x, g.scalar_mul(g.pow(x, 3.0, loc=loc), 0.044715, loc=loc), loc=loc)
            t = g.tanh(g.scalar_mul(inner, math.sqrt(2.0 / math.pi), loc=loc), loc=loc)
            return g.mul(g.scalar_mul(x, 0.5, loc=loc), g.scalar_add(t, 1.0, loc=loc), loc=loc)
        raise _Unsupported(f"gelu approximate={approximate!r}")

    def op_hardtanh(self, x, lo=-1.0, hi=1.0):
        return self.g.clamp(self._t(x), float(lo), float(hi), loc=self.loc)

    def op_clamp(self, x, lo=None, hi=None):
        if isinstance(lo, Tensor) or isinstance(hi, Tensor):
            raise _Unsupported("clamp with tensor bounds")
        lo = -math.inf if lo is None else float(lo)
        hi = math.inf if hi is None else float(hi)
        if lo == 0.0 and hi == math.inf:
            return self.g.relu(self._t(x), loc=self.loc)
        return self.g.clamp(self._t(x), lo, hi, loc=self.loc)

    def op_softmax(self, x, dim, dtype=None):
        # `dtype` converts the input before the op, as PyTorch does.
        return self.g.softmax(self._cast(x, dtype), dim, loc=self.loc)

    def op__softmax(self, x, dim, half_to_float=False):
        x = self._t(x)
        if half_to_float:
            x = self.g.cast(x, "f32", loc=self.loc)
        return self.g.softmax(x, dim, loc=self.loc)

    def op_sum(self, x, dims=None, keepdim=False, dtype=None):
        return self._reduce_dims(self._cast(x, dtype), dims, keepdim, "sum")

    def op_mean(self, x, dims=None, keepdim=False, dtype=None):
        return self._mean(self._cast(x, dtype), dims, keepdim)

    def op_amax(self, x, dims=(), keepdim=False):
        return self._reduce_dims(self._t(x), list(dims) or None, keepdim, "max")

    def op_layer_norm(self, x, shape, w=None, b=None, eps=1e-5, cudnn=True):
        g, loc, x = self.g, self.loc, self._t(x)
        dims = list(range(x.rank - len(shape), x.rank))
        mean = self._mean(x, dims, True)
        xc = g.sub(x, mean, loc=loc)
        var = self._mean(g.square(xc, loc=loc), dims, True)
        y = g.mul(xc, g.pow(g.scalar_add(var, float(eps), loc=loc), -0.5, loc=loc), loc=loc)
        if w is not None:
            y = g.mul(y, w, loc=loc)
        if b is not None:
            y = g.add(y, b, loc=loc)
        return y

    def op_native_layer_norm(self, x, shape, w, b, eps):
        return (self.op_layer_norm(x, shape, w, b, eps), None, None)

    def op_rms_norm(self, x, shape, w=None, eps=None):
        g, loc, x = self.g, self.loc, self._t(x)
        if len(shape) != 1:
            raise _Unsupported("rms_norm over more than the last dimension")
        if eps is None:
            eps = float(torch.finfo(_torch_dtype(x.dtype)).eps)
        y = g.rms_norm(x, float(eps), loc=loc)
        return g.mul(y, w, loc=loc) if w is not None else y

    def _batch_norm(self, x, w, b, mean, var, eps):
        g, loc, x = self.g, self.loc, self._t(x)
        if mean is None or var is None:
            raise _Unsupported("batch norm without running statistics (training mode)")
        channel = (x.shape[1],) + (1,) * (x.rank - 2)
        def per_channel(t):
            return g.reshape(t, channel, loc=loc)
        inv = g.pow(g.scalar_add(var, float(eps), loc=loc), -0.5, loc=loc)
        scale = g.mul(inv, w, loc=loc) if w is not None else inv
        y = g.mul(g.sub(x, per_channel(mean), loc=loc), per_channel(scale), loc=loc)
        return g.add(y, per_channel(b), loc=loc) if b is not None else y

    def op_batch_norm(self, x, w, b, mean, var, training, momentum, eps, cudnn=True):
        if training:
            raise _Unsupported("batch norm in training mode")
        return self._batch_norm(x, w, b, mean, var, eps)

    def op__native_batch_norm_legit_no_training(self, x, w, b, mean, var, momentum, eps):
        return (self._batch_norm(x, w, b, mean, var, eps), None, None)

    def op_cat(self, xs, dim=0):
        xs = [self._t(x) for x in xs if not (isinstance(x, Tensor) and 0 in x.shape)]
        return self.g.concat(xs, dim, loc=self.loc)

    op_concat = op_cat

    def op_split(self, x, size, dim=0):
        x = self._t(x)
        d = self._dim(x, dim)
        if isinstance(size, int):
            n = x.shape[d]
            sizes = [size] * (n // size) + ([n % size] if n % size else [])
        else:
            sizes = list(size)
        if 0 in sizes:
            raise _Unsupported(f"split sizes {sizes} include a zero-size piece; the graph "
                               f"dialect has no empty tensors")
        return tuple(self.g.split(x, d, sizes, loc=self.loc))

    op_split_with_sizes = op_split

    def op_chunk(self, x, chunks, dim=0):
        x = self._t(x)
        n = x.shape[self._dim(x, dim)]
        size = -(-n // chunks)
        return self.op_split(x, size, dim)

    def op_slice(self, x, dim=0, start=None, end=None, step=1):
        x = self._t(x)
        d = self._dim(x, dim)
        n = x.shape[d]
        start = 0 if start is None else (start + n if start < 0 else start)
        end = n if end is None else (end + n if end < 0 else end)
        start, end = max(0, min(start, n)), max(0, min(end, n))
        if step < 1:
            raise _Unsupported(f"a slice with step {step}")
        picked = range(start, end, step)
        if start == 0 and end == n and step == 1:
            return x
        if not picked:
            raise _Unsupported("an empty slice (the graph dialect has no empty tensors)")
        return _windows.strided(self.g, x, d, picked.start, len(picked), step, loc=self.loc)

    def op_select(self, x, dim, index):
        x = self._t(x)
        d = self._dim(x, dim)
        index = index + x.shape[d] if index < 0 else index
        part = self.op_slice(x, d, index, index + 1)
        return self.g.reshape(part, x.shape[:d] + x.shape[d + 1:], loc=self.loc)

    def op_conv2d(self, x, w, b=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
        g, loc = self.g, self.loc
        if isinstance(padding, str):
            raise _Unsupported(f"padding={padding!r}; give the padding as numbers")
        stride, padding, dilation = (_pair(stride), _pair(padding), _pair(dilation))
        y = g.conv2d(self._t(x), self._t(w), stride, padding, dilation, groups, loc=loc)
        if b is not None:
            y = g.add(y, g.reshape(b, (b.shape[0], 1, 1), loc=loc), loc=loc)
        return y

    def op_convolution(self, x, w, b, stride, padding, dilation, transposed, output_padding, groups):
        if transposed:
            raise _Unsupported("transposed convolution")
        if len(w.shape) != 4:
            raise _Unsupported(f"a {len(w.shape) - 2}-d convolution (only 2-d)")
        return self.op_conv2d(x, w, b, stride, padding, dilation, groups)

    def _pool(self, x, nd, kind, kernel, stride, padding, dilation=1, ceil_mode=False,
              count_include_pad=True, divisor_override=None):
        """max_pool{1,2,3}d and avg_pool{1,2,3}d, batched or not (_windows.pool:
        dilations, ceil_mode's partial windows and uncounted padding too)."""
        g, loc, x = self.g, self.loc, self._t(x)
        if divisor_override:
            raise _Unsupported(f"{kind}_pool{nd}d with divisor_override")
        if x.rank not in (nd + 1, nd + 2):
            raise _Unsupported(f"{kind}_pool{nd}d of a rank-{x.rank} input")
        kernel = _ntuple(kernel, nd)
        stride = _ntuple(stride, nd) if stride else kernel
        padding, dilation = _ntuple(padding, nd), _ntuple(dilation, nd)
        unbatched = x.rank == nd + 1
        if unbatched:
            x = g.reshape(x, (1,) + x.shape, loc=loc)
        y = _windows.pool(g, x, kind, kernel, stride, dilation, padding, padding,
                          ceil=bool(ceil_mode), counted=bool(count_include_pad), loc=loc)
        return g.reshape(y, y.shape[1:], loc=loc) if unbatched else y

    def op_max_pool1d(self, x, kernel, stride=(), padding=0, dilation=1, ceil_mode=False):
        return self._pool(x, 1, "max", kernel, stride, padding, dilation, ceil_mode)

    def op_max_pool2d(self, x, kernel, stride=(), padding=0, dilation=1, ceil_mode=False):
        return self._pool(x, 2, "max", kernel, stride, padding, dilation, ceil_mode)

    def op_max_pool3d(self, x, kernel, stride=(), padding=0, dilation=1, ceil_mode=False):
        return self._pool(x, 3, "max", kernel, stride, padding, dilation, ceil_mode)

    def op_max_pool2d_with_indices(self, *args, **kwargs):
        return (self.op_max_pool2d(*args, **kwargs), None)

    def op_max_pool3d_with_indices(self, *args, **kwargs):
        return (self.op_max_pool3d(*args, **kwargs), None)

    def op_avg_pool1d(self, x, kernel, stride=(), padding=0, ceil_mode=False,
                      count_include_pad=True):
        return self._pool(x, 1, "avg", kernel, stride, padding, 1, ceil_mode, count_include_pad)

    def op_avg_pool2d(self, x, kernel, stride=(), padding=0, ceil_mode=False,
                      count_include_pad=True, divisor_override=None):
        return self._pool(x, 2, "avg", kernel, stride, padding, 1, ceil_mode, count_include_pad,
                          divisor_override)

    def op_avg_pool3d(self, x, kernel, stride=(), padding=0, ceil_mode=False,
                      count_include_pad=True, divisor_override=None):
        return self._pool(x, 3, "avg", kernel, stride, padding, 1, ceil_mode, count_include_pad,
                          divisor_override)

    def op_adaptive_avg_pool2d(self, x, size):
        g, loc, x = self.g, self.loc, self._t(x)
        (h, w), (oh, ow) = x.shape[2:], _pair(size)
        if h % oh == 0 and w % ow == 0:
            if (h, w) == (oh, ow):
                return x
            return g.avg_pool2d(x, (h // oh, w // ow), (h // oh, w // ow), loc=loc)
        if oh % h == 0 and ow % w == 0:
            # Each output cell's window is one input cell: repeat each cell.
            n, c = x.shape[:2]
            rh, rw = oh // h, ow // w
            y = g.reshape(x, (n, c, h, 1, w, 1), loc=loc)
            y = g.broadcast(y, (n, c, h, rh, w, rw), loc=loc)
            return g.reshape(y, (n, c, oh, ow), loc=loc)
        # Windows of unequal size, or overlapping: window by window.
        return _windows.adaptive_pool(g, x, "avg", (oh, ow), loc=loc)

    def op_adaptive_max_pool2d(self, x, size):
        x = self._t(x)
        if x.rank not in (3, 4):
            raise _Unsupported(f"adaptive_max_pool2d of a rank-{x.rank} input")
        return (_windows.adaptive_pool(self.g, x, "max", _pair(size), loc=self.loc), None)

    def op_mean_dim(self, *args, **kwargs):  # pragma: no cover - alias
        return self.op_mean(*args, **kwargs)

    def op_scaled_dot_product_attention(self, q, k, v, attn_mask=None, dropout_p=0.0,
                                        is_causal=False, scale=None, enable_gqa=False):
        g, loc = self.g, self.loc
        q, k, v = self._t(q), self._t(k), self._t(v)
        if dropout_p:
            raise _Unsupported("attention dropout")
        if enable_gqa and q.shape[-3] != k.shape[-3]:
            groups = q.shape[-3] // k.shape[-3]
            k = self._repeat_heads(k, groups)
            v = self._repeat_heads(v, groups)
        if is_causal and attn_mask is not None:
            raise _Unsupported("both is_causal=True and an attn_mask")
        scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else float(scale)
        kt = g.transpose(k, list(range(k.rank - 2)) + [k.rank - 1, k.rank - 2], loc=loc)
        s = self.op_matmul(q, kt)
        s = g.scalar_mul(s, scale, loc=loc)
        if is_causal:
            # PyTorch's causal mask (tril of ones, aligned at the top left) as
            # the additive 0/-inf mask its reference implementation builds:
            # the scores are finite, so s + (-inf) = -inf where masked.
            rows, cols = q.shape[-2], k.shape[-2]
            bias = np.triu(np.full((rows, cols), -np.inf), 1)
            s = g.add(s, self._bind_array(bias, s.dtype), loc=loc)
        elif attn_mask is not None:
            if not isinstance(attn_mask, Tensor):
                raise _Unsupported("a non-tensor attention mask")
            mask_node = self.node.args[3] if len(self.node.args) > 3 else \
                self.node.kwargs.get("attn_mask")
            if _is_bool(mask_node):
                # A boolean mask says where to attend (True): the others
                # become -inf, whatever the score.
                s = g.select(attn_mask, s, self._scalar_const(-math.inf, s.dtype), loc=loc)
            else:
                s = g.add(s, attn_mask, loc=loc)
        p = g.softmax(s, -1, loc=loc)
        return self.op_matmul(p, v)

    # -- comparisons, masks and select (selectop) -------------------------------
    # A boolean tensor the graph computes is a 0/1 mask in its operands'
    # dtype (graph tensors are float); one known at import is folded by
    # _fold and becomes a 0/1 bound input where a graph op reads it.

    def _scalar_const(self, value: float, dtype: str, rank: int = 1) -> Tensor:
        """A bound input holding `value` (a fill value, an operand of a
        comparison with a number): the graph dialect has no constants. Of
        shape [1], which broadcasts like a scalar and, unlike rank 0, has a
        tile on the GPU path; rank 0 only beside rank-0 operands."""
        shape = (1,) if rank > 0 else ()
        key = (float(value), dtype, shape)
        if key not in self.scalars:
            self.scalars[key] = self._bind_array(np.full(shape, float(value)), dtype)
        return self.scalars[key]

    def _bind_array(self, value: np.ndarray, dtype: str) -> Tensor:
        name = f"{self.node.name}_const{len(self.late_inputs)}"
        t = self.g.input(tuple(value.shape), dtype, name=name, late=True)
        self.late_inputs.append(name)
        self.bound[name] = np.asarray(value, np.float64)
        return t

    def _operand(self, v, dtype: str, rank: int = 1) -> Tensor:
        if isinstance(v, Tensor):
            return v
        if isinstance(v, bool) or _is_number(v):
            return self._scalar_const(float(v), dtype, rank)
        raise _Unsupported(f"operand {v!r}")

    @staticmethod
    def _rank(*values) -> int:
        return max((v.rank for v in values if isinstance(v, Tensor)), default=0)

    def _compare(self, kind, a, b):
        if not isinstance(a, Tensor) and not isinstance(b, Tensor):
            raise _Unsupported(f"a comparison of {a!r} and {b!r}")
        dtype, rank = (a.dtype if isinstance(a, Tensor) else b.dtype), self._rank(a, b)
        return getattr(self.g, kind)(self._operand(a, dtype, rank),
                                     self._operand(b, dtype, rank), loc=self.loc)

    def op_eq(self, a, b): return self._compare("eq", a, b)
    def op_ne(self, a, b): return self._compare("ne", a, b)
    def op_lt(self, a, b): return self._compare("lt", a, b)
    def op_le(self, a, b): return self._compare("le", a, b)
    def op_gt(self, a, b): return self._compare("gt", a, b)
    def op_ge(self, a, b): return self._compare("ge", a, b)

    # -- indexing (issue 24): embeddings, gathers, MoE routing -------------------

    def _index_operand(self, idx) -> Tensor:
        """An index tensor of the graph (an input, topk's indices, or a
        constant of the import bound as an index input)."""
        if isinstance(idx, Tensor) and idx.dtype in ("i64", "i32"):
            return idx
        raise _Unsupported(f"expected an index tensor, got {idx!r}")

    def op_embedding(self, weight, indices, padding_idx=-1, scale_grad_by_freq=False,
                     sparse=False):
        return self.g.gather(self._t(weight), self._index_operand(indices), 0, loc=self.loc)

    def op_index_select(self, x, dim, index):
        x = self._t(x)
        return self.g.gather(x, self._index_operand(index), self._dim(x, dim), loc=self.loc)

    def op_gather(self, x, dim, index, sparse_grad=False):
        x = self._t(x)
        return self.g.gather_elements(x, self._index_operand(index), self._dim(x, dim),
                                      loc=self.loc)

    def _front(self, x: Tensor, shape) -> Tensor:
        """The leading `shape` block of `x` (PyTorch's scatter reads only the
        part of `src` the index covers)."""
        for d, (have, want) in enumerate(zip(x.shape, shape)):
            if have > want:
                x = self.g.split(x, d, [want, have - want], loc=self.loc)[0]
        return x

    def _scatter(self, x, dim, index, src, reduction):
        x = self._t(x)
        index = self._index_operand(index)
        d = self._dim(x, dim)
        if isinstance(src, Tensor):
            if src.rank != index.rank or any(s < i for s, i in zip(src.shape, index.shape)):
                raise _Unsupported(f"scatter source {src.type} is smaller than the index {index.type}")
            src = self._front(src, index.shape)
        else:
            src = self.g.broadcast(self._scalar_const(float(src), x.dtype, index.rank),
                                   index.shape, loc=self.loc)
        return self.g.scatter_elements(x, index, src, d, reduction, loc=self.loc)

    def op_scatter(self, x, dim, index, src=None, value=None, reduce=None):
        if reduce is not None and reduce != "add":
            raise _Unsupported(f"scatter with reduce={reduce!r}")
        return self._scatter(x, dim, index, value if src is None else src,
                             "add" if reduce == "add" else "none")

    def op_scatter_add(self, x, dim, index, src):
        return self._scatter(x, dim, index, src, "add")

    def op_scatter_reduce(self, x, dim, index, src, reduce, include_self=True):
        if reduce != "sum" or not include_self:
            raise _Unsupported(f"scatter_reduce with reduce={reduce!r}, include_self={include_self}")
        return self._scatter(x, dim, index, src, "add")

    def op_index_add(self, x, dim, index, source, alpha=1):
        raise _Unsupported("index_add (its 1-D index would need broadcasting to the source's "
                           "shape, and index tensors have no data movement); write the "
                           "combination as a scatter_add or a one_hot product")

    def op_full_like(self, x, value, dtype=None, layout=None, device=None, pin_memory=None,
                     memory_format=None):
        # A tensor of x's shape filled with `value`: only the shape of x is
        # read (zeros_like, ones_like and full_like on a graph value).
        x = self._t(x)
        dt = _DTYPES.get(dtype, x.dtype) if dtype is not None else x.dtype
        if dtype is not None and dtype not in _DTYPES:
            raise _Unsupported(f"a {dtype} fill")
        return self.g.broadcast(self._scalar_const(float(value), dt, max(1, x.rank)), x.shape,
                                loc=self.loc)

    def op_zeros_like(self, x, **kwargs):
        return self.op_full_like(x, 0.0, **kwargs)

    def op_ones_like(self, x, **kwargs):
        return self.op_full_like(x, 1.0, **kwargs)

    def op_topk(self, x, k, dim=-1, largest=True, sorted=True):
        x = self._t(x)
        return self.g.topk(x, int(k), self._dim(x, dim), largest=bool(largest), loc=self.loc)

    def op_one_hot(self, indices, num_classes=-1):
        index = self._index_operand(indices)
        if num_classes is None or num_classes < 1:
            raise _Unsupported("one_hot without num_classes (the depth would depend on the data)")
        # PyTorch gives int64; the graph gives a float tensor in the dtype
        # its users convert it to (f32 if they do not all convert alike).
        users = list(self.node.users)
        dtypes = {self._cast_target(u) for u in users}
        dtype = dtypes.pop() if len(dtypes) == 1 and None not in dtypes else "f32"
        return self.g.one_hot(index, int(num_classes), dtype, loc=self.loc)

    def _cast_target(self, u):
        """The float dtype FX node `u` converts its input to, or None."""
        names = {"to", "_to_copy", "type"}
        packet = getattr(u.target, "_overloadpacket", None)
        if getattr(packet, "__name__", "") not in names:
            return None
        for a in list(u.args[1:]) + list(u.kwargs.values()):
            if isinstance(a, torch.dtype):
                return _DTYPES.get(a)
        val = u.meta.get("val")
        return _DTYPES.get(val.dtype) if isinstance(val, torch.Tensor) else None

    def op_where(self, cond, a=None, b=None):
        if a is None or b is None:
            raise _Unsupported("where(cond) with one argument (the indices of a mask)")
        dtype = next((v.dtype for v in (a, b, cond) if isinstance(v, Tensor)), "f32")
        rank = self._rank(cond, a, b)
        return self.g.select(self._operand(cond, dtype, rank), self._operand(a, dtype, rank),
                             self._operand(b, dtype, rank), loc=self.loc)

    def op_masked_fill(self, x, mask, value):
        x = self._t(x)
        rank = self._rank(x, mask)
        return self.g.select(self._operand(mask, x.dtype, rank),
                             self._operand(value, x.dtype, rank), x, loc=self.loc)

    def _not(self, m):
        return self.g.scalar_add(self.g.scalar_mul(self._t(m), -1.0, loc=self.loc), 1.0,
                                 loc=self.loc)

    def op_logical_not(self, m): return self._not(m)
    op_bitwise_not = op_logical_not

    def op_logical_and(self, a, b):
        return self.g.mul(self._t(a), self._t(b), loc=self.loc)

    op_bitwise_and = op_logical_and

    def op_logical_or(self, a, b):
        # a + b - a b: exact on 0/1 masks.
        g, loc, a, b = self.g, self.loc, self._t(a), self._t(b)
        return g.sub(g.add(a, b, loc=loc), g.mul(a, b, loc=loc), loc=loc)

    op_bitwise_or = op_logical_or

    def op_logical_xor(self, a, b):
        return self.g.ne(self._t(a), self._t(b), loc=self.loc)

    # The operators &, |, ^ and ~ on boolean tensors (aten.__and__ ...).
    op___and = op_logical_and
    op___or = op_logical_or
    op___xor = op_logical_xor
    op_bitwise_xor = op_logical_xor
    op___invert = op_logical_not

    def _triangle(self, x, k, upper):
        """tril/triu of a computed tensor: the triangle's 0/1 mask (known at
        import) selects x, zeros elsewhere. Of a constant, _fold computes it."""
        x = self._t(x)
        if x.rank < 2:
            raise _Unsupported(f"{'triu' if upper else 'tril'} of a rank-{x.rank} tensor")
        ones = np.ones(x.shape[-2:])
        mask = np.triu(ones, k) if upper else np.tril(ones, k)
        return self.g.select(self._bind_array(mask, x.dtype), x,
                             self._scalar_const(0.0, x.dtype), loc=self.loc)

    def op_tril(self, x, diagonal=0): return self._triangle(x, diagonal, upper=False)
    def op_triu(self, x, diagonal=0): return self._triangle(x, diagonal, upper=True)

    def _repeat_heads(self, x, groups):
        g, loc = self.g, self.loc
        *lead, h, s, d = x.shape
        y = g.reshape(x, tuple(lead) + (h, 1, s, d), loc=loc)
        y = g.broadcast(y, tuple(lead) + (h, groups, s, d), loc=loc)
        return g.reshape(y, tuple(lead) + (h * groups, s, d), loc=loc)


def _shorten(text: str, limit: int = 300) -> str:
    """Messages stay short: a value of 128x128 must not print 64 KB."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 20] + f" ... ({len(text)} chars)"


_NOT_FOLDED = object()  # _fold's answer for a node it leaves to the graph


def _flat(values) -> list:
    out = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.extend(_flat(v))
        else:
            out.append(v)
    return out


def _ntuple(v, n):
    if isinstance(v, int):
        return (v,) * n
    v = tuple(v)
    return v * n if len(v) == 1 else v


def _pair(v):
    if isinstance(v, int):
        return (v, v)
    v = tuple(v)
    return v * 2 if len(v) == 1 else v


def _is_bool(node) -> bool:
    """Whether an FX argument is a boolean tensor (a mask) in the trace."""
    val = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
    return isinstance(val, torch.Tensor) and val.dtype == torch.bool


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _torch_dtype(dtype: str):
    return {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[dtype]


def _source_location(n) -> str | None:
    """The user's source line that produced an FX node, from its stack trace."""
    trace = n.meta.get("stack_trace") if hasattr(n, "meta") else None
    if not trace:
        return None
    frames = re.findall(r'File "([^"]+)", line (\d+)', trace)
    for path, line in reversed(frames):
        if not re.search(r"[/\\](torch|mirage_opt)[/\\]", path):
            return f"{path}:{line}"
    return f"{frames[-1][0]}:{frames[-1][1]}" if frames else None
