// RUN: mirage-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// thread.fused: inputs, results and body arguments
//===----------------------------------------------------------------------===//

func.func @no_inputs(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'thread.fused' op must take and produce at least one tile}}
    %f = thread.fused () : () -> !block.tile<16x64xf16> {
      thread.yield
    }
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @no_results(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'thread.fused' op must take and produce at least one tile}}
    thread.fused (%a) : (!block.tile<16x64xf16>) -> () {
    ^bb0(%p: f16):
      thread.yield
    }
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @empty_body(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'thread.fused' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
    %f = "thread.fused"(%a) ({}) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16>
    %o = block.output %f omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @body_without_terminator(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%a) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      // expected-error @+1 {{block with no terminator}}
      %e = thread.unary exp %p : f16
    }
    %o = block.output %f omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @input_not_a_tile(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'thread.fused' op operand #0 must be variadic of shared-memory tile, but got 'tensor<16x64xf16>'}}
    %f = "thread.fused"(%x) ({
    ^bb0(%p: f16):
      "thread.yield"(%p) : (f16) -> ()
    }) : (tensor<16x64xf16>) -> !block.tile<16x64xf16>
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @too_few_body_args(%X: tensor<16x64xf16>, %R: tensor<16x1xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X, %R) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %r: tensor<16x1xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %s = block.input %r imap = <x: replicate> fmap = <i: replicate> : tensor<16x1xf16> -> !block.tile<16x1xf16>
    // expected-error @+1 {{'thread.fused' op body takes 1 elements for 2 input tiles}}
    %f = thread.fused (%t, %s) : (!block.tile<16x64xf16>, !block.tile<16x1xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      thread.yield %p : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @too_many_body_args(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'thread.fused' op body takes 2 elements for 1 input tiles}}
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16, %q: f16):
      %m = thread.binary mul %p, %q : f16
      thread.yield %m : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @body_arg_type(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'thread.fused' op body argument #0 has type 'f32' but input tile #0 holds 'f16'}}
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf32> {
    ^bb0(%p: f32):
      %e = thread.unary exp %p : f32
      thread.yield %e : f32
    }
    %a = block.accum sum %f : !block.tile<16x64xf32> -> !block.tile<16x64xf32>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @second_body_arg_type(%X: tensor<16x64xf16>, %R: tensor<16x1xf32>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X, %R) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x1xf32>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %r: tensor<16x1xf32>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %s = block.input %r imap = <x: replicate> fmap = <i: replicate> : tensor<16x1xf32> -> !block.tile<16x1xf32>
    // expected-error @+1 {{'thread.fused' op body argument #1 has type 'f16' but input tile #1 holds 'f32'}}
    %f = thread.fused (%t, %s) : (!block.tile<16x64xf16>, !block.tile<16x1xf32>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16, %q: f16):
      %m = thread.binary mul %p, %q : f16
      thread.yield %m : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

//===----------------------------------------------------------------------===//
// thread.fused: broadcasting and result shapes
//===----------------------------------------------------------------------===//

func.func @inputs_do_not_broadcast(%X: tensor<16x64xf16>, %R: tensor<16x2xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X, %R) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x2xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %r: tensor<16x2xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %s = block.input %r imap = <x: replicate> fmap = <i: replicate> : tensor<16x2xf16> -> !block.tile<16x2xf16>
    // expected-error @+1 {{shapes [16, 64] and [16, 2] do not broadcast}}
    %f = thread.fused (%t, %s) : (!block.tile<16x64xf16>, !block.tile<16x2xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16, %q: f16):
      %m = thread.binary add %p, %q : f16
      thread.yield %m : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @third_input_does_not_broadcast(%X: tensor<16x64xf16>, %R: tensor<16x1xf16>, %C: tensor<8x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X, %R, %C) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x1xf16>, tensor<8x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %r: tensor<16x1xf16>, %c: tensor<8x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %s = block.input %r imap = <x: replicate> fmap = <i: replicate> : tensor<16x1xf16> -> !block.tile<16x1xf16>
    %u = block.input %c imap = <x: replicate> fmap = <i: replicate> : tensor<8x64xf16> -> !block.tile<8x64xf16>
    // expected-error @+1 {{shapes [16, 64] and [8, 64] do not broadcast}}
    %f = thread.fused (%t, %s, %u) : (!block.tile<16x64xf16>, !block.tile<16x1xf16>, !block.tile<8x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16, %q: f16, %w: f16):
      %m = thread.binary add %p, %q : f16
      %n = thread.binary mul %m, %w : f16
      thread.yield %n : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @result_shape(%X: tensor<16x64xf16>, %R: tensor<16x1xf16>) -> tensor<16x1xf16> {
  %Y = kernel.graph_def (%X, %R) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x1xf16> {
  ^bb0(%x: tensor<16x64xf16>, %r: tensor<16x1xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %s = block.input %r imap = <x: replicate> fmap = <i: replicate> : tensor<16x1xf16> -> !block.tile<16x1xf16>
    // expected-error @+1 {{'thread.fused' op result tile #0 has type '!block.tile<16x1xf16>' but the inputs broadcast to shape '!block.tile<16x64xf16>'}}
    %f = thread.fused (%t, %s) : (!block.tile<16x64xf16>, !block.tile<16x1xf16>) -> !block.tile<16x1xf16> {
    ^bb0(%p: f16, %q: f16):
      %m = thread.binary div %p, %q : f16
      thread.yield %m : f16
    }
    %a = block.accum sum %f : !block.tile<16x1xf16> -> !block.tile<16x1xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x1xf16> -> tensor<16x1xf16>
    block.yield %o : tensor<16x1xf16>
  }
  return %Y : tensor<16x1xf16>
}

// -----

func.func @second_result_shape(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'thread.fused' op result tile #1 has type '!block.tile<64x16xf16>' but the inputs broadcast to shape '!block.tile<16x64xf16>'}}
    %f:2 = thread.fused (%t) : (!block.tile<16x64xf16>) -> (!block.tile<16x64xf16>, !block.tile<64x16xf16>) {
    ^bb0(%p: f16):
      %e = thread.unary exp %p : f16
      thread.yield %p, %e : f16, f16
    }
    %a = block.accum sum %f#0 : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @result_rank(%X: tensor<16x64xf16>) -> tensor<1024xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<1024xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'thread.fused' op result tile #0 has type '!block.tile<1024xf16>' but the inputs broadcast to shape '!block.tile<16x64xf16>'}}
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<1024xf16> {
    ^bb0(%p: f16):
      thread.yield %p : f16
    }
    %a = block.accum sum %f : !block.tile<1024xf16> -> !block.tile<1024xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<1024xf16> -> tensor<1024xf16>
    block.yield %o : tensor<1024xf16>
  }
  return %Y : tensor<1024xf16>
}

// -----

func.func @result_not_a_tile(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'thread.fused' op result #0 must be variadic of shared-memory tile, but got 'tensor<16x64xf16>'}}
    %f = "thread.fused"(%t) ({
    ^bb0(%p: f16):
      "thread.yield"(%p) : (f16) -> ()
    }) : (!block.tile<16x64xf16>) -> tensor<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

//===----------------------------------------------------------------------===//
// thread.yield
//===----------------------------------------------------------------------===//

func.func @yield_too_many(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      %e = thread.unary exp %p : f16
      // expected-error @+1 {{'thread.yield' op yields 2 elements for 1 result tiles}}
      thread.yield %p, %e : f16, f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @yield_too_few(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f:2 = thread.fused (%t) : (!block.tile<16x64xf16>) -> (!block.tile<16x64xf16>, !block.tile<16x64xf16>) {
    ^bb0(%p: f16):
      // expected-error @+1 {{'thread.yield' op yields 0 elements for 2 result tiles}}
      thread.yield
    }
    %a = block.accum sum %f#0 : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @yield_type(%X: tensor<16x64xf32>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf32>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf32>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<16x64xf32>
    %f = thread.fused (%t) : (!block.tile<16x64xf32>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f32):
      %e = thread.unary exp %p : f32
      // expected-error @+1 {{'thread.yield' op operand #0 has type 'f32' but result tile #0 holds 'f16'}}
      thread.yield %e : f32
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @yield_non_float(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      %i = arith.constant 1 : i16
      // expected-error @+1 {{'thread.yield' op operand #0 must be variadic of 16-bit float or bfloat16 type or 32-bit float, but got 'i16'}}
      thread.yield %i : i16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

//===----------------------------------------------------------------------===//
// thread.unary / thread.binary
//===----------------------------------------------------------------------===//

func.func @unary_params(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      // expected-error @+1 {{unary kind 'pow' takes 1 parameter(s), got 0}}
      %e = thread.unary pow %p : f16
      thread.yield %e : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @unary_params_relu(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      // expected-error @+1 {{unary kind 'relu' takes 0 parameter(s), got 1}}
      %e = thread.unary relu %p params = [0.0] : f16
      thread.yield %e : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @unary_clamp_empty(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      // expected-error @+1 {{clamp bounds are empty: min 2.000000e+00 > max 1.000000e+00}}
      %e = thread.unary clamp %p params = [2.0, 1.0] : f16
      thread.yield %e : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @binary_type_mismatch(%X: tensor<16x64xf16>, %R: tensor<16x1xf32>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X, %R) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x1xf32>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %r: tensor<16x1xf32>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %s = block.input %r imap = <x: replicate> fmap = <i: replicate> : tensor<16x1xf32> -> !block.tile<16x1xf32>
    %f = thread.fused (%t, %s) : (!block.tile<16x64xf16>, !block.tile<16x1xf32>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16, %q: f32):
      // expected-error @+1 {{'thread.binary' op requires the same type for all operands and results}}
      %m = "thread.binary"(%p, %q) {kind = 2 : i32} : (f16, f32) -> f16
      thread.yield %m : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @unary_in_func(%p: f16) -> f16 {
  // expected-error @+1 {{'thread.unary' op expects parent op 'thread.fused'}}
  %e = thread.unary exp %p : f16
  return %e : f16
}

// -----

func.func @binary_in_func(%p: f32, %q: f32) -> f32 {
  // expected-error @+1 {{'thread.binary' op expects parent op 'thread.fused'}}
  %m = thread.binary add %p, %q : f32
  return %m : f32
}

// -----

func.func @yield_in_func() {
  // expected-error @+1 {{'thread.yield' op expects parent op 'thread.fused'}}
  thread.yield
}

// -----

func.func @unary_in_block_graph(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'thread.unary' op expects parent op 'thread.fused'}}
    %e = "thread.unary"(%t) {kind = 0 : i32} : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

//===----------------------------------------------------------------------===//
// thread.fused outside a block graph
//===----------------------------------------------------------------------===//

func.func @fused_in_func(%a: !block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
  // expected-error @+1 {{'thread.fused' op must be directly inside a block graph (the body of a kernel.graph_def)}}
  %f = thread.fused (%a) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
  ^bb0(%p: f16):
    %e = thread.unary exp %p : f16
    thread.yield %e : f16
  }
  return %f : !block.tile<16x64xf16>
}

// -----

func.func @fused_in_fused(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      // expected-error @+1 {{'thread.fused' op must be directly inside a block graph}}
      "thread.fused"() ({
        "thread.yield"() : () -> ()
      }) : () -> ()
      thread.yield %p : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @foreign_op_in_fused(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      // expected-error @+1 {{'memref.alloca' op is not allowed in a thread.fused body, which holds only thread ops (or, lowered, scalar arith and math ops)}}
      %m0 = memref.alloca() : memref<f16>
      %m = thread.unary exp %p : f16
      thread.yield %m : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @foreign_terminator_in_fused(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      // expected-error @+1 {{'llvm.unreachable' op is not allowed in a thread.fused body}}
      llvm.unreachable
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}
