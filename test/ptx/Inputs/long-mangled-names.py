#!/usr/bin/env python3
"""Writes a .ptx module whose symbols are mangled names nested deeply enough
to overflow the stack of LLVM's recursive Itanium demangler (one level per
`P`, `A1_` or template), and one just short of the length tmemcheck still
demangles. Usage: long-mangled-names.py OUT.ptx"""
import sys

DEEP = 200000
# {c}: `f` for the callee, `k` for the kernel.
names = {
    "pointers": "_Z2p{c}" + "P" * DEEP + "i",
    "arrays": "_Z2a{c}" + "A1_" * (DEEP // 3) + "i",
    "templates": "_Z2t{c}I" + "N1aI" * (DEEP // 6) + "i" + "EE" * (DEEP // 6)
    + "Ev",
    # 16384 characters: still demangled, as `shallowf` and `shallowk`.
    "shallow": "_Z8shallow{c}" + "P" * (16384 - 12) + "i",
}
assert len(names["shallow"].format(c="f")) == 16384

out = [".version 9.0", ".target sm_100a", ".address_size 64", ""]
for name in names.values():
    # A callee that allocates 96 columns (tmem-alloc-ncols names it), and a
    # kernel that calls it.
    callee, kernel = name.format(c="f"), name.format(c="k")
    out += [
        f".func {callee}()",
        "{",
        "\t.reg .b32 \t%r<3>;",
        "\tmov.u32 \t%r1, 0;",
        "\ttcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 96;",
        "\tret;",
        "}",
        f".visible .entry {kernel}()",
        "{",
        f"\tcall.uni \t{callee};",
        "\tret;",
        "}",
        "",
    ]
with open(sys.argv[1], "w") as f:
    f.write("\n".join(out))
