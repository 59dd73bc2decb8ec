//===- Suppressions.h - NOLINT comments -------------------------*- C++ -*-===//
//
// Part of tmemcheck. Honors clang-tidy's suppression comments in the
// user's source: `// NOLINT`, `// NOLINT(check,glob-*)`,
// `// NOLINTNEXTLINE(...)`, and `// NOLINTBEGIN(...)` / `// NOLINTEND(...)`.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_SUPPRESSIONS_H
#define TMEMCHECK_REPORT_SUPPRESSIONS_H

#include "tmemcheck/Report/Finding.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace tmemcheck {

/// Decides whether a finding is suppressed by a comment in its file.
class Suppressions {
public:
  bool isSuppressed(const Finding &F);
  /// Reads the markers of \p Path from \p Text instead of the file (an
  /// editor's unsaved buffer).
  void setContents(llvm::StringRef Path, llvm::StringRef Text);

private:
  struct FileInfo {
    std::vector<std::string> Lines;
    /// Indices of the lines with a NOLINTBEGIN or NOLINTEND, in order: a
    /// finding looks only at these, not at every line above it.
    std::vector<unsigned> BlockMarkerLines;
  };
  const FileInfo &fileInfo(const std::string &Path);
  static FileInfo index(llvm::StringRef Text);

  llvm::StringMap<FileInfo> Files;
};

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_SUPPRESSIONS_H
