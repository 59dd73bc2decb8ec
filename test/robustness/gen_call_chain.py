#!/usr/bin/env python3
"""Writes a kernel that reaches a tcgen05.alloc through a chain of N device
functions, as CUDA (.cu) or PTX (.ptx), by the extension of OUT.
Usage: gen_call_chain.py N OUT"""
import sys

n, out = int(sys.argv[1]), sys.argv[2]
alloc = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32"
if out.endswith(".cu"):
    lines = ["__device__ unsigned slot;",
             f"__device__ __noinline__ void f{n}() {{",
             f'  asm volatile("{alloc} [%0], 96;" :: "r"(0));',
             "}"]
    for i in range(n - 1, -1, -1):
        lines.append(f"__device__ __noinline__ void f{i}() {{ f{i + 1}(); }}")
    lines.append("__global__ void k() { f0(); }")
else:
    lines = [".version 9.0", ".target sm_100a", ".address_size 64",
             f".func f{n}()", "{", "\t.reg .b32 \t%r<2>;",
             "\tmov.u32 \t%r1, 0;", f"\t{alloc} [%r1], 96;", "\tret;", "}"]
    for i in range(n - 1, -1, -1):
        lines += [f".func f{i}()", "{", f"\tcall.uni \tf{i + 1};", "\tret;",
                  "}"]
    lines += [".visible .entry k()", "{", "\tcall.uni \tf0;", "\tret;", "}"]
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
