"""A µGraph program: one function of an MLIR module, at any level.

``Program`` wraps the module text and the function's name, with the values
of the inputs that are bound to it (the weights an importer lifted). Every
method runs mirage-opt's own passes through the native module, so a program
means exactly what ``mirage-opt`` makes of the same text.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from . import _mirage_opt as _native
from ._mirage_opt import MirageError

_DTYPES = {"f16": np.float16, "bf16": None, "f32": np.float32}
_TYPE = re.compile(r"tensor<((?:\d+x)*)(f16|bf16|f32|i64|i32)>")


@dataclass(frozen=True)
class TensorInfo:
    """Name, shape and dtype of a function argument or result."""
    name: str
    shape: tuple
    dtype: str


def _parse_types(text: str) -> list:
    return [(tuple(int(d) for d in m.group(1).split("x") if d), m.group(2))
            for m in _TYPE.finditer(text)]


class Program:
    """One function (`function`) of an MLIR module (`text`)."""

    def __init__(self, text: str, function: str | None = None, *,
                 input_names: Sequence[str] | None = None,
                 bound: Mapping[str, np.ndarray] | None = None,
                 source: str = "<python>"):
        self.source = source
        self.text = _native.parse_module(text, source)
        names = _native.function_names(self.text, source)
        if function is None:
            candidates = [n for n in names if not self._is_candidate(n)]
            if len(candidates) != 1:
                raise MirageError(f"the module has functions {names}: name one")
            function = candidates[0]
        if function not in names:
            raise MirageError(f"no function @{function} in the module (it has {names})")
        self.function = function
        self._signature()
        if input_names is not None:
            if len(input_names) != len(self.inputs):
                raise MirageError(f"{len(input_names)} input names for "
                                  f"{len(self.inputs)} inputs")
            self.inputs = [TensorInfo(n, i.shape, i.dtype)
                           for n, i in zip(input_names, self.inputs)]
        self.bound = {}
        for name, value in (bound or {}).items():
            self.bind(name, value)

    # -- construction --------------------------------------------------------

    @classmethod
    def parse(cls, text: str, function: str | None = None, **kwargs) -> "Program":
        """A program from MLIR text (checked by mirage-opt's verifiers)."""
        return cls(text, function, **kwargs)

    @classmethod
    def load(cls, path: str | os.PathLike, function: str | None = None) -> "Program":
        with open(path, encoding="utf-8") as f:
            return cls(f.read(), function, source=str(path))

    def save(self, path: str | os.PathLike, locations: bool = True) -> None:
        """Writes the module; without `locations`, in the form a file meant
        for other machines takes (no source paths)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.mlir(locations))

    def mlir(self, locations: bool = True) -> str:
        """The module text, with or without its source locations."""
        return self.text if locations else _native.parse_module(self.text, self.source, False)

    def _derive(self, text: str, function: str | None = None) -> "Program":
        """A program for new module text with the same inputs and bindings."""
        p = Program(text, function or self.function, source=self.source)
        if len(p.inputs) == len(self.inputs):
            p.inputs = [TensorInfo(a.name, b.shape, b.dtype)
                        for a, b in zip(self.inputs, p.inputs)]
            p.bound = dict(self.bound)
        return p

    def _is_candidate(self, name: str) -> bool:
        return False

    def _signature(self) -> None:
        m = re.search(r"func\.func @" + re.escape(self.function) + r"\((.*?)\)\s*->\s*(\(.*?\)|tensor<[^>]*>)",
                      self.text, re.S)
        if not m:
            m = re.search(r"func\.func @" + re.escape(self.function) + r"\((.*?)\)", self.text, re.S)
            results = []
        else:
            results = _parse_types(m.group(2))
        args = _parse_types(m.group(1))
        self.inputs = [TensorInfo(f"arg{i}", s, d) for i, (s, d) in enumerate(args)]
        self.outputs = [TensorInfo(f"result{i}", s, d) for i, (s, d) in enumerate(results)]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        ins = ", ".join(f"{i.name}: {_short(i)}" for i in self.user_inputs)
        outs = ", ".join(_short(o) for o in self.outputs)
        extra = f", {len(self.bound)} bound" if self.bound else ""
        return f"<Program @{self.function}({ins}) -> ({outs}){extra}>"

    # -- inputs ----------------------------------------------------------------

    def bind(self, name: str, value) -> None:
        """Fixes input `name` to `value` (a weight): ``run`` supplies it."""
        info = self._input(name)
        array = np.asarray(value)
        if tuple(array.shape) != info.shape:
            raise MirageError(f"input {name!r} has shape {list(info.shape)}, the value "
                              f"{list(array.shape)}")
        self.bound[name] = array

    def _input(self, name: str) -> TensorInfo:
        for i in self.inputs:
            if i.name == name:
                return i
        raise MirageError(f"no input named {name!r}: {[i.name for i in self.inputs]}")

    @property
    def user_inputs(self) -> list:
        """The inputs ``run`` takes (the ones not bound)."""
        return [i for i in self.inputs if i.name not in self.bound]

    # -- running -----------------------------------------------------------------

    def run(self, inputs: Sequence | Mapping, mode: str = "fp64",
            memory_limit_mib: int = 0) -> list:
        """Runs the function in the reference interpreter: one NumPy array per
        unbound input, in order (or a mapping by name); returns float64 arrays,
        one per result (index results as int64 or int32). `mode` is "fp64"
        (every op in double precision) or
        "native" (each op's result rounded to its dtype)."""
        if isinstance(inputs, Mapping):
            values = dict(inputs)
        else:
            inputs = list(inputs)
            user = self.user_inputs
            if len(inputs) != len(user):
                raise MirageError(f"@{self.function} takes {len(user)} inputs "
                                  f"({[u.name for u in user]}), {len(inputs)} were given")
            values = {u.name: v for u, v in zip(user, inputs)}
        arrays = []
        for info in self.inputs:
            if info.name in values:
                v = values[info.name]
            elif info.name in self.bound:
                v = self.bound[info.name]
            else:
                raise MirageError(f"no value for input {info.name!r}")
            # np.array, not np.ascontiguousarray: the latter turns a rank-0
            # value into shape [1].
            arrays.append(np.array(v, dtype=np.float64, order="C", copy=True))
        outs = _native.interpret(self.text, self.function, arrays, mode,
                                 int(memory_limit_mib) << 20, self.source)
        # An index result (topk's indices) comes back as the integer dtype it
        # is declared with; the interpreter holds it exactly as a double.
        ints = {"i64": np.int64, "i32": np.int32}
        return [o.astype(ints[info.dtype]) if info.dtype in ints else o
                for o, info in zip(outs, self.outputs)]

    # -- passes ---------------------------------------------------------------------

    def apply(self, pipeline: str) -> tuple:
        """Runs a mirage-opt pass pipeline on the module, e.g.
        ``"graph-to-kernel"`` or ``"builtin.module(superoptimize{target=sm_90})"``;
        returns (program, diagnostics)."""
        if not pipeline.startswith("builtin.module("):
            pipeline = f"builtin.module({pipeline})"
        text, diags = _native.run_pipeline(self.text, pipeline, self.source)
        return self._derive(text), diags

    def to_kernels(self) -> "Program":
        """The default schedule: one predefined kernel per graph op."""
        return self.apply("graph-to-kernel")[0]

    def superoptimize(self, target: str = "sm_90", *, state_budget: int | None = None,
                      time_limit: float | None = None, threads: int | None = None,
                      cache: str = "on", verbose: bool = True, progress: bool = False,
                      **options) -> "Program":
        """The µGraph search (``--superoptimize``): returns the fastest µGraph
        the cost model finds for `target`, verified before it is returned. Its
        remark (rules, costs, verification) is in ``self.last_remarks``; with
        `verbose` it is also printed to stderr. Budgets: `state_budget` states
        per subprogram, `time_limit` seconds (a reported safety cut).
        `progress` prints the search's progress on stderr as it runs."""
        opts = {"target": target, "cache": cache}
        if state_budget is not None:
            opts["state-budget"] = int(state_budget)
        if time_limit is not None:
            opts["time-budget"] = time_limit
        if threads is not None:
            opts["threads"] = int(threads)
        if progress:
            opts["progress"] = True
        for k, v in options.items():
            opts[k.replace("_", "-")] = v
        text = " ".join(f"{k}={_option(v)}" for k, v in opts.items())
        program, diags = self.apply(f"superoptimize{{{text}}}")
        program.last_remarks = diags
        if verbose and diags:
            print(diags, file=sys.stderr, end="" if diags.endswith("\n") else "\n")
        return program

    def verify(self, other: "Program", **options) -> str:
        """Checks that `other` computes what this program computes
        (``--verify-equivalence``: the finite-field test with its bound, then
        floating-point checks). Returns the verdict remark; raises MirageError
        with the differing position if they differ."""
        a = _rename(self.text, self.function, "mirage_original")
        b = _rename(other.text, other.function, "mirage_candidate")
        text = _native.merge_modules(a, b, self.source)
        opts = " ".join(f"{k.replace('_', '-')}={_option(v)}" for k, v in options.items())
        pipeline = f"verify-equivalence{{original=mirage_original candidate=mirage_candidate {opts}}}"
        _, diags = _native.run_pipeline(text, f"builtin.module({pipeline})",
                                        "<both programs, renamed>")
        return diags.strip()

    @property
    def target(self) -> str | None:
        """The target the program was searched for (its ``mirage.target``),
        which ``lower()`` and ``estimate_cost()`` use by default; None before
        a search."""
        return _native.function_attribute(self.text, self.function, "mirage.target",
                                          self.source)

    def estimate_cost(self, target: str | None = None) -> str:
        """The analytic cost model's estimate (``--estimate-cost``), as remarks:
        for `target`, by default the one the program was searched for, else
        sm_90."""
        opts = "" if target is None else f"{{target={target}}}"
        return self.apply(f"estimate-cost{opts}")[1]

    def lower(self, target: str | None = None, output: str | os.PathLike | None = None, *,
              search: bool = False, cubin: bool = True, chip: str | None = None) -> dict:
        """Lowers to PTX (and a cubin) for `target` with ``--mirage-to-ptx``,
        writing <output>.ptx, .cubin and the .json manifest that
        ``mirage-gpu-run`` (or its ``--emulate``) runs. Returns their paths.
        By default the target is the one the program was searched for
        (``self.target``), else sm_90; naming another warns. `chip` is the
        old name of `target`."""
        if chip is not None:
            if target is not None and target != chip:
                raise MirageError(f"lower: target={target} and chip={chip} differ")
            warnings.warn("lower(chip=...) is deprecated: use target=", DeprecationWarning,
                          stacklevel=2)
            target = chip
        if output is None:
            output = os.path.join(tempfile.mkdtemp(prefix="mirage-opt-"), self.function)
        output = os.fspath(output)
        opts = f"output={output} search={_option(search)} cubin={_option(cubin)}"
        if target is not None:
            opts = f"target={target} " + opts
        _, diags = self.apply(f"mirage-to-ptx{{{opts}}}")
        if "warning:" in diags:  # a target other than the searched-for one
            warnings.warn(diags.strip(), stacklevel=2)
        paths = {"ptx": output + ".ptx", "manifest": output + ".json"}
        if cubin:
            paths["cubin"] = output + ".cubin"
        return paths

    # -- pictures ------------------------------------------------------------------------

    def to_dot(self, block_graphs: bool = True) -> str:
        """Graphviz DOT of the µGraph (``--print-mugraph-dot``): kernels as
        nodes, each graph-defined kernel a cluster holding its block graph."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "graph.dot")
            self.apply(f"print-mugraph-dot{{output={path} function={self.function} "
                       f"block-graphs={_option(block_graphs)}}}")
            with open(path, encoding="utf-8") as f:
                return f.read()

    def to_svg(self, block_graphs: bool = True) -> str:
        """The DOT picture rendered by Graphviz's ``dot`` (which must be on PATH)."""
        dot = shutil.which("dot")
        if dot is None:
            raise MirageError("to_svg needs Graphviz's 'dot' on PATH (apt install graphviz); "
                              "to_dot() gives the DOT text without it")
        proc = subprocess.run([dot, "-Tsvg"], input=self.to_dot(block_graphs),
                              capture_output=True, text=True, check=False)
        if proc.returncode:
            raise MirageError(f"dot failed: {proc.stderr}")
        return proc.stdout

    def _repr_svg_(self):
        """Notebooks show the µGraph as a picture where Graphviz is installed."""
        try:
            return self.to_svg()
        except MirageError:
            return None


def _short(info: TensorInfo) -> str:
    return f"{'x'.join(map(str, info.shape))}x{info.dtype}"


def _option(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _rename(text: str, old: str, new: str) -> str:
    return re.sub(r"@" + re.escape(old) + r"\b", "@" + new, text)


