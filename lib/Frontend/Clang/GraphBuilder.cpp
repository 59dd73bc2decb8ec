//===- GraphBuilder.cpp - Clang CFG to kernel event graph -----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"
#include "LastIteration.h"

#include "clang/AST/ParentMap.h"

#include "CtaIdentity.h"
#include "CuteTmemTensors.h"

#include "tmemcheck/Analysis/AllocBase.h"
#include "tmemcheck/Analysis/BarrierRuns.h"
#include "tmemcheck/Analysis/OperandBinding.h"
#include "tmemcheck/Model/ApiModel.h"
#include "tmemcheck/Model/TmemOp.h"
#include "tmemcheck/Ptx/Parser.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprConcepts.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/ConstructionContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

#include <chrono>
#include <cstring>

using namespace clang;

namespace tmemcheck {

/// Does a function (transitively) contain inline asm or barrier calls?
/// Only such functions are worth inlining. And can it issue a tcgen05 or
/// synchronisation instruction? A callee past the call depth bound that
/// cannot (CuTe's TMA store, a layout computation) hides nothing from the
/// analyses.
class RelevanceOracle {
public:
  bool isRelevant(const FunctionDecl *FD) { return reaches(FD, AnyAsm, 0); }
  bool mayIssueTmemOrSync(const FunctionDecl *FD) {
    return reaches(FD, TmemOrSync, 0);
  }

private:
  enum Kind { AnyAsm, TmemOrSync };
  /// Deeper than any real template chain (CuTe's layout algebra recurses
  /// some tens of calls deep; the answers are memoised): past it, assume
  /// so rather than miss code.
  static constexpr unsigned MaxDepth = 256;

  bool reaches(const FunctionDecl *FD, Kind K, unsigned Depth) {
    FD = FD->getCanonicalDecl();
    auto It = Memo[K].find(FD);
    if (It != Memo[K].end())
      return It->second;
    if (Depth > MaxDepth)
      return true;
    Memo[K][FD] = false; // breaks recursion cycles
    const FunctionDecl *Def = nullptr;
    bool Result = false;
    if (FD->hasBody(Def) && Def && Def->getBody())
      Result = scan(Def->getBody(), K, Depth);
    Memo[K][FD] = Result;
    return Result;
  }

  /// Asm that issues a tcgen05 instruction or takes part in synchronisation
  /// (mbarrier, bar/barrier, fences, elect).
  static bool issuesTmemOrSync(const GCCAsmStmt &A) {
    const std::string Text = A.getAsmString();
    return llvm::any_of(
        std::initializer_list<llvm::StringRef>{"tcgen05", "mbarrier", "bar",
                                               "fence", "elect"},
        [&](llvm::StringRef Word) {
          return llvm::StringRef(Text).contains(Word);
        });
  }

  bool scan(const Stmt *S, Kind K, unsigned Depth) {
    if (!S)
      return false;
    if (const auto *A = dyn_cast<GCCAsmStmt>(S))
      return K == AnyAsm || issuesTmemOrSync(*A);
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *Callee = CE->getDirectCallee()) {
        if (Callee->getIdentifier() && Callee->getName().starts_with("__sync"))
          return true;
        if (isModelledByName(Callee))
          return true;
        if (reaches(Callee, K, Depth + 1))
          return true;
      } else if (!CE->isTypeDependent() && CE->getCallee() &&
                 !isa<CXXPseudoDestructorExpr>(
                     CE->getCallee()->IgnoreParenImpCasts())) {
        // A call through a function pointer or reference may reach
        // anything; the call site decides (GraphBuilder::knownCallee).
        return true;
      }
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
      if (const CXXConstructorDecl *Ctor = CE->getConstructor())
        if (reaches(Ctor, K, Depth + 1))
          return true;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl())
            if (RD->hasDefinition())
              if (const CXXDestructorDecl *Dtor = RD->getDestructor())
                if (reaches(Dtor, K, Depth + 1))
                  return true;
          if (VD->getInit() && scan(VD->getInit(), K, Depth))
            return true;
        }
    for (const Stmt *Child : S->children())
      if (scan(Child, K, Depth))
        return true;
    return false;
  }
  /// The built-in models stand for instructions whether or not the body
  /// has them (CUTLASS compiles its asm out): a function calling one is
  /// relevant.
  static bool isModelledByName(const FunctionDecl *Callee) {
    std::string Name =
        withoutTemplateArguments(Callee->getQualifiedNameAsString());
    llvm::StringRef N(Name);
    return findApiModel(N) || cutlassNamedBarrierMnemonic(N) ||
           N.starts_with("cute::SM100") || N.starts_with("tl::tcgen05_ld_");
  }
  llvm::DenseMap<const FunctionDecl *, bool> Memo[2];
};

namespace {

/// True if \p E is a pointer converted from an integer (`(float *)taddr`,
/// `reinterpret_cast<uint32_t *>(x)`), directly or as the initialiser of
/// the local pointer variable it names.
bool madeFromInteger(const Expr *E, unsigned Depth = 0) {
  for (E = E->IgnoreParens(); const auto *CE = dyn_cast<CastExpr>(E);
       E = CE->getSubExpr()->IgnoreParens())
    if (CE->getCastKind() == CK_IntegralToPointer)
      return true;
  if (Depth > 0)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit())
      return madeFromInteger(VD->getInit(), Depth + 1);
  return false;
}

std::string functionName(const FunctionDecl *FD) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy PP(FD->getASTContext().getLangOpts());
  PP.SuppressTagKeyword = true;
  FD->getNameForDiagnostic(OS, PP, /*Qualified=*/true);
  return Name;
}

/// The symbol nvcc gives \p FD (Itanium mangling, as the PTX `.entry`
/// name); empty for a template pattern, which has none.
std::string symbolOf(const FunctionDecl *FD) {
  if (FD->isDependentContext())
    return "";
  std::unique_ptr<MangleContext> MC(ItaniumMangleContext::create(
      FD->getASTContext(), FD->getASTContext().getDiagnostics()));
  if (!MC->shouldMangleDeclName(FD))
    return FD->getName().str();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  MC->mangleName(GlobalDecl(FD), OS);
  return Out;
}

/// Clang's cluster-barrier builtins: true for an arrive, false for the
/// wait, nullopt for anything else.
std::optional<bool> clusterBarrierBuiltin(const FunctionDecl *FD) {
  if (!FD->getIdentifier())
    return std::nullopt;
  llvm::StringRef N = FD->getName();
  if (N == "__nvvm_barrier_cluster_arrive" ||
      N == "__nvvm_barrier_cluster_arrive_relaxed" ||
      N == "__nvvm_barrier_cluster_arrive_aligned" ||
      N == "__nvvm_barrier_cluster_arrive_relaxed_aligned")
    return true;
  if (N == "__nvvm_barrier_cluster_wait" ||
      N == "__nvvm_barrier_cluster_wait_aligned")
    return false;
  return std::nullopt;
}

} // namespace

GraphBuilder::GraphBuilder(ASTContext &Ctx, ValueEvaluator &Eval,
                           const FrontendLimits &Limits)
    : Ctx(Ctx), Eval(Eval), Limits(Limits),
      Locs(Ctx.getSourceManager(), Ctx.getLangOpts()),
      Relevance(std::make_unique<RelevanceOracle>()), Facts(Ctx, Eval),
      Trips(Ctx) {}

GraphBuilder::~GraphBuilder() = default;

unsigned GraphBuilder::countTcgen05(const GCCAsmStmt &S) {
  std::string Text = S.getAsmString();
  unsigned N = 0;
  for (size_t Pos = Text.find("tcgen05."); Pos != std::string::npos;
       Pos = Text.find("tcgen05.", Pos + 1))
    ++N;
  return N;
}

void GraphBuilder::noteWaitLdSpelling(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee)
    return;
  std::string Name = nameOf(Callee);
  if (const UserApiModelTable::Entry *UM = userModelOf(Callee)) {
    if (UM->Instructions.size() == 1 && UM->Instructions.front().Op &&
        UM->Instructions.front().Op->Kind == TmemOpKind::WaitLoad &&
        !CE->getNumArgs())
      Facts.noteWaitLdWrapperCall(CE, Name);
    return;
  }
  if (const ApiModel *M = findApiModel(Name)) {
    if (M->Op.Kind == TmemOpKind::WaitLoad)
      Facts.noteWaitLdWrapperCall(CE, M->Name);
    return;
  }
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !Def || Def->getNumParams())
    return;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Asm = Body && Body->size() == 1
                        ? dyn_cast<GCCAsmStmt>(Body->body_front())
                        : nullptr;
  if (!Asm)
    return;
  const DecodedAsm &D = decodeAsm(*Asm);
  if (D.Instrs.size() == 1 && D.Instrs.front().Op &&
      D.Instrs.front().Op->Kind == TmemOpKind::WaitLoad)
    Facts.noteWaitLdWrapperCall(CE, Name);
}

bool GraphBuilder::overBudget() { return Budget->exhausted(EventCount); }

