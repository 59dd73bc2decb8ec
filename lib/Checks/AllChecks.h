//===- AllChecks.h - Factories of every check -------------------*- C++ -*-===//
//
// Part of tmemcheck. Each check lives in its own <Name>Check.cpp and exports
// one factory; CheckRegistry.cpp lists them by name (like a clang-tidy
// module's addCheckFactories).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_CHECKS_ALLCHECKS_H
#define TMEMCHECK_LIB_CHECKS_ALLCHECKS_H

#include "tmemcheck/Checks/Check.h"

#include <memory>

namespace tmemcheck {

std::unique_ptr<Check> createAllocNcolsCheck();
std::unique_ptr<Check> createCtaGroupMismatchCheck();
std::unique_ptr<Check> createLdUseBeforeWaitCheck();
std::unique_ptr<Check> createMissingFenceCheck();
std::unique_ptr<Check> createOutOfBoundsCheck();
std::unique_ptr<Check> createLaneQuarterCheck();
std::unique_ptr<Check> createLayoutOverlapCheck();
std::unique_ptr<Check> createMissingWaitLdCheck();
std::unique_ptr<Check> createMissingWaitStCheck();
std::unique_ptr<Check> createAccumulatorReadBeforeCommitCheck();
std::unique_ptr<Check> createDeallocRaceCheck();
std::unique_ptr<Check> createLeakCheck();
std::unique_ptr<Check> createDoubleDeallocCheck();
std::unique_ptr<Check> createDeallocUnallocatedCheck();
std::unique_ptr<Check> createDeallocMismatchCheck();
std::unique_ptr<Check> createUseAfterDeallocCheck();
std::unique_ptr<Check> createAllocAfterRelinquishCheck();
std::unique_ptr<Check> createMissingRelinquishCheck();
std::unique_ptr<Check> createDivergentCollectiveCheck();
std::unique_ptr<Check> createSingleThreadOpByWarpCheck();
std::unique_ptr<Check> createAddrPublishRaceCheck();
std::unique_ptr<Check> createAllocBudgetCheck();
std::unique_ptr<Check> createAllocPeerRaceCheck();
std::unique_ptr<Check> createReuseRaceCheck();
std::unique_ptr<Check> createSharedAccessCheck();
std::unique_ptr<Check> createDivergentBarrierCheck();

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_CHECKS_ALLCHECKS_H
