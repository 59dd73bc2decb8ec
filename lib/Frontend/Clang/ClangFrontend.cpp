//===- ClangFrontend.cpp - CUDA source to kernel event graphs -------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/ClangFrontend.h"

#include "GraphBuilder.h"
#include "ValueEvaluator.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <fmt/format.h>

#include <chrono>

using namespace clang;

namespace tmemcheck {

namespace {

/// Counts compiler errors and keeps them as `file:line:col: error: ...`
/// lines (the first TranslationUnitResult::MaxKeptErrors); the TU's own
/// warnings are not ours to print.
class ErrorCollector : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    ++Errors;
    if (Kept.size() >= TranslationUnitResult::MaxKeptErrors)
      return;
    SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    std::string Where;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      SourceLoc L = toSourceLoc(Info.getSourceManager(), Info.getLocation());
      Where = fmt::format("{}:{}:{}: ", L.File, L.Line, L.Column);
    }
    Kept.push_back(Where + "error: " + Msg.str().str());
    if (First.empty())
      First = Where + Msg.str().str();
  }
  unsigned Errors = 0;
  std::string First;
  std::vector<std::string> Kept;
};

/// The translated commands of one file: what ClangTool runs.
class PreparedCommands : public tooling::CompilationDatabase {
public:
  explicit PreparedCommands(std::vector<tooling::CompileCommand> Commands)
      : Commands(std::move(Commands)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef) const override {
    return Commands;
  }
  std::vector<std::string> getAllFiles() const override {
    std::vector<std::string> Files;
    for (const tooling::CompileCommand &C : Commands)
      Files.push_back(C.Filename);
    return Files;
  }

private:
  std::vector<tooling::CompileCommand> Commands;
};

/// Finds the kernels of a TU: instantiated kernels as they are, kernel
/// templates without instantiations as patterns.
class KernelFinder : public RecursiveASTVisitor<KernelFinder> {
public:
  explicit KernelFinder(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  /// System headers (the CUDA runtime, CCCL) hold no kernels to check;
  /// skipping them keeps the walk proportional to the user's code. Their
  /// wrappers are still analysed when a kernel calls them.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody())
      return true;
    if (FD->isDependentContext()) {
      const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate();
      bool HasInstances = T && !T->specializations().empty();
      if (!HasInstances)
        Kernels.push_back({FD, /*IsPattern=*/true});
      return true;
    }
    Kernels.push_back({FD, /*IsPattern=*/false});
    return true;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    Tcgen05 += GraphBuilder::countTcgen05(*S);
    return true;
  }

  /// Calls of no arguments in user code: the candidates for a spelling of
  /// tcgen05.wait::ld (GraphBuilder::noteWaitLdSpelling).
  bool VisitCallExpr(CallExpr *CE) {
    if (CE->getNumArgs() == 0 && !isa<CXXMemberCallExpr>(CE) &&
        CE->getDirectCallee())
      NullaryCalls.push_back(CE);
    return true;
  }

  std::vector<std::pair<const FunctionDecl *, bool>> Kernels;
  std::vector<const CallExpr *> NullaryCalls;
  unsigned Tcgen05 = 0;

private:
  const SourceManager &SM;
};

/// Builds graphs once the TU is parsed.
class GraphConsumer : public ASTConsumer {
public:
  GraphConsumer(TranslationUnitResult &Out, const FrontendLimits &Limits,
                KernelConsumer OnKernel)
      : Out(Out), Limits(Limits), OnKernel(OnKernel) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    buildKernelGraphs(Ctx, Limits, Out, OnKernel);
  }

private:
  TranslationUnitResult &Out;
  const FrontendLimits &Limits;
  KernelConsumer OnKernel;
};

class GraphAction : public ASTFrontendAction {
public:
  GraphAction(TranslationUnitResult &Out, const FrontendLimits &Limits,
              KernelConsumer OnKernel)
      : Out(Out), Limits(Limits), OnKernel(OnKernel) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    Out.Parsed = true;
    return std::make_unique<GraphConsumer>(Out, Limits, OnKernel);
  }

private:
  TranslationUnitResult &Out;
  const FrontendLimits &Limits;
  KernelConsumer OnKernel;
};

class GraphActionFactory : public tooling::FrontendActionFactory {
public:
  GraphActionFactory(TranslationUnitResult &Out, const FrontendLimits &Limits,
                     KernelConsumer OnKernel)
      : Out(Out), Limits(Limits), OnKernel(OnKernel) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<GraphAction>(Out, Limits, OnKernel);
  }

private:
  TranslationUnitResult &Out;
  const FrontendLimits &Limits;
  KernelConsumer OnKernel;
};

} // namespace

