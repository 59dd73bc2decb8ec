//===- ThreadValues.h - Per-thread values of hoisted registers --*- C++ -*-===//
//
// Part of tmemcheck. Private to lib/Frontend/Ptx. nvcc hoists a role test
// out of the code it guards and merges it with a lane test: for
//
//   if (threadIdx.x == 0) init();
//   if (warp_idx == 0) alloc();
//   ...
//   if (warp_idx == 0) dealloc();
//
// it sends thread 0 straight to the alloc and writes `warp_idx == 0` as a
// predicate set in two arms (`mov.pred %p12, 0` where tid.x > 31, `mov.pred
// %p12, -1` after the alloc), read again at the dealloc. A flow-insensitive
// join of the two definitions knows nothing about %p12; following each
// %tid.x through the branches that are functions of %tid.x alone tells
// which value every thread sees where %p12 is read: here `warp == 0`.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_PTX_THREADVALUES_H
#define TMEMCHECK_LIB_FRONTEND_PTX_THREADVALUES_H

#include "tmemcheck/Ptx/Instruction.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <bitset>
#include <cstdint>
#include <optional>
#include <vector>

namespace tmemcheck {

/// Threads of a (1-D) block, by %tid.x.
constexpr unsigned MaxThreads = 1024;
using ThreadSet = std::bitset<MaxThreads>;
/// A value per %tid.x.
using ThreadTable = std::vector<int64_t>;

/// The control flow of one function instance as the per-thread walk needs
/// it: blocks of consecutive instructions and their successors.
struct ThreadFlowGraph {
  /// The instance's instructions, in order.
  llvm::ArrayRef<ptx::Instruction> Instructions;
  /// The block of each instruction, and the instruction index of the
  /// conditional branch (or `@p ret`) that ends each two-way block (-1 for
  /// others).
  std::vector<unsigned> BlockOf;
  std::vector<int> BranchOf;
  /// Successors per block; the number of blocks stands for the exit.
  /// Successor 0 of a two-way block is taken when the branch's predicate
  /// (its negation not applied) holds.
  std::vector<llvm::SmallVector<unsigned, 2>> Succs;
};

/// Answers about the instance's registers that the walk needs.
struct ThreadFlowOracle {
  /// The value instruction \p Instr writes to \p Reg in each thread, when
  /// it is a function of %tid.x (a constant included).
  llvm::function_ref<std::optional<ThreadTable>(unsigned Instr,
                                                llvm::StringRef Reg)>
      DefinedValue;
  /// The threads for which predicate operand \p Pred holds, when that is a
  /// function of %tid.x; nullptr otherwise.
  llvm::function_ref<const ThreadSet *(const ptx::Operand &Pred)> Holds;
};

/// The value of \p Reg in every thread wherever it is read, when the walk
/// proves it: each thread that reaches a read of \p Reg has seen a value
/// the oracle knows, the same at every read, whichever way the branches
/// that are not functions of %tid.x went. Threads that reach no read get
/// the value of a lane of their warp that does (else of a nearby warp), so
/// that they do not make a role test look lane-divergent. nullopt when
/// nothing is proved, or the instance is too large to walk.
/// \p Touching, when given: the instructions that read or write \p Reg, in
/// order (the walk skips the others, which leave it as it is). \p Threads:
/// the block's thread count (the threads past it never run). \p Scratch:
/// memory a caller reuses across walks.
std::optional<ThreadTable> threadValuesAtReads(
    const ThreadFlowGraph &G, llvm::StringRef Reg, const ThreadFlowOracle &O,
    const std::vector<unsigned> *Touching = nullptr,
    unsigned Threads = MaxThreads, std::vector<ThreadTable> *Scratch = nullptr);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_PTX_THREADVALUES_H
