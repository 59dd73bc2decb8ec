//===- Lifecycle.h - CTA-level TMEM region lifecycle ------------*- C++ -*-===//
//
// Part of tmemcheck. Reconstructs, per kernel, the alloc -> publish -> free
// lifecycle of every TMEM region (design.md "Semantics" §5, rules §4).
//
// A region is named by the shared-memory slot tcgen05.alloc writes its base
// address into. TMEM is a CTA resource, so the state is the CTA's: branches
// on CTA-uniform conditions are real alternatives (their states are
// joined as sets), while the arms of a lane- or warp-dependent branch are
// all executed by some threads, so where they meet the CTA has every change
// any arm made (an alloc by warp 0 has happened for the CTA).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_LIFECYCLE_H
#define TMEMCHECK_ANALYSIS_LIFECYCLE_H

#include "tmemcheck/Analysis/ControlDependence.h"
#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/SortedSet.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tmemcheck {

/// Phases of a region, as bits so that a set of possible phases is a mask.
/// The numeric order is the order of progress along the lifecycle.
enum RegionPhase : uint8_t {
  PhaseUnallocated = 1 << 0,
  PhaseAllocatedUnpublished = 1 << 1, ///< allocated, no barrier since
  PhaseAllocated = 1 << 2,            ///< allocated and published
  PhaseFreedUnknown = 1 << 3, ///< a dealloc of an unresolved address ran
  PhaseFreed = 1 << 4,
  /// Set with PhaseFreed by a dealloc on a path of a warp role that never
  /// allocated, of a region another role (a sibling arm of a warp-divergent
  /// branch) allocates: the address it frees is the one that alloc wrote.
  PhaseFreedForOtherRole = 1 << 5,
  /// Set with PhaseFreedForOtherRole when that dealloc runs in every CTA in
  /// which the other role allocated: apart from the warp roles, it is only
  /// under CTA-uniform conditions that every alloc of the region is under
  /// too (`if (tile_valid)` in both roles). The freeing role's paths that
  /// skip it are then CTAs that never allocated (CUTLASS FMHA: the MMA warp
  /// allocates and the epilogue warp frees, each for a valid tile).
  PhaseFreedWhereAllocated = 1 << 6,
};
using PhaseSet = uint8_t;

constexpr PhaseSet PhaseAnyAllocated =
    PhaseAllocatedUnpublished | PhaseAllocated;

/// The CTA's TMEM state at one program point, over CTA-uniform paths.
struct CtaState {
  /// Possible phases per region slot; a slot not present is unallocated.
  /// A flat map: the state is copied at every block of the fixpoint.
  SortedMap<uint64_t, PhaseSet, 4> Regions;
  /// Possible values of "relinquish_alloc_permit has run": bit 0 no,
  /// bit 1 yes.
  uint8_t Relinquished = 1;

  PhaseSet phases(uint64_t Slot) const {
    auto It = Regions.find(Slot);
    return It == Regions.end() ? PhaseUnallocated : It->second;
  }
  bool mayBeRelinquished() const { return Relinquished & 2; }
  friend bool operator==(const CtaState &A, const CtaState &B) {
    return A.Regions == B.Regions && A.Relinquished == B.Relinquished;
  }
};

/// Everything known about one region: its slot and the instructions that
/// allocate and free it.
struct Region {
  uint64_t Slot = 0;
  std::string Name;
  std::vector<const Event *> Allocs;
  std::vector<const Event *> Deallocs;
  /// Column count shared by every alloc of the region, if known.
  std::optional<int64_t> Columns;
};

/// The lifecycle facts of one kernel.
class LifecycleAnalysis {
public:
  LifecycleAnalysis(const KernelGraph &G, const ControlDependence &CD,
                    KernelBudget &Budget);

  const std::vector<Region> &regions() const { return Regions; }
  const Region *region(uint64_t Slot) const;

  /// State just before a tcgen05, sync, slot-read or return event.
  const CtaState &stateBefore(const Event &E) const;
  /// State at kernel exit.
  const CtaState &exitState() const { return Exit; }

  /// Where the kernel exits with \p Slot possibly allocated: return
  /// statements, or the closing brace when control falls off the end.
  std::vector<SourceLoc> leakingExits(uint64_t Slot) const;

  /// True if some alloc's slot could not be resolved: region-identity
  /// findings are then unreliable.
  bool hasUnresolvedAlloc() const { return UnresolvedAlloc; }

  /// True when every TMEM effect of the kernel is visible: all allocs
  /// resolved, no opaque call, no budget cut. Findings that need to know
  /// every alloc (a dealloc nobody allocated) require it.
  bool isComplete() const { return Complete; }

