"""Strided slices and pooling windows as graph ops, for both importers.

The graph dialect slices by `split` and pools by `max_pool2d`/`avg_pool2d`
(no dilation, symmetric padding of at most half the window, padded zeros
counted). What ONNX and PyTorch pool beyond that (1-d and 3-d inputs,
dilations, asymmetric or uncounted padding, ceil_mode's partial windows) is
built here exactly from strided slices, concatenations and reductions.
Whatever has no graph form raises GraphError, which each importer reports at
its node.
"""

from __future__ import annotations

import math

from .graph import Graph, GraphError, Tensor


def strided(g: Graph, x: Tensor, ax: int, start: int, count: int, step: int, loc=None) -> Tensor:
    """Elements start, start + step, ... (count of them) of x along ax, by
    splits and reshapes: whole groups of `step` keep their first element."""
    n = x.shape[ax]
    if count < 1 or start < 0 or step < 1 or start + step * (count - 1) >= n:
        raise GraphError(f"a strided slice of {count} elements from {start} by {step} does not "
                         f"fit a dimension of {n}")

    def piece(t, lo, size):
        m = t.shape[ax]
        if (lo, size) == (0, m):
            return t
        parts = g.split(t, ax, [v for v in (lo, size, m - lo - size) if v > 0], loc=loc)
        return parts[1 if lo > 0 else 0]

    if step == 1 or count == 1:
        return piece(x, start, count)
    whole = count if start + step * count <= n else count - 1
    parts = []
    if whole:
        block = piece(x, start, step * whole)
        shape = x.shape[:ax] + (whole, step) + x.shape[ax + 1:]
        first = g.split(g.reshape(block, shape, loc=loc), ax + 1, [1, step - 1], loc=loc)[0]
        parts.append(g.reshape(first, x.shape[:ax] + (whole,) + x.shape[ax + 1:], loc=loc))
    if whole < count:
        parts.append(piece(x, start + step * whole, 1))
    return parts[0] if len(parts) == 1 else g.concat(parts, ax, loc=loc)


MAX_PIECES = 64


def take(g: Graph, x: Tensor, ax: int, positions, loc=None) -> Tensor:
    """x at the given positions along ax, in order (a gather with constant
    indices, a reversal): maximal runs of positions a constant stride >= 1
    apart, each one strided slice, concatenated. At most MAX_PIECES runs,
    so that the graph stays of the program's size."""
    positions = [int(p) for p in positions]
    n = x.shape[ax]
    if not positions:
        raise GraphError("no positions to take (the graph dialect has no empty tensors)")
    if any(not 0 <= p < n for p in positions):
        raise GraphError(f"a position out of range for a dimension of {n}")
    runs = []  # [first, count, stride]
    for p in positions:
        if runs:
            first, count, stride = runs[-1]
            last = first + (count - 1) * (stride or 1)
            if count == 1 and p > first:
                runs[-1] = [first, 2, p - first]
                continue
            if count > 1 and p == last + stride:
                runs[-1][1] += 1
                continue
        runs.append([p, 1, None])
    if len(runs) > MAX_PIECES:
        raise GraphError(f"{len(positions)} positions in {len(runs)} strided runs (at most "
                         f"{MAX_PIECES}: a graph of slices that size is no longer the program)")
    pieces = [strided(g, x, ax, first, count, stride or 1, loc) for first, count, stride in runs]
    return pieces[0] if len(pieces) == 1 else g.concat(pieces, ax, loc=loc)


