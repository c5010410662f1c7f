//===- Npy.cpp - read and write NumPy .npy files --------------------------===//
//
// A .npy file is the magic string "\x93NUMPY", a major and a minor version
// byte, the header length (2 bytes little-endian in version 1.0, 4 bytes in
// 2.0), a header that is the repr of a Python dict with the keys 'descr',
// 'fortran_order' and 'shape', padded with spaces and a newline, and then
// the raw elements.
//
//===----------------------------------------------------------------------===//

#include "mirage/Runtime/Npy.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <limits>
#include <optional>

using namespace llvm;
using namespace mirage;

namespace {

constexpr StringLiteral kMagic("\x93NUMPY");
// NumPy pads the header so that the data starts at a multiple of 64 bytes.
constexpr size_t kAlignment = 64;

Error makeError(StringRef name, const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           (name + ": " + message).str());
}

std::string formatShape(ArrayRef<int64_t> shape) {
  std::string s;
  raw_string_ostream os(s);
  os << '(';
  interleave(shape, os, ", ");
  // A Python tuple of one element needs its trailing comma.
  if (shape.size() == 1)
    os << ',';
  os << ')';
  return s;
}

struct Header {
  std::string descr;
  bool fortranOrder = false;
  superopt::TensorShape shape;
};

/// Parses the header dict. It is a Python literal, but one written by
/// NumPy's own repr, so a small recursive-descent parser for strings,
/// booleans and tuples of integers covers every file NumPy writes.
class HeaderParser {
public:
  HeaderParser(StringRef text, StringRef name) : rest(text), name(name) {}

  Error parse(Header &header) {
    bool seenDescr = false, seenOrder = false, seenShape = false;
    if (!consume('{'))
      return error("expected '{' at the start of the header");
    while (!consume('}')) {
      std::string key;
      if (Error e = parseString(key))
        return e;
      if (!consume(':'))
        return error("expected ':' after '" + key + "'");
      if (key == "descr") {
        if (Error e = parseString(header.descr))
          return e;
        seenDescr = true;
      } else if (key == "fortran_order") {
        if (Error e = parseBool(header.fortranOrder))
          return e;
        seenOrder = true;
      } else if (key == "shape") {
        if (Error e = parseShape(header.shape))
          return e;
        seenShape = true;
      } else {
        return error("unexpected key '" + key + "' in the header");
      }
      // Entries are separated by commas; NumPy writes one after the last too.
      if (!consume(',')) {
        if (!consume('}'))
          return error("expected ',' or '}' in the header");
        break;
      }
    }
    if (!rest.trim().empty())
      return error("unexpected text after the header dict");
    if (!seenDescr || !seenOrder || !seenShape)
      return error(
          "the header lacks one of 'descr', 'fortran_order' and 'shape'");
    return Error::success();
  }

private:
  Error error(const Twine &message) const { return makeError(name, message); }

  bool consume(char c) {
    rest = rest.ltrim();
    return rest.consume_front(StringRef(&c, 1));
  }

  Error parseString(std::string &out) {
    rest = rest.ltrim();
    if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
      return error("expected a quoted string in the header");
    char quote = rest.front();
    size_t end = rest.find(quote, 1);
    if (end == StringRef::npos)
      return error("unterminated string in the header");
    out = rest.slice(1, end).str();
    rest = rest.drop_front(end + 1);
    return Error::success();
  }

  Error parseBool(bool &out) {
    rest = rest.ltrim();
    if (rest.consume_front("True"))
      out = true;
    else if (rest.consume_front("False"))
      out = false;
    else
      return error("expected True or False for 'fortran_order'");
    return Error::success();
  }

  Error parseShape(superopt::TensorShape &out) {
    if (!consume('('))
      return error("expected a tuple for 'shape'");
    while (!consume(')')) {
      rest = rest.ltrim();
      if (rest.starts_with("-"))
        return error("negative dimension in 'shape'");
      uint64_t dim;
      if (rest.consumeInteger(10, dim) ||
          dim > uint64_t(std::numeric_limits<int64_t>::max()))
        return error("expected a dimension in 'shape'");
      // Python 2 NumPy wrote long integers with an 'L' suffix.
      rest.consume_front("L");
      out.push_back(static_cast<int64_t>(dim));
      if (!consume(',')) {
        if (!consume(')'))
          return error("expected ',' or ')' in 'shape'");
        break;
      }
    }
    return Error::success();
  }

  StringRef rest;
  StringRef name;
};

/// Element sizes of the dtypes read; each is decoded to double exactly.
std::optional<size_t> elementSize(StringRef descr) {
  return StringSwitch<std::optional<size_t>>(descr)
      .Case("<f8", 8)
      .Case("<f4", 4)
      .Case("<f2", 2)
      .Case("<i8", 8) // index tensors: token ids, positions
      .Case("<i4", 4)
      .Default(std::nullopt);
}

} // namespace

