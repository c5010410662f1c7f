// Sizes are checked before anything is allocated: a value with 2^31 or
// more elements, or an element count that overflows 64 bits, gets a
// located error (it aborted with std::length_error or "out of memory"),
// and the memory limit, when it binds, says so: the verification did not
// finish, which is neither "equivalent" nor a mismatch.
// RUN: mirage-opt %s --split-input-file --verify-equivalence -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --split-input-file --verify-equivalence="memory-limit=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEMORY
// The remark engine says the same (the last split's remark file):
// RUN: not mirage-opt %s --split-input-file --verify-equivalence="memory-limit=1" --remarks-filter=mirage-verify --remark-format=yaml --remarks-output-file=%t.yaml -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
// The time limit, checked between interpreted ops, binds the same way:
// RUN: not mirage-opt %s --split-input-file --verify-equivalence="time-limit=0.000001" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME
// TIME: error: verification of @wide_copy against @wide did not finish: the time limit of 1e-06 s passed (time-limit)
// YAML: --- !Failure
// YAML-NEXT: Pass: mirage-verify
// YAML-NEXT: Name: Interrupted
// YAML: Function: wide_copy
// YAML: Reason: 'over the memory limit: the finite-field runs of ''wide'' need about 20.0 MiB, more than the memory limit of 1.0 MiB'

// expected-error @+1 {{argument #0 of 'big' [65536, 32768] has 2147483648 elements, more than the limit of 2147483647 that the reference interpreter holds in one value (16 GiB as doubles)}}
func.func @big(%a: tensor<65536x32768xf32>) -> tensor<65536x32768xf32> {
  %c = graph.exp %a : tensor<65536x32768xf32>
  return %c : tensor<65536x32768xf32>
}
func.func @big_copy(%a: tensor<65536x32768xf32>) -> tensor<65536x32768xf32>
    attributes {mirage.equivalent_to = @big} {
  %c = graph.exp %a : tensor<65536x32768xf32>
  return %c : tensor<65536x32768xf32>
}

// -----

// 2^32 x 2^32 elements wrap to 0 in 64 bits.
// expected-error @+1 {{argument #0 of 'huge' [4294967296, 4294967296] has too many elements to count in 64 bits}}
func.func @huge(%a: tensor<4294967296x4294967296xf32>, %b: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  %c = graph.matmul %a, %b : (tensor<4294967296x4294967296xf32>, tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %c : tensor<4294967296x4294967296xf32>
}
func.func @huge_copy(%a: tensor<4294967296x4294967296xf32>, %b: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
    attributes {mirage.equivalent_to = @huge} {
  %c = graph.matmul %a, %b : (tensor<4294967296x4294967296xf32>, tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %c : tensor<4294967296x4294967296xf32>
}

// -----

// A value inside the function, where it is made.
func.func @inner(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  return %a : tensor<2x4xf32>
}
func.func @inner_repeat(%a: tensor<2x4xf32>) -> tensor<2x4xf32>
    attributes {mirage.equivalent_to = @inner} {
  // expected-error @+1 {{result #0 of 'graph.repeat' [131072, 65536] has 8589934592 elements, more than the limit of 2147483647}}
  %r = graph.repeat %a, repeats = [65536, 16384] : tensor<2x4xf32> -> tensor<131072x65536xf32>
  %s = graph.reduce_sum %r, dim = 0 : tensor<131072x65536xf32> -> tensor<1x65536xf32>
  %t = graph.reshape %s : tensor<1x65536xf32> -> tensor<16384x4xf32>
  %u:2 = graph.split %t, dim = 0, sizes = [2, 16382] : tensor<16384x4xf32> -> tensor<2x4xf32>, tensor<16382x4xf32>
  return %u#0 : tensor<2x4xf32>
}

// -----

// Fits the interpreter, but not a memory limit of 1 MiB (with the default,
// the machine's memory, it runs).
// MEMORY: error: verification of @wide_copy against @wide did not finish: over the memory limit: the finite-field runs of 'wide' need about 20.0 MiB, more than the memory limit of 1.0 MiB
func.func @wide(%a: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %c = graph.exp %a : tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}
// expected-remark @+1 {{@wide_copy is equivalent to @wide}}
func.func @wide_copy(%a: tensor<512x512xf32>) -> tensor<512x512xf32>
    attributes {mirage.equivalent_to = @wide} {
  %c = graph.exp %a : tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}