void GraphBuilder::addEvent(unsigned Block, Event E) {
  if (overBudget())
    return;
  if (AtomBodyOps && E.Op)
    AtomBodyOps->push_back(*E.Op);
  E.Id = EventCount++;
  WaitLdCount += E.Op && E.Op->Kind == TmemOpKind::WaitLoad;
  G->Blocks[Block].Events.push_back(std::move(E));
}

const CFG *GraphBuilder::cfgFor(const FunctionDecl *FD) {
  auto It = Cfgs.find(FD);
  if (It != Cfgs.end())
    return It->second.get();
  CFG::BuildOptions Opts;
  Opts.setAllAlwaysAdd();
  Opts.AddImplicitDtors = true;
  Opts.AddInitializers = true;
  Opts.AddCXXDefaultInitExprInCtors = true;
  Opts.AddRichCXXConstructors = true; // construction contexts name objects
  Opts.PruneTriviallyFalseEdges = true;
  std::unique_ptr<CFG> C;
  if (FD->getBody())
    C = CFG::buildCFG(FD, FD->getBody(), &Ctx, Opts);
  const CFG *Result = C.get();
  Cfgs[FD] = std::move(C);
  return Result;
}

KernelGraph GraphBuilder::build(const FunctionDecl *Kernel, bool IsPattern) {
  auto Start = std::chrono::steady_clock::now();
  KernelGraph Graph;
  G = &Graph;
  EventCount = 0;
  DepthReported = false;
  UnreadableNoted = false;
  DeclaredOnlyCalls.clear();
  Budget.emplace(Graph, Limits.MaxKernelSeconds, Limits.MaxBlocksPerKernel,
                 Limits.MaxEventsPerKernel);
  Graph.Name = functionName(Kernel);
  Graph.Symbol = symbolOf(Kernel);
  Graph.Loc = Locs.make(SourceRange(Kernel->getLocation()));
  Graph.IsPattern = IsPattern;
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>())
    if (const Expr *Max = LB->getMaxThreads(); Max && !Max->isValueDependent())
      if (std::optional<llvm::APSInt> V = Max->getIntegerConstantExpr(Ctx);
          V && V->isStrictlyPositive() && V->getActiveBits() < 16)
        Graph.MaxThreadsPerBlock = static_cast<unsigned>(V->getZExtValue());
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>())
    if (const Expr *Min = LB->getMinBlocks())
      if (!Min->isValueDependent())
        if (std::optional<llvm::APSInt> V = Min->getIntegerConstantExpr(Ctx);
            V && V->isStrictlyPositive() && V->getActiveBits() < 16) {
          Graph.CoResidentCtas = static_cast<unsigned>(V->getZExtValue());
          Graph.CoResidentCtasLoc = Locs.make(LB->getLocation());
        }
  Facts.beginKernel(Kernel, Graph);
  Eval.beginKernel();
  if (const Stmt *Body = Kernel->getBody())
    Graph.EndLoc = Locs.make(SourceRange(Body->getEndLoc()));

  auto Root = std::make_unique<Frame>();
  Root->Function = Kernel;
  Root->Id = 0;
  std::optional<Span> S = buildFunction(Kernel, *Root);
  Frames.push_back(std::move(Root));
  if (!S) {
    Graph.Entry = Graph.Exit = Graph.addBlock();
    Graph.markIncomplete(
        Graph.Loc, fmt::format("could not build the control-flow graph of "
                               "kernel '{}'; it was not analysed",
                               Graph.Name));
  } else {
    Graph.Entry = S->Entry;
    Graph.Exit = S->Exit;
    resolveConstantAddressesFromAllocBase(Graph);
    separateBarrierRuns(
        Graph,
        {[](uint64_t Array, int64_t Start) {
           uint64_t Key[3] = {Array, static_cast<uint64_t>(Start),
                              0x72756eu /* "run" */};
           return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
                      reinterpret_cast<const uint8_t *>(Key), sizeof(Key))) |
                  1;
         },
         /*ExactOffsetsStartRuns=*/true});
  }
  Facts.endKernel();
  Graph.noteCallsWithoutBody(DeclaredOnlyCalls);
  Graph.removePassThroughBlocks();
  Graph.numberEventsInProgramOrder();
  G = nullptr;
  // Callees' CFGs serve the next kernels; the kernel's own is not needed
  // again (a file with a thousand kernels would keep a thousand of them).
  Cfgs.erase(Kernel);
  Trips.forget(Kernel);
  // Nor are its own asm statements decoded again (those of its helpers
  // are, at every call site). One whose text could not be read stays: its
  // remarks are made once per statement.
  for (const GCCAsmStmt *S : KernelOwnAsm)
    if (auto It = AsmCache.find(S);
        It != AsmCache.end() && !It->second->Unreadable)
      AsmCache.erase(It);
  KernelOwnAsm.clear();
  Graph.BuildSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Graph;
}

/// The threads in which a condition known thread by thread holds.
static std::shared_ptr<const std::vector<uint8_t>>
truthByThread(const std::vector<int64_t> &Values) {
  auto Out = std::make_shared<std::vector<uint8_t>>(Values.size());
  for (size_t T = 0; T < Values.size(); ++T)
    (*Out)[T] = Values[T] != 0;
  return Out;
}