double npy::halfToDouble(uint16_t bits) {
  bool negative = bits & 0x8000;
  unsigned exponent = (bits >> 10) & 0x1f;
  unsigned fraction = bits & 0x3ff;
  double magnitude;
  if (exponent == 0x1f)
    magnitude = fraction ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else if (exponent == 0)
    // Subnormal (or zero): fraction * 2^-24, no implicit leading one.
    magnitude = std::ldexp(static_cast<double>(fraction), -24);
  else
    // (1024 + fraction) * 2^(exponent - 15 - 10).
    magnitude = std::ldexp(static_cast<double>(0x400 | fraction),
                           static_cast<int>(exponent) - 25);
  return negative ? -magnitude : magnitude;
}

Expected<npy::Array> npy::parse(StringRef bytes, StringRef name,
                                bool integers) {
  if (!bytes.consume_front(kMagic))
    return makeError(name, "not a .npy file (bad magic string)");
  if (bytes.size() < 2)
    return makeError(name, "truncated .npy preamble");
  unsigned major = static_cast<uint8_t>(bytes[0]);
  unsigned minor = static_cast<uint8_t>(bytes[1]);
  bytes = bytes.drop_front(2);
  if ((major != 1 && major != 2) || minor != 0)
    return makeError(name, "unsupported .npy format version " + Twine(major) +
                               "." + Twine(minor) +
                               " (1.0 and 2.0 are supported)");
  size_t lengthSize = major == 1 ? 2 : 4;
  if (bytes.size() < lengthSize)
    return makeError(name, "truncated .npy preamble");
  uint64_t headerLength = major == 1 ? support::endian::read16le(bytes.data())
                                     : support::endian::read32le(bytes.data());
  bytes = bytes.drop_front(lengthSize);
  if (bytes.size() < headerLength)
    return makeError(name, "truncated header: " + Twine(headerLength) +
                               " bytes announced, " + Twine(bytes.size()) +
                               " present");
  StringRef headerText = bytes.take_front(headerLength);
  StringRef data = bytes.drop_front(headerLength);

  Header header;
  if (Error e = HeaderParser(headerText, name).parse(header))
    return std::move(e);
  if (header.fortranOrder)
    return makeError(name, "Fortran-order arrays are not supported; save the "
                           "array in C order");
  bool integer = StringRef(header.descr).starts_with("<i");
  std::optional<size_t> size = elementSize(header.descr);
  if (!size || (integer && !integers)) {
    StringRef descr = header.descr;
    if (descr.starts_with(">"))
      return makeError(name, "big-endian dtype '" + descr +
                                 "' is not supported; use '<f8', '<f4' or "
                                 "'<f2'");
    return makeError(name, "unsupported dtype '" + descr +
                               "'; use '<f8', '<f4' or '<f2'" +
                               (integers ? " (or '<i8', '<i4' for an index "
                                           "tensor)"
                                         : ""));
  }

  int64_t count = 1;
  for (int64_t dim : header.shape)
    if (MulOverflow(count, dim, count))
      return makeError(name, "shape " + formatShape(header.shape) +
                                 " has too many elements");
  if (data.size() % *size != 0 || data.size() / *size != uint64_t(count))
    return makeError(name, "shape " + formatShape(header.shape) + " of '" +
                               header.descr + "' needs " + Twine(count) +
                               " elements, but the file holds " +
                               Twine(data.size()) + " bytes of data");

  Array array;
  array.shape = header.shape;
  array.data.resize(count);
  const char *p = data.data();
  for (double &x : array.data) {
    if (integer && *size == 8)
      x = static_cast<double>(
          static_cast<int64_t>(support::endian::read64le(p)));
    else if (integer)
      x = static_cast<int32_t>(support::endian::read32le(p));
    else if (*size == 8)
      x = bit_cast<double>(support::endian::read64le(p));
    else if (*size == 4)
      x = bit_cast<float>(support::endian::read32le(p));
    else
      x = halfToDouble(support::endian::read16le(p));
    p += *size;
  }
  return array;
}

Expected<npy::Array> npy::read(StringRef path, bool integers) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError(path, "cannot open: " + buffer.getError().message());
  return parse((*buffer)->getBuffer(), path, integers);
}

std::string npy::serialize(const Array &array) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': " +
                       formatShape(array.shape) + ", }";
  // Version 1.0 stores the header length in 2 bytes; longer headers (ranks
  // in the thousands) need 2.0.
  size_t preamble = kMagic.size() + 2 + 2;
  unsigned major = 1;
  if (preamble + header.size() + 1 > 0xffff) {
    preamble += 2;
    major = 2;
  }
  size_t total = alignTo(preamble + header.size() + 1, kAlignment);
  header.append(total - preamble - header.size() - 1, ' ');
  header += '\n';

  std::string out;
  out.reserve(total + array.data.size() * 8);
  out += kMagic;
  out += static_cast<char>(major);
  out += '\0';
  char length[4];
  if (major == 1) {
    support::endian::write16le(length, header.size());
    out.append(length, 2);
  } else {
    support::endian::write32le(length, header.size());
    out.append(length, 4);
  }
  out += header;
  for (double x : array.data) {
    char bytes[8];
    support::endian::write64le(bytes, bit_cast<uint64_t>(x));
    out.append(bytes, 8);
  }
  return out;
}

Error npy::write(StringRef path, const Array &array) {
  return writeToOutput(path, [&](raw_ostream &os) {
    os << serialize(array);
    return Error::success();
  });
}
