//===- TmemTidyModule.cpp - tmemcheck as a clang-tidy plugin --------------===//
//
// Part of tmemcheck. A thin adapter: every check of lib/Checks is offered to
// clang-tidy under its own name (`clang-tidy -load libTmemTidyModule.so
// -checks='tmem-*'`). The kernel graphs of a translation unit are built once
// and shared by all enabled checks; findings become clang-tidy diagnostics,
// so NOLINT, -warnings-as-errors and the editor integrations apply as for
// any other check. No check logic lives here.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/AnalysisContext.h"
#include "tmemcheck/Checks/Check.h"
#include "tmemcheck/Frontend/ClangFrontend.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"

#include <memory>

using namespace clang;
using namespace clang::ast_matchers;

namespace tmemcheck {
namespace tidy {

namespace {

/// The kernel graphs of the translation unit clang-tidy is checking and
/// their analyses, built on first use and shared by every tmem-* check of
/// that run (each analysis runs once, whichever checks need it).
class GraphCache {
public:
  std::vector<std::unique_ptr<AnalysisContext>> &get(ASTContext &Ctx) {
    if (&Ctx != Current) {
      Contexts.clear();
      Result = TranslationUnitResult();
      buildKernelGraphs(Ctx, FrontendLimits(), Result);
      // The default budget: the loop-iteration bound, and no time limit
      // beyond the graph construction's (clang-tidy interleaves the checks
      // of all kernels, so a per-kernel clock would measure the others).
      for (const KernelGraph &G : Result.Kernels)
        Contexts.push_back(std::make_unique<AnalysisContext>(G));
      Current = &Ctx;
    }
    return Contexts;
  }

private:
  const ASTContext *Current = nullptr;
  TranslationUnitResult Result;
  std::vector<std::unique_ptr<AnalysisContext>> Contexts;
};

GraphCache &cache() {
  static GraphCache C;
  return C;
}

/// One tmemcheck check seen as a clang-tidy check.
class TmemTidyCheck : public ::clang::tidy::ClangTidyCheck {
public:
  TmemTidyCheck(StringRef Name, ::clang::tidy::ClangTidyContext *Context,
                const CheckInfo &Info)
      : ClangTidyCheck(Name, Context), Impl(Info.Create()) {}

  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

  void registerMatchers(MatchFinder *Finder) override {
    Finder->addMatcher(translationUnitDecl().bind("tu"), this);
  }

  void check(const MatchFinder::MatchResult &Result) override {
    ASTContext &Ctx = *Result.Context;
    FindingSink Sink;
    for (std::unique_ptr<AnalysisContext> &A : cache().get(Ctx)) {
      // A kernel whose budget ran out has incomplete facts: nothing found
      // in it is reported (the CLI says so in a remark).
      if (A->budget().wasExhausted())
        continue;
      FindingSink KernelSink;
      Impl->checkKernel(*A, KernelSink);
      if (A->budget().wasExhausted())
        continue;
      for (const Finding &F : KernelSink.findings())
        Sink.report(F);
    }
    const SourceManager &SM = Ctx.getSourceManager();
    // clang-tidy checks warn; `-warnings-as-errors='tmem-*'` makes them
    // fail a build, as for any other check.
    for (const Finding &F : Sink.takeSorted()) {
      diag(locate(SM, F.Loc), F.Message, DiagnosticIDs::Warning);
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

  std::unique_ptr<Check> Impl;
};

/// Registers every check of the catalogue by its public name.
class TmemModule : public ::clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(
      ::clang::tidy::ClangTidyCheckFactories &Factories) override {
    for (const CheckInfo &Info : CheckRegistry::all())
      Factories.registerCheckFactory(
          Info.Name, [&Info](StringRef Name,
                             ::clang::tidy::ClangTidyContext *Context) {
            return std::make_unique<TmemTidyCheck>(Name, Context, Info);
          });
  }
};

} // namespace

} // namespace tidy
} // namespace tmemcheck

static ::clang::tidy::ClangTidyModuleRegistry::Add<tmemcheck::tidy::TmemModule>
    X("tmem-module", "tmemcheck: tcgen05 Tensor Memory checks.");
