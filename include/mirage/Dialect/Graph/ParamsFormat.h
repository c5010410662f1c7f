//===- ParamsFormat.h - exact printing of unary-kind parameters -*- C++ -*-===//
//
// The custom<UnaryParams> assembly directive used by the kernel, block and
// thread unary ops: `params = [2.44140625E-4, 6.0]`. It prints each value the
// way FloatAttr does, which round-trips exactly; the default format of
// DenseF64ArrayAttr rounds to 17 significant digits in decimal and can change
// the value on a print-parse round trip.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_GRAPH_PARAMSFORMAT_H
#define MIRAGE_DIALECT_GRAPH_PARAMSFORMAT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

namespace mirage {
mlir::ParseResult parseUnaryParams(mlir::OpAsmParser &parser,
                                   mlir::DenseF64ArrayAttr &params);
void printUnaryParams(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                      mlir::DenseF64ArrayAttr params);

/// custom<UnaryTypes> of the kernel and block unary ops: `: T` for a result
/// of the input's type, `: T -> U` for one of another element type (a
/// widened block op, or the cast kind).
mlir::ParseResult parseUnaryTypes(mlir::OpAsmParser &parser, mlir::Type &input,
                                  mlir::Type &result);
void printUnaryTypes(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                     mlir::Type input, mlir::Type result);
} // namespace mirage

#endif // MIRAGE_DIALECT_GRAPH_PARAMSFORMAT_H
