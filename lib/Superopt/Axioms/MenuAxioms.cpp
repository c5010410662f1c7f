//===- MenuAxioms.cpp - axioms the substitution rules' menu needs ---------===//
//
// The operators of the rule menu (docs/GraphRules.md) beyond the original
// table: scalar_add, elementwise ops moving through concat, split and
// transpose, sums of concatenated tensors, convolution and pooling. Like
// the original axioms, each is a statement over untyped tensors with a
// concrete instance the interpreter checks; the shapes of a rule carry what
// an axiom assumes (a per-channel bias, a 1x1 kernel, a split where the
// concat joined).
//
// Statements with several conjuncts (both pieces of a split) have
// instances with several results; the terms read back from an instance
// are those of its first result.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Axioms/OperatorAxioms.h"

using namespace mirage::superopt;

static constexpr double kSigned = -1.0, kUnit = 1.0; // [-1, 1]

// The integer attributes of a convolution and of a pooling, quantified.
#define CONV_VARS "(a Int) (b Int) (c Int) (d Int) (e Int) (f Int) "
#define CONV_ARGS "a b c d e f"
#define POOL_VARS "(k Int) (l Int) (m Int) (n Int) (o Int) (p Int) "
#define POOL_ARGS "k l m n o p"

static const OperatorAxiom kMenuAxioms[] = {
    //===------------------------------------------------------------------===//
    // scalar_add
    //===------------------------------------------------------------------===//
    {"scalar_add_compose", "offsetting by d then c is offsetting by c + d",
     "(forall ((c Real) (d Real) (x T)) (= (scalar_add c (scalar_add d x)) "
     "(scalar_add (+ c d) x)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_add %x, 2.500000e-01 : !m
  %1 = graph.scalar_add %0, 1.500000e+00 : !m
  return %1 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.scalar_add %x, 1.750000e+00 : !m
  return %0 : !m
})mlir",
     kSigned, kUnit},
    {"scalar_add_zero", "offsetting by 0 is the identity",
     "(forall ((x T)) (= (scalar_add 0.0 x) x))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_add %x, 0.000000e+00 : !m
  return %0 : !m
}
func.func @rhs(%x: !m) -> !m {
  return %x : !m
})mlir",
     kSigned, kUnit},
    {"scalar_add_of_add", "an offset moves across a sum",
     "(forall ((c Real) (x T) (y T)) (= (add (scalar_add c x) y) (scalar_add "
     "c (add x y))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.scalar_add %x, 7.500000e-01 : !m
  %1 = graph.add %0, %y : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.add %x, %y : (!m, !m) -> !m
  %1 = graph.scalar_add %0, 7.500000e-01 : !m
  return %1 : !m
})mlir",
     kSigned, kUnit},
    {"scalar_mul_of_scalar_add", "a scale distributes over an offset",
     "(forall ((c Real) (d Real) (x T)) (= (scalar_mul c (scalar_add d x)) "
     "(scalar_add (* c d) (scalar_mul c x))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_add %x, 7.500000e-01 : !m
  %1 = graph.scalar_mul %0, 2.000000e+00 : !m
  return %1 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, 2.000000e+00 : !m
  %1 = graph.scalar_add %0, 1.500000e+00 : !m
  return %1 : !m
})mlir",
     kSigned, kUnit},
    {"mul_of_scalar_add", "a product distributes over an offset",
     "(forall ((c Real) (x T) (y T)) (= (mul x (scalar_add c y)) (add (mul x "
     "y) (scalar_mul c x))))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.scalar_add %y, -2.500000e-01 : !m
  %1 = graph.mul %x, %0 : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.mul %x, %y : (!m, !m) -> !m
  %1 = graph.scalar_mul %x, -2.500000e-01 : !m
  %2 = graph.add %0, %1 : (!m, !m) -> !m
  return %2 : !m
})mlir",
     kSigned, kUnit},
    {"add_of_own_scale", "x plus c times x is (1 + c) times x",
     "(forall ((c Real) (x T)) (= (add x (scalar_mul c x)) (scalar_mul (+ 1.0 "
     "c) x)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, 7.500000e-01 : !m
  %1 = graph.add %x, %0 : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, 1.750000e+00 : !m
  return %0 : !m
})mlir",
     kSigned, kUnit},
    {"add_of_negation", "a tensor plus its negation is zero times it",
     "(forall ((x T)) (= (add x (scalar_mul (- 1.0) x)) (scalar_mul 0.0 x)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, -1.000000e+00 : !m
  %1 = graph.add %x, %0 : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.scalar_mul %x, 0.000000e+00 : !m
  return %0 : !m
})mlir",
     kSigned, kUnit},
    {"add_of_zero_scale", "adding zero times a tensor changes nothing",
     "(forall ((x T) (y T)) (= (add x (scalar_mul 0.0 y)) x))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.scalar_mul %y, 0.000000e+00 : !m
  %1 = graph.add %x, %0 : (!m, !m) -> !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  return %x : !m
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Elementwise ops through transposes
    //===------------------------------------------------------------------===//
    {"transpose_of_exp", "exp commutes with a transpose",
     "(forall ((x T)) (= (transpose (exp x)) (exp (transpose x))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.exp %x : tensor<2x3xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = graph.exp %0 : tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
})mlir",
     kSigned, kUnit},
    {"transpose_of_relu", "relu commutes with a transpose",
     "(forall ((x T)) (= (transpose (relu x)) (relu (transpose x))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.relu %x : tensor<2x3xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = graph.relu %0 : tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
})mlir",
     kSigned, kUnit},
    {"transpose_of_scalar_add", "an offset commutes with a transpose",
     "(forall ((c Real) (x T)) (= (transpose (scalar_add c x)) (scalar_add c "
     "(transpose x))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.scalar_add %x, 1.250000e+00 : tensor<2x3xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = graph.scalar_add %0, 1.250000e+00 : tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
})mlir",
     kSigned, kUnit},
    {"transpose_of_column_concat",
     "transposing a column concat gives the row concat of the transposes",
     "(forall ((x T) (y T)) (= (transpose (concat 1 x y)) (concat 0 "
     "(transpose x) (transpose y))))",
     R"mlir(func.func @lhs(%x: tensor<4x1xf32>, %y: tensor<4x2xf32>) -> tensor<3x4xf32> {
  %0 = graph.concat(%x, %y) dim = 1 : (tensor<4x1xf32>, tensor<4x2xf32>) -> tensor<4x3xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
func.func @rhs(%x: tensor<4x1xf32>, %y: tensor<4x2xf32>) -> tensor<3x4xf32> {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<4x1xf32> -> tensor<1x4xf32>
  %1 = graph.transpose %y, perm = [1, 0] : tensor<4x2xf32> -> tensor<2x4xf32>
  %2 = graph.concat(%0, %1) dim = 0 : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %2 : tensor<3x4xf32>
})mlir",
     kSigned, kUnit},
    {"transpose_of_row_split",
     "splitting a transpose's rows splits the columns before it",
     "(forall ((x T)) (and (= (split_0 0 (transpose x)) (transpose (split_0 1 "
     "x))) (= (split_1 0 (transpose x)) (transpose (split_1 1 x)))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1:2 = graph.split %0, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  return %1#0, %1#1 : tensor<1x2xf32>, tensor<2x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  %0:2 = graph.split %x, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  %1 = graph.transpose %0#0, perm = [1, 0] : tensor<2x1xf32> -> tensor<1x2xf32>
  %2 = graph.transpose %0#1, perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  return %1, %2 : tensor<1x2xf32>, tensor<2x2xf32>
})mlir",
     kSigned, kUnit},
    {"transpose_of_column_split",
     "splitting a transpose's columns splits the rows before it",
     "(forall ((x T)) (and (= (split_0 1 (transpose x)) (transpose (split_0 0 "
     "x))) (= (split_1 1 (transpose x)) (transpose (split_1 0 x)))))",
     R"mlir(func.func @lhs(%x: tensor<3x2xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  %1:2 = graph.split %0, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  return %1#0, %1#1 : tensor<2x1xf32>, tensor<2x2xf32>
}
func.func @rhs(%x: tensor<3x2xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0:2 = graph.split %x, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  %1 = graph.transpose %0#0, perm = [1, 0] : tensor<1x2xf32> -> tensor<2x1xf32>
  %2 = graph.transpose %0#1, perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  return %1, %2 : tensor<2x1xf32>, tensor<2x2xf32>
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Elementwise ops through concat and split
    //===------------------------------------------------------------------===//
    {"concat_of_exp", "exp of the parts is exp of the concat",
     "(forall ((k Int) (x T) (y T)) (= (concat k (exp x) (exp y)) (exp "
     "(concat k x y))))",
     R"mlir(func.func @lhs(%x: tensor<2x1xf32>, %y: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %0 = graph.exp %x : tensor<2x1xf32>
  %1 = graph.exp %y : tensor<2x3xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}
func.func @rhs(%x: tensor<2x1xf32>, %y: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %0 = graph.concat(%x, %y) dim = 1 : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  %1 = graph.exp %0 : tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
})mlir",
     kSigned, kUnit},
    {"concat_of_relu", "relu of the parts is relu of the concat",
     "(forall ((k Int) (x T) (y T)) (= (concat k (relu x) (relu y)) (relu "
     "(concat k x y))))",
     R"mlir(func.func @lhs(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = graph.relu %x : tensor<1x3xf32>
  %1 = graph.relu %y : tensor<2x3xf32>
  %2 = graph.concat(%0, %1) dim = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %2 : tensor<3x3xf32>
}
func.func @rhs(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = graph.concat(%x, %y) dim = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %1 = graph.relu %0 : tensor<3x3xf32>
  return %1 : tensor<3x3xf32>
})mlir",
     kSigned, kUnit},
    {"concat_of_scalar_mul", "scaling the parts is scaling the concat",
     "(forall ((k Int) (c Real) (x T) (y T)) (= (concat k (scalar_mul c x) "
     "(scalar_mul c y)) (scalar_mul c (concat k x y))))",
     R"mlir(func.func @lhs(%x: tensor<2x1xf32>, %y: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %0 = graph.scalar_mul %x, 1.500000e+00 : tensor<2x1xf32>
  %1 = graph.scalar_mul %y, 1.500000e+00 : tensor<2x3xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}
