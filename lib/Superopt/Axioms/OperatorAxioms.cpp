//===- OperatorAxioms.cpp - the axiom table and the operator signatures ---===//
//
// Each axiom is written once, as the SMT-LIB formula Z3 assumes, next to the
// concrete graph-dialect instance the checker runs, so that a statement and
// its evidence are read together. Instances use type aliases (!m23 is a 2x3
// matrix) to stay short; inputs are f32 only because the dialect has no f64,
// the checker interprets them in fp64.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Axioms/OperatorAxioms.h"
#include "llvm/ADT/STLExtras.h"
#include <vector>

using namespace mirage::superopt;

static const OperatorSignature kOperators[] = {
    // name, int attrs, real attrs, tensor operands, doc
    {"add", 0, 0, 2, "graph.add, elementwise sum"},
    {"sub", 0, 0, 2, "graph.sub, elementwise difference"},
    {"mul", 0, 0, 2, "graph.mul, elementwise product"},
    {"div", 0, 0, 2, "graph.div, elementwise quotient"},
    {"matmul", 0, 0, 2, "graph.matmul of two matrices"},
    {"exp", 0, 0, 1, "graph.exp"},
    {"sqrt", 0, 0, 1, "graph.sqrt"},
    {"square", 0, 0, 1, "graph.square"},
    {"relu", 0, 0, 1, "graph.relu"},
    {"silu", 0, 0, 1, "graph.silu (no axioms yet)"},
    {"gelu", 0, 0, 1, "graph.gelu (no axioms yet)"},
    {"transpose", 0, 0, 1, "graph.transpose of a matrix"},
    {"broadcast", 0, 0, 1, "graph.broadcast to the shape the context needs"},
    {"rms_norm", 0, 0, 1, "graph.rms_norm with eps = 0"},
    {"scalar_mul", 0, 1, 1, "graph.scalar_mul by the real attribute"},
    {"reduce_sum", 1, 0, 1, "graph.reduce_sum over dimension `dim`"},
    {"reduce_max", 1, 0, 1,
     "graph.reduce_max over dimension `dim` (no axioms yet)"},
    {"softmax", 1, 0, 1, "graph.softmax over dimension `dim`"},
    {"concat", 1, 0, 2, "graph.concat of two tensors along `dim`"},
    {"split_0", 1, 0, 1, "first result of a two-way graph.split along `dim`"},
    {"split_1", 1, 0, 1, "second result of a two-way graph.split along `dim`"},
    {"scalar_add", 0, 1, 1, "graph.scalar_add of the real attribute"},
    {"conv2d", 7, 0, 2,
     "graph.conv2d (stride h, w, padding h, w, dilation h, w, groups)"},
    {"avg_pool2d", 6, 0, 1,
     "graph.avg_pool2d (kernel h, w, stride h, w, padding h, w)"},
    {"max_pool2d", 6, 0, 1,
     "graph.max_pool2d (kernel h, w, stride h, w, padding h, w)"},
    {"reshape", 1, 0, 1, "graph.reshape to a shape of the given rank"},
};

llvm::ArrayRef<OperatorSignature> mirage::superopt::getOperatorSignatures() {
  return kOperators;
}

const OperatorSignature *
mirage::superopt::lookupOperatorSignature(llvm::StringRef name) {
  const auto *it = llvm::find_if(
      kOperators, [&](const OperatorSignature &s) { return s.name == name; });
  return it == std::end(kOperators) ? nullptr : it;
}

// Ranges of the checker's random inputs.
static constexpr double kSigned = -1.0, kUnit = 1.0;     // [-1, 1]
static constexpr double kAwayFromZero = 0.5, kTwo = 2.0; // [0.5, 2]

