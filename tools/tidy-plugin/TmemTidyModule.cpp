//===- TmemTidyModule.cpp - tmemcheck as a clang-tidy plugin --------------===//
//
// Part of tmemcheck. A thin adapter: every check of lib/Checks is offered to
// clang-tidy under its own name (`clang-tidy -load libTmemTidyModule.so
// -checks='tmem-*'`). The enabled checks run together, once per translation
// unit, one kernel at a time; findings become clang-tidy diagnostics,
// so NOLINT, -warnings-as-errors and the editor integrations apply as for
// any other check. No check logic lives here.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/AnalysisContext.h"
#include "tmemcheck/Checks/Check.h"
#include "tmemcheck/Checks/KernelCheckRun.h"
#include "tmemcheck/Config/Config.h"
#include "tmemcheck/Frontend/ClangFrontend.h"
#include "tmemcheck/Frontend/CudaEnvironment.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

using namespace clang;
using namespace clang::ast_matchers;

namespace tmemcheck {
namespace tidy {

namespace {

/// The tmem-* checks clang-tidy enabled, run together once per translation
/// unit: each kernel's graph is built, analysed by all of them within the
/// kernel's budget and dropped, as in the CLI, and the findings wait for
/// the check they belong to. Each analysis runs once per kernel, and memory
/// holds one kernel at a time. A kernel whose budget runs out reports
/// nothing (clang-tidy has no place for the CLI's remark).
class SharedRun {
public:
  /// A check instance for the coming translation unit (clang-tidy creates
  /// the enabled checks anew for each one).
  void enroll(const void *Check, StringRef Name) {
    Enrolled[Check] = Name.str();
    Current = nullptr;
  }
  /// The instance is going away with its translation unit.
  void withdraw(const void *Check) {
    Enrolled.erase(Check);
    Current = nullptr;
    ByCheck.clear();
  }

  const std::vector<Finding> &findings(ASTContext &Ctx, StringRef Check) {
    if (&Ctx != Current) {
      run(Ctx);
      Current = &Ctx;
    }
    return ByCheck[Check];
  }

private:
  void run(ASTContext &Ctx) {
    ByCheck.clear();
    // The one part of the nvcc profile a plugin cannot apply: said once,
    // when the translation unit did not compile.
    if (WithoutMsExtensions && !NotedMsExtensions &&
        Ctx.getDiagnostics().hasErrorOccurred()) {
      NotedMsExtensions = true;
      llvm::errs() << "tmemcheck: note: the translation unit has compile "
                      "errors; the nvcc profile's -fms-extensions cannot be "
                      "set from the clang-tidy plugin: pass it "
                      "(--extra-arg=-fms-extensions) if nvcc accepts the "
                      "code\n";
    }
    WithoutMsExtensions = false;
    std::set<std::string> Names;
    for (const auto &[Instance, Name] : Enrolled)
      Names.insert(Name);
    std::vector<std::unique_ptr<Check>> Checks;
    for (const std::string &Name : Names)
      if (const CheckInfo *Info = CheckRegistry::find(Name))
        Checks.push_back(Info->Create());
    TranslationUnitResult Result;
    FindingSink Sink;
    FrontendLimits Limits;
    AnalysisLimits Budget;
    applyConfig(Ctx, Limits, Budget);
    buildKernelGraphs(Ctx, Limits, Result, [&](KernelGraph &G) {
      AnalysisContext A(G, KernelBudget(Budget, G.BuildSeconds));
      for (Finding &F : runKernelChecks(A, Checks).Findings)
        Sink.report(std::move(F));
    });
    for (Finding &F : Sink.takeSorted())
      ByCheck[F.CheckName].push_back(std::move(F));
  }

