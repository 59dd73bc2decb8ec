//===- RegisterValues.h - Abstract values of PTX registers ------*- C++ -*-===//
//
// Part of tmemcheck. Private to lib/Frontend/Ptx. What is known about each
// register of one (inlined) instance of a PTX function: constants through
// mov/add/shl/..., the uniformity class of design.md "Semantics" §3
// (%tid thread-variant, %ctaid and ld.param CTA-uniform, tid.x >> 5 the
// warp index, elect.sync one thread, shfl.sync.idx a broadcast), shared-
// memory slot addresses and the TMEM addresses read back from them.
//
// PTX from nvcc is almost SSA: most registers have one definition. The
// values are computed flow-insensitively, as a fixpoint over all
// definitions of a register (a loop counter has two). A register whose
// definitions disagree also takes the uniformity of the branches that
// decide which definition ran. Anything not understood is unknown.
//
// The fixpoint is a worklist: an instruction is evaluated again only when
// one of its sources changed. A register that keeps changing (a value that
// grows each loop trip) is widened to what takes finitely many values (its
// uniformity, the kind of address it is), so real modules settle; only a
// pathological module exhausts the evaluation bound, and the kernel is
// then marked incomplete.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_PTX_REGISTERVALUES_H
#define TMEMCHECK_LIB_FRONTEND_PTX_REGISTERVALUES_H

#include "ThreadValues.h"

#include "tmemcheck/Analysis/Value.h"
#include "tmemcheck/Ptx/Instruction.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tmemcheck {

/// An integer computed from %tid.x and constants only (`tid.x >> 5`,
/// `(tid.x - 128) < 32u`): evaluated for every possible %tid.x to tell
/// whether a condition selects whole warps, and which.
struct TidExpr {
  /// Table: a value per %tid.x (ThreadValues), for registers nvcc sets in
  /// several arms of a %tid.x test.
  enum class Kind { Tid, Constant, Binary, Table } K = Kind::Constant;
  std::string Op; ///< Binary: add, sub, mul, shl, shr, and, or, xor, div, rem
  int64_t Value = 0; ///< Constant
  unsigned Bits = 32;
  bool Signed = false;
  std::shared_ptr<const TidExpr> L, R;
  std::shared_ptr<const ThreadTable> Values; ///< Table
  unsigned Size = 1; ///< nodes, to bound the cost of evaluation

  /// The value for thread \p Tid, or nullopt (division by zero).
  std::optional<int64_t> evaluate(int64_t Tid) const;

private:
  /// The value of a Binary node for every thread, computed on first use
  /// (the same expression is evaluated for all 1024 threads many times:
  /// by each comparison, warp test and fixpoint round that reads it).
  struct Values1024 {
    ThreadTable V;
    ThreadSet Undefined;
  };
  mutable std::shared_ptr<const Values1024> Cache;
  const Values1024 &binaryTable() const;
};

/// The value of one register (or predicate) as far as it is known.
struct PtxValue {
  AbstractValue V;
  /// The value as an expression over kernel inputs (`%tid.x/32`, a
  /// parameter name, a constant); for predicates the comparison
  /// (`%tid.x/32==0`). Two branches with the same key select the same
  /// threads (Block::BranchKey). Empty when the value has no such name.
  std::string Key;
  /// Operations in Key (`(a add b)` has one): a key of more than
  /// MaxKeyOperations is dropped, since one doubled at every instruction
  /// (`add %r2, %r1, %r1; add %r3, %r2, %r2; ...`) grows exponentially.
  unsigned KeyOperations = 0;
  static constexpr unsigned MaxKeyOperations = 32;
  /// The value as a function of %tid.x alone, when it is one.
  std::shared_ptr<const TidExpr> Tid;
  /// A TMEM address read from one shared-memory slot (the same word, so the
  /// same value, in every thread that reads it), or one moved by warp-
  /// uniform amounts: a warp-uniform base for AbstractValue::LaneVariant.
  bool SlotRead = false;
  /// SlotAddress: byte offset into the variable, nullopt when unknown.
  std::optional<int64_t> SlotOffset;
  /// Predicates comparing the warp index with a constant: the warp indices
  /// for which it is true ([0]) and false ([1]), when an interval.
  std::optional<std::pair<int64_t, int64_t>> WarpsWhen[2];
  /// Predicates on %tid.x alone: the threads (by %tid.x) for which it is
  /// true.
  std::shared_ptr<const ThreadSet> TrueFor;
  bool Defined = false; ///< some definition has been evaluated.

