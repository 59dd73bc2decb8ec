//===- GraphBuilder.h - Clang CFG to kernel event graph ---------*- C++ -*-===//
//
// Part of tmemcheck. Walks the clang::CFG of a kernel, inlines device
// callees (constructors and destructors included) up to a depth bound, and
// turns inline asm into tcgen05 and synchronisation events.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_GRAPHBUILDER_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_GRAPHBUILDER_H

#include "FixItFacts.h"
#include "LoopTrips.h"
#include "SourceLocMemo.h"
#include "ValueEvaluator.h"

#include "tmemcheck/Analysis/GraphBuildBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Frontend/ClangFrontend.h"
#include "tmemcheck/Model/ApiModel.h"
#include "tmemcheck/Model/SharedAccess.h"
#include "tmemcheck/Model/TmemOp.h"
#include "tmemcheck/Model/UserApiModel.h"
#include "tmemcheck/Ptx/Instruction.h"
#include "tmemcheck/Ptx/Parser.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <memory>
#include <optional>

namespace tmemcheck {

class RelevanceOracle;

/// Builds the KernelGraph of one kernel.
class GraphBuilder {
public:
  GraphBuilder(clang::ASTContext &Ctx, ValueEvaluator &Eval,
               const FrontendLimits &Limits);
  ~GraphBuilder();

  KernelGraph build(const clang::FunctionDecl *Kernel, bool IsPattern);

  /// Number of tcgen05 instructions in \p S (an asm statement), for the
  /// "no tcgen05 code" remark.
  static unsigned countTcgen05(const clang::GCCAsmStmt &S);
  /// Before any kernel is built: records \p CE when it calls a spelling of
  /// tcgen05.wait::ld that fix-its can reuse (a modelled wrapper such as
  /// cuda::ptx::tcgen05_wait_ld, or a function whose body is one asm
  /// statement holding only the wait), so that the fix-its of every kernel
  /// see the wrappers of the whole file although kernels are handed on one
  /// at a time.
  void noteWaitLdSpelling(const clang::CallExpr *CE);

  /// How the translation unit spells tcgen05.wait::ld in \p Kernel
  /// (KernelGraph::WaitLdCall); known once every kernel is built.
  std::string waitLdCallFor(const clang::FunctionDecl *Kernel) const {
    return Facts.waitLdCallFor(Kernel);
  }

private:
  /// Entry and exit block of one inlined function instance.
  struct Span {
    unsigned Entry;
    unsigned Exit;
  };

  std::optional<Span> buildFunction(const clang::FunctionDecl *FD,
                                    const Frame &F);
  const clang::CFG *cfgFor(const clang::FunctionDecl *FD);
  /// Loops that wait in their last iteration (`if (i == N - 1)`): the
  /// graph of one inlined instance is rewritten so that they leave only
  /// through that arm (LastIteration.h).
  void peelLastIterations(const clang::CFG &C, const clang::FunctionDecl *FD,
                          const std::vector<unsigned> &First,
                          const std::vector<unsigned> &Last);

