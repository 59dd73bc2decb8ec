//===- Opcodes.h - The instruction names of the PTX ISA ---------*- C++ -*-===//
//
// Part of tmemcheck. The PTX layer accepts any opcode syntactically; this
// table says which base names (the part before the first '.') the PTX ISA
// (up to 9.x) defines, so a reader can count and report the instructions
// it does not know instead of treating them silently as harmless.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_PTX_OPCODES_H
#define TMEMCHECK_PTX_OPCODES_H

#include "llvm/ADT/StringRef.h"

namespace tmemcheck::ptx {

/// True if \p Base (`tcgen05`, `mbarrier`, `ld`, ...) is the base name of
/// an instruction of the PTX ISA.
bool isKnownOpcodeBase(llvm::StringRef Base);

} // namespace tmemcheck::ptx

#endif // TMEMCHECK_PTX_OPCODES_H
