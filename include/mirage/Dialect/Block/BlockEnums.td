//===- BlockEnums.td - block dialect enums ---------------------*- tablegen -*-===//

#ifndef MIRAGE_BLOCK_ENUMS_TD
#define MIRAGE_BLOCK_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def Block_AccumKind : I32EnumAttr<"AccumKind", "for-loop accumulation", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"concat", 2>, I32EnumAttrCase<"red_sum", 3>,
    I32EnumAttrCase<"red_rms", 4>]> {
  let cppNamespace = "::mirage::block";
}

#endif // MIRAGE_BLOCK_ENUMS_TD
