//===- PtxFrontendFuzzer.cpp - libFuzzer target for the PTX front end -----===//
//
// Part of tmemcheck. Feeds arbitrary bytes to the whole .ptx pipeline as the
// CLI runs it on a .ptx file: the module reader, the graph builder of every
// kernel (register values, per-thread values, inlining, the source map),
// every registered check and the resource report. None of it may crash,
// hang or trip a sanitizer on any input. The budgets are tight so that one
// input stays fast; running out of them is a fine outcome.
//
// Most byte-level mutations of a module are syntax errors, and a module with
// one is not analysed. So half of the mutations move whole lines instead
// (drop, duplicate, swap, copy over): the result still parses more often
// than not, and the control flow, the register definitions and the tcgen05
// instructions get shuffled into shapes the graph builder has to survive.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/AnalysisContext.h"
#include "tmemcheck/Checks/Check.h"
#include "tmemcheck/Checks/KernelCheckRun.h"
#include "tmemcheck/Frontend/PtxFrontend.h"
#include "tmemcheck/Report/ResourceReport.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace tmemcheck;

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

/// Moves whole lines of the module (see the file comment).
static size_t mutateLines(uint8_t *Data, size_t Size, size_t MaxSize,
                          std::minstd_rand &Rng) {
  std::vector<std::string> Lines;
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Lines.push_back(Line.str());
    Text = Rest;
  }
  if (Lines.empty())
    return 0;
  auto Pick = [&] { return size_t(Rng() % Lines.size()); };
  size_t A = Pick(), B = Pick();
  switch (Rng() % 4) {
  case 0:
    if (Lines.size() > 1)
      Lines.erase(Lines.begin() + A);
    break;
  case 1:
    Lines.insert(Lines.begin() + B, Lines[A]);
    break;
  case 2:
    std::swap(Lines[A], Lines[B]);
    break;
  default:
    Lines[B] = Lines[A];
    break;
  }
  std::string Out;
  for (const std::string &L : Lines)
    Out += L + '\n';
  if (Out.size() > MaxSize)
    return 0;
  memcpy(Data, Out.data(), Out.size());
  return Out.size();
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  std::minstd_rand Rng(Seed);
  if (Rng() % 2)
    if (size_t N = mutateLines(Data, Size, MaxSize, Rng))
      return N;
  return LLVMFuzzerMutate(Data, Size, MaxSize);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::vector<std::unique_ptr<Check>> *Checks = [] {
    auto *All = new std::vector<std::unique_ptr<Check>>;
    for (const CheckInfo &C : CheckRegistry::all())
      All->push_back(C.Create());
    return All;
  }();

  FrontendLimits Frontend;
  Frontend.MaxCallDepth = 3;
  Frontend.MaxBlocksPerKernel = 2000;
  Frontend.MaxEventsPerKernel = 2000;
  Frontend.MaxKernelSeconds = 2;
  AnalysisLimits Analysis;
  Analysis.MaxKernelSeconds = 2;
  Analysis.MaxLoopIterations = 50;

  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  // Half of the inputs assume co-resident CTAs (--assume-ctas-per-sm), so
  // that tmem-alloc-budget runs without `.minnctapersm` too.
  const unsigned AssumedCtasPerSm = Size % 2 ? 2 : 0;
  auto CheckKernel = [&](KernelGraph &G) {
    if (!G.CoResidentCtas && AssumedCtasPerSm) {
      G.CoResidentCtas = AssumedCtasPerSm;
      G.CoResidentCtasLoc = G.Loc;
      G.CoResidentCtasAssumed = true;
    }
    AnalysisContext Ctx(G, KernelBudget(Analysis, G.BuildSeconds));
    std::optional<KernelReport> KR;
    KernelCheckResult R =
        runKernelChecks(Ctx, *Checks, [&](AnalysisContext &A) {
          if (usesTmem(A.graph()))
            KR = buildResourceReport(A);
        });
    if (KR && !R.BudgetRemark) {
      llvm::raw_null_ostream Null;
      printResourceReport(Null, *KR);
      (void)resourceReportToJson(*KR);
    }
  };
  (void)analyzePtxText(Text, "fuzz.ptx", Frontend, CheckKernel);
  return 0;
}