def pooled_length(n: int, k: int, s: int, d: int, b: int, e: int, ceil: bool) -> int:
    """The pooled length (ONNX's and PyTorch's rule): a window of k taps d
    apart every s positions over n + b + e; with ceil_mode a last partial
    window, if it starts inside the input or its leading padding."""
    span = n + b + e - ((k - 1) * d + 1)
    if span < 0:
        raise GraphError(f"a window of {k} taps (dilation {d}) is longer than the padded "
                         f"input ({n + b + e})")
    out = (-(-span // s) if ceil else span // s) + 1
    if ceil and (out - 1) * s >= n + b:
        out -= 1
    return out


def pool(g: Graph, x: Tensor, kind: str, kernel, strides, dilations, begin, end,
         ceil: bool = False, counted: bool = True, zeros=None, loc=None) -> Tensor:
    """Max ("max") or average ("avg") pooling of x (N, C, spatial...) over its
    1, 2 or 3 spatial dimensions. `counted`: an average divides by the
    window's positions inside the padded input (count_include_pad), else by
    those inside the input. `zeros(shape, dtype)`, where given, makes a
    tensor of zeros (the average of a window wholly in counted padding).

    Through graph's 2-d pooling where it computes the same: a 1-d window is a
    2-d one of height 1, and a 3-d window is separable (max over a box is the
    max over D of the max over H x W; with padded zeros counted, the average
    is the average over D of the average over H x W). Everything else window
    by window along each axis (pool_axis)."""
    nd = x.rank - 2
    if nd not in (1, 2, 3):
        raise GraphError(f"{kind} pooling of a rank-{x.rank} input (1-, 2- or 3-d only)")
    kernel, strides, dilations = list(kernel), list(strides), list(dilations)
    begin, end = list(begin), list(end)
    if not len(kernel) == len(strides) == len(dilations) == len(begin) == len(end) == nd:
        raise GraphError(f"kernel {kernel}, strides {strides}, dilations {dilations} or pads "
                         f"{begin + end} do not match a {nd}-d input")
    if min(kernel + strides + dilations) < 1 or min(begin + end) < 0:
        raise GraphError(f"kernel {kernel}, strides {strides} and dilations {dilations} must be "
                         f"positive and pads {begin + end} not negative")
    sizes = x.shape[2:]
    outs = [pooled_length(*v, ceil) for v in zip(sizes, kernel, strides, dilations, begin, end)]
    floor = [pooled_length(*v, False) for v in zip(sizes, kernel, strides, dilations, begin, end)]
    native = dilations == [1] * nd and begin == end and outs == floor and \
        all(2 * b <= k for b, k in zip(begin, kernel)) and \
        (kind == "max" or counted or not any(begin))
    if not native:
        y = x
        for i in range(nd):
            y = pool_axis(g, y, 2 + i, outs[i], kernel[i], strides[i], dilations[i], begin[i],
                          end[i], kind, counted, zeros, loc)
        return y
    op = g.max_pool2d if kind == "max" else g.avg_pool2d
    n, c = x.shape[:2]
    if nd == 2:
        return op(x, tuple(kernel), tuple(strides), tuple(begin), loc=loc)
    if nd == 1:
        y = op(g.reshape(x, (n, c, 1, x.shape[2]), loc=loc), (1, kernel[0]), (1, strides[0]),
               (0, begin[0]), loc=loc)
        return g.reshape(y, (n, c, y.shape[3]), loc=loc)
    d, h, w = x.shape[2:]
    y = g.reshape(x, (n, c, d, h * w), loc=loc)
    if (kernel[0], strides[0], begin[0]) != (1, 1, 0):
        y = op(y, (kernel[0], 1), (strides[0], 1), (begin[0], 0), loc=loc)
    od = y.shape[2]
    y = g.reshape(y, (n, c * od, h, w), loc=loc)
    if tuple(kernel[1:]) != (1, 1) or tuple(strides[1:]) != (1, 1) or any(begin[1:]):
        y = op(y, tuple(kernel[1:]), tuple(strides[1:]), tuple(begin[1:]), loc=loc)
    return g.reshape(y, (n, c, od) + tuple(y.shape[2:]), loc=loc)


def pool_axis(g: Graph, x: Tensor, ax: int, count: int, k: int, s: int, d: int, b: int, e: int,
              kind: str, counted: bool, zeros=None, loc=None) -> Tensor:
    """Pooling along one axis, exactly: output i reads the positions
    i*s - b + j*d (j < k) that lie in the input (padding is -inf for max,
    left out of the sum for avg), and an average divides by the positions
    inside [-b, n + e) if padded zeros count, else by those in the input.
    Axis by axis is exact for a box: its positions in the input are a
    product of the axes' positions, and so is either divisor."""
    n = x.shape[ax]
    windows = []
    for i in range(count):
        taps = tuple(p for p in (i * s - b + j * d for j in range(k)) if 0 <= p < n)
        inside = sum(1 for j in range(k) if i * s - b + j * d < n + e)
        if not taps and not (kind == "avg" and counted and zeros is not None):
            raise GraphError(f"window {i} of spatial axis {ax - 2} lies wholly in the padding "
                             f"(its value would be {'-inf' if kind == 'max' else 'NaN or 0'})")
        windows.append((taps, inside if counted else len(taps)))
    return pool_windows(g, x, ax, windows, kind, zeros, loc)


def pool_windows(g: Graph, x: Tensor, ax: int, windows, kind: str, zeros=None,
                 loc=None) -> Tensor:
    """Output i of axis ax is the max, or the sum over the divisor, of x at
    the positions windows[i] = (positions, divisor). Consecutive outputs
    whose positions all move on by one stride form a run; each tap of a run
    is one strided slice, the taps stacked on a new axis and reduced.
    A window of no positions (padded zeros only) is zeros(shape, dtype)."""
    runs = []  # [first output, last output, stride]
    for i, (taps, divisor) in enumerate(windows):
        if runs and runs[-1][1] == i - 1:
            prev, prev_div = windows[i - 1]
            steps = {p - q for p, q in zip(taps, prev)}
            stride = runs[-1][2]
            if len(taps) == len(prev) and taps and divisor == prev_div and len(steps) == 1 and \
                    min(steps) >= 1 and stride in (None, min(steps)):
                runs[-1][1:] = [i, min(steps)]
                continue
        runs.append([i, i, None])
    pieces = []
    for first, last, stride in runs:
        taps, divisor = windows[first]
        m = last - first + 1
        if not taps:
            pieces.append(zeros(x.shape[:ax] + (m,) + x.shape[ax + 1:], x.dtype))
            continue
        cols = [strided(g, x, ax, p, m, stride or 1, loc) for p in taps]
        y = cols[0]
        if len(cols) > 1:
            shape = y.shape[:ax + 1] + (1,) + y.shape[ax + 1:]
            y = g.concat([g.reshape(c, shape, loc=loc) for c in cols], ax + 1, loc=loc)
            y = (g.reduce_max if kind == "max" else g.reduce_sum)(y, ax + 1, loc=loc)
            y = g.reshape(y, cols[0].shape, loc=loc)
        if kind == "avg" and divisor != 1:
            y = g.scalar_mul(y, 1.0 / divisor, loc=loc)
        pieces.append(y)
    return pieces[0] if len(pieces) == 1 else g.concat(pieces, ax, loc=loc)


def adaptive_pool(g: Graph, x: Tensor, kind: str, sizes, loc=None) -> Tensor:
    """PyTorch's adaptive pooling to `sizes` over the trailing len(sizes)
    axes: output i of an axis of n reads positions floor(i n / o) up to
    ceil((i + 1) n / o), windows that may differ in size and overlap."""
    y = x
    for ax, o in zip(range(x.rank - len(sizes), x.rank), sizes):
        n = y.shape[ax]
        if o < 1:
            raise GraphError(f"adaptive pooling to size {o}")
        if o == n:
            continue
        windows = []
        for i in range(o):
            lo, hi = (i * n) // o, -(-((i + 1) * n) // o)
            windows.append((tuple(range(lo, hi)), hi - lo))
        y = pool_windows(g, y, ax, windows, kind, None, loc)
    return y


def global_pool(g: Graph, x: Tensor, kind: str, loc=None) -> Tensor:
    """One window over every spatial dimension (kept as 1): graph's 2-d
    pooling for a 4-d input, reductions over the spatial axes otherwise."""
    if x.rank < 3:
        raise GraphError(f"global pooling of a rank-{x.rank} input (N, C and spatial "
                         f"dimensions)")
    if x.rank == 4:
        op = g.avg_pool2d if kind == "avg" else g.max_pool2d
        return op(x, x.shape[2:], x.shape[2:], loc=loc)
    y = x
    for ax in range(2, x.rank):
        y = (g.reduce_sum if kind == "avg" else g.reduce_max)(y, ax, loc=loc)
    return g.scalar_mul(y, 1.0 / math.prod(x.shape[2:]), loc=loc) if kind == "avg" else y