func.func @rhs(%x: tensor<2x1xf32>, %y: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %0 = graph.concat(%x, %y) dim = 1 : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  %1 = graph.scalar_mul %0, 1.500000e+00 : tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
})mlir",
     kSigned, kUnit},
    {"concat_of_scalar_add", "offsetting the parts is offsetting the concat",
     "(forall ((k Int) (c Real) (x T) (y T)) (= (concat k (scalar_add c x) "
     "(scalar_add c y)) (scalar_add c (concat k x y))))",
     R"mlir(func.func @lhs(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = graph.scalar_add %x, -5.000000e-01 : tensor<1x3xf32>
  %1 = graph.scalar_add %y, -5.000000e-01 : tensor<2x3xf32>
  %2 = graph.concat(%0, %1) dim = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %2 : tensor<3x3xf32>
}
func.func @rhs(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = graph.concat(%x, %y) dim = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %1 = graph.scalar_add %0, -5.000000e-01 : tensor<3x3xf32>
  return %1 : tensor<3x3xf32>
})mlir",
     kSigned, kUnit},
    {"split_of_exp", "the pieces of an exp are the exps of the pieces",
     "(forall ((k Int) (x T)) (and (= (split_0 k (exp x)) (exp (split_0 k "
     "x))) (= (split_1 k (exp x)) (exp (split_1 k x)))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0 = graph.exp %x : tensor<2x3xf32>
  %1:2 = graph.split %0, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  return %1#0, %1#1 : tensor<2x1xf32>, tensor<2x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0:2 = graph.split %x, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  %1 = graph.exp %0#0 : tensor<2x1xf32>
  %2 = graph.exp %0#1 : tensor<2x2xf32>
  return %1, %2 : tensor<2x1xf32>, tensor<2x2xf32>
})mlir",
     kSigned, kUnit},
    {"split_of_relu", "the pieces of a relu are the relus of the pieces",
     "(forall ((k Int) (x T)) (and (= (split_0 k (relu x)) (relu (split_0 k "
     "x))) (= (split_1 k (relu x)) (relu (split_1 k x)))))",
     R"mlir(func.func @lhs(%x: tensor<3x2xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  %0 = graph.relu %x : tensor<3x2xf32>
  %1:2 = graph.split %0, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  return %1#0, %1#1 : tensor<1x2xf32>, tensor<2x2xf32>
}
func.func @rhs(%x: tensor<3x2xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  %0:2 = graph.split %x, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  %1 = graph.relu %0#0 : tensor<1x2xf32>
  %2 = graph.relu %0#1 : tensor<2x2xf32>
  return %1, %2 : tensor<1x2xf32>, tensor<2x2xf32>
})mlir",
     kSigned, kUnit},
    {"split_of_scalar_mul", "the pieces of a scaled tensor are scaled pieces",
     "(forall ((k Int) (c Real) (x T)) (and (= (split_0 k (scalar_mul c x)) "
     "(scalar_mul c (split_0 k x))) (= (split_1 k (scalar_mul c x)) "
     "(scalar_mul c (split_1 k x)))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0 = graph.scalar_mul %x, -2.000000e+00 : tensor<2x3xf32>
  %1:2 = graph.split %0, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  return %1#0, %1#1 : tensor<2x1xf32>, tensor<2x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0:2 = graph.split %x, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  %1 = graph.scalar_mul %0#0, -2.000000e+00 : tensor<2x1xf32>
  %2 = graph.scalar_mul %0#1, -2.000000e+00 : tensor<2x2xf32>
  return %1, %2 : tensor<2x1xf32>, tensor<2x2xf32>
})mlir",
     kSigned, kUnit},
    {"split_of_scalar_add", "the pieces of an offset tensor are offset pieces",
     "(forall ((k Int) (c Real) (x T)) (and (= (split_0 k (scalar_add c x)) "
     "(scalar_add c (split_0 k x))) (= (split_1 k (scalar_add c x)) "
     "(scalar_add c (split_1 k x)))))",
     R"mlir(func.func @lhs(%x: tensor<3x2xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  %0 = graph.scalar_add %x, 5.000000e-01 : tensor<3x2xf32>
  %1:2 = graph.split %0, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  return %1#0, %1#1 : tensor<1x2xf32>, tensor<2x2xf32>
}
func.func @rhs(%x: tensor<3x2xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  %0:2 = graph.split %x, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  %1 = graph.scalar_add %0#0, 5.000000e-01 : tensor<1x2xf32>
  %2 = graph.scalar_add %0#1, 5.000000e-01 : tensor<2x2xf32>
  return %1, %2 : tensor<1x2xf32>, tensor<2x2xf32>
})mlir",
     kSigned, kUnit},
    {"split_of_add", "the pieces of a sum are the sums of the pieces",
     "(forall ((k Int) (x T) (y T)) (and (= (split_0 k (add x y)) (add "
     "(split_0 k x) (split_0 k y))) (= (split_1 k (add x y)) (add (split_1 k "
     "x) (split_1 k y)))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0 = graph.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1:2 = graph.split %0, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  return %1#0, %1#1 : tensor<2x1xf32>, tensor<2x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0:2 = graph.split %x, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  %1:2 = graph.split %y, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  %2 = graph.add %0#0, %1#0 : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %3 = graph.add %0#1, %1#1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %2, %3 : tensor<2x1xf32>, tensor<2x2xf32>
})mlir",
     kSigned, kUnit},
    {"split_of_mul", "the pieces of a product are the products of the pieces",
     "(forall ((k Int) (x T) (y T)) (and (= (split_0 k (mul x y)) (mul "
     "(split_0 k x) (split_0 k y))) (= (split_1 k (mul x y)) (mul (split_1 k "
     "x) (split_1 k y)))))",
     R"mlir(func.func @lhs(%x: tensor<3x2xf32>, %y: tensor<3x2xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  %0 = graph.mul %x, %y : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1:2 = graph.split %0, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  return %1#0, %1#1 : tensor<1x2xf32>, tensor<2x2xf32>
}
func.func @rhs(%x: tensor<3x2xf32>, %y: tensor<3x2xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  %0:2 = graph.split %x, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  %1:2 = graph.split %y, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  %2 = graph.mul %0#0, %1#0 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  %3 = graph.mul %0#1, %1#1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %2, %3 : tensor<1x2xf32>, tensor<2x2xf32>
})mlir",
     kSigned, kUnit},
    {"mul_of_concats",
     "the product of two equally split concats is the concat of the products",
     "(forall ((k Int) (a T) (b T) (c T) (d T)) (= (mul (concat k a b) "
     "(concat k c d)) (concat k (mul a c) (mul b d))))",
     R"mlir(func.func @lhs(%a: tensor<2x1xf32>, %b: tensor<2x2xf32>, %c: tensor<2x1xf32>, %d: tensor<2x2xf32>) -> tensor<2x3xf32> {
  %0 = graph.concat(%a, %b) dim = 1 : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  %1 = graph.concat(%c, %d) dim = 1 : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  %2 = graph.mul %0, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
func.func @rhs(%a: tensor<2x1xf32>, %b: tensor<2x2xf32>, %c: tensor<2x1xf32>, %d: tensor<2x2xf32>) -> tensor<2x3xf32> {
  %0 = graph.mul %a, %c : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %1 = graph.mul %b, %d : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Broadcast vectors (biases, scales) against a concat along channels
    //===------------------------------------------------------------------===//
    {"add_of_concat_broadcast",
     "a vector of per-column (per-channel) values, concatenated, adds to a "
     "concat along the columns (channels) part by part",
     "(forall ((a T) (b T) (c T) (d T)) (= (add (concat 1 a b) (concat 0 c "
     "d)) (concat 1 (add a c) (add b d))))",
     R"mlir(func.func @lhs(%a: tensor<2x1xf32>, %b: tensor<2x2xf32>, %c: tensor<1xf32>, %d: tensor<2xf32>) -> tensor<2x3xf32> {
  %0 = graph.concat(%a, %b) dim = 1 : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  %1 = graph.concat(%c, %d) dim = 0 : (tensor<1xf32>, tensor<2xf32>) -> tensor<3xf32>
  %2 = graph.add %0, %1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
func.func @rhs(%a: tensor<2x1xf32>, %b: tensor<2x2xf32>, %c: tensor<1xf32>, %d: tensor<2xf32>) -> tensor<2x3xf32> {
  %0 = graph.add %a, %c : (tensor<2x1xf32>, tensor<1xf32>) -> tensor<2x1xf32>
  %1 = graph.add %b, %d : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
})mlir",
     kSigned, kUnit},
    {"mul_of_concat_broadcast",
     "a concatenated vector of per-channel scales scales a concat along the "
     "channels part by part",
     "(forall ((a T) (b T) (c T) (d T)) (= (mul (concat 1 a b) (concat 0 c "
     "d)) (concat 1 (mul a c) (mul b d))))",
     R"mlir(func.func @lhs(%a: tensor<2x1x2x2xf32>, %b: tensor<2x2x2x2xf32>, %c: tensor<1x1x1xf32>, %d: tensor<2x1x1xf32>) -> tensor<2x3x2x2xf32> {
  %0 = graph.concat(%a, %b) dim = 1 : (tensor<2x1x2x2xf32>, tensor<2x2x2x2xf32>) -> tensor<2x3x2x2xf32>
  %1 = graph.concat(%c, %d) dim = 0 : (tensor<1x1x1xf32>, tensor<2x1x1xf32>) -> tensor<3x1x1xf32>
  %2 = graph.mul %0, %1 : (tensor<2x3x2x2xf32>, tensor<3x1x1xf32>) -> tensor<2x3x2x2xf32>
  return %2 : tensor<2x3x2x2xf32>
}
func.func @rhs(%a: tensor<2x1x2x2xf32>, %b: tensor<2x2x2x2xf32>, %c: tensor<1x1x1xf32>, %d: tensor<2x1x1xf32>) -> tensor<2x3x2x2xf32> {
  %0 = graph.mul %a, %c : (tensor<2x1x2x2xf32>, tensor<1x1x1xf32>) -> tensor<2x1x2x2xf32>
  %1 = graph.mul %b, %d : (tensor<2x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<2x2x2x2xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<2x1x2x2xf32>, tensor<2x2x2x2xf32>) -> tensor<2x3x2x2xf32>
  return %2 : tensor<2x3x2x2xf32>
})mlir",
     kSigned, kUnit},
    {"split_of_add_broadcast",
     "the channel pieces of a tensor plus a concatenated bias are the pieces "
     "plus each bias",
     "(forall ((y T) (c T) (d T)) (and (= (split_0 1 (add y (concat 0 c d))) "
     "(add (split_0 1 y) c)) (= (split_1 1 (add y (concat 0 c d))) (add "
     "(split_1 1 y) d))))",
     R"mlir(func.func @lhs(%y: tensor<2x3x2x2xf32>, %c: tensor<1x1x1xf32>, %d: tensor<2x1x1xf32>) -> (tensor<2x1x2x2xf32>, tensor<2x2x2x2xf32>) {
  %0 = graph.concat(%c, %d) dim = 0 : (tensor<1x1x1xf32>, tensor<2x1x1xf32>) -> tensor<3x1x1xf32>
  %1 = graph.add %y, %0 : (tensor<2x3x2x2xf32>, tensor<3x1x1xf32>) -> tensor<2x3x2x2xf32>
  %2:2 = graph.split %1, dim = 1, sizes = [1, 2] : tensor<2x3x2x2xf32> -> tensor<2x1x2x2xf32>, tensor<2x2x2x2xf32>
  return %2#0, %2#1 : tensor<2x1x2x2xf32>, tensor<2x2x2x2xf32>
}
func.func @rhs(%y: tensor<2x3x2x2xf32>, %c: tensor<1x1x1xf32>, %d: tensor<2x1x1xf32>) -> (tensor<2x1x2x2xf32>, tensor<2x2x2x2xf32>) {
  %0:2 = graph.split %y, dim = 1, sizes = [1, 2] : tensor<2x3x2x2xf32> -> tensor<2x1x2x2xf32>, tensor<2x2x2x2xf32>
  %1 = graph.add %0#0, %c : (tensor<2x1x2x2xf32>, tensor<1x1x1xf32>) -> tensor<2x1x2x2xf32>
  %2 = graph.add %0#1, %d : (tensor<2x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<2x2x2x2xf32>
  return %1, %2 : tensor<2x1x2x2xf32>, tensor<2x2x2x2xf32>
})mlir",
     kSigned, kUnit},
    {"split_of_mul_broadcast",
     "the column pieces of a matrix times a concatenated row vector are the "
     "pieces times each vector",
     "(forall ((y T) (c T) (d T)) (and (= (split_0 1 (mul y (concat 0 c d))) "
     "(mul (split_0 1 y) c)) (= (split_1 1 (mul y (concat 0 c d))) (mul "
     "(split_1 1 y) d))))",
     R"mlir(func.func @lhs(%y: tensor<2x3xf32>, %c: tensor<1xf32>, %d: tensor<2xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0 = graph.concat(%c, %d) dim = 0 : (tensor<1xf32>, tensor<2xf32>) -> tensor<3xf32>
  %1 = graph.mul %y, %0 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2:2 = graph.split %1, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  return %2#0, %2#1 : tensor<2x1xf32>, tensor<2x2xf32>
}
func.func @rhs(%y: tensor<2x3xf32>, %c: tensor<1xf32>, %d: tensor<2xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>) {
  %0:2 = graph.split %y, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  %1 = graph.mul %0#0, %c : (tensor<2x1xf32>, tensor<1xf32>) -> tensor<2x1xf32>
  %2 = graph.mul %0#1, %d : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %1, %2 : tensor<2x1xf32>, tensor<2x2xf32>
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Sums
    //===------------------------------------------------------------------===//
    {"reduce_sum_of_concat",
     "a sum over the concatenated dimension adds the parts' sums",
     "(forall ((k Int) (x T) (y T)) (= (reduce_sum k (concat k x y)) (add "
     "(reduce_sum k x) (reduce_sum k y))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>, %y: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %0 = graph.concat(%x, %y) dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  %1 = graph.reduce_sum %0, dim = 0 : tensor<3x3xf32> -> tensor<1x3xf32>
  return %1 : tensor<1x3xf32>
}
func.func @rhs(%x: tensor<2x3xf32>, %y: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %0 = graph.reduce_sum %x, dim = 0 : tensor<2x3xf32> -> tensor<1x3xf32>
  %1 = graph.reduce_sum %y, dim = 0 : tensor<1x3xf32> -> tensor<1x3xf32>
  %2 = graph.add %0, %1 : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  return %2 : tensor<1x3xf32>
})mlir",
     kSigned, kUnit},
    {"reduce_sum_of_other_concat",
     "a sum over another dimension than the concat's concatenates the sums",
     "(forall ((j Int) (k Int) (x T) (y T)) (=> (not (= j k)) (= (reduce_sum "
     "j (concat k x y)) (concat k (reduce_sum j x) (reduce_sum j y)))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<1x4xf32> {
  %0 = graph.concat(%x, %y) dim = 1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %1 = graph.reduce_sum %0, dim = 0 : tensor<2x4xf32> -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
func.func @rhs(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<1x4xf32> {
  %0 = graph.reduce_sum %x, dim = 0 : tensor<2x3xf32> -> tensor<1x3xf32>
  %1 = graph.reduce_sum %y, dim = 0 : tensor<2x1xf32> -> tensor<1x1xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<1x3xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  return %2 : tensor<1x4xf32>
})mlir",
     kSigned, kUnit},
    {"reduce_sum_of_split",
     "a sum over another dimension than the split's splits the sum",
     "(forall ((j Int) (k Int) (x T)) (=> (not (= j k)) (and (= (split_0 k "
     "(reduce_sum j x)) (reduce_sum j (split_0 k x))) (= (split_1 k "
     "(reduce_sum j x)) (reduce_sum j (split_1 k x))))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> (tensor<1x1xf32>, tensor<1x2xf32>) {
  %0 = graph.reduce_sum %x, dim = 0 : tensor<2x3xf32> -> tensor<1x3xf32>
  %1:2 = graph.split %0, dim = 1, sizes = [1, 2] : tensor<1x3xf32> -> tensor<1x1xf32>, tensor<1x2xf32>
  return %1#0, %1#1 : tensor<1x1xf32>, tensor<1x2xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> (tensor<1x1xf32>, tensor<1x2xf32>) {
  %0:2 = graph.split %x, dim = 1, sizes = [1, 2] : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x2xf32>
  %1 = graph.reduce_sum %0#0, dim = 0 : tensor<2x1xf32> -> tensor<1x1xf32>
  %2 = graph.reduce_sum %0#1, dim = 0 : tensor<2x2xf32> -> tensor<1x2xf32>
  return %1, %2 : tensor<1x1xf32>, tensor<1x2xf32>
})mlir",
     kSigned, kUnit},
    {"reduce_sum_idempotent",
     "summing a dimension already summed (of size 1) changes nothing",
     "(forall ((k Int) (x T)) (= (reduce_sum k (reduce_sum k x)) (reduce_sum "
     "k x)))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = graph.reduce_sum %x, dim = 1 : tensor<2x3xf32> -> tensor<2x1xf32>
  %1 = graph.reduce_sum %0, dim = 1 : tensor<2x1xf32> -> tensor<2x1xf32>
  return %1 : tensor<2x1xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = graph.reduce_sum %x, dim = 1 : tensor<2x3xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
})mlir",
     kSigned, kUnit},
    {"reduce_sum_of_transpose_columns",
     "summing a transpose's columns transposes the sum of the rows",
     "(forall ((x T)) (= (reduce_sum 1 (transpose x)) (transpose (reduce_sum "
     "0 x))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>) -> tensor<3x1xf32> {
  %0 = graph.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = graph.reduce_sum %0, dim = 1 : tensor<3x2xf32> -> tensor<3x1xf32>
  return %1 : tensor<3x1xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> tensor<3x1xf32> {
  %0 = graph.reduce_sum %x, dim = 0 : tensor<2x3xf32> -> tensor<1x3xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<1x3xf32> -> tensor<3x1xf32>
  return %1 : tensor<3x1xf32>
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Matrix products of pieces
    //===------------------------------------------------------------------===//
    {"matmul_of_row_split",
     "the row pieces of a product are the products of the left's row pieces",
     "(forall ((x T) (y T)) (and (= (split_0 0 (matmul x y)) (matmul (split_0 "
     "0 x) y)) (= (split_1 0 (matmul x y)) (matmul (split_1 0 x) y))))",
     R"mlir(func.func @lhs(%x: tensor<3x2xf32>, %y: tensor<2x4xf32>) -> (tensor<1x4xf32>, tensor<2x4xf32>) {
  %0 = graph.matmul %x, %y : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %1:2 = graph.split %0, dim = 0, sizes = [1, 2] : tensor<3x4xf32> -> tensor<1x4xf32>, tensor<2x4xf32>
  return %1#0, %1#1 : tensor<1x4xf32>, tensor<2x4xf32>
}
func.func @rhs(%x: tensor<3x2xf32>, %y: tensor<2x4xf32>) -> (tensor<1x4xf32>, tensor<2x4xf32>) {
  %0:2 = graph.split %x, dim = 0, sizes = [1, 2] : tensor<3x2xf32> -> tensor<1x2xf32>, tensor<2x2xf32>
  %1 = graph.matmul %0#0, %y : (tensor<1x2xf32>, tensor<2x4xf32>) -> tensor<1x4xf32>
  %2 = graph.matmul %0#1, %y : (tensor<2x2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %1, %2 : tensor<1x4xf32>, tensor<2x4xf32>
})mlir",
     kSigned, kUnit},
    {"matmul_of_column_split",
     "the column pieces of a product are the products with the right's column "
     "pieces",
     "(forall ((x T) (y T)) (and (= (split_0 1 (matmul x y)) (matmul x "
     "(split_0 1 y))) (= (split_1 1 (matmul x y)) (matmul x (split_1 1 y)))))",
     R"mlir(func.func @lhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> (tensor<2x1xf32>, tensor<2x3xf32>) {
  %0 = graph.matmul %x, %y : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1:2 = graph.split %0, dim = 1, sizes = [1, 3] : tensor<2x4xf32> -> tensor<2x1xf32>, tensor<2x3xf32>
  return %1#0, %1#1 : tensor<2x1xf32>, tensor<2x3xf32>
}
func.func @rhs(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> (tensor<2x1xf32>, tensor<2x3xf32>) {
  %0:2 = graph.split %y, dim = 1, sizes = [1, 3] : tensor<3x4xf32> -> tensor<3x1xf32>, tensor<3x3xf32>
  %1 = graph.matmul %x, %0#0 : (tensor<2x3xf32>, tensor<3x1xf32>) -> tensor<2x1xf32>
  %2 = graph.matmul %x, %0#1 : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  return %1, %2 : tensor<2x1xf32>, tensor<2x3xf32>
})mlir",
     kSigned, kUnit},
    {"relu_idempotent", "relu twice is relu once",
     "(forall ((x T)) (= (relu (relu x)) (relu x)))",
     R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m) -> !m {
  %0 = graph.relu %x : !m
  %1 = graph.relu %0 : !m
  return %1 : !m
}
func.func @rhs(%x: !m) -> !m {
  %0 = graph.relu %x : !m
  return %0 : !m
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Convolution (attributes: stride h, w, padding h, w, dilation h, w,
    // groups)
    //===------------------------------------------------------------------===//
    {"conv_distributes_over_input",
     "a convolution of a sum of inputs is the sum of the convolutions",
     "(forall (" CONV_VARS "(g Int) (x T) (y T) (w T)) (= (conv2d " CONV_ARGS
     " g (add x y) w) (add (conv2d " CONV_ARGS " g x w) (conv2d " CONV_ARGS
     " g y w))))",
     R"mlir(!i = tensor<1x2x4x4xf32>
!w = tensor<3x2x3x3xf32>
!o = tensor<1x3x4x4xf32>
func.func @lhs(%x: !i, %y: !i, %w: !w) -> !o {
  %0 = graph.add %x, %y : (!i, !i) -> !i
  %1 = graph.conv2d %0, %w {padding = array<i64: 1, 1>} : (!i, !w) -> !o
  return %1 : !o
}
func.func @rhs(%x: !i, %y: !i, %w: !w) -> !o {
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1>} : (!i, !w) -> !o
  %1 = graph.conv2d %y, %w {padding = array<i64: 1, 1>} : (!i, !w) -> !o
  %2 = graph.add %0, %1 : (!o, !o) -> !o
  return %2 : !o
})mlir",
     kSigned, kUnit},
    {"conv_distributes_over_weight",
     "a convolution with a sum of weights is the sum of the convolutions",
     "(forall (" CONV_VARS "(g Int) (x T) (w T) (v T)) (= (conv2d " CONV_ARGS
     " g x (add w v)) (add (conv2d " CONV_ARGS " g x w) (conv2d " CONV_ARGS
     " g x v))))",
     R"mlir(!i = tensor<1x4x5x5xf32>
!w = tensor<4x2x3x3xf32>
!o = tensor<1x4x3x3xf32>
func.func @lhs(%x: !i, %w: !w, %v: !w) -> !o {
  %0 = graph.add %w, %v : (!w, !w) -> !w
  %1 = graph.conv2d %x, %0 {groups = 2 : i64} : (!i, !w) -> !o
  return %1 : !o
}
func.func @rhs(%x: !i, %w: !w, %v: !w) -> !o {
  %0 = graph.conv2d %x, %w {groups = 2 : i64} : (!i, !w) -> !o
  %1 = graph.conv2d %x, %v {groups = 2 : i64} : (!i, !w) -> !o
  %2 = graph.add %0, %1 : (!o, !o) -> !o
  return %2 : !o
})mlir",
     kSigned, kUnit},
    {"conv_of_scaled_input", "a scale of the input moves outside",
     "(forall (" CONV_VARS "(g Int) (s Real) (x T) (w T)) (= (conv2d " CONV_ARGS
     " g (scalar_mul s x) w) (scalar_mul s (conv2d " CONV_ARGS " g x w))))",
     R"mlir(!i = tensor<1x2x4x4xf32>
!w = tensor<3x2x3x3xf32>
!o = tensor<1x3x2x2xf32>
func.func @lhs(%x: !i, %w: !w) -> !o {
  %0 = graph.scalar_mul %x, -1.500000e+00 : !i
  %1 = graph.conv2d %0, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (!i, !w) -> !o
  return %1 : !o
}
func.func @rhs(%x: !i, %w: !w) -> !o {
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (!i, !w) -> !o
  %1 = graph.scalar_mul %0, -1.500000e+00 : !o
  return %1 : !o
})mlir",
     kSigned, kUnit},
    {"conv_of_scaled_weight", "a scale of the weight moves outside",
     "(forall (" CONV_VARS "(g Int) (s Real) (x T) (w T)) (= (conv2d " CONV_ARGS
     " g x (scalar_mul s w)) (scalar_mul s (conv2d " CONV_ARGS " g x w))))",
     R"mlir(!i = tensor<2x2x3x3xf32>
!w = tensor<3x2x1x1xf32>
!o = tensor<2x3x3x3xf32>
func.func @lhs(%x: !i, %w: !w) -> !o {
  %0 = graph.scalar_mul %w, 2.500000e-01 : !w
  %1 = graph.conv2d %x, %0 : (!i, !w) -> !o
  return %1 : !o
}
func.func @rhs(%x: !i, %w: !w) -> !o {
  %0 = graph.conv2d %x, %w : (!i, !w) -> !o
  %1 = graph.scalar_mul %0, 2.500000e-01 : !o
  return %1 : !o
})mlir",
     kSigned, kUnit},
    {"conv_of_weight_concat",
     "a convolution with weights stacked along the output channels stacks "
     "the outputs",
     "(forall (" CONV_VARS "(x T) (w T) (v T)) (= (conv2d " CONV_ARGS
     " 1 x (concat 0 w v)) (concat 1 (conv2d " CONV_ARGS " 1 x w) (conv2d "
     CONV_ARGS " 1 x v))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>, %w: tensor<1x2x3x3xf32>, %v: tensor<2x2x3x3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.concat(%w, %v) dim = 0 : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<3x2x3x3xf32>
  %1 = graph.conv2d %x, %0 {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  return %1 : tensor<1x3x4x4xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>, %w: tensor<1x2x3x3xf32>, %v: tensor<2x2x3x3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<1x2x3x3xf32>) -> tensor<1x1x4x4xf32>
  %1 = graph.conv2d %x, %v {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %2 : tensor<1x3x4x4xf32>
})mlir",
     kSigned, kUnit},
    {"conv_of_input_concat",
     "a convolution of inputs stacked along the channels, with weights "
     "stacked alike, is the sum of the convolutions",
     "(forall (" CONV_VARS "(x T) (y T) (w T) (v T)) (= (conv2d " CONV_ARGS
     " 1 (concat 1 x y) (concat 1 w v)) (add (conv2d " CONV_ARGS
     " 1 x w) (conv2d " CONV_ARGS " 1 y v))))",
     R"mlir(func.func @lhs(%x: tensor<1x1x4x4xf32>, %y: tensor<1x2x4x4xf32>, %w: tensor<3x1x3x3xf32>, %v: tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> {
  %0 = graph.concat(%x, %y) dim = 1 : (tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32>
  %1 = graph.concat(%w, %v) dim = 1 : (tensor<3x1x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<3x3x3x3xf32>
  %2 = graph.conv2d %0, %1 : (tensor<1x3x4x4xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x2x2xf32>
  return %2 : tensor<1x3x2x2xf32>
}
func.func @rhs(%x: tensor<1x1x4x4xf32>, %y: tensor<1x2x4x4xf32>, %w: tensor<3x1x3x3xf32>, %v: tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x2x2xf32>
  %1 = graph.conv2d %y, %v : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  %2 = graph.add %0, %1 : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %2 : tensor<1x3x2x2xf32>
})mlir",
     kSigned, kUnit},
    {"conv_of_batch_concat",
     "a convolution of a batch concat concatenates the convolutions",
     "(forall (" CONV_VARS "(g Int) (x T) (y T) (w T)) (= (conv2d " CONV_ARGS
     " g (concat 0 x y) w) (concat 0 (conv2d " CONV_ARGS " g x w) (conv2d "
     CONV_ARGS " g y w))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x3x3xf32>, %y: tensor<2x2x3x3xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<3x2x3x3xf32> {
  %0 = graph.concat(%x, %y) dim = 0 : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<3x2x3x3xf32>
  %1 = graph.conv2d %0, %w {padding = array<i64: 1, 1>} : (tensor<3x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<3x2x3x3xf32>
  return %1 : tensor<3x2x3x3xf32>
}
func.func @rhs(%x: tensor<1x2x3x3xf32>, %y: tensor<2x2x3x3xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<3x2x3x3xf32> {
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.conv2d %y, %w {padding = array<i64: 1, 1>} : (tensor<2x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<2x2x3x3xf32>
  %2 = graph.concat(%0, %1) dim = 0 : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<3x2x3x3xf32>
  return %2 : tensor<3x2x3x3xf32>
})mlir",
     kSigned, kUnit},
    {"conv_of_output_split",
     "the channel pieces of a convolution are the convolutions with the "
     "weight's pieces",
     "(forall (" CONV_VARS "(x T) (w T)) (and (= (split_0 1 (conv2d " CONV_ARGS
     " 1 x w)) (conv2d " CONV_ARGS " 1 x (split_0 0 w))) (= (split_1 1 "
     "(conv2d " CONV_ARGS " 1 x w)) (conv2d " CONV_ARGS
     " 1 x (split_1 0 w)))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x3x3xf32>, %w: tensor<3x2x1x1xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) {
  %0 = graph.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %1:2 = graph.split %0, dim = 1, sizes = [1, 2] : tensor<1x3x3x3xf32> -> tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>
  return %1#0, %1#1 : tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>
}
func.func @rhs(%x: tensor<1x2x3x3xf32>, %w: tensor<3x2x1x1xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) {
  %0:2 = graph.split %w, dim = 0, sizes = [1, 2] : tensor<3x2x1x1xf32> -> tensor<1x2x1x1xf32>, tensor<2x2x1x1xf32>
  %1 = graph.conv2d %x, %0#0 : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x3x3xf32>
  %2 = graph.conv2d %x, %0#1 : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %1, %2 : tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>
})mlir",
     kSigned, kUnit},
    {"conv_of_batch_split",
     "the batch pieces of a convolution are the convolutions of the pieces",
     "(forall (" CONV_VARS "(g Int) (x T) (w T)) (and (= (split_0 0 (conv2d "
     CONV_ARGS " g x w)) (conv2d " CONV_ARGS " g (split_0 0 x) w)) (= (split_1 "
     "0 (conv2d " CONV_ARGS " g x w)) (conv2d " CONV_ARGS
     " g (split_1 0 x) w))))",
     R"mlir(func.func @lhs(%x: tensor<3x2x3x3xf32>, %w: tensor<2x2x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) {
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<3x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<3x2x3x3xf32>
  %1:2 = graph.split %0, dim = 0, sizes = [1, 2] : tensor<3x2x3x3xf32> -> tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>
  return %1#0, %1#1 : tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>
}
func.func @rhs(%x: tensor<3x2x3x3xf32>, %w: tensor<2x2x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) {
  %0:2 = graph.split %x, dim = 0, sizes = [1, 2] : tensor<3x2x3x3xf32> -> tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>
  %1 = graph.conv2d %0#0, %w {padding = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %2 = graph.conv2d %0#1, %w {padding = array<i64: 1, 1>} : (tensor<2x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<2x2x3x3xf32>
  return %1, %2 : tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>
})mlir",
     kSigned, kUnit},
    {"conv_of_output_scale",
     "a per-output-channel scale of a convolution folds into its weight "
     "(batch normalization folding)",
     "(forall (" CONV_VARS "(g Int) (x T) (w T) (s T)) (= (mul (conv2d "
     CONV_ARGS " g x w) s) (conv2d " CONV_ARGS " g x (mul w (reshape 4 s)))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  %1 = graph.mul %0, %s : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  return %1 : tensor<1x3x4x4xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.reshape %s : tensor<3x1x1xf32> -> tensor<3x1x1x1xf32>
  %1 = graph.mul %w, %0 : (tensor<3x2x3x3xf32>, tensor<3x1x1x1xf32>) -> tensor<3x2x3x3xf32>
  %2 = graph.conv2d %x, %1 {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  return %2 : tensor<1x3x4x4xf32>
})mlir",
     kSigned, kUnit},
    {"conv_of_input_scale",
     "a per-input-channel scale of a convolution's input folds into its weight",
     "(forall (" CONV_VARS "(x T) (w T) (s T)) (= (conv2d " CONV_ARGS
     " 1 (mul x s) w) (conv2d " CONV_ARGS " 1 x (mul w s))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %s: tensor<2x1x1xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.mul %x, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.conv2d %0, %w {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  return %1 : tensor<1x3x4x4xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %s: tensor<2x1x1xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.mul %w, %s : (tensor<3x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<3x2x3x3xf32>
  %1 = graph.conv2d %x, %0 {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  return %1 : tensor<1x3x4x4xf32>
})mlir",
     kSigned, kUnit},

    //===------------------------------------------------------------------===//
    // Pooling (attributes: kernel h, w, stride h, w, padding h, w)
    //===------------------------------------------------------------------===//
    {"avg_pool_of_add", "average pooling of a sum sums the poolings",
     "(forall (" POOL_VARS "(x T) (y T)) (= (avg_pool2d " POOL_ARGS
     " (add x y)) (add (avg_pool2d " POOL_ARGS " x) (avg_pool2d " POOL_ARGS
     " y))))",
     R"mlir(!i = tensor<1x2x4x4xf32>
!o = tensor<1x2x4x4xf32>
func.func @lhs(%x: !i, %y: !i) -> !o {
  %0 = graph.add %x, %y : (!i, !i) -> !i
  %1 = graph.avg_pool2d %0, kernel = [3, 3] {padding = array<i64: 1, 1>} : !i -> !o
  return %1 : !o
}
func.func @rhs(%x: !i, %y: !i) -> !o {
  %0 = graph.avg_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 1>} : !i -> !o
  %1 = graph.avg_pool2d %y, kernel = [3, 3] {padding = array<i64: 1, 1>} : !i -> !o
  %2 = graph.add %0, %1 : (!o, !o) -> !o
  return %2 : !o
})mlir",
     kSigned, kUnit},
    {"avg_pool_of_scalar_mul", "average pooling commutes with a scale",
     "(forall (" POOL_VARS "(s Real) (x T)) (= (avg_pool2d " POOL_ARGS
     " (scalar_mul s x)) (scalar_mul s (avg_pool2d " POOL_ARGS " x))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.scalar_mul %x, -7.500000e-01 : tensor<1x2x5x5xf32>
  %1 = graph.avg_pool2d %0, kernel = [3, 3] {strides = array<i64: 2, 2>} : tensor<1x2x5x5xf32> -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}