  /// The analysis settings of the .tmemcheck.yaml found upward from the
  /// main file, as the CLI uses them: bounds and user API models (checks
  /// and severities are clang-tidy's to choose). A config that does not
  /// load is reported on stderr once and the defaults apply.
  void applyConfig(ASTContext &Ctx, FrontendLimits &Limits,
                   AnalysisLimits &Budget) {
    const SourceManager &SM = Ctx.getSourceManager();
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    if (!Main)
      return;
    llvm::Expected<Config> C = Configs.forFile(Main->getName());
    if (!C) {
      std::string Message = toString(C.takeError());
      if (ReportedConfigErrors.insert(Message).second)
        llvm::errs() << "tmemcheck: error: " << Message
                     << " (the tmem-* checks run with default settings)\n";
      return;
    }
    Limits.MaxCallDepth = C->MaxCallDepth.value_or(Limits.MaxCallDepth);
    Limits.MaxEventsPerKernel =
        C->MaxEvents.value_or(Limits.MaxEventsPerKernel);
    Budget.MaxKernelSeconds =
        C->MaxKernelSeconds.value_or(Budget.MaxKernelSeconds);
    Budget.MaxLoopIterations =
        C->MaxLoopIterations.value_or(Budget.MaxLoopIterations);
    Limits.MaxKernelSeconds = Budget.MaxKernelSeconds;
    if (C->ApiModels.empty())
      return;
    std::unique_ptr<UserApiModelTable> &Models = ModelsOfConfig[C->Path];
    if (!Models) {
      llvm::Expected<UserApiModelTable> T =
          UserApiModelTable::create(C->ApiModels);
      if (!T) {
        llvm::errs() << "tmemcheck: error: " << C->Path << ": "
                     << toString(T.takeError()) << '\n';
        return;
      }
      Models = std::make_unique<UserApiModelTable>(std::move(*T));
    }
    Limits.UserModels = Models.get();
  }

public:
  /// The nvcc profile the CLI applies by default (NvccProfile.cpp), for the
  /// translation unit \p PP is about to preprocess: its macros and
  /// pre-included header are appended to the predefines, once per
  /// translation unit, unless the check option `TmemNvccProfile` is false
  /// or the .tmemcheck.yaml of the main file says `Compat: Profile: clang`.
  /// `-fms-extensions` cannot be set from a plugin (the language options
  /// are fixed once the preprocessor exists): without it, a note on stderr
  /// says to pass it, once.
  void applyNvccProfile(const SourceManager &SM, Preprocessor &PP,
                        bool Enabled) {
    if (StringRef(PP.getPredefines()).contains("__TMEMCHECK_NVCC_PROFILE__"))
      return;
    if (!Enabled || !PP.getLangOpts().CUDA)
      return;
    if (OptionalFileEntryRef Main =
            SM.getFileEntryRefForID(SM.getMainFileID())) {
      llvm::Expected<Config> C = Configs.forFile(Main->getName());
      if (!C)
        llvm::consumeError(C.takeError()); // reported by applyConfig
      else if (C->Compat && C->Compat->Profile == std::string("clang"))
        return;
    }
    std::string Arch = PP.getTargetInfo().getTargetOpts().CPU;
    CudaVersion Version =
        versionOf(PP.getHeaderSearchInfo().getHeaderSearchOpts());
    PP.setPredefines(PP.getPredefines() +
                     CudaEnvironment::nvccProfilePredefines(Arch, Version));
    WithoutMsExtensions = !PP.getLangOpts().MicrosoftExt;
  }

private:
  /// The version of the CUDA installation whose include directory is on
  /// the search path (its version.json, nvcc or cuda.h), remembered; the
  /// default (13.0) without one.
  CudaVersion versionOf(const HeaderSearchOptions &HSO) {
    for (const HeaderSearchOptions::Entry &E : HSO.UserEntries) {
      StringRef Dir = E.Path;
      if (llvm::sys::path::filename(Dir) != "include")
        continue;
      llvm::SmallString<256> Root = llvm::sys::path::parent_path(Dir);
      llvm::SmallString<256> CudaH(Dir);
      llvm::sys::path::append(CudaH, "cuda.h");
      if (!llvm::sys::fs::exists(CudaH))
        continue;
      auto It = Versions.find(Root);
      if (It == Versions.end())
        It = Versions.try_emplace(Root, CudaVersion::detect(Root)).first;
      return It->second;
    }
    return CudaVersion();
  }

