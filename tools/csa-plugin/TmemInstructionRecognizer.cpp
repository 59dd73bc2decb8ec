//===- TmemInstructionRecognizer.cpp - tcgen05 ops at analyzer nodes ------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "TmemInstructionRecognizer.h"

#include "tmemcheck/Ptx/Parser.h"

#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace tmemcheck::csa {

const Expr *RecognizedOp::operandExpr(int Index) const {
  if (Index < 0 || static_cast<size_t>(Index) >= OperandExprs.size())
    return nullptr;
  return OperandExprs[Index];
}

int64_t RecognizedOp::addressOffset(int Index) const {
  if (Index < 0 || static_cast<size_t>(Index) >= AddressOffsets.size())
    return 0;
  return AddressOffsets[Index];
}

namespace {

/// The asm operand expression an instruction operand reads: `%N` itself or
/// the base of `[%N+off]`. Registers declared inside the asm, immediates and
/// vectors have none.
const Expr *operandSource(const ptx::Operand &O,
                          llvm::ArrayRef<const Expr *> AsmExprs,
                          int64_t &Offset) {
  Offset = 0;
  const ptx::Operand *Leaf = &O;
  if (O.K == ptx::Operand::Kind::Address) {
    if (O.Elements.empty())
      return nullptr;
    Offset = O.AddressOffset;
    Leaf = &O.Elements.front();
  }
  if (Leaf->K != ptx::Operand::Kind::AsmOperand || Leaf->AsmOperandIndex < 0 ||
      static_cast<size_t>(Leaf->AsmOperandIndex) >= AsmExprs.size())
    return nullptr;
  return AsmExprs[Leaf->AsmOperandIndex];
}

bool isLifecycleKind(TmemOpKind K) {
  return K == TmemOpKind::Alloc || K == TmemOpKind::Dealloc ||
         K == TmemOpKind::RelinquishAllocPermit;
}

} // namespace

const AsmSummary &TmemInstructionRecognizer::decode(const GCCAsmStmt &S) const {
  std::unique_ptr<AsmSummary> &Entry = Cache[&S];
  if (Entry)
    return *Entry;
  Entry = std::make_unique<AsmSummary>();

  // Operands as GCC numbers them: outputs first, then inputs.
  std::vector<ptx::AsmOperandInfo> Infos;
  llvm::SmallVector<const Expr *, 16> Exprs;
  for (unsigned I = 0; I < S.getNumOutputs(); ++I) {
    Infos.push_back({S.getOutputName(I).str(), S.getOutputConstraint(I),
                     /*IsOutput=*/true});
    Exprs.push_back(S.getOutputExpr(I));
  }
  for (unsigned I = 0; I < S.getNumInputs(); ++I) {
    Infos.push_back({S.getInputName(I).str(), S.getInputConstraint(I),
                     /*IsOutput=*/false});
    Exprs.push_back(S.getInputExpr(I));
  }
  ptx::ParsedAsm Parsed = ptx::parseInlineAsm(S.getAsmString(), Infos);

  for (const ptx::Instruction &I : Parsed.Instructions) {
    if (!I.Pred && (I.base() == "trap" || I.base() == "exit"))
      Entry->EndsThread = true;
    // Malformed tcgen05 text is the CLI's business (it reports a remark);
    // here it is simply not modelled.
    std::vector<ptx::ParseDiagnostic> Ignored;
    std::optional<TmemOp> Op = decodeTmemOp(I, Ignored);
    if (!Op)
      continue;
    RecognizedOp R;
    R.Op = std::move(*Op);
    R.Guarded = I.Pred.has_value();
    for (const ptx::Operand &O : I.Operands) {
      int64_t Offset = 0;
      R.OperandExprs.push_back(operandSource(O, Exprs, Offset));
      R.AddressOffsets.push_back(Offset);
    }
    Entry->Ops.push_back(std::move(R));
  }
  return *Entry;
}

bool TmemInstructionRecognizer::deallocates(const GCCAsmStmt &S) const {
  for (const RecognizedOp &R : decode(S).Ops)
    if (R.Op.Kind == TmemOpKind::Dealloc)
      return true;
  return false;
}

const ApiModel *
TmemInstructionRecognizer::lifecycleModel(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier())
    return nullptr;
  const ApiModel *M = findApiModel(modelName(*FD));
  return M && isLifecycleKind(M->Op.Kind) ? M : nullptr;
}

RecognizedOp
TmemInstructionRecognizer::fromCall(const ApiModel &M,
                                    llvm::ArrayRef<const Expr *> Args) {
  RecognizedOp R;
  R.Op = M.Op;
  for (int Arg : M.OperandArgs) {
    R.OperandExprs.push_back(Arg >= 0 && static_cast<size_t>(Arg) < Args.size()
                                 ? Args[Arg]
                                 : nullptr);
    R.AddressOffsets.push_back(0);
  }
  return R;
}

std::string modelName(const NamedDecl &D) {
  std::string Name = D.getQualifiedNameAsString();
  static constexpr llvm::StringLiteral Anonymous = "(anonymous namespace)::";
  for (size_t Pos; (Pos = Name.find(Anonymous.str())) != std::string::npos;)
    Name.erase(Pos, Anonymous.size());
  return Name;
}

} // namespace tmemcheck::csa
