//===- PtxCoverage.cpp - The C++ front end checked against nvcc's PTX -----===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/PtxCoverage.h"

#include "tmemcheck/Frontend/CudaEnvironment.h"
#include "tmemcheck/Frontend/PtxFrontend.h"

#include "PtxSourceMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <fmt/format.h>

using namespace llvm;

namespace tmemcheck {

namespace {

/// Macros nvcc defines itself (the version, the arch macros): passing
/// tmemcheck's or the user's imitations on would redefine them.
bool isNvccMacro(StringRef Def) {
  StringRef Name = Def.split('=').first;
  return Name.starts_with("__CUDACC") || Name.starts_with("__CUDA_ARCH") ||
         Name.starts_with("__NVCC");
}

/// A kernel's qualified name without template arguments or parameters.
std::string baseName(StringRef Name) {
  Name.consume_front("void ");
  return Name.substr(0, Name.find_first_of("<(")).trim().str();
}

std::string positionOf(const SourceLoc &L) {
  return fmt::format("{}:{}", L.File, L.Line);
}

} // namespace

KernelCoverage KernelCoverage::of(const KernelGraph &G) {
  KernelCoverage C;
  C.Name = G.Name;
  G.forEachEvent([&](const Event &E) {
    if (E.K == Event::Kind::Tmem && E.Op)
      C.Lines[E.Op->Kind].insert(positionOf(E.Loc));
  });
  return C;
}

unsigned KernelCoverage::total() const {
  unsigned N = 0;
  for (const auto &[Kind, Lines] : this->Lines)
    N += Lines.size();
  return N;
}

std::vector<std::string>
nvccPtxCommand(StringRef Nvcc, const std::vector<std::string> &ParseCommand,
               StringRef GpuArch, StringRef OutPtx) {
  std::string Num = GpuArch.drop_front(3).str(); // "100a"
  std::vector<std::string> Out = {
      Nvcc.str(),
      "-ptx",
      "-lineinfo",
      "-w",
      "-gencode",
      "arch=compute_" + Num + ",code=sm_" + Num,
      "--expt-relaxed-constexpr",
      "--expt-extended-lambda",
  };
  std::string Source;
  for (size_t I = 1; I < ParseCommand.size(); ++I) {
    StringRef A = ParseCommand[I];
    auto Next = [&]() -> std::optional<StringRef> {
      if (I + 1 < ParseCommand.size())
        return StringRef(ParseCommand[++I]);
      return std::nullopt;
    };
    if (A == "-x") {
      Next();
      continue;
    }
    if (A == "-I" || A == "-isystem" || A == "-include" || A == "-D" ||
        A == "-U") {
      std::optional<StringRef> V = Next();
      if (!V || CudaEnvironment::isEmbeddedHeader(*V) ||
          ((A == "-D" || A == "-U") && isNvccMacro(*V)))
        continue;
      Out.push_back(A.str());
      Out.push_back(V->str());
      continue;
    }
    if (A.starts_with("-I") || A.starts_with("-isystem")) {
      StringRef Dir = A.starts_with("-I") ? A.drop_front(2) : A.drop_front(8);
      if (!CudaEnvironment::isEmbeddedHeader(Dir))
        Out.push_back(A.str());
      continue;
    }
    if (A.starts_with("-D") || A.starts_with("-U")) {
      if (!isNvccMacro(A.drop_front(2)))
        Out.push_back(A.str());
      continue;
    }
    if (A.starts_with("-std=")) {
      Out.push_back(A.str());
      continue;
    }
    if (!A.starts_with("-"))
      Source = A.str(); // the file comes last in the parse command
  }
  Out.push_back("-x");
  Out.push_back("cu");
  Out.push_back(Source);
  Out.push_back("-o");
  Out.push_back(OutPtx.str());
  return Out;
}

PtxCoverage collectPtxCoverage(const std::vector<std::string> &Command,
                               StringRef Directory, StringRef OutPtx,
                               unsigned TimeoutSeconds) {
  PtxCoverage P;
  SmallString<128> ErrPath;
  if (sys::fs::createTemporaryFile("tmemcheck-nvcc", "err", ErrPath)) {
    P.Error = "cannot create a temporary file for nvcc's messages";
    return P;
  }
  std::vector<StringRef> Args(Command.begin(), Command.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(ErrPath),
                                          StringRef(ErrPath)};
  // The command's relative paths are relative to the compile command's
  // directory: run nvcc there (through `sh -c 'cd "$0" && exec "$@"'`, the
  // process API having no working-directory argument).
  std::string ErrMsg;
  int RC;
  if (!Directory.empty() && Directory != ".") {
    std::string Script = "cd \"$0\" && exec \"$@\"";
    std::vector<StringRef> ShArgs = {"/bin/sh", "-c", Script, Directory};
    ShArgs.insert(ShArgs.end(), Args.begin(), Args.end());
    RC = sys::ExecuteAndWait("/bin/sh", ShArgs, std::nullopt, Redirects,
                             TimeoutSeconds, 0, &ErrMsg);
  } else {
    RC = sys::ExecuteAndWait(Command.front(), Args, std::nullopt, Redirects,
                             TimeoutSeconds, 0, &ErrMsg);
  }
  auto Err = MemoryBuffer::getFile(ErrPath);
  sys::fs::remove(ErrPath);
  if (RC != 0) {
    std::string First;
    if (Err) {
      SmallVector<StringRef, 16> Lines;
      (*Err)->getBuffer().split(Lines, '\n');
      for (StringRef L : Lines)
        if (L.contains("error")) {
          First = L.trim().str();
          break;
        }
    }
    P.Error = RC < 0 ? "nvcc did not run: " + ErrMsg
                     : fmt::format("nvcc failed (exit {}){}{}", RC,
                                   First.empty() ? "" : ": ", First);
    sys::fs::remove(OutPtx);
    return P;
  }
  FrontendLimits Limits;
  Limits.MaxCallDepth = FrontendLimits::MaxSupportedCallDepth;
  TranslationUnitResult R = analyzePtxFile(OutPtx, Limits, [&](KernelGraph &G) {
    KernelCoverage C = KernelCoverage::of(G);
    P.BySymbol[G.Symbol.empty() ? G.Name : G.Symbol] = std::move(C);
  });
  sys::fs::remove(OutPtx);
  if (!R.Parsed) {
    P.Error = "the PTX front end could not read nvcc's PTX: " + R.FirstError;
    return P;
  }
  P.Available = true;
  return P;
}

void applyPtxCoverage(KernelGraph &G, PtxCoverage &P) {
  if (!P.Available)
    return;
  auto It = G.Symbol.empty() ? P.BySymbol.end() : P.BySymbol.find(G.Symbol);
  // Clang mangles a `static` kernel (CUTLASS's CUTLASS_GLOBAL is
  // `__global__ static`) with internal linkage, `_ZN7cutlassL13device_…`;
  // nvcc's PTX entry has no `L`. The demangled names are the same.
  if (It == P.BySymbol.end() && !G.Symbol.empty()) {
    const std::string Want = displayName(G.Symbol, /*IsFunction=*/false);
    for (auto I = P.BySymbol.begin(); I != P.BySymbol.end(); ++I)
      if (!P.Paired.count(I->first) &&
          displayName(I->first, /*IsFunction=*/false) == Want) {
        It = I;
        break;
      }
  }
  // Two manglings of one specialisation may differ in details (how a
  // template argument of a class type is written): pair by the name without
  // its template arguments when exactly one unpaired PTX kernel has it.
  if (It == P.BySymbol.end() && !G.Symbol.empty()) {
    std::string Base = baseName(G.Name);
    auto Match = P.BySymbol.end();
    unsigned N = 0;
    for (auto I = P.BySymbol.begin(); I != P.BySymbol.end(); ++I)
      if (!P.Paired.count(I->first) && baseName(I->second.Name) == Base) {
        Match = I;
        ++N;
      }
    if (N == 1)
      It = Match;
  }
  KernelCoverage Cxx = KernelCoverage::of(G);
  if (It == P.BySymbol.end()) {
    if (Cxx.total())
      G.Remarks.push_back(
          {G.Loc, fmt::format("coverage check: '{}' has no kernel in nvcc's "
                              "PTX (a __device__ entry point or a template "
                              "pattern); not compared",
                              G.Name)});
    return;
  }
  P.Paired.insert(It->first);
  const KernelCoverage &Ptx = It->second;
  unsigned InPtx = 0, Recognised = 0;
  std::string Missing, Counts;
  for (const auto &[Kind, Lines] : Ptx.Lines) {
    unsigned Want = Lines.size();
    unsigned Have = 0;
    if (auto C = Cxx.Lines.find(Kind); C != Cxx.Lines.end())
      Have = C->second.size();
    InPtx += Want;
    Recognised += std::min(Have, Want);
    if (!Counts.empty())
      Counts += ", ";
    Counts +=
        fmt::format("{} {}/{}", kindName(Kind), std::min(Have, Want), Want);
    if (Have < Want) {
      if (!Missing.empty())
        Missing += ", ";
      Missing += fmt::format("{} ({} in the PTX, {} recognised)",
                             kindName(Kind), Want, Have);
    }
  }
  if (!InPtx)
    return;
  G.Remarks.push_back(
      {G.Loc,
       fmt::format("coverage check: {} of {} tcgen05 source lines of nvcc's "
                   "PTX recognised ({:.0f}%): {}",
                   Recognised, InPtx, 100.0 * Recognised / InPtx, Counts)});
  if (!Missing.empty())
    G.markIncomplete(
        G.Loc, fmt::format("nvcc's PTX of '{}' has tcgen05 operations that "
                           "the C++ front end did not recognise: {}",
                           G.Name, Missing));
}

std::vector<AnalysisRemark> unpairedPtxKernels(const PtxCoverage &P,
                                               StringRef File) {
  std::vector<AnalysisRemark> Out;
  if (!P.Available)
    return Out;
  for (const auto &[Symbol, C] : P.BySymbol) {
    if (P.Paired.count(Symbol) || !C.total())
      continue;
    AnalysisRemark R;
    R.Loc = SourceLoc{File.str(), 0, 0, false};
    R.Message = fmt::format("coverage check: nvcc's PTX has kernel '{}' with "
                            "{} tcgen05 source lines that the C++ front end "
                            "did not analyse",
                            C.Name, C.total());
    R.MakesIncomplete = true;
    Out.push_back(std::move(R));
  }
  return Out;
}

} // namespace tmemcheck
