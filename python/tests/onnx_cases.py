"""One-node (or few-node) ONNX models for the importer's tests, and the
check of an import against onnx's own reference evaluator."""

from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
import numpy as np

import mirage_opt as mo
from conftest import rel_error


def model(nodes, inputs, outputs, inits=(), opset=17, elem=TensorProto.FLOAT):
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info(n, elem, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, elem, None) for n in outputs],
        list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def const(name, value):
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(value)))


def check(m, feeds, tol=1e-6):
    """Imports `m`, runs it on `feeds` and compares every output with the
    reference evaluator's; returns the program."""
    p = mo.from_onnx(m)
    outs = p.run([feeds[i.name] for i in p.user_inputs])
    refs = ReferenceEvaluator(m).run(None, feeds)
    assert len(outs) == len(refs)
    for out, ref in zip(outs, refs):
        assert out.shape == ref.shape, (out.shape, ref.shape)
        assert rel_error(out, ref) < tol
    return p
