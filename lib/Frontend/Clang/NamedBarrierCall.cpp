//===- NamedBarrierCall.cpp - CUTLASS NamedBarrier calls ------------------===//
//
// Part of tmemcheck. `cutlass::arch::NamedBarrier` holds its barrier id and
// thread count in fields set by its constructor, and compiles its asm out
// without CUDA_BARRIER_ENABLED: SM100 kernels publish the TMEM address
// through one (`tmem_allocation_result_barrier.arrive()` in the MMA warp,
// `arrive_and_wait()` in the epilogue). Its calls are modelled by name and
// their operands taken from the object's construction, so the barrier is in
// the graph with its id and count whether or not the asm is compiled in.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include "tmemcheck/Model/ApiModel.h"
#include "tmemcheck/Model/UserApiModel.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/Support/Error.h"

#include <fmt/format.h>

namespace tmemcheck {

using namespace clang;

namespace {

/// The construction of the local \p Object names, or nullptr.
const CXXConstructExpr *constructionOf(const Expr *Object,
                                       const FunctionDecl *InFunction) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType() ||
      !VD->getInit())
    return nullptr;
  // A local of another frame (a caller's, passed down by reference) is not
  // bound in this one.
  const auto *Owner =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!Owner || !InFunction ||
      Owner->getCanonicalDecl() != InFunction->getCanonicalDecl())
    return nullptr;
  const Expr *Init = VD->getInit()->IgnoreImplicit();
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Init))
    Init = FC->getSubExpr()->IgnoreImplicit();
  const auto *CC = dyn_cast<CXXConstructExpr>(Init);
  if (!CC || !CC->getConstructor() ||
      CC->getConstructor()->isCopyOrMoveConstructor())
    return nullptr;
  return CC;
}

} // namespace

bool GraphBuilder::addNamedBarrierCall(const FunctionDecl *Callee,
                                       const CallExpr *CE, unsigned Cur,
                                       const Frame &F) {
  std::optional<llvm::StringRef> Mnemonic =
      cutlassNamedBarrierMnemonic(plainNameOf(Callee));
  if (!Mnemonic)
    return false;
  // The thread count and the id argument, and whether the id is one of the
  // reserved barriers (`ReservedNamedBarriers::TmemAllocBarrier`, used as
  // is) or a user id (offset by the reserved count).
  const Expr *Count = nullptr, *Id = nullptr;
  bool Reserved = false;
  const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
  std::vector<const Expr *> Explicit = explicitArguments(CE);
  if (MD && MD->isStatic()) {
    if (Explicit.size() != 2 || Callee->getNumParams() != 2)
      return false;
    Count = Explicit[0];
    Id = Explicit[1];
    Reserved = Callee->getParamDecl(1)->getType()->isEnumeralType();
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    if (!Explicit.empty())
      return false;
    if (const CXXConstructExpr *CC =
            constructionOf(MC->getImplicitObjectArgument(), F.Function);
        CC && CC->getNumArgs() == 2) {
      Count = CC->getArg(0);
      Id = CC->getArg(1);
      Reserved =
          CC->getConstructor()->getParamDecl(1)->getType()->isEnumeralType();
    }
  } else {
    return false;
  }

  // Operands: an argument bound as %k, a constant written into the text,
  // or %9, bound to nothing (unknown).
  std::vector<const Expr *> Args;
  auto Operand = [&](const Expr *E, int64_t Offset) -> std::string {
    if (!E)
      return "%9";
    if (Offset == 0) {
      Args.push_back(E);
      return fmt::format("%{}", Args.size() - 1);
    }
    AbstractValue V = Eval.evaluate(E, F);
    if (!V.Constant)
      return "%9";
    return std::to_string(*V.Constant + Offset);
  };
  std::string IdText =
      Operand(Id, Reserved ? 0 : CutlassReservedNamedBarrierCount);
  std::string CountText = Operand(Count, 0);
  std::string Ptx = fmt::format("{} {}, {};", *Mnemonic, IdText, CountText);

  auto [It, New] = AtomModels.try_emplace("NamedBarrier/" + Ptx);
  if (New) {
    UserApiModel M;
    M.Function = "cutlass::arch::NamedBarrier";
    M.Asm = Ptx;
    llvm::Expected<std::vector<ModeledInstruction>> Instrs =
        decodeUserApiModel(M);
    if (!Instrs) {
      Remarks.push_back(
          {toSourceLoc(Ctx.getSourceManager(), CE->getBeginLoc()),
           "internal: the model of '" + nameOf(Callee) +
               "' does not decode: " + llvm::toString(Instrs.takeError())});
      return false;
    }
    It->second = UserApiModelTable::Entry{std::move(M), std::move(*Instrs)};
  }
  if (!It->second)
    return false;
  addUserModeledCall(*It->second, CE, Args, Cur, F);
  return true;
}

} // namespace tmemcheck
