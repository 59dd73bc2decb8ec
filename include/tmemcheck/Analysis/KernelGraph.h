//===- KernelGraph.h - The event graph of one kernel ------------*- C++ -*-===//
//
// Part of tmemcheck. A kernel as the analysis sees it: basic blocks of
// events (tcgen05 instructions, synchronisation, reads of variables that a
// tcgen05.ld may have written), with device callees inlined. Front ends
// (Clang AST, PTX text) build it; analyses and checks only read it.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_KERNELGRAPH_H
#define TMEMCHECK_ANALYSIS_KERNELGRAPH_H

#include "tmemcheck/Analysis/CallStack.h"
#include "tmemcheck/Analysis/SourceLoc.h"
#include "tmemcheck/Analysis/Value.h"
#include "tmemcheck/Model/SharedAccess.h"
#include "tmemcheck/Model/TmemOp.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tmemcheck {

/// An operand's constant as written in user code: a plain integer literal
/// (not produced by a macro, a template argument or a default argument), so
/// that a fix-it may rewrite it. Offset is in bytes into File.
struct WrittenLiteral {
  std::string File;
  unsigned Offset = 0;
  std::string Text; ///< the token as written, e.g. "96u".
  int64_t Value = 0;
};

/// The value of one instruction operand; vectors (`{%0, %1}`) keep one value
/// per element, addresses (`[%0+8]`) the value of their base.
struct OperandValue {
  AbstractValue Value;
  std::vector<AbstractValue> Elements;
  int64_t AddressOffset = 0;
  /// Where the value is written as a literal: an index into
  /// KernelGraph::Literals, or -1. Recorded for the column count of
  /// alloc/dealloc only (tmem-alloc-ncols rounds it up in place).
  int Literal = -1;
};

/// A statement of the kernel's own body that an event belongs to (the
/// statement of kernelLoc()), as fix-its that put a new statement on a line
/// of its own before or after it need it. Recorded only for statements
/// directly inside a `{ }` block and not written by a macro.
struct KernelStatement {
  std::string File; ///< the file it is in; offsets are bytes into it.
  /// Its first and last token, to tell whether an event lies inside it.
  unsigned FirstLine = 0, FirstColumn = 0, LastLine = 0, LastColumn = 0;
  std::string Indent; ///< the whitespace that starts its first line.
  bool CrLf = false;  ///< its line ends with "\r\n", not "\n".
  /// Offset of the start of its first line, when only Indent precedes it.
  std::optional<unsigned> LineStart;
  /// Offset just past the line break that ends its last line, when only
  /// whitespace or a `//` comment follows it there.
  std::optional<unsigned> NextLineStart;

  /// True if \p L lies within the statement.
  bool contains(const SourceLoc &L) const {
    return L.File == File &&
           std::make_pair(L.Line, L.Column) >=
               std::make_pair(FirstLine, FirstColumn) &&
           std::make_pair(L.Line, L.Column) <=
               std::make_pair(LastLine, LastColumn);
  }
  const char *lineBreak() const { return CrLf ? "\r\n" : "\n"; }
};

/// Something that happens in a kernel, in program order within a block.
struct Event {
  enum class Kind {
    Tmem,         ///< a tcgen05 instruction (Op is set).
    Sync,         ///< a synchronisation instruction or call (Sync is set).
    VariableRead, ///< the value of a tracked variable is used.
    SlotRead,     ///< a 32-bit shared-memory slot is read (Slot is set).
    Return,       ///< a return statement of the kernel itself.
    OpaqueCall,   ///< a call that could not be followed (no body, a
                  ///< dependent call in a template pattern, the depth
                  ///< bound): it may do anything to TMEM.
    SharedAccess, ///< a shared-memory or generic address operand (ld/st/
                  ///< atom .shared, ldmatrix, cp.async*, cvta.shared, a
                  ///< pointer dereference; Shared is set) that holds a
                  ///< TMEM address. Front ends record only those (rules
                  ///< M3): the graph is not a model of shared memory.
  };