  /// True if \p Dealloc frees a region that an alloc in another warp role
  /// allocates: the alloc and the dealloc sit in different arms of a branch
  /// that is not CTA-uniform (`if (warp == 1) alloc; else ... dealloc`), so
  /// neither is on the other's paths, yet both run in one CTA, and the
  /// dealloc's address is the value that alloc stored in the slot.
  bool allocatedByAnotherRole(const Event &Dealloc) const {
    return FreedForOtherRole.count(Dealloc.Id);
  }

  /// The relinquish events of the kernel.
  const std::vector<const Event *> &relinquishes() const {
    return Relinquishes;
  }

private:
  void collectRegions();
  void findOtherRoleDeallocs();
  void transfer(const Event &E, CtaState &S) const;
  /// The states flowing into \p Block, with the arms of divergent branches
  /// that end there already merged (each stands as its branch block).
  struct Incoming {
    unsigned From;
    CtaState State;
  };
  std::vector<Incoming> incoming(unsigned Block,
                                 const std::vector<uint8_t> &Done,
                                 const std::vector<CtaState> &Out) const;
  /// Which successor of the divergent branch \p D the edge \p From ->
  /// \p To comes through (a negative value, unique per edge, when that
  /// cannot be told).
  int armOf(unsigned D, unsigned From, unsigned To) const;
  /// The arms of branches that are not CTA-uniform (warp roles, lane
  /// tests, conditions of unknown uniformity) on the way to the edge
  /// \p From -> \p To: edges with equal routes serve the same threads.
  std::set<std::pair<unsigned, unsigned>> threadRoute(unsigned From,
                                                      unsigned To) const;
  CtaState joinInto(unsigned Block, const std::vector<uint8_t> &Done,
                    const std::vector<CtaState> &Out) const;

  const KernelGraph &G;
  const ControlDependence &CD;
  std::vector<Region> Regions;
  llvm::DenseMap<uint64_t, unsigned> RegionIndex;
  std::vector<const Event *> Relinquishes;
  std::set<unsigned> FreedForOtherRole; ///< dealloc event ids
  /// Those of FreedForOtherRole that run wherever the region was allocated
  /// (PhaseFreedWhereAllocated).
  std::set<unsigned> FreedWhereAllocated;
  /// The conditions that select CTAs (not warps or lanes) below a warp
  /// role branch: those with value keys, and whether others exist.
  struct RoleConditions {
    std::set<std::pair<std::string, unsigned>> Keyed; ///< (key, arm)
    bool Unkeyed = false;
  };
  /// The CTA-selecting conditions that \p Block runs under, below the
  /// divergent branch \p Role.
  RoleConditions conditionsBelow(unsigned Block, unsigned Role) const;
  /// True if a dealloc under \p Free runs in every CTA in which an alloc
  /// under \p Alloc ran (PhaseFreedWhereAllocated).
  static bool runsWhereAllocated(const RoleConditions &Free,
                                 const RoleConditions &Alloc);
  bool UnresolvedAlloc = false;
  bool Complete = true;
  std::vector<CtaState> In, Out;
  std::vector<uint8_t> Done;           ///< blocks reached by the fixpoint
  llvm::DenseMap<unsigned, CtaState> Before; ///< by event id
  CtaState Exit;
  CtaState Empty;
};

/// The slot an alloc writes (0 if unresolved).
uint64_t allocSlot(const Event &E);
/// The TMEM address operand of an event (nullptr if none).
const AbstractValue *tmemAddressOperand(const Event &E);
/// Every TMEM address operand of an access (taddr, mma D/A/sfa/sfb/meta).
std::vector<const AbstractValue *> tmemAccessOperands(const Event &E);
/// The constant column count of an alloc/dealloc, if known.
std::optional<int64_t> columnCount(const Event &E);

/// The regions with a known column count that are allocated on every
/// path reaching \p E (and not freed): the columns the CTA certainly holds
/// there.
std::vector<const Region *>
regionsCertainlyHeldBefore(const LifecycleAnalysis &L, const Event &E);

/// The most columns one CTA certainly holds at once: over every alloc with
/// a constant count, its columns plus those of the regions allocated on
/// every path reaching it. \p At is set to that alloc. std::nullopt when
/// no alloc has a constant count.
std::optional<int64_t> peakAllocatedColumns(const KernelGraph &G,
                                            const LifecycleAnalysis &L,
                                            const Event **At = nullptr);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_LIFECYCLE_H
