//===- BlockDialect.cpp - block dialect, tile type and map attributes -----===//

#include "mirage/Dialect/Block/BlockDialect.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mirage::block;

#include "mirage/Dialect/Block/BlockDialect.cpp.inc"
#include "mirage/Dialect/Block/BlockEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "mirage/Dialect/Block/BlockTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mirage/Dialect/Block/BlockAttrs.cpp.inc"

#include "mirage/Dialect/Block/BlockInterfaces.cpp.inc"

void BlockDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "mirage/Dialect/Block/BlockTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mirage/Dialect/Block/BlockAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "mirage/Dialect/Block/BlockOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TileType: !block.tile<16x64xf16>
//===----------------------------------------------------------------------===//

Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ">";
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "tile must have rank >= 1";
  for (int64_t d : shape)
    if (d < 1)
      return emitError() << "tile dimensions must be >= 1, got " << d;
  if (!elementType.isF16() && !elementType.isBF16() && !elementType.isF32())
    return emitError() << "tile element type must be f16, bf16 or f32, got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// Maps: #block.grid_map<x: 1, y: replicate>, #block.loop_map<i: 0>
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kGridDimNames[] = {"x", "y", "z"};

/// Parses `0`, `1`, ... or `replicate`.
static ParseResult parseMapTarget(AsmParser &parser, int64_t &dim) {
  if (succeeded(parser.parseOptionalKeyword("replicate"))) {
    dim = GridMapAttr::kReplicate;
    return success();
  }
  return parser.parseInteger(dim);
}

static void printMapTarget(AsmPrinter &printer, int64_t dim) {
  if (dim == GridMapAttr::kReplicate)
    printer << "replicate";
  else
    printer << dim;
}

Attribute GridMapAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> dims;
  SMLoc loc = parser.getCurrentLocation();
  auto parseEntry = [&]() -> ParseResult {
    SMLoc nameLoc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    if (dims.size() >= 3 || name != kGridDimNames[dims.size()])
      return parser.emitError(nameLoc, "expected grid dimensions named x, y, "
                                       "z in order, got '")
             << name << "'";
    int64_t dim;
    if (parser.parseColon() || parseMapTarget(parser, dim))
      return failure();
    dims.push_back(dim);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseEntry))
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    dims);
}

void GridMapAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::interleaveComma(llvm::enumerate(getDims()), printer, [&](auto it) {
    printer << kGridDimNames[it.index()] << ": ";
    printMapTarget(printer, it.value());
  });
  printer << ">";
}

LogicalResult GridMapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> dims) {
  if (dims.empty() || dims.size() > 3)
    return emitError() << "a grid map has one entry per grid dimension (1 to "
                          "3), got "
                       << dims.size();
  for (int64_t d : dims)
    if (d < kReplicate)
      return emitError() << "map entries are tensor dimensions or replicate, "
                            "got "
                         << d;
  return success();
}

Attribute LoopMapAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t dim;
  if (parser.parseLess() || parser.parseKeyword("i") || parser.parseColon() ||
      parseMapTarget(parser, dim) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    dim);
}

void LoopMapAttr::print(AsmPrinter &printer) const {
  printer << "<i: ";
  printMapTarget(printer, getDim());
  printer << ">";
}

LogicalResult LoopMapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t dim) {
  if (dim < kReplicate)
    return emitError() << "loop map entry must be a tensor dimension or "
                          "replicate, got "
                       << dim;
  return success();
}