  llvm::StringMap<CudaVersion> Versions;
  bool NotedMsExtensions = false;
  bool WithoutMsExtensions = false; ///< for the translation unit being parsed
  std::map<const void *, std::string> Enrolled;
  ConfigFinder Configs;
  std::map<std::string, std::unique_ptr<UserApiModelTable>> ModelsOfConfig;
  std::set<std::string> ReportedConfigErrors;
  const ASTContext *Current = nullptr;
  llvm::StringMap<std::vector<Finding>> ByCheck;
};

SharedRun &sharedRun() {
  static SharedRun R;
  return R;
}

/// One tmemcheck check seen as a clang-tidy check.
class TmemTidyCheck : public ::clang::tidy::ClangTidyCheck {
public:
  TmemTidyCheck(StringRef Name, ::clang::tidy::ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context), Name(Name.str()) {
    sharedRun().enroll(this, Name);
  }
  ~TmemTidyCheck() override { sharedRun().withdraw(this); }

  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

  /// Called before the main file is read: the nvcc profile goes into the
  /// predefines, as the CLI's parse has it (NvccProfile.cpp).
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *) override {
    sharedRun().applyNvccProfile(
        SM, *PP, Options.getLocalOrGlobal("TmemNvccProfile", true));
  }

  void storeOptions(::clang::tidy::ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "TmemNvccProfile",
                  Options.getLocalOrGlobal("TmemNvccProfile", true));
  }

  void registerMatchers(MatchFinder *Finder) override {
    Finder->addMatcher(translationUnitDecl().bind("tu"), this);
  }

  void check(const MatchFinder::MatchResult &Result) override {
    ASTContext &Ctx = *Result.Context;
    const SourceManager &SM = Ctx.getSourceManager();
    // clang-tidy checks warn; `-warnings-as-errors='tmem-*'` makes them
    // fail a build, as for any other check.
    for (const Finding &F : sharedRun().findings(Ctx, Name)) {
      {
        // Fix-its become FixItHints: clang-tidy's --fix and --export-fixes
        // apply and export them. The warning is emitted when the builder
        // goes out of scope, before its notes.
        DiagnosticBuilder D =
            diag(locate(SM, F.Loc), F.Message, DiagnosticIDs::Warning);
        for (const FixIt &Fix : F.Fixes)
          if (std::optional<FixItHint> Hint = hintFor(SM, Fix))
            D << *Hint;
      }
      for (const FindingNote &N : F.Notes)
        diag(locate(SM, N.Loc), N.Message, DiagnosticIDs::Note);
    }
  }

private:
  /// Back from a front-end independent position to a SourceLocation.
  static SourceLocation locate(const SourceManager &SM, const SourceLoc &L) {
    if (!L.isValid())
      return SourceLocation();
    auto File = SM.getFileManager().getOptionalFileRef(L.File);
    if (!File)
      return SourceLocation();
    return SM.translateFileLineCol(*File, L.Line, L.Column);
  }

  /// A fix-it as a FixItHint: the byte range of its file in this TU.
  static std::optional<FixItHint> hintFor(const SourceManager &SM,
                                          const FixIt &Fix) {
    auto File = SM.getFileManager().getOptionalFileRef(Fix.File);
    if (!File)
      return std::nullopt;
    FileID FID = SM.translateFile(*File);
    if (FID.isInvalid() ||
        Fix.Offset + Fix.Length > SM.getBufferData(FID).size())
      return std::nullopt;
    SourceLocation Begin = SM.getComposedLoc(FID, Fix.Offset);
    if (Fix.Length == 0)
      return FixItHint::CreateInsertion(Begin, Fix.Text);
    return FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(Begin,
                                      Begin.getLocWithOffset(Fix.Length)),
        Fix.Text);
  }

  std::string Name;
};

/// Registers every check of the catalogue by its public name.
class TmemModule : public ::clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(
      ::clang::tidy::ClangTidyCheckFactories &Factories) override {
    for (const CheckInfo &Info : CheckRegistry::all())
      Factories.registerCheckFactory(
          Info.Name,
          [](StringRef Name, ::clang::tidy::ClangTidyContext *Context) {
            return std::make_unique<TmemTidyCheck>(Name, Context);
          });
  }
};

} // namespace

} // namespace tidy
} // namespace tmemcheck

static ::clang::tidy::ClangTidyModuleRegistry::Add<tmemcheck::tidy::TmemModule>
    X("tmem-module", "tmemcheck: tcgen05 Tensor Memory checks.");
