//===- CtaGroupMismatchCheck.cpp - tmem-cta-group-mismatch ----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a kernel whose tcgen05 instructions, callees included, use both
/// `.cta_group::1` and `.cta_group::2` (rule A12). ptxas and nvlink reject
/// this too (EXP-4), but only at the end of a full build and, with -rdc, only
/// at device link; this check says it as the code is typed.
class CtaGroupMismatchCheck : public Check {
public:
  CtaGroupMismatchCheck() : Check("tmem-cta-group-mismatch", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    // In a template pattern `if constexpr (kNumCTAs == 1)` keeps both arms:
    // a ::1 and a ::2 instruction there are alternatives, not a mix.
    if (G.IsPattern)
      return;
    const Event *First = nullptr;
    const Event *Other = nullptr;
    // Events are numbered in program order of the inlined kernel.
    G.forEachEvent([&](const Event &E) {
      if (E.K != Event::Kind::Tmem || !E.Op ||
          E.Op->Group == CtaGroup::Unspecified)
        return;
      if (!First || E.Id < First->Id) {
        First = &E;
      }
    });
    if (!First)
      return;
    G.forEachEvent([&](const Event &E) {
      if (E.K != Event::Kind::Tmem || !E.Op ||
          E.Op->Group == CtaGroup::Unspecified ||
          E.Op->Group == First->Op->Group)
        return;
      if (!Other || E.Id < Other->Id)
        Other = &E;
    });
    if (!Other)
      return;
    Finding F = makeKernelLevelFinding(
        G, *Other,
        fmt::format("kernel '{}' mixes cta_group::1 and cta_group::2; every "
                    "tcgen05 instruction of a kernel must use the same "
                    "cta_group (rule A12)",
                    G.Name));
    F.Notes.push_back({First->kernelLoc(),
                       fmt::format("cta_group::{} first used here",
                                   static_cast<unsigned>(First->Op->Group))});
    Out.report(std::move(F));
  }
};

} // namespace

std::unique_ptr<Check> createCtaGroupMismatchCheck() {
  return std::make_unique<CtaGroupMismatchCheck>();
}

} // namespace tmemcheck
