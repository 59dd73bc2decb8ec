//===- ReuseRaceCheck.cpp - tmem-reuse-race -------------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "FlowSteps.h"

#include "tmemcheck/Analysis/Lifecycle.h"
#include "tmemcheck/Analysis/ReuseOrdering.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// The name of the mbarrier an arrive or commit signals, for notes.
std::string mbarrierName(const Event &E) {
  int I = -1;
  if (E.K == Event::Kind::Tmem && E.Op)
    I = E.Op->MbarOperand;
  else if (E.K == Event::Kind::Sync && E.Sync)
    I = E.Sync->MbarOperand;
  if (I >= 0 && size_t(I) < E.Operands.size() &&
      !E.Operands[I].Value.SlotName.empty())
    return E.Operands[I].Value.SlotName;
  return "";
}

/// Flags a write of TMEM columns (tcgen05.st, an mma's D, cp or shift)
/// that comes round again after the columns were handed to readers in
/// other threads, without waiting for those readers to be done: the
/// epilogue's "empty" arrive, or the reading mma's commit, is never waited
/// on (rules §5.2, §5.3, bug class 32). Overwrites by the reading thread
/// itself are tmem-missing-wait-ld's; reads of an accumulator before the
/// mma's commit are tmem-accumulator-read-before-commit's.
class ReuseRaceCheck : public Check {
public:
  ReuseRaceCheck() : Check("tmem-reuse-race", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    for (const ReuseRace &R : Ctx.reuseOrdering().races()) {
      const AbstractValue *V = tmemAddressOperand(*R.Write);
      std::string Region = V ? V->SlotName : "?";
      std::string Write = kindName(R.Write->Op->Kind).str();
      bool MmaReader = R.Reader->Op->Kind == TmemOpKind::Mma;
      std::string Message;
      if (MmaReader)
        Message = fmt::format(
            "tcgen05.{} rewrites columns of '{}' that a tcgen05.mma of other "
            "threads may still be using: this thread never waits on a commit "
            "of that mma before writing them again (rules §5.2, §5.3; bug "
            "class 32)",
            Write, Region);
      else if (R.Release)
        Message = fmt::format(
            "tcgen05.{} rewrites columns of '{}' that the tcgen05.ld of "
            "other threads may still be reading: this thread never waits on "
            "the mbarrier they arrive on after the load before writing them "
            "again (rules §5.2, §5.3; bug class 32)",
            Write, Region);
      else
        Message = fmt::format(
            "tcgen05.{} rewrites columns of '{}' that the tcgen05.ld of "
            "other threads may still be reading: they signal nothing after "
            "the load, so nothing orders it before the write (rules §5.2, "
            "§5.3; bug class 32)",
            Write, Region);
      Finding F = makeKernelLevelFinding(G, *R.Write, std::move(Message));
      std::string Reader = kindName(R.Reader->Op->Kind).str();
      // The code flow: this thread hands the columns over, the other
      // threads read them (and signal), the write comes round again.
      addFlowStep(F, locationSeenFrom(*R.Handoff, *R.Write),
                  "this thread hands the columns to the other threads here");
      addFlowStep(
          F, locationSeenFrom(*R.Reader, *R.Write),
          fmt::format("the other threads' tcgen05.{} reads them", Reader));
      if (R.Release)
        addFlowStep(F, locationSeenFrom(*R.Release, *R.Write),
                    "they signal here that they are done; the writer does "
                    "not wait for it");
      F.Notes.push_back(
          {locationSeenFrom(*R.Reader, *R.Write),
           fmt::format("the tcgen05.{} of the other threads is here",
                       kindName(R.Reader->Op->Kind).str())});
      F.Notes.push_back({locationSeenFrom(*R.Handoff, *R.Write),
                         "the columns are handed to them here, and the "
                         "write comes round again after it"});
      if (R.Release) {
        std::string Bar = mbarrierName(*R.Release);
        F.Notes.push_back(
            {locationSeenFrom(*R.Release, *R.Write),
             Bar.empty()
                 ? std::string("they signal here; wait for it before the "
                               "write")
                 : fmt::format("they signal '{}' here; wait on it before the "
                               "write",
                               Bar)});
      }
      Out.report(std::move(F));
    }
  }
};

} // namespace

std::unique_ptr<Check> createReuseRaceCheck() {
  return std::make_unique<ReuseRaceCheck>();
}

} // namespace tmemcheck
