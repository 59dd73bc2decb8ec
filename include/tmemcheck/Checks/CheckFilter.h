//===- CheckFilter.h - clang-tidy style --checks globs ----------*- C++ -*-===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_CHECKS_CHECKFILTER_H
#define TMEMCHECK_CHECKS_CHECKFILTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/GlobPattern.h"

#include <memory>
#include <string>
#include <vector>

namespace tmemcheck {

/// Decides which checks run, from a comma-separated glob list with the
/// semantics of clang-tidy's --checks: `-` negates, the last matching glob
/// wins. The list is applied on top of the default (every check that is not
/// strict), so `--checks=tmem-ld-use-before-wait` adds one strict check and
/// `--checks=-*,tmem-leak` selects exactly one.
class CheckFilter {
public:
  /// Enables nothing; assign the result of create() to use it.
  CheckFilter() = default;

  /// Parses \p Globs; globs that match no known check are returned in
  /// \p Unmatched so the driver can warn about them.
  static CheckFilter create(llvm::StringRef Globs,
                            std::vector<std::string> &Unmatched,
                            std::string &Error);

  /// A glob list with nothing enabled by default (WarningsAsErrors).
  static CheckFilter createWithoutDefaults(llvm::StringRef Globs,
                                           std::vector<std::string> &Unmatched,
                                           std::string &Error);

  bool isEnabled(llvm::StringRef CheckName) const;

private:
  static CheckFilter build(llvm::StringRef Defaults, llvm::StringRef Globs,
                           std::vector<std::string> &Unmatched,
                           std::string &Error);

  struct Entry {
    /// GlobPattern refers to its source text; keep it at a stable address.
    std::unique_ptr<std::string> Text;
    llvm::GlobPattern Pattern;
    bool Positive = true;
  };
  std::vector<Entry> Entries;
};

} // namespace tmemcheck

#endif // TMEMCHECK_CHECKS_CHECKFILTER_H
