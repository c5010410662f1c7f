"""mirage_opt: mirage-opt's superoptimizer from Python.

Build graph-dialect programs (``Graph``), import them from PyTorch
(``from_torch``) and ONNX (``from_onnx``), run them in the reference
interpreter on NumPy arrays (``Program.run``), verify, superoptimize and
lower them (``Program.verify``, ``superoptimize``, ``lower``), and draw
µGraphs (``Program.to_dot``). Errors raise ``MirageError`` carrying the MLIR
diagnostics. docs/Python.md in the repository has the guide.
"""

from ._mirage_opt import MirageError
from .graph import Graph, GraphError, Tensor
from .program import Program, TensorInfo


def parse(text: str, function: str | None = None) -> Program:
    """A program from MLIR text."""
    return Program.parse(text, function)


def load(path, function: str | None = None) -> Program:
    """A program from a .mlir file."""
    return Program.load(path, function)


def from_torch(module_or_fn, example_inputs, **kwargs) -> Program:
    """Imports a PyTorch module or function through ``torch.export``
    (mirage_opt.torch_import.from_torch)."""
    from .torch_import import from_torch as _from_torch
    return _from_torch(module_or_fn, example_inputs, **kwargs)


def from_onnx(path_or_model, **kwargs) -> Program:
    """Imports an ONNX model (mirage_opt.onnx_import.from_onnx)."""
    from .onnx_import import from_onnx as _from_onnx
    return _from_onnx(path_or_model, **kwargs)


__all__ = ["Graph", "GraphError", "MirageError", "Program", "Tensor", "TensorInfo",
           "from_onnx", "from_torch", "load", "parse"]
