"""Seeded generator of well-typed random graph-level programs.

`generate(seed)` returns a `RandomProgram`: the MLIR text of one function
`@main` of `graph` dialect ops (2 to 10 of them), with the role and input
scale of each argument, so that the differential runner (run_random.py)
can draw realistic inputs for it. The same seed gives the same program on
every machine (Python's `random.Random` with an integer seed is specified
to be stable across platforms and versions).

What is drawn:
- one element type per program, f32, f16 or bf16 (graph ops keep their
  operands' element type, so a program has one);
- shapes mixing the odd sizes 1, 3, 7, 17, 96 and 1000 with powers of
  two, bounded (MAX_ELEMENTS per tensor, MAX_MACS per matmul) so that a
  program runs in well under a second in the PTX emulator;
- ops from the whole graph dialect but pooling
  (include/mirage/Dialect/Graph/GraphOps.td; conv2d only in PET's motif):
  matmul (batched too), the unary
  ops (exp, sqrt, square, silu, gelu, relu, tanh, sigmoid, clamp,
  scalar_mul, scalar_add, pow), binary add/sub/mul/div with NumPy
  broadcasting in either operand, reduce_sum/reduce_max, softmax,
  rms_norm, transpose, reshape, broadcast, repeat, concat and split;
- motifs that real models have: scaled attention (Q K^T, softmax, V, or
  the softmax written out with reduce_max/sub/exp/reduce_sum/div),
  RMSNorm followed by a matmul, matmuls that share their input (a gated
  MLP), and tiles of an image convolved with one weight and concatenated
  (the site of --partial-equivalence-optimize);
- sqrt and fractional powers only of values known to be non-negative, so
  that the reference is mostly finite (NaN positions are not judged).
"""

import math
import random

ODD_SIZES = [1, 3, 7, 17, 96, 1000]
POW2_SIZES = [2, 4, 8, 16, 32, 64, 128]
MAX_ELEMENTS = 1 << 15
MAX_MACS = 1 << 20
DTYPES = ["f32", "f16", "bf16"]
# Input scales per element type: N(0, 1) times one of these, chosen per
# program; f16's range (65504) makes 100 overflow after one square and a
# short sum, which tells nothing about the program.
SCALES = {"f32": [1.0, 8.0, 100.0], "bf16": [1.0, 8.0, 100.0],
          "f16": [1.0, 4.0, 8.0]}


def flt(x):
    """x as an MLIR float literal, exactly (repr's 1e-05 lacks the point
    MLIR's lexer needs)."""
    t = repr(float(x))
    mant, _, exp = t.partition("e")
    if "." not in mant:
        mant += ".0"
    return mant + ("e" + exp if exp else "")


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class Value:
    def __init__(self, name, shape, nonneg=False):
        self.name = name
        self.shape = list(shape)
        self.nonneg = nonneg


class RandomProgram:
    """One generated program: `text` (MLIR), `args` [(shape, role, scale)],
    `dtype`, `scale`, `motif`, `ops` (their mnemonics) and `seed`."""

    def __init__(self, seed, dtype, scale, motif, text, args, ops):
        self.seed = seed
        self.dtype = dtype
        self.scale = scale
        self.motif = motif
        self.text = text
        self.args = args
        self.ops = ops


