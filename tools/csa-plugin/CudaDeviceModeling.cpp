//===- CudaDeviceModeling.cpp - One thread's view of CUDA builtins --------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "CudaDeviceModeling.h"

#include "AllocationState.h"

#include "clang/AST/Decl.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CallEvent.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"
#include "clang/StaticAnalyzer/Frontend/CheckerRegistry.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ento;

/// Special register (by the identifier of its read builtin) -> the value
/// this thread read from it first on the path.
REGISTER_MAP_WITH_PROGRAMSTATE(SpecialRegisterValues, const IdentifierInfo *,
                               SymbolRef)

namespace tmemcheck::csa {
namespace {

/// Models the CUDA built-ins that decide which role a thread plays, so that
/// the analyzer's path is one thread's path:
///
///  * `__nvvm_read_ptx_sreg_*` (behind `threadIdx.x`, `blockIdx.x`, ...)
///    return the same symbol every time a path reads the same register, so
///    `if (threadIdx.x / 32 == 0)` taken twice stays consistent;
///  * `__nvvm_shfl_sync_idx_i32` (behind `__shfl_sync`) of a warp-uniform
///    value (`threadIdx.x / 32`, the CUTLASS warp-index idiom, or a TMEM
///    address read from its slot) returns that value;
///  * `__cvta_generic_to_shared(p)` returns `p` as an integer, so the
///    shared-memory address an alloc is given still names the slot;
///  * barriers (`__syncthreads`, `__syncwarp`, `bar.sync` builtins) do not
///    invalidate memory: one thread's path cannot see what other threads
///    write anyway, and invalidating would lose the TMEM address stored in
///    a slot of dynamic shared memory.
class CudaDeviceModeling : public Checker<eval::Call, check::LiveSymbols> {
public:
  bool evalCall(const CallEvent &Call, CheckerContext &C) const;
  void checkLiveSymbols(ProgramStateRef State, SymbolReaper &SR) const;

private:
  bool evalSpecialRegister(const CallEvent &Call, const IdentifierInfo *II,
                           CheckerContext &C) const;
  bool evalShuffle(const CallEvent &Call, CheckerContext &C) const;
  bool evalToShared(const CallEvent &Call, CheckerContext &C) const;
  bool isWarpUniform(ProgramStateRef State, SVal V) const;
  bool isWarpUniformSymbol(ProgramStateRef State, const SymExpr *Sym,
                           unsigned Depth) const;
};

bool isBarrierBuiltin(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"__syncthreads", "__nvvm_bar_sync", "__nvvm_barrier_sync",
              "__nvvm_barrier_sync_cnt", "__nvvm_bar_warp_sync",
              "__nvvm_bar0_and", "__nvvm_bar0_or", "__nvvm_bar0_popc"},
             true)
      .Default(false);
}

