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
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;

namespace tmemcheck {
namespace tidy {

namespace {

/// The kernel graphs of the translation unit clang-tidy is checking, built
/// on first use and shared by every tmem-* check of that run.
class GraphCache {
public:
  const TranslationUnitResult &get(ASTContext &Ctx) {
    if (&Ctx != Current) {
      Result = TranslationUnitResult();
      buildKernelGraphs(Ctx, FrontendLimits(), Result);
      Current = &Ctx;
    }
    return Result;
  }

private:
  const ASTContext *Current = nullptr;
  TranslationUnitResult Result;
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
    const TranslationUnitResult &TU = cache().get(Ctx);
    FindingSink Sink;
    for (const KernelGraph &G : TU.Kernels) {
      AnalysisContext A(G);
      Impl->checkKernel(A, Sink);
    }
    const SourceManager &SM = Ctx.getSourceManager();
    // clang-tidy checks warn; `-warnings-as-errors='tmem-*'` makes them
    // fail a build, as for any other check.
    for (const Finding &F : Sink.takeSorted()) {
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
