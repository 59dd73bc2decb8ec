//===- ElectionAsm.cpp - elect.sync inside inline asm ---------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "ElectionAsm.h"

#include "tmemcheck/Ptx/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <map>

namespace tmemcheck {

using namespace clang;

namespace {

/// The asm output operand \p O designates, or -1.
int outputIndex(const ptx::Operand &O, unsigned NumOutputs) {
  if (O.K != ptx::Operand::Kind::AsmOperand || O.AsmOperandIndex < 0 ||
      static_cast<unsigned>(O.AsmOperandIndex) >= NumOutputs)
    return -1;
  return O.AsmOperandIndex;
}

bool isPredicate(const ptx::Operand &O, const llvm::StringSet<> &Preds) {
  return O.K == ptx::Operand::Kind::Register && !O.Negated &&
         Preds.contains(O.Text);
}

} // namespace

llvm::SmallVector<ElectedOutput, 2> electedOutputs(const GCCAsmStmt &S) {
  llvm::SmallVector<ElectedOutput, 2> Result;
  std::string Template = S.getAsmString();
  if (Template.find("elect.sync") == std::string::npos)
    return Result;
  std::vector<ptx::AsmOperandInfo> Infos;
  for (unsigned I = 0; I < S.getNumOutputs(); ++I)
    Infos.push_back({S.getOutputName(I).str(), S.getOutputConstraint(I),
                     /*IsOutput=*/true});
  for (unsigned I = 0; I < S.getNumInputs(); ++I)
    Infos.push_back({S.getInputName(I).str(), S.getInputConstraint(I),
                     /*IsOutput=*/false});
  ptx::ParsedAsm P = ptx::parseInlineAsm(Template, Infos);
  const unsigned NumOutputs = S.getNumOutputs();

  // The predicate registers elect.sync writes (`_|p`: operand 1).
  llvm::StringSet<> Preds;
  for (const ptx::Instruction &I : P.Instructions)
    if (I.base() == "elect" && I.hasPart("sync") && !I.Pred &&
        I.Operands.size() == 3 &&
        I.Operands[1].K == ptx::Operand::Kind::Register)
      Preds.insert(I.Operands[1].Text);
  if (Preds.empty())
    return Result;

  // Per output: how many instructions write it, and the election form of
  // the one that does.
  std::map<unsigned, unsigned> Writes;
  std::map<unsigned, ElectedOutput> Candidates;
  for (const ptx::Instruction &I : P.Instructions) {
    if (I.Operands.empty())
      continue;
    int Out = outputIndex(I.Operands[0], NumOutputs);
    if (Out < 0)
      continue;
    ++Writes[Out];
    llvm::StringRef Base = I.base();
    if (Base == "mov" && I.Operands.size() == 2 && I.Pred && !I.Pred->Negated &&
        isPredicate(I.Pred->Predicate, Preds) &&
        I.Operands[1].K == ptx::Operand::Kind::Immediate) {
      ElectedOutput E;
      E.Index = Out;
      E.Elected = I.Operands[1].Imm;
      Candidates[Out] = E;
    } else if (Base == "selp" && I.Operands.size() == 4 && !I.Pred &&
               I.Operands[1].K == ptx::Operand::Kind::Immediate &&
               I.Operands[2].K == ptx::Operand::Kind::Immediate &&
               I.Operands[1].Imm != I.Operands[2].Imm &&
               isPredicate(I.Operands[3], Preds)) {
      ElectedOutput E;
      E.Index = Out;
      E.Elected = I.Operands[1].Imm;
      E.Unelected = I.Operands[2].Imm;
      Candidates[Out] = E;
    }
  }
  for (const auto &[Out, E] : Candidates)
    if (Writes[Out] == 1)
      Result.push_back(E);
  return Result;
}

} // namespace tmemcheck
