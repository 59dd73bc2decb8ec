//===- PtxFrontend.cpp - PTX module to kernel event graphs ----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/PtxFrontend.h"

#include "PtxGraphBuilder.h"
#include "PtxSourceMap.h"

#include "tmemcheck/Ptx/Module.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <chrono>

using namespace llvm;

namespace tmemcheck {

bool isPtxFile(StringRef Path) {
  return sys::path::extension(Path).equals_insensitive(".ptx");
}

TranslationUnitResult analyzePtxText(StringRef Text, StringRef Path,
                                     const FrontendLimits &Limits,
                                     KernelConsumer OnKernel) {
  auto Start = std::chrono::steady_clock::now();
  TranslationUnitResult Result;
  Result.File = Path.str();
  ptx::ParsedModule M = ptx::parsePtxModule(Text);
  PtxSourceMap Map(M, Text, Path.str());

  // Syntax errors leave the control flow or the operands uncertain: a
  // module with any is not analysed at all (a missed bug rather than a
  // false one).
  unsigned Errors = 0;
  for (const ptx::ParseDiagnostic &D : M.Body.Diagnostics) {
    if (D.Level != ptx::ParseDiagnostic::Severity::Error)
      continue;
    if (Errors++ == 0) {
      SourceLoc L = Map.ptxLoc(D.Range.Offset);
      Result.FirstError =
          fmt::format("{}:{}:{}: {}", L.File, L.Line, L.Column, D.Message);
    }
  }
  if (Errors) {
    Result.CompileErrors = Errors;
    if (Errors > 1)
      Result.FirstError += fmt::format(" (and {} more error{})", Errors - 1,
                                       Errors == 2 ? "" : "s");
    return Result;
  }
  Result.Parsed = true;
  // tcgen05 in the text, and in the graphs (user API models) below: a
  // kernel abandoned for its budget still counts.
  for (const ptx::Instruction &I : M.Body.Instructions)
    Result.Tcgen05Instructions += I.base() == "tcgen05";

  PtxGraphBuilder Builder(M, Map, Limits);
  double GraphSeconds = 0;
  for (unsigned F = 0; F < M.Functions.size(); ++F) {
    if (!M.Functions[F].IsEntry || !M.Functions[F].HasBody)
      continue;
    KernelGraph G = Builder.build(F);
    GraphSeconds += G.BuildSeconds;
    G.forEachEvent([&](const Event &E) {
      Result.Tcgen05Instructions += E.K == Event::Kind::Tmem;
    });
    if (OnKernel)
      OnKernel(G);
    else
      Result.Kernels.push_back(std::move(G));
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

TranslationUnitResult analyzePtxFile(StringRef File,
                                     const FrontendLimits &Limits,
                                     KernelConsumer OnKernel) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buf) {
    TranslationUnitResult Result;
    Result.File = File.str();
    Result.FirstError = "cannot read the file: " + Buf.getError().message();
    return Result;
  }
  return analyzePtxText((*Buf)->getBuffer(), File, Limits, OnKernel);
}

} // namespace tmemcheck