bool CudaDeviceModeling::evalCall(const CallEvent &Call,
                                  CheckerContext &C) const {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  if (!FD || !CE || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  if (Name.starts_with("__nvvm_read_ptx_sreg_") && Call.getNumArgs() == 0 &&
      FD->getReturnType()->isIntegerType())
    return evalSpecialRegister(Call, FD->getIdentifier(), C);
  if (Name == "__nvvm_shfl_sync_idx_i32" && Call.getNumArgs() == 4)
    return evalShuffle(Call, C);
  if (Name == "__cvta_generic_to_shared" && Call.getNumArgs() == 1 &&
      FD->getReturnType()->isIntegerType())
    return evalToShared(Call, C);
  if (isBarrierBuiltin(Name) && FD->getBuiltinID() != 0) {
    ProgramStateRef State = C.getState();
    if (!FD->getReturnType()->isVoidType())
      State = State->BindExpr(
          CE, C.getLocationContext(),
          C.getSValBuilder().conjureSymbolVal(Call, C.blockCount()));
    C.addTransition(State);
    return true;
  }
  return false;
}

bool CudaDeviceModeling::evalSpecialRegister(const CallEvent &Call,
                                             const IdentifierInfo *II,
                                             CheckerContext &C) const {
  ProgramStateRef State = C.getState();
  SVal V;
  if (const SymbolRef *Known = State->get<SpecialRegisterValues>(II)) {
    V = nonloc::SymbolVal(*Known);
  } else {
    V = C.getSValBuilder().conjureSymbolVal(Call, C.blockCount(), this);
    if (SymbolRef Sym = V.getAsSymbol())
      State = State->set<SpecialRegisterValues>(II, Sym);
  }
  C.addTransition(
      State->BindExpr(Call.getOriginExpr(), C.getLocationContext(), V));
  return true;
}

bool CudaDeviceModeling::evalShuffle(const CallEvent &Call,
                                     CheckerContext &C) const {
  // __nvvm_shfl_sync_idx_i32(mask, value, src_lane, clamp): every lane gets
  // src_lane's value, which is this lane's when the value is warp-uniform.
  SVal Value = Call.getArgSVal(1);
  if (!isWarpUniform(C.getState(), Value))
    return false;
  C.addTransition(C.getState()->BindExpr(Call.getOriginExpr(),
                                         C.getLocationContext(), Value));
  return true;
}

bool CudaDeviceModeling::evalToShared(const CallEvent &Call,
                                      CheckerContext &C) const {
  std::optional<Loc> P = Call.getArgSVal(0).getAs<Loc>();
  if (!P || !P->getAsRegion())
    return false;
  const Expr *Origin = Call.getOriginExpr();
  unsigned Bits = C.getASTContext().getTypeSize(Origin->getType());
  C.addTransition(
      C.getState()->BindExpr(Origin, C.getLocationContext(),
                             C.getSValBuilder().makeLocAsInteger(*P, Bits)));
  return true;
}

bool CudaDeviceModeling::isWarpUniform(ProgramStateRef State, SVal V) const {
  if (isa<nonloc::ConcreteInt>(V))
    return true;
  // The address tcgen05.alloc stored, as every thread reads it back.
  if (SymbolRef Sym = V.getAsSymbol();
      Sym && findAllocationHandle(State, V) == Sym)
    return true;
  return isWarpUniformSymbol(State, V.getAsSymbol(), 0);
}

/// The special register whose first read on this path produced \p Sym.
const IdentifierInfo *registerOf(ProgramStateRef State, const SymExpr *Sym) {
  for (const auto &[II, Value] : State->get<SpecialRegisterValues>())
    if (Value == Sym)
      return II;
  return nullptr;
}

/// `tid.x / 32k`, `tid.x >> 5+`, any other special register but the lane
/// and thread ids, and constant arithmetic on those.
bool CudaDeviceModeling::isWarpUniformSymbol(ProgramStateRef State,
                                             const SymExpr *Sym,
                                             unsigned Depth) const {
  if (!Sym || Depth > 8)
    return false;
  if (const IdentifierInfo *Register = registerOf(State, Sym)) {
    StringRef Name = Register->getName();
    return !Name.contains("_tid_") && !Name.ends_with("laneid") &&
           !Name.contains("lanemask");
  }
  const auto *SI = dyn_cast<SymIntExpr>(Sym);
  if (!SI)
    return false;
  const IdentifierInfo *Register = registerOf(State, SI->getLHS());
  if (Register && Register->getName() == "__nvvm_read_ptx_sreg_tid_x") {
    uint64_t K = SI->getRHS()->getZExtValue();
    return (SI->getOpcode() == BO_Div && K != 0 && K % 32 == 0) ||
           (SI->getOpcode() == BO_Shr && K >= 5);
  }
  return isWarpUniformSymbol(State, SI->getLHS(), Depth + 1);
}

void CudaDeviceModeling::checkLiveSymbols(ProgramStateRef State,
                                          SymbolReaper &SR) const {
  // A register read again later must meet the constraints of the first read.
  for (const auto &[II, Sym] : State->get<SpecialRegisterValues>())
    SR.markLive(Sym);
}

} // namespace

void addCudaDeviceModeling(CheckerRegistry &Registry) {
  Registry.addChecker<CudaDeviceModeling>(
      CudaDeviceModelingName,
      "Models CUDA special registers, shuffles, barriers and shared-memory "
      "address conversion as one thread sees them",
      "NoDocsUri", /*IsHidden=*/true);
}

} // namespace tmemcheck::csa