  /// Appends the events of one CFG element; may end the current block
  /// (inlined call) and return the new current block.
  unsigned visitStmt(const clang::Stmt *S, unsigned Cur, const Frame &F);
  unsigned inlineCall(const clang::FunctionDecl *Callee,
                      llvm::ArrayRef<const clang::Expr *> Args,
                      const clang::Expr *This, clang::SourceLocation CallLoc,
                      unsigned Cur, const Frame &F, uint64_t ObjectKey = 0,
                      const clang::Stmt *CallStmt = nullptr);
  /// A new inlining frame for \p Def called from \p F at \p Site, its
  /// parameters bound to \p Args; it lives as long as the builder.
  const Frame &pushFrame(const clang::FunctionDecl *Def, const Frame &F,
                         llvm::ArrayRef<const clang::Expr *> Args,
                         const clang::Expr *This, uint64_t ObjectKey,
                         const clang::Stmt *CallStmt, SourceLoc Site);
  /// Remembers the fields constructor \p Ctor sets on the object
  /// \p ObjectKey (member initialisers, member objects it constructs,
  /// `this->f = v` in its body), evaluated in \p Ref.
  void recordConstructorFields(const clang::CXXConstructorDecl *Ctor,
                               uint64_t ObjectKey, const Frame &Ref);
  /// The fields a constructor that is not inlined (it has no TMEM code)
  /// sets, in a frame of its own called from \p F.
  void recordConstruction(const clang::CXXConstructorDecl *Ctor,
                          llvm::ArrayRef<const clang::Expr *> Args,
                          uint64_t ObjectKey, const Frame &F,
                          const clang::Stmt *CallStmt);
  /// The fields of the object a call's by-value result initialises, when
  /// the callee (no TMEM code of its own) returns one construction.
  void recordReturnedConstruction(const clang::FunctionDecl *Def,
                                  llvm::ArrayRef<const clang::Expr *> Args,
                                  const clang::Expr *This, uint64_t ObjectKey,
                                  const Frame &F, const clang::Stmt *CallStmt,
                                  clang::SourceLocation CallLoc);
  /// An asm statement parsed and decoded once, whatever the number of
  /// call sites it is inlined into.
  struct DecodedAsm {
    struct Instr {
      ptx::Instruction I;
      std::optional<TmemOp> Op;
      std::optional<SyncOp> Sync;
      SourceLoc Loc;
      /// Not tcgen05 nor synchronisation: an instruction that takes a
      /// shared-memory or generic address.
      std::optional<SharedAccessOp> Shared = std::nullopt;
    };
    std::vector<Instr> Instrs;
    std::vector<const clang::Expr *> Exprs; ///< outputs, then inputs
    /// Where tcgen05 text of the statement could not be parsed or decoded
    /// (the first place): a kernel that runs it is incomplete.
    std::optional<SourceLoc> Unreadable;
  };
  /// What an asm template with its operands decodes to, whatever statement
  /// holds it: parsed and decoded once per distinct text (a kernel's own
  /// asm statements repeat the same text from kernel to kernel, template
  /// instantiations from instance to instance). Byte ranges in the
  /// template; each statement places them in its literal.
  struct DecodedText {
    struct Step {
      /// A remark about text that could not be parsed or decoded (Message),
      /// or an instruction the graph keeps (Instr, its Loc not set).
      bool IsRemark = false;
      unsigned Offset = 0, Length = 0;
      std::string Message;
      DecodedAsm::Instr Instr;
    };
    std::vector<Step> Steps; ///< in the order the parser and decoder met them
  };
  const DecodedText &decodeText(const std::string &Template,
                                llvm::ArrayRef<ptx::AsmOperandInfo> Infos);
  const DecodedAsm &decodeAsm(const clang::GCCAsmStmt &S);
  void translateAsm(const clang::GCCAsmStmt &S, unsigned Cur, const Frame &F);
  /// The function a call through a pointer or reference \p Callee (the
  /// callee expression) reaches, when the call site determines it: a
  /// function name, possibly passed down through parameters of the frames
  /// on the stack or held in a const local. Null when it is not known.
  const clang::FunctionDecl *knownCallee(const clang::Expr *Callee,
                                         const Frame &F,
                                         unsigned Depth = 0) const;
  /// The model of a CuTe SM100 atom (`SM100_TMEM_LOAD_32dp32b8x::copy`,
  /// `SM100_MMA_F16BF16_SS::fma`, …) called with \p NumArgs arguments,
  /// decoded from its name once; null if \p Callee is no such atom.
  const UserApiModelTable::Entry *
  cuteAtomModel(const clang::FunctionDecl *Callee, unsigned NumArgs);
  /// A call of a CuTe atom: its asm body when visible (checked against the
  /// model, a remark when they disagree), else the model.
  unsigned visitCuteAtomCall(const UserApiModelTable::Entry &A,
                             const clang::FunctionDecl *Callee,
                             const clang::CallExpr *CE, unsigned Cur,
                             const Frame &F);
  /// The value of an immediate ("n", "i") asm input, when it is a constant.
  std::optional<int64_t> immediateValue(llvm::StringRef Constraint,
                                        const clang::Expr *E) const;
  /// Adds an event per instruction, `%N` bound to \p Exprs[N]: the
  /// instructions of an asm statement (\p Asm, for the position of
  /// immediates) or of a user API model. \p Site is the statement they
  /// belong to.
  void translateInstructions(llvm::ArrayRef<DecodedAsm::Instr> Instrs,
                             llvm::ArrayRef<const clang::Expr *> Exprs,
                             const clang::Stmt *Site,
                             const clang::GCCAsmStmt *Asm, bool ElectsInside,
                             unsigned Cur, const Frame &F);
  /// The user API model (.tmemcheck.yaml `ApiModels:`) of \p FD, or nullptr.
  const UserApiModelTable::Entry *
  userModelOf(const clang::FunctionDecl *FD) const;
  /// A call of a function the user modelled: its instructions, with `%N`
  /// bound to the call's argument N.
  void addUserModeledCall(const UserApiModelTable::Entry &M,
                          const clang::CallExpr *CE,
                          llvm::ArrayRef<const clang::Expr *> Args,
                          unsigned Cur, const Frame &F);
  /// The arguments of a call after the object of a member operator call.
  static std::vector<const clang::Expr *>
  explicitArguments(const clang::CallExpr *CE);
  void addEvent(unsigned Block, Event E);
  /// The position of \p Where for what frame \p F translates: remembered
  /// inside an inlined helper (its statements are translated again at
  /// every call site), made afresh in the kernel's own frame (translated
  /// once).
  template <typename T> SourceLoc locIn(const Frame &F, T Where) {
    return F.Parent ? Locs.of(Where) : Locs.make(Where);
  }
  /// A SharedAccess event at \p Loc when \p Pointer, which \p What uses
  /// as a shared-memory or generic address, holds a TMEM address (rules
  /// M3): `__cvta_shared_to_generic(taddr)`, `*(float *)taddr`.
  void addPointerUse(const clang::Expr *Pointer, llvm::StringRef What,
                     clang::SourceLocation Loc, const clang::Stmt *Site,
                     unsigned Cur, const Frame &F);
  /// The SharedAccess event of addPointerUse and of a shared-memory
  /// descriptor built from \p V (\p Descriptor), at \p Loc (spanning
  /// \p Site when it starts there).
  void addSharedUseEvent(OperandValue V, llvm::StringRef What, bool Generic,
                         bool Descriptor, clang::SourceLocation Loc,
                         const clang::Stmt *Site, unsigned Cur, const Frame &F);
  void addOpaqueCall(unsigned Cur, clang::SourceLocation Loc, const Frame &F);
  /// Records which warp indices take each arm of `warp_idx < 4`-style tests.
  void recordWarpArms(const clang::Expr *Cond, Block &Blk, const Frame &F);
  /// A call of a wrapper known by name (CUTLASS under Clang, rules §7.2).
  /// TileLang's tcgen05_ld wrappers, modelled by name (tileLangLoadOp):
  /// adds the ld and its wait::ld; false if \p Callee is not one.
  bool addTileLangLoad(const clang::FunctionDecl *Callee,
                       const clang::CallExpr *CE, unsigned Cur, const Frame &F);
  /// A call of a `cutlass::arch::NamedBarrier` member, modelled by name
  /// with the id and count of the object's construction
  /// (NamedBarrierCall.cpp); false if \p Callee is no such member.
  bool addNamedBarrierCall(const clang::FunctionDecl *Callee,
                           const clang::CallExpr *CE, unsigned Cur,
                           const Frame &F);
  void addModeledCall(const ApiModel &M, const clang::CallExpr *CE,
                      unsigned Cur, const Frame &F);
  /// A call with no resolved callee: a dependent call of a template
  /// pattern, or a call through a pointer.
  unsigned visitUnresolvedCall(const clang::CallExpr *CE, unsigned Cur,
                               const Frame &F);
  static std::string qualifiedName(const clang::NamedDecl *D);
  /// qualifiedName, and the name without template arguments, remembered:
  /// the API models are looked up by name at every call site.
  const std::string &nameOf(const clang::NamedDecl *D) const;
  const std::string &plainNameOf(const clang::FunctionDecl *FD) const;
  /// The lvalue-to-rvalue conversion \p Read only copies the value: it is a
  /// local's initialiser, the right side of an assignment, or a returned
  /// value (through parentheses and implicit conversions).
  bool isPlainCopy(const clang::Expr *Read, const Frame &F);
  bool overBudget();

