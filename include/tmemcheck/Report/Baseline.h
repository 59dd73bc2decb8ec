//===- Baseline.h - Accepted findings of legacy code ------------*- C++ -*-===//
//
// Part of tmemcheck. A baseline file lists the fingerprints (Fingerprint.h)
// of findings a project has accepted, so a CI gate fails only on new ones.
// The file is JSON, versioned:
//
//   {"version": 1, "tool": "tmemcheck",
//    "findings": [{"fingerprint": "<64 hex digits>", "check": "tmem-leak",
//                  "file": "src/gemm.cu", "kernel": "gemm",
//                  "statement": "...", "occurrence": 0}, ...]}
//
// Only "version" and each "fingerprint" are read; the other fields are for
// the people who review the file. Paths in it are relative to the
// baseline file's directory.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_BASELINE_H
#define TMEMCHECK_REPORT_BASELINE_H

#include "tmemcheck/Report/Fingerprint.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// The version of the baseline format this tmemcheck reads and writes.
constexpr int BaselineFormatVersion = 1;

/// The fingerprints of a baseline file.
class Baseline {
public:
  /// Reads \p Path; errors name the file and, for a malformed one, what is
  /// wrong where.
  static llvm::Expected<Baseline> load(llvm::StringRef Path);

  /// Parses the text of a baseline; \p Name is used in errors.
  static llvm::Expected<Baseline> parse(llvm::StringRef Text,
                                        llvm::StringRef Name);

  /// Writes \p Entries to \p Path (atomically; `-` is stdout), sorted by
  /// file, kernel, check and statement so the file diffs well.
  static llvm::Error write(llvm::StringRef Path,
                           std::vector<FindingIdentity> Entries);

  bool contains(llvm::StringRef Fingerprint) const {
    return Fingerprints.contains(Fingerprint);
  }
  size_t size() const { return Fingerprints.size(); }

private:
  llvm::StringSet<> Fingerprints;
};

/// The baseline side of one run (--baseline, --write-baseline): it sees
/// every finding that survived NOLINT, in report order, says which ones the
/// baseline read accepts, and collects all of them for the baseline
/// written. Exists so the driver needs one call per finding.
class BaselineFilter {
public:
  /// Either path may be empty (that side is off). Fails when \p ReadPath
  /// cannot be read or parsed.
  static llvm::Expected<std::unique_ptr<BaselineFilter>>
  create(llvm::StringRef ReadPath, llvm::StringRef WritePath);

  /// Records \p F and returns true when the baseline read lists it.
  bool isSuppressed(const Finding &F);

  unsigned suppressedCount() const { return Suppressed; }
  bool readsBaseline() const { return Reader.has_value(); }

  /// Writes the baseline when --write-baseline asked for one.
  llvm::Error finish();

private:
  BaselineFilter() = default;

  std::string WritePath;
  std::optional<Baseline> Read;
  std::optional<Fingerprinter> Reader, Writer;
  std::vector<FindingIdentity> Written;
  unsigned Suppressed = 0;
};

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_BASELINE_H
