//===- PreludePch.cpp - The pre-included headers, precompiled -------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/PreludePch.h"

#include "tmemcheck/Frontend/CudaEnvironment.h"

#include "ClangSourceLoc.h"

#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

#ifndef _WIN32
#include <unistd.h>
#endif

using namespace clang;
using namespace llvm;

namespace tmemcheck {

std::optional<std::vector<PchInput>> parsePchInputs(StringRef Text) {
  std::vector<PchInput> Inputs;
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    auto [SizeText, Rest] = Line.split(' ');
    auto [TimeText, Path] = Rest.split(' ');
    PchInput In;
    if (SizeText.getAsInteger(10, In.Size) ||
        TimeText.getAsInteger(10, In.ModificationTime) || Path.empty())
      return std::nullopt;
    In.Path = Path.str();
    Inputs.push_back(std::move(In));
  }
  return Inputs;
}

std::string printPchInputs(const std::vector<PchInput> &Inputs) {
  std::string Text;
  for (const PchInput &In : Inputs)
    Text += fmt::format("{} {} {}\n", In.Size, In.ModificationTime, In.Path);
  return Text;
}

bool pchInputsUnchanged(const std::vector<PchInput> &Inputs,
                        vfs::FileSystem &FS) {
  return llvm::all_of(Inputs, [&](const PchInput &In) {
    ErrorOr<vfs::Status> S = FS.status(In.Path);
    return S && S->getSize() == In.Size &&
           sys::toTimeT(S->getLastModificationTime()) == In.ModificationTime;
  });
}

namespace {

/// How many of \p PP's pre-included headers, from the first, are the
/// prelude: the CUDA runtime wrapper the driver adds and tmemcheck's
/// embedded headers, none of them the user's.
unsigned preludeIncludes(const PreprocessorOptions &PP) {
  unsigned N = 0;
  for (const std::string &Include : PP.Includes) {
    if (Include != "__clang_cuda_runtime_wrapper.h" &&
        !CudaEnvironment::isEmbeddedHeader(Include))
      break;
    ++N;
  }
  return N;
}

/// What the PCH of \p Inv's first \p N pre-included headers depends on:
/// the parse command without the file (its name, its output, its CUDA
/// compilation-unit id) and without the includes that follow, the working
/// directory relative paths resolve in, Clang's version and the embedded
/// headers' text.
std::string pchKey(const CompilerInvocation &Inv, unsigned N,
                   StringRef WorkingDirectory) {
  CompilerInvocation K(Inv);
  K.getFrontendOpts().Inputs.clear();
  K.getFrontendOpts().OutputFile.clear();
  K.getFrontendOpts().ProgramAction = frontend::ParseSyntaxOnly;
  K.getCodeGenOpts().MainFileName.clear();
  K.getCodeGenOpts().DebugCompilationDir.clear();
  K.getCodeGenOpts().CoverageCompilationDir.clear();
  // Derived from the file's path; names the externalised static device
  // variables of code generation, which a parse does not do.
  K.getLangOpts().CUID.clear();
  K.getPreprocessorOpts().Includes.resize(N);
  std::string Text;
  K.generateCC1CommandLine([&](const Twine &Arg) {
    Text += Arg.str();
    Text += '\0';
  });
  Text += "\ncwd ";
  Text += WorkingDirectory;
  Text += "\nclang " + getClangFullVersion() + "\n";
  for (auto [Name, Contents] : CudaEnvironment::embeddedHeaders()) {
    Text += Name;
    Text += '\0';
    Text += Contents;
    Text += '\0';
  }
  XXH128_hash_t H = xxh3_128bits(arrayRefFromStringRef(Text));
  return fmt::format("{:016x}{:016x}", H.high64, H.low64);
}

/// Writes \p Text to \p Path through a temporary file renamed into place
/// (llvm::writeToOutput), so that a concurrent reader sees the old file or
/// the new one.
bool writeAtomically(const std::string &Path, StringRef Text) {
  if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
        OS << Text;
        return Error::success();
      })) {
    consumeError(std::move(E));
    return false;
  }
  return true;
}

