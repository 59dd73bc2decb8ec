//===- OutOfBoundsCheck.cpp - tmem-out-of-bounds --------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/Lifecycle.h"
#include "tmemcheck/Model/Footprint.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags an access whose column footprint leaves its allocation or TMEM
/// itself (column 511), when the column offset, the footprint width and the
/// allocated column count are all known constants (rules §3, A1; bug class
/// 29). ptxas checks this only with -g-tmem-access-check, at run time.
class OutOfBoundsCheck : public Check {
public:
  OutOfBoundsCheck() : Check("tmem-out-of-bounds", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    G.forEachEvent([&](const Event &E) {
      if (E.K != Event::Kind::Tmem || !E.Op ||
          E.Op->Kind == TmemOpKind::Dealloc)
        return;
      std::optional<TmemRange> R = accessRange(E);
      if (!R || !R->Column || !R->Width || *R->Column < 0)
        return;
      const Region *Reg = L.region(R->Slot);
      if (!Reg || !Reg->Columns)
        return;
      int64_t End = *R->Column + *R->Width; // one past the last column
      if (End <= *Reg->Columns)
        return;
      std::string Kind = kindName(E.Op->Kind).str();
      Finding F = makeKernelLevelFinding(
          G, E,
          fmt::format("tcgen05.{} touches columns {}..{} of '{}', which has "
                      "{} columns allocated{} (rules §3)",
                      Kind, *R->Column, End - 1, Reg->Name, *Reg->Columns,
                      End > TmemColumns ? " and TMEM ends at column 511"
                                        : ""));
      F.Notes.push_back(
          {locationSeenFrom(*Reg->Allocs.front(), E),
           fmt::format("'{}' is allocated here with {} columns", Reg->Name,
                       *Reg->Columns)});
      Out.report(std::move(F));
    });
  }
};

} // namespace

std::unique_ptr<Check> createOutOfBoundsCheck() {
  return std::make_unique<OutOfBoundsCheck>();
}

} // namespace tmemcheck
