//===- ClangFrontend.cpp - CUDA source to kernel event graphs -------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/ClangFrontend.h"
#include "tmemcheck/Frontend/PreludePch.h"

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
#include "llvm/ADT/DenseSet.h"
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

  /// What has been collected so far, to forget what a failed attempt added.
  struct Mark {
    unsigned Errors;
    size_t Kept;
    bool HadFirst;
  };
  Mark mark() const { return {Errors, Kept.size(), !First.empty()}; }
  void rewind(const Mark &M) {
    Errors = M.Errors;
    Kept.resize(M.Kept);
    if (!M.HadFirst)
      First.clear();
  }
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

/// The prefix of the functions analyzeTranslationUnit appends to take the
/// address of a configured specialisation (`Instantiate:`); they are not
/// callers, so their references do not make a function referenced.
constexpr llvm::StringLiteral InstantiationHelperPrefix =
    "__tmemcheck_instantiate_";

/// The function whose references count for \p FD: its template pattern for
/// an instantiation, so that a call of `task<128>` and a dependent call of
/// `task<N>` both mark the template referenced.
const FunctionDecl *referenceKey(const FunctionDecl *FD) {
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    FD = P;
  return FD->getCanonicalDecl();
}

/// Finds the kernels of a TU: instantiated kernels as they are, kernel
/// templates without instantiations as patterns, and the candidates for
/// `__device__` entry points (AnalysisRoots) with the functions that
/// something references.
class KernelFinder : public RecursiveASTVisitor<KernelFinder> {
public:
  KernelFinder(const SourceManager &SM, const AnalysisRoots &Roots)
      : SM(SM), Roots(Roots) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  /// System headers (the CUDA runtime, CCCL) hold no kernels to check;
  /// skipping them keeps the walk proportional to the user's code. Their
  /// wrappers are still analysed when a kernel calls them.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Enclosing.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Enclosing.pop_back();
    return Result;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody())
      return true;
    if (!FD->hasAttr<CUDAGlobalAttr>()) {
      noteDeviceCandidate(FD);
      return true;
    }
    if (FD->isDependentContext()) {
      const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate();
      bool HasInstances = T && !T->specializations().empty();
      if (!HasInstances)
        Kernels.push_back({FD, /*IsPattern=*/true, /*DeviceRoot=*/false});
      return true;
    }
    Kernels.push_back({FD, /*IsPattern=*/false, /*DeviceRoot=*/false});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *FD = dyn_cast<FunctionDecl>(E->getDecl()))
      noteReference(FD);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (const auto *FD = dyn_cast<FunctionDecl>(E->getMemberDecl()))
      noteReference(FD);
    return true;
  }
  bool VisitOverloadExpr(OverloadExpr *E) {
    for (const NamedDecl *D : E->decls()) {
      D = D->getUnderlyingDecl();
      if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
        noteReference(T->getTemplatedDecl());
      else if (const auto *FD = dyn_cast<FunctionDecl>(D))
        noteReference(FD);
    }
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

  /// Adds the device functions that are entry points (AnalysisRoots) to
  /// Kernels, once the whole TU has been walked. Whether one uses TMEM is
  /// known only from its graph: buildKernelGraphs drops those that do not.
  void addDeviceRoots() {
    for (auto [FD, IsPattern] : DeviceCandidates) {
      std::string Name = FD->getQualifiedNameAsString();
      bool Listed = llvm::is_contained(Roots.Functions, Name);
      if (!Listed) {
        if (!Roots.UnreferencedDeviceFunctions ||
            Referenced.count(referenceKey(FD)) ||
            !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
          continue;
      }
      Kernels.push_back({FD, IsPattern, /*DeviceRoot=*/true, Listed});
    }
  }

  struct Entry {
    const FunctionDecl *FD;
    bool IsPattern;
    bool DeviceRoot;
    bool Listed = false; ///< named in Roots: Functions.
  };
  std::vector<Entry> Kernels;
  std::vector<const CallExpr *> NullaryCalls;
  unsigned Tcgen05 = 0;

private:
  void noteDeviceCandidate(const FunctionDecl *FD) {
    if (!FD->hasAttr<CUDADeviceAttr>() || FD->isImplicit() ||
        isa<CXXConstructorDecl>(FD) || isa<CXXDestructorDecl>(FD) ||
        FD->isOverloadedOperator() || FD->getDeclName().isEmpty() ||
        !FD->getIdentifier())
      return;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && MD->getParent()->isLambda())
      return;
    if (FD->getName().starts_with(InstantiationHelperPrefix))
      return;
    if (FD->isDependentContext()) {
      // A template: a pattern only when it has no instantiation (as for
      // kernels); an uninstantiated member of a class template is skipped.
      const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate();
      if (!T || !T->specializations().empty())
        return;
      DeviceCandidates.push_back({FD, true});
      return;
    }
    DeviceCandidates.push_back({FD, false});
  }

  void noteReference(const FunctionDecl *FD) {
    const FunctionDecl *From = Enclosing.empty() ? nullptr : Enclosing.back();
    if (From && From->getIdentifier() &&
        From->getName().starts_with(InstantiationHelperPrefix))
      return;
    const FunctionDecl *Key = referenceKey(FD);
    if (From && referenceKey(From) == Key)
      return; // recursion is not a caller
    Referenced.insert(Key);
  }

  const SourceManager &SM;
  const AnalysisRoots &Roots;
  std::vector<const FunctionDecl *> Enclosing;
  std::vector<std::pair<const FunctionDecl *, bool>> DeviceCandidates;
  llvm::DenseSet<const FunctionDecl *> Referenced;
};