std::optional<GraphBuilder::Span>
GraphBuilder::buildFunction(const FunctionDecl *FD, const Frame &F) {
  const CFG *C = cfgFor(FD);
  if (!C)
    return std::nullopt;
  std::vector<unsigned> First(C->getNumBlockIDs()), Last(C->getNumBlockIDs());
  // The threads whose branch condition holds, per CFG block, when known
  // thread by thread.
  std::vector<std::shared_ptr<const std::vector<uint8_t>>> ArmThreads(
      C->getNumBlockIDs());
  for (const CFGBlock *B : *C)
    Last[B->getBlockID()] = First[B->getBlockID()] = G->addBlock();

  // Translate blocks in program order (reverse post-order): values that
  // earlier code records (an object's fields) must exist when later code is
  // evaluated. Blocks the CFG proves unreachable (the untaken arm of an `if`
  // on a template constant or a constexpr value, code after a call that
  // does not return) stay empty: their instructions never run.
  std::vector<const CFGBlock *> Order;
  {
    std::vector<uint8_t> Seen(C->getNumBlockIDs(), 0);
    std::vector<std::pair<const CFGBlock *, unsigned>> Stack;
    Stack.push_back({&C->getEntry(), 0});
    Seen[C->getEntry().getBlockID()] = 1;
    while (!Stack.empty()) {
      auto &[B, I] = Stack.back();
      if (I < B->succ_size()) {
        const CFGBlock *S = (B->succ_begin() + I++)->getReachableBlock();
        if (S && !Seen[S->getBlockID()]) {
          Seen[S->getBlockID()] = 1;
          Stack.push_back({S, 0});
        }
        continue;
      }
      Order.push_back(B);
      Stack.pop_back();
    }
    std::reverse(Order.begin(), Order.end());
  }
  for (const CFGBlock *B : Order) {
    unsigned Cur = First[B->getBlockID()];
    for (const CFGElement &El : *B) {
      if (auto C = El.getAs<CFGConstructor>()) {
        // `T obj(args);`: the construction context names the object, so
        // its fields can be followed into later member calls.
        uint64_t Key = 0;
        const ConstructionContext *CC = C->getConstructionContext();
        if (const auto *VC =
                dyn_cast_or_null<VariableConstructionContext>(CC)) {
          if (const DeclStmt *DS = VC->getDeclStmt())
            if (DS->isSingleDecl())
              Key = Eval.objectKey(dyn_cast<VarDecl>(DS->getSingleDecl()), F);
        } else if (isa_and_nonnull<ReturnedValueConstructionContext>(CC)) {
          // `return T(args);` of a call that initialises a known object.
          Key = F.ReturnObjectKey;
        } else if (const auto *IC = dyn_cast_or_null<
                       ConstructorInitializerConstructionContext>(CC)) {
          // A member constructed by a member initialiser (`impl_(storage,
          // params)`): its fields are followed like a local object's.
          const CXXCtorInitializer *Init = IC->getCXXCtorInitializer();
          if (Init->isMemberInitializer())
            Key = Eval.memberObjectKey(F.ObjectKey, Init->getMember());
          else if (Init->isDelegatingInitializer())
            Key = F.ObjectKey; // `P(s, p) : P(s, p, true_type{})`
        }
        ConstructedObject = Key;
        Cur = visitStmt(C->getStmt(), Cur, F);
        ConstructedObject = 0;
      } else if (auto RC = El.getAs<CFGCXXRecordTypedCall>()) {
        // `T x = make();`: the object the call's result initialises.
        uint64_t Key = 0;
        if (const auto *VC = dyn_cast_or_null<VariableConstructionContext>(
                RC->getConstructionContext()))
          if (const DeclStmt *DS = VC->getDeclStmt(); DS && DS->isSingleDecl())
            Key = Eval.objectKey(dyn_cast<VarDecl>(DS->getSingleDecl()), F);
        ReturningCall = Key ? RC->getStmt() : nullptr;
        ReturnedObject = Key;
        Cur = visitStmt(RC->getStmt(), Cur, F);
        ReturningCall = nullptr;
        ReturnedObject = 0;
      } else if (auto S = El.getAs<CFGStmt>()) {
        Cur = visitStmt(S->getStmt(), Cur, F);
      } else if (auto I = El.getAs<CFGInitializer>()) {
        const CXXCtorInitializer *Init = I->getInitializer();
        if (Init->isMemberInitializer() && Init->getInit())
          Eval.recordField(F.ObjectKey, Init->getMember(), Init->getInit(), &F);
      } else if (auto D = El.getAs<CFGAutomaticObjDtor>()) {
        if (const CXXDestructorDecl *Dtor = D->getDestructorDecl(Ctx))
          Cur =
              inlineCall(Dtor, {}, nullptr,
                         D->getTriggerStmt() ? D->getTriggerStmt()->getEndLoc()
                                             : D->getVarDecl()->getLocation(),
                         Cur, F, Eval.objectKey(D->getVarDecl(), F));
      }
    }
    Last[B->getBlockID()] = Cur;
    if (const Stmt *Cond = B->getTerminatorCondition()) {
      if (const auto *CondExpr = dyn_cast<Expr>(Cond)) {
        Block &Blk = G->Blocks[Cur];
        // `if (warp == 0 && flag)`: the block of the if tests `flag` alone
        // (the CFG evaluated `warp == 0` in the block before, whose
        // terminator is the `&&`), so only that operand's uniformity says
        // whether its threads can part.
        const Stmt *Term = B->getTerminatorStmt();
        const Expr *Decided = CondExpr->IgnoreParens();
        while (const auto *BO = dyn_cast<BinaryOperator>(Decided)) {
          if (!BO->isLogicalOp() || BO == Term)
            break;
          Decided = BO->getRHS()->IgnoreParens();
        }
        AbstractValue DecidedValue = Eval.evaluate(Decided, F);
        Blk.BranchUniformity = DecidedValue.Uniform;
        if (DecidedValue.PerThread && DecidedValue.PerThreadExact &&
            !DecidedValue.isSlotAddress() && !DecidedValue.isTmemAddress())
          ArmThreads[B->getBlockID()] = truthByThread(*DecidedValue.PerThread);
        // A helper's inline asm reading %cluster_ctarank has no known
        // uniformity; a condition made of it and uniform values alone is the
        // same in every thread of the CTA all the same.
        CtaIdentityRead Id = readsCtaIdentity(CondExpr, Ctx);
        Blk.BranchReadsCtaId =
            (Id != CtaIdentityRead::No &&
             Blk.BranchUniformity == Uniformity::CtaUniform) ||
            (Id == CtaIdentityRead::Only &&
             Blk.BranchUniformity == Uniformity::Unknown);
        recordWarpArms(CondExpr, Blk, F);
        Blk.BranchIsLoop =
            Term && (isa<ForStmt>(Term) || isa<WhileStmt>(Term) ||
                     isa<DoStmt>(Term) || isa<CXXForRangeStmt>(Term));
        if (const auto *For = dyn_cast_or_null<ForStmt>(Term))
          if (std::optional<uint64_t> N =
                  LoopTripCounter::constantTripCount(*For, Ctx))
            Blk.LoopRunsAtLeastOnce = *N >= 1 && B->succ_size() == 2;
        Blk.BranchLoc = locIn(F, CondExpr->getSourceRange());
        if (Blk.BranchUniformity == Uniformity::CtaUniform)
          if (std::optional<std::string> Key = Eval.valueKey(Decided, F))
            Blk.ValueKey = std::move(*Key);
        bool Invalid = false;
        llvm::StringRef Text = Lexer::getSourceText(
            CharSourceRange::getTokenRange(CondExpr->getSourceRange()),
            Ctx.getSourceManager(), Ctx.getLangOpts(), &Invalid);
        if (!Invalid) {
          llvm::SmallVector<llvm::StringRef, 8> Words;
          Text.split(Words, ' ', -1, false);
          for (llvm::StringRef W : Words)
            Blk.BranchKey += W.trim().str();
        }
      }
    }
  }
  for (const CFGBlock *B : *C)
    for (const CFGBlock::AdjacentBlock &Succ : B->succs())
      if (const CFGBlock *S = Succ.getReachableBlock())
        G->addEdge(Last[B->getBlockID()], First[S->getBlockID()]);
  // The arms of branches known thread by thread, loops' tests aside (their
  // value changes from one trip to the next).
  for (const CFGBlock *B : *C) {
    std::shared_ptr<const std::vector<uint8_t>> &Mask =
        ArmThreads[B->getBlockID()];
    if (!Mask)
      continue;
    Block &Blk = G->Blocks[Last[B->getBlockID()]];
    if (Blk.BranchIsLoop || B->succ_size() != 2)
      continue;
    const CFGBlock *Then = B->succ_begin()->getReachableBlock();
    const CFGBlock *Else = (B->succ_begin() + 1)->getReachableBlock();
    if (!Then || !Else)
      continue;
    Blk.ThreadsOnTrueArm = std::move(Mask);
    Blk.TrueArmBlock = First[Then->getBlockID()];
    Blk.FalseArmBlock = First[Else->getBlockID()];
  }
  peelLastIterations(*C, FD, First, Last);
  return Span{First[C->getEntry().getBlockID()],
              First[C->getExit().getBlockID()]};
}

void GraphBuilder::peelLastIterations(const CFG &C, const FunctionDecl *FD,
                                      const std::vector<unsigned> &First,
                                      const std::vector<unsigned> &Last) {
  for (const CFGBlock *B : C) {
    const auto *If = dyn_cast_or_null<IfStmt>(B->getTerminatorStmt());
    if (!If || B->succ_size() != 2 || !B->succ_begin()->getReachableBlock())
      continue;
    const ParentMap *Parents = Trips.parentsOf(FD);
    std::optional<LastIterationTest> T =
        Parents ? findLastIterationTest(*If, *Parents, Ctx) : std::nullopt;
    if (!T)
      continue;
    for (const CFGBlock *H : C) {
      if (H->getTerminatorStmt() != T->Loop || H->succ_size() != 2)
        continue;
      const CFGBlock *Exit = (H->succ_begin() + 1)->getReachableBlock();
      const CFGBlock *Then = B->succ_begin()->getReachableBlock();
      if (Exit)
        peelLastIteration(*G, Last[B->getBlockID()], First[Then->getBlockID()],
                          Last[H->getBlockID()], First[Exit->getBlockID()]);
      break;
    }
  }
}

