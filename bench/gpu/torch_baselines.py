#!/usr/bin/env python3
"""PyTorch baselines and roofline floors of the GPU benchmark.

For each benchmark program (bench/programs/*.mlir, written by
bench/programs/generate.py; docs/Benchmarks.md, "The benchmark set") this times the
same computation, with the same shapes, in fp16 on the GPU:

  eager     the PyTorch program, op by op
  compile   torch.compile of it (default mode)
  cublas    the program's matmuls alone, each a torch.matmul (cuBLAS), for
            the programs that are matmuls plus cheap elementwise work
            (RMSNorm, LoRA, GatedMLP): the floor an unfused implementation
            cannot beat

and computes the roofline floor: max(minimal bytes / bandwidth,
matmul flops / fp16 tensor-core peak), where the minimal bytes read every
input and write every output once.

Timing is that of mirage-gpu-run: warm-up runs, then runs back to back with
a CUDA event between consecutive runs; median and minimum in microseconds.

    python3 bench/gpu/torch_baselines.py [--filter TEXT] [--warmup N]
        [--iters N] [--no-compile] [--json-out FILE]

Prints one JSON object (and writes it to --json-out).
"""

import argparse
import json
import statistics
import sys
import time

# Peak dense fp16 tensor-core throughput (FLOP/s) and HBM bandwidth (B/s),
# from NVIDIA's data sheets, matched against the device name in order.
PEAKS = [
    ("H200", 989e12, 4.8e12),
    ("H100 NVL", 835e12, 3.9e12),
    ("H100 PCIe", 756e12, 2.0e12),
    ("H100", 989e12, 3.35e12),  # SXM
    ("A100-SXM4-80GB", 312e12, 2.039e12),
    ("A100 80GB PCIe", 312e12, 1.935e12),
    ("A100", 312e12, 1.555e12),  # 40 GB
]
DEFAULT_PEAK = ("H100 (assumed: the device is not in the table)", 989e12,
                3.35e12)


def peaks_for(device_name):
    for key, flops, bandwidth in PEAKS:
        if key in device_name:
            return key, flops, bandwidth
    return DEFAULT_PEAK


class Program:
    """One benchmark program: its arguments' shapes, the torch function, the
    matmul-only function (or None), and its matmul flops."""

    def __init__(self, name, label, batch, args, output, fn, flops,
                 matmuls=None):
        self.name, self.label, self.batch = name, label, batch
        self.args, self.output = args, output
        self.fn, self.flops, self.matmuls = fn, flops, matmuls

    def min_bytes(self):
        elements = sum(numel(shape) for _, shape in self.args)
        return 2 * (elements + numel(self.output))  # fp16


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def matmul_flops(m, n, k, batch=1):
    return 2 * batch * m * n * k


def define_programs(torch):
    """The programs of bench/programs/generate.py, as PyTorch code. rms_norm
    is the graph dialect's: eps = 0, no weight."""
    F = torch.nn.functional

    def rms_norm(x):
        return F.rms_norm(x, (x.shape[-1],), eps=0.0)

    def attention(q, k, v):
        return torch.softmax(q @ k, dim=2) @ v

    def gqa(Q, K, V):
        return attention(Q, K, V)

    def qknorm(Q, K, V):
        # K is normalized over its dimension 1 (size 64), as in the program:
        # transpose there, rms_norm, transpose back.
        kn = rms_norm(K.transpose(1, 2)).transpose(1, 2)
        return attention(rms_norm(Q), kn, V)

    def rmsnorm(X, W):
        return rms_norm(X) @ W

    def rmsnorm_matmuls(X, W):
        return X @ W

    def lora(X, W, A, B):
        return X @ W + (X @ A) @ B

    def lora_matmuls(X, W, A, B):
        return X @ W, (X @ A) @ B

    def gated_mlp(X, W1, W2):
        return F.silu(X @ W1) * (X @ W2)

    def gated_mlp_matmuls(X, W1, W2):
        return X @ W1, X @ W2

    def ntrans(H, X, alpha):
        return rms_norm(H + alpha * (rms_norm(X) - H))

    programs = []
    for b in (1, 8):
        h = 2 * b
        attn_args = [("Q", (h, 256, 64)), ("K", (h, 64, 4096)),
                     ("V", (h, 4096, 64))]
        attn_flops = (matmul_flops(256, 4096, 64, h) +
                      matmul_flops(256, 64, 4096, h))
        programs.append(Program(f"gqa_b{b}", "GQA", b, attn_args,
                                (h, 256, 64), gqa, attn_flops))
        programs.append(Program(f"qknorm_b{b}", "QKNorm", b, attn_args,
                                (h, 256, 64), qknorm, attn_flops))
        m = 2 * b
        programs.append(Program(
            f"rmsnorm_b{b}", "RMSNorm", b,
            [("X", (m, 4096)), ("W", (4096, 6144))], (m, 6144), rmsnorm,
            matmul_flops(m, 6144, 4096), rmsnorm_matmuls))
        programs.append(Program(
            f"ntrans_b{b}", "nTrans", b,
            [("H", (b, 4096)), ("X", (b, 4096)), ("alpha", (b, 4096))],
            (b, 4096), ntrans, 0))
    programs.append(Program(
        "lora", "LoRA", None,
        [("X", (16, 256)), ("W", (256, 4096)), ("A", (256, 16)),
         ("B", (16, 4096))], (16, 4096), lora,
        matmul_flops(16, 4096, 256) + matmul_flops(16, 16, 256) +
        matmul_flops(16, 4096, 16), lora_matmuls))
    programs.append(Program(
        "gated_mlp", "GatedMLP", None,
        [("X", (8, 4096)), ("W1", (4096, 4096)), ("W2", (4096, 4096))],
        (8, 4096), gated_mlp, 2 * matmul_flops(8, 4096, 4096),
        gated_mlp_matmuls))
    return programs


