"""Writes and dumps .npy files for mirage-run's tests without NumPy.

  npy.py write PATH DESCR SHAPE [VALUE ...] [--version N] [--fortran]
                                            [--header TEXT]
      SHAPE is comma-separated ('' for rank 0); the values are packed as
      DESCR says whether or not their number matches SHAPE, so that tests
      can write malformed files too. A VALUE is a Python float literal or a
      hex float (0x1p-24). --header replaces the whole header dict.
  npy.py dump PATH
      Prints the version, the header fields and every value (repr), after
      checking the layout NumPy expects of the header.
  npy.py random DIR SEED SHAPE:PRECISION ... [--scale S]
      Writes DIR/in0.npy, ... with the inputs mirage-run generates for seed
      SEED (and --scale S), from this file's own MT19937-64, as a
      cross-check of the documented generator.
"""

import ast
import struct
import sys

MAGIC = b"\x93NUMPY"
FORMATS = {"<f8": "<d", "<f4": "<f", "<f2": "<e", ">f8": ">d", "<i4": "<i",
           "<i8": "<q"}


def parse_value(text):
    if text.startswith(("0x", "-0x")):
        return float.fromhex(text)
    return float(text)


def format_shape(shape):
    if len(shape) == 1:
        return "(%d,)" % shape[0]
    return "(" + ", ".join(str(d) for d in shape) + ")"


def encode(descr, shape, payload, version=1, fortran=False, header=None):
    if header is None:
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
            descr, fortran, format_shape(shape))
    length_size = 2 if version == 1 else 4
    preamble = len(MAGIC) + 2 + length_size
    total = -(-(preamble + len(header) + 1) // 64) * 64
    header = header + " " * (total - preamble - len(header) - 1) + "\n"
    length = struct.pack("<H" if version == 1 else "<I", len(header))
    return MAGIC + bytes([version, 0]) + length + header.encode() + payload


def write(argv):
    path, descr, shape_text, rest = argv[0], argv[1], argv[2], argv[3:]
    version, fortran, header, values = 1, False, None, []
    i = 0
    while i < len(rest):
        if rest[i] == "--version":
            version = int(rest[i + 1])
            i += 2
        elif rest[i] == "--fortran":
            fortran = True
            i += 1
        elif rest[i] == "--header":
            header = rest[i + 1]
            i += 2
        else:
            values.append(rest[i])
            i += 1
    shape = [int(d) for d in shape_text.split(",") if d]
    fmt = FORMATS[descr]
    convert = int if fmt.endswith(("i", "q")) else parse_value
    payload = b"".join(struct.pack(fmt, convert(v)) for v in values)
    with open(path, "wb") as f:
        f.write(encode(descr, shape, payload, version, fortran, header))


def dump(argv):
    with open(argv[0], "rb") as f:
        data = f.read()
    assert data[:6] == MAGIC, "bad magic"
    version = data[6]
    length_size = 2 if version == 1 else 4
    (length,) = struct.unpack("<H" if version == 1 else "<I",
                              data[8:8 + length_size])
    start = 8 + length_size + length
    header = data[8 + length_size:start].decode("latin1")
    assert header.endswith("\n"), "header does not end in a newline"
    assert start % 64 == 0, "data is not 64-byte aligned"
    fields = ast.literal_eval(header)
    shape = fields["shape"]
    count = 1
    for d in shape:
        count *= d
    fmt = FORMATS[fields["descr"]]
    size = struct.calcsize(fmt)
    assert len(data) - start == count * size, "data size does not match shape"
    print("version %d.%d descr %s fortran_order %s shape %s" %
          (version, data[7], fields["descr"], fields["fortran_order"], shape))
    values = [struct.unpack_from(fmt, data, start + i * size)[0]
              for i in range(count)]
    print("values " + " ".join(repr(v) for v in values))


class MT19937_64:
    """The 64-bit Mersenne Twister of C++'s std::mt19937_64."""

    def __init__(self, seed):
        mask = (1 << 64) - 1
        self.state = [seed & mask]
        for i in range(1, 312):
            prev = self.state[-1]
            self.state.append(
                (6364136223846793005 * (prev ^ (prev >> 62)) + i) & mask)
        self.index = 312

    def next(self):
        mask = (1 << 64) - 1
        if self.index == 312:
            for i in range(312):
                y = (self.state[i] & 0xFFFFFFFF80000000) | (
                    self.state[(i + 1) % 312] & 0x7FFFFFFF)
                x = self.state[(i + 156) % 312] ^ (y >> 1)
                if y & 1:
                    x ^= 0xB5026F5AA96619E9
                self.state[i] = x
            self.index = 0
        y = self.state[self.index]
        self.index += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & mask


def random(argv):
    scale = 1.0
    if "--scale" in argv:
        at = argv.index("--scale")
        scale = float(argv[at + 1])
        argv = argv[:at] + argv[at + 2:]
    directory, seed, specs = argv[0], int(argv[1]), argv[2:]
    engine = MT19937_64(seed)
    for n, spec in enumerate(specs):
        shape_text, precision = spec.split(":")
        precision = int(precision)
        shape = [int(d) for d in shape_text.split(",") if d]
        count = 1
        for d in shape:
            count *= d
        values = []
        for _ in range(count):
            k = engine.next() >> (63 - precision)
            values.append((k - (1 << precision)) * 2.0 ** -precision * scale)
        payload = b"".join(struct.pack("<d", v) for v in values)
        with open("%s/in%d.npy" % (directory, n), "wb") as f:
            f.write(encode("<f8", shape, payload))


if __name__ == "__main__":
    {"write": write, "dump": dump, "random": random}[sys.argv[1]](sys.argv[2:])
