//===- KernelBudget.h - Time and iteration bounds of one kernel -*- C++ -*-===//
//
// Part of tmemcheck. An editor or CI run must not hang on one kernel: every
// kernel gets a wall-time budget (graph construction, analyses and checks
// together) and a bound on how often the dataflow solver may go around a
// loop. Once either is used up the kernel's facts are incomplete, so
// nothing found in it may be reported; the driver says so in a remark.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_KERNELBUDGET_H
#define TMEMCHECK_ANALYSIS_KERNELBUDGET_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <string>

namespace tmemcheck {

/// The configurable bounds (--max-kernel-seconds, --max-loop-iterations,
/// or MaxKernelSeconds / MaxLoopIterations in .tmemcheck.yaml).
struct AnalysisLimits {
  static constexpr double DefaultMaxKernelSeconds = 60;
  static constexpr unsigned DefaultMaxLoopIterations = 1000;

  /// Wall time allowed for one kernel, in seconds; 0 means the budget is
  /// used up at once (for tests).
  double MaxKernelSeconds = DefaultMaxKernelSeconds;
  /// How many times the dataflow solver may visit one block of a kernel
  /// (first visit included) before it gives up on the kernel.
  unsigned MaxLoopIterations = DefaultMaxLoopIterations;
};

/// The budget of one kernel while it is analysed. It starts when the
/// kernel's graph construction starts; once used up it stays used up.
class KernelBudget {
public:
  /// Which bound ran out.
  enum class Exhaustion { None, Time, LoopIterations };

  /// No time limit, the default loop bound (for callers that analyse a
  /// single kernel outside the driver, such as the clang-tidy plugin).
  KernelBudget();
  /// \p AlreadySpent seconds of the time budget went into building the
  /// kernel's graph before the analyses start.
  KernelBudget(const AnalysisLimits &Limits, double AlreadySpent);

  /// True once a bound ran out. Reads the clock, so the solver calls it
  /// every few hundred steps rather than on every one.
  bool exhausted();
  /// True if a bound ran out the last time anybody looked (no clock read).
  bool wasExhausted() const { return Why != Exhaustion::None; }
  Exhaustion why() const { return Why; }

  unsigned maxLoopIterations() const { return Limits.MaxLoopIterations; }
  /// The solver visited one block more often than the loop bound allows.
  void loopBoundReached() {
    if (Why == Exhaustion::None)
      Why = Exhaustion::LoopIterations;
  }
  /// The time ran out before the analyses started (during graph
  /// construction).
  void timeRanOut() {
    if (Why == Exhaustion::None)
      Why = Exhaustion::Time;
  }

  /// The remark for a kernel whose budget ran out: names the kernel, the
  /// bound and the flag that raises it, and says its findings are dropped.
  std::string remark(llvm::StringRef KernelName) const;

private:
  AnalysisLimits Limits;
  bool Timed = false;
  std::chrono::steady_clock::time_point Deadline;
  Exhaustion Why = Exhaustion::None;
};

/// Checks a deadline cheaply: the clock is read on the first call and then
/// every \c Stride calls. Used where work is counted in small steps (CFG
/// blocks, events, solver visits).
class DeadlinePoller {
public:
  static constexpr unsigned Stride = 256;
  /// True when the clock was read and \p Budget has run out.
  bool expired(KernelBudget &Budget) {
    if (Budget.wasExhausted())
      return true;
    return Calls++ % Stride == 0 && Budget.exhausted();
  }

private:
  unsigned Calls = 0;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_KERNELBUDGET_H