  clang::ASTContext &Ctx;
  ValueEvaluator &Eval;
  const FrontendLimits &Limits;
  /// Source positions, made once per distinct location or range.
  SourceLocMemo Locs;
  KernelGraph *G = nullptr;
  unsigned NextFrameId = 1;
  unsigned EventCount = 0;
  unsigned WaitLdCount = 0; ///< tcgen05.wait::ld events added so far.
  bool DepthReported = false;
  /// The kernel being built was marked incomplete for unreadable tcgen05
  /// asm (once: the file's remarks name every statement).
  bool UnreadableNoted = false;
  /// The bounds of the kernel being built, checked by overBudget().
  std::optional<GraphBuildBudget> Budget;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<clang::CFG>> Cfgs;
  std::vector<std::unique_ptr<Frame>> Frames;
  std::unique_ptr<RelevanceOracle> Relevance;
  FixItFacts Facts;
  LoopTripCounter Trips;
  mutable llvm::DenseMap<const clang::NamedDecl *, std::string> Names;
  mutable llvm::DenseMap<const clang::FunctionDecl *, std::string> PlainNames;
  llvm::DenseMap<const clang::GCCAsmStmt *, std::unique_ptr<DecodedAsm>>
      AsmCache;
  /// The asm statements of the kernel being built that its own frame
  /// translated: dropped from AsmCache when it is built.
  std::vector<const clang::GCCAsmStmt *> KernelOwnAsm;
  llvm::StringMap<std::unique_ptr<DecodedText>> DecodedTexts;
  std::vector<AnalysisRemark> Remarks;
  /// CuTe atom models by name and arity (std::nullopt: not an atom).
  std::map<std::string, std::optional<UserApiModelTable::Entry>> AtomModels;
  /// While a CuTe atom's body is followed: the tcgen05 ops it issues.
  std::vector<TmemOp> *AtomBodyOps = nullptr;
  llvm::DenseSet<const clang::FunctionDecl *> ReportedAtomDisagreements;
  /// Functions without a body the kernel being built calls, by qualified
  /// name, with the first call site.
  std::vector<CallWithoutBody> DeclaredOnlyCalls;
  /// The object a CFGConstructor element builds, while it is translated.
  uint64_t ConstructedObject = 0;
  /// A call whose by-value result initialises a known object, and that
  /// object (Frame::ReturnObjectKey of the call's frame).
  const clang::Stmt *ReturningCall = nullptr;
  uint64_t ReturnedObject = 0;

public:
  /// Remarks about asm text that could not be parsed or decoded, once per
  /// statement of the translation unit.
  const std::vector<AnalysisRemark> &remarks() const { return Remarks; }
};

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_GRAPHBUILDER_H
