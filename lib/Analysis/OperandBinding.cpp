//===- OperandBinding.cpp - Values of asm-template operands ---------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/OperandBinding.h"

namespace tmemcheck {

OperandValue bindOperand(
    const ptx::Operand &O,
    llvm::function_ref<std::optional<AbstractValue>(unsigned Index)> Bound,
    llvm::function_ref<std::optional<AbstractValue>(llvm::StringRef Name)>
        Local) {
  OperandValue V;
  V.Value.Uniform = Uniformity::Unknown;
  switch (O.K) {
  case ptx::Operand::Kind::Immediate:
    V.Value.Constant = O.Imm;
    V.Value.Uniform = Uniformity::CtaUniform;
    V.Value.Spelling = O.Text;
    break;
  case ptx::Operand::Kind::AsmOperand:
    if (O.AsmOperandIndex >= 0)
      if (std::optional<AbstractValue> A = Bound(O.AsmOperandIndex))
        V.Value = std::move(*A);
    break;
  case ptx::Operand::Kind::Address:
    if (!O.Elements.empty())
      V = bindOperand(O.Elements.front(), Bound, Local);
    V.AddressOffset = O.AddressOffset;
    break;
  case ptx::Operand::Kind::Vector:
    for (const ptx::Operand &El : O.Elements)
      V.Elements.push_back(bindOperand(El, Bound, Local).Value);
    break;
  case ptx::Operand::Kind::Register:
    if (Local)
      if (std::optional<AbstractValue> A = Local(O.Text)) {
        V.Value = std::move(*A);
        break;
      }
    V.Value.Spelling = O.Text;
    break;
  default:
    V.Value.Spelling = O.Text;
    break;
  }
  return V;
}

} // namespace tmemcheck