/// The inputs of \p Base's PCH, when it and its list of inputs exist and
/// every input is as it was.
std::optional<std::vector<PchInput>> freshInputs(const std::string &Base,
                                                 vfs::FileSystem &FS) {
  if (!sys::fs::exists(Base + ".pch"))
    return std::nullopt;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Base + ".inputs");
  if (!Buf)
    return std::nullopt;
  std::optional<std::vector<PchInput>> Inputs =
      parsePchInputs((*Buf)->getBuffer());
  if (!Inputs || !pchInputsUnchanged(*Inputs, FS))
    return std::nullopt;
  return Inputs;
}

std::vector<std::string> pathsOf(const std::vector<PchInput> &Inputs) {
  std::vector<std::string> Paths;
  for (const PchInput &In : Inputs)
    Paths.push_back(In.Path);
  return Paths;
}

/// False when \p Directory exists and belongs to another user: in a shared
/// temporary directory, its PCHs could be anything but the headers'.
bool ownsDirectory(const std::string &Directory) {
  sys::fs::file_status S;
  if (sys::fs::status(Directory, S))
    return !sys::fs::exists(S);
#ifdef _WIN32
  return true;
#else
  return S.getUser() == ::getuid();
#endif
}

} // namespace

PreludePch::PreludePch(std::string Dir, unsigned Keep) : Keep(Keep) {
  // Absolute: each parse runs in its command's directory.
  SmallString<256> Path(Dir);
  (void)sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
  Directory = std::string(Path);
}

std::optional<PreludePch::Prepared>
PreludePch::prepare(const CompilerInvocation &Inv, FileManager &Files,
                    std::shared_ptr<PCHContainerOperations> Ops) {
  const PreprocessorOptions &PP = Inv.getPreprocessorOpts();
  unsigned N = preludeIncludes(PP);
  if (N == 0 || !PP.ImplicitPCHInclude.empty() || !PP.MacroIncludes.empty() ||
      !PP.ChainedIncludes.empty() || Inv.getFrontendOpts().Inputs.size() != 1)
    return std::nullopt;
  if (!ownsDirectory(Directory))
    return std::nullopt;
  vfs::FileSystem &FS = Files.getVirtualFileSystem();
  std::string WorkingDirectory;
  if (ErrorOr<std::string> Cwd = FS.getCurrentWorkingDirectory())
    WorkingDirectory = *Cwd;
  Prepared P;
  P.Key = pchKey(Inv, N, WorkingDirectory);
  SmallString<256> BasePath(Directory);
  sys::path::append(BasePath, P.Key);
  std::string Base(BasePath);

  std::optional<std::vector<PchInput>> Inputs = freshInputs(Base, FS);
  if (!Inputs) {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Failed.contains(P.Key))
      return std::nullopt;
    // Another thread may have built it while this one waited.
    Inputs = freshInputs(Base, FS);
    if (!Inputs) {
      // The first parse of a command only leaves the PCH's main file: a
      // PCH costs more to build than the headers to parse, and pays only
      // from the second parse of the command on.
      if (!sys::fs::exists(Base + ".prelude.cu")) {
        if (!writeMainFile(Base)) {
          Failed.insert(P.Key);
          return std::nullopt;
        }
        P.From = Origin::FirstSeen;
        prune();
        return P;
      }
      if (!build(Inv, N, Base, Files, Ops)) {
        Failed.insert(P.Key);
        return std::nullopt;
      }
      Inputs = freshInputs(Base, FS);
      if (!Inputs) {
        Failed.insert(P.Key);
        return std::nullopt;
      }
      P.From = Origin::Built;
      prune();
    }
  }
  P.InputFiles = pathsOf(*Inputs);
  P.Invocation = std::make_shared<CompilerInvocation>(Inv);
  PreprocessorOptions &Uses = P.Invocation->getPreprocessorOpts();
  Uses.Includes.erase(Uses.Includes.begin(), Uses.Includes.begin() + N);
  Uses.ImplicitPCHInclude = Base + ".pch";
  return P;
}

bool PreludePch::writeMainFile(const std::string &Base) {
  if (sys::fs::create_directories(Directory) || !ownsDirectory(Directory))
    return false;
  // Written once and never rewritten: Clang checks its size when the PCH
  // is loaded.
  return writeAtomically(Base + ".prelude.cu",
                         "// tmemcheck: the main file of a PCH of the "
                         "pre-included headers\n");
}