unsigned GraphBuilder::visitStmt(const Stmt *S, unsigned Cur, const Frame &F) {
  if (overBudget())
    return Cur;

  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    translateAsm(*Asm, Cur, F);
    return Cur;
  }

  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    // `t.data() = v` moves a CuTe TMEM tensor.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
      Eval.tensors().recordDataAssignment(OC, F);
    const FunctionDecl *Callee = CE->getDirectCallee();
    // A call through a function pointer or reference whose target the call
    // site knows (`explode(CopyOp::copy, ...)` calling `fn(...)`).
    if (!Callee && !CE->isTypeDependent())
      Callee = knownCallee(CE->getCallee(), F);
    if (!Callee)
      return visitUnresolvedCall(CE, Cur, F);
    if (const UserApiModelTable::Entry *UM = userModelOf(Callee)) {
      addUserModeledCall(*UM, CE, explicitArguments(CE), Cur, F);
      return Cur;
    }
    if (const ApiModel *M = findApiModel(nameOf(Callee))) {
      addModeledCall(*M, CE, Cur, F);
      return Cur;
    }
    if (addNamedBarrierCall(Callee, CE, Cur, F))
      return Cur;
    if (addTileLangLoad(Callee, CE, Cur, F))
      return Cur;
    if (std::optional<bool> Arrive = clusterBarrierBuiltin(Callee)) {
      // cg::this_cluster().sync() and __cluster_barrier_arrive/wait() reach
      // these builtins under Clang; nvcc's headers write the same
      // barrier.cluster instructions as inline asm.
      Event E;
      E.K = Event::Kind::Sync;
      SyncOp Op;
      Op.Kind = SyncOpKind::ClusterBarrier;
      Op.IsArrive = *Arrive;
      E.Sync = Op;
      E.Opcode = Callee->getName().str() + "()";
      E.Loc = locIn(F, CE->getSourceRange());
      E.Stack = F.Stack;
      E.Statement = Facts.statementOf(CE, F);
      addEvent(Cur, std::move(E));
      return Cur;
    }
    if (const UserApiModelTable::Entry *A =
            cuteAtomModel(Callee, explicitArguments(CE).size()))
      return visitCuteAtomCall(*A, Callee, CE, Cur, F);
    // The generic address of a shared-memory location: not followed (its
    // body, if any, is an address conversion), but its argument must be a
    // shared-memory address.
    if (Callee->getIdentifier() &&
        Callee->getName() == "__cvta_shared_to_generic" &&
        CE->getNumArgs() == 1) {
      addPointerUse(CE->getArg(0), "__cvta_shared_to_generic",
                    CE->getBeginLoc(), CE, Cur, F);
      return Cur;
    }
    // A shared-memory matrix descriptor built from a TMEM address (or a
    // value computed from one): reported at the call, the body is still
    // followed.
    if (Callee->getIdentifier() && isSmemDescriptorBuilder(Callee->getName()))
      for (const Expr *Arg : explicitArguments(CE)) {
        OperandValue V;
        V.Value = Eval.evaluate(Arg, F);
        if (!V.Value.tmemProvenance())
          continue;
        addSharedUseEvent(std::move(V), Callee->getName(), /*Generic=*/false,
                          /*Descriptor=*/true, CE->getBeginLoc(), CE, Cur, F);
        break;
      }
    if (Callee->getIdentifier() && Callee->getName() == "__syncthreads") {
      Event E;
      E.K = Event::Kind::Sync;
      E.Sync = SyncOp{SyncOpKind::BarrierSync};
      E.Sync->Aligned = true; // nvcc: bar.sync 0
      E.Opcode = "__syncthreads()";
      E.Loc = locIn(F, CE->getSourceRange());
      E.Stack = F.Stack;
      E.Statement = Facts.statementOf(CE, F);
      addEvent(Cur, std::move(E));
      return Cur;
    }
    std::vector<const Expr *> Args = explicitArguments(CE);
    const Expr *This = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      This = MC->getImplicitObjectArgument();
    else if (Args.size() < CE->getNumArgs())
      This = CE->getArg(0);
    return inlineCall(Callee, Args, This, CE->getBeginLoc(), Cur, F,
                      Eval.objectKey(This, F), CE);
  }

  if (const auto *CC = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = CC->getConstructor();
    // Copying a variable (`float2 v = regs[i];`, a by-value argument) reads
    // it, like an lvalue-to-rvalue conversion does for scalars.
    if (Ctor && Ctor->isCopyOrMoveConstructor() && CC->getNumArgs() == 1) {
      const Expr *Arg = CC->getArg(0)->IgnoreParenImpCasts();
      std::string Name;
      if (uint64_t Id = Eval.variableIdentity(Arg, F, &Name)) {
        Event E;
        E.K = Event::Kind::VariableRead;
        E.Loc = locIn(F, Arg->getSourceRange());
        E.Stack = F.Stack;
        E.Statement = Facts.statementOf(CC, F);
        E.VariableId = Id;
        E.VariableName = Name;
        E.VariableElement = Eval.variableElement(Arg, F);
        E.VariableCopy = true; // a copy construction
        addEvent(Cur, std::move(E));
      }
    }
    if (Ctor && !Ctor->isTrivial()) {
      std::vector<const Expr *> Args(CC->arg_begin(), CC->arg_end());
      return inlineCall(Ctor, Args, nullptr, CC->getBeginLoc(), Cur, F,
                        ConstructedObject, CC);
    }
    return Cur;
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->getOpcode() == BO_Assign && F.ObjectKey)
    if (const auto *ME =
            dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          Eval.recordField(F.ObjectKey, FD, BO->getRHS(), &F);

  // A pointer made from an integer and dereferenced (`*(float *)taddr`,
  // `((uint32_t *)taddr)[i]`, `p->x` with `p = (T *)taddr`).
  const Expr *Deref = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_Deref)
    Deref = UO->getSubExpr();
  else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
    Deref = AS->getBase();
  else if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    Deref = ME->getBase();
  if (Deref && Deref->getType()->isPointerType() && madeFromInteger(Deref))
    addPointerUse(Deref, "dereference", S->getBeginLoc(), S, Cur, F);

  if (isa<ReturnStmt>(S) && !F.Parent) {
    Event E;
    E.K = Event::Kind::Return;
    E.Loc = locIn(F, S->getSourceRange());
    addEvent(Cur, std::move(E));
    return Cur;
  }

  if (const auto *IC = dyn_cast<ImplicitCastExpr>(S)) {
    if (IC->getCastKind() != CK_LValueToRValue &&
        IC->getCastKind() != CK_ArrayToPointerDecay)
      return Cur;
    const Expr *Sub = IC->getSubExpr()->IgnoreParens();
    if (IC->getCastKind() == CK_LValueToRValue && isSlotType(Sub->getType()) &&
        (isa<DeclRefExpr>(Sub) || isa<MemberExpr>(Sub) ||
         isa<ArraySubscriptExpr>(Sub))) {
      std::string Name;
      if (uint64_t Slot = Eval.slotIdentity(Sub, F, &Name)) {
        Event E;
        E.K = Event::Kind::SlotRead;
        E.Loc = locIn(F, Sub->getSourceRange());
        E.Stack = F.Stack;
        E.Slot = Slot;
        E.VariableName = Name;
        addEvent(Cur, std::move(E));
        return Cur;
      }
    }
    if (!isa<DeclRefExpr>(Sub) && !isa<ArraySubscriptExpr>(Sub) &&
        !isa<MemberExpr>(Sub))
      return Cur;
    // A decayed array passed on is not a read of its values.
    if (IC->getCastKind() == CK_ArrayToPointerDecay)
      return Cur;
    std::string Name;
    uint64_t Id = Eval.variableIdentity(Sub, F, &Name);
    if (!Id)
      return Cur;
    Event E;
    E.K = Event::Kind::VariableRead;
    E.Loc = locIn(F, Sub->getSourceRange());
    E.Stack = F.Stack;
    E.Statement = Facts.statementOf(IC, F);
    E.VariableId = Id;
    E.VariableName = Name;
    E.VariableElement = Eval.variableElement(Sub, F);
    E.VariableCopy = isPlainCopy(IC, F);
    addEvent(Cur, std::move(E));
  }
  return Cur;
}

bool GraphBuilder::isPlainCopy(const Expr *Read, const Frame &F) {
  ParentMap *PM = Trips.parentsOf(F.Function);
  if (!PM)
    return false;
  const Stmt *Child = Read;
  const Stmt *P = PM->getParent(Child);
  // Parentheses and implicit conversions pass the value on unchanged.
  while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P) ||
               isa<ExprWithCleanups>(P))) {
    Child = P;
    P = PM->getParent(P);
  }
  if (!P)
    return false;
  if (isa<DeclStmt>(P) || isa<ReturnStmt>(P))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->getOpcode() == BO_Assign && BO->getRHS() == Child;
  return false;
}

const FunctionDecl *GraphBuilder::knownCallee(const Expr *E, const Frame &F,
                                              unsigned Depth) const {
  if (!E || Depth > 64)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
    return knownCallee(UO->getSubExpr(), F, Depth + 1);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
        MD && MD->isStatic())
      return MD;
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
    return FD;
  // A parameter: whatever the caller passed, in the caller's frame.
  if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
    auto It = F.Args.find(PVD);
    if (It == F.Args.end() || !F.Parent)
      return nullptr;
    return knownCallee(It->second, *F.Parent, Depth + 1);
  }
  // A local that cannot be reassigned: `const auto fn = &f;`, `auto &fn = f;`.
  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
    if (VD->hasLocalStorage() && VD->getInit() &&
        (VD->getType()->isReferenceType() || VD->getType().isConstQualified()))
      return knownCallee(VD->getInit(), F, Depth + 1);
  return nullptr;
}

void GraphBuilder::addPointerUse(const Expr *Pointer, llvm::StringRef What,
                                 SourceLocation Loc, const Stmt *Site,
                                 unsigned Cur, const Frame &F) {
  OperandValue V;
  V.Value = Eval.evaluate(Pointer, F);
  if (!V.Value.isTmemAddress())
    return;
  addSharedUseEvent(std::move(V), What, /*Generic=*/What == "dereference",
                    /*Descriptor=*/false, Loc, Site, Cur, F);
}

void GraphBuilder::addSharedUseEvent(OperandValue V, llvm::StringRef What,
                                     bool Generic, bool Descriptor,
                                     SourceLocation Loc, const Stmt *Site,
                                     unsigned Cur, const Frame &F) {
  Event E;
  E.K = Event::Kind::SharedAccess;
  E.Shared = SharedAccessOp{{0}, Generic};
  E.Shared->Descriptor = Descriptor;
  E.Opcode = What.str();
  E.Loc = Site && Site->getBeginLoc() == Loc ? locIn(F, Site->getSourceRange())
                                             : locIn(F, Loc);
  E.Stack = F.Stack;
  E.Statement = Facts.statementOf(Site, F);
  E.Operands.push_back(std::move(V));
  addEvent(Cur, std::move(E));
}

std::vector<const Expr *> GraphBuilder::explicitArguments(const CallExpr *CE) {
  std::vector<const Expr *> Args(CE->arg_begin(), CE->arg_end());
  // `obj(args)` / `a + b` with a member operator: the object comes first.
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(Callee) &&
      !Args.empty())
    Args.erase(Args.begin());
  return Args;
}