static const OperatorAxiom kAxioms[] = {
    //===------------------------------------------------------------------===//
    // Elementwise arithmetic
    //===------------------------------------------------------------------===//
    {"add_commutative", "elementwise addition is commutative",
     "(forall ((x T) (y T)) (= (add x y) (add y x)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.add %x, %y : (!m, !m) -> !m
  return %0 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.add %y, %x : (!m, !m) -> !m
  return %0 : !m
})mlir",
     kSigned, kUnit},
    {"add_associative", "elementwise addition is associative",
     "(forall ((x T) (y T) (z T)) (= (add x (add y z)) (add (add x y) z)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.add %y, %z : (!m, !m) -> !m
  %1 = graph.add %x, %0 : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.add %x, %y : (!m, !m) -> !m
  %1 = graph.add %0, %z : (!m, !m) -> !m
  return %1 : !m
})mlir",
     kSigned, kUnit},
    {"mul_commutative", "elementwise multiplication is commutative",
     "(forall ((x T) (y T)) (= (mul x y) (mul y x)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.mul %x, %y : (!m, !m) -> !m
  return %0 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.mul %y, %x : (!m, !m) -> !m
  return %0 : !m
})mlir",
     kSigned, kUnit},
    {"mul_associative", "elementwise multiplication is associative",
     "(forall ((x T) (y T) (z T)) (= (mul x (mul y z)) (mul (mul x y) z)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.mul %y, %z : (!m, !m) -> !m
  %1 = graph.mul %x, %0 : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.mul %x, %y : (!m, !m) -> !m
  %1 = graph.mul %0, %z : (!m, !m) -> !m
  return %1 : !m
})mlir",
     kSigned, kUnit},
    {"mul_distributes_over_add",
     "elementwise multiplication distributes over addition",
     "(forall ((x T) (y T) (z T)) (= (mul (add x y) z) (add (mul x z) (mul y "
     "z))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.add %x, %y : (!m, !m) -> !m
  %1 = graph.mul %0, %z : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.mul %x, %z : (!m, !m) -> !m
  %1 = graph.mul %y, %z : (!m, !m) -> !m
  %2 = graph.add %0, %1 : (!m, !m) -> !m
  return %2 : !m
})mlir",
     kSigned, kUnit},
    {"sub_as_add", "x - y is x plus y scaled by -1",
     "(forall ((x T) (y T)) (= (sub x y) (add x (scalar_mul (- 1.0) y))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.sub %x, %y : (!m, !m) -> !m
  return %0 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.scalar_mul %y, -1.0 : !m
  %1 = graph.add %x, %0 : (!m, !m) -> !m
  return %1 : !m
})mlir",
     kSigned, kUnit},
    {"div_of_div", "dividing twice is dividing by the product",
     "(forall ((x T) (y T) (z T)) (= (div (div x y) z) (div x (mul y z))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.div %x, %y : (!m, !m) -> !m
  %1 = graph.div %0, %z : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.mul %y, %z : (!m, !m) -> !m
  %1 = graph.div %x, %0 : (!m, !m) -> !m
  return %1 : !m
})mlir",
     kAwayFromZero, kTwo},
    {"div_distributes_over_add", "division distributes over addition",
     "(forall ((x T) (y T) (z T)) (= (div (add x y) z) (add (div x z) (div y "
     "z))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.add %x, %y : (!m, !m) -> !m
  %1 = graph.div %0, %z : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m, %z: !m) -> !m {
  %0 = graph.div %x, %z : (!m, !m) -> !m
  %1 = graph.div %y, %z : (!m, !m) -> !m
  %2 = graph.add %0, %1 : (!m, !m) -> !m
  return %2 : !m
})mlir",
     kAwayFromZero, kTwo},
    {"square_as_mul", "square(x) is x * x",
     "(forall ((x T)) (= (square x) (mul x x)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.square %x : !m
  return %0 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.mul %x, %x : (!m, !m) -> !m
  return %0 : !m
})mlir",
     kSigned, kUnit},
    {"exp_of_add", "exp turns a sum into a product",
     "(forall ((x T) (y T)) (= (exp (add x y)) (mul (exp x) (exp y))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.add %x, %y : (!m, !m) -> !m
  %1 = graph.exp %0 : !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.exp %x : !m
  %1 = graph.exp %y : !m
  %2 = graph.mul %0, %1 : (!m, !m) -> !m
  return %2 : !m
})mlir",
     kSigned, kUnit},
    {"exp_of_sub", "exp turns a difference into a quotient",
     "(forall ((x T) (y T)) (= (exp (sub x y)) (div (exp x) (exp y))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.sub %x, %y : (!m, !m) -> !m
  %1 = graph.exp %0 : !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.exp %x : !m
  %1 = graph.exp %y : !m
  %2 = graph.div %0, %1 : (!m, !m) -> !m
  return %2 : !m
})mlir",
     kSigned, kUnit},
    {"sqrt_of_mul",
     "sqrt of a product is the product of sqrts (nonnegative operands)",
     "(forall ((x T) (y T)) (= (sqrt (mul x y)) (mul (sqrt x) (sqrt y))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.mul %x, %y : (!m, !m) -> !m
  %1 = graph.sqrt %0 : !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.sqrt %x : !m
  %1 = graph.sqrt %y : !m
  %2 = graph.mul %0, %1 : (!m, !m) -> !m
  return %2 : !m
})mlir",
     kAwayFromZero, kTwo},

    //===------------------------------------------------------------------===//
    // Scalar multiplication
    //===------------------------------------------------------------------===//
    {"scalar_mul_compose", "scaling by d then c is scaling by c * d",
     "(forall ((c Real) (d Real) (x T)) (= (scalar_mul c (scalar_mul d x)) "
     "(scalar_mul (* c d) x)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, -0.75 : !m
  %1 = graph.scalar_mul %0, 2.5 : !m
  return %1 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, -1.875 : !m
  return %0 : !m
})mlir",
     kSigned, kUnit},
    {"scalar_mul_one", "scaling by 1 is the identity",
     "(forall ((x T)) (= (scalar_mul 1.0 x) x))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, 1.0 : !m
  return %0 : !m
}
func.func @rhs(%x: !m) -> !m {
  return %x : !m
})mlir",
     kSigned, kUnit},
    {"scalar_mul_distributes_over_add", "scaling distributes over addition",
     "(forall ((c Real) (x T) (y T)) (= (scalar_mul c (add x y)) (add "
     "(scalar_mul c x) (scalar_mul c y))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.add %x, %y : (!m, !m) -> !m
  %1 = graph.scalar_mul %0, 2.5 : !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.scalar_mul %x, 2.5 : !m
  %1 = graph.scalar_mul %y, 2.5 : !m
  %2 = graph.add %0, %1 : (!m, !m) -> !m
  return %2 : !m
})mlir",
     kSigned, kUnit},
    {"scalar_mul_collect", "c * x + d * x is (c + d) * x",
     "(forall ((c Real) (d Real) (x T)) (= (add (scalar_mul c x) (scalar_mul "
     "d x)) (scalar_mul (+ c d) x)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, 2.5 : !m
  %1 = graph.scalar_mul %x, -0.75 : !m
  %2 = graph.add %0, %1 : (!m, !m) -> !m
  return %2 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, 1.75 : !m
  return %0 : !m
})mlir",
     kSigned, kUnit},
    {"scalar_mul_into_mul", "a scale moves into either factor of a product",
     "(forall ((c Real) (x T) (y T)) (= (scalar_mul c (mul x y)) (mul x "
     "(scalar_mul c y))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.mul %x, %y : (!m, !m) -> !m
  %1 = graph.scalar_mul %0, -0.75 : !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.scalar_mul %y, -0.75 : !m
  %1 = graph.mul %x, %0 : (!m, !m) -> !m
  return %1 : !m
})mlir",
     kSigned, kUnit},
    {"relu_of_scalar_mul", "relu commutes with a nonnegative scale",
     "(forall ((c Real) (x T)) (=> (>= c 0.0) (= (relu (scalar_mul c x)) "
     "(scalar_mul c (relu x)))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, 2.5 : !m
  %1 = graph.relu %0 : !m
  return %1 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.relu %x : !m
  %1 = graph.scalar_mul %0, 2.5 : !m
  return %1 : !m
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Matrix product
    //===------------------------------------------------------------------===//
    {"matmul_associative", "the matrix product is associative",
     "(forall ((x T) (y T) (z T)) (= (matmul x (matmul y z)) (matmul (matmul "
     "x y) z)))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>, %z: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %0 = graph.matmul %y, %z : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %1 = graph.matmul %x, %0 : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>, %z: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %0 = graph.matmul %x, %y : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.matmul %0, %z : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
})mlir",
     kSigned, kUnit},
    {"matmul_distributes_lhs",
     "the matrix product distributes over a sum on its right operand",
     "(forall ((x T) (y T) (z T)) (= (matmul x (add y z)) (add (matmul x y) "
     "(matmul x z))))",
     R"mlir(!a = tensor<2x3xf32>
!b = tensor<3x4xf32>
!c = tensor<2x4xf32>
func.func @lhs(%x: !a, %y: !b, %z: !b) -> !c {
  %0 = graph.add %y, %z : (!b, !b) -> !b
  %1 = graph.matmul %x, %0 : (!a, !b) -> !c
  return %1 : !c
}
func.func @rhs(%x: !a, %y: !b, %z: !b) -> !c {
  %0 = graph.matmul %x, %y : (!a, !b) -> !c
  %1 = graph.matmul %x, %z : (!a, !b) -> !c
  %2 = graph.add %0, %1 : (!c, !c) -> !c
  return %2 : !c
})mlir",
     kSigned, kUnit},
    {"matmul_distributes_rhs",
     "the matrix product distributes over a sum on its left operand",
     "(forall ((x T) (y T) (z T)) (= (matmul (add x y) z) (add (matmul x z) "
     "(matmul y z))))",
     R"mlir(!a = tensor<2x3xf32>
!b = tensor<3x4xf32>
!c = tensor<2x4xf32>
func.func @lhs(%x: !a, %y: !a, %z: !b) -> !c {
  %0 = graph.add %x, %y : (!a, !a) -> !a
  %1 = graph.matmul %0, %z : (!a, !b) -> !c
  return %1 : !c
}
func.func @rhs(%x: !a, %y: !a, %z: !b) -> !c {
  %0 = graph.matmul %x, %z : (!a, !b) -> !c
  %1 = graph.matmul %y, %z : (!a, !b) -> !c
  %2 = graph.add %0, %1 : (!c, !c) -> !c
  return %2 : !c
})mlir",
     kSigned, kUnit},
    {"matmul_scalar_mul_lhs", "a scale on the left operand moves outside",
     "(forall ((c Real) (x T) (y T)) (= (matmul (scalar_mul c x) y) "
     "(scalar_mul c (matmul x y))))",
     R"mlir(!a = tensor<2x3xf32>
!b = tensor<3x4xf32>
!c = tensor<2x4xf32>
func.func @lhs(%x: !a, %y: !b) -> !c {
  %0 = graph.scalar_mul %x, 2.5 : !a
  %1 = graph.matmul %0, %y : (!a, !b) -> !c
  return %1 : !c
}
func.func @rhs(%x: !a, %y: !b) -> !c {
  %0 = graph.matmul %x, %y : (!a, !b) -> !c
  %1 = graph.scalar_mul %0, 2.5 : !c
  return %1 : !c
})mlir",
     kSigned, kUnit},
    {"matmul_scalar_mul_rhs", "a scale on the right operand moves outside",
     "(forall ((c Real) (x T) (y T)) (= (matmul x (scalar_mul c y)) "
     "(scalar_mul c (matmul x y))))",
     R"mlir(!a = tensor<2x3xf32>
!b = tensor<3x4xf32>
!c = tensor<2x4xf32>
func.func @lhs(%x: !a, %y: !b) -> !c {
  %0 = graph.scalar_mul %y, -0.75 : !b
  %1 = graph.matmul %x, %0 : (!a, !b) -> !c
  return %1 : !c
}
func.func @rhs(%x: !a, %y: !b) -> !c {
  %0 = graph.matmul %x, %y : (!a, !b) -> !c
  %1 = graph.scalar_mul %0, -0.75 : !c
  return %1 : !c
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Transpose
    //===------------------------------------------------------------------===//
    {"transpose_involution", "transposing twice is the identity",
     "(forall ((x T)) (= (transpose (transpose x)) x))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
})mlir",
     kSigned, kUnit},
    {"transpose_of_matmul",
     "the transpose of a product is the product of the transposes, swapped",
     "(forall ((x T) (y T)) (= (transpose (matmul x y)) (matmul (transpose y) "
     "(transpose x))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> tensor<4x2xf32> {
  %0 = graph.matmul %x, %y : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<2x4xf32> -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> tensor<4x2xf32> {
  %0 = graph.transpose %y, perm = [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
  %1 = graph.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = graph.matmul %0, %1 : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return %2 : tensor<4x2xf32>
})mlir",
     kSigned, kUnit},
    {"transpose_of_add", "transpose distributes over addition",
     "(forall ((x T) (y T)) (= (transpose (add x y)) (add (transpose x) "
     "(transpose y))))",
     R"mlir(!a = tensor<2x3xf32>
!t = tensor<3x2xf32>
func.func @lhs(%x: !a, %y: !a) -> !t {
  %0 = graph.add %x, %y : (!a, !a) -> !a
  %1 = graph.transpose %0, perm = [1, 0] : !a -> !t
  return %1 : !t
}
func.func @rhs(%x: !a, %y: !a) -> !t {
  %0 = graph.transpose %x, perm = [1, 0] : !a -> !t
  %1 = graph.transpose %y, perm = [1, 0] : !a -> !t
  %2 = graph.add %0, %1 : (!t, !t) -> !t
  return %2 : !t
})mlir",
     kSigned, kUnit},
    {"transpose_of_mul",
     "transpose distributes over elementwise multiplication",
     "(forall ((x T) (y T)) (= (transpose (mul x y)) (mul (transpose x) "
     "(transpose y))))",
     R"mlir(!a = tensor<2x3xf32>
!t = tensor<3x2xf32>
func.func @lhs(%x: !a, %y: !a) -> !t {
  %0 = graph.mul %x, %y : (!a, !a) -> !a
  %1 = graph.transpose %0, perm = [1, 0] : !a -> !t
  return %1 : !t
}
func.func @rhs(%x: !a, %y: !a) -> !t {
  %0 = graph.transpose %x, perm = [1, 0] : !a -> !t
  %1 = graph.transpose %y, perm = [1, 0] : !a -> !t
  %2 = graph.mul %0, %1 : (!t, !t) -> !t
  return %2 : !t
})mlir",
     kSigned, kUnit},
    {"transpose_of_scalar_mul", "transpose commutes with scaling",
     "(forall ((c Real) (x T)) (= (transpose (scalar_mul c x)) (scalar_mul c "
     "(transpose x))))",
     R"mlir(!a = tensor<2x3xf32>
!t = tensor<3x2xf32>
func.func @lhs(%x: !a) -> !t {
  %0 = graph.scalar_mul %x, 2.5 : !a
  %1 = graph.transpose %0, perm = [1, 0] : !a -> !t
  return %1 : !t
}
func.func @rhs(%x: !a) -> !t {
  %0 = graph.transpose %x, perm = [1, 0] : !a -> !t
  %1 = graph.scalar_mul %0, 2.5 : !t
  return %1 : !t
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Concat and split
    //===------------------------------------------------------------------===//
    {"matmul_of_row_concat",
     "a product with row-stacked left operand stacks the products",
     "(forall ((x T) (y T) (z T)) (= (matmul (concat 0 x y) z) (concat 0 "
     "(matmul x z) (matmul y z))))",
     R"mlir(func.func @lhs(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>, %z: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = graph.concat(%x, %y) dim = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %1 = graph.matmul %0, %z : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
func.func @rhs(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>, %z: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = graph.matmul %x, %z : (tensor<1x3xf32>, tensor<3x4xf32>) -> tensor<1x4xf32>
  %1 = graph.matmul %y, %z : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %2 = graph.concat(%0, %1) dim = 0 : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %2 : tensor<3x4xf32>
})mlir",
     kSigned, kUnit},
    {"matmul_of_column_concat",
     "a product with column-stacked right operand stacks the products",
     "(forall ((x T) (y T) (z T)) (= (matmul x (concat 1 y z)) (concat 1 "
     "(matmul x y) (matmul x z))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>, %y: tensor<3x1xf32>, %z: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %0 = graph.concat(%y, %z) dim = 1 : (tensor<3x1xf32>, tensor<3x2xf32>) -> tensor<3x3xf32>
  %1 = graph.matmul %x, %0 : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
func.func @rhs(%x: tensor<2x3xf32>, %y: tensor<3x1xf32>, %z: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %0 = graph.matmul %x, %y : (tensor<2x3xf32>, tensor<3x1xf32>) -> tensor<2x1xf32>
  %1 = graph.matmul %x, %z : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
})mlir",
     kSigned, kUnit},
    {"matmul_of_inner_concat",
     "splitting the inner dimension of a product sums the partial products",
     "(forall ((a T) (b T) (c T) (d T)) (= (matmul (concat 1 a b) (concat 0 c "
     "d)) (add (matmul a c) (matmul b d))))",
     R"mlir(func.func @lhs(%a: tensor<2x1xf32>, %b: tensor<2x2xf32>, %c: tensor<1x4xf32>, %d: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.concat(%a, %b) dim = 1 : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  %1 = graph.concat(%c, %d) dim = 0 : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %2 = graph.matmul %0, %1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}
func.func @rhs(%a: tensor<2x1xf32>, %b: tensor<2x2xf32>, %c: tensor<1x4xf32>, %d: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.matmul %a, %c : (tensor<2x1xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %1 = graph.matmul %b, %d : (tensor<2x2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = graph.add %0, %1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
})mlir",
     kSigned, kUnit},
    {"add_of_concats",
     "the sum of two equally split concats is the concat of the sums",
     "(forall ((k Int) (a T) (b T) (c T) (d T)) (= (add (concat k a b) "
     "(concat k c d)) (concat k (add a c) (add b d))))",
     R"mlir(!p = tensor<2x1xf32>
!q = tensor<2x2xf32>
!m = tensor<2x3xf32>
func.func @lhs(%a: !p, %b: !q, %c: !p, %d: !q) -> !m {
  %0 = graph.concat(%a, %b) dim = 1 : (!p, !q) -> !m
  %1 = graph.concat(%c, %d) dim = 1 : (!p, !q) -> !m
  %2 = graph.add %0, %1 : (!m, !m) -> !m
  return %2 : !m
}
func.func @rhs(%a: !p, %b: !q, %c: !p, %d: !q) -> !m {
  %0 = graph.add %a, %c : (!p, !p) -> !p
  %1 = graph.add %b, %d : (!q, !q) -> !q
  %2 = graph.concat(%0, %1) dim = 1 : (!p, !q) -> !m
  return %2 : !m
})mlir",
     kSigned, kUnit},
    {"transpose_of_concat",
     "transposing a row concat gives the column concat of the transposes",
     "(forall ((x T) (y T)) (= (transpose (concat 0 x y)) (concat 1 "
     "(transpose x) (transpose y))))",
     R"mlir(func.func @lhs(%x: tensor<1x4xf32>, %y: tensor<2x4xf32>) -> tensor<4x3xf32> {
  %0 = graph.concat(%x, %y) dim = 0 : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}