bool PreludePch::build(const CompilerInvocation &Inv, unsigned N,
                       const std::string &Base, FileManager &Files,
                       std::shared_ptr<PCHContainerOperations> Ops) {
  std::string Main = Base + ".prelude.cu";

  auto BuildInv = std::make_shared<CompilerInvocation>(Inv);
  clang::FrontendOptions &FO = BuildInv->getFrontendOpts();
  InputKind Kind = FO.Inputs.front().getKind();
  FO.Inputs = {FrontendInputFile(Main, Kind)};
  FO.OutputFile = Base + ".pch";
  FO.ProgramAction = frontend::GeneratePCH;
  // Sizes only: the inputs' times are tmemcheck's to check (.inputs).
  FO.IncludeTimestamps = false;
  BuildInv->getPreprocessorOpts().Includes.resize(N);

  CompilerInstance CI(BuildInv, std::move(Ops));
  CI.setVirtualFileSystem(Files.getVirtualFileSystemPtr());
  CI.createFileManager();
  // Counts the errors and prints nothing: a build that fails leaves the
  // parse to read the headers itself, which reports them.
  DiagnosticConsumer Diags;
  CI.createDiagnostics(&Diags, /*ShouldOwnClient=*/false);
  if (!CI.hasDiagnostics())
    return false;
  CI.createSourceManager();
  GeneratePCHAction Action;
  bool Ok = CI.ExecuteAction(Action) && Diags.getNumErrors() == 0 &&
            CI.hasSourceManager();
  if (!Ok) {
    sys::fs::remove(Base + ".pch");
    return false;
  }

  // Every file the headers read, as it is now.
  std::vector<PchInput> Inputs;
  SourceManager &SM = CI.getSourceManager();
  for (auto It = SM.fileinfo_begin(), E = SM.fileinfo_end(); It != E; ++It) {
    FileEntryRef F = It->first;
    StringRef Name = F.getName();
    if (CudaEnvironment::isEmbeddedHeader(Name) || Name == Main)
      continue;
    Inputs.push_back({inputFilePath(CI.getFileManager(), Name),
                      static_cast<uint64_t>(F.getSize()),
                      static_cast<int64_t>(F.getModificationTime())});
  }
  llvm::sort(Inputs, [](const PchInput &A, const PchInput &B) {
    return A.Path < B.Path;
  });
  return writeAtomically(Base + ".inputs", printPchInputs(Inputs));
}

void PreludePch::discard(const Prepared &P) {
  SmallString<256> Base(Directory);
  sys::path::append(Base, P.Key);
  sys::fs::remove(Base + ".inputs");
}

void PreludePch::prune() {
  // PCHs by age, and the marks of commands parsed once (a main file without
  // a PCH) by age: at most Keep of the first, 4 * Keep of the second.
  std::vector<std::pair<sys::TimePoint<>, std::string>> Pchs, Marks;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Path = It->path();
    bool IsPch = Path.ends_with(".pch");
    StringRef Base = IsPch ? Path.drop_back(StringRef(".pch").size())
                           : Path.drop_back(StringRef(".prelude.cu").size());
    if (!IsPch &&
        (!Path.ends_with(".prelude.cu") || sys::fs::exists(Base + ".pch")))
      continue;
    sys::fs::file_status S;
    if (!sys::fs::status(Path, S))
      (IsPch ? Pchs : Marks)
          .push_back({S.getLastModificationTime(), Base.str()});
  }
  auto DropOldest =
      [](std::vector<std::pair<sys::TimePoint<>, std::string>> &Bases,
         size_t Kept) {
        if (Bases.size() <= Kept)
          return;
        llvm::sort(Bases);
        for (size_t I = 0; I + Kept < Bases.size(); ++I) {
          const std::string &Base = Bases[I].second;
          sys::fs::remove(Base + ".inputs");
          sys::fs::remove(Base + ".pch");
          sys::fs::remove(Base + ".prelude.cu");
        }
      };
  DropOldest(Pchs, Keep);
  DropOldest(Marks, 4 * size_t(Keep));
}

} // namespace tmemcheck