  Kind K = Kind::Tmem;
  unsigned Id = 0; ///< unique within the graph, in creation order.
  SourceLoc Loc;   ///< where it is written (may be inside a header).
  CallStack Stack; ///< inlined calls, outermost first (shared).

  std::optional<TmemOp> Op;
  std::optional<SyncOp> Sync;
  std::optional<SharedAccessOp> Shared;
  std::string Opcode;                 ///< instruction as written.
  std::vector<OperandValue> Operands; ///< parallel to the instruction's.

  /// For VariableRead: which variable.
  uint64_t VariableId = 0;
  std::string VariableName;
  /// For VariableRead of one element of an array at a constant index
  /// (`regs[3]`): the index; std::nullopt for the whole variable or an
  /// index that is not a constant (`regs[i]` in a loop).
  std::optional<int64_t> VariableElement;
  /// For VariableRead: the read only copies the value into a local (its
  /// initialiser, the right side of an assignment) or a return value; it
  /// does not compute with it (ConsumedLoads does not count it as a use).
  bool VariableCopy = false;
  /// For SlotRead: which slot.
  uint64_t Slot = 0;
  /// The instruction has a `@p` guard (typically from elect.sync): it is
  /// not executed by every thread that reaches it.
  bool Guarded = false;
  /// tcgen05.ld: how many times it runs per iteration of the loops around
  /// it with no constant trip count (the tile loop), the constant-trip
  /// `for` loops around it multiplied in (the resource report's readback
  /// per tile). 1 for other events.
  unsigned TripsPerTile = 1;
  /// For Tmem, Sync and VariableRead events: index into
  /// KernelGraph::Statements of the statement of the kernel body that leads
  /// to the event, or -1.
  int Statement = -1;

  /// The position to report: Loc if it is in user code, else the innermost
  /// call site on the stack that is (design.md: point at the call in user
  /// code, note at the wrapper).
  SourceLoc userLoc() const;
  /// True when userLoc() differs from Loc (the instruction is in a wrapper).
  bool isInWrapper() const;
  /// An asynchronous access to TMEM columns: ld, st, mma, cp or shift.
  bool isAsyncTmemAccess() const;
  /// Thread synchronisation after which this thread is ordered after what
  /// others did before it: a barrier, an mbarrier wait, a cluster-barrier
  /// wait.
  bool acquires() const;
  /// The statement of the kernel body that leads to the event: the
  /// outermost call site, or Loc when the event is in the kernel itself.
  /// Findings about values that callers pass in are reported here.
  SourceLoc kernelLoc() const;
};

/// Where \p E appears when seen from the function that \p Viewer is in:
/// E's own location if both are in the same inlined frame, else the call
/// site in Viewer's frame (or the nearest common caller) that leads to E.
/// Notes use it so that "the load is here" points at a line of the code the
/// reader is looking at.
SourceLoc locationSeenFrom(const Event &E, const Event &Viewer);

/// Events by id and the block each is in: analyses that relate two events
/// (an ld and the arrive that releases it) look both up.
struct EventIndex {
  explicit EventIndex(const struct KernelGraph &G);
  std::vector<const Event *> ById;
  std::vector<unsigned> BlockOf;
};

/// A basic block of the kernel event graph.
struct Block {
  Block() = default;
  // Moving never throws, but SmallVector's move is not declared noexcept:
  // without saying so, std::vector<Block> would copy every block, events
  // and all, each time the graph grows.
  Block(Block &&) noexcept = default;
  Block &operator=(Block &&) noexcept = default;
  Block(const Block &) = default;
  Block &operator=(const Block &) = default;