  friend bool operator==(const PtxValue &A, const PtxValue &B);
};

/// The block shape a kernel's header promises: `.reqntid` fixes it, so
/// that %tid.{x,y,z} and %ntid are functions of the linear thread id
/// (`(tid.z * ntid.y + tid.y) * ntid.x + tid.x`, the id warps are formed
/// from, which TidExpr::Kind::Tid stands for); `.maxntid` bounds it, so a
/// dimension bounded by 1 has tid 0 and ntid 1. Without either the block is
/// taken as 1-D in x, as before.
struct BlockShape {
  std::optional<std::array<unsigned, 3>> Required; ///< .reqntid
  std::optional<std::array<unsigned, 3>> Maximum;  ///< .maxntid
};

/// How the instance's code is laid out, as the evaluator needs it.
struct InstanceCode : ThreadFlowGraph {
  /// Blocks whose conditional branch decides whether block B runs.
  std::function<std::vector<unsigned>(unsigned B)> Controllers;
  /// Every (branch, arm) that block B runs under, directly or through
  /// enclosing branches; may be empty (unit tests), then unused.
  std::function<std::vector<std::pair<unsigned, unsigned>>(unsigned B)>
      ControllingArms;
  /// The kernel's block shape (for the kernel and every callee inlined in
  /// it).
  BlockShape Shape;
};

/// Identities of shared-memory slots and of registers, shared by every
/// instance of one kernel so that a slot means the same region in a callee.
/// Each kernel gets its own (PtxGraphBuilder::build), so that its analysis
/// does not depend on the kernels before it and kernels can be analysed in
/// parallel.
class PtxIdentities {
public:
  /// The slot for byte \p Offset of shared variable \p Var.
  uint64_t slot(llvm::StringRef Var, int64_t Offset);
  /// The slot at byte \p Offset of the array whose first slot is \p Array;
  /// an unknown offset (nullopt) is the class of all its elements, as
  /// `&full_bar[stage]` names one mbarrier of a pipeline.
  uint64_t element(uint64_t Array, std::optional<int64_t> Offset);
  /// The run of mbarriers at byte \p Start of the variable \p Array
  /// (BarrierRuns.h).
  uint64_t run(uint64_t Array, int64_t Start);
  /// A register of one instance (for tcgen05.ld destinations).
  uint64_t variable(unsigned Instance, llvm::StringRef Reg);
  /// A new RegisterValues::InstanceKey (1, 2, ...).
  unsigned nextInstanceKey() { return ++InstanceKeys; }

private:
  llvm::StringMap<uint64_t> Ids;
  uint64_t Next = 1;
  unsigned InstanceKeys = 0;
};

/// The register values of one instance of a function.
class RegisterValues {
public:
  /// \p SharedVars: names of .shared variables visible to the function.
  /// \p KernelParams: the kernel's parameter names when the function is
  /// the kernel (they are CTA-uniform), else null. \p ParamBindings: values
  /// of a callee's parameters, by parameter name, from the caller's
  /// `st.param`.
  RegisterValues(const InstanceCode &Code,
                 const llvm::StringMap<std::string> &SharedVars,
                 const std::vector<std::string> *KernelParams,
                 llvm::StringMap<PtxValue> ParamBindings, PtxIdentities &Ids);

