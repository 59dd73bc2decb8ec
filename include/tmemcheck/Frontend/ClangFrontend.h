//===- ClangFrontend.h - CUDA source to kernel event graphs -----*- C++ -*-===//
//
// Part of tmemcheck. Parses one CUDA translation unit on the device side and
// builds a KernelGraph for every kernel in it. The AST is gone when this
// returns: everything downstream works on the graphs. A caller that analyses
// each graph as it is built (the CLI) receives them one at a time instead,
// so that a file with a thousand kernels never holds a thousand graphs.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_FRONTEND_CLANGFRONTEND_H
#define TMEMCHECK_FRONTEND_CLANGFRONTEND_H

#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Frontend/AnalysisRoots.h"
#include "tmemcheck/Frontend/CudaEnvironment.h"
#include "tmemcheck/Model/UserApiModel.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
namespace tooling {
class CompilationDatabase;
}
} // namespace clang

namespace tmemcheck {

class PreludePch;

/// Bounds that keep the graph construction finite on any input, and the
/// project's own wrapper models that replace the bodies of calls.
struct FrontendLimits {
  /// The deepest inlining the graph builders follow, whatever MaxCallDepth
  /// says: they inline callees recursively on the native stack, which a few
  /// thousand levels overflow (a crash, found with a .ptx call chain and
  /// --max-call-depth=100000).
  static constexpr unsigned MaxSupportedCallDepth = 128;

  unsigned MaxCallDepth = 16; ///< inlining depth of device callees.
  unsigned MaxBlocksPerKernel = 200000;
  unsigned MaxEventsPerKernel = 500000;
  /// Wall time one kernel may take (AnalysisLimits::MaxKernelSeconds);
  /// building its graph uses the first part of it.
  double MaxKernelSeconds = AnalysisLimits::DefaultMaxKernelSeconds;
  /// The user API models of the file's config (`ApiModels:`); not owned,
  /// may be null.
  const UserApiModelTable *UserModels = nullptr;
  /// Entry points besides `__global__` functions, and the specialisations
  /// to instantiate (`Roots:`, `Instantiate:`).
  AnalysisRoots Roots;
  /// Lists the files the parse read in TranslationUnitResult::InputFiles
  /// (for the result cache).
  bool RecordInputFiles = false;
  /// The PCHs of the pre-included headers (not owned); null: every parse
  /// reads those headers itself.
  PreludePch *Prelude = nullptr;

  /// The inlining depth actually followed.
  unsigned callDepth() const {
    return MaxCallDepth < MaxSupportedCallDepth ? MaxCallDepth
                                                : MaxSupportedCallDepth;
  }
  /// The advice of the remark made when callDepth() is reached.
  const char *callDepthAdvice() const {
    return MaxCallDepth < MaxSupportedCallDepth ? "raise --max-call-depth"
                                                : "the largest depth supported";
  }
};

/// What one translation unit produced.
struct TranslationUnitResult {
  std::string File;
  /// False when Clang could not produce an AST at all (the file does not
  /// exist, the command is unusable): nothing was analysed.
  bool Parsed = false;
  unsigned CompileErrors = 0;
  std::string FirstError; ///< "file:line:col: message" of the first error.
  /// The compiler's errors as `file:line:col: error: message` lines, the
  /// first MaxKeptErrors of CompileErrors.
  std::vector<std::string> ErrorLines;
  static constexpr unsigned MaxKeptErrors = 50;
  /// Options of the file's compile commands that the translation does not
  /// know (NvccCommandLine.h); they were dropped.
  std::vector<std::string> UnknownOptions;
  /// Every file the parse read (the file and its include closure; not
  /// tmemcheck's embedded headers), by absolute path, when
  /// FrontendLimits::RecordInputFiles.
  std::vector<std::string> InputFiles;
  /// Number of tcgen05 instructions seen anywhere in device code.
  unsigned Tcgen05Instructions = 0;
  /// The graphs, unless they were handed to a KernelConsumer.
  std::vector<KernelGraph> Kernels;
  std::vector<AnalysisRemark> Remarks;
  /// Kernels whose analysis crashed (a tmemcheck bug), by name and where
  /// they start: the crash was contained (analyzePtxFile), the other
  /// kernels were analysed.
  std::vector<std::pair<std::string, SourceLoc>> CrashedKernels;
  /// Wall time of the whole front end (parse + graph construction) and of
  /// the graph construction alone, for --timing and the benchmarks.
  double FrontendSeconds = 0;
  double GraphSeconds = 0;
  /// Kernels analysed by several threads (analyzePtxFile): the parse time
  /// (GraphSeconds and the checks' time are then sums over the threads and
  /// overlap), and the threads.
  std::optional<double> ParseSeconds;
  unsigned Threads = 1;
  /// How the parse read the pre-included headers (FrontendLimits::Prelude),
  /// for --timing: the headers themselves (no PCH, the first parse of the
  /// command, or an unusable PCH, discarded), or a PCH built now or reused.
  enum class PreludeFrom {
    Headers,
    FirstParse,
    BuiltPch,
    ReusedPch,
    UnusablePch
  };
  PreludeFrom Prelude = PreludeFrom::Headers;
};

/// Receives each kernel graph as soon as it is built; the graph is dropped
/// when it returns. Called while the AST is alive, in source order.
using KernelConsumer = llvm::function_ref<void(KernelGraph &)>;

/// Builds the graphs of every kernel of an already parsed translation unit
/// (used by the CLI and by the clang-tidy plugin, which gets the AST from
/// clang-tidy): into \p Out.Kernels, or, when \p OnKernel is given, into
/// \p OnKernel one at a time. Out.GraphSeconds counts the construction
/// only, not the time spent in \p OnKernel.
void buildKernelGraphs(clang::ASTContext &Ctx, const FrontendLimits &Limits,
                       TranslationUnitResult &Out,
                       KernelConsumer OnKernel = nullptr);

/// The text appended to a file whose contents are \p Source for the
/// specialisations in \p Instantiations that it names: one device function
/// per specialisation that takes its address (so instantiates it). Empty
/// when the file names none of them.
std::string
instantiationsFor(llvm::StringRef Source,
                  const std::vector<TemplateInstantiation> &Instantiations);

/// The commands analyzeTranslationUnit would parse \p File with, as text:
/// the file's absolute path, and each command's directory and translated
/// arguments (for the result cache's key). Parses nothing.
std::string parseCommandsKey(const clang::tooling::CompilationDatabase &Db,
                             llvm::StringRef File, const CudaEnvironment &Env);

/// Parses \p File with its command from \p Db, adjusted by \p Env; the
/// graphs go to \p OnKernel as in buildKernelGraphs.
TranslationUnitResult
analyzeTranslationUnit(const clang::tooling::CompilationDatabase &Db,
                       llvm::StringRef File, const CudaEnvironment &Env,
                       const FrontendLimits &Limits,
                       KernelConsumer OnKernel = nullptr);

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_CLANGFRONTEND_H