std::string GraphBuilder::qualifiedName(const NamedDecl *D) {
  std::string Name = D->getQualifiedNameAsString();
  for (size_t Pos;
       (Pos = Name.find("(anonymous namespace)::")) != std::string::npos;)
    Name.erase(Pos, strlen("(anonymous namespace)::"));
  return Name;
}

const std::string &GraphBuilder::nameOf(const NamedDecl *D) const {
  auto [It, New] = Names.try_emplace(D);
  if (New)
    It->second = qualifiedName(D);
  return It->second;
}

const std::string &GraphBuilder::plainNameOf(const FunctionDecl *FD) const {
  auto [It, New] = PlainNames.try_emplace(FD);
  if (New)
    It->second = withoutTemplateArguments(nameOf(FD));
  return It->second;
}

void GraphBuilder::addModeledCall(const ApiModel &M, const CallExpr *CE,
                                  unsigned Cur, const Frame &F) {
  Event E;
  E.K = Event::Kind::Tmem;
  E.Op = M.Op;
  E.Opcode = M.Name;
  E.Guarded = M.ElectsInside;
  E.Loc = locIn(F, CE->getSourceRange());
  E.Stack = F.Stack;
  E.Statement = Facts.statementOf(CE, F);
  if (M.Op.Kind == TmemOpKind::Load)
    E.TripsPerTile = Trips.tripsAround(CE, F);
  for (int Arg : M.OperandArgs) {
    OperandValue V;
    V.Value.Uniform = Uniformity::Unknown;
    if (Arg >= 0 && static_cast<unsigned>(Arg) < CE->getNumArgs()) {
      V.Value = Eval.evaluate(CE->getArg(Arg), F);
      if (static_cast<int>(E.Operands.size()) == M.Op.NColsOperand)
        V.Literal = Facts.literalOf(CE->getArg(Arg), F);
    }
    E.Operands.push_back(std::move(V));
  }
  if (M.Op.Kind == TmemOpKind::WaitLoad)
    Facts.noteWaitLdWrapperCall(CE, M.Name);
  addEvent(Cur, std::move(E));
}

bool GraphBuilder::addTileLangLoad(const FunctionDecl *Callee,
                                   const CallExpr *CE, unsigned Cur,
                                   const Frame &F) {
  const TemplateArgumentList *TArgs = Callee->getTemplateSpecializationArgs();
  if (!TArgs || TArgs->size() < 2 || CE->getNumArgs() < 2 ||
      TArgs->get(0).getKind() != TemplateArgument::Integral ||
      TArgs->get(1).getKind() != TemplateArgument::Integral)
    return false;
  std::string Name = nameOf(Callee);
  std::optional<TmemOp> Op =
      tileLangLoadOp(Name, TArgs->get(0).getAsIntegral().getExtValue(),
                     TArgs->get(1).getAsIntegral().getBoolValue());
  if (!Op)
    return false;
  ApiModel Load;
  Load.Name = Name;
  Load.Op = *Op;
  Load.OperandArgs = {/*taddr*/ 0};
  size_t Before = G->Blocks[Cur].Events.size();
  addModeledCall(Load, CE, Cur, F);
  if (G->Blocks[Cur].Events.size() == Before) // over budget
    return true;
  // The address is `start + offset`: move the column by a constant offset,
  // forget it otherwise.
  Event &Ld = G->Blocks[Cur].Events.back();
  AbstractValue Offset = Eval.evaluate(CE->getArg(1), F);
  AbstractValue &Addr = Ld.Operands[0].Value;
  if (Addr.isTmemAddress()) {
    int64_t C = Offset.Constant ? *Offset.Constant : 0;
    if (!Offset.Constant || C < 0 || C > 0xFFFF) {
      Addr.ColumnOffset.reset();
      Addr.ColumnChoices.clear();
    } else {
      if (Addr.ColumnOffset)
        *Addr.ColumnOffset += C;
      for (int64_t &Col : Addr.ColumnChoices)
        Col += C;
    }
  }
  ApiModel Wait;
  Wait.Name = "tl::fence_view_async_tmem_load";
  Wait.Op.Kind = TmemOpKind::WaitLoad;
  Wait.Op.Issue = IssueGranularity::WarpCollective;
  Wait.Op.Completion = CompletionClass::Synchronous;
  addModeledCall(Wait, CE, Cur, F);
  return true;
}

unsigned GraphBuilder::visitUnresolvedCall(const CallExpr *CE, unsigned Cur,
                                           const Frame &F) {
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  // `Allocator().allocate(n, slot)` with a dependent Allocator type.
  if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
    std::string Type = DM->getBaseType().getAsString();
    if (!DM->isImplicitAccess() && DM->getBase())
      Type = DM->getBase()->getType().getAsString();
    if (Limits.UserModels)
      if (const UserApiModelTable::Entry *UM = Limits.UserModels->findByMember(
              Type, DM->getMember().getAsString())) {
        std::vector<const Expr *> Args(CE->arg_begin(), CE->arg_end());
        addUserModeledCall(*UM, CE, Args, Cur, F);
        return Cur;
      }
    if (const ApiModel *M =
            findApiModelByMember(Type, DM->getMember().getAsString())) {
      addModeledCall(*M, CE, Cur, F);
      return Cur;
    }
  }
  // A call whose overload is resolved only at instantiation, but that has
  // a single candidate: follow it (a template pattern of a device helper).
  const OverloadExpr *OE = dyn_cast<OverloadExpr>(Callee);
  // Every candidate of an unresolved name has that name: a user model of
  // it applies whichever overload instantiation picks.
  if (OE && OE->getNumDecls() >= 1) {
    const NamedDecl *D = (*OE->decls_begin())->getUnderlyingDecl();
    const FunctionDecl *FD = dyn_cast<FunctionDecl>(D);
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      FD = FT->getTemplatedDecl();
    if (const UserApiModelTable::Entry *UM = userModelOf(FD)) {
      std::vector<const Expr *> Args(CE->arg_begin(), CE->arg_end());
      addUserModeledCall(*UM, CE, Args, Cur, F);
      return Cur;
    }
  }
  if (OE && OE->getNumDecls() == 1) {
    const NamedDecl *D = (*OE->decls_begin())->getUnderlyingDecl();
    const FunctionDecl *FD = dyn_cast<FunctionDecl>(D);
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      FD = FT->getTemplatedDecl();
    if (FD) {
      if (const ApiModel *M = findApiModel(nameOf(FD))) {
        addModeledCall(*M, CE, Cur, F);
        return Cur;
      }
      if (!isa<CXXMethodDecl>(FD) || isa<UnresolvedLookupExpr>(OE)) {
        std::vector<const Expr *> Args(CE->arg_begin(), CE->arg_end());
        return inlineCall(FD, Args, nullptr, CE->getBeginLoc(), Cur, F,
                          /*ObjectKey=*/0, CE);
      }
    }
  }
  // Anything else may allocate or free for all we know.
  addOpaqueCall(Cur, CE->getBeginLoc(), F);
  return Cur;
}

const UserApiModelTable::Entry *
GraphBuilder::cuteAtomModel(const FunctionDecl *Callee, unsigned NumArgs) {
  std::string Name = plainNameOf(Callee);
  if (!llvm::StringRef(Name).starts_with("cute::SM100")) // SM100::TMEM:: too
    return nullptr;
  // The atom's scale-vector size (`int VS` of the block-scaled FP4 MMAs).
  std::optional<int64_t> ScaleVector;
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          Callee->getDeclContext()))
    if (const ClassTemplateDecl *T = Spec->getSpecializedTemplate()) {
      const TemplateParameterList *Params = T->getTemplateParameters();
      const TemplateArgumentList &Args = Spec->getTemplateArgs();
      for (unsigned P = 0; P < Params->size() && P < Args.size(); ++P)
        if (const NamedDecl *D = Params->getParam(P);
            D->getName() == "VS" &&
            Args[P].getKind() == TemplateArgument::Integral)
          ScaleVector = Args[P].getAsIntegral().getExtValue();
    }
  std::string Key = Name + "/" + std::to_string(NumArgs) + "/" +
                    std::to_string(ScaleVector.value_or(0));
  auto [It, New] = AtomModels.try_emplace(Key);
  if (!New)
    return It->second ? &*It->second : nullptr;
  std::optional<std::string> Ptx = cuteAtomPtx(Name, NumArgs, ScaleVector);
  if (!Ptx)
    return nullptr;
  UserApiModel M;
  M.Function = Name;
  M.Asm = *Ptx;
  // CuTe's MMA atoms elect one thread themselves (`if
  // (cute::elect_one_sync())` around the asm).
  M.ElectsInside = llvm::StringRef(Name).contains("::SM100_MMA_");
  llvm::Expected<std::vector<ModeledInstruction>> Instrs =
      decodeUserApiModel(M, NumArgs + 1);
  if (!Instrs) {
    // The name grammar produced text the decoder refuses: a bug of ours,
    // said once rather than hidden; the body (if any) is followed.
    Remarks.push_back(
        {Locs.make(Callee->getLocation()),
         "internal: the model of '" + Name +
             "' does not decode: " + llvm::toString(Instrs.takeError())});
    return nullptr;
  }
  It->second = UserApiModelTable::Entry{std::move(M), std::move(*Instrs)};
  return &*It->second;
}