func.func @rhs(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.avg_pool2d %x, kernel = [3, 3] {strides = array<i64: 2, 2>} : tensor<1x2x5x5xf32> -> tensor<1x2x2x2xf32>
  %1 = graph.scalar_mul %0, -7.500000e-01 : tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
})mlir",
     kSigned, kUnit},
    {"avg_pool_of_channel_scale",
     "average pooling commutes with a per-channel scale",
     "(forall (" POOL_VARS "(x T) (s T)) (= (avg_pool2d " POOL_ARGS
     " (mul x s)) (mul (avg_pool2d " POOL_ARGS " x) s)))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>, %s: tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.mul %x, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.avg_pool2d %0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>, %s: tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.avg_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %1 = graph.mul %0, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
})mlir",
     kSigned, kUnit},
    {"avg_pool_of_pointwise_conv",
     "average pooling commutes with a 1x1 convolution",
     "(forall (" POOL_VARS "(g Int) (x T) (w T)) (= (avg_pool2d " POOL_ARGS
     " (conv2d 1 1 0 0 1 1 g x w)) (conv2d 1 1 0 0 1 1 g (avg_pool2d "
     POOL_ARGS " x) w)))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %1 = graph.avg_pool2d %0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x3x4x4xf32> -> tensor<1x3x4x4xf32>
  return %1 : tensor<1x3x4x4xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.avg_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %1 = graph.conv2d %0, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  return %1 : tensor<1x3x4x4xf32>
})mlir",
     kSigned, kUnit},
    {"avg_pool_of_concat",
     "average pooling of a batch or channel concat concatenates the poolings",
     "(forall (" POOL_VARS "(q Int) (x T) (y T)) (=> (or (= q 0) (= q 1)) (= "
     "(avg_pool2d " POOL_ARGS " (concat q x y)) (concat q (avg_pool2d "
     POOL_ARGS " x) (avg_pool2d " POOL_ARGS " y)))))",
     R"mlir(func.func @lhs(%x: tensor<1x1x4x4xf32>, %y: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.concat(%x, %y) dim = 1 : (tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32>
  %1 = graph.avg_pool2d %0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x3x4x4xf32> -> tensor<1x3x4x4xf32>
  return %1 : tensor<1x3x4x4xf32>
}
func.func @rhs(%x: tensor<1x1x4x4xf32>, %y: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.avg_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x1x4x4xf32> -> tensor<1x1x4x4xf32>
  %1 = graph.avg_pool2d %y, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %2 : tensor<1x3x4x4xf32>
})mlir",
     kSigned, kUnit},
    {"max_pool_of_concat",
     "max pooling of a batch or channel concat concatenates the poolings",
     "(forall (" POOL_VARS "(q Int) (x T) (y T)) (=> (or (= q 0) (= q 1)) (= "
     "(max_pool2d " POOL_ARGS " (concat q x y)) (concat q (max_pool2d "
     POOL_ARGS " x) (max_pool2d " POOL_ARGS " y)))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>, %y: tensor<2x2x4x4xf32>) -> tensor<3x2x2x2xf32> {
  %0 = graph.concat(%x, %y) dim = 0 : (tensor<1x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<3x2x4x4xf32>
  %1 = graph.max_pool2d %0, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<3x2x4x4xf32> -> tensor<3x2x2x2xf32>
  return %1 : tensor<3x2x2x2xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>, %y: tensor<2x2x4x4xf32>) -> tensor<3x2x2x2xf32> {
  %0 = graph.max_pool2d %x, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  %1 = graph.max_pool2d %y, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<2x2x4x4xf32> -> tensor<2x2x2x2xf32>
  %2 = graph.concat(%0, %1) dim = 0 : (tensor<1x2x2x2xf32>, tensor<2x2x2x2xf32>) -> tensor<3x2x2x2xf32>
  return %2 : tensor<3x2x2x2xf32>
})mlir",
     kSigned, kUnit},
    {"avg_pool_of_split",
     "the batch or channel pieces of an average pooling pool the pieces",
     "(forall (" POOL_VARS "(q Int) (x T)) (=> (or (= q 0) (= q 1)) (and (= "
     "(split_0 q (avg_pool2d " POOL_ARGS " x)) (avg_pool2d " POOL_ARGS
     " (split_0 q x))) (= (split_1 q (avg_pool2d " POOL_ARGS " x)) (avg_pool2d "
     POOL_ARGS " (split_1 q x))))))",
     R"mlir(func.func @lhs(%x: tensor<1x3x4x4xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>) {
  %0 = graph.avg_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x3x4x4xf32> -> tensor<1x3x4x4xf32>
  %1:2 = graph.split %0, dim = 1, sizes = [1, 2] : tensor<1x3x4x4xf32> -> tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>
  return %1#0, %1#1 : tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>
}
func.func @rhs(%x: tensor<1x3x4x4xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>) {
  %0:2 = graph.split %x, dim = 1, sizes = [1, 2] : tensor<1x3x4x4xf32> -> tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>
  %1 = graph.avg_pool2d %0#0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x1x4x4xf32> -> tensor<1x1x4x4xf32>
  %2 = graph.avg_pool2d %0#1, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  return %1, %2 : tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>
})mlir",
     kSigned, kUnit},
    {"max_pool_of_split",
     "the batch or channel pieces of a max pooling pool the pieces",
     "(forall (" POOL_VARS "(q Int) (x T)) (=> (or (= q 0) (= q 1)) (and (= "
     "(split_0 q (max_pool2d " POOL_ARGS " x)) (max_pool2d " POOL_ARGS
     " (split_0 q x))) (= (split_1 q (max_pool2d " POOL_ARGS " x)) (max_pool2d "
     POOL_ARGS " (split_1 q x))))))",
     R"mlir(func.func @lhs(%x: tensor<3x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<2x2x4x4xf32>) {
  %0 = graph.max_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<3x2x4x4xf32> -> tensor<3x2x4x4xf32>
  %1:2 = graph.split %0, dim = 0, sizes = [1, 2] : tensor<3x2x4x4xf32> -> tensor<1x2x4x4xf32>, tensor<2x2x4x4xf32>
  return %1#0, %1#1 : tensor<1x2x4x4xf32>, tensor<2x2x4x4xf32>
}
func.func @rhs(%x: tensor<3x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<2x2x4x4xf32>) {
  %0:2 = graph.split %x, dim = 0, sizes = [1, 2] : tensor<3x2x4x4xf32> -> tensor<1x2x4x4xf32>, tensor<2x2x4x4xf32>
  %1 = graph.max_pool2d %0#0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %2 = graph.max_pool2d %0#1, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<2x2x4x4xf32> -> tensor<2x2x4x4xf32>
  return %1, %2 : tensor<1x2x4x4xf32>, tensor<2x2x4x4xf32>
})mlir",
     kSigned, kUnit},
    {"max_pool_of_relu", "max pooling commutes with relu (both are monotone)",
     "(forall (" POOL_VARS "(x T)) (= (max_pool2d " POOL_ARGS
     " (relu x)) (relu (max_pool2d " POOL_ARGS " x))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.relu %x : tensor<1x2x4x4xf32>
  %1 = graph.max_pool2d %0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.max_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %1 = graph.relu %0 : tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
})mlir",
     kSigned, kUnit},
    {"max_pool_of_scalar_mul", "max pooling commutes with a nonnegative scale",
     "(forall (" POOL_VARS "(s Real) (x T)) (=> (>= s 0.0) (= (max_pool2d "
     POOL_ARGS " (scalar_mul s x)) (scalar_mul s (max_pool2d " POOL_ARGS
     " x)))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.scalar_mul %x, 1.750000e+00 : tensor<1x2x4x4xf32>
  %1 = graph.max_pool2d %0, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.max_pool2d %x, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  %1 = graph.scalar_mul %0, 1.750000e+00 : tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
})mlir",
     kSigned, kUnit},
    {"max_pool_of_scalar_add", "max pooling commutes with an offset",
     "(forall (" POOL_VARS "(c Real) (x T)) (= (max_pool2d " POOL_ARGS
     " (scalar_add c x)) (scalar_add c (max_pool2d " POOL_ARGS " x))))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.scalar_add %x, -1.250000e+00 : tensor<1x2x4x4xf32>
  %1 = graph.max_pool2d %0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.max_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %1 = graph.scalar_add %0, -1.250000e+00 : tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
})mlir",
     kSigned, kUnit},
    {"max_pool_of_bias", "max pooling commutes with a per-channel bias",
     "(forall (" POOL_VARS "(x T) (b T)) (= (max_pool2d " POOL_ARGS
     " (add x b)) (add (max_pool2d " POOL_ARGS " x) b)))",
     R"mlir(func.func @lhs(%x: tensor<1x2x4x4xf32>, %b: tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.add %x, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.max_pool2d %0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}
func.func @rhs(%x: tensor<1x2x4x4xf32>, %b: tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.max_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %1 = graph.add %0, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
})mlir",
     kSigned, kUnit},
};

llvm::ArrayRef<OperatorAxiom> mirage::superopt::getMenuAxioms() {
  return kMenuAxioms;
}