  std::vector<Event> Events;
  llvm::SmallVector<unsigned, 2> Succs;
  llvm::SmallVector<unsigned, 2> Preds;
  /// Uniformity of the branch condition that ends the block, if it branches.
  std::optional<Uniformity> BranchUniformity;
  SourceLoc BranchLoc;
  /// The condition as written (whitespace-normalised): two branches with
  /// the same text select the same threads (`if (warp_idx == 0)` twice).
  std::string BranchKey;
  /// BranchKey names the condition's value (an expression over kernel
  /// inputs, as the PTX front end builds it), not its text: two branches
  /// with the same key decide the same way in a thread wherever they are
  /// (CorrelatedBranches). C++ text such as `i < n` may change its value.
  bool BranchKeyIsValue = false;
  /// C++: the CTA-uniform condition's value, named so that two branches
  /// with the same name decide the same way in a thread wherever they are
  /// (ValueEvaluator::valueKey: kernel parameters, constants, locals set
  /// once from them); empty when the condition reads anything else. The
  /// checks run once per assumption about the names that several branches
  /// share (CorrelatedSplits), so no finding rests on a path that takes
  /// `if (use_tmem)` one way and a later `if (use_tmem)` the other.
  std::string ValueKey;
  /// The branch is the condition of a loop (for/while/do): lanes leaving a
  /// loop at different iterations reconverge after it.
  bool BranchIsLoop = false;
  /// The condition reads the CTA's own identity (`blockIdx`, `%ctaid`,
  /// `%cluster_ctarank`), other than through a division or right shift by a
  /// constant (a pair or cluster index): the two CTAs of a cta_group::2
  /// pair may take different arms (tmem-alloc-peer-race).
  bool BranchReadsCtaId = false;
  /// A `for` loop's test whose constant trip count is at least one: the
  /// exit (successor 1) is never taken on the first test, only after an
  /// iteration (the edges from the back-edge predecessors).
  bool LoopRunsAtLeastOnce = false;
  /// For a comparison of the warp index with a constant: the warp indices
  /// that take each successor (as [lo, hi]), when that is an interval.
  std::optional<std::pair<int64_t, int64_t>> WarpsOnArm[2];
  /// A two-way branch (not a loop's) whose condition is known thread by
  /// thread (`role == Softmax0 || role == Softmax1` of a shuffled warp
  /// index): the threads whose condition holds, by linear thread id, and
  /// the blocks its true and false arms enter (BlockThreads).
  std::shared_ptr<const std::vector<uint8_t>> ThreadsOnTrueArm;
  unsigned TrueArmBlock = 0, FalseArmBlock = 0;
};

/// A remark about the analysis itself (budget hit, template pattern,
/// unparsable asm): design.md "Never silent".
struct AnalysisRemark {
  SourceLoc Loc;
  std::string Message;
  /// The remark says the analysis did not see part of the kernel (a budget,
  /// values that did not settle, a call that may touch TMEM without a body,
  /// a parse error inside the kernel, an uninstantiated template): the
  /// kernel's verdict is "incomplete", never "clean" (KernelVerdict.h).
  bool MakesIncomplete = false;
};

/// A call of a function declared without a body (another -rdc translation
/// unit, a library): the callee's name and the first call site.
struct CallWithoutBody {
  std::string Callee;
  SourceLoc Site;
};

/// The whole kernel.
struct KernelGraph {
  std::string Name;
  /// The kernel's symbol (its Itanium-mangled name, as nvcc's PTX names the
  /// `.entry`), to pair a kernel of the C++ front end with its PTX; empty
  /// when unknown (a template pattern).
  std::string Symbol;
  SourceLoc Loc;
  SourceLoc EndLoc; ///< the closing brace of the kernel body.
  std::vector<Block> Blocks;
  unsigned Entry = 0;
  unsigned Exit = 0;
  /// The kernel is an uninstantiated template analysed as a pattern.
  bool IsPattern = false;
  /// The event budget was hit: the graph is missing the rest of the kernel.
  bool Truncated = false;
  /// CTAs the launch asks to keep resident on one SM at once: the
  /// min-blocks argument of `__launch_bounds__`, or the user's launch
  /// assumption (--assume-ctas-per-sm); 0 when unknown.
  unsigned CoResidentCtas = 0;
  /// The most threads a CTA of the kernel has: the max-threads argument of
  /// `__launch_bounds__`; 0 when unknown. Threads past it are in the
  /// per-thread tables (by linear thread id, up to 1024) but never run.
  unsigned MaxThreadsPerBlock = 0;
  /// Where CoResidentCtas comes from: the attribute, or the kernel when
  /// assumed.
  SourceLoc CoResidentCtasLoc;
  bool CoResidentCtasAssumed = false;
  /// What asks for CoResidentCtas when not assumed, as findings name it:
  /// the CUDA attribute, or the PTX directive nvcc writes it as.
  std::string CoResidentCtasOrigin = "__launch_bounds__";
  /// The kernel's time budget ran out while the graph was built (it is
  /// Truncated too): nothing may be reported for the kernel.
  bool OutOfTime = false;
  /// Wall time spent building the graph, in seconds: the first part of the
  /// kernel's time budget (KernelBudget).
  double BuildSeconds = 0;
  std::vector<AnalysisRemark> Remarks;
  /// Statements of the kernel body that events refer to (Event::Statement).
  std::vector<KernelStatement> Statements;
  /// Literals that operands are written as (OperandValue::Literal).
  std::vector<WrittenLiteral> Literals;
  /// The call the kernel's file already uses to wait for loads, when it
  /// calls a wrapper of tcgen05.wait::ld (`cuda::ptx::tcgen05_wait_ld()`,
  /// a local helper) declared before the kernel; empty: it writes raw asm.
  std::string WaitLdCall;