void buildKernelGraphs(ASTContext &Ctx, const FrontendLimits &Limits,
                       TranslationUnitResult &Out, KernelConsumer OnKernel) {
  using Clock = std::chrono::steady_clock;
  auto Start = Clock::now();
  Clock::duration InConsumer{};
  KernelFinder Finder(Ctx.getSourceManager());
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  Out.Tcgen05Instructions += Finder.Tcgen05;
  ValueEvaluator Eval(Ctx);
  GraphBuilder Builder(Ctx, Eval, Limits);
  for (const CallExpr *CE : Finder.NullaryCalls)
    Builder.noteWaitLdSpelling(CE);
  for (auto [FD, IsPattern] : Finder.Kernels) {
    KernelGraph G = Builder.build(FD, IsPattern);
    // A wrapper the file uses spells the wait::ld fix-its.
    G.WaitLdCall = Builder.waitLdCallFor(FD);
    // tcgen05 reached through wrappers in system headers counts too.
    G.forEachEvent([&](const Event &E) {
      Out.Tcgen05Instructions += E.K == Event::Kind::Tmem;
    });
    if (!OnKernel) {
      Out.Kernels.push_back(std::move(G));
      continue;
    }
    auto Handed = Clock::now();
    OnKernel(G);
    InConsumer += Clock::now() - Handed;
  }
  Out.Remarks.insert(Out.Remarks.end(), Builder.remarks().begin(),
                     Builder.remarks().end());
  Out.GraphSeconds +=
      std::chrono::duration<double>(Clock::now() - Start - InConsumer).count();
}

TranslationUnitResult
analyzeTranslationUnit(const tooling::CompilationDatabase &Db, StringRef File,
                       const CudaEnvironment &Env, const FrontendLimits &Limits,
                       KernelConsumer OnKernel) {
  TranslationUnitResult Result;
  Result.File = File.str();
  if (!llvm::sys::fs::exists(File)) {
    Result.FirstError = "no such file";
    return Result;
  }
  if (llvm::sys::fs::is_directory(File)) {
    Result.FirstError = "is a directory";
    return Result;
  }

  // Each command of the file, translated (NvccCommandLine.h). A command
  // that cannot be translated fails the file, naming the command and the
  // option; identical translations are parsed once.
  // Looked up and parsed by its absolute path: the database may name it
  // so, and each command runs in its own directory.
  SmallString<256> AbsFile(File);
  llvm::sys::fs::make_absolute(AbsFile);
  llvm::sys::path::remove_dots(AbsFile, /*remove_dot_dot=*/true);
  std::vector<tooling::CompileCommand> Prepared;
  for (tooling::CompileCommand &C : Db.getCompileCommands(AbsFile)) {
    ParseCommand PC = Env.prepareParse(C.CommandLine, C.Directory, AbsFile);
    for (std::string &U : PC.UnknownOptions)
      if (!llvm::is_contained(Result.UnknownOptions, U))
        Result.UnknownOptions.push_back(std::move(U));
    if (!PC.Error.empty()) {
      Result.FirstError =
          fmt::format("the compile command of this file (directory '{}') "
                      "cannot be translated: {}",
                      C.Directory, PC.Error);
      return Result;
    }
    if (!PC.ArchNote.empty())
      Result.Remarks.push_back({SourceLoc{Result.File, 0, 0, false},
                                PC.ArchNote + " (--gpu-arch chooses)"});
    C.CommandLine = std::move(PC.Args);
    if (llvm::none_of(Prepared, [&](const tooling::CompileCommand &P) {
          return P.CommandLine == C.CommandLine && P.Directory == C.Directory;
        }))
      Prepared.push_back(std::move(C));
  }
  PreparedCommands Commands(std::move(Prepared));

  // A file system of its own: ClangTool moves into each command's
  // directory, and on the real (process-wide) file system that would move
  // the other threads of -j too, which then miss relative paths.
  tooling::ClangTool Tool(Commands, {std::string(AbsFile)},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  Tool.setPrintErrorMessage(false);
  if (Env.cudaPath().empty())
    Tool.mapVirtualFile(CudaEnvironment::stubHeaderName(),
                        CudaEnvironment::stubHeaderContents());
  Tool.clearArgumentsAdjusters();
  ErrorCollector Errors;
  Tool.setDiagnosticConsumer(&Errors);
  GraphActionFactory Factory(Result, Limits, OnKernel);
  auto Start = std::chrono::steady_clock::now();
  Tool.run(&Factory);
  Result.FrontendSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  Result.CompileErrors = Errors.Errors;
  Result.FirstError = Errors.First;
  Result.ErrorLines = std::move(Errors.Kept);
  if (!Result.Parsed && Result.FirstError.empty())
    Result.FirstError = "no compile command could be made for this file";

  if (Result.Parsed && Result.Tcgen05Instructions == 0)
    Result.Remarks.push_back(
        {SourceLoc{Result.File, 0, 0, false},
         "no tcgen05 instructions found in device code; if this file uses "
         "CUTLASS SM100 code, it is compiled out under Clang: add "
         "-DCUTLASS_ARCH_MMA_SM100_SUPPORTED after -- to analyse kernels "
         "guarded by it (CuTe's TMEM wrappers are then recognised by name; "
         "defining CUTE_ARCH_TCGEN05_TMEM_ENABLED instead does not parse "
         "under Clang, see docs/user-guide.md); wrappers defined in another "
         "translation unit can be modelled with ApiModels in .tmemcheck.yaml"});
  return Result;
}

} // namespace tmemcheck
