//===- InputSelection.cpp - Which files a run analyses --------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "InputSelection.h"

#include "tmemcheck/Frontend/NvccCommandLine.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <numeric>
#include <tuple>

using namespace llvm;

namespace tmemcheck {

Expected<Shard> parseShard(StringRef Text) {
  auto Bad = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "--shard=" + Text + ": " + Why);
  };
  auto [K, N] = Text.split('/');
  Shard S;
  if (!Text.contains('/') || K.trim().getAsInteger(10, S.Index) ||
      N.trim().getAsInteger(10, S.Count))
    return Bad("expected K/N, two positive integers (e.g. --shard=1/4)");
  if (S.Count == 0)
    return Bad("the number of shards N must be at least 1");
  if (S.Index == 0 || S.Index > S.Count)
    return Bad("the shard K must be between 1 and N (" + Twine(S.Count) + ")");
  return S;
}

std::vector<std::string> selectShard(const std::vector<std::string> &Files,
                                     Shard S) {
  std::vector<size_t> ByPath(Files.size());
  std::iota(ByPath.begin(), ByPath.end(), 0);
  llvm::sort(ByPath, [&](size_t A, size_t B) {
    return std::tie(Files[A], A) < std::tie(Files[B], B);
  });
  std::vector<bool> Selected(Files.size());
  for (size_t Rank = 0; Rank < ByPath.size(); ++Rank)
    Selected[ByPath[Rank]] = Rank % S.Count == S.Index - 1;
  std::vector<std::string> Out;
  for (size_t I = 0; I < Files.size(); ++I)
    if (Selected[I])
      Out.push_back(Files[I]);
  return Out;
}

std::vector<std::string>
cudaSourcesOf(const clang::tooling::CompilationDatabase &Db) {
  std::vector<std::string> Out;
  for (clang::tooling::CompileCommand &C : Db.getAllCompileCommands()) {
    SmallString<256> File(C.Filename);
    if (sys::path::is_relative(File) && !C.Directory.empty()) {
      SmallString<256> Base(C.Directory);
      sys::path::append(Base, File);
      File = Base;
    }
    sys::path::remove_dots(File, /*remove_dot_dot=*/true);
    // A .cu file, or any file the command compiles as CUDA (CMake's
    // `-x cu` for a .cpp in a CUDA target).
    bool Cuda = sys::path::extension(File) == ".cu" ||
                translateCompileCommand(C.CommandLine, C.Directory, File)
                    .CompiledAsCuda;
    if (Cuda)
      Out.push_back(std::string(File));
  }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

} // namespace tmemcheck