func.func @rhs(%x: tensor<1x4xf32>, %y: tensor<2x4xf32>) -> tensor<4x3xf32> {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<1x4xf32> -> tensor<4x1xf32>
  %1 = graph.transpose %y, perm = [1, 0] : tensor<2x4xf32> -> tensor<4x2xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<4x1xf32>, tensor<4x2xf32>) -> tensor<4x3xf32>
  return %2 : tensor<4x3xf32>
})mlir",
     kSigned, kUnit},
    {"split_0_of_concat", "the first piece of a split concat is its first part",
     "(forall ((k Int) (x T) (y T)) (= (split_0 k (concat k x y)) x))",
     R"mlir(func.func @lhs(%x: tensor<2x1xf32>, %y: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = graph.concat(%x, %y) dim = 1 : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  %1:2 = graph.split %0, dim = 1, sizes = [1, 3] : tensor<2x4xf32> -> tensor<2x1xf32>, tensor<2x3xf32>
  return %1#0 : tensor<2x1xf32>
}
func.func @rhs(%x: tensor<2x1xf32>, %y: tensor<2x3xf32>) -> tensor<2x1xf32> {
  return %x : tensor<2x1xf32>
})mlir",
     kSigned, kUnit},
    {"split_1_of_concat",
     "the second piece of a split concat is its second part",
     "(forall ((k Int) (x T) (y T)) (= (split_1 k (concat k x y)) y))",
     R"mlir(func.func @lhs(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.concat(%x, %y) dim = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %1:2 = graph.split %0, dim = 0, sizes = [1, 2] : tensor<3x3xf32> -> tensor<1x3xf32>, tensor<2x3xf32>
  return %1#1 : tensor<2x3xf32>
}
func.func @rhs(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %y : tensor<2x3xf32>
})mlir",
     kSigned, kUnit},
    {"concat_of_splits", "concatenating the two pieces of a split restores it",
     "(forall ((k Int) (x T)) (= (concat k (split_0 k x) (split_1 k x)) x))",
     R"mlir(func.func @lhs(%x: tensor<2x3x2xf32>) -> tensor<2x3x2xf32> {
  %0:2 = graph.split %x, dim = 1, sizes = [2, 1] : tensor<2x3x2xf32> -> tensor<2x2x2xf32>, tensor<2x1x2xf32>
  %1 = graph.concat(%0#0, %0#1) dim = 1 : (tensor<2x2x2xf32>, tensor<2x1x2xf32>) -> tensor<2x3x2xf32>
  return %1 : tensor<2x3x2xf32>
}
func.func @rhs(%x: tensor<2x3x2xf32>) -> tensor<2x3x2xf32> {
  return %x : tensor<2x3x2xf32>
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Reductions
    //===------------------------------------------------------------------===//
    {"reduce_sum_of_add", "a sum reduction distributes over addition",
     "(forall ((k Int) (x T) (y T)) (= (reduce_sum k (add x y)) (add "
     "(reduce_sum k x) (reduce_sum k y))))",
     R"mlir(!m = tensor<2x3xf32>
!r = tensor<2x1xf32>
func.func @lhs(%x: !m, %y: !m) -> !r {
  %0 = graph.add %x, %y : (!m, !m) -> !m
  %1 = graph.reduce_sum %0, dim = 1 : !m -> !r
  return %1 : !r
}
func.func @rhs(%x: !m, %y: !m) -> !r {
  %0 = graph.reduce_sum %x, dim = 1 : !m -> !r
  %1 = graph.reduce_sum %y, dim = 1 : !m -> !r
  %2 = graph.add %0, %1 : (!r, !r) -> !r
  return %2 : !r
})mlir",
     kSigned, kUnit},
    {"reduce_sum_of_scalar_mul", "a sum reduction commutes with scaling",
     "(forall ((k Int) (c Real) (x T)) (= (reduce_sum k (scalar_mul c x)) "
     "(scalar_mul c (reduce_sum k x))))",
     R"mlir(!m = tensor<2x3xf32>
!r = tensor<1x3xf32>
func.func @lhs(%x: !m) -> !r {
  %0 = graph.scalar_mul %x, 2.5 : !m
  %1 = graph.reduce_sum %0, dim = 0 : !m -> !r
  return %1 : !r
}
func.func @rhs(%x: !m) -> !r {
  %0 = graph.reduce_sum %x, dim = 0 : !m -> !r
  %1 = graph.scalar_mul %0, 2.5 : !r
  return %1 : !r
})mlir",
     kSigned, kUnit},
    {"reduce_sum_commutes", "sum reductions over two dimensions commute",
     "(forall ((i Int) (j Int) (x T)) (= (reduce_sum i (reduce_sum j x)) "
     "(reduce_sum j (reduce_sum i x))))",
     R"mlir(func.func @lhs(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  %0 = graph.reduce_sum %x, dim = 2 : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  %1 = graph.reduce_sum %0, dim = 0 : tensor<2x3x1xf32> -> tensor<1x3x1xf32>
  return %1 : tensor<1x3x1xf32>
}
func.func @rhs(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  %0 = graph.reduce_sum %x, dim = 0 : tensor<2x3x4xf32> -> tensor<1x3x4xf32>
  %1 = graph.reduce_sum %0, dim = 2 : tensor<1x3x4xf32> -> tensor<1x3x1xf32>
  return %1 : tensor<1x3x1xf32>
})mlir",
     kSigned, kUnit},
    {"reduce_sum_of_matmul_rows",
     "summing a product's rows sums the left operand's rows first",
     "(forall ((x T) (y T)) (= (reduce_sum 0 (matmul x y)) (matmul "
     "(reduce_sum 0 x) y)))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> tensor<1x4xf32> {
  %0 = graph.matmul %x, %y : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.reduce_sum %0, dim = 0 : tensor<2x4xf32> -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
func.func @rhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> tensor<1x4xf32> {
  %0 = graph.reduce_sum %x, dim = 0 : tensor<2x3xf32> -> tensor<1x3xf32>
  %1 = graph.matmul %0, %y : (tensor<1x3xf32>, tensor<3x4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
})mlir",
     kSigned, kUnit},
    {"reduce_sum_of_matmul_columns",
     "summing a product's columns sums the right operand's columns first",
     "(forall ((x T) (y T)) (= (reduce_sum 1 (matmul x y)) (matmul x "
     "(reduce_sum 1 y))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> tensor<2x1xf32> {
  %0 = graph.matmul %x, %y : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.reduce_sum %0, dim = 1 : tensor<2x4xf32> -> tensor<2x1xf32>
  return %1 : tensor<2x1xf32>
}
func.func @rhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> tensor<2x1xf32> {
  %0 = graph.reduce_sum %y, dim = 1 : tensor<3x4xf32> -> tensor<3x1xf32>
  %1 = graph.matmul %x, %0 : (tensor<2x3xf32>, tensor<3x1xf32>) -> tensor<2x1xf32>
  return %1 : tensor<2x1xf32>
})mlir",
     kSigned, kUnit},
    {"reduce_sum_of_transpose",
     "summing a transpose's rows transposes the sum of the columns",
     "(forall ((x T)) (= (reduce_sum 0 (transpose x)) (transpose (reduce_sum "
     "1 x))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> tensor<1x2xf32> {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = graph.reduce_sum %0, dim = 0 : tensor<3x2xf32> -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> tensor<1x2xf32> {
  %0 = graph.reduce_sum %x, dim = 1 : tensor<2x3xf32> -> tensor<2x1xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<2x1xf32> -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Normalizations and broadcast
    //===------------------------------------------------------------------===//
    {"softmax_definition",
     "softmax is exp divided by its sum (the max shift cancels)",
     "(forall ((k Int) (x T)) (= (softmax k x) (div (exp x) (reduce_sum k "
     "(exp x)))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.softmax %x, dim = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.exp %x : tensor<2x3xf32>
  %1 = graph.reduce_sum %0, dim = 1 : tensor<2x3xf32> -> tensor<2x1xf32>
  %2 = graph.div %0, %1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
})mlir",
     kSigned, kUnit},
    {"rms_norm_scale_invariant",
     "rms_norm (eps = 0) ignores a positive scale of its input",
     "(forall ((c Real) (x T)) (=> (> c 0.0) (= (rms_norm (scalar_mul c x)) "
     "(rms_norm x))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, 2.5 : !m
  %1 = graph.rms_norm %0 : !m
  return %1 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.rms_norm %x : !m
  return %0 : !m
})mlir",
     kSigned, kUnit},
    {"broadcast_of_add", "broadcast distributes over addition",
     "(forall ((x T) (y T)) (= (broadcast (add x y)) (add (broadcast x) "
     "(broadcast y))))",
     R"mlir(!v = tensor<1x3xf32>
!m = tensor<2x3xf32>
func.func @lhs(%x: !v, %y: !v) -> !m {
  %0 = graph.add %x, %y : (!v, !v) -> !v
  %1 = graph.broadcast %0 : !v -> !m
  return %1 : !m
}
func.func @rhs(%x: !v, %y: !v) -> !m {
  %0 = graph.broadcast %x : !v -> !m
  %1 = graph.broadcast %y : !v -> !m
  %2 = graph.add %0, %1 : (!m, !m) -> !m
  return %2 : !m
})mlir",
     kSigned, kUnit},
};

llvm::ArrayRef<OperatorAxiom> mirage::superopt::getOperatorAxioms() {
  // Built once (thread-safe static initialization), never changed.
  static const std::vector<OperatorAxiom> all = [] {
    std::vector<OperatorAxiom> v(std::begin(kAxioms), std::end(kAxioms));
    llvm::ArrayRef<OperatorAxiom> menu = getMenuAxioms();
    v.insert(v.end(), menu.begin(), menu.end());
    return v;
  }();
  return all;
}

const OperatorAxiom *
mirage::superopt::lookupOperatorAxiom(llvm::StringRef name) {
  llvm::ArrayRef<OperatorAxiom> all = getOperatorAxioms();
  const auto *it = llvm::find_if(
      all, [&](const OperatorAxiom &a) { return a.name == name; });
  return it == all.end() ? nullptr : it;
}
