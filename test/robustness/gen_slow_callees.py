#!/usr/bin/env python3
"""Writes a .ptx kernel that calls, N times, a device function whose register
values take long to compute (300 predicates nvcc-style hoisted into arms of
%tid.x tests, each followed thread by thread). Usage: gen_slow_callees.py N
OUT.ptx"""
import sys

calls, out = int(sys.argv[1]), sys.argv[2]
alloc = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32"
lines = [".version 9.0", ".target sm_100a", ".address_size 64", "",
         ".func g()", "{", "\t.reg .pred \t%p<1000>;", "\t.reg .b32 \t%r<4>;",
         "\tmov.u32 \t%r1, %tid.x;"]
for i in range(300):
    lines += [f"\tsetp.gt.u32 \t%p{i + 1}, %r1, {i * 3};",
              f"\tmov.pred \t%p{500 + i}, 0;",
              f"\t@%p{i + 1} bra \t$L_{i};",
              f"\tmov.pred \t%p{500 + i}, -1;",
              f"$L_{i}:"]
for i in range(300):
    lines += [f"\t@%p{500 + i} bra \t$M_{i};", f"\t{alloc} [%r2], 32;",
              f"$M_{i}:"]
lines += ["\tret;", "}", ".visible .entry k()", "{"]
lines += ["\tcall.uni \tg;"] * calls
lines += ["\tret;", "}"]
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