/// True when \p G's tcgen05 operations come from at least two statements
/// of the function itself (an asm statement, or a call it makes): a task
/// body rather than a wrapper of one instruction, which is not an entry
/// point even when nothing in the file calls it.
bool usesTmemBeyondOneStatement(const KernelGraph &G) {
  std::optional<SourceLoc> First;
  bool Found = false;
  G.forEachEvent([&](const Event &E) {
    if (Found || E.K != Event::Kind::Tmem)
      return;
    const SourceLoc &At = E.Stack.empty() ? E.Loc : E.Stack.front().CallSite;
    if (!First)
      First = At;
    else if (At.File != First->File || At.Line != First->Line ||
             At.Column != First->Column)
      Found = true;
  });
  return Found;
}

/// Builds graphs once the TU is parsed.
class GraphConsumer : public ASTConsumer {
public:
  GraphConsumer(TranslationUnitResult &Out, const FrontendLimits &Limits,
                KernelConsumer OnKernel, bool &Reached)
      : Out(Out), Limits(Limits), OnKernel(OnKernel), Reached(Reached) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Reached = true;
    buildKernelGraphs(Ctx, Limits, Out, OnKernel);
    if (!Limits.RecordInputFiles)
      return;
    SourceManager &SM = Ctx.getSourceManager();
    for (auto It = SM.fileinfo_begin(), E = SM.fileinfo_end(); It != E; ++It) {
      // The embedded headers are part of the tool, not of the code.
      if (CudaEnvironment::isEmbeddedHeader(It->first.getName()))
        continue;
      Out.InputFiles.push_back(
          inputFilePath(SM.getFileManager(), It->first.getName()));
    }
  }

private:
  TranslationUnitResult &Out;
  const FrontendLimits &Limits;
  KernelConsumer OnKernel;
  bool &Reached;
};

class GraphAction : public ASTFrontendAction {
public:
  GraphAction(TranslationUnitResult &Out, const FrontendLimits &Limits,
              KernelConsumer OnKernel, bool &Reached)
      : Out(Out), Limits(Limits), OnKernel(OnKernel), Reached(Reached) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    Out.Parsed = true;
    return std::make_unique<GraphConsumer>(Out, Limits, OnKernel, Reached);
  }

private:
  TranslationUnitResult &Out;
  const FrontendLimits &Limits;
  KernelConsumer OnKernel;
  bool &Reached;
};

