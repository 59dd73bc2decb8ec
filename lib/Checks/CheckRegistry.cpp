//===- CheckRegistry.cpp - All checks by name -----------------------------===//
//
// Part of tmemcheck. The names are the public contract of design.md.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Checks/Check.h"

namespace tmemcheck {

const std::vector<CheckInfo> &CheckRegistry::all() {
  static const std::vector<CheckInfo> Checks = {
      {"tmem-alloc-ncols", Severity::Error, /*Strict=*/false,
       "alloc/dealloc column count not a power of two in [32, 512]",
       createAllocNcolsCheck},
      {"tmem-cta-group-mismatch", Severity::Error, /*Strict=*/false,
       "cta_group::1 and cta_group::2 mixed in one kernel",
       createCtaGroupMismatchCheck},
      {"tmem-leak", Severity::Error, /*Strict=*/false,
       "a path reaches kernel exit with columns allocated", createLeakCheck},
      {"tmem-double-dealloc", Severity::Error, /*Strict=*/false,
       "dealloc of an already freed region", createDoubleDeallocCheck},
      {"tmem-dealloc-unallocated", Severity::Error, /*Strict=*/false,
       "dealloc of an address that is not an allocation start, or on a path "
       "with no alloc",
       createDeallocUnallocatedCheck},
      {"tmem-dealloc-mismatch", Severity::Error, /*Strict=*/false,
       "dealloc column count differs from the allocation",
       createDeallocMismatchCheck},
      {"tmem-use-after-dealloc", Severity::Error, /*Strict=*/false,
       "tcgen05 access to a freed region", createUseAfterDeallocCheck},
      {"tmem-alloc-after-relinquish", Severity::Error, /*Strict=*/false,
       "alloc after relinquish_alloc_permit on some path",
       createAllocAfterRelinquishCheck},
      {"tmem-missing-relinquish", Severity::Warning, /*Strict=*/false,
       "allocating kernel never relinquishes the alloc permit",
       createMissingRelinquishCheck},
      {"tmem-divergent-collective", Severity::Error, /*Strict=*/false,
       ".sync.aligned tcgen05 op under a lane-divergent condition",
       createDivergentCollectiveCheck},
      {"tmem-single-thread-op-by-warp", Severity::Error, /*Strict=*/false,
       "mma/cp/shift/commit executed by every lane of a warp",
       createSingleThreadOpByWarpCheck},
      {"tmem-addr-publish-race", Severity::Error, /*Strict=*/false,
       "alloc's shared-memory slot read by other warps before a barrier",
       createAddrPublishRaceCheck},
      {"tmem-alloc-budget", Severity::Error, /*Strict=*/false,
       "more than 512 columns allocated at once in a CTA",
       createAllocBudgetCheck},
      {"tmem-missing-wait-ld", Severity::Error, /*Strict=*/false,
       "loaded columns overwritten, released or freed before wait::ld",
       createMissingWaitLdCheck},
      {"tmem-missing-wait-st", Severity::Error, /*Strict=*/false,
       "stored columns read by mma, released or freed before wait::st",
       createMissingWaitStCheck},
      {"tmem-accumulator-read-before-commit", Severity::Error, /*Strict=*/false,
       "tcgen05.ld of an mma accumulator with no commit -> mbarrier wait in "
       "between",
       createAccumulatorReadBeforeCommitCheck},
      {"tmem-dealloc-race", Severity::Error, /*Strict=*/false,
       "dealloc not ordered after other threads' accesses or own in-flight mma",
       createDeallocRaceCheck},
      {"tmem-alloc-peer-race", Severity::Error, /*Strict=*/false,
       "cta_group::2 dealloc that can run before the peer's alloc "
       "completed, or a paired collective skipped by one CTA of the pair",
       createAllocPeerRaceCheck},
      {"tmem-reuse-race", Severity::Error, /*Strict=*/false,
       "columns rewritten while an earlier reader in other threads (ld, "
       "running mma) is not ordered before the write",
       createReuseRaceCheck},
      {"tmem-out-of-bounds", Severity::Error, /*Strict=*/false,
       "an access footprint leaves its allocation or column 511",
       createOutOfBoundsCheck},
      {"tmem-lane-quarter", Severity::Error, /*Strict=*/false,
       "tcgen05.ld/st lanes outside the issuing warp's quarter (warp % 4)",
       createLaneQuarterCheck},
      {"tmem-layout-overlap", Severity::Error, /*Strict=*/false,
       "scale-factor columns of a block-scaled mma overlap an accumulator",
       createLayoutOverlapCheck},
      {"tmem-shared-access", Severity::Error, /*Strict=*/false,
       "a TMEM address used as a shared-memory address or pointer, or a "
       "slot's shared-memory address used as a TMEM address",
       createSharedAccessCheck},
      {"tmem-divergent-barrier", Severity::Error, /*Strict=*/false,
       "an aligned barrier (bar.sync, __syncthreads) reached by its threads "
       "at different instructions",
       createDivergentBarrierCheck},
      {"tmem-missing-fence", Severity::Warning, /*Strict=*/true,
       "thread sync without tcgen05.fence::before/after_thread_sync around "
       "tcgen05 hand-offs",
       createMissingFenceCheck},
      {"tmem-ld-use-before-wait", Severity::Warning, /*Strict=*/true,
       "registers of tcgen05.ld read before tcgen05.wait::ld",
       createLdUseBeforeWaitCheck},
  };
  return Checks;
}

const CheckInfo *CheckRegistry::find(llvm::StringRef Name) {
  for (const CheckInfo &C : all())
    if (C.Name == Name)
      return &C;
  return nullptr;
}

} // namespace tmemcheck
