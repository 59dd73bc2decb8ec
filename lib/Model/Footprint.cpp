//===- Footprint.cpp - TMEM footprints and constants ----------------------===//
//
// Part of tmemcheck. Every number here comes from tcgen05-rules.md §3 and
// §11; the section is named next to each table.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/Footprint.h"

#include "llvm/Support/MathExtras.h"

namespace tmemcheck {

bool isLegalAllocColumnCount(int64_t NCols) {
  return NCols >= int64_t(TmemAllocUnit) && NCols <= int64_t(TmemColumns) &&
         llvm::isPowerOf2_64(uint64_t(NCols));
}

std::optional<unsigned> roundUpToLegalAllocColumnCount(int64_t NCols) {
  if (NCols > int64_t(TmemColumns))
    return std::nullopt;
  if (NCols <= int64_t(TmemAllocUnit))
    return TmemAllocUnit;
  return unsigned(llvm::PowerOf2Ceil(uint64_t(NCols)));
}

// §3.1: lanes and columns per `.xN` of each ld/st shape.
static unsigned ldStLanes(LdStShape Shape) {
  return Shape == LdStShape::S32x32b ? 32 : 16;
}

static unsigned ldStColumnsPerRepeat(LdStShape Shape) {
  switch (Shape) {
  case LdStShape::S32x32b:
  case LdStShape::S16x32bx2:
    return 1;
  case LdStShape::S16x64b:
    return 2;
  case LdStShape::S16x128b:
    return 4;
  case LdStShape::S16x256b:
    return 8;
  }
  return 0;
}

Footprint ldStFootprint(LdStShape Shape, unsigned Repeat, bool Packed16,
                        std::optional<int64_t> SplitOffset) {
  Footprint F;
  F.Lanes = ldStLanes(Shape);
  // .pack::16b / .unpack::16b: one register holds two 16-bit values from
  // neighbouring columns, so the column span doubles (INFERRED, §3.1).
  F.Columns = ldStColumnsPerRepeat(Shape) * Repeat * (Packed16 ? 2 : 1);
  if (Shape == LdStShape::S16x32bx2)
    F.SecondHalfOffset = SplitOffset;
  return F;
}

unsigned ldStRegisterCount(LdStShape Shape, unsigned Repeat) {
  switch (Shape) {
  case LdStShape::S32x32b:
  case LdStShape::S16x64b:
  case LdStShape::S16x32bx2:
    return Repeat;
  case LdStShape::S16x128b:
    return 2 * Repeat;
  case LdStShape::S16x256b:
    return 4 * Repeat;
  }
  return 0;
}

unsigned maxLdStRepeat(LdStShape Shape) {
  switch (Shape) {
  case LdStShape::S16x128b:
    return 64;
  case LdStShape::S16x256b:
    return 32;
  default:
    return 128;
  }
}

Footprint copyFootprint(CopyShape Shape) {
  // §3.2. The multicast forms fill all four 32-lane quarters.
  Footprint F;
  switch (Shape) {
  case CopyShape::S128x256b:
    F.Lanes = 128;
    F.Columns = 8;
    break;
  case CopyShape::S4x256b:
    F.Lanes = 4;
    F.Columns = 8;
    break;
  case CopyShape::S128x128b:
    F.Lanes = 128;
    F.Columns = 4;
    break;
  case CopyShape::S64x128bWarpx2_02_13:
  case CopyShape::S64x128bWarpx2_01_23:
  case CopyShape::S32x128bWarpx4:
    F.Lanes = 128;
    F.Columns = 4;
    F.AllQuarters = true;
    break;
  }
  return F;
}

Footprint shiftFootprint() {
  // §3.3: one 32-lane block, 8 columns (32 bytes per row).
  Footprint F;
  F.Lanes = 32;
  F.Columns = 8;
  return F;
}

static bool isBlockScaledKind(MmaKind Kind) {
  return Kind == MmaKind::MXF8F6F4 || Kind == MmaKind::MXF4 ||
         Kind == MmaKind::MXF4NVF4;
}

std::optional<MmaShape> decodeInstructionDescriptor(MmaKind Kind,
                                                    uint32_t Idesc) {
  // §3.4 (P91 §9.7.16.4.2 Tables 42-44).
  MmaShape S;
  S.N = ((Idesc >> 17) & 0x3F) << 3;
  if (isBlockScaledKind(Kind))
    S.M = ((Idesc >> 27) & 0x3) << 7;
  else
    S.M = ((Idesc >> 24) & 0x1F) << 4;
  if (S.M == 0 || S.N == 0)
    return std::nullopt;
  return S;
}

std::optional<Footprint> mmaAccumulatorFootprint(const TmemOp &Op,
                                                 MmaShape Shape) {
  // §3.4 table. Combinations the digest does not confirm give nullopt.
  unsigned M = Shape.M, N = Shape.N;
  if (M == 0 || N == 0 || N % 8 != 0 || N > 256)
    return std::nullopt;
  auto Make = [](unsigned Lanes, unsigned Columns, bool AllQuarters) {
    Footprint F;
    F.Lanes = Lanes;
    F.Columns = Columns;
    F.AllQuarters = AllQuarters;
    return F;
  };
  if (Op.Group == CtaGroup::Two) {
    if (Op.WeightStationary)
      return std::nullopt; // .ws exists only for cta_group::1.
    if (M == 256)
      return Make(128, N, false);
    if (M == 128 && !Op.Sparse)
      return Make(128, N / 2, false);
    return std::nullopt; // M=128 sparse (layout C) is UNCONFIRMED.
  }
  if (Op.Group != CtaGroup::One)
    return std::nullopt;
  if (M == 128)
    return Make(128, N, false);
  if (Op.WeightStationary) {
    if (M == 64)
      return Make(128, N / 2, false);
    if (M == 32)
      return Make(128, N / 4, false);
    return std::nullopt;
  }
  if (M == 64) {
    // Layout F: 16 lanes in each quarter, at the address's offset (0 or 16)
    // inside the quarter. AllQuarters with Lanes == 16 means "these 16
    // lanes of every quarter".
    return Make(16, N, true);
  }
  return std::nullopt;
}

} // namespace tmemcheck
