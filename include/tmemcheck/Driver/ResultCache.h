//===- ResultCache.h - Results of unchanged files, kept across runs -*- C++
//-*-===//
//
// Part of tmemcheck. A batch audit or a CI gate analyses the same files run
// after run, most of them unchanged. The result cache (`--cache-dir`,
// `CacheDir:`) keeps each file's outcome under a key that says everything
// its result depends on besides the files it reads: the tool build, the
// working directory, the analysis options, the file's configuration, the
// file and its translated compile commands. With the outcome it keeps the
// files the parse read (the include closure), each with its size,
// modification time and a hash of its contents. A later run with the same
// key serves the outcome without parsing when every one of those files
// still has the same contents: a file whose size or time changed is read
// and hashed again, so a touched but unchanged header still hits and an
// edited one misses.
//
// Entries are written to a temporary file and renamed into place, so
// concurrent runs (-j, parallel CI jobs) sharing a directory never read
// half an entry. An entry that cannot be read is a miss, never an error.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_DRIVER_RESULTCACHE_H
#define TMEMCHECK_DRIVER_RESULTCACHE_H

#include "tmemcheck/Driver/FileOutcome.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace tmemcheck {

/// The result cache in one directory.
class ResultCache {
public:
  /// Opens the cache in \p Dir, creating the directory when needed. Fails
  /// when it cannot be created or written.
  static llvm::Expected<std::unique_ptr<ResultCache>> open(llvm::StringRef Dir);

  /// The outcome stored under \p Key, when there is one and every file it
  /// was computed from has the contents it had then.
  std::optional<FileOutcome> lookup(llvm::StringRef Key);

  /// Stores \p O under \p Key with the files it was computed from. Nothing
  /// is stored when one of \p Inputs cannot be read, or was modified after
  /// \p AnalysisStart (the outcome may predate its contents).
  llvm::Error store(llvm::StringRef Key, const FileOutcome &O,
                    llvm::ArrayRef<std::string> Inputs,
                    llvm::sys::TimePoint<> AnalysisStart);

  const std::string &directory() const { return Dir; }
  unsigned hits() const { return Hits; }
  unsigned misses() const { return Misses; }

  /// Identifies this build of tmemcheck for cache keys: \p Version and
  /// the executable's path, size and modification time (a rebuild with
  /// other checks invalidates every entry). \p Argv0 and \p MainAddr as
  /// for llvm::sys::fs::getMainExecutable. Empty when the executable
  /// cannot be found: then nothing may be cached.
  static std::string toolIdentity(llvm::StringRef Version, const char *Argv0,
                                  void *MainAddr);

private:
  explicit ResultCache(std::string Dir) : Dir(std::move(Dir)) {}
  std::string entryPath(llvm::StringRef Key) const;

  std::string Dir;
  std::atomic<unsigned> Hits{0}, Misses{0};
};

} // namespace tmemcheck

#endif // TMEMCHECK_DRIVER_RESULTCACHE_H
