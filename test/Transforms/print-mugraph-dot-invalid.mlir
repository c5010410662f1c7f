// --print-mugraph-dot's errors: a function the module does not define or
// only declares, and an output file that cannot be opened. Each is located
// (the module, the declaration), makes mirage-opt fail, and nothing is
// written.
// RUN: mirage-opt %s -split-input-file -verify-diagnostics --print-mugraph-dot="function=missing" -o /dev/null
// RUN: not mirage-opt %s -split-input-file --print-mugraph-dot="function=missing" -o /dev/null 2> %t.err
// RUN: FileCheck %s --check-prefix=MISSING < %t.err
// The error names the module's location without printing the module.
// MISSING: print-mugraph-dot-invalid.mlir:[[# @LINE + 18]]:1: error: print-mugraph-dot: no function named 'missing' in the module (it has @f, @g)
// MISSING-NOT: note: see current operation
// MISSING-NOT: digraph
//
// No file either, when the function is the error.
// RUN: rm -f %t.dot
// RUN: not mirage-opt %s -split-input-file --print-mugraph-dot="function=missing output=%t.dot" -o /dev/null 2> /dev/null
// RUN: not test -e %t.dot
//
// RUN: not mirage-opt %s --print-mugraph-dot="output=%t.no-such-dir/out.dot" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPEN
// OPEN: error: print-mugraph-dot: cannot open output file '{{.*}}.no-such-dir/out.dot': {{.*}}
// OPEN-NOT: digraph
// RUN: not mirage-opt %s --print-mugraph-dot="output=" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: print-mugraph-dot: cannot open output file '': {{.*}}

// expected-error@+1 {{print-mugraph-dot: no function named 'missing' in the module (it has @f, @g)}}
module {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %y = graph.exp %x : tensor<8xf32>
    return %y : tensor<8xf32>
  }
  func.func private @g(tensor<8xf32>) -> tensor<8xf32>
}

// -----

// expected-error@+1 {{print-mugraph-dot: no function named 'missing' in the module (it has none)}}
module {
}

// -----

// A symbol of that name that is not a function.
// expected-error@+1 {{print-mugraph-dot: no function named 'missing' in the module (it has @f)}}
module {
  module @missing {
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    return %x : tensor<8xf32>
  }
}

// -----

module {
  // expected-error@+1 {{print-mugraph-dot: @missing is a declaration: it has no body to draw}}
  func.func private @missing(tensor<8xf32>) -> tensor<8xf32>
}