namespace {

/// Does \p S (one function's body, callees not followed) hold inline asm
/// with tcgen05 text? CuTe's atoms put the asm in the body directly, and
/// compile it out (`CUTE_INVALID_CONTROL_PATH`) without the arch macros.
bool hasTcgen05Asm(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return Asm->getAsmString().find("tcgen05.") != std::string::npos;
  for (const Stmt *Child : S->children())
    if (hasTcgen05Asm(Child))
      return true;
  return false;
}

/// The properties a model and the asm it stands for must share.
std::string atomSignature(const TmemOp &Op) {
  std::string S = kindName(Op.Kind).str();
  S += fmt::format(" g{}", static_cast<int>(Op.Group));
  if (Op.LdSt)
    S += fmt::format(" shape{} x{}{}{}", static_cast<int>(*Op.LdSt), Op.Repeat,
                     Op.Packed16 ? " 16b" : "", Op.Reduction ? " red" : "");
  if (Op.Cp)
    S += fmt::format(" cp{} {}", static_cast<int>(*Op.Cp), Op.Multicast);
  if (Op.Mma)
    S += fmt::format(" kind{}{}{}{}", static_cast<int>(*Op.Mma),
                     Op.ATmem ? " ts" : " ss", Op.Sparse ? " sp" : "",
                     Op.BlockScale ? " bs" : "");
  return S;
}

} // namespace

unsigned GraphBuilder::visitCuteAtomCall(const UserApiModelTable::Entry &A,
                                         const FunctionDecl *Callee,
                                         const CallExpr *CE, unsigned Cur,
                                         const Frame &F) {
  std::vector<const Expr *> Args = explicitArguments(CE);
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !Def || !hasTcgen05Asm(Def->getBody())) {
    // Compiled out (no arch macro) or declared only: the name says what it
    // issues.
    addUserModeledCall(A, CE, Args, Cur, F);
    return Cur;
  }
  // The asm is visible: follow it (its operands are bound exactly), and
  // check that it issues what the name says: one set of events, and a
  // remark if the two disagree.
  std::vector<TmemOp> Seen;
  std::vector<TmemOp> *Saved = AtomBodyOps;
  AtomBodyOps = &Seen;
  const unsigned EventsBefore = EventCount;
  unsigned Cont =
      inlineCall(Callee, Args, nullptr, CE->getBeginLoc(), Cur, F, 0, CE);
  AtomBodyOps = Saved;
  if (EventCount == EventsBefore || overBudget())
    return Cont; // not followed (depth bound, budget): already said
  std::vector<std::string> Want, Got;
  for (const ModeledInstruction &MI : A.Instructions)
    if (MI.Op)
      Want.push_back(atomSignature(*MI.Op));
  for (const TmemOp &Op : Seen)
    Got.push_back(atomSignature(Op));
  // Nothing seen because the asm sits past the call depth bound: the kernel
  // is already incomplete, and the body does not disagree with its name.
  if (Got.empty() && DepthReported)
    return Cont;
  if (Want != Got && ReportedAtomDisagreements.insert(Def).second)
    Remarks.push_back(
        {Locs.make(Def->getLocation()),
         fmt::format("the body of '{}' issues '{}', which is not what its "
                     "name stands for ('{}'); the body was analysed",
                     A.Spec.Function, llvm::join(Got, "; "),
                     llvm::join(Want, "; "))});
  return Cont;
}

void GraphBuilder::recordWarpArms(const Expr *Cond, Block &Blk,
                                  const Frame &F) {
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO || !BO->isComparisonOp())
    return;
  AbstractValue L = Eval.evaluate(BO->getLHS(), F);
  AbstractValue R = Eval.evaluate(BO->getRHS(), F);
  BinaryOperatorKind Op = BO->getOpcode();
  if (R.IsWarpIndex && L.Constant) {
    std::swap(L, R);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!L.IsWarpIndex || !R.Constant)
    return;
  const int64_t C = *R.Constant, Max = INT32_MAX;
  using Range = std::pair<int64_t, int64_t>;
  switch (Op) {
  case BO_EQ:
    Blk.WarpsOnArm[0] = Range{C, C};
    break;
  case BO_NE:
    Blk.WarpsOnArm[1] = Range{C, C};
    break;
  case BO_LT:
    Blk.WarpsOnArm[0] = Range{0, C - 1};
    Blk.WarpsOnArm[1] = Range{C, Max};
    break;
  case BO_LE:
    Blk.WarpsOnArm[0] = Range{0, C};
    Blk.WarpsOnArm[1] = Range{C + 1, Max};
    break;
  case BO_GT:
    Blk.WarpsOnArm[0] = Range{C + 1, Max};
    Blk.WarpsOnArm[1] = Range{0, C};
    break;
  case BO_GE:
    Blk.WarpsOnArm[0] = Range{C, Max};
    Blk.WarpsOnArm[1] = Range{0, C - 1};
    break;
  default:
    break;
  }
}

void GraphBuilder::addOpaqueCall(unsigned Cur, SourceLocation Loc,
                                 const Frame &F) {
  Event E;
  E.K = Event::Kind::OpaqueCall;
  E.Loc = locIn(F, Loc);
  E.Stack = F.Stack;
  addEvent(Cur, std::move(E));
}

unsigned GraphBuilder::inlineCall(const FunctionDecl *Callee,
                                  llvm::ArrayRef<const Expr *> Args,
                                  const Expr *This, SourceLocation CallLoc,
                                  unsigned Cur, const Frame &F,
                                  uint64_t ObjectKey, const Stmt *CallStmt) {
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !Def || !Def->getBody()) {
    // Declared only (another -rdc unit, a library): opaque, unless it is a
    // builtin or a known runtime function without TMEM effects.
    if (Callee->getBuiltinID() == 0 && !Callee->isInStdNamespace() &&
        !Callee->getLocation().isInvalid() &&
        !Ctx.getSourceManager().isInSystemHeader(Callee->getLocation())) {
      addOpaqueCall(Cur, CallLoc, F);
      std::string Name = nameOf(Callee);
      if (llvm::none_of(DeclaredOnlyCalls,
                        [&](const auto &C) { return C.Callee == Name; }))
        DeclaredOnlyCalls.push_back({Name, Locs.make(CallLoc)});
    }
    return Cur;
  }
  if (!Relevance->isRelevant(Def)) {
    // A constructor without TMEM code still sets the fields later member
    // calls read (a pipeline's barrier pointers); so does a function whose
    // result initialises an object (`T x = [&] { return T(args); }();`).
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def); Ctor && ObjectKey)
      recordConstruction(Ctor, Args, ObjectKey, F, CallStmt);
    else if (CallStmt && CallStmt == ReturningCall)
      recordReturnedConstruction(Def, Args, This, ObjectKey, F, CallStmt,
                                 CallLoc);
    return Cur;
  }
  for (const Frame *P = &F; P; P = P->Parent)
    if (P->Function &&
        P->Function->getCanonicalDecl() == Def->getCanonicalDecl()) {
      addOpaqueCall(Cur, CallLoc, F); // recursion is not followed
      return Cur;
    }
  if (F.depth() >= Limits.callDepth()) {
    // Nothing of TMEM or synchronisation down there (CuTe's TMA store):
    // nothing is hidden, as for a callee without asm.
    if (!Relevance->mayIssueTmemOrSync(Def))
      return Cur;
    addOpaqueCall(Cur, CallLoc, F);
    if (!DepthReported) {
      DepthReported = true;
      G->markIncomplete(
          Locs.make(CallLoc),
          fmt::format("call depth bound of {} reached in kernel '{}'; "
                      "deeper callees were not analysed ({})",
                      Limits.callDepth(), G->Name, Limits.callDepthAdvice()));
    }
    return Cur;
  }
  // The call site spans the call expression when it starts there (not a
  // destructor run at the end of a scope).
  const Frame &Ref = pushFrame(Def, F, Args, This, ObjectKey, CallStmt,
                               CallStmt && CallStmt->getBeginLoc() == CallLoc
                                   ? locIn(F, CallStmt->getSourceRange())
                                   : locIn(F, CallLoc));
  // A constructor's member initialisers and the `this->f = v` statements of
  // its body define the fields before any block of it is translated (blocks
  // are not translated in program order).
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def); Ctor && ObjectKey)
    recordConstructorFields(Ctor, ObjectKey, Ref);
  const unsigned EventsBefore = EventCount, WaitLdBefore = WaitLdCount;
  std::optional<Span> S = buildFunction(Def, Ref);
  // A function that does nothing but tcgen05.wait::ld is a spelling of it
  // that fix-its inserting a wait can reuse.
  if (EventCount == EventsBefore + 1 && WaitLdCount == WaitLdBefore + 1)
    if (const auto *CE = dyn_cast_or_null<CallExpr>(CallStmt))
      Facts.noteWaitLdWrapperCall(CE, nameOf(Def));
  if (!S)
    return Cur;
  G->addEdge(Cur, S->Entry);
  unsigned Cont = G->addBlock();
  G->addEdge(S->Exit, Cont);
  return Cont;
}

