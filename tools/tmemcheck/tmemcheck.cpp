//===- tmemcheck.cpp - The tmemcheck command-line driver ------------------===//
//
// Part of tmemcheck. The driver owns flags, file iteration, output and exit
// codes; the analysis lives in the libraries (like include-what-you-use
// keeps its driver apart from its analysis).
//
// Exit codes: 0 no findings, 1 findings, 2 the tool could not do its job.
//
//===----------------------------------------------------------------------===//

#include "BatchSummary.h"
#include "InputSelection.h"

#include "tmemcheck/Checks/Check.h"
#include "tmemcheck/Checks/CheckFilter.h"
#include "tmemcheck/Checks/KernelCheckRun.h"
#include "tmemcheck/Config/Config.h"
#include "tmemcheck/Driver/FileOutcome.h"
#include "tmemcheck/Driver/FileSettings.h"
#include "tmemcheck/Driver/KernelAnalysis.h"
#include "tmemcheck/Driver/ResultCache.h"
#include "tmemcheck/Frontend/ClangFrontend.h"
#include "tmemcheck/Frontend/CudaEnvironment.h"
#include "tmemcheck/Frontend/NvccCommandLine.h"
#include "tmemcheck/Frontend/PreludePch.h"
#include "tmemcheck/Frontend/PtxCoverage.h"
#include "tmemcheck/Frontend/PtxFrontend.h"
#include "tmemcheck/Lsp/LspProtocol.h"
#include "tmemcheck/Lsp/LspServer.h"
#include "tmemcheck/Report/Baseline.h"
#include "tmemcheck/Report/ExportFixes.h"
#include "tmemcheck/Report/Fingerprint.h"
#include "tmemcheck/Report/FixApplier.h"
#include "tmemcheck/Report/HtmlReport.h"
#include "tmemcheck/Report/MachineReports.h"
#include "tmemcheck/Report/ResourceReport.h"
#include "tmemcheck/Report/SarifMerge.h"
#include "tmemcheck/Report/Suppressions.h"
#include "tmemcheck/Report/TextPrinter.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#ifdef TMEMCHECK_WITH_MIMALLOC
#include <mimalloc.h>
#endif

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

using namespace llvm;
using namespace tmemcheck;

namespace {

constexpr int ExitClean = 0;
constexpr int ExitFindings = 1;
constexpr int ExitToolError = 2;

cl::OptionCategory Category("tmemcheck options");

cl::opt<std::string> Checks(
    "checks",
    cl::desc("Comma-separated globs of checks to enable or (with '-') "
             "disable, applied after the default set (every check that is "
             "not strict), like clang-tidy's --checks"),
    cl::init(""), cl::cat(Category));
cl::opt<std::string> ConfigFile(
    "config-file",
    cl::desc("Use this .tmemcheck.yaml for every file instead of the one "
             "found upward from each file"),
    cl::cat(Category));
cl::opt<bool> DumpConfig("dump-config",
                         cl::desc("Print the configuration that applies to "
                                  "the first file (or the current directory) "
                                  "and exit"),
                         cl::cat(Category));
cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors",
    cl::desc("Globs of checks whose warnings are reported as errors"),
    cl::init(""), cl::cat(Category));
cl::opt<bool> ListChecks("list-checks",
                         cl::desc("List the checks the --checks value "
                                  "enables and exit"),
                         cl::cat(Category));
cl::opt<std::string> GpuArch("gpu-arch",
                             cl::desc("tcgen05 target to parse for "
                                      "(default sm_100a)"),
                             cl::init("sm_100a"), cl::cat(Category));
cl::opt<std::string> Profile(
    "profile",
    cl::desc("Compiler environment the code expects: 'nvcc' (default: "
             "nvcc's version and arch macros, pre-included crt headers, "
             "-fms-extensions) or 'clang' (Clang's CUDA mode as it is); "
             "wins over Compat: Profile in .tmemcheck.yaml"),
    cl::init("nvcc"), cl::cat(Category));
cl::opt<bool> CoverageCheck(
    "coverage-check",
    cl::desc("Compile each CUDA file with nvcc -ptx too and compare the "
             "tcgen05 operations of each kernel by kind: a kind nvcc emits "
             "more of than tmemcheck recognised makes the kernel incomplete "
             "(also CoverageCheck: true in .tmemcheck.yaml)"),
    cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA installation to use (default: "
                                       "$CUDA_PATH, /usr/local/cuda, nvcc "
                                       "on PATH)"),
                              cl::cat(Category));
cl::opt<bool> NoCuda("no-cuda",
                     cl::desc("Ignore any CUDA installation and use the "
                              "embedded stub headers"),
                     cl::cat(Category));
cl::opt<std::string> ResourceDir("resource-dir",
                                 cl::desc("Clang resource directory "
                                          "(built-in headers)"),
                                 cl::cat(Category));
cl::opt<unsigned> MaxCallDepth("max-call-depth",
                               cl::desc("Inlining depth of device callees "
                                        "(default 16, at most 128)"),
                               cl::init(FrontendLimits().MaxCallDepth),
                               cl::cat(Category));
cl::opt<unsigned> MaxEvents("max-events",
                            cl::desc("Event budget per kernel (default "
                                     "500000)"),
                            cl::init(500000), cl::cat(Category));
cl::opt<bool> RequireComplete(
    "require-complete",
    cl::desc("A kernel that could not be analysed in full (a budget, a call "
             "without a body, tcgen05 text that could not be read, values "
             "that did not settle) keeps the run from exiting 0 (default "
             "true: exit 0 means every kernel was analysed and is clean); "
             "--require-complete=false lists such kernels but accepts them"),
    cl::init(true), cl::cat(Category));
cl::opt<unsigned> AssumeCtasPerSm(
    "assume-ctas-per-sm",
    cl::desc("Launch assumption: this many CTAs of each kernel resident on "
             "one SM at once, for kernels without a __launch_bounds__ "
             "min-blocks value (tmem-alloc-budget warns when their TMEM "
             "does not fit)"),
    cl::init(0), cl::cat(Category));
cl::opt<double> MaxKernelSeconds(
    "max-kernel-seconds",
    cl::desc("Wall-time budget of one kernel in seconds: building its graph, "
             "the analyses and the checks (default 60). A kernel over budget "
             "is abandoned with a remark and none of its findings are "
             "reported; 0 abandons every kernel"),
    cl::init(AnalysisLimits::DefaultMaxKernelSeconds), cl::cat(Category));
cl::opt<unsigned> MaxLoopIterations(
    "max-loop-iterations",
    cl::desc("How many times the dataflow analysis may visit one block of a "
             "kernel (going around its loops) before the kernel is abandoned "
             "with a remark and none of its findings are reported (default "
             "1000)"),
    cl::init(AnalysisLimits::DefaultMaxLoopIterations), cl::cat(Category));
cl::opt<unsigned> Jobs("j",
                       cl::desc("Analyse this many files in parallel "
                                "(default 1); one .ptx module given alone "
                                "has its kernels analysed by this many "
                                "threads"),
                       cl::init(1), cl::cat(Category));
cl::opt<bool> Quiet("quiet",
                    cl::desc("Do not print remarks about the analysis "
                             "itself, nor the closing summary (unless "
                             "--summary)"),
                    cl::cat(Category));
enum class OutputFormat { Text, Json, Sarif };
cl::opt<OutputFormat>
    Format("format", cl::desc("Output format"),
           cl::values(clEnumValN(OutputFormat::Text, "text",
                                 "clang-style diagnostics (default)"),
                      clEnumValN(OutputFormat::Json, "json", "a JSON array"),
                      clEnumValN(OutputFormat::Sarif, "sarif",
                                 "SARIF 2.1.0 for code scanning")),
           cl::init(OutputFormat::Text), cl::cat(Category));
enum class ReportKind { None, Text, Json, Html };
cl::opt<ReportKind> Report(
    "report", cl::desc("Print the TMEM resource report of every kernel"),
    cl::ValueOptional,
    cl::values(clEnumValN(ReportKind::Text, "text", "a table per kernel"),
               clEnumValN(ReportKind::Text, "", "same as text"),
               clEnumValN(ReportKind::Json, "json",
                          "{\"kernels\": [...]} after the findings"),
               clEnumValN(ReportKind::Html, "html",
                          "an HTML page with an SVG map of each kernel's "
                          "TMEM, after the findings")),
    cl::init(ReportKind::None), cl::cat(Category));
