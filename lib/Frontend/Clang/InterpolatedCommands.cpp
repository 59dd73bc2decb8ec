//===- InterpolatedCommands.cpp - Commands for files a database lacks ----===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/NvccCommandLine.h"

#include "clang/Tooling/CompilationDatabase.h"

using namespace clang::tooling;

namespace tmemcheck {

namespace {

/// The commands of a database in Clang's syntax: what the interpolation
/// reads. A command that cannot be translated is left as it is (its file
/// then fails with the translation's message).
class ClangSyntaxView : public CompilationDatabase {
public:
  explicit ClangSyntaxView(const CompilationDatabase &Inner) : Inner(Inner) {}

  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    return translate(Inner.getCompileCommands(File));
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner.getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return translate(Inner.getAllCompileCommands());
  }

private:
  static std::vector<CompileCommand>
  translate(std::vector<CompileCommand> Commands) {
    for (CompileCommand &C : Commands) {
      TranslatedCommand T =
          translateCompileCommand(C.CommandLine, C.Directory, C.Filename);
      if (!T.Error.empty())
        continue;
      std::vector<std::string> Clang = {"clang++"};
      Clang.insert(Clang.end(), T.Args.begin(), T.Args.end());
      for (const std::string &Arch : T.GpuArchs)
        Clang.push_back("--cuda-gpu-arch=" + Arch);
      if (T.CompiledAsCuda) {
        Clang.push_back("-x");
        Clang.push_back("cuda");
      }
      Clang.push_back(C.Filename);
      C.CommandLine = std::move(Clang);
    }
    return Commands;
  }

  const CompilationDatabase &Inner;
};

/// Listed files: their own commands; others: interpolated from the
/// translated neighbours.
class WithInterpolation : public CompilationDatabase {
public:
  explicit WithInterpolation(std::unique_ptr<CompilationDatabase> Listed)
      : Listed(std::move(Listed)),
        Interpolated(inferMissingCompileCommands(
            std::make_unique<ClangSyntaxView>(*this->Listed))) {}

  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<CompileCommand> Own = Listed->getCompileCommands(File);
    if (!Own.empty())
      return Own;
    return Interpolated->getCompileCommands(File);
  }
  std::vector<std::string> getAllFiles() const override {
    return Listed->getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return Listed->getAllCompileCommands();
  }

private:
  std::unique_ptr<CompilationDatabase> Listed;
  std::unique_ptr<CompilationDatabase> Interpolated;
};

} // namespace

std::unique_ptr<CompilationDatabase>
withInterpolatedCommands(std::unique_ptr<CompilationDatabase> Db) {
  return std::make_unique<WithInterpolation>(std::move(Db));
}

} // namespace tmemcheck