def time_cuda(torch, fn, args, warmup, iters):
    """Median and minimum time of fn(*args) in microseconds."""
    with torch.no_grad():
        for _ in range(warmup):
            fn(*args)
        events = [torch.cuda.Event(enable_timing=True)
                  for _ in range(iters + 1)]
        torch.cuda.synchronize()
        events[0].record()
        for i in range(iters):
            fn(*args)
            events[i + 1].record()
        events[-1].synchronize()
    times = sorted(1000.0 * events[i].elapsed_time(events[i + 1])
                   for i in range(iters))
    return {"median": statistics.median(times), "min": times[0]}


def measure(torch, program, warmup, iters, compile_):
    result = {}
    gen = torch.Generator(device="cuda").manual_seed(0)
    inputs = [torch.empty(shape, dtype=torch.float16, device="cuda")
              .uniform_(-1, 1, generator=gen) for _, shape in program.args]
    result["eager"] = time_cuda(torch, program.fn, inputs, warmup, iters)
    if program.matmuls:
        result["cublas"] = time_cuda(torch, program.matmuls, inputs, warmup,
                                     iters)
    if compile_:
        try:
            torch._dynamo.reset()
            compiled = torch.compile(program.fn, dynamic=False)
            start = time.time()
            with torch.no_grad():
                compiled(*inputs)  # compiles
            torch.cuda.synchronize()
            result["compile_seconds"] = time.time() - start
            result["compile"] = time_cuda(torch, compiled, inputs, warmup,
                                          iters)
        except Exception as e:  # a failed compile is a result too
            result["compile_error"] = f"{type(e).__name__}: {e}"[:300]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--filter", default="",
                        help="only programs whose name contains this")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--no-compile", action="store_true",
                        help="skip torch.compile (it takes a while)")
    parser.add_argument("--json-out", help="also write the JSON here")
    options = parser.parse_args()

    import torch  # here, so that --help works without PyTorch

    if not torch.cuda.is_available():
        sys.exit("torch_baselines.py: error: PyTorch sees no CUDA GPU")
    device = torch.cuda.get_device_name()
    peak_name, peak_flops, bandwidth = peaks_for(device)
    report = {
        "device": device,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "peak": {"table_entry": peak_name, "fp16_flops": peak_flops,
                 "bandwidth": bandwidth},
        "warmup": options.warmup,
        "iters": options.iters,
        "programs": {},
    }
    for program in define_programs(torch):
        if options.filter not in program.name:
            continue
        print(f"torch_baselines.py: {program.name}", file=sys.stderr,
              flush=True)
        entry = {
            "label": program.label,
            "batch": program.batch,
            "args": {name: list(shape) for name, shape in program.args},
            "min_bytes": program.min_bytes(),
            "flops": program.flops,
            "roofline_us": 1e6 * max(program.min_bytes() / bandwidth,
                                     program.flops / peak_flops),
        }
        try:
            entry.update(measure(torch, program, options.warmup,
                                 options.iters, not options.no_compile))
        except Exception as e:
            entry["error"] = f"{type(e).__name__}: {e}"[:300]
        report["programs"][program.name] = entry

    text = json.dumps(report, indent=2)
    print(text)
    if options.json_out:
        with open(options.json_out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
