//===- Fingerprint.h - Stable identities of findings ------------*- C++ -*-===//
//
// Part of tmemcheck. A finding's fingerprint names it independently of line
// numbers, so a baseline of accepted findings survives edits elsewhere in
// the file: it hashes the check, the file (relative to a base directory),
// the kernel, the normalised text of the statement at the finding and an
// occurrence index among findings that share all of these.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_FINGERPRINT_H
#define TMEMCHECK_REPORT_FINGERPRINT_H

#include "tmemcheck/Report/Finding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tmemcheck {

/// Source text normalised so that reformatting does not change it: comments
/// (`//`, `/* */`) outside string and character literals are dropped and
/// whitespace is removed, except for one space between two word characters
/// (`return x`, `unsigned int`).
std::string normalizeStatementText(llvm::StringRef Text);

/// The normalised text of the statement that starts on line \p Line
/// (1-based) of \p Lines: that line, continued over the following lines
/// while a parenthesis is open or the statement has not ended in `;`, `{`,
/// `}` or `:` (at most MaxStatementLines lines). Empty when \p Line is not
/// in \p Lines.
std::string statementTextAt(llvm::ArrayRef<std::string> Lines, unsigned Line);

/// How many lines statementTextAt reads at most.
constexpr unsigned MaxStatementLines = 8;

/// What identifies one finding in a baseline. Only the fingerprint is
/// matched; the other fields make a baseline file reviewable.
struct FindingIdentity {
  std::string Fingerprint; ///< 64 lowercase hex digits (SHA-256).
  std::string CheckName;
  std::string File; ///< relative to the base directory when under it.
  std::string Kernel;
  std::string Statement; ///< normalised statement text.
  unsigned Occurrence = 0;
};

/// Computes the identities of the findings of one run, in report order.
/// It exists because a fingerprint depends on the findings before it (the
/// occurrence index counts earlier findings with the same check, file,
/// kernel and statement) and on the files' text, read once per file.
class Fingerprinter {
public:
  /// Paths of findings are made relative to \p BaseDir when they are
  /// inside it (and kept as given, without `.` components, otherwise).
  explicit Fingerprinter(llvm::StringRef BaseDir);

  /// The identity of the next finding of the run.
  FindingIdentity identify(const Finding &F);

  /// \p Path as it appears in fingerprints.
  std::string displayPath(llvm::StringRef Path) const;

private:
  const std::vector<std::string> &linesOf(const std::string &Path);

  std::string BaseDir; ///< absolute, symlinks resolved where possible.
  llvm::StringMap<std::vector<std::string>> FileLines;
  llvm::StringMap<unsigned> Occurrences;
};

/// The SHA-256 hex digest of the identity fields (the fingerprint field of
/// \p Id is not read).
std::string computeFingerprint(const FindingIdentity &Id);

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_FINGERPRINT_H
