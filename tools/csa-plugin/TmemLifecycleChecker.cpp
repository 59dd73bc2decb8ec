//===- TmemLifecycleChecker.cpp - Path-sensitive TMEM lifecycle -----------===//
//
// Part of tmemcheck. Follows every TMEM allocation along the analyzer's
// paths (one thread's paths) and reports, with notes that lead back to the
// alloc: a second dealloc, an access after the dealloc, an allocation still
// held when a kernel returns, and an alloc after the alloc permit was
// relinquished (rules A8, A9 of tcgen05-rules.md).
//
//===----------------------------------------------------------------------===//

#include "TmemLifecycleChecker.h"

#include "AllocationState.h"
#include "CudaDeviceModeling.h"
#include "SkippedDeallocs.h"
#include "TmemInstructionRecognizer.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CallEvent.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"
#include "clang/StaticAnalyzer/Frontend/CheckerRegistry.h"

#include <memory>
#include <string>

using namespace clang;
using namespace clang::ento;

namespace tmemcheck::csa {
namespace {

constexpr llvm::StringLiteral Category = "TMEM lifecycle";

std::string groupSpelling(CtaGroup G) {
  return "cta_group::" + std::to_string(static_cast<unsigned>(G));
}

/// The slot an alloc writes: the region behind a pointer operand or behind
/// an integer that is a pointer converted (`__cvta_generic_to_shared(&s)`).
const MemRegion *slotRegion(SVal V) {
  if (std::optional<loc::MemRegionVal> L = V.getAs<loc::MemRegionVal>())
    return L->getRegion();
  if (std::optional<nonloc::LocAsInteger> I = V.getAs<nonloc::LocAsInteger>())
    return I->getLoc().getAsRegion();
  return nullptr;
}

/// "'slot'" or "" for regions without a name.
std::string slotName(const MemRegion *Slot) {
  return Slot ? Slot->getDescriptiveName(/*UseQuotes=*/true) : std::string();
}

/// The TMEM address operands an access reads (rules §2): ld/st/cp/shift
/// taddr; mma D, A when it is in TMEM, scale factors, sparsity metadata.
llvm::SmallVector<int, 5> accessedAddressOperands(const TmemOp &Op) {
  llvm::SmallVector<int, 5> Out;
  switch (Op.Kind) {
  case TmemOpKind::Load:
  case TmemOpKind::Store:
  case TmemOpKind::Copy:
  case TmemOpKind::Shift:
    Out.push_back(Op.TmemAddrOperand);
    break;
  case TmemOpKind::Mma:
    Out.push_back(Op.TmemAddrOperand);
    if (Op.ATmem)
      Out.push_back(Op.ADescOrTmemOperand);
    Out.push_back(Op.SfaOperand);
    Out.push_back(Op.SfbOperand);
    Out.push_back(Op.SparseMetaOperand);
    break;
  default:
    break;
  }
  llvm::erase(Out, -1);
  return Out;
}

/// Checks the lifecycle of TMEM allocations along each path, the way
/// StreamChecker follows FILE handles: the TMEM address tcgen05.alloc writes
/// into its shared-memory slot is a fresh symbol bound to that slot, whose
/// TmemAllocation phase the transitions below change; values read back from
/// the slot (plus lane/column offsets) lead to it again.
class TmemLifecycleChecker
    : public Checker<eval::Call, check::PostStmt<GCCAsmStmt>, check::PostCall,
                     check::EndFunction, check::PointerEscape> {
public:
  bool evalCall(const CallEvent &Call, CheckerContext &C) const;
  void checkPostStmt(const GCCAsmStmt *S, CheckerContext &C) const;
  void checkPostCall(const CallEvent &Call, CheckerContext &C) const;
  void checkEndFunction(const ReturnStmt *RS, CheckerContext &C) const;
  ProgramStateRef checkPointerEscape(ProgramStateRef State,
                                     const InvalidatedSymbols &Escaped,
                                     const CallEvent *Call,
                                     PointerEscapeKind Kind) const;

private:
  /// The state and last node of a chain of transitions within one
  /// callback; Node is null once the path has ended (an error sink).
  struct Progress {
    ProgramStateRef State;
    ExplodedNode *Node;
  };

  /// Applies one tcgen05 operation performed by \p Site (an asm statement
  /// or a wrapper call).
  void apply(const RecognizedOp &R, const Stmt *Site, const void *Tag,
             CheckerContext &C, Progress &P) const;
  void applyAlloc(const RecognizedOp &R, const Stmt *Site, const void *Tag,
                  CheckerContext &C, Progress &P) const;
  void applyDealloc(const RecognizedOp &R, const Stmt *Site, CheckerContext &C,
                    Progress &P) const;
  void applyRelinquish(const RecognizedOp &R, const Stmt *Site,
                       CheckerContext &C, Progress &P) const;
  void applyAccess(const RecognizedOp &R, const Stmt *Site, CheckerContext &C,
                   Progress &P) const;

  /// The allocation the value of operand \p Index derives from, or null.
  SymbolRef handleOf(const RecognizedOp &R, int Index, CheckerContext &C,
                     ProgramStateRef State) const;
  /// Reports a bug that ends the path (a sink at the current node).
  void reportOnHandle(const BugType &BT, std::string Message, SymbolRef Handle,
                      const Stmt *Site, CheckerContext &C, Progress &P) const;
  void emitReport(const BugType &BT, std::string Message, SymbolRef Handle,
                  const Stmt *Site, ExplodedNode *N, CheckerContext &C) const;

  const BugType DoubleDeallocBug{this, "TMEM double dealloc", Category};
  const BugType UseAfterDeallocBug{this, "TMEM use after dealloc", Category};
  const BugType LeakBug{this, "TMEM leak", Category,
                        /*SuppressOnSink=*/true};
  const BugType AllocAfterRelinquishBug{this, "TMEM alloc after relinquish",
                                        Category};

  TmemInstructionRecognizer Recognizer;
  mutable std::unique_ptr<SkippedDeallocs> Skipped;
};

bool TmemLifecycleChecker::evalCall(const CallEvent &Call,
                                    CheckerContext &C) const {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  const ApiModel *M = TmemInstructionRecognizer::lifecycleModel(FD);
  const Expr *Origin = Call.getOriginExpr();
  if (!M || !Origin)
    return false;
  llvm::SmallVector<const Expr *, 4> Args;
  for (unsigned I = 0; I < Call.getNumArgs(); ++I)
    Args.push_back(Call.getArgExpr(I));
  RecognizedOp R = TmemInstructionRecognizer::fromCall(*M, Args);
  Progress P{C.getState(), C.getPredecessor()};
  if (!FD->getReturnType()->isVoidType())
    P.State = P.State->BindExpr(
        Origin, C.getLocationContext(),
        C.getSValBuilder().conjureSymbolVal(Call, C.blockCount()));
  apply(R, Origin, M, C, P);
  if (P.Node && P.State != P.Node->getState())
    C.addTransition(P.State, P.Node);
  else if (P.Node == C.getPredecessor())
    C.addTransition(P.State);
  return true;
}

void TmemLifecycleChecker::checkPostStmt(const GCCAsmStmt *S,
                                         CheckerContext &C) const {
  const AsmSummary &Summary = Recognizer.decode(*S);
  Progress P{C.getState(), C.getPredecessor()};
  for (const RecognizedOp &R : Summary.Ops) {
    apply(R, S, &R, C, P);
    if (!P.Node)
      return;
  }
  if (Summary.EndsThread) {
    C.generateSink(P.State, P.Node);
    return;
  }
  if (P.State != P.Node->getState())
    C.addTransition(P.State, P.Node);
}

void TmemLifecycleChecker::apply(const RecognizedOp &R, const Stmt *Site,
                                 const void *Tag, CheckerContext &C,
                                 Progress &P) const {
  switch (R.Op.Kind) {
  case TmemOpKind::Alloc:
    applyAlloc(R, Site, Tag, C, P);
    break;
  case TmemOpKind::Dealloc:
    applyDealloc(R, Site, C, P);
    break;
  case TmemOpKind::RelinquishAllocPermit:
    applyRelinquish(R, Site, C, P);
    break;
  default:
    applyAccess(R, Site, C, P);
    break;
  }
}

void TmemLifecycleChecker::applyAlloc(const RecognizedOp &R, const Stmt *Site,
                                      const void *Tag, CheckerContext &C,
                                      Progress &P) const {
  if (R.Guarded)
    return;
  if (R.Op.Group != CtaGroup::Unspecified &&
      getRelinquish(P.State, R.Op.Group)) {
    ExplodedNode *N = C.generateNonFatalErrorNode(P.State, P.Node);
    if (!N)
      return;
    emitReport(AllocAfterRelinquishBug,
               "tcgen05.alloc after tcgen05.relinquish_alloc_permit." +
                   groupSpelling(R.Op.Group) +
                   " on this path: the CTA may not allocate any more "
                   "(rule A8)",
               nullptr, Site, N, C);
    P.Node = N;
  }

  // The slot is an lvalue the path can name; otherwise stay silent.
  const Expr *SlotExpr = R.operandExpr(R.Op.SlotOperand);
  if (!SlotExpr || R.addressOffset(R.Op.SlotOperand) != 0)
    return;
  const MemRegion *Slot = slotRegion(C.getSVal(SlotExpr));
  if (!Slot || !isa<SubRegion>(Slot) || isa<CodeTextRegion>(Slot))
    return;

  QualType HandleTy = C.getASTContext().UnsignedIntTy;
  if (const auto *TR = dyn_cast<TypedValueRegion>(Slot))
    if (TR->getValueType()->isIntegerType() &&
        C.getASTContext().getTypeSize(TR->getValueType()) == 32)
      HandleTy = TR->getValueType();
  SVal Handle = C.getSValBuilder().conjureSymbolVal(Tag, C.getCFGElementRef(),
                                                    C.getLocationContext(),
                                                    HandleTy, C.blockCount());
  SymbolRef Sym = Handle.getAsSymbol();
  if (!Sym)
    return;
  TmemAllocation A;
  A.Group = R.Op.Group;
  A.AllocSite = Site;
  A.Slot = Slot;
  P.State = setAllocation(
      P.State->bindLoc(loc::MemRegionVal(Slot), Handle, C.getLocationContext()),
      Sym, A);
  const NoteTag *Note = C.getNoteTag([Sym](PathSensitiveBugReport &BR) {
    return BR.isInteresting(Sym) ? std::string("TMEM allocated here")
                                 : std::string();
  });
  P.Node = C.addTransition(P.State, P.Node, Note);
}

void TmemLifecycleChecker::applyDealloc(const RecognizedOp &R, const Stmt *Site,
                                        CheckerContext &C, Progress &P) const {
  SymbolRef Sym = handleOf(R, R.Op.TmemAddrOperand, C, P.State);
  const TmemAllocation *A = getAllocation(P.State, Sym);
  if (!A)
    return;
  if (A->isDeallocated()) {
    reportOnHandle(DoubleDeallocBug,
                   "tcgen05.dealloc of TMEM that was already deallocated on "
                   "this path (rule A9)",
                   Sym, Site, C, P);
    return;
  }
  // A dealloc that may not run, or that frees from inside the allocation,
  // has an effect the path cannot follow: no leak report for it later.
  SVal Addr = C.getSVal(R.operandExpr(R.Op.TmemAddrOperand));
  bool Exact =
      Addr.getAsSymbol() == Sym && R.addressOffset(R.Op.TmemAddrOperand) == 0;
  if (R.Guarded || !Exact) {
    P.State = setAllocation(P.State, Sym,
                            A->withPhase(TmemAllocation::Phase::Escaped));
    return;
  }
  P.State = setAllocation(P.State, Sym,
                          A->withPhase(TmemAllocation::Phase::Deallocated));
  const NoteTag *Note = C.getNoteTag([Sym](PathSensitiveBugReport &BR) {
    return BR.isInteresting(Sym) ? std::string("TMEM deallocated here")
                                 : std::string();
  });
  P.Node = C.addTransition(P.State, P.Node, Note);
}

void TmemLifecycleChecker::applyRelinquish(const RecognizedOp &R,
                                           const Stmt *Site, CheckerContext &C,
                                           Progress &P) const {
  if (R.Guarded || R.Op.Group == CtaGroup::Unspecified ||
      getRelinquish(P.State, R.Op.Group))
    return;
  P.State = setRelinquished(P.State, R.Op.Group, Site);
  const BugType *AfterRelinquish = &AllocAfterRelinquishBug;
  const NoteTag *Note =
      C.getNoteTag([AfterRelinquish](PathSensitiveBugReport &BR) {
        return &BR.getBugType() == AfterRelinquish
                   ? std::string("alloc permit relinquished here")
                   : std::string();
      });
  P.Node = C.addTransition(P.State, P.Node, Note);
}

void TmemLifecycleChecker::applyAccess(const RecognizedOp &R, const Stmt *Site,
                                       CheckerContext &C, Progress &P) const {
  for (int Index : accessedAddressOperands(R.Op)) {
    SymbolRef Sym = handleOf(R, Index, C, P.State);
    const TmemAllocation *A = getAllocation(P.State, Sym);
    if (!A || !A->isDeallocated())
      continue;
    reportOnHandle(UseAfterDeallocBug,
                   ("tcgen05." + kindName(R.Op.Kind) +
                    " accesses TMEM after it was deallocated (rule A9)")
                       .str(),
                   Sym, Site, C, P);
    return;
  }
}

SymbolRef TmemLifecycleChecker::handleOf(const RecognizedOp &R, int Index,
                                         CheckerContext &C,
                                         ProgramStateRef State) const {
  const Expr *E = R.operandExpr(Index);
  if (!E)
    return nullptr;
  return findAllocationHandle(State, State->getSVal(E, C.getLocationContext()));
}

void TmemLifecycleChecker::reportOnHandle(const BugType &BT,
                                          std::string Message, SymbolRef Handle,
                                          const Stmt *Site, CheckerContext &C,
                                          Progress &P) const {
  ExplodedNode *N = C.generateErrorNode(P.State, P.Node);
  P.Node = nullptr;
  if (N)
    emitReport(BT, std::move(Message), Handle, Site, N, C);
}

void TmemLifecycleChecker::emitReport(const BugType &BT, std::string Message,
                                      SymbolRef Handle, const Stmt *Site,
                                      ExplodedNode *N,
                                      CheckerContext &C) const {
  // A bug inside a helper is one bug per call of the helper in a kernel,
  // not one per helper line.
  PathDiagnosticLocation Unique;
  const Decl *UniqueDecl = nullptr;
  const StackFrameContext *Frame = C.getStackFrame();
  while (Frame->getParent() && !Frame->getParent()->inTopFrame())
    Frame = Frame->getParent()->getStackFrame();
  if (!Frame->inTopFrame() && Frame->getCallSite()) {
    const LocationContext *Top = Frame->getParent();
    Unique = PathDiagnosticLocation::createBegin(Frame->getCallSite(),
                                                 C.getSourceManager(), Top);
    UniqueDecl = Top->getDecl();
  }
  auto Report = std::make_unique<PathSensitiveBugReport>(BT, Message, N, Unique,
                                                         UniqueDecl);
  if (Handle)
    Report->markInteresting(Handle);
  Report->addRange(Site->getSourceRange());
  C.emitReport(std::move(Report));
}

void TmemLifecycleChecker::checkPostCall(const CallEvent &Call,
                                         CheckerContext &C) const {
  // A call the analyzer did not step into may free the address it is
  // given, or turn it into a value the path cannot relate to it (a builtin
  // that is not modelled). Unless the call returns the address itself (a
  // modelled shuffle, __builtin_expect), the allocation escapes.
  if (C.wasInlined || TmemInstructionRecognizer::lifecycleModel(
                          dyn_cast_or_null<FunctionDecl>(Call.getDecl())))
    return;
  ProgramStateRef State = C.getState();
  SVal Result = Call.getReturnValue();
  auto Returned = [&Result](SymbolRef Sym) {
    for (SymbolRef Part : Result.symbols())
      if (Part == Sym)
        return true;
    return false;
  };
  for (unsigned I = 0; I < Call.getNumArgs(); ++I)
    for (SymbolRef Sym : Call.getArgSVal(I).symbols())
      if (const TmemAllocation *A = getAllocation(State, Sym);
          A && A->isAllocated() && !Returned(Sym))
        State = setAllocation(State, Sym,
                              A->withPhase(TmemAllocation::Phase::Escaped));
  C.addTransition(State);
}

ProgramStateRef TmemLifecycleChecker::checkPointerEscape(
    ProgramStateRef State, const InvalidatedSymbols &Escaped,
    const CallEvent *Call, PointerEscapeKind Kind) const {
  // Storing the address somewhere does not free it: a later read on this
  // path still yields the symbol (the binding stays in the store), and
  // other threads reading it back are SkippedDeallocs' business. Only
  // invalidation (an opaque call, asm given the slot's address) loses it.
  if (Kind == PSK_EscapeOnBind)
    return State;
  for (const auto &[Sym, A] : allAllocations(State)) {
    if (!A.isAllocated())
      continue;
    bool Escapes = false;
    for (SymbolRef E : Escaped)
      for (SymbolRef Part : E->symbols())
        Escapes |= Part == Sym;
    if (Escapes)
      State = setAllocation(State, Sym,
                            A.withPhase(TmemAllocation::Phase::Escaped));
  }
  return State;
}

void TmemLifecycleChecker::checkEndFunction(const ReturnStmt *RS,
                                            CheckerContext &C) const {
  // A leak is a kernel returning with TMEM held; a device function may
  // return the address to its caller.
  if (!C.inTopFrame())
    return;
  const auto *Kernel =
      dyn_cast_or_null<FunctionDecl>(C.getLocationContext()->getDecl());
  if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>())
    return;
  ProgramStateRef State = C.getState();
  llvm::SmallVector<std::pair<SymbolRef, TmemAllocation>, 4> Leaked;
  for (const auto &[Sym, A] : allAllocations(State))
    if (A.isAllocated())
      Leaked.push_back({Sym, A});
  if (Leaked.empty())
    return;
  ExplodedNode *N = C.generateNonFatalErrorNode(State);
  if (!N)
    return;
  if (!Skipped)
    Skipped = std::make_unique<SkippedDeallocs>(C.getASTContext(), Recognizer);
  if (Skipped->mayBeFreedByOtherThreads(N))
    return;
  for (const auto &[Sym, A] : Leaked) {
    std::string Name = slotName(A.Slot);
    std::string Message = (Name.empty() ? std::string("TMEM allocation")
                                        : "TMEM allocated into " + Name) +
                          " is not deallocated before kernel '" +
                          Kernel->getNameAsString() + "' returns (rule A9)";
    PathDiagnosticLocation AllocLoc = PathDiagnosticLocation::createBegin(
        A.AllocSite, C.getSourceManager(), C.getLocationContext());
    auto Report = std::make_unique<PathSensitiveBugReport>(LeakBug, Message, N,
                                                           AllocLoc, Kernel);
    Report->markInteresting(Sym);
    C.emitReport(std::move(Report));
  }
}

} // namespace

void addTmemLifecycleChecker(CheckerRegistry &Registry) {
  Registry.addChecker<TmemLifecycleChecker>(
      TmemLifecycleName,
      "Path-sensitive lifecycle of tcgen05 Tensor Memory allocations: double "
      "dealloc, use after dealloc, leak at kernel exit, alloc after "
      "relinquish",
      "docs/csa-checker.md");
  Registry.addDependency(TmemLifecycleName, CudaDeviceModelingName);
  // `__builtin_expect(warp == 0, 1)` must keep its argument's value, or two
  // role tests on one path stop agreeing. Enabled by `--analyze` anyway,
  // but not by `-Xclang -analyze` on the device side.
  Registry.addDependency(TmemLifecycleName, "core.builtin.BuiltinFunctions");
}

} // namespace tmemcheck::csa
