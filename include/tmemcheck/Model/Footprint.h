//===- Footprint.h - TMEM footprints and constants --------------*- C++ -*-===//
//
// Part of tmemcheck. Constants and footprint arithmetic from
// ../shared/tcgen05-rules.md §1, §3 and §11, in one place so checks and the
// analysis agree.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_MODEL_FOOTPRINT_H
#define TMEMCHECK_MODEL_FOOTPRINT_H

#include "tmemcheck/Model/TmemOp.h"

#include <cstdint>
#include <optional>

namespace tmemcheck {

constexpr unsigned TmemLanes = 128;
constexpr unsigned TmemColumns = 512;
constexpr unsigned TmemAllocUnit = 32;

/// Rule A1 (non-exclusive): a power of two in [32, 512].
bool isLegalAllocColumnCount(int64_t NCols);

/// The smallest legal allocation size that holds \p NCols columns, or
/// std::nullopt if none does (NCols > 512).
std::optional<unsigned> roundUpToLegalAllocColumnCount(int64_t NCols);

/// Footprint of a tcgen05.ld / tcgen05.st (rules §3.1, §11).
Footprint ldStFootprint(LdStShape Shape, unsigned Repeat, bool Packed16,
                        std::optional<int64_t> SplitOffset);

/// 32-bit registers per thread of a tcgen05.ld / tcgen05.st (rules §3.1).
unsigned ldStRegisterCount(LdStShape Shape, unsigned Repeat);

/// Largest legal `.xN` for a shape (128, 128, 64, 32, 128).
unsigned maxLdStRepeat(LdStShape Shape);

/// Destination footprint of tcgen05.cp (rules §3.2, §11).
Footprint copyFootprint(CopyShape Shape);

/// Footprint of tcgen05.shift (rules §3.3): 32 lanes x 8 columns.
Footprint shiftFootprint();

/// Decoded fields of a 32-bit mma instruction descriptor (rules §3.4).
struct MmaShape {
  unsigned M = 0;
  unsigned N = 0;
};

/// M and N from a constant instruction descriptor for the given kind.
std::optional<MmaShape> decodeInstructionDescriptor(MmaKind Kind,
                                                    uint32_t Idesc);

/// D footprint per CTA of an mma (rules §3.4 table): lanes and columns.
/// For the M=64 half-datapath layout (cta_group::1, not .ws) the result has
/// Lanes == 16 and AllQuarters set: 16 lanes, at the address's offset (0 or
/// 16) inside each of the four 32-lane quarters. std::nullopt for M/N zero,
/// N not a multiple of 8 or above 256, and combinations the digest marks
/// UNCONFIRMED (cta_group::2 sparse M=128).
std::optional<Footprint> mmaAccumulatorFootprint(const TmemOp &Op,
                                                 MmaShape Shape);

} // namespace tmemcheck

#endif // TMEMCHECK_MODEL_FOOTPRINT_H
