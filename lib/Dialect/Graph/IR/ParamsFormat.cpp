//===- ParamsFormat.cpp - exact printing of unary-kind parameters ---------===//

#include "mirage/Dialect/Graph/ParamsFormat.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;

ParseResult mirage::parseUnaryParams(OpAsmParser &parser,
                                     DenseF64ArrayAttr &params) {
  SmallVector<double> values;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
        return parser.parseFloat(values.emplace_back());
      }))
    return failure();
  params = DenseF64ArrayAttr::get(parser.getContext(), values);
  return success();
}

void mirage::printUnaryParams(OpAsmPrinter &printer, Operation *,
                              DenseF64ArrayAttr params) {
  printer << "[";
  llvm::interleaveComma(params.asArrayRef(), printer, [&](double v) {
    printer.printFloat(llvm::APFloat(v));
  });
  printer << "]";
}

ParseResult mirage::parseUnaryTypes(OpAsmParser &parser, Type &input,
                                    Type &result) {
  if (parser.parseType(input))
    return failure();
  result = input;
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(result);
  return success();
}

void mirage::printUnaryTypes(OpAsmPrinter &printer, Operation *, Type input,
                             Type result) {
  printer << input;
  if (result != input)
    printer << " -> " << result;
}
