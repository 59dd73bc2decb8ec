//===- AllocationState.h - Per-path TMEM allocation state -------*- C++ -*-===//
//
// Part of tmemcheck. The program-state traits of the Static Analyzer plugin:
// one entry per TMEM allocation made on the path (keyed by the symbol that
// stands for the TMEM address tcgen05.alloc stored) and the alloc permits
// the path has relinquished. The traits are registered in
// AllocationState.cpp; other files use the functions below.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_TOOLS_CSA_PLUGIN_ALLOCATIONSTATE_H
#define TMEMCHECK_TOOLS_CSA_PLUGIN_ALLOCATIONSTATE_H

#include "tmemcheck/Model/TmemOp.h"

#include "clang/AST/Stmt.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramState.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/SVals.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace tmemcheck::csa {

/// The lifecycle of one TMEM allocation on one path. Like StreamChecker's
/// stream state, the phase is a small enum and only TmemLifecycleChecker's
/// transitions change it.
struct TmemAllocation {
  enum class Phase : uint8_t {
    Allocated,   ///< tcgen05.alloc ran; no dealloc yet.
    Deallocated, ///< tcgen05.dealloc of this allocation ran.
    Escaped,     ///< the address left what the path can see (passed to an
                 ///< opaque call, its slot invalidated, a guarded dealloc):
                 ///< someone else may free it, so no leak is reported.
  };

  Phase P = Phase::Allocated;
  CtaGroup Group = CtaGroup::Unspecified;
  /// The asm statement or wrapper call that allocated.
  const clang::Stmt *AllocSite = nullptr;
  /// The shared-memory slot the address was stored into.
  const clang::ento::MemRegion *Slot = nullptr;

  bool isAllocated() const { return P == Phase::Allocated; }
  bool isDeallocated() const { return P == Phase::Deallocated; }

  TmemAllocation withPhase(Phase NewPhase) const {
    TmemAllocation Copy = *this;
    Copy.P = NewPhase;
    return Copy;
  }

  bool operator==(const TmemAllocation &O) const {
    return P == O.P && Group == O.Group && AllocSite == O.AllocSite &&
           Slot == O.Slot;
  }
  void Profile(llvm::FoldingSetNodeID &ID) const {
    ID.AddInteger(static_cast<unsigned>(P));
    ID.AddInteger(static_cast<unsigned>(Group));
    ID.AddPointer(AllocSite);
    ID.AddPointer(Slot);
  }
};

using clang::ento::ProgramStateRef;
using clang::ento::SymbolRef;

/// The allocation \p Handle stands for on this path, or null.
const TmemAllocation *getAllocation(ProgramStateRef State, SymbolRef Handle);

/// Records (or replaces) the allocation of \p Handle.
ProgramStateRef setAllocation(ProgramStateRef State, SymbolRef Handle,
                              const TmemAllocation &A);

/// Every allocation made on this path.
llvm::SmallVector<std::pair<SymbolRef, TmemAllocation>, 4>
allAllocations(ProgramStateRef State);

/// The allocation a TMEM address value derives from: the value itself is an
/// allocation's symbol, or that symbol plus or-ed with offsets (`base +
/// (32 << 16)`, `base | col`, `base + stage * 64`). Null when the value does
/// not derive from exactly one allocation; the caller then stays silent.
SymbolRef findAllocationHandle(ProgramStateRef State, clang::ento::SVal V);

/// The relinquish_alloc_permit of \p Group executed on this path (the
/// first one), or null.
const clang::Stmt *getRelinquish(ProgramStateRef State, CtaGroup Group);

/// Records that this path relinquished the alloc permit of \p Group at
/// \p Site (the first relinquish is kept).
ProgramStateRef setRelinquished(ProgramStateRef State, CtaGroup Group,
                                const clang::Stmt *Site);

} // namespace tmemcheck::csa

#endif // TMEMCHECK_TOOLS_CSA_PLUGIN_ALLOCATIONSTATE_H