cl::opt<bool> ApplyFixes("fix",
                         cl::desc("Apply the fix-its of the reported findings "
                                  "to the files in place (all of a file's or "
                                  "none when they overlap)"),
                         cl::cat(Category));
cl::opt<std::string> ExportFixesFile(
    "export-fixes",
    cl::desc("Write the findings and their fix-its to this file as "
             "clang-tidy's export-fixes YAML (for clang-apply-replacements)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> SarifHelpBase(
    "sarif-help-base",
    cl::desc("Base URL of tmemcheck's docs/ directory for the SARIF rules' "
             "helpUri and help links (e.g. https://github.com/<org>/tmemcheck/"
             "blob/main/docs/)"),
    cl::value_desc("url"), cl::cat(Category));
cl::opt<std::string> SarifSrcRoot(
    "sarif-srcroot",
    cl::desc("Source root of the SARIF log (%SRCROOT% of its "
             "originalUriBaseIds): files under it get URIs relative to it, "
             "others absolute file URIs (default: the current directory; "
             "config: SarifSrcRoot)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoSnippets("no-snippets",
                         cl::desc("Do not print source lines under "
                                  "diagnostics"),
                         cl::cat(Category));

cl::opt<bool> Timing("timing",
                     cl::desc("Print per-file times of parsing, graph "
                              "construction and checks to stderr"),
                     cl::cat(Category));
cl::opt<std::string> BaselinePath(
    "baseline",
    cl::desc("Do not report findings whose fingerprint is in this baseline "
             "file (see --write-baseline)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> WriteBaselinePath(
    "write-baseline",
    cl::desc("Write the fingerprints of all findings of this run to this "
             "baseline file"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> ShardSpec(
    "shard",
    cl::desc("Analyse only shard K of N of the input files (files ranked by "
             "path, round-robin)"),
    cl::value_desc("K/N"), cl::cat(Category));
cl::opt<std::string> MergeSarif(
    "merge-sarif",
    cl::desc("Merge the SARIF logs given as inputs (the shards of a run) "
             "into one log written to this file ('-' for stdout), and exit"),
    cl::value_desc("out.sarif"), cl::cat(Category));
cl::opt<bool> Summary("summary",
                      cl::desc("Print the batch summary (files, kernels, "
                               "findings per check, failures, wall time) "
                               "even for one file or with --quiet"),
                      cl::cat(Category));
cl::opt<bool> Progress("progress",
                       cl::desc("Print a [k/N] progress line per file even "
                                "when stderr is not a terminal"),
                       cl::cat(Category));
cl::opt<bool> PrintParseCommand(
    "print-parse-command",
    cl::desc("Print the Clang command line each file is parsed with (one "
             "line per file, shell-quoted) and exit; running it with "
             "clang++ gives the parse that tmemcheck's overhead is measured "
             "against (bench/run.sh)"),
    cl::cat(Category));
cl::opt<bool> PrintStubHeader(
    "print-stub-header",
    cl::desc("Print the embedded CUDA stub header (for running the clang-tidy "
             "plugin where no CUDA is installed) and exit"),
    cl::Hidden, cl::cat(Category));
cl::opt<std::string> CrashForTesting(
    "crash-for-testing",
    cl::desc("Crash deliberately while analysing this file (tests the "
             "per-file crash isolation)"),
    cl::Hidden, cl::cat(Category));
cl::opt<std::string> CrashInKernelForTesting(
    "crash-in-kernel-for-testing",
    cl::desc("Crash deliberately while checking the kernel of this name "
             "(tests the per-kernel crash isolation of .ptx modules)"),
    cl::Hidden, cl::cat(Category));
cl::opt<bool> Lsp("lsp",
                  cl::desc("Run as a Language Server Protocol server on "
                           "stdin/stdout for editors (docs/editors.md): the "
                           "open buffers are analysed as they are edited; "
                           "the other flags apply to every file"),
                  cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Keep each file's results in this directory and reuse them "
             "while the file, everything it includes, its compile command, "
             "its config and the analysis options are unchanged: a re-audit "
             "of unchanged files parses nothing (config CacheDir; an empty "
             "value turns the cache off)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoPch(
    "no-pch",
    cl::desc("Parse the headers every CUDA file pre-includes (Clang's CUDA "
             "runtime wrapper, tmemcheck's nvcc profile) in every file "
             "instead of loading them precompiled (same results, slower)"),
    cl::cat(Category));
cl::opt<std::string> PchDir(
    "pch-dir",
    cl::desc("Where the precompiled pre-included headers are kept (default: "
             "tmemcheck-<version>-pch in the temporary directory)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> DumpEvents("dump-events",
                         cl::desc("Print the event graph of every kernel "
                                  "(for debugging tmemcheck)"),
                         cl::Hidden, cl::cat(Category));

cl::opt<std::string> BuildPath(
    "p",
    cl::desc("Build directory with compile_commands.json (or the JSON "
             "file itself)"),
    cl::value_desc("build-dir"), cl::cat(Category));
cl::list<std::string> SourcePaths(cl::Positional, cl::desc("<source files>"),
                                  cl::cat(Category));
cl::list<std::string> ExtraArgs("extra-arg",
                                cl::desc("Extra argument appended to every "
                                         "compile command"),
                                cl::cat(Category));
cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before",
    cl::desc("Extra argument put before the arguments of every compile "
             "command"),
    cl::cat(Category));
cl::list<std::string> RemovedArgs(
    "removed-arg",
    cl::desc("Argument removed from every compile command (before its "
             "translation and from it), like clang-tidy's --removed-arg"),
    cl::cat(Category));
cl::extrahelp MoreHelp(R"(
tmemcheck finds misuse of Blackwell tcgen05 Tensor Memory (TMEM) in CUDA
kernels: illegal column counts, mixed cta_groups, loads used before their
wait, and more (see docs/checks/).

Examples:
  tmemcheck kernel.cu
      Analyze one file for sm_100a with the detected CUDA installation.
  tmemcheck -p build/ src/gemm.cu src/attn.cu
      Use the compile commands of build/compile_commands.json.
  tmemcheck -p build/ --shard=2/4 --format=sarif > shard2.sarif
      Analyse the second quarter of the .cu files of the compile database.
  tmemcheck --merge-sarif=all.sarif shard1.sarif shard2.sarif
      Merge the SARIF logs of shards into one.
  tmemcheck --baseline=tmemcheck-baseline.json -p build/
      Report only findings that are not in the baseline (--write-baseline).
  tmemcheck kernel.cu -- -Iinclude -DUSE_TMEM=1
      Give compiler flags explicitly (nvcc-only flags are dropped).
  tmemcheck --checks='-*,tmem-alloc-ncols' kernel.cu
      Run one check.
  tmemcheck --checks='tmem-ld-use-before-wait' kernel.cu
      Add a strict check to the default set.
  tmemcheck --list-checks

Exit status: 0 no findings, 1 findings, 2 tmemcheck could not do its job
(bad flags, unreadable input, a file that did not compile).
)");

/// Where the check pages are for the language server's links: the docs
/// installed next to the executable (<prefix>/share/doc/tmemcheck), else
/// those of the source tree it was built from; empty when neither exists.
std::string defaultDocsBase(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&defaultDocsBase));
  SmallString<256> Installed(
      sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "share", "doc", "tmemcheck");
  for (StringRef Dir : {StringRef(Installed), StringRef(TMEMCHECK_DOCS_DIR)}) {
    SmallString<256> Page(Dir);
    sys::path::append(Page, "checks", "tmem-leak.md");
    if (sys::fs::exists(Page))
      return lsp::pathToUri(Dir);
  }
  return "";
}

void printVersion(raw_ostream &OS) {
  OS << "tmemcheck " << TMEMCHECK_VERSION << " (LLVM " << LLVM_VERSION_STRING
     << ")\n";
#ifdef TMEMCHECK_WITH_MIMALLOC
  // mi_version() is 209 for 2.0.9. Calling it also keeps the library a
  // dependency under --as-needed, which is what makes it the allocator.
  int V = mi_version();
  OS << "allocator: mimalloc " << V / 100 << "." << V / 10 % 10 << "." << V % 10
     << "\n";
#else
  OS << "allocator: the C library's\n";
#endif
#ifdef TMEMCHECK_STATIC_LLVM_LINKED
  OS << "LLVM and Clang: linked statically\n";
#else
  OS << "LLVM and Clang: shared libraries\n";
#endif
}

/// Loads the compilation database: `-p` if given (its failure is an
/// error), else one found above the first source, else none (flags from
/// `--` only). Files missing from a database get a command interpolated from
/// their neighbours, as clangd does.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadCompilations(std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
                 const std::vector<std::string> &Sources, std::string &Error) {
  using namespace clang::tooling;
  if (Fixed)
    return Fixed;
  std::unique_ptr<CompilationDatabase> Db;
  if (!BuildPath.empty()) {
    std::string Err;
    SmallString<256> Json(BuildPath);
    if (sys::fs::is_directory(BuildPath))
      sys::path::append(Json, "compile_commands.json");
    if (sys::fs::exists(Json))
      Db = JSONCompilationDatabase::loadFromFile(
          Json, Err, JSONCommandLineSyntax::AutoDetect);
    else
      Db = CompilationDatabase::loadFromDirectory(BuildPath, Err);
    if (!Db) {
      std::string OneLine = StringRef(Err).trim().str();
      std::replace(OneLine.begin(), OneLine.end(), '\n', ' ');
      Error = "cannot load compilation database '" + std::string(Json) +
              "': " + OneLine;
      return nullptr;
    }
  } else if (!Sources.empty()) {
    std::string Err;
    Db = CompilationDatabase::autoDetectFromSource(Sources.front(), Err);
  }
  if (!Db)
    return std::make_unique<FixedCompilationDatabase>(
        ".", std::vector<std::string>());
  return withInterpolatedCommands(std::move(Db));
}

void dumpGraph(const KernelGraph &G, raw_ostream &OS) {
  AnalysisContext Ctx(G);
  ThreadConditions &Threads = Ctx.threads();
  OS << "kernel " << G.Name << (G.IsPattern ? " (pattern)" : "") << ": "
     << G.Blocks.size() << " blocks, entry " << G.Entry << ", exit " << G.Exit
     << '\n';
  for (unsigned B = 0; B < G.Blocks.size(); ++B) {
    const Block &Blk = G.Blocks[B];
    if (Blk.Events.empty() && Blk.Succs.size() <= 1 && !Blk.BranchUniformity)
      continue;
    OS << "  block " << B << " ->";
    for (unsigned S : Blk.Succs)
      OS << ' ' << S;
    for (const auto &[Key, Arm] : Threads.of(B))
      OS << " [" << Key << (Arm == 0 ? "" : " false") << ']';
    if (Blk.BranchUniformity)
      OS << "  branch uniformity " << static_cast<int>(*Blk.BranchUniformity);
    if (Blk.BranchUniformity == Uniformity::CtaUniform &&
        !Blk.BranchKey.empty())
      OS << " on " << Blk.BranchKey;
    if (Blk.LoopRunsAtLeastOnce)
      OS << "  loop runs at least once";
    OS << '\n';
    for (const Event &E : Blk.Events) {
      SourceLoc L = E.userLoc();
      OS << fmt::format("    #{} {}:{} ", E.Id, L.Line, L.Column);
      if (E.K == Event::Kind::VariableRead) {
        OS << "read " << E.VariableName << '\n';
        continue;
      }
      if (E.K == Event::Kind::SlotRead) {
        OS << "slot-read " << E.VariableName << '\n';
        continue;
      }
      if (E.K == Event::Kind::Return) {
        OS << "return\n";
        continue;
      }
      if (E.Guarded)
        OS << "@guarded ";
      OS << E.Opcode;
      for (const OperandValue &V : E.Operands) {
        auto Opt = [](const std::optional<int64_t> &O) {
          return O ? std::to_string(*O) : std::string("?");
        };
        // `{0,128}`: one of a few values.
        auto OneOf = [](const std::vector<int64_t> &Cs) {
          if (Cs.empty())
            return std::string("?");
          std::string S = "{";
          for (int64_t C : Cs)
            S += (S.size() > 1 ? "," : "") + std::to_string(C);
          return S + "}";
        };
        // `[16..112]`: somewhere in these bounds; `<256`: of a CuTe tensor
        // spanning the columns below 256.
        auto Bounds = [](const std::optional<IntRange> &R,
                         const std::optional<int64_t> &SpanEnd) {
          std::string S =
              "[" + std::to_string(R->Lo) + ".." + std::to_string(R->Hi) + "]";
          if (SpanEnd)
            S += "<" + std::to_string(*SpanEnd);
          return S;
        };
        // `&smem+114824`, `&smem+8+?` (an index of unknown value added).
        // `&smem+72`, `&smem+32+?` (a stage index added), `&smem+{114808,
        // 114824}` (a role's own barrier).
        if (V.Value.isSlotAddress())
          OS << " &" << V.Value.SlotName
             << (V.Value.SlotRunStart && *V.Value.SlotRunStart
                     ? "+" + std::to_string(*V.Value.SlotRunStart)
                 : V.Value.SlotRunStartByThread
                     ? "+" + OneOf(normalizeChoices(
                                 *V.Value.SlotRunStartByThread,
                                 V.Value.SlotRunStartByThread->size()))
                     : std::string())
             << (V.Value.SlotIndexed ? "+?" : "")
             // A barrier of an object each role picks: in N arrays.
             << (V.Value.SlotArrayByThread
                     ? " (one of " +
                           std::to_string(
                               std::set<uint64_t>(
                                   V.Value.SlotArrayByThread->begin(),
                                   V.Value.SlotArrayByThread->end())
                                   .size()) +
                           " arrays by thread)"
                     : std::string());
        else if (V.Value.isTmemAddress())
          OS << " tmem(" << V.Value.SlotName << "+l" << Opt(V.Value.LaneOffset)
             << ",c"
             << (V.Value.ColumnOffset ? Opt(V.Value.ColumnOffset)
                 : V.Value.ColumnRange
                     ? Bounds(V.Value.ColumnRange, V.Value.ColumnSpanEnd)
                     : OneOf(V.Value.ColumnChoices))
             << ')';
        else if (!V.Value.Constant && V.Value.Choices.empty() && V.Value.Range)
          OS << " " << Bounds(V.Value.Range, std::nullopt);
        else if (!V.Value.Constant && V.Value.LowHalfRange)
          OS << " lo" << Bounds(V.Value.LowHalfRange, V.Value.ColumnSpanEnd);
        else
          OS << (V.Value.Constant ? " =" + std::to_string(*V.Value.Constant)
                                  : " " + OneOf(V.Value.Choices));
        if (!V.Elements.empty())
          OS << '{' << V.Elements.size() << '}';
        // `~3`: known thread by thread, 3 distinct values (`~+3`: over a
        // warp-uniform base).
        if (V.Value.PerThread) {
          std::set<int64_t> Distinct(V.Value.PerThread->begin(),
                                     V.Value.PerThread->end());
          OS << '~' << (V.Value.PerThreadExact ? "" : "+") << Distinct.size();
        }
      }
      OS << '\n';
    }
  }
}

} // namespace

/// Writes the embedded headers (the nvcc profile, the CUDA stub) under a
/// directory of the system's temporary directory, so that a printed parse
/// command runs as is; returns the directory that stands for
/// CudaEnvironment::embeddedHeaderRoot().
Expected<std::string> materialiseEmbeddedHeaders() {
  SmallString<256> Root;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Root);
  sys::path::append(Root, "tmemcheck-" TMEMCHECK_VERSION "-headers");
  for (auto [Name, Contents] : CudaEnvironment::embeddedHeaders()) {
    SmallString<256> Path(Root);
    sys::path::append(Path, Name);
    if (std::error_code EC =
            sys::fs::create_directories(sys::path::parent_path(Path)))
      return createStringError(EC, "cannot create '" +
                                       sys::path::parent_path(Path) +
                                       "': " + EC.message());
    // Renamed into place: concurrent runs never see half a header.
    if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
          OS << Contents;
          return Error::success();
        }))
      return std::move(E);
  }
  sys::path::append(Root, CudaEnvironment::embeddedHeaderRoot());
  return std::string(Root);
}