  /// The value of a leaf operand (register, immediate, symbol) or of an
  /// address operand's base with its displacement folded into slot
  /// addresses.
  PtxValue operand(const ptx::Operand &O) const;
  /// The value of register \p Name (unknown if never defined).
  PtxValue reg(llvm::StringRef Name) const;
  /// The value of operand \p O as instruction \p Instr reads it. A
  /// register with several definitions takes only those that reach
  /// \p Instr: nvcc reuses a register for a later loop's counter
  /// (`and %r9, %r8, 0x600000` before the mainloop, `add %r9, %r9, 16` in
  /// the epilogue loop after it), and before that loop the register has
  /// its first value alone. The sources of the definitions are read the
  /// same way, a few definitions deep; deeper, the flow-insensitive value.
  PtxValue operandAt(const ptx::Operand &O, unsigned Instr) const;
  /// True if \p Name is defined by more than one instruction.
  bool hasSeveralDefinitions(llvm::StringRef Name) const;
  /// True when the fixpoint did not settle (every value is then unknown).
  bool gaveUp() const { return GaveUp; }

  /// Destination registers of \p I (registers it writes).
  static std::vector<const ptx::Operand *>
  destinations(const ptx::Instruction &I);
  /// How many leading operands of \p I are destinations (`d|p` of
  /// elect.sync, setp and shfl counts two).
  static unsigned destinationOperands(const ptx::Instruction &I);
  /// Source registers of \p I (registers it reads), guard included.
  static std::vector<const ptx::Operand *> sources(const ptx::Instruction &I);

private:
  /// Where operandAt() reads registers, and how many definitions deeper
  /// it may still follow.
  struct ReadPoint {
    unsigned Instr;
    unsigned Depth;
  };
  static constexpr unsigned ReadPointDepth = 6;
  PtxValue regAt(llvm::StringRef Name, ReadPoint At) const;
  /// The definitions of \p Name that reach instruction \p Instr (sorted);
  /// empty when none does or the code's blocks are not contiguous.
  const std::vector<unsigned> &reachingDefinitions(llvm::StringRef Name,
                                                   unsigned Instr) const;
  /// For a predicate set once by `setp.eq p, x, N` (x a register defined
  /// once): x and N.
  std::optional<std::pair<std::string, int64_t>>
  equalityTested(const ptx::Operand &Pred) const;
  /// \p V where it is known to equal \p N (\p Equal) or to differ from
  /// it; undefined when it cannot.
  PtxValue restrictedTo(PtxValue V, int64_t N, bool Equal) const;
  /// What instruction \p Idx writes to its destinations, its guard applied.
  std::vector<PtxValue> guardedOutputs(unsigned Idx) const;

  void solve();
  /// What the fixpoint needs to know of the code, by register id: the
  /// definitions and readers of each register, the predicates that decide
  /// which of several definitions a thread sees, the registers each
  /// predicate decides, and those whose definitions all sit in one block.
  /// The same for every round of solve(): built once.
  struct FixpointTables {
    std::vector<std::vector<unsigned>> DefsById, ReadersById, DecidersById,
        DependentById;
    std::vector<uint8_t> SingleBlockById;
  };
  std::unique_ptr<FixpointTables> Tables;
  void buildFixpointTables();
  /// Registers whose definitions disagree, followed thread by thread
  /// (ThreadValues): true if a value was learnt.
  bool refineByThread();
  /// Registers whose per-thread walk failed in an earlier round: not
  /// walked again (a later round knows little more about them, and each
  /// walk of a large kernel is costly).
  llvm::StringSet<> WalkFailed;
  /// The values \p I gives its destinations, from the current state.
  std::vector<PtxValue> evaluate(const ptx::Instruction &I) const;
  /// The threads of the block: the `.reqntid` product, else MaxThreads.
  unsigned blockThreads() const {
    if (const auto &Req = Code.Shape.Required) {
      unsigned N = std::max(1u, (*Req)[0]) * std::max(1u, (*Req)[1]) *
                   std::max(1u, (*Req)[2]);
      return std::min(N, MaxThreads);
    }
    return MaxThreads;
  }
  /// The threads that can exist: the `.reqntid` product, else the
  /// `.maxntid` one, else MaxThreads.
  unsigned possibleThreads() const {
    if (Code.Shape.Required || !Code.Shape.Maximum)
      return blockThreads();
    const auto &Max = *Code.Shape.Maximum;
    unsigned N =
        std::max(1u, Max[0]) * std::max(1u, Max[1]) * std::max(1u, Max[2]);
    return std::min(N, MaxThreads);
  }
  /// The value of `Base d, L, R` for the integer operations.
  PtxValue binary(llvm::StringRef Base, const PtxValue &L, const PtxValue &R,
                  unsigned Bits, bool Signed, bool Wide) const;
  PtxValue special(llvm::StringRef Name) const;
  PtxValue symbol(llvm::StringRef Name) const;

