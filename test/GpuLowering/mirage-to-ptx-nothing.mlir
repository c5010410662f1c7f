// A file with no function has nothing to lower: the error is located at its
// first line (its implicit module's own location is line 0), and no file is
// written. A function that is only a view, or that returns an argument,
// lowers to copy kernels (emulate-returned-views.test).
// RUN: rm -rf %t && mkdir -p %t
// RUN: not mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/out cubin=false" 2>&1 | FileCheck %s -DFILE=%s
// RUN: ls %t | count 0
// CHECK: [[FILE]]:1:1: error: the module defines no function to lower; a manifest describes at least one