/// How the parse read the pre-included headers, for --timing.
const char *preludeNote(TranslationUnitResult::PreludeFrom From) {
  switch (From) {
  case TranslationUnitResult::PreludeFrom::Headers:
    return "";
  case TranslationUnitResult::PreludeFrom::FirstParse:
    return ", prelude headers parsed (first parse of this command; the next "
           "builds their PCH)";
  case TranslationUnitResult::PreludeFrom::BuiltPch:
    return ", prelude PCH built";
  case TranslationUnitResult::PreludeFrom::ReusedPch:
    return ", prelude PCH reused";
  case TranslationUnitResult::PreludeFrom::UnusablePch:
    return ", prelude PCH unusable (discarded; headers parsed)";
  }
  return "";
}

/// What decides every file's results besides its own inputs: the tool
/// build \p Tool, the working directory, the environment variables the
/// parse reads, and the command line without the
/// input files and the options that only choose what is printed and where
/// (an option added later is part of the key until it is listed here:
/// a needless miss rather than a stale hit).
std::string runCacheKey(StringRef Tool, int Argc, const char **Argv) {
  static constexpr StringRef OutputOnly[] = {
      "format",        "quiet",    "timing",         "progress",
      "summary",       "j",        "no-snippets",    "sarif-help-base",
      "sarif-srcroot", "baseline", "write-baseline", "export-fixes",
      "fix",           "shard",    "cache-dir",      "no-pch",
      "pch-dir"};
  static constexpr StringRef TakesValue[] = {
      "format",        "j",        "sarif-help-base",
      "sarif-srcroot", "baseline", "write-baseline",
      "export-fixes",  "shard",    "cache-dir",
      "pch-dir"};
  SmallString<256> Cwd;
  (void)sys::fs::current_path(Cwd);
  std::string Key = fmt::format("{}\ncwd {}\n", Tool.str(), Cwd.str());
  // The environment the parse reads: Clang's include path variables, and
  // what finds the CUDA installation and Clang's resource directory.
  for (const char *Var : {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
                          "CUDA_PATH", "CUDA_HOME", "TMEMCHECK_RESOURCE_DIR"})
    if (const char *Value = std::getenv(Var))
      Key += fmt::format("env {}={}\n", Var, Value);
  std::set<StringRef> Inputs(SourcePaths.begin(), SourcePaths.end());
  bool CompileFlags = false; // after `--`
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (!CompileFlags) {
      if (A == "--") {
        CompileFlags = true;
      } else if (A.starts_with("-")) {
        auto [Name, Value] = A.ltrim('-').split('=');
        bool Jobs = Name.size() > 1 && Name.front() == 'j' &&
                    llvm::all_of(Name.drop_front(), llvm::isDigit);
        if (Jobs)
          continue;
        if (llvm::is_contained(OutputOnly, Name)) {
          if (!A.contains('=') && llvm::is_contained(TakesValue, Name))
            ++I;
          continue;
        }
      } else if (Inputs.count(A)) {
        continue;
      }
    }
    Key += "arg ";
    Key += A;
    Key += '\n';
  }
  return Key;
}

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(Category);

  // Flags after `--` form a fixed compilation database (clang-tidy style).
  // They are taken verbatim: nvcc-only flags are translated later, per
  // command, so the driver must not reject them here.
  int Argc = argc;
  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed;
  std::vector<std::string> FixedArgs;
  for (int I = 1; I < argc; ++I) {
    if (StringRef(argv[I]) != "--")
      continue;
    FixedArgs.assign(argv + I + 1, argv + argc);
    Fixed = std::make_unique<clang::tooling::FixedCompilationDatabase>(
        ".", FixedArgs);
    Argc = I;
    break;
  }
  if (!cl::ParseCommandLineOptions(
          Argc, argv,
          "tmemcheck: static analysis of tcgen05 Tensor Memory use in CUDA "
          "kernels\n",
          &errs()))
    return ExitToolError;
  const auto RunStart = std::chrono::steady_clock::now();
  for (const cl::opt<std::string> *O : {&BaselinePath, &WriteBaselinePath,
                                        &ShardSpec, &MergeSarif, &SarifSrcRoot})
    if (O->getNumOccurrences() && O->empty()) {
      errs() << "tmemcheck: error: --" << O->ArgStr << " needs a value\n";
      return ExitToolError;
    }

  if (Report == ReportKind::Html && Format != OutputFormat::Text) {
    errs() << "tmemcheck: error: --report=html writes the HTML page to "
              "stdout, which --format=json or sarif also needs; run them "
              "separately\n";
    return ExitToolError;
  }

  if (!MergeSarif.empty()) {
    std::vector<std::string> Logs(SourcePaths.begin(), SourcePaths.end());
    if (Error E = mergeSarifFiles(Logs, MergeSarif)) {
      errs() << "tmemcheck: error: " << toString(std::move(E)) << '\n';
      return ExitToolError;
    }
    return ExitClean;
  }

  // Checks come from the nearest .tmemcheck.yaml, then --checks (clang-tidy
  // order: the command line wins).
  ConfigFinder Configs(ConfigFile);
  // A flag given on the command line wins over the file's config.
  SettingOverrides Overrides;
  Overrides.Checks = Checks;
  Overrides.WarningsAsErrors = WarningsAsErrors;
  auto IfGiven = [](const auto &Flag) {
    using T = std::decay_t<decltype(Flag.getValue())>;
    return Flag.getNumOccurrences() ? std::optional<T>(Flag.getValue())
                                    : std::nullopt;
  };
  Overrides.MaxCallDepth = IfGiven(MaxCallDepth);
  Overrides.MaxEvents = IfGiven(MaxEvents);
  Overrides.MaxKernelSeconds = IfGiven(MaxKernelSeconds);
  Overrides.MaxLoopIterations = IfGiven(MaxLoopIterations);
  Overrides.AssumeCtasPerSm = IfGiven(AssumeCtasPerSm);
  Overrides.CoverageCheck = IfGiven(CoverageCheck);
  Overrides.RequireComplete = IfGiven(RequireComplete);
  Overrides.GpuArchGiven = GpuArch.getNumOccurrences() > 0;
  Overrides.ProfileGiven = Profile.getNumOccurrences() > 0;
  std::set<std::string> UnmatchedGlobs;
  auto FiltersFor = [&](const Config &C, CheckFilter &Enabled,
                        CheckFilter &AsErrors) -> bool {
    std::vector<std::string> Unmatched;
    if (Error E = checkFiltersFor(C, Overrides, Enabled, AsErrors, Unmatched)) {
      errs() << "tmemcheck: error: " << toString(std::move(E)) << '\n';
      return false;
    }
    UnmatchedGlobs.insert(Unmatched.begin(), Unmatched.end());
    return true;
  };
  const std::string ReferenceFile =
      SourcePaths.empty() ? std::string("./.") : SourcePaths.front();
  llvm::Expected<Config> Reference = Configs.forFile(ReferenceFile);
  if (!Reference) {
    // --dump-config and --list-checks are about this config; an analysis
    // goes on with the files whose config loads (each file with a broken
    // one is reported as failed below).
    if (DumpConfig || ListChecks) {
      errs() << "tmemcheck: error: " << toString(Reference.takeError()) << '\n';
      return ExitToolError;
    }
    consumeError(Reference.takeError());
    Reference = Config();
  }
  std::set<std::string> Warned;
  auto WarnUnmatched = [&] {
    for (const std::string &G : UnmatchedGlobs)
      if (Warned.insert(G).second)
        errs() << "tmemcheck: warning: check glob '" << G
               << "' matches no check (see --list-checks)\n";
  };
  CheckFilter Filter, AsErrorsFilter;
  if (!FiltersFor(*Reference, Filter, AsErrorsFilter))
    return ExitToolError;
  WarnUnmatched();
  if (!std::isfinite(MaxKernelSeconds) || MaxKernelSeconds < 0) {
    errs() << "tmemcheck: error: --max-kernel-seconds must be a number of "
              "seconds, 0 or more\n";
    return ExitToolError;
  }
  if (DumpConfig) {
    Config Effective = *Reference;
    if (MaxCallDepth.getNumOccurrences())
      Effective.MaxCallDepth = MaxCallDepth;
    if (MaxEvents.getNumOccurrences())
      Effective.MaxEvents = MaxEvents;
    if (MaxKernelSeconds.getNumOccurrences())
      Effective.MaxKernelSeconds = MaxKernelSeconds;
    if (MaxLoopIterations.getNumOccurrences())
      Effective.MaxLoopIterations = MaxLoopIterations;
    if (AssumeCtasPerSm.getNumOccurrences())
      Effective.AssumeCtasPerSm = AssumeCtasPerSm;
    if (RequireComplete.getNumOccurrences())
      Effective.RequireComplete = RequireComplete;
    if (SarifSrcRoot.getNumOccurrences())
      Effective.SarifSrcRoot = SarifSrcRoot;
    if (SarifHelpBase.getNumOccurrences())
      Effective.SarifHelpBase = SarifHelpBase;
    if (GpuArch.getNumOccurrences()) {
      if (!Effective.Compat)
        Effective.Compat.emplace();
      Effective.Compat->GpuArch = GpuArch;
    }
    Effective.Checks =
        Reference->Checks.empty()
            ? std::string(Checks)
            : Reference->Checks + (Checks.empty() ? "" : "," + Checks);
    if (!WarningsAsErrors.empty())
      Effective.WarningsAsErrors +=
          (Effective.WarningsAsErrors.empty() ? "" : ",") + WarningsAsErrors;
    outs() << configToYaml(Effective);
    return ExitClean;
  }

  if (PrintStubHeader) {
    outs() << CudaEnvironment::stubHeaderContents();
    return ExitClean;
  }

  if (ListChecks) {
    std::vector<const CheckInfo *> Sorted;
    for (const CheckInfo &C : CheckRegistry::all())
      Sorted.push_back(&C);
    llvm::sort(Sorted, [](const CheckInfo *A, const CheckInfo *B) {
      return A->Name < B->Name;
    });
    outs() << "Enabled checks:\n";
    for (const CheckInfo *C : Sorted)
      if (Filter.isEnabled(C->Name))
        outs() << "    " << C->Name << "\n";
    outs() << "\nAll checks:\n";
    for (const CheckInfo *CP : Sorted) {
      const CheckInfo &C = *CP;
      outs() << fmt::format("    {:<36} {:<8}{} {}\n", C.Name,
                            severityName(C.DefaultSeverity).str(),
                            C.Strict ? " strict" : "", C.Summary);
    }
    return ExitClean;
  }

  // Like clang-tidy: a run that checks nothing is a configuration error, not
  // a clean result (unless it asks for the resource report alone).
  auto EnablesNoCheck = [](const CheckFilter &F) {
    return Report == ReportKind::None &&
           llvm::none_of(CheckRegistry::all(), [&](const CheckInfo &C) {
             return F.isEnabled(C.Name);
           });
  };
  if (EnablesNoCheck(Filter)) {
    errs() << "tmemcheck: error: no checks enabled (--checks='" << Checks << "'"
           << (Reference->Path.empty() ? "" : ", " + Reference->Path)
           << "; see --list-checks)\n";
    return ExitToolError;
  }

  std::optional<Shard> OnlyShard;
  if (!ShardSpec.empty()) {
    Expected<Shard> S = parseShard(ShardSpec);
    if (!S) {
      errs() << "tmemcheck: error: " << toString(S.takeError()) << '\n';
      return ExitToolError;
    }
    OnlyShard = *S;
  }
  Expected<std::unique_ptr<BaselineFilter>> Baselines =
      BaselineFilter::create(BaselinePath, WriteBaselinePath);
  if (!Baselines) {
    errs() << "tmemcheck: error: " << toString(Baselines.takeError()) << '\n';
    return ExitToolError;
  }

  FrontendOptions FOpts;
  FOpts.GpuArch = GpuArch;
  FOpts.CudaPath = CudaPath;
  FOpts.ResourceDir = ResourceDir;
  FOpts.NoCuda = NoCuda;
  FOpts.GpuArchExplicit = GpuArch.getNumOccurrences() > 0;
  if (Profile != "nvcc" && Profile != "clang") {
    errs() << "tmemcheck: error: --profile must be 'nvcc' or 'clang', not '"
           << Profile << "'\n";
    return ExitToolError;
  }
  FOpts.NvccProfile = Profile == "nvcc";
  FOpts.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  FOpts.ExtraArgsBefore.assign(ExtraArgsBefore.begin(), ExtraArgsBefore.end());
  FOpts.RemovedArgs.assign(RemovedArgs.begin(), RemovedArgs.end());
  std::string EnvError;
  std::optional<CudaEnvironment> Env = CudaEnvironment::detect(FOpts, EnvError);
  if (!Env) {
    errs() << "tmemcheck: error: " << EnvError << '\n';
    return ExitToolError;
  }
  if (Lsp) {
    if (!SourcePaths.empty()) {
      errs() << "tmemcheck: error: --lsp takes no input files: the editor "
                "opens them\n";
      return ExitToolError;
    }
    lsp::ServerOptions SO(*Env, Overrides);
    SO.ConfigFile = ConfigFile;
    SO.BuildPath = BuildPath;
    if (Fixed)
      SO.FixedArgs = FixedArgs;
    SO.HelpBase =
        SarifHelpBase.getNumOccurrences()
            ? std::string(SarifHelpBase)
            : Reference->SarifHelpBase.value_or(defaultDocsBase(argv[0]));
    SO.Version = TMEMCHECK_VERSION;
    SO.CrashInKernel = CrashInKernelForTesting;
    return lsp::runLanguageServer(std::move(SO), stdin, outs());
  }

  std::vector<std::string> Sources(SourcePaths.begin(), SourcePaths.end());
  if (Sources.empty() && BuildPath.empty()) {
    errs() << "tmemcheck: error: no input files (see --help)\n";
    return ExitToolError;
  }
  std::string DbError;
  std::unique_ptr<clang::tooling::CompilationDatabase> Compilations =
      loadCompilations(std::move(Fixed), Sources, DbError);
  if (!Compilations) {
    errs() << "tmemcheck: error: " << DbError << '\n';
    return ExitToolError;
  }
  // `-p <dir>` alone: every CUDA source of the database.
  if (Sources.empty()) {
    Sources = cudaSourcesOf(*Compilations);
    if (Sources.empty()) {
      errs() << "tmemcheck: error: no input files, and no file compiled as "
                "CUDA in the "
                "compilation database of '"
             << BuildPath << "'\n";
      return ExitToolError;
    }
  }
  if (OnlyShard)
    Sources = selectShard(Sources, *OnlyShard);

  // Each file's settings: its config's, with the command line's on top.
  FileSettingsResolver Resolver(*Env, Overrides);
  if (PrintParseCommand) {
    Expected<std::string> Embedded = materialiseEmbeddedHeaders();
    if (!Embedded) {
      errs() << "tmemcheck: error: cannot write the embedded headers: "
             << toString(Embedded.takeError()) << '\n';
      return ExitToolError;
    }
    for (const std::string &File : Sources) {
      llvm::Expected<Config> C = Configs.forFile(File);
      if (!C) {
        errs() << "tmemcheck: error: " << toString(C.takeError()) << '\n';
        return ExitToolError;
      }
      Expected<FileSettings> Settings = Resolver.resolve(*C);
      if (!Settings) {
        errs() << "tmemcheck: error: " << toString(Settings.takeError())
               << '\n';
        return ExitToolError;
      }
      const CudaEnvironment *FileEnv = &*Settings->Env;
      std::vector<clang::tooling::CompileCommand> Commands =
          Compilations->getCompileCommands(File);
      if (Commands.empty()) {
        errs() << "tmemcheck: error: " << File << ": no compile command\n";
        return ExitToolError;
      }
      ParseCommand PC = FileEnv->prepareParse(Commands.front().CommandLine,
                                              Commands.front().Directory, File);
      if (!PC.Error.empty()) {
        errs() << "tmemcheck: error: " << File
               << ": the compile command cannot be translated: " << PC.Error
               << '\n';
        return ExitToolError;
      }
      const std::vector<std::string> &Args = PC.Args;
      for (size_t I = 0; I < Args.size(); ++I) {
        if (I)
          outs() << ' ';
        // The embedded headers where they were written.
        std::string Arg = Args[I];
        if (size_t At = Arg.find(CudaEnvironment::embeddedHeaderRoot());
            At != std::string::npos)
          Arg.replace(At, CudaEnvironment::embeddedHeaderRoot().size(),
                      *Embedded);
        sys::printArg(outs(), Arg, /*Quote=*/true);
      }
      outs() << '\n';
    }
    return ExitClean;
  }

  // --report=html: stdout is the page and nothing else, the findings'
  // text goes to stderr with the remarks.
  const bool HtmlOnStdout = Report == ReportKind::Html;
  TextPrinter Printer(HtmlOnStdout ? errs() : outs(), !NoSnippets);
  // Remarks are about the analysis, not the code: stderr, so that stdout
  // holds only findings (or the HTML/JSON/SARIF document).
  TextPrinter RemarkPrinter(errs(), !NoSnippets);
  Suppressions Nolint;
  std::vector<Finding> AllFindings; // for --format=json/sarif, fix-its
  const bool KeepFindings =
      Format != OutputFormat::Text || ApplyFixes || !ExportFixesFile.empty();
  std::vector<KernelVerdict> AllVerdicts; // for --format=json
  llvm::json::Array AllReports;           // for --report=json
  std::vector<HtmlKernel> HtmlReports;    // for --report=html
  std::vector<Finding> HtmlUnmapped;      // findings of kernels without one
  bool ToolFailed = false;
  BatchSummary Totals;
  // Files are analysed in parallel (-j); the results are reported in input
  // order, so the output does not depend on the number of jobs. One file
  // that crashes the front end or an analysis is reported and the run goes
  // on with the others.
  llvm::CrashRecoveryContext::Enable();
  std::vector<FileOutcome> Outcomes(Sources.size());
  // Per-file configuration, read before the parallel part.
  std::vector<uint8_t> ConfigBroken(Sources.size(), 0);
  std::vector<FileSettings> SettingsFor(Sources.size());
  // Each file's config as the result cache's key has it.
  std::vector<std::string> ConfigKeyFor(Sources.size());
  std::set<std::string> UnknownSeverityChecks, ConfigErrors;
  for (size_t I = 0; I < Sources.size(); ++I) {
    llvm::Expected<Config> C = Configs.forFile(Sources[I]);
    Expected<FileSettings> S =
        C ? Resolver.resolve(*C) : Expected<FileSettings>(C.takeError());
    if (!S) {
      // Once per config file, however many files it governs.
      std::string Message = toString(S.takeError());
      if (ConfigErrors.insert(Message).second)
        errs() << "tmemcheck: error: " << Message << '\n';
      ConfigBroken[I] = 1;
      continue;
    }
    SettingsFor[I] = std::move(*S);
    ConfigKeyFor[I] = "config " + C->Path + "\n" + configToYaml(*C);
    for (const std::string &Check : SettingsFor[I].UnknownSeverityChecks)
      if (UnknownSeverityChecks.insert(Check).second)
        errs() << "tmemcheck: warning: CheckSeverity in " << C->Path
               << " names an unknown check '" << Check << "'\n";
    UnmatchedGlobs.insert(SettingsFor[I].UnmatchedGlobs.begin(),
                          SettingsFor[I].UnmatchedGlobs.end());
    if (EnablesNoCheck(SettingsFor[I].Enabled)) {
      std::string Message = "no checks enabled for the files under " + C->Path;
      if (ConfigErrors.insert(Message).second)
        errs() << "tmemcheck: error: " << Message << '\n';
      ConfigBroken[I] = 1;
    }
  }
  WarnUnmatched();
  // Unknown options of all compile commands, named once at the end.
  std::vector<std::string> UnknownOptions;
  // Files not analysed and kernels left incomplete, for SARIF.
  SarifRunInfo SarifInfo;
  // Run-wide SARIF settings: the flag, else the first file's config (a
  // relative SarifSrcRoot is relative to that config's directory), else the
  // current directory and no help base.
  SarifInfo.HelpBase = SarifHelpBase.getNumOccurrences()
                           ? std::string(SarifHelpBase)
                           : Reference->SarifHelpBase.value_or("");
  // A directory the first file's config names, relative to the config.
  auto InReferenceDir = [&](StringRef Path) {
    SmallString<256> Result(Path);
    if (sys::path::is_relative(Result)) {
      SmallString<256> Dir(sys::path::parent_path(Reference->Path));
      sys::path::append(Dir, Result);
      Result = Dir;
    }
    return std::string(Result);
  };
  if (SarifSrcRoot.getNumOccurrences()) {
    SarifInfo.SrcRoot = SarifSrcRoot;
  } else if (Reference->SarifSrcRoot) {
    SarifInfo.SrcRoot = InReferenceDir(*Reference->SarifSrcRoot);
  } else {
    SarifInfo.SrcRoot = ".";
  }
  if (Format == OutputFormat::Sarif &&
      !sys::fs::is_directory(SarifInfo.SrcRoot)) {
    errs() << "tmemcheck: error: the SARIF source root '" << SarifInfo.SrcRoot
           << "' ("
           << (SarifSrcRoot.getNumOccurrences()
                   ? std::string("--sarif-srcroot")
                   : "SarifSrcRoot in " + Reference->Path)
           << ") is not a directory\n";
    return ExitToolError;
  }
  // The result cache (run-wide): --cache-dir, else the first file's
  // config. One that cannot be used is said once; the run goes on without.
  std::unique_ptr<ResultCache> Cache;
  std::string RunKey;
  const std::string CacheDirectory =
      CacheDir.getNumOccurrences() ? std::string(CacheDir)
      : Reference->CacheDir        ? InReferenceDir(*Reference->CacheDir)
                                   : std::string();
  if (!CacheDirectory.empty()) {
    std::string Tool = ResultCache::toolIdentity(
        TMEMCHECK_VERSION, argv[0], reinterpret_cast<void *>(&printVersion));
    Expected<std::unique_ptr<ResultCache>> Opened =
        Tool.empty() ? createStringError("the tmemcheck executable cannot be "
                                         "found to identify its build")
                     : ResultCache::open(CacheDirectory);
    if (!Opened) {
      errs() << "tmemcheck: warning: the result cache is not used: "
             << toString(Opened.takeError()) << '\n';
    } else {
      Cache = std::move(*Opened);
      RunKey = runCacheKey(Tool, argc, argv);
      Totals.useCache();
      for (FileSettings &S : SettingsFor)
        S.Frontend.RecordInputFiles = true;
    }
  }
  // The pre-included headers, precompiled once per parse command (run-wide).
  std::unique_ptr<PreludePch> Prelude;
  if (!NoPch) {
    SmallString<256> Dir(PchDir);
    if (Dir.empty()) {
      sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
      sys::path::append(Dir, "tmemcheck-" TMEMCHECK_VERSION "-pch");
    }
    Prelude = std::make_unique<PreludePch>(std::string(Dir));
    for (FileSettings &S : SettingsFor)
      S.Frontend.Prelude = Prelude.get();
  }
  std::atomic<bool> CacheWriteFailed{false};
  // \p Partly: the file compiled with errors and the rest of it was
  // analysed (its findings are reported, but may be incomplete).
  auto FileFailed = [&](const std::string &File, const std::string &Why,
                        bool Partly = false) {
    Totals.fileFailed(File, Why);
    ToolFailed = true;
    SarifInfo.Notifications.push_back(
        {"error",
         File + (Partly ? ": " + Why +
                              "; the rest of the file was analysed, its "
                              "results may be incomplete"
                        : ": not analysed: " + Why),
         SourceLoc{File, 0, 0}});
  };
  // Files are reported in input order as soon as they and every file
  // before them are done (findings stay grouped by file under -j, and a run
  // killed by a CI timeout has printed what it found so far).
  auto ReportOne = [&](size_t I) {
    const std::string &File = Sources[I];
    FileOutcome &O = Outcomes[I];
    TranslationUnitResult &TU = O.TU;
    Totals.addFile();
    for (const std::string &U : TU.UnknownOptions)
      if (!llvm::is_contained(UnknownOptions, U))
        UnknownOptions.push_back(U);
    if (ConfigBroken[I]) {
      FileFailed(File, "bad configuration");
      return;
    }
    if (!O.Survived) {
      FileFailed(File, "internal error");
      errs() << "tmemcheck: error: " << File
             << ": internal error while analysing this file (a tmemcheck "
                "bug; please report it with the file); continuing with the "
                "other files\n";
      ToolFailed = true;
      return;
    }
    Totals.addKernels(O.KernelCount);
    // A kernel whose analysis crashed is incomplete, and the run a tool
    // failure; the file's other kernels were analysed and are reported.
    for (const auto &[Kernel, Loc] : TU.CrashedKernels) {
      const std::string Why =
          fmt::format("internal error while analysing kernel '{}' (a "
                      "tmemcheck bug; please report it with the file)",
                      Kernel);
      errs() << "tmemcheck: error: " << File << ": " << Why
             << "; the other kernels were analysed\n";
      Totals.addKernels(1);
      KernelVerdict V;
      V.Kernel = Kernel;
      V.Loc = Loc;
      V.Reasons.push_back({Loc, Why});
      O.Verdicts.push_back(std::move(V));
      FileFailed(File, Why, /*Partly=*/true);
    }
    if (!TU.CrashedKernels.empty())
      std::stable_sort(O.Verdicts.begin(), O.Verdicts.end(),
                       [](const KernelVerdict &A, const KernelVerdict &B) {
                         return A.Loc.Line < B.Loc.Line;
                       }); // module order
    if (!TU.Parsed && isPtxFile(File) && TU.CompileErrors) {
      // FirstError is already "file:line:col: message".
      errs() << "tmemcheck: error: " << TU.FirstError
             << "; the PTX module was not analysed\n";
      FileFailed(File, fmt::format("{} PTX syntax error(s)", TU.CompileErrors));
      return;
    }
    if (!TU.Parsed) {
      errs() << "tmemcheck: error: " << File << ": " << TU.FirstError << '\n';
      FileFailed(File, TU.FirstError);
      return;
    }
    if (TU.CompileErrors) {
      // The compiler's own diagnostics, as an editor or CI log reads them.
      for (const std::string &Line : TU.ErrorLines)
        errs() << Line << '\n';
      if (TU.CompileErrors > TU.ErrorLines.size())
        errs() << fmt::format("tmemcheck: note: {} more compile error(s) in "
                              "{} not shown\n",
                              TU.CompileErrors - TU.ErrorLines.size(), File);
      errs() << "tmemcheck: error: " << File << ": " << TU.CompileErrors
             << " compile error(s), results may be incomplete\n";
      FileFailed(File, fmt::format("{} compile error(s)", TU.CompileErrors),
                 /*Partly=*/true);
    }
    (HtmlOnStdout ? errs() : outs()) << O.EventDump;
    if (O.FromCache)
      Totals.addCachedFile();
    if (Timing && O.FromCache)
      errs() << fmt::format("tmemcheck: timing {}: from the result cache, {} "
                            "kernel(s)\n",
                            File, O.KernelCount);
    else if (Timing)
      errs() << fmt::format(
          "tmemcheck: timing {}: parse {:.4f} s, graphs {:.4f} s, checks "
          "{:.4f} s, {} kernel(s){}{}\n",
          File,
          TU.ParseSeconds
              ? *TU.ParseSeconds
              : TU.FrontendSeconds - TU.GraphSeconds - O.ChecksSeconds,
          TU.GraphSeconds, O.ChecksSeconds, O.KernelCount,
          TU.Threads > 1
              ? fmt::format(" on {} threads (graphs and checks summed over "
                            "them; wall {:.4f} s)",
                            TU.Threads, TU.FrontendSeconds)
              : std::string(),
          preludeNote(TU.Prelude));
    std::map<std::string, unsigned> ReportedByKernel;
    std::vector<Finding> Reported; // for --report=html
    for (Finding &F : O.Findings) {
      if (Nolint.isSuppressed(F) || (*Baselines)->isSuppressed(F))
        continue;
      ++ReportedByKernel[F.Kernel];
      F.Level = SettingsFor[I].severityOf(F.CheckName, F.Level);
      Totals.addFinding(F);
      if (Format == OutputFormat::Text)
        Printer.print(F);
      if (HtmlOnStdout)
        Reported.push_back(F);
      if (KeepFindings)
        AllFindings.push_back(std::move(F));
    }
    for (KernelVerdict &V : O.Verdicts) {
      if (auto It = ReportedByKernel.find(V.Kernel);
          It != ReportedByKernel.end())
        V.ReportedFindings = It->second;
      Totals.addVerdict(V, SettingsFor[I].RequireComplete);
      if (V.kind() == VerdictKind::Incomplete)
        SarifInfo.Notifications.push_back(
            {"warning", incompleteSummary(V), V.Loc});
      if (Format == OutputFormat::Json)
        AllVerdicts.push_back(std::move(V));
    }
    std::vector<uint8_t> Placed(Reported.size(), 0);
    for (KernelReport &KR : O.Reports) {
      if (Report == ReportKind::Text) {
        printResourceReport(outs(), KR);
      } else if (Report == ReportKind::Html) {
        HtmlKernel K{std::move(KR), {}};
        for (size_t J = 0; J < Reported.size(); ++J)
          if (!Placed[J] && Reported[J].Kernel == K.Report.Kernel) {
            K.Findings.push_back(std::move(Reported[J]));
            Placed[J] = 1;
          }
        HtmlReports.push_back(std::move(K));
      } else {
        AllReports.push_back(resourceReportToJson(KR));
      }
    }
    for (size_t J = 0; J < Reported.size(); ++J)
      if (!Placed[J])
        HtmlUnmapped.push_back(std::move(Reported[J]));
    if (!Quiet && Format == OutputFormat::Text) {
      outs().flush(); // the findings before the remarks about them
      for (const AnalysisRemark &R : O.KernelRemarks)
        RemarkPrinter.printRemark(R);
      for (const AnalysisRemark &R : TU.Remarks)
        RemarkPrinter.printRemark(R);
    }
    outs().flush();
  };
  std::atomic<unsigned> Finished{0};
  std::mutex ProgressMutex;
  bool ShowProgress =
      Progress || (!Quiet && errs().is_displayed() && Sources.size() > 1);
  std::vector<uint8_t> Done(Sources.size(), 0);
  size_t NextToReport = 0;
  auto ReportProgress = [&](const std::string &File, size_t I) {
    std::lock_guard<std::mutex> Lock(ProgressMutex);
    if (ShowProgress)
      errs() << fmt::format("[{}/{}] {}\n", ++Finished, Sources.size(), File);
    Done[I] = 1;
    while (NextToReport < Sources.size() && Done[NextToReport])
      ReportOne(NextToReport++);
  };
  // --coverage-check: nvcc's PTX of \p File, compiled with the flags of
  // its parse.
  auto ptxCoverageFor = [&](const std::string &File,
                            const CudaEnvironment &FileEnv) {
    PtxCoverage P;
    std::string Nvcc;
    if (!FileEnv.cudaPath().empty()) {
      SmallString<256> N(FileEnv.cudaPath());
      sys::path::append(N, "bin", "nvcc");
      if (sys::fs::can_execute(N))
        Nvcc = std::string(N);
    }
    if (Nvcc.empty())
      if (ErrorOr<std::string> Found = sys::findProgramByName("nvcc"))
        Nvcc = *Found;
    if (Nvcc.empty()) {
      P.Error = "nvcc not found (no CUDA installation, none on PATH)";
      return P;
    }
    std::vector<clang::tooling::CompileCommand> Commands =
        Compilations->getCompileCommands(File);
    if (Commands.empty()) {
      P.Error = "no compile command for the file";
      return P;
    }
    SmallString<128> Ptx;
    if (sys::fs::createTemporaryFile("tmemcheck-coverage", "ptx", Ptx)) {
      P.Error = "cannot create a temporary file for the PTX";
      return P;
    }
    std::vector<std::string> Cmd =
        nvccPtxCommand(Nvcc,
                       FileEnv
                           .prepareParse(Commands.front().CommandLine,
                                         Commands.front().Directory, File)
                           .Args,
                       FileEnv.gpuArch(), Ptx);
    return collectPtxCoverage(Cmd, Commands.front().Directory, Ptx,
                              /*TimeoutSeconds=*/900);
  };
  auto AnalyzeOne = [&](size_t I) {
    const std::string &File = Sources[I];
    FileOutcome &O = Outcomes[I];
    if (ConfigBroken[I]) {
      ReportProgress(File, I);
      return;
    }
    // An unchanged file is served from the result cache. Not with the
    // options that make a run more than its outcome (nvcc's PTX, the event
    // dump, the crash tests).
    const bool UseCache = Cache && !SettingsFor[I].CoverageCheck &&
                          !DumpEvents && CrashForTesting.empty() &&
                          CrashInKernelForTesting.empty();
    std::string CacheKey;
    if (UseCache) {
      CacheKey = RunKey + ConfigKeyFor[I] +
                 (isPtxFile(File) ? "ptx " + File + "\n"
                                  : parseCommandsKey(*Compilations, File,
                                                     *SettingsFor[I].Env));
      if (std::optional<FileOutcome> Hit = Cache->lookup(CacheKey)) {
        O = std::move(*Hit);
        ReportProgress(File, I);
        return;
      }
    }
    const auto AnalysisStart = std::chrono::system_clock::now();
    // Checks keep no state across kernels, but each worker gets its own
    // (the kernels of one .ptx module may be analysed by several threads).
    // A single input file gets all -j threads for its kernels.
    const unsigned KernelThreads = isPtxFile(File) && Sources.size() == 1
                                       ? std::max(1u, unsigned(Jobs))
                                       : 1u;
    std::vector<std::vector<std::unique_ptr<Check>>> WorkerChecks(
        KernelThreads);
    for (std::vector<std::unique_ptr<Check>> &Checks : WorkerChecks)
      Checks = enabledChecks(SettingsFor[I]);
    llvm::CrashRecoveryContext CRC;
    O.Survived = CRC.RunSafely([&] {
      const FileSettings &Limits = SettingsFor[I];
      // Each kernel is checked as soon as its graph is built, and the graph
      // is dropped: memory holds one kernel's graph, however many the file
      // has.
      // --coverage-check: nvcc's PTX of the same file, before the kernels
      // are checked (a kernel it shows unseen parts of is incomplete).
      std::optional<PtxCoverage> Coverage;
      if (Limits.CoverageCheck && !isPtxFile(File))
        Coverage = ptxCoverageFor(File, *Limits.Env);
      // One kernel's analysis (in worker thread \p W), and what it adds to
      // the file's outcome (on this thread, in kernel order).
      struct DumpedOutcome : KernelOutcome {
        std::string EventDump;
      };
      auto AnalyseKernel = [&](KernelGraph &G,
                               unsigned W) -> std::function<void()> {
        if (!CrashInKernelForTesting.empty() &&
            G.Name == CrashInKernelForTesting)
          LLVM_BUILTIN_TRAP;
        auto K = std::make_shared<DumpedOutcome>();
        if (Coverage)
          applyPtxCoverage(G, *Coverage);
        if (DumpEvents) {
          llvm::raw_string_ostream OS(K->EventDump);
          dumpGraph(G, OS);
        }
        static_cast<KernelOutcome &>(*K) = analyseKernel(
            G, Limits, WorkerChecks[W], Report != ReportKind::None);
        const bool OutOfTime = G.OutOfTime || K->Result.OutOfTime;
        return [&O, K, OutOfTime] {
          ++O.KernelCount;
          if (OutOfTime)
            O.Repeatable = false;
          O.KernelRemarks.insert(O.KernelRemarks.end(), K->Remarks.begin(),
                                 K->Remarks.end());
          O.EventDump += K->EventDump;
          KernelCheckResult &R = K->Result;
          O.Verdicts.push_back(std::move(R.Verdict));
          if (R.BudgetRemark) {
            O.KernelRemarks.push_back(std::move(*R.BudgetRemark));
          } else {
            for (Finding &F : R.Findings)
              O.Sink.report(std::move(F));
            if (K->Report)
              O.Reports.push_back(std::move(*K->Report));
          }
          O.ChecksSeconds += K->Seconds;
        };
      };
      auto CheckKernel = [&](KernelGraph &G) { AnalyseKernel(G, 0)(); };
      // .ptx modules go to the PTX front end: the same graphs, no Clang.
      O.TU = isPtxFile(File)
                 ? analyzePtxFile(File, Limits.Frontend,
                                  ParallelKernelConsumer(AnalyseKernel),
                                  KernelThreads)
                 : analyzeTranslationUnit(*Compilations, File, *Limits.Env,
                                          Limits.Frontend, CheckKernel);
      if (Coverage) {
        if (!Coverage->Available)
          O.TU.Remarks.push_back(
              {SourceLoc{File, 0, 0, false},
               "coverage check not done: " + Coverage->Error});
        for (AnalysisRemark &R : unpairedPtxKernels(*Coverage, File))
          O.TU.Remarks.push_back(std::move(R));
      }
      if (CrashForTesting == File)
        LLVM_BUILTIN_TRAP;
      O.Findings = O.Sink.takeSorted();
    });
    if (UseCache && O.Survived && O.Repeatable && O.TU.Parsed &&
        O.TU.CrashedKernels.empty()) {
      if (Error E = Cache->store(CacheKey, O, O.TU.InputFiles, AnalysisStart)) {
        if (!CacheWriteFailed.exchange(true))
          errs() << "tmemcheck: warning: cannot write to the result cache: "
                 << toString(std::move(E)) << '\n';
        else
          consumeError(std::move(E));
      }
    }
    ReportProgress(File, I);
  };
  if (Jobs <= 1 || Sources.size() <= 1) {
    for (size_t I = 0; I < Sources.size(); ++I)
      AnalyzeOne(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
    for (size_t I = 0; I < Sources.size(); ++I)
      Pool.async([&AnalyzeOne, I] { AnalyzeOne(I); });
    Pool.wait();
  }

  if (Format == OutputFormat::Json)
    writeJsonReport(outs(), AllFindings, AllVerdicts);
  else if (Format == OutputFormat::Sarif) {
    // Code scanning matches alerts across runs by these fingerprints, the
    // same ones a baseline holds, with paths relative to the source root
    // (the working directory unless --sarif-srcroot says otherwise).
    Fingerprinter Identities(SarifInfo.SrcRoot);
    for (Finding &F : AllFindings)
      F.Fingerprint = Identities.identify(F).Fingerprint;
    SarifInfo.ExecutionSuccessful = !ToolFailed;
    writeSarifReport(outs(), AllFindings, CheckRegistry::all(),
                     TMEMCHECK_VERSION, SarifInfo);
  }
  if (Report == ReportKind::Html)
    writeHtmlReport(outs(), HtmlReports, HtmlUnmapped);
  if (Report == ReportKind::Json)
    outs() << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                         {"kernels", std::move(AllReports)}}))
           << '\n';
  outs().flush();
  if (!ExportFixesFile.empty())
    if (Error E = exportFixes(ExportFixesFile, Sources.front(), AllFindings)) {
      errs() << "tmemcheck: error: cannot write '" << ExportFixesFile
             << "': " << toString(std::move(E)) << '\n';
      ToolFailed = true;
    }
  // Like clang-tidy without -fix-errors: no edits on top of an analysis
  // that failed somewhere (a compile error, an internal error).
  if (ApplyFixes && ToolFailed)
    errs() << "tmemcheck: error: fix-its were not applied: some input could "
              "not be analysed\n";
  else if (ApplyFixes &&
           !reportFixResults(errs(), applyFixIts(AllFindings), Quiet))
    ToolFailed = true;
  if (Error E = (*Baselines)->finish()) {
    errs() << "tmemcheck: error: " << toString(std::move(E)) << '\n';
    ToolFailed = true;
  }
  if (!UnknownOptions.empty() && !Quiet)
    errs() << "tmemcheck: remark: dropped " << UnknownOptions.size()
           << " compile-command option(s) that neither nvcc's nor the host "
              "compiler's option table knows (they do not reach the parse; "
              "--extra-arg adds what the parse needs): "
           << llvm::join(UnknownOptions, " ") << '\n';
  const bool PrintSummary = Summary || (!Quiet && Sources.size() > 1);
  if ((*Baselines)->readsBaseline()) {
    Totals.setBaselineSuppressed((*Baselines)->suppressedCount());
    if (!Quiet && !PrintSummary)
      errs() << fmt::format("tmemcheck: {} finding(s) suppressed by the "
                            "baseline {}\n",
                            (*Baselines)->suppressedCount(), BaselinePath);
  }
  if (PrintSummary)
    Totals.printSummary(errs(), std::chrono::duration<double>(
                                    std::chrono::steady_clock::now() - RunStart)
                                    .count());
  else if (!Quiet)
    Totals.printClosingLine(errs());
  if (ToolFailed)
    return ExitToolError;
  if (!Quiet && Totals.gatingIncomplete() &&
      !(Totals.errors() + Totals.warnings()))
    errs() << fmt::format(
        "tmemcheck: exit status 1: {} kernel(s) could not be analysed in "
        "full, so the run is not clean (the remarks say what was not seen; "
        "--require-complete=false or RequireComplete: false accepts them)\n",
        Totals.gatingIncomplete());
  // Exit 0 means analysed and clean: no finding, and no kernel that could
  // not be seen in full unless its configuration accepts that.
  return Totals.errors() + Totals.warnings() + Totals.gatingIncomplete()
             ? ExitFindings
             : ExitClean;
}