void GraphBuilder::recordConstructorFields(const CXXConstructorDecl *Ctor,
                                           uint64_t ObjectKey,
                                           const Frame &Ref) {
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (!Init->getInit() ||
        !(Init->isMemberInitializer() || Init->isDelegatingInitializer()))
      continue;
    if (Init->isMemberInitializer())
      Eval.recordField(ObjectKey, Init->getMember(), Init->getInit(), &Ref);
    // A member object built by its own constructor (`impl_(storage,
    // params)`): its fields too, under the member's identity. A delegating
    // constructor (`P(s, p) : P(s, p, true_type{})`): the target's, under
    // this object's.
    const Expr *IE = Init->getInit();
    if (const auto *C = dyn_cast<ExprWithCleanups>(IE))
      IE = C->getSubExpr();
    const auto *CC = dyn_cast<CXXConstructExpr>(IE->IgnoreParens());
    // `stage_({0, phase, 0})`: a defaulted move of a temporary the
    // constructor built holds what that constructor set.
    if (CC && CC->getNumArgs() == 1 && CC->getConstructor() &&
        CC->getConstructor()->isCopyOrMoveConstructor() &&
        (CC->isElidable() || CC->getConstructor()->isDefaulted()))
      if (const auto *Made =
              dyn_cast<CXXConstructExpr>(CC->getArg(0)->IgnoreImplicit()))
        CC = Made;
    if (CC)
      if (const CXXConstructorDecl *Inner = CC->getConstructor();
          Inner && !Inner->isTrivial() && !Inner->isCopyOrMoveConstructor()) {
        std::vector<const Expr *> Args(CC->arg_begin(), CC->arg_end());
        recordConstruction(
            Inner, Args,
            Init->isMemberInitializer()
                ? Eval.memberObjectKey(ObjectKey, Init->getMember())
                : ObjectKey,
            Ref, CC);
      }
  }
  if (const auto *Body = dyn_cast_or_null<CompoundStmt>(Ctor->getBody()))
    for (const Stmt *St : Body->body())
      if (const auto *BO = dyn_cast<BinaryOperator>(St);
          BO && BO->getOpcode() == BO_Assign)
        if (const auto *ME =
                dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
            if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
              Eval.recordField(ObjectKey, FD, BO->getRHS(), &Ref);
}

const Frame &GraphBuilder::pushFrame(const FunctionDecl *Def, const Frame &F,
                                     llvm::ArrayRef<const Expr *> Args,
                                     const Expr *This, uint64_t ObjectKey,
                                     const Stmt *CallStmt, SourceLoc Site) {
  auto NF = std::make_unique<Frame>();
  NF->Function = Def;
  NF->Parent = &F;
  NF->Id = NextFrameId++;
  NF->This = This;
  NF->ObjectKey = ObjectKey;
  NF->CallStmt = CallStmt;
  if (CallStmt && CallStmt == ReturningCall) {
    NF->ReturnObjectKey = ReturnedObject;
    ReturningCall = nullptr;
    ReturnedObject = 0;
  }
  for (unsigned I = 0; I < Def->getNumParams() && I < Args.size(); ++I)
    NF->Args[Def->getParamDecl(I)] = Args[I];
  NF->Stack = F.Stack.pushed({nameOf(Def), std::move(Site)});
  Frames.push_back(std::move(NF));
  return *Frames.back();
}

void GraphBuilder::recordConstruction(const CXXConstructorDecl *Ctor,
                                      llvm::ArrayRef<const Expr *> Args,
                                      uint64_t ObjectKey, const Frame &F,
                                      const Stmt *CallStmt) {
  const FunctionDecl *Def = nullptr;
  if (!ObjectKey || !Ctor->hasBody(Def) || !Def ||
      F.depth() >= Limits.callDepth())
    return;
  const auto *DefCtor = dyn_cast<CXXConstructorDecl>(Def);
  if (!DefCtor)
    return;
  // A frame for the arguments the fields' values are evaluated in; its
  // body is not translated.
  const Frame &Ref = pushFrame(
      Def, F, Args, /*This=*/nullptr, ObjectKey, CallStmt,
      locIn(F, CallStmt ? CallStmt->getBeginLoc() : Def->getLocation()));
  recordConstructorFields(DefCtor, ObjectKey, Ref);
}

namespace {

/// The return statements of a function body, not those of lambdas in it.
void collectReturns(const Stmt *S, std::vector<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    Out.push_back(R);
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

} // namespace

void GraphBuilder::recordReturnedConstruction(
    const FunctionDecl *Def, llvm::ArrayRef<const Expr *> Args,
    const Expr *This, uint64_t ObjectKey, const Frame &F, const Stmt *CallStmt,
    SourceLocation CallLoc) {
  const uint64_t Into = ReturnedObject;
  ReturningCall = nullptr;
  ReturnedObject = 0;
  // One return of a construction: the arm an instantiated `if constexpr`
  // discards is not in the body. Several: which one runs is not known.
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Def->getBody(), Returns);
  if (!Into || Returns.size() != 1 || !Returns.front()->getRetValue())
    return;
  const auto *CC = dyn_cast<CXXConstructExpr>(
      Returns.front()->getRetValue()->IgnoreImplicit());
  if (!CC || !CC->getConstructor() ||
      CC->getConstructor()->isCopyOrMoveConstructor())
    return;
  const Frame &Ref =
      pushFrame(Def, F, Args, This, ObjectKey, CallStmt, locIn(F, CallLoc));
  std::vector<const Expr *> CtorArgs(CC->arg_begin(), CC->arg_end());
  recordConstruction(CC->getConstructor(), CtorArgs, Into, Ref, CC);
}

std::optional<int64_t> GraphBuilder::immediateValue(llvm::StringRef Constraint,
                                                    const Expr *E) const {
  // "n" and "i" operands are constants the compiler prints into the text;
  // in a template instantiation a template parameter is one too. A
  // value-dependent one (an uninstantiated pattern) stays unknown.
  if (!Constraint.contains('n') && !Constraint.contains('i'))
    return std::nullopt;
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx);
  if (!V || V->getSignificantBits() > 64)
    return std::nullopt;
  return V->getExtValue();
}

const GraphBuilder::DecodedText &
GraphBuilder::decodeText(const std::string &Template,
                         llvm::ArrayRef<ptx::AsmOperandInfo> Infos) {
  // The key: the text (after its length, so that no text can pass for
  // another with operands), then every operand's name, constraint,
  // direction and immediate value (they change how `%N` reads).
  std::string Key = std::to_string(Template.size()) + ":" + Template;
  for (const ptx::AsmOperandInfo &Info : Infos)
    Key += fmt::format("\x01{}\x02{}\x02{}\x02{}", Info.Name, Info.Constraint,
                       Info.IsOutput ? 'o' : 'i',
                       Info.Immediate ? std::to_string(*Info.Immediate) : "-");
  std::unique_ptr<DecodedText> &Slot = DecodedTexts[Key];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<DecodedText>();
  DecodedText &T = *Slot;
  ptx::ParsedAsm Parsed = ptx::parseInlineAsm(Template, Infos);
  auto AddRemark = [&](const ptx::ParseDiagnostic &PD, std::string Message) {
    DecodedText::Step St;
    St.IsRemark = true;
    St.Offset = PD.Range.Offset;
    St.Length = std::max(PD.Range.Length, 1u);
    St.Message = std::move(Message);
    T.Steps.push_back(std::move(St));
  };
  // Asm that is not about tcgen05 (address conversions, mbarriers) may use
  // PTX this parser does not know; only tcgen05 text deserves a remark.
  if (Template.find("tcgen05") != std::string::npos)
    for (const ptx::ParseDiagnostic &PD : Parsed.Diagnostics)
      AddRemark(PD, "cannot parse inline asm: " + PD.Message);
  for (ptx::Instruction &I : Parsed.Instructions) {
    std::vector<ptx::ParseDiagnostic> Diags;
    std::optional<TmemOp> Op = decodeTmemOp(I, Diags);
    for (const ptx::ParseDiagnostic &PD : Diags)
      AddRemark(PD, "cannot decode '" + I.Opcode + "': " + PD.Message);
    std::optional<SyncOp> Sync;
    if (!Op)
      Sync = decodeSyncOp(I);
    std::optional<SharedAccessOp> Shared;
    if (!Op && !Sync)
      Shared = decodeSharedAccess(I);
    if (!Op && !Sync && !Shared)
      continue;
    // From the opcode to the instruction's `;`.
    unsigned End = I.Range.Offset + I.Range.Length;
    if (End < Template.size() && Template[End] == ';')
      ++End;
    DecodedText::Step St;
    St.Offset = I.OpcodeRange.Offset;
    St.Length = std::max(End, I.OpcodeRange.Offset + 1) - I.OpcodeRange.Offset;
    St.Instr = {std::move(I), std::move(Op), Sync, SourceLoc(),
                std::move(Shared)};
    T.Steps.push_back(std::move(St));
  }
  return T;
}

