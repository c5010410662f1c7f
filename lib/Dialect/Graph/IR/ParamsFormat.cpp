//===- ParamsFormat.cpp - exact printing of unary-kind parameters ---------===//

#include "Dialect/Graph/ParamsFormat.h"
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