/// Runs GraphAction on each command, with the PCH of the pre-included
/// headers when FrontendLimits::Prelude gives one (PreludePch.h); a PCH
/// Clang cannot load is discarded and the command parsed again without.
class GraphActionFactory : public tooling::FrontendActionFactory {
public:
  GraphActionFactory(TranslationUnitResult &Out, const FrontendLimits &Limits,
                     KernelConsumer OnKernel, ErrorCollector &Errors)
      : Out(Out), Limits(Limits), OnKernel(OnKernel), Errors(Errors) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<GraphAction>(Out, Limits, OnKernel, Reached);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> Ops,
                     DiagnosticConsumer *Diags) override {
    Reached = false;
    std::optional<PreludePch::Prepared> P;
    if (Limits.Prelude)
      P = Limits.Prelude->prepare(*Invocation, *Files, Ops);
    if (P && !P->Invocation)
      Out.Prelude = TranslationUnitResult::PreludeFrom::FirstParse;
    if (P && P->Invocation) {
      ErrorCollector::Mark Before = Errors.mark();
      bool Ok = FrontendActionFactory::runInvocation(P->Invocation, Files, Ops,
                                                     Diags);
      if (Reached) {
        Out.Prelude = P->From == PreludePch::Origin::Built
                          ? TranslationUnitResult::PreludeFrom::BuiltPch
                          : TranslationUnitResult::PreludeFrom::ReusedPch;
        if (Limits.RecordInputFiles)
          Out.InputFiles.insert(Out.InputFiles.end(), P->InputFiles.begin(),
                                P->InputFiles.end());
        return Ok;
      }
      // Clang refused the PCH before parsing anything: forget its errors.
      Errors.rewind(Before);
      Limits.Prelude->discard(*P);
      Out.Prelude = TranslationUnitResult::PreludeFrom::UnusablePch;
    }
    return FrontendActionFactory::runInvocation(std::move(Invocation), Files,
                                                std::move(Ops), Diags);
  }

private:
  TranslationUnitResult &Out;
  const FrontendLimits &Limits;
  KernelConsumer OnKernel;
  ErrorCollector &Errors;
  bool Reached = false;
};

} // namespace

std::string
instantiationsFor(StringRef Source,
                  const std::vector<TemplateInstantiation> &Instantiations) {
  std::string Out;
  unsigned N = 0;
  for (const TemplateInstantiation &I : Instantiations) {
    StringRef Name = StringRef(I.Kernel).rsplit("::").second;
    if (Name.empty())
      Name = I.Kernel;
    // Only a file that declares or uses the template can instantiate it.
    bool Named = false;
    for (size_t Pos = Source.find(Name); Pos != StringRef::npos;
         Pos = Source.find(Name, Pos + 1)) {
      auto IsWord = [](char C) { return llvm::isAlnum(C) || C == '_'; };
      bool Before = Pos > 0 && IsWord(Source[Pos - 1]);
      size_t End = Pos + Name.size();
      bool After = End < Source.size() && IsWord(Source[End]);
      // Declared or used: the name is followed by its template arguments
      // or parameters (a comment that mentions the word is not enough).
      size_t Next = Source.find_first_not_of(" \t\r\n", End);
      bool Used = Next != StringRef::npos &&
                  (Source[Next] == '<' || Source[Next] == '(');
      if (!Before && !After && Used) {
        Named = true;
        break;
      }
    }
    if (!Named)
      continue;
    // Taking the address instantiates the specialisation without spelling
    // its parameter types; a device function may, for a __device__ task
    // and a __global__ kernel alike.
    Out += fmt::format("\nstatic __device__ __attribute__((unused)) void "
                       "{}{}() {{ (void)&{}<{}>; }}",
                       InstantiationHelperPrefix.str(), N++, I.Kernel, I.Args);
  }
  if (!Out.empty())
    Out += "\n";
  return Out;
}