const GraphBuilder::DecodedAsm &GraphBuilder::decodeAsm(const GCCAsmStmt &S) {
  std::unique_ptr<DecodedAsm> &Slot = AsmCache[&S];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<DecodedAsm>();
  DecodedAsm &D = *Slot;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<ptx::AsmOperandInfo> Infos;
  for (unsigned I = 0; I < S.getNumOutputs(); ++I) {
    Infos.push_back({S.getOutputName(I).str(), S.getOutputConstraint(I),
                     /*IsOutput=*/true});
    D.Exprs.push_back(S.getOutputExpr(I));
  }
  for (unsigned I = 0; I < S.getNumInputs(); ++I) {
    Infos.push_back({S.getInputName(I).str(), S.getInputConstraint(I),
                     /*IsOutput=*/false});
    D.Exprs.push_back(S.getInputExpr(I));
    Infos.back().Immediate =
        immediateValue(S.getInputConstraint(I), S.getInputExpr(I));
  }
  const DecodedText &T = decodeText(S.getAsmString(), Infos);

  const auto *Literal = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  // Mapping a byte of the string to its column re-lexes the literal up to
  // it, so a huge asm string gets exact columns for its first instructions
  // only (the rest point at the asm statement) instead of quadratic time.
  constexpr unsigned ExactLocationBudget = 4;
  unsigned LocationsComputed = 0;
  // The text of bytes [Offset, Offset + Length) of the template, or the
  // whole statement when their place in the literal is not computed.
  auto LocOfBytes = [&](unsigned Offset, unsigned Length) {
    const LangOptions &LO = Ctx.getLangOpts();
    if (Literal && Literal->isOrdinary() && Length > 0 &&
        Offset + Length <= Literal->getByteLength() &&
        (Literal->getByteLength() < 65536 ||
         LocationsComputed++ < ExactLocationBudget)) {
      auto At = [&](unsigned Byte) {
        return Literal->getLocationOfByte(Byte, SM, LO, Ctx.getTargetInfo());
      };
      // Just past the last byte (never an escape sequence: the last
      // character of an operand or the `;`).
      return Locs.make(CharSourceRange::getCharRange(
          At(Offset), At(Offset + Length - 1).getLocWithOffset(1)));
    }
    return Locs.make(S.getSourceRange());
  };
  // The remarks and instructions of the text, placed in this statement, in
  // the order they were found.
  for (const DecodedText::Step &St : T.Steps) {
    if (St.IsRemark) {
      Remarks.push_back({LocOfBytes(St.Offset, St.Length), St.Message});
      if (!D.Unreadable)
        D.Unreadable = Remarks.back().Loc;
      continue;
    }
    D.Instrs.push_back(St.Instr);
    D.Instrs.back().Loc = LocOfBytes(St.Offset, St.Length);
  }
  return D;
}

void GraphBuilder::translateAsm(const GCCAsmStmt &S, unsigned Cur,
                                const Frame &F) {
  const DecodedAsm &D = decodeAsm(S);
  if (!F.Parent)
    KernelOwnAsm.push_back(&S);
  // The file's remarks say what could not be read; a kernel that runs it is
  // incomplete (one remark, at the first such statement).
  if (D.Unreadable && !UnreadableNoted) {
    UnreadableNoted = true;
    G->markIncomplete(*D.Unreadable,
                      fmt::format("kernel '{}' runs tcgen05 inline asm that "
                                  "could not be read (here and in the other "
                                  "statements the remarks name): what it "
                                  "does to TMEM is unknown",
                                  G->Name));
  }
  translateInstructions(D.Instrs, D.Exprs, &S, &S, /*ElectsInside=*/false, Cur,
                        F);
}

void GraphBuilder::translateInstructions(
    llvm::ArrayRef<DecodedAsm::Instr> Instrs,
    llvm::ArrayRef<const Expr *> Exprs, const Stmt *Site, const GCCAsmStmt *Asm,
    bool ElectsInside, unsigned Cur, const Frame &F) {
  auto Bound = [&](unsigned Index) -> std::optional<AbstractValue> {
    if (Index >= Exprs.size())
      return std::nullopt;
    AbstractValue V = Eval.evaluate(Exprs[Index], F);
    V.VariableId = Eval.variableIdentity(Exprs[Index], F, &V.VariableName);
    if (V.VariableId)
      V.VariableElement = Eval.variableElement(Exprs[Index], F);
    return V;
  };

  // Registers the asm declares itself and sets from an operand: CUTLASS's
  // remote arrive computes `mapa.shared::cluster remAddr32, %0, %1` and
  // arrives on [remAddr32]. mapa names the same barrier in the peer CTA
  // (the code of every CTA is the same), so its identity is %0's.
  llvm::StringMap<AbstractValue> Locals;
  auto Local = [&](llvm::StringRef Name) -> std::optional<AbstractValue> {
    auto It = Locals.find(Name);
    if (It == Locals.end())
      return std::nullopt;
    return It->second;
  };
  for (const DecodedAsm::Instr &DI : Instrs) {
    if (DI.I.Opcode.rfind("mapa", 0) == 0 && DI.I.Operands.size() == 3 &&
        DI.I.Operands[0].K == ptx::Operand::Kind::Register) {
      AbstractValue A = bindOperand(DI.I.Operands[1], Bound, Local).Value;
      if (A.isSlotAddress()) {
        A.Uniform =
            join(A.Uniform,
                 bindOperand(DI.I.Operands[2], Bound, Local).Value.Uniform);
        A.ClusterMapped = true;
        A.VariableId = 0;
        Locals[DI.I.Operands[0].Text] = std::move(A);
      }
      continue;
    }
    Event E;
    E.K = DI.Op     ? Event::Kind::Tmem
          : DI.Sync ? Event::Kind::Sync
                    : Event::Kind::SharedAccess;
    E.Op = DI.Op;
    E.Sync = DI.Sync;
    E.Shared = DI.Shared;
    E.Opcode = DI.I.Opcode;
    E.Guarded = DI.I.Pred.has_value() || ElectsInside;
    E.Loc = DI.Loc;
    E.Stack = F.Stack;
    E.Statement = Facts.statementOf(Site, F);
    if (DI.Op && DI.Op->Kind == TmemOpKind::Load)
      E.TripsPerTile = Trips.tripsAround(Site, F);
    for (const ptx::Operand &O : DI.I.Operands)
      E.Operands.push_back(bindOperand(O, Bound, Local));
    // Shared-memory accesses matter only when they use a TMEM address
    // (Event::Kind::SharedAccess).
    if (DI.Shared && llvm::none_of(DI.Shared->AddressOperands, [&](int K) {
          return size_t(K) < E.Operands.size() &&
                 E.Operands[K].Value.isTmemAddress();
        }))
      continue;
    // The column count of alloc/dealloc as written, for tmem-alloc-ncols's
    // fix-it: an operand's expression or an immediate in an asm template.
    if (DI.Op && (DI.Op->Kind == TmemOpKind::Alloc ||
                  DI.Op->Kind == TmemOpKind::Dealloc)) {
      int N = DI.Op->NColsOperand;
      if (N >= 0 && static_cast<size_t>(N) < DI.I.Operands.size()) {
        const ptx::Operand &O = DI.I.Operands[N];
        if (O.K == ptx::Operand::Kind::Immediate && Asm)
          E.Operands[N].Literal = Facts.immediateOf(*Asm, O);
        else if (O.K == ptx::Operand::Kind::AsmOperand &&
                 O.AsmOperandIndex >= 0 &&
                 static_cast<size_t>(O.AsmOperandIndex) < Exprs.size())
          E.Operands[N].Literal = Facts.literalOf(Exprs[O.AsmOperandIndex], F);
      }
    }
    addEvent(Cur, std::move(E));
  }
}

const UserApiModelTable::Entry *
GraphBuilder::userModelOf(const FunctionDecl *FD) const {
  if (!Limits.UserModels || Limits.UserModels->empty() || !FD)
    return nullptr;
  return Limits.UserModels->find(nameOf(FD));
}

void GraphBuilder::addUserModeledCall(const UserApiModelTable::Entry &M,
                                      const CallExpr *CE,
                                      llvm::ArrayRef<const Expr *> Args,
                                      unsigned Cur, const Frame &F) {
  SourceLoc Loc = locIn(F, CE->getSourceRange());
  std::vector<DecodedAsm::Instr> Instrs;
  for (const ModeledInstruction &MI : M.Instructions)
    Instrs.push_back({MI.I, MI.Op, MI.Sync, Loc});
  if (Instrs.size() == 1 && Instrs.front().Op &&
      Instrs.front().Op->Kind == TmemOpKind::WaitLoad && Args.empty())
    if (const FunctionDecl *Callee = CE->getDirectCallee())
      Facts.noteWaitLdWrapperCall(CE, nameOf(Callee));
  translateInstructions(Instrs, Args, CE, /*Asm=*/nullptr, M.Spec.ElectsInside,
                        Cur, F);
}

} // namespace tmemcheck
