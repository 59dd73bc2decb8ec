//===- Instruction.cpp - One parsed PTX instruction -----------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Ptx/Instruction.h"

#include "llvm/ADT/STLExtras.h"

namespace tmemcheck::ptx {

bool Instruction::hasPart(llvm::StringRef Part) const {
  return llvm::any_of(Parts, [&](const std::string &P) { return P == Part; });
}

} // namespace tmemcheck::ptx