  unsigned addBlock();
  void addEdge(unsigned From, unsigned To);
  /// Recomputes every block's Preds from the Succs, after passes that
  /// retarget edges (CorrelatedBranches, CorrelatedSplits).
  void rebuildPredecessors();
  /// Blocks in reverse post-order from Entry (unreachable blocks omitted).
  std::vector<unsigned> reversePostOrder() const;
  /// Blocks reachable from \p From through at least one edge (From itself
  /// only if it is on a cycle), as a flag per block.
  std::vector<uint8_t> reachableFrom(unsigned From) const;
  /// The same, going on only from the blocks \p Through accepts: the
  /// blocks a path reaches before it passes one that \p Through rejects
  /// (which is reached, but not left).
  std::vector<uint8_t>
  reachableFrom(unsigned From,
                llvm::function_ref<bool(unsigned)> Through) const;
  /// Blocks from which \p To is reachable through at least one edge.
  std::vector<uint8_t> reaching(unsigned To) const;
  /// The kernel statement \p E belongs to, or nullptr.
  const KernelStatement *statementOf(const Event &E) const {
    return E.Statement >= 0 ? &Statements[E.Statement] : nullptr;
  }
  /// The literal \p V is written as, or nullptr.
  const WrittenLiteral *literalOf(const OperandValue &V) const {
    return V.Literal >= 0 ? &Literals[V.Literal] : nullptr;
  }
  /// Splices out blocks without events that only pass control on (one
  /// successor, not the entry or the exit, not a branch arm that
  /// BlockThreads narrows, and no predecessor that would then have the
  /// same successor twice), and renumbers the rest: the analyses visit
  /// fewer blocks, and the paths, hence every event order, stay as they
  /// were. Front ends call it once the graph is complete.
  void removePassThroughBlocks();
  /// Renumbers the events in program order (reverse post-order of the
  /// blocks from Entry, unreachable blocks last), which checks read as
  /// "earlier"; the order a front end built them in is not program order.
  void numberEventsInProgramOrder();
  /// When the kernel uses TMEM and makes \p Calls (in order, one per
  /// callee), one remark names them: what they do to TMEM is unknown
  /// (design.md "Never silent"). Front ends call it once the graph is built.
  void noteCallsWithoutBody(const std::vector<CallWithoutBody> &Calls);
  /// Records that the analysis could not see part of the kernel, and why:
  /// a remark with MakesIncomplete set. The kernel's findings are still
  /// reported, but it is never called clean (design.md "Never silent").
  void markIncomplete(SourceLoc Where, std::string Reason);
  /// True when some remark of the kernel made it incomplete.
  bool isIncomplete() const;
  /// Calls F on every event of every block.
  template <typename Fn> void forEachEvent(Fn F) const {
    for (const Block &B : Blocks)
      for (const Event &E : B.Events)
        F(E);
  }
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_KERNELGRAPH_H
