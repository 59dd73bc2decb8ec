//===- AllocBase.h - TMEM addresses known from the allocation base -*- C++
//-*-===//
//
// Part of tmemcheck. tcgen05.alloc writes the base of its columns to a
// shared-memory slot, and the analysis names a region by that slot. Some
// kernels never read the slot back: DeepGEMM frees with `free(0, n)`, as
// the base of a CTA's only allocation of all 512 columns can only be lane
// 0, column 0 (rules §4: columns are allocated in one contiguous range of
// TMEM's 512). Such a constant is the allocation's address; this pass
// rewrites it into one (both front ends call it on the finished graph), so
// that the dealloc frees the region instead of looking like the free of an
// address nobody allocated.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_ALLOCBASE_H
#define TMEMCHECK_ANALYSIS_ALLOCBASE_H

#include "tmemcheck/Analysis/KernelGraph.h"

namespace tmemcheck {

/// Rewrites the constant address operands of tcgen05.dealloc, and the
/// TMEM address operands of ld/st/cp/shift/mma that are constants (or have
/// per-thread values with one column for every thread), into TMEM
/// addresses of the kernel's only region when that region's base is
/// provably lane 0, column 0 (every alloc of it takes all 512 columns, and
/// no other alloc exists): CuTe DSL writes such addresses with no base.
/// Leaves the graph alone otherwise.
void resolveConstantAddressesFromAllocBase(KernelGraph &G);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_ALLOCBASE_H
