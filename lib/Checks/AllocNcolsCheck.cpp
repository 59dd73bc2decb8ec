//===- AllocNcolsCheck.cpp - tmem-alloc-ncols -----------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Model/Footprint.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags tcgen05.alloc / tcgen05.dealloc whose column count is a known
/// constant that is not a power of two in [32, 512] (rule A1). ptxas checks
/// only immediates of alloc (EXP-1); counts that reach the instruction in a
/// register — every CCCL and CUTLASS wrapper, template arguments, constexpr
/// variables — and dealloc immediates (EXP-3) pass it silently.
class AllocNcolsCheck : public Check {
public:
  AllocNcolsCheck() : Check("tmem-alloc-ncols", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    G.forEachEvent([&](const Event &E) {
      if (E.K != Event::Kind::Tmem || !E.Op)
        return;
      bool IsAlloc = E.Op->Kind == TmemOpKind::Alloc;
      if (!IsAlloc && E.Op->Kind != TmemOpKind::Dealloc)
        return;
      int Idx = E.Op->NColsOperand;
      if (Idx < 0 || static_cast<size_t>(Idx) >= E.Operands.size())
        return;
      const AbstractValue &V = E.Operands[Idx].Value;
      if (!V.Constant || isLegalAllocColumnCount(*V.Constant))
        return;
      int64_t N = *V.Constant;
      Finding F = makeKernelLevelFinding(
          G, E,
          fmt::format("tcgen05.{} {} {} columns; the column count must be a "
                      "power of two in [32, 512] (rule A1)",
                      IsAlloc ? "alloc" : "dealloc",
                      IsAlloc ? "requests" : "frees", N));
      // A dealloc must free what an alloc got; only an alloc has a "right"
      // size to suggest.
      if (IsAlloc) {
        std::optional<unsigned> Legal = roundUpToLegalAllocColumnCount(N);
        F.Notes.insert(F.Notes.begin(),
                       {F.Loc, Legal ? fmt::format("use {} columns, the next "
                                                   "legal size",
                                                   *Legal)
                                     : "a CTA can hold at most 512 columns"});
      }
      Out.report(std::move(F));
    });
  }
};

} // namespace

std::unique_ptr<Check> createAllocNcolsCheck() {
  return std::make_unique<AllocNcolsCheck>();
}

} // namespace tmemcheck
