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

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"

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
