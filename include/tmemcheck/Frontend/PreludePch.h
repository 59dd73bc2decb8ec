//===- PreludePch.h - The pre-included headers, precompiled -----*- C++ -*-===//
//
// Part of tmemcheck. Every CUDA parse starts with the same pre-included
// headers: Clang's CUDA runtime wrapper and tmemcheck's embedded headers
// (the nvcc profile, the CUDA stub). They cost most of the parse of a
// kernel file (about 0.35 s of the 0.45 s Clang takes for a file of ten
// kernels), so they are precompiled once per distinct parse command (the
// file left out) and the PCH is kept on disk for later files and runs.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_FRONTEND_PRELUDEPCH_H
#define TMEMCHECK_FRONTEND_PRELUDEPCH_H

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace tmemcheck {

/// A file a PCH was built from, as it was then: a PCH is reused only while
/// every one of them is unchanged (Clang itself does not check system
/// headers, which the prelude consists of).
struct PchInput {
  std::string Path;
  uint64_t Size = 0;
  int64_t ModificationTime = 0; ///< seconds since the epoch
};

/// The list of a PCH's inputs as kept next to it, one `size mtime path` line
/// each; std::nullopt when \p Text is not such a list.
std::optional<std::vector<PchInput>> parsePchInputs(llvm::StringRef Text);
std::string printPchInputs(const std::vector<PchInput> &Inputs);
/// True when every input still has its size and modification time in \p FS.
bool pchInputsUnchanged(const std::vector<PchInput> &Inputs,
                        llvm::vfs::FileSystem &FS);

/// Builds, keeps and hands out the PCHs of the pre-included headers; one per
/// run, shared by the threads of -j.
class PreludePch {
public:
  /// PCHs live in \p Directory, made when first needed; at most \p Keep of
  /// them are kept (the least recently built go first), and the marks of
  /// at most 4 * \p Keep commands parsed once.
  explicit PreludePch(std::string Directory, unsigned Keep = 16);

  /// How the parse of a file came by its prelude: a PCH built now or
  /// earlier, or none yet (the first parse of the command reads the
  /// headers; the next builds the PCH).
  enum class Origin { Built, Reused, FirstSeen };
  struct Prepared {
    /// The parse's invocation: the prelude's `-include`s replaced by
    /// `-include-pch`; null for Origin::FirstSeen.
    std::shared_ptr<clang::CompilerInvocation> Invocation;
    /// The files the PCH holds (the result cache's include closure).
    std::vector<std::string> InputFiles;
    Origin From = Origin::Reused;
    std::string Key;
  };

  /// \p Inv using the PCH of its pre-included headers, built now when it
  /// is stale or this is the second parse of the command; std::nullopt when \p
  /// Inv pre-includes none of them, or uses a PCH or `-imacros` of its own, or
  /// the PCH cannot be built or written (the parse then reads the headers as
  /// usual).
  std::optional<Prepared>
  prepare(const clang::CompilerInvocation &Inv, clang::FileManager &Files,
          std::shared_ptr<clang::PCHContainerOperations> Ops);

  /// Clang could not load the PCH of \p P: it is built again when next
  /// asked for.
  void discard(const Prepared &P);

  const std::string &directory() const { return Directory; }

private:
  /// Writes the PCH's main file (the mark of a command parsed once).
  bool writeMainFile(const std::string &Base);
  bool build(const clang::CompilerInvocation &Inv, unsigned PreludeIncludes,
             const std::string &Base, clang::FileManager &Files,
             std::shared_ptr<clang::PCHContainerOperations> Ops);
  void prune();

  std::string Directory;
  unsigned Keep;
  std::mutex Mutex;
  /// Keys whose PCH failed to build in this run: not tried again.
  llvm::StringSet<> Failed;
};

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_PRELUDEPCH_H
