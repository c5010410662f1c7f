"""End-to-end checks of the importers against upstream MLIR's CPU execution.

  e2e.py inputs DIR NAME:SHAPE ...
      Writes DIR/NAME.npy (f8, C order) for each NAME:SHAPE (SHAPE is
      'AxBxC'), with fixed values: element i of input k is
      ((7 i + 5 k + 3) mod 17 - 8) / 8, exact in every float type.
  e2e.py harness FUNC RESULT_SHAPE ... --inputs A.npy B.npy ...
      Prints an MLIR @main that calls @FUNC (f32 tensors) on the inputs as
      arith.constant tensors and prints every result with printMemrefF32,
      for mlir-runner.
  e2e.py compare RUNNER_OUTPUT OUT0.npy [OUT1.npy ...] [--rtol R] [--atol A]
      Reads the tensors printMemrefF32 printed, in order, and checks each
      against the .npy file (mirage-run's output) within atol + rtol * |x|.
      Prints one line per output and exits 1 on a mismatch.

Stdlib only (no NumPy); the .npy reader and writer are the test helper's.
"""

import os
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Tools", "mirage-run", "Inputs"))
import npy  # noqa: E402


def parse_shape(text):
    return [int(d) for d in text.split("x") if d]


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    length_size = 2 if data[6] == 1 else 4
    (length,) = struct.unpack("<H" if length_size == 2 else "<I",
                              data[8:8 + length_size])
    start = 8 + length_size + length
    header = data[8 + length_size:start].decode("latin1")
    shape = [int(d) for d in re.findall(r"\d+", header.split("'shape':")[1])]
    fmt = {"<f8": "<d", "<f4": "<f", "<f2": "<e"}[
        re.search(r"'descr': '([^']+)'", header).group(1)]
    size = struct.calcsize(fmt)
    values = [struct.unpack_from(fmt, data, start + i * size)[0]
              for i in range(count(shape))]
    return shape, values


def inputs(argv):
    directory = argv[0]
    for k, spec in enumerate(argv[1:]):
        name, shape_text = spec.split(":")
        shape = parse_shape(shape_text)
        values = [((7 * i + 5 * k + 3) % 17 - 8) / 8.0
                  for i in range(count(shape))]
        payload = b"".join(struct.pack("<d", v) for v in values)
        with open(os.path.join(directory, name + ".npy"), "wb") as f:
            f.write(npy.encode("<f8", shape, payload))


def mlir_type(shape):
    return "tensor<" + "".join("%dx" % d for d in shape) + "f32>"


def nested(values, shape):
    if not shape:
        return repr(values[0])
    if len(shape) == 1:
        return "[" + ", ".join(repr(v) for v in values) + "]"
    step = count(shape[1:])
    return "[" + ", ".join(nested(values[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def harness(argv):
    at = argv.index("--inputs")
    func, result_shapes, files = argv[0], argv[1:at], argv[at + 1:]
    lines = ["func.func private @printMemrefF32(tensor<*xf32>)",
             "func.func @main() {"]
    args, arg_types = [], []
    for k, path in enumerate(files):
        shape, values = read_npy(path)
        lines.append("  %%in%d = arith.constant dense<%s> : %s" %
                     (k, nested(values, shape), mlir_type(shape)))
        args.append("%%in%d" % k)
        arg_types.append(mlir_type(shape))
    results = [mlir_type(parse_shape(s)) for s in result_shapes]
    names = ["%%r%d" % i for i in range(len(results))]
    lines.append("  %s = call @%s(%s) : (%s) -> (%s)" %
                 (", ".join(names), func, ", ".join(args),
                  ", ".join(arg_types), ", ".join(results)))
    for name, type_ in zip(names, results):
        lines.append("  %s_u = tensor.cast %s : %s to tensor<*xf32>" %
                     (name, name, type_))
        lines.append("  call @printMemrefF32(%s_u) : (tensor<*xf32>) -> ()" %
                     name)
    lines += ["  return", "}"]
    print("\n".join(lines))


NUMBER = re.compile(r"[-+]?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def runner_tensors(text):
    tensors = []
    for block in text.split("Unranked Memref")[1:]:
        header, _, data = block.partition("data =")
        shape = [int(d) for d in
                 re.search(r"sizes = \[([^\]]*)\]", header).group(1).split(",")
                 if d.strip()]
        values = [float(v) for v in NUMBER.findall(data)]
        tensors.append((shape, values))
    return tensors


def compare(argv):
    rtol, atol, files = 1e-4, 1e-5, []
    i = 0
    while i < len(argv):
        if argv[i] == "--rtol":
            rtol = float(argv[i + 1])
            i += 2
        elif argv[i] == "--atol":
            atol = float(argv[i + 1])
            i += 2
        else:
            files.append(argv[i])
            i += 1
    with open(files[0]) as f:
        expected = runner_tensors(f.read())
    outputs = files[1:]
    ok = len(expected) == len(outputs)
    if not ok:
        print("mismatch: mlir-runner printed %d tensors, %d outputs given" %
              (len(expected), len(outputs)))
    for k, (path, (shape, reference)) in enumerate(zip(outputs, expected)):
        got_shape, got = read_npy(path)
        if got_shape != shape or len(got) != len(reference):
            print("out%d: shape %s, mlir-runner printed %s" %
                  (k, got_shape, shape))
            ok = False
            continue
        worst, where = 0.0, 0
        for j, (a, b) in enumerate(zip(got, reference)):
            excess = abs(a - b) - (atol + rtol * abs(b))
            if excess > worst or a != a:
                worst, where = max(excess, worst), j
                if a != a:
                    worst = float("inf")
        if worst > 0:
            print("out%d: MISMATCH at %d: mirage-run %r, mlir-runner %r" %
                  (k, where, got[where], reference[where]))
            ok = False
        else:
            print("out%d: %d values match within atol %g + rtol %g" %
                  (k, len(got), atol, rtol))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    {"inputs": inputs, "harness": harness,
     "compare": compare}[sys.argv[1]](sys.argv[2:])
