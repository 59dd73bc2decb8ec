//===- KernelBudget.cpp - Time and iteration bounds of one kernel ---------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/KernelBudget.h"

#include <fmt/format.h>

namespace tmemcheck {

KernelBudget::KernelBudget() = default;

KernelBudget::KernelBudget(const AnalysisLimits &L, double AlreadySpent)
    : Limits(L), Timed(true) {
  auto Left = std::chrono::duration<double>(
      std::max(0.0, L.MaxKernelSeconds - AlreadySpent));
  Deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(Left);
}

bool KernelBudget::exhausted() {
  if (Why != Exhaustion::None)
    return true;
  if (Timed && std::chrono::steady_clock::now() >= Deadline)
    Why = Exhaustion::Time;
  return Why != Exhaustion::None;
}

std::string KernelBudget::remark(llvm::StringRef KernelName) const {
  switch (Why) {
  case Exhaustion::Time:
    return fmt::format("time budget of {} s reached in kernel '{}'; its "
                       "analysis was abandoned and no findings are reported "
                       "for it (raise --max-kernel-seconds)",
                       Limits.MaxKernelSeconds, KernelName.str());
  case Exhaustion::LoopIterations:
    return fmt::format("loop-iteration bound of {} reached in kernel '{}' "
                       "before the dataflow settled; its analysis was "
                       "abandoned and no findings are reported for it (raise "
                       "--max-loop-iterations)",
                       Limits.MaxLoopIterations, KernelName.str());
  case Exhaustion::None:
    break;
  }
  return "";
}

} // namespace tmemcheck