class _Builder:
    def __init__(self, rng, dtype, scale):
        self.rng = rng
        self.dtype = dtype
        self.scale = scale
        self.args = []  # (Value, role, scale)
        self.lines = []
        self.ops = []
        self.values = []  # every non-argument value, in order
        self.used = set()
        self.counter = 0

    # -- helpers ----------------------------------------------------------
    def ty(self, shape):
        return "tensor<" + "x".join(str(d) for d in shape) + "x" + \
            self.dtype + ">"

    def arg(self, shape, role="act", scale=None):
        v = Value("%%arg%d" % len(self.args), shape)
        if scale is None:
            scale = self.scale if role == "act" else 1.0
        self.args.append((v, role, scale))
        return v

    def emit(self, op, text, shape, operands, nonneg=False):
        name = "%%v%d" % self.counter
        self.counter += 1
        self.lines.append("  %s = %s" % (name, text))
        self.ops.append(op)
        for o in operands:
            self.used.add(o.name)
        v = Value(name, shape, nonneg)
        self.values.append(v)
        return v

    def emit_multi(self, op, text, shapes, operands):
        name = "%%v%d" % self.counter
        self.counter += 1
        self.lines.append("  %s:%d = %s" % (name, len(shapes), text))
        self.ops.append(op)
        for o in operands:
            self.used.add(o.name)
        out = []
        for i, s in enumerate(shapes):
            v = Value("%s#%d" % (name, i), s)
            self.values.append(v)
            out.append(v)
        return out

    def size(self, limit=None, odd_weight=0.45):
        """A dimension size: odd sizes and powers of two mixed; at most
        `limit` when given."""
        for _ in range(20):
            pool = ODD_SIZES if self.rng.random() < odd_weight else POW2_SIZES
            s = self.rng.choice(pool)
            if limit is None or s <= limit:
                return s
        return 1

    def shape(self, rank, budget=MAX_ELEMENTS):
        shape = []
        for i in range(rank):
            rest = budget // max(1, numel(shape))
            # leave room for the remaining dimensions
            rest = max(1, rest // (2 ** (rank - i - 1)))
            shape.append(self.size(rest))
        return shape

    # -- ops --------------------------------------------------------------
    def unary(self, x):
        r = self.rng
        kinds = ["exp", "square", "silu", "gelu", "relu", "tanh", "sigmoid",
                 "erf", "clamp", "scalar_mul", "scalar_add", "pow_int"]
        if x.nonneg:
            kinds += ["sqrt", "pow_frac"]
        k = r.choice(kinds)
        t = self.ty(x.shape)
        if k in ("exp", "square", "relu", "sigmoid", "sqrt"):
            return self.emit(k, "graph.%s %s : %s" % (k, x.name, t), x.shape,
                             [x], nonneg=True)
        if k in ("silu", "gelu", "tanh", "erf"):
            return self.emit(k, "graph.%s %s : %s" % (k, x.name, t), x.shape,
                             [x])
        if k == "clamp":
            lo, hi = r.choice([(-1.0, 1.0), (0.0, 6.0), (-0.5, 0.25),
                               (-3.0, 3.0)])
            return self.emit("clamp", "graph.clamp %s, min = %s, max = %s : %s"
                             % (x.name, flt(lo), flt(hi), t), x.shape, [x],
                             nonneg=lo >= 0)
        if k == "scalar_mul":
            c = r.choice([0.125, 0.5, 2.0, -3.0,
                          1.0 / math.sqrt(x.shape[-1])])
            return self.emit("scalar_mul", "graph.scalar_mul %s, %s : %s"
                             % (x.name, flt(c), t), x.shape, [x],
                             nonneg=x.nonneg and c > 0)
        if k == "scalar_add":
            c = r.choice([1.0, -0.5, 1e-05, 3.0])
            return self.emit("scalar_add", "graph.scalar_add %s, %s : %s"
                             % (x.name, flt(c), t), x.shape, [x],
                             nonneg=x.nonneg and c > 0)
        if k == "pow_int":
            e = r.choice([2.0, 3.0, -1.0])
            return self.emit("pow", "graph.pow %s, %s : %s" % (x.name, flt(e), t),
                             x.shape, [x], nonneg=e == 2.0)
        e = r.choice([0.5, -0.5, 1.5])
        return self.emit("pow", "graph.pow %s, %s : %s" % (x.name, flt(e), t),
                         x.shape, [x], nonneg=True)

    def where(self, x):
        """select(cmp(a, b), x, fill), a masked fill. The comparison reads
        two fresh arguments, not computed values: a computed operand
        rounds differently in fp64, in its dtype and on the GPU, and a
        mask flipped at a rounding boundary is a real difference of the
        programs' semantics, not a bug of any of them."""
        r = self.rng
        k = r.choice(["eq", "ne", "lt", "le", "gt", "ge"])
        a = self.arg(self.broadcast_shape_of(x.shape))
        b = self.arg(self.broadcast_shape_of(x.shape))
        cond_shape = _broadcast(a.shape, b.shape)
        mask = self.emit(k, "graph.%s %s, %s : (%s, %s) -> %s"
                         % (k, a.name, b.name, self.ty(a.shape),
                            self.ty(b.shape), self.ty(cond_shape)),
                         cond_shape, [a, b], nonneg=True)
        if not _broadcasts_to(cond_shape, x.shape):
            return mask  # the mask itself, a 0/1 value
        fill = self.arg(self.broadcast_shape_of(x.shape), role="bias")
        return self.emit("select", "graph.select %s, %s, %s : (%s, %s, %s) -> %s"
                         % (mask.name, x.name, fill.name, self.ty(cond_shape),
                            self.ty(x.shape), self.ty(fill.shape),
                            self.ty(x.shape)),
                         x.shape, [mask, x, fill])

    def cast(self, x):
        """An f16 or bf16 x widened to f32, erf, tanh or exp computed there,
        and rounded back, as mixed-precision code does. Only widening: a
        narrowing detour rounds more than the program's dtype, beyond the
        tolerance the runner (and the verifier) allow for that dtype. The
        f32 values in between are not offered to later ops, which work in
        the program's dtype."""
        if self.dtype == "f32":
            return self.unary(x)
        r = self.rng
        here = self.ty(x.shape)
        there = here.replace("x" + self.dtype + ">", "xf32>")
        y = self.emit("cast", "graph.cast %s : %s -> %s" % (x.name, here, there),
                      x.shape, [x])
        k = r.choice(["erf", "exp", "tanh"])
        z = self.emit(k, "graph.%s %s : %s" % (k, y.name, there), x.shape, [y])
        self.values.remove(y)
        self.values.remove(z)
        return self.emit("cast", "graph.cast %s : %s -> %s" % (z.name, there, here),
                         x.shape, [z], nonneg=k == "exp")

    def broadcast_shape_of(self, shape):
        """A shape that broadcasts to `shape`: some dimensions 1, maybe
        fewer leading ones."""
        r = self.rng
        s = [d if r.random() < 0.6 else 1 for d in shape]
        drop = r.randrange(len(s)) if r.random() < 0.3 else 0
        s = s[drop:]
        return s or [shape[-1]]

    def binary(self, x):
        r = self.rng
        k = r.choice(["add", "sub", "mul", "div", "add", "mul"])
        other = None
        compatible = [v for v in self.values if v is not x and
                      _broadcasts_to(v.shape, x.shape)]
        if compatible and r.random() < 0.4:
            other = r.choice(compatible)
        else:
            other = self.arg(self.broadcast_shape_of(x.shape),
                             role="act" if r.random() < 0.5 else "bias")
        lhs, rhs = (x, other) if r.random() < 0.75 or k == "div" else \
            (other, x)
        out = _broadcast(lhs.shape, rhs.shape)
        if numel(out) > MAX_ELEMENTS:
            return None
        return self.emit(k, "graph.%s %s, %s : (%s, %s) -> %s"
                         % (k, lhs.name, rhs.name, self.ty(lhs.shape),
                            self.ty(rhs.shape), self.ty(out)), out,
                         [lhs, rhs],
                         nonneg=k in ("add", "mul", "div") and lhs.nonneg
                         and rhs.nonneg)

    def matmul(self, x, rhs=None):
        if len(x.shape) < 2:
            return None
        *batch, m, k = x.shape
        if rhs is None:
            for _ in range(10):
                n = self.size()
                if m * k * n * max(1, numel(batch)) <= MAX_MACS and \
                        numel(batch) * m * n <= MAX_ELEMENTS and \
                        numel(batch) * k * n <= MAX_ELEMENTS:
                    break
            else:
                return None
            candidates = [v for v in self.values
                          if v.shape == batch + [k, n]]
            if candidates and self.rng.random() < 0.3:
                rhs = self.rng.choice(candidates)
            else:
                rhs = self.arg(batch + [k, n], role="weight",
                               scale=1.0 / math.sqrt(k))
        n = rhs.shape[-1]
        out = batch + [m, n]
        if numel(out) > MAX_ELEMENTS or m * k * n * max(1, numel(batch)) > \
                MAX_MACS:
            return None
        return self.emit("matmul", "graph.matmul %s, %s : (%s, %s) -> %s"
                         % (x.name, rhs.name, self.ty(x.shape),
                            self.ty(rhs.shape), self.ty(out)), out, [x, rhs])

    def reduce(self, x):
        k = self.rng.choice(["reduce_sum", "reduce_max"])
        d = self.rng.randrange(len(x.shape))
        out = list(x.shape)
        out[d] = 1
        return self.emit(k, "graph.%s %s, dim = %d : %s -> %s"
                         % (k, x.name, d, self.ty(x.shape), self.ty(out)),
                         out, [x], nonneg=x.nonneg)

    def softmax(self, x, dim=None):
        if dim is None:
            dim = len(x.shape) - 1 if self.rng.random() < 0.7 else \
                self.rng.randrange(len(x.shape))
        return self.emit("softmax", "graph.softmax %s, dim = %d : %s"
                         % (x.name, dim, self.ty(x.shape)), x.shape, [x],
                         nonneg=True)

    def rms_norm(self, x):
        eps = self.rng.choice([None, 1e-06])
        attr = "" if eps is None else " {eps = %s : f64}" % flt(eps)
        return self.emit("rms_norm", "graph.rms_norm %s%s : %s"
                         % (x.name, attr, self.ty(x.shape)), x.shape, [x])

    def transpose(self, x):
        rank = len(x.shape)
        if rank < 2:
            return None
        perm = list(range(rank))
        while perm == list(range(rank)):
            self.rng.shuffle(perm)
        out = [x.shape[p] for p in perm]
        return self.emit("transpose", "graph.transpose %s, perm = [%s] : %s "
                         "-> %s" % (x.name, ", ".join(map(str, perm)),
                                    self.ty(x.shape), self.ty(out)),
                         out, [x], nonneg=x.nonneg)

    def reshape(self, x):
        r = self.rng
        s = list(x.shape)
        choices = ["insert1"]
        if len(s) >= 2:
            choices.append("merge")
        if 1 in s and len(s) >= 2:
            choices.append("drop1")
        if any(_factor(d) for d in s):
            choices.append("split")
        k = r.choice(choices)
        if k == "insert1" and len(s) < 4:
            i = r.randrange(len(s) + 1)
            out = s[:i] + [1] + s[i:]
        elif k == "merge":
            i = r.randrange(len(s) - 1)
            out = s[:i] + [s[i] * s[i + 1]] + s[i + 2:]
        elif k == "drop1":
            i = r.choice([j for j, d in enumerate(s) if d == 1])
            out = s[:i] + s[i + 1:]
        elif k == "split" and len(s) < 4:
            i = r.choice([j for j, d in enumerate(s) if _factor(d)])
            f = _factor(s[i])
            out = s[:i] + [f, s[i] // f] + s[i + 1:]
        else:
            return None
        return self.emit("reshape", "graph.reshape %s : %s -> %s"
                         % (x.name, self.ty(s), self.ty(out)), out, [x],
                         nonneg=x.nonneg)

    def broadcast(self, x):
        s = list(x.shape)
        ones = [i for i, d in enumerate(s) if d == 1]
        if ones:
            out = list(s)
            i = self.rng.choice(ones)
            out[i] = self.size(MAX_ELEMENTS // numel(s))
            if out[i] == 1:
                out[i] = 3
        elif len(s) < 4:
            out = [self.rng.choice([2, 3])] + s
        else:
            return None
        if numel(out) > MAX_ELEMENTS:
            return None
        return self.emit("broadcast", "graph.broadcast %s : %s -> %s"
                         % (x.name, self.ty(s), self.ty(out)), out, [x],
                         nonneg=x.nonneg)

    def repeat(self, x):
        reps = [1] * len(x.shape)
        reps[self.rng.randrange(len(reps))] = self.rng.choice([2, 3])
        out = [d * k for d, k in zip(x.shape, reps)]
        if numel(out) > MAX_ELEMENTS:
            return None
        return self.emit("repeat", "graph.repeat %s, repeats = [%s] : %s -> %s"
                         % (x.name, ", ".join(map(str, reps)),
                            self.ty(x.shape), self.ty(out)), out, [x],
                         nonneg=x.nonneg)

    def concat(self, x):
        d = self.rng.randrange(len(x.shape))
        same = [v for v in self.values if v is not x and
                len(v.shape) == len(x.shape) and
                all(a == b for i, (a, b) in enumerate(zip(v.shape, x.shape))
                    if i != d)]
        if same and self.rng.random() < 0.6:
            y = self.rng.choice(same)
        else:
            ys = list(x.shape)
            ys[d] = self.size(max(1, MAX_ELEMENTS // numel(x.shape)))
            y = self.arg(ys)
        out = list(x.shape)
        out[d] += y.shape[d]
        if numel(out) > MAX_ELEMENTS:
            return None
        return self.emit("concat", "graph.concat (%s, %s) dim = %d : (%s, %s) "
                         "-> %s" % (x.name, y.name, d, self.ty(x.shape),
                                    self.ty(y.shape), self.ty(out)),
                         out, [x, y], nonneg=x.nonneg and y.nonneg)

    def split(self, x):
        dims = [i for i, d in enumerate(x.shape) if d >= 2]
        if not dims:
            return None
        d = self.rng.choice(dims)
        a = self.rng.randrange(1, x.shape[d])
        sizes = [a, x.shape[d] - a]
        shapes = []
        for n in sizes:
            s = list(x.shape)
            s[d] = n
            shapes.append(s)
        vs = self.emit_multi("split", "graph.split %s, dim = %d, sizes = [%d, "
                             "%d] : %s -> %s, %s"
                             % (x.name, d, sizes[0], sizes[1],
                                self.ty(x.shape), self.ty(shapes[0]),
                                self.ty(shapes[1])), shapes, [x])
        for v in vs:
            v.nonneg = x.nonneg
        return vs[self.rng.randrange(2)]

    # -- motifs -----------------------------------------------------------
    def attention(self):
        r = self.rng
        while True:
            b = r.choice([1, 2, 3])
            s = r.choice([1, 7, 16, 17, 64, 96])
            s2 = r.choice([s, 7, 16, 17, 64])
            d = r.choice([8, 16, 17, 32, 64, 96])
            dv = r.choice([d, 16, 64])
            if b * s * s2 * max(d, dv) <= MAX_MACS and \
                    b * max(s, s2) * max(d, dv, s2) <= MAX_ELEMENTS:
                break
        q = self.arg([b, s, d])
        k = self.arg([b, s2, d])
        v = self.arg([b, s2, dv])
        kt = self.transpose_perm(k, [0, 2, 1])
        logits = self.matmul(q, kt)
        scaled = self.emit("scalar_mul", "graph.scalar_mul %s, %s : %s"
                           % (logits.name, flt(1.0 / math.sqrt(d)),
                              self.ty(logits.shape)), logits.shape, [logits])
        if r.random() < 0.6:
            p = self.softmax(scaled, dim=2)
        else:  # the softmax written out, as importers of IREE's graphs see it
            m = self.emit("reduce_max", "graph.reduce_max %s, dim = 2 : %s -> "
                          "%s" % (scaled.name, self.ty(scaled.shape),
                                  self.ty([b, s, 1])), [b, s, 1], [scaled])
            z = self.emit("sub", "graph.sub %s, %s : (%s, %s) -> %s"
                          % (scaled.name, m.name, self.ty(scaled.shape),
                             self.ty(m.shape), self.ty(scaled.shape)),
                          scaled.shape, [scaled, m])
            e = self.emit("exp", "graph.exp %s : %s"
                          % (z.name, self.ty(z.shape)), z.shape, [z],
                          nonneg=True)
            t = self.emit("reduce_sum", "graph.reduce_sum %s, dim = 2 : %s -> "
                          "%s" % (e.name, self.ty(e.shape),
                                  self.ty([b, s, 1])), [b, s, 1], [e],
                          nonneg=True)
            p = self.emit("div", "graph.div %s, %s : (%s, %s) -> %s"
                          % (e.name, t.name, self.ty(e.shape),
                             self.ty(t.shape), self.ty(e.shape)), e.shape,
                          [e, t], nonneg=True)
        return self.matmul(p, v)

    def transpose_perm(self, x, perm):
        out = [x.shape[p] for p in perm]
        return self.emit("transpose", "graph.transpose %s, perm = [%s] : %s -> "
                         "%s" % (x.name, ", ".join(map(str, perm)),
                                 self.ty(x.shape), self.ty(out)), out, [x])

    def rmsnorm_matmul(self):
        r = self.rng
        m = r.choice([1, 3, 7, 8, 16, 17])
        k = r.choice([64, 96, 128, 1000])
        x = self.arg([m, k])
        y = self.rms_norm(x)
        if r.random() < 0.5:
            g = self.arg([k], role="bias")
            y = self.emit("mul", "graph.mul %s, %s : (%s, %s) -> %s"
                          % (y.name, g.name, self.ty(y.shape), self.ty([k]),
                             self.ty(y.shape)), y.shape, [y, g])
        return self.matmul(y)

    def shared_matmuls(self):
        r = self.rng
        m = r.choice([1, 3, 7, 8, 16, 17, 96])
        k = r.choice([16, 17, 64, 96, 128])
        n = r.choice([7, 16, 64, 96, 128])
        while m * k * n > MAX_MACS // 2:
            n = max(1, n // 2)
        x = self.arg([m, k])
        w1 = self.arg([k, n], role="weight", scale=1.0 / math.sqrt(k))
        w2 = self.arg([k, n], role="weight", scale=1.0 / math.sqrt(k))
        a = self.matmul(x, w1)
        b = self.matmul(x, w2)
        if r.random() < 0.6:
            a = self.emit("silu", "graph.silu %s : %s"
                          % (a.name, self.ty(a.shape)), a.shape, [a])
            return self.emit("mul", "graph.mul %s, %s : (%s, %s) -> %s"
                             % (a.name, b.name, self.ty(a.shape),
                                self.ty(b.shape), self.ty(a.shape)), a.shape,
                             [a, b])
        return b

    def conv_tiles(self):
        """PET's site: tiles of an image convolved with one weight ("same"
        padding) and concatenated along H or W, each tile maybe through
        the same activation."""
        r = self.rng
        c, o = r.choice([1, 3, 4]), r.choice([2, 4, 7])
        h, w = r.choice([3, 7, 8]), r.choice([3, 7, 8])
        tiles = r.choice([2, 3])
        weight = self.arg([o, c, 3, 3], role="weight",
                          scale=1.0 / math.sqrt(9 * c))
        act = r.choice([None, "relu", "silu"])
        outs = []
        for _ in range(tiles):
            x = self.arg([1, c, h, w])
            y = self.emit("conv2d", "graph.conv2d %s, %s {padding = array<i64: "
                          "1, 1>} : (%s, %s) -> %s"
                          % (x.name, weight.name, self.ty(x.shape),
                             self.ty(weight.shape), self.ty([1, o, h, w])),
                          [1, o, h, w], [x, weight])
            if act:
                y = self.emit(act, "graph.%s %s : %s"
                              % (act, y.name, self.ty(y.shape)), y.shape, [y])
            outs.append(y)
        d = r.choice([2, 3])
        shape = [1, o, h, w]
        shape[d] *= tiles
        return self.emit("concat", "graph.concat (%s) dim = %d : (%s) -> %s"
                         % (", ".join(v.name for v in outs), d,
                            ", ".join(self.ty(v.shape) for v in outs),
                            self.ty(shape)), shape, outs)


def _factor(d):
    """A proper factor of d (for splitting a dimension), or None."""
    for f in (2, 3, 4, 7, 8, 16):
        if d % f == 0 and d > f:
            return f
    return None


def _broadcasts_to(s, t):
    if len(s) > len(t):
        return False
    return all(a == b or a == 1 for a, b in zip(reversed(s), reversed(t)))


def _broadcast(a, b):
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + list(a)
    b = [1] * (n - len(b)) + list(b)
    return [max(x, y) for x, y in zip(a, b)]


OPS = ["unary", "unary", "unary", "binary", "binary", "matmul", "reduce",
       "softmax", "rms_norm", "transpose", "reshape", "broadcast", "repeat",
       "concat", "split", "where", "cast"]
MOTIFS = [None, None, None, "attention", "attention", "rmsnorm_matmul",
          "rmsnorm_matmul", "shared_matmuls", "shared_matmuls", "conv_tiles"]


def generate(seed):
    rng = random.Random(seed)
    dtype = rng.choice(DTYPES)
    scale = rng.choice(SCALES[dtype])
    b = _Builder(rng, dtype, scale)
    target = rng.randint(2, 10)
    motif = rng.choice(MOTIFS)
    if motif:
        getattr(b, motif)()
    else:
        b.arg(b.shape(rng.randint(1, 4)))
    while len(b.ops) < target:
        # continue from the newest value most of the time: chains, not
        # forests of one-op trees
        pool = b.values or [a for a, _, _ in b.args]
        if rng.random() < 0.7:
            x = pool[-1]
        else:
            x = rng.choice(pool)
        op = rng.choice(OPS)
        if op == "matmul" and len(x.shape) < 2:
            op = "reshape"
        getattr(b, op)(x)
    results = [v for v in b.values if v.name not in b.used]
    results = results[-3:]
    args = ", ".join("%s: %s" % (v.name, b.ty(v.shape)) for v, _, _ in b.args)
    rtypes = ", ".join(b.ty(v.shape) for v in results)
    text = ["// random program: seed %d, %s, input scale %g, motif %s"
            % (seed, dtype, scale, motif or "none"),
            "func.func @main(%s) -> (%s) {" % (args, rtypes)]
    text += b.lines
    text.append("  return %s : %s" % (", ".join(v.name for v in results),
                                      rtypes))
    text.append("}")
    arg_info = [(v.shape, role, s) for v, role, s in b.args]
    return RandomProgram(seed, dtype, scale, motif, "\n".join(text) + "\n",
                         arg_info, b.ops)


if __name__ == "__main__":
    import sys
    for s in sys.argv[1:] or ["0"]:
        print(generate(int(s)).text)