  const InstanceCode &Code;
  const llvm::StringMap<std::string> &SharedVars;
  /// The kernel's parameter names (null in a .func): `ld.param` of them is
  /// CTA-uniform; of other .param names (`retval0` of a call) it is not.
  const std::vector<std::string> *KernelParams;
  bool isKernelParam(llvm::StringRef Name) const;
  /// The values `ld.param` of a kernel parameter gives its destinations
  /// (\p Bytes each): CTA-uniform, keyed by the parameter and offset.
  std::vector<PtxValue> kernelParamLoad(const ptx::Instruction &I, size_t Count,
                                        unsigned Bytes) const;
  llvm::StringMap<PtxValue> Params;
  PtxIdentities &Ids;
  /// Tells this instance's registers apart from another instance's when
  /// they stand for a stage variable (StageTerm.h).
  unsigned InstanceKey;
  /// Ids.variable(InstanceKey, register) of register \p Id: operand() asks
  /// for it at every read of a register set in several places.
  uint64_t variableId(unsigned Id) const;
  llvm::StringMap<PtxValue> Values;
  /// Dense ids of the registers the instructions name (defined or read),
  /// for the fixpoint's tables and for reads by operand: looking names up
  /// was a fifth of the fixpoint's time on large kernels.
  llvm::StringMap<unsigned> RegIds;
  std::vector<llvm::StringRef> RegNames;
  std::vector<unsigned> DefCountById;
  /// Per instruction: the ids of DestsOf and SourcesOf.
  std::vector<std::vector<unsigned>> DestIdsOf, SourceIdsOf;
  /// The register id of each register operand of the instructions.
  llvm::DenseMap<const ptx::Operand *, unsigned> OperandIds;
  /// Values' entry of each register id, null while it has none (entries
  /// of a StringMap stay where they are as it grows).
  std::vector<PtxValue *> ValueOf;
  /// The id of register operand \p O (of register \p Name), or ~0u for a
  /// register no instruction of the instance names.
  unsigned registerId(const ptx::Operand &O) const;
  unsigned registerId(llvm::StringRef Name) const;
  /// How many instructions define register \p Name.
  unsigned definitionCount(llvm::StringRef Name) const;
  /// Values[RegNames[Id]], created if needed (and ValueOf kept up to date).
  PtxValue &valueSlot(unsigned Id);
  /// operand(\p S).Defined, without building the value when it is known.
  bool sourceDefined(const ptx::Operand &S) const;
  /// reg() of a register with an id.
  PtxValue regById(unsigned Id) const;
  /// variableId() by register id (0: not asked yet).
  mutable std::vector<uint64_t> VariableIdById;
  /// Values proved per thread (refineByThread): they replace the join of
  /// the register's definitions.
  llvm::StringMap<PtxValue> Overrides;
  /// Per instruction: its destination and source registers, and the
  /// values it last gave its destinations (solve()).
  std::vector<std::vector<const ptx::Operand *>> DestsOf, SourcesOf;
  std::vector<std::vector<PtxValue>> Outputs;
  /// Special registers (%tid.x, %warpid, ...), computed once.
  mutable llvm::StringMap<PtxValue> Specials;
  bool GaveUp = false;
  bool Solving = false; ///< inside solve(): undefined means "not yet".
  /// operandAt(): the read point registers are read at, while set.
  mutable std::optional<ReadPoint> Point;
  /// The instructions defining each register, in order.
  llvm::StringMap<std::vector<unsigned>> DefSites;
  /// First instruction of each block and the blocks' predecessors (empty
  /// when the blocks are not contiguous runs of instructions).
  std::vector<unsigned> BlockFirst;
  std::vector<std::vector<unsigned>> Preds;
  /// Memos of reachingDefinitions() and regAt(), keyed by the register's
  /// DefSites entry.
  mutable std::map<std::pair<const void *, unsigned>, std::vector<unsigned>>
      Reaching;
  mutable std::map<std::tuple<const void *, unsigned, unsigned>, PtxValue>
      ValuesAt;
  /// True if register \p Id reads the same at every point at any depth: it
  /// has one definition, and so has everything that definition reads,
  /// transitively (an acyclic cone of single definitions, none widened or
  /// overridden). The fixpoint computed each of them once, from inputs
  /// that never changed, so the read-point evaluation would recompute the
  /// flow-insensitive value; regAt() returns that at once. \p Depth bounds
  /// the walk.
  bool readsTheSameEverywhere(unsigned Id, unsigned Depth) const;
  /// Per register id, for the last solve(): -1 not known, 0 no, 1 yes, 2
  /// being decided (a cycle); and whether the fixpoint widened it.
  mutable std::vector<int8_t> Settled;
  /// True if every register instruction \p Idx reads reads the same
  /// everywhere: it evaluates at every read point to its Outputs entry.
  bool readsOnlySettled(unsigned Idx) const;
  mutable std::vector<int8_t>
      SettledInstruction; ///< by instruction, as Settled
  std::vector<uint8_t> Widened;
  /// regAt() keys its memo by the set of reaching definitions: a dense id
  /// per distinct set (by content, and by the address of a Reaching entry).
  unsigned reachSetId(const std::vector<unsigned> &Reach) const;
  mutable std::map<std::vector<unsigned>, unsigned> ReachSetIds;
  mutable llvm::DenseMap<const std::vector<unsigned> *, unsigned>
      ReachSetByAddress;
  /// binary()'s expression nodes of %tid.x, by operator, width, signedness
  /// and operand nodes (kept alive here, so their addresses stay unique),
  /// with what their values say.
  struct TidNode {
    std::shared_ptr<const TidExpr> E;
    bool IsWarp = false, WarpUniform = false;
    std::optional<bool> LaneVariant;
  };
  /// An operand of a memoised node: a constant by its value (constants are
  /// made afresh at each evaluation), any other node by its address.
  using TidOperandKey = std::pair<const TidExpr *, int64_t>;
  mutable std::map<
      std::tuple<std::string, unsigned, bool, TidOperandKey, TidOperandKey>,
      TidNode>
      TidNodes;
  /// A large expression node of %tid.x replaced by its table of values
  /// (a node of size 1), so that longer chains stay functions of %tid.x:
  /// nvcc's signed `warp % 4` is five instructions. By node, which the
  /// entry keeps alive.
  struct Tabulated {
    std::shared_ptr<const TidExpr> Source, Table;
  };
  mutable llvm::DenseMap<const TidExpr *, Tabulated> TabulatedNodes;
  /// \p E, or its table when it is larger than a leaf; null when some
  /// thread's value is undefined.
  std::shared_ptr<const TidExpr>
  tabulated(const std::shared_ptr<const TidExpr> &E) const;
};

/// The unknown value: no constant, Uniformity::Unknown.
PtxValue unknownValue();

/// Bits 15..0 of \p P when they are the same in every thread: of its
/// constant, or AbstractValue::KnownLowHalf.
std::optional<int64_t> lowHalf(const PtxValue &P);

/// \p P as an event operand sees it: a function of %tid.x (PtxValue::Tid)
/// is also recorded thread by thread (AbstractValue::PerThread, exact), so
/// that the analyses can evaluate it for the threads of one role (a
/// softmax warpgroup's `selp(0, 128, is_wg0) | lane_quarter` column).
AbstractValue eventValue(const PtxValue &P);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_PTX_REGISTERVALUES_H
