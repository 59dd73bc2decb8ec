#!/usr/bin/env python3
"""Writes pathological CUDA inputs for the robustness tests.

gen_pathological.py KIND OUT: KIND is one of
  big-asm     a kernel with one 5 MB asm string (tcgen05 text repeated)
  many-asm    a kernel with 10,000 tcgen05 asm statements in a row
  recursion   device functions calling each other recursively around tcgen05
  deep-templates  a 200-deep chain of template instantiations around an alloc
"""
import sys

kind, out = sys.argv[1], sys.argv[2]
with open(out, "w") as f:
    if kind == "big-asm":
        body = "tcgen05.wait::ld.sync.aligned;\\n" * 160000  # ~5 MB
        f.write('__global__ void big() {\n  asm volatile("%s");\n}\n' % body)
    elif kind == "many-asm":
        f.write("__global__ void many(uint32_t t) {\n")
        for i in range(10000):
            f.write('  asm volatile("tcgen05.wait::ld.sync.aligned;");\n')
        f.write("}\n")
    elif kind == "recursion":
        f.write("__device__ void odd(uint32_t t, int n);\n")
        f.write("__device__ void even(uint32_t t, int n) {\n"
                '  asm volatile("tcgen05.wait::ld.sync.aligned;");\n'
                "  if (n > 0) odd(t, n - 1);\n}\n")
        f.write("__device__ void odd(uint32_t t, int n) {\n"
                '  asm volatile("tcgen05.wait::st.sync.aligned;");\n'
                "  if (n > 0) even(t, n - 1);\n}\n")
        f.write("__global__ void rec(uint32_t t, int n) { even(t, n); }\n")
    elif kind == "deep-templates":
        f.write("template <int N> struct Deep {\n"
                "  __device__ static void run(uint32_t *slot) {\n"
                "    Deep<N - 1>::run(slot);\n  }\n};\n")
        f.write("template <> struct Deep<0> {\n"
                "  __device__ static void run(uint32_t *slot) {\n"
                '    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned'
                '.shared::cta.b32 [%0], 64;" :: "r"(static_cast<uint32_t>('
                "__cvta_generic_to_shared(slot))));\n  }\n};\n")
        f.write("__global__ void deep() {\n  __shared__ uint32_t slot;\n"
                "  if (threadIdx.x / 32 == 0) Deep<200>::run(&slot);\n}\n")
    else:
        sys.exit("unknown kind " + kind)
