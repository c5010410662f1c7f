#!/usr/bin/env python3
"""Writes the graph-dialect models that bench/models (the importers'
full-size models) does not have: the NASNet-A normal cell (Zoph et al.,
CVPR'18, figure 4) as TASO and Tensat evaluate it, at NASNet-A Mobile's
28x28 stage (batch 1, F = 44 filters). Each separable convolution is relu,
a depthwise kxk convolution (groups = F), a pointwise 1x1 convolution and
a folded batch norm (a per-channel bias), applied once (NASNet applies the
stack twice; once keeps the file short and the structure the same).

Run from the repository root: python3 bench/graph-models/generate.py
"""
import pathlib

N, F, H = 1, 44, 28
T = f"tensor<{N}x{F}x{H}x{H}xf32>"


class Emitter:
    def __init__(self):
        self.lines, self.args, self.n = [], [], 0

    def arg(self, shape):
        name = f"%w{len(self.args)}"
        self.args.append((name, shape))
        return name

    def op(self, text):
        name = f"%{self.n}"
        self.n += 1
        self.lines.append(f"    {name} = {text}")
        return name

    def sep(self, x, k):
        r = self.op(f"graph.relu {x} : {T}")
        dw = self.arg(f"tensor<{F}x1x{k}x{k}xf32>")
        p = k // 2
        d = self.op(f"graph.conv2d {r}, {dw} {{groups = {F} : i64, padding = array<i64: {p}, {p}>}} "
                    f": ({T}, tensor<{F}x1x{k}x{k}xf32>) -> {T}")
        pw = self.arg(f"tensor<{F}x{F}x1x1xf32>")
        c = self.op(f"graph.conv2d {d}, {pw} : ({T}, tensor<{F}x{F}x1x1xf32>) -> {T}")
        b = self.arg(f"tensor<{F}x1x1xf32>")
        return self.op(f"graph.add {c}, {b} : ({T}, tensor<{F}x1x1xf32>) -> {T}")

    def avg(self, x):
        return self.op(f"graph.avg_pool2d {x}, kernel = [3, 3] {{padding = array<i64: 1, 1>}} : {T} -> {T}")

    def add(self, a, b):
        return self.op(f"graph.add {a}, {b} : ({T}, {T}) -> {T}")


def nasnet_a_normal_cell():
    e = Emitter()
    h, hp = "%h", "%hprev"
    b1 = e.add(e.sep(h, 3), h)
    b2 = e.add(e.sep(hp, 3), e.sep(h, 5))
    b3 = e.add(e.avg(h), hp)
    b4 = e.add(e.avg(hp), e.avg(hp))
    b5 = e.add(e.sep(hp, 5), e.sep(hp, 3))
    # The cell's output: the concatenation of h_prev and the five blocks.
    parts, c = [hp, b1, b2, b3, b4, b5], F
    out = parts[0]
    for p in parts[1:]:
        t_in = f"tensor<{N}x{c}x{H}x{H}xf32>"
        c += F
        out = e.op(f"graph.concat({out}, {p}) dim = 1 : ({t_in}, {T}) -> tensor<{N}x{c}x{H}x{H}xf32>")
    args = ", ".join([f"%h: {T}", f"%hprev: {T}"] + [f"{n}: {s}" for n, s in e.args])
    rt = f"tensor<{N}x{c}x{H}x{H}xf32>"
    body = "\n".join(e.lines)
    return (f"// NASNet-A normal cell (bench/graph-models/generate.py; do not edit):\n"
            f"// inputs h, h_prev {T}, then the weights.\n"
            f"module {{\n  func.func @nasnet_a_cell({args}) -> {rt} {{\n{body}\n"
            f"    return {out} : {rt}\n  }}\n}}\n")


here = pathlib.Path(__file__).resolve().parent
(here / "nasnet_a_cell.mlir").write_text(nasnet_a_normal_cell())
