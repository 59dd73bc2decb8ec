//===- OperandBinding.h - Values of asm-template operands -------*- C++ -*-===//
//
// Part of tmemcheck. An inline-asm statement and a user API model are both
// PTX text whose `%N` stands for something outside it: an asm operand's
// expression, a call's argument. Both front ends turn such an operand tree
// (immediates, `%N`, addresses, vectors) into an OperandValue the same way;
// only what `%N` is worth differs.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_OPERANDBINDING_H
#define TMEMCHECK_ANALYSIS_OPERANDBINDING_H

#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Ptx/Instruction.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace tmemcheck {

/// The value of \p O: an immediate is a CTA-uniform constant, `%N` is what
/// \p Bound returns for N (unknown when it returns nothing), an address
/// takes its base's value and keeps the displacement, a vector has one
/// value per element, a register is what \p Local returns for its name
/// (registers the asm computes from its operands), anything else is
/// unknown with its spelling.
OperandValue bindOperand(
    const ptx::Operand &O,
    llvm::function_ref<std::optional<AbstractValue>(unsigned Index)> Bound,
    llvm::function_ref<std::optional<AbstractValue>(llvm::StringRef Name)>
        Local = nullptr);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_OPERANDBINDING_H
