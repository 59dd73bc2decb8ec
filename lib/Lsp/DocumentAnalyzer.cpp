//===- DocumentAnalyzer.cpp - Re-analysing an edited buffer fast ----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Lsp/DocumentAnalyzer.h"

#include "tmemcheck/Driver/KernelAnalysis.h"
#include "tmemcheck/Frontend/ClangFrontend.h"
#include "tmemcheck/Frontend/CudaEnvironment.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Driver/CreateASTUnitFromArgs.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <chrono>

using namespace clang;

namespace tmemcheck {
namespace lsp {

namespace {

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

/// Where a stored diagnostic points, in the terms of the findings.
SourceLoc locationOf(const StoredDiagnostic &D) {
  SourceLoc L;
  const FullSourceLoc &Loc = D.getLocation();
  if (!Loc.isValid() || !Loc.hasManager())
    return L;
  const SourceManager &SM = Loc.getManager();
  SourceLocation File = SM.getFileLoc(Loc);
  PresumedLoc P = SM.getPresumedLoc(File, /*UseLineDirectives=*/false);
  if (P.isInvalid())
    return L;
  L.File = P.getFilename();
  L.Line = P.getLine();
  L.Column = P.getColumn();
  return L;
}

/// The document as the editor has it (with the config's `Instantiate:`
/// specialisations appended, as the CLI does): the parse reads it instead
/// of the file. The ASTUnit takes ownership of the buffer.
std::vector<ASTUnit::RemappedFile> remappedFiles(const AnalysisInput &In) {
  std::string Main = In.Contents;
  if (In.Settings && !In.Settings->Frontend.Roots.Instantiations.empty())
    Main += instantiationsFor(In.Contents,
                              In.Settings->Frontend.Roots.Instantiations);
  return {
      {In.Path, llvm::MemoryBuffer::getMemBufferCopy(Main, In.Path).release()}};
}

/// The real file system in \p Directory, with tmemcheck's embedded headers
/// (the stub CUDA headers, the nvcc profile) in a directory of their own,
/// as ClangTool's mapped files have them for the CLI: header search finds
/// them there. They are the same bytes and times at every parse, so a
/// preamble that includes them stays valid.
IntrusiveRefCntPtr<llvm::vfs::FileSystem>
fileSystemFor(llvm::StringRef Directory) {
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  auto Embedded = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (auto [Name, Contents] : CudaEnvironment::embeddedHeaders())
    Embedded->addFile(Name, /*ModificationTime=*/0,
                      llvm::MemoryBuffer::getMemBuffer(Contents, Name));
  Overlay->pushOverlay(Embedded);
  if (!Directory.empty())
    (void)Overlay->setCurrentWorkingDirectory(Directory);
  return Overlay;
}

} // namespace

DocumentAnalyzer::DocumentAnalyzer()
    : PCHOps(std::make_shared<PCHContainerOperations>()) {}

DocumentAnalyzer::~DocumentAnalyzer() = default;

bool DocumentAnalyzer::parse(const AnalysisInput &In, AnalysisOutput &Out) {
  // A file system of its own, in the command's directory (the process's
  // working directory is not the command's).
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = fileSystemFor(In.Directory);
  std::vector<ASTUnit::RemappedFile> Remapped = remappedFiles(In);
  if (Unit && UnitArgs == In.ParseArgs && UnitDirectory == In.Directory) {
    // Reparse reuses the preamble when the includes and the files they
    // read are unchanged, and rebuilds it otherwise.
    Out.Reparsed = true;
    if (!Unit->Reparse(PCHOps, Remapped, FS)) {
      ++Parses;
      return true;
    }
    Unit.reset();
  }
  Out.Reparsed = false;
  Unit.reset();
  std::vector<const char *> Argv;
  for (const std::string &A : In.ParseArgs)
    Argv.push_back(A.c_str());
  auto DiagOpts = std::make_shared<DiagnosticOptions>();
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(*FS, *DiagOpts,
                                          new IgnoringDiagConsumer());
  std::unique_ptr<ASTUnit> ErrUnit;
  const std::string ResourceDir =
      In.Settings && In.Settings->Env ? In.Settings->Env->resourceDir() : "";
  Unit = CreateASTUnitFromCommandLine(
      Argv.data(), Argv.data() + Argv.size(), PCHOps, DiagOpts, Diags,
      ResourceDir, /*StorePreamblesInMemory=*/true,
      /*PreambleStoragePath=*/"", /*OnlyLocalDecls=*/false,
      CaptureDiagsKind::All, Remapped,
      /*RemappedFilesKeepOriginalName=*/true,
      /*PrecompilePreambleAfterNParses=*/1, TU_Complete,
      /*CacheCodeCompletionResults=*/false,
      /*IncludeBriefCommentsInCodeCompletion=*/false,
      /*AllowPCHWithCompilerErrors=*/true, SkipFunctionBodiesScope::None,
      /*SingleFileParse=*/false, /*UserFilesAreVolatile=*/true,
      /*ForSerialization=*/false, /*RetainExcludedConditionalBlocks=*/false,
      std::nullopt, &ErrUnit, FS);
  ++Parses;
  if (!Unit) {
    Out.FailReason = "Clang could not parse the file with its command";
    if (ErrUnit)
      for (auto D = ErrUnit->stored_diag_begin(),
                E = ErrUnit->stored_diag_end();
           D != E; ++D)
        if (D->getLevel() >= DiagnosticsEngine::Error) {
          Out.FailReason += ": " + D->getMessage().str();
          break;
        }
    return false;
  }
  UnitArgs = In.ParseArgs;
  UnitDirectory = In.Directory;
  return true;
}

AnalysisOutput DocumentAnalyzer::analyze(const AnalysisInput &In) {
  AnalysisOutput Out;
  if (!In.Settings || !In.Settings->Env) {
    Out.FailReason = "no settings for the file";
    return Out;
  }
  auto Start = std::chrono::steady_clock::now();
  llvm::CrashRecoveryContext CRC;
  bool Survived = CRC.RunSafely([&] {
    if (!parse(In, Out))
      return;
    Out.Parsed = true;
    Out.ParseSeconds = secondsSince(Start);
    // The compiler's errors: those in the document first (an editor shows
    // them there), then the others, up to the CLI's limit.
    std::vector<CompileError> Elsewhere;
    for (auto D = Unit->stored_diag_begin(), E = Unit->stored_diag_end();
         D != E; ++D) {
      if (D->getLevel() < DiagnosticsEngine::Error)
        continue;
      ++Out.CompileErrorCount;
      CompileError CE{locationOf(*D), D->getMessage().str()};
      (CE.Loc.File == In.Path ? Out.CompileErrors : Elsewhere)
          .push_back(std::move(CE));
    }
    for (CompileError &CE : Elsewhere)
      Out.CompileErrors.push_back(std::move(CE));
    if (Out.CompileErrors.size() > TranslationUnitResult::MaxKeptErrors)
      Out.CompileErrors.resize(TranslationUnitResult::MaxKeptErrors);

    auto ChecksStart = std::chrono::steady_clock::now();
    std::vector<std::unique_ptr<Check>> Checks = enabledChecks(*In.Settings);
    FindingSink Sink;
    TranslationUnitResult TU;
    TU.File = In.Path;
    buildKernelGraphs(
        Unit->getASTContext(), In.Settings->Frontend, TU, [&](KernelGraph &G) {
          if (!In.CrashInKernel.empty() && G.Name == In.CrashInKernel)
            LLVM_BUILTIN_TRAP;
          KernelOutcome K =
              analyseKernel(G, *In.Settings, Checks, /*WithReport=*/true);
          Out.KernelRemarks.insert(Out.KernelRemarks.end(), K.Remarks.begin(),
                                   K.Remarks.end());
          Out.Verdicts.push_back(std::move(K.Result.Verdict));
          if (K.Result.BudgetRemark) {
            Out.KernelRemarks.push_back(std::move(*K.Result.BudgetRemark));
            return;
          }
          for (Finding &F : K.Result.Findings)
            Sink.report(std::move(F));
          if (K.Report)
            Out.Reports.push_back(std::move(*K.Report));
        });
    Out.Findings = Sink.takeSorted();
    Out.CheckSeconds = secondsSince(ChecksStart);
  });
  if (!Survived) {
    // The unit may be half-updated: never touch it again, not even to
    // destroy it (its destructors may run into the same corruption).
    (void)Unit.release();
    UnitArgs.clear();
    AnalysisOutput Crashed;
    Crashed.Parsed = Out.Parsed;
    Crashed.Crashed = true;
    return Crashed;
  }
  return Out;
}

size_t DocumentAnalyzer::memoryBytes() const {
  if (!Unit)
    return 0;
  const ASTContext &Ctx = Unit->getASTContext();
  size_t Bytes =
      Ctx.getASTAllocatedMemory() + Ctx.getSideTableAllocatedMemory();
  SourceManager::MemoryBufferSizes Buffers =
      Unit->getSourceManager().getMemoryBufferSizes();
  Bytes += Buffers.malloc_bytes + Buffers.mmap_bytes +
           Unit->getSourceManager().getDataStructureSizes();
  if (Unit->hasSema())
    Bytes += Unit->getPreprocessor().getTotalMemory();
  return Bytes;
}

} // namespace lsp
} // namespace tmemcheck
