//===- PtxFrontend.cpp - PTX module to kernel event graphs ----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/PtxFrontend.h"

#include "PtxGraphBuilder.h"
#include "PtxSourceMap.h"

#include "tmemcheck/Ptx/Module.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

using namespace llvm;

namespace tmemcheck {

bool isPtxFile(StringRef Path) {
  return sys::path::extension(Path).equals_insensitive(".ptx");
}

namespace {

/// analyzePtxText, with the kernels handed to \p OnKernel on this thread
/// or, when \p Analyse is given, to it on up to \p Threads threads.
TranslationUnitResult analyzeModule(StringRef Text, StringRef Path,
                                    const FrontendLimits &Limits,
                                    KernelConsumer OnKernel,
                                    const ParallelKernelConsumer *Analyse,
                                    unsigned Threads) {
  auto Start = std::chrono::steady_clock::now();
  TranslationUnitResult Result;
  Result.File = Path.str();
  ptx::ParsedModule M = ptx::parsePtxModule(Text);
  PtxSourceMap Map(M, Text, Path.str());

  // A syntax error inside a function keeps that function from being
  // analysed (the graph builder says so in the kernel's remarks: a missed
  // bug rather than a false one); the other functions still are. Only a
  // module none of whose kernels could be read is a failure.
  unsigned Errors = M.ModuleScopeErrors;
  std::string FirstError;
  unsigned FirstErrorOffset = ~0u;
  auto NoteFirst = [&](const std::string &Msg, ptx::TextRange R) {
    if (R.Offset >= FirstErrorOffset)
      return;
    FirstErrorOffset = R.Offset;
    SourceLoc L = Map.ptxLoc(R.Offset);
    FirstError = fmt::format("{}:{}:{}: {}", L.File, L.Line, L.Column, Msg);
  };
  if (M.ModuleScopeErrors)
    NoteFirst(M.FirstModuleScopeErrorMessage, M.FirstModuleScopeErrorRange);
  unsigned Readable = 0, Entries = 0;
  for (const ptx::FunctionDecl &F : M.Functions) {
    Errors += F.Errors;
    if (F.Errors)
      NoteFirst(F.FirstErrorMessage, F.FirstErrorRange);
    if (F.IsEntry && F.HasBody) {
      ++Entries;
      Readable += F.Errors == 0;
    }
  }
  if (Errors && Readable == 0) {
    Result.CompileErrors = Errors;
    Result.FirstError = FirstError;
    if (Errors > 1)
      Result.FirstError += fmt::format(" (and {} more error{})", Errors - 1,
                                       Errors == 2 ? "" : "s");
    if (Entries)
      Result.FirstError +=
          fmt::format("; none of its {} kernel{} could be read", Entries,
                      Entries == 1 ? "" : "s");
    return Result;
  }
  Result.Parsed = true;
  auto ModuleRemark = [&](unsigned Offset, std::string Message) {
    Result.Remarks.push_back({Map.ptxLoc(Offset), std::move(Message)});
  };
  if (M.ModuleScopeErrors)
    ModuleRemark(
        M.FirstModuleScopeErrorRange.Offset,
        fmt::format("PTX syntax error outside the functions: {}{}; the "
                    "functions were analysed",
                    M.FirstModuleScopeErrorMessage,
                    M.ModuleScopeErrors > 1
                        ? fmt::format(" (and {} more)", M.ModuleScopeErrors - 1)
                        : std::string()));
  if (M.UnknownDirectives)
    ModuleRemark(M.FirstUnknownDirective.Offset,
                 fmt::format("{} unknown directive{} skipped (the first is "
                             "'{}')",
                             M.UnknownDirectives,
                             M.UnknownDirectives == 1 ? "" : "s",
                             Text.substr(M.FirstUnknownDirective.Offset,
                                         M.FirstUnknownDirective.Length)));
  if (M.Body.UnknownInstructions && M.Body.FirstUnknown >= 0) {
    const ptx::Instruction &I = M.Body.Instructions[M.Body.FirstUnknown];
    ModuleRemark(I.Range.Offset,
                 fmt::format("{} instruction{} with an opcode outside the "
                             "PTX ISA skipped (the first is '{}'); what "
                             "they write is taken as unknown",
                             M.Body.UnknownInstructions,
                             M.Body.UnknownInstructions == 1 ? "" : "s",
                             I.Opcode));
  }
  // tcgen05 in the text, and in the graphs (user API models) below: a
  // kernel abandoned for its budget still counts.
  for (const ptx::Instruction &I : M.Body.Instructions)
    Result.Tcgen05Instructions += I.base() == "tcgen05";

  std::vector<unsigned> Kernels;
  for (unsigned F = 0; F < M.Functions.size(); ++F)
    if (M.Functions[F].IsEntry && M.Functions[F].HasBody)
      Kernels.push_back(F);
  double GraphSeconds = 0;
  // A crash while one kernel is built or checked (a tmemcheck bug) costs
  // that kernel, on whichever thread it ran: the builder, which the crash
  // may have left half-way, is made again for the next one. Where the
  // driver has not enabled crash recovery this runs \p Work unprotected.
  // The graph of kernel \p F is kept outside the protected frame, whose
  // destructors a crash skips: it is freed, not leaked, either way.
  auto Contained = [&](std::optional<PtxGraphBuilder> &Builder, unsigned F,
                       function_ref<void(KernelGraph &)> Work) {
    if (!Builder)
      Builder.emplace(M, Map, Limits);
    std::optional<KernelGraph> Graph;
    llvm::CrashRecoveryContext CRC;
    if (CRC.RunSafely([&] {
          Graph.emplace(Builder->build(F));
          Work(*Graph);
        }))
      return true;
    Builder.reset();
    return false;
  };
  auto NoteCrash = [&](unsigned F) {
    const ptx::FunctionDecl &Fn = M.Functions[F];
    Result.CrashedKernels.push_back(
        {Fn.Name, Map.ptxLoc(Fn.NameRange.Offset)});
  };
  Threads = std::max(1u, std::min<unsigned>(Threads, Kernels.size()));
  if (Analyse && Threads > 1) {
    // Each thread takes the next kernel, with its own builder; the results
    // are applied in module order once all are done.
    struct Outcome {
      std::function<void()> Apply;
      double Seconds = 0;
      unsigned Tcgen05 = 0;
      bool Crashed = false;
    };
    Result.Threads = Threads;
    Result.ParseSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    std::vector<Outcome> Outcomes(Kernels.size());
    std::atomic<size_t> Next{0};
    auto Work = [&](unsigned Worker) {
      std::optional<PtxGraphBuilder> Builder;
      for (size_t K; (K = Next.fetch_add(1)) < Kernels.size();) {
        Outcome &O = Outcomes[K];
        O.Crashed = !Contained(Builder, Kernels[K], [&](KernelGraph &G) {
          O.Seconds = G.BuildSeconds;
          G.forEachEvent(
              [&](const Event &E) { O.Tcgen05 += E.K == Event::Kind::Tmem; });
          O.Apply = (*Analyse)(G, Worker);
        });
      }
    };
    std::vector<std::thread> Pool;
    for (unsigned W = 1; W < Threads; ++W)
      Pool.emplace_back(Work, W);
    Work(0);
    for (std::thread &T : Pool)
      T.join();
    for (size_t K = 0; K < Kernels.size(); ++K) {
      Outcome &O = Outcomes[K];
      GraphSeconds += O.Seconds;
      Result.Tcgen05Instructions += O.Tcgen05;
      if (O.Crashed)
        NoteCrash(Kernels[K]);
      else if (O.Apply)
        O.Apply();
    }
  } else {
    std::optional<PtxGraphBuilder> Builder;
    for (unsigned F : Kernels) {
      std::function<void()> Apply;
      if (!Contained(Builder, F, [&](KernelGraph &G) {
            GraphSeconds += G.BuildSeconds;
            G.forEachEvent([&](const Event &E) {
              Result.Tcgen05Instructions += E.K == Event::Kind::Tmem;
            });
            if (Analyse)
              Apply = (*Analyse)(G, 0);
            else if (OnKernel)
              OnKernel(G);
            else
              Result.Kernels.push_back(std::move(G));
          })) {
        NoteCrash(F);
        continue;
      }
      if (Apply)
        Apply();
    }
  }
  Result.GraphSeconds = GraphSeconds;
  if (Result.Tcgen05Instructions == 0)
    Result.Remarks.push_back(
        {SourceLoc{Result.File, 0, 0, false},
         "no tcgen05 instructions found in the kernels of this PTX module"});
  Result.FrontendSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Result;
}

/// Reads \p File and analyses it as analyzeModule does.
TranslationUnitResult analyzeFile(StringRef File, const FrontendLimits &Limits,
                                  KernelConsumer OnKernel,
                                  const ParallelKernelConsumer *Analyse,
                                  unsigned Threads) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buf) {
    TranslationUnitResult Result;
    Result.File = File.str();
    Result.FirstError = "cannot read the file: " + Buf.getError().message();
    return Result;
  }
  TranslationUnitResult Result = analyzeModule(
      (*Buf)->getBuffer(), File, Limits, OnKernel, Analyse, Threads);
  if (Limits.RecordInputFiles) {
    SmallString<256> Abs(File);
    sys::fs::make_absolute(Abs);
    Result.InputFiles.push_back(std::string(Abs));
  }
  return Result;
}

} // namespace

TranslationUnitResult analyzePtxText(StringRef Text, StringRef Path,
                                     const FrontendLimits &Limits,
                                     KernelConsumer OnKernel) {
  return analyzeModule(Text, Path, Limits, OnKernel, nullptr, 1);
}

TranslationUnitResult analyzePtxFile(StringRef File,
                                     const FrontendLimits &Limits,
                                     KernelConsumer OnKernel) {
  return analyzeFile(File, Limits, OnKernel, nullptr, 1);
}

TranslationUnitResult analyzePtxFile(StringRef File,
                                     const FrontendLimits &Limits,
                                     const ParallelKernelConsumer &Analyse,
                                     unsigned Threads) {
  return analyzeFile(File, Limits, nullptr, &Analyse, Threads);
}

} // namespace tmemcheck