void buildKernelGraphs(ASTContext &Ctx, const FrontendLimits &Limits,
                       TranslationUnitResult &Out, KernelConsumer OnKernel) {
  using Clock = std::chrono::steady_clock;
  auto Start = Clock::now();
  Clock::duration InConsumer{};
  KernelFinder Finder(Ctx.getSourceManager(), Limits.Roots);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  Finder.addDeviceRoots();
  Out.Tcgen05Instructions += Finder.Tcgen05;
  ValueEvaluator Eval(Ctx);
  GraphBuilder Builder(Ctx, Eval, Limits);
  for (const CallExpr *CE : Finder.NullaryCalls)
    Builder.noteWaitLdSpelling(CE);
  for (const KernelFinder::Entry &K : Finder.Kernels) {
    const FunctionDecl *FD = K.FD;
    KernelGraph G = Builder.build(FD, K.IsPattern);
    if (K.DeviceRoot) {
      // Only a task that uses TMEM is an entry point worth analysing; a
      // listed one is analysed whatever it holds.
      if (!K.Listed && !usesTmemBeyondOneStatement(G))
        continue;
      G.Remarks.push_back(
          {G.Loc,
           fmt::format("'{}' is a __device__ function {}: analysed as an entry "
                       "point, assuming that every thread of the CTA enters it "
                       "with the same arguments "
                       "(Roots in .tmemcheck.yaml)",
                       G.Name,
                       K.Listed ? "listed in Roots: Functions"
                                : "that uses TMEM and that nothing in this "
                                  "translation unit calls")});
    }
    if (K.IsPattern)
      G.markIncomplete(
          G.Loc,
          fmt::format("'{}' is a template without an instantiation in this "
                      "translation unit: analysed as a pattern, its template "
                      "parameters unknown and both arms of branches on them "
                      "taken; instantiate it (an explicit instantiation, or "
                      "`Instantiate: [{{Kernel: {}, Args: \"...\"}}]` in "
                      ".tmemcheck.yaml) to analyse it as it runs",
                      G.Name, FD->getQualifiedNameAsString()));
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

namespace {

/// \p File as the databases are asked for it and the parse reads it: by
/// absolute path (the database may name it so, and each command runs in
/// its own directory).
SmallString<256> absoluteInput(StringRef File) {
  SmallString<256> AbsFile(File);
  llvm::sys::fs::make_absolute(AbsFile);
  llvm::sys::path::remove_dots(AbsFile, /*remove_dot_dot=*/true);
  return AbsFile;
}

} // namespace

std::string parseCommandsKey(const tooling::CompilationDatabase &Db,
                             StringRef File, const CudaEnvironment &Env) {
  SmallString<256> AbsFile = absoluteInput(File);
  std::string Key = ("file " + AbsFile + "\n").str();
  for (const tooling::CompileCommand &C : Db.getCompileCommands(AbsFile)) {
    ParseCommand PC = Env.prepareParse(C.CommandLine, C.Directory, AbsFile);
    Key += "command " + C.Directory + "\n";
    for (const std::string &A : PC.Args)
      Key += "  " + A + "\n";
    if (!PC.Error.empty())
      Key += "error " + PC.Error + "\n";
  }
  return Key;
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
  SmallString<256> AbsFile = absoluteInput(File);
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
  for (auto [Name, Contents] : CudaEnvironment::embeddedHeaders())
    Tool.mapVirtualFile(Name, Contents);
  // `Instantiate:` specialisations: appended to the file itself, so that its
  // line numbers stay as they are.
  // ClangTool keeps references to both strings until it has run.
  std::string WithInstantiations;
  SmallString<256> InstantiatedFile(File);
  if (!Limits.Roots.Instantiations.empty())
    if (auto Buf = llvm::MemoryBuffer::getFile(File)) {
      WithInstantiations =
          instantiationsFor((*Buf)->getBuffer(), Limits.Roots.Instantiations);
      if (!WithInstantiations.empty()) {
        llvm::sys::fs::make_absolute(InstantiatedFile);
        WithInstantiations.insert(0, (*Buf)->getBuffer().str());
        Tool.mapVirtualFile(InstantiatedFile, WithInstantiations);
      }
    }
  Tool.clearArgumentsAdjusters();
  ErrorCollector Errors;
  Tool.setDiagnosticConsumer(&Errors);
  GraphActionFactory Factory(Result, Limits, OnKernel, Errors);
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
