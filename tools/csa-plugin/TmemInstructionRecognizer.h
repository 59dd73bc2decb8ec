//===- TmemInstructionRecognizer.h - Statement ops --------------*- C++ -*-===//
//
// Part of tmemcheck. The Clang Static Analyzer plugin sees statements, not
// instructions: this file turns an inline-asm statement or a call to a
// modelled wrapper into the tcgen05 operations it performs, using the
// project's PTX parser (lib/Ptx) and instruction model (lib/Model), so the
// plugin never parses asm text itself.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_TOOLS_CSA_PLUGIN_TMEMINSTRUCTIONRECOGNIZER_H
#define TMEMCHECK_TOOLS_CSA_PLUGIN_TMEMINSTRUCTIONRECOGNIZER_H

#include "tmemcheck/Model/ApiModel.h"
#include "tmemcheck/Model/TmemOp.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>
#include <vector>

namespace tmemcheck::csa {

/// One tcgen05 operation a statement performs, with the source expression
/// that supplies each of its operands. Operand slots are numbered like the
/// TmemOp operand fields (`Op.TmemAddrOperand`, `Op.SlotOperand`, ...).
struct RecognizedOp {
  TmemOp Op;
  /// `@p tcgen05...`: the instruction may not execute on this path.
  bool Guarded = false;
  /// The expression whose value is operand I (the asm operand behind `%N`
  /// or `[%N]`, or a call argument), or null when the operand is an
  /// immediate, a register local to the asm, or absent.
  llvm::SmallVector<const clang::Expr *, 8> OperandExprs;
  /// A constant displacement written inside the brackets (`[%0+8]`).
  llvm::SmallVector<int64_t, 8> AddressOffsets;

  /// The expression of operand \p Index (null if none).
  const clang::Expr *operandExpr(int Index) const;
  /// The displacement of operand \p Index (0 if none).
  int64_t addressOffset(int Index) const;
};

/// What an inline-asm statement does, as far as the lifecycle is concerned.
struct AsmSummary {
  std::vector<RecognizedOp> Ops;
  /// An unguarded `trap;` or `exit;`: the thread does not continue.
  bool EndsThread = false;
};

/// Decodes statements into tcgen05 operations; results are cached per
/// statement because the analyzer visits one statement on many paths.
class TmemInstructionRecognizer {
public:
  /// The operations of \p S, in program order.
  const AsmSummary &decode(const clang::GCCAsmStmt &S) const;

  /// True if \p S contains a tcgen05.dealloc.
  bool deallocates(const clang::GCCAsmStmt &S) const;

  /// The lifecycle-relevant wrapper \p FD stands for (alloc, dealloc,
  /// relinquish), or null. Only these are evaluated by name; other
  /// wrappers are analysed through their bodies.
  static const ApiModel *lifecycleModel(const clang::FunctionDecl *FD);

  /// The operation a call to the modelled wrapper \p M performs, with
  /// operand expressions taken from the call's arguments \p Args
  /// (without the implicit object argument).
  static RecognizedOp fromCall(const ApiModel &M,
                               llvm::ArrayRef<const clang::Expr *> Args);

private:
  mutable llvm::DenseMap<const clang::GCCAsmStmt *, std::unique_ptr<AsmSummary>>
      Cache;
};

/// The qualified name of \p D as the API model table spells it (anonymous
/// namespaces dropped, no template arguments).
std::string modelName(const clang::NamedDecl &D);

} // namespace tmemcheck::csa

#endif // TMEMCHECK_TOOLS_CSA_PLUGIN_TMEMINSTRUCTIONRECOGNIZER_H
