//===- Finding.h - What a check reports -------------------------*- C++ -*-===//
//
// Part of tmemcheck. The diagnostics model every output format (text,
// SARIF, JSON) renders.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_FINDING_H
#define TMEMCHECK_REPORT_FINDING_H

#include "tmemcheck/Analysis/SourceLoc.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

enum class Severity { Remark, Warning, Error };

llvm::StringRef severityName(Severity S);

/// A related site of a finding ("allocated here", "in this wrapper").
struct FindingNote {
  SourceLoc Loc;
  std::string Message;
  /// Set when the note points at an event that runs before the finding's
  /// own event on the path the finding describes (the alloc, the load, the
  /// dealloc before a use): that event's program order (Event::Id, reverse
  /// post-order). SARIF's code flow is these events in this order, then
  /// the finding. Unset for notes about context (a wrapper, a condition, an
  /// exit) and for events not ordered before it (another thread's access
  /// racing with it, an alloc on another path).
  std::optional<unsigned> Order;
  /// For a step of Finding::FlowSteps: it runs after the finding's own
  /// event (the exit a leaked region reaches, the cluster barrier that comes
  /// only after a pair's alloc); the code flow lists it after the finding.
  bool AfterFinding = false;
};

/// One edit of a fix-it: replace Length bytes at byte Offset of File by
/// Text (Length 0 inserts). Mirrors clang::tooling::Replacement, which
/// --export-fixes, --fix and the clang-tidy plugin build from it.
struct FixIt {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;

  friend bool operator==(const FixIt &A, const FixIt &B) {
    return A.File == B.File && A.Offset == B.Offset && A.Length == B.Length &&
           A.Text == B.Text;
  }
};

/// One diagnostic produced by a check.
struct Finding {
  std::string CheckName;
  Severity Level = Severity::Error;
  SourceLoc Loc;
  std::string Message;
  std::vector<FindingNote> Notes;
  /// Steps of the finding's timeline that only SARIF's code flow shows
  /// (not printed as notes), each with Order set: the alloc of the region
  /// an ordering finding is about (Order: the event's program order, merged
  /// with the notes'), or, for a finding whose story is not one thread's
  /// program order (a hand-off, another thread's read, the rewrite), every
  /// step in the order the check tells it (Order: the step's position,
  /// addFlowStep in lib/Checks/FlowSteps.h).
  std::vector<FindingNote> FlowSteps;
  std::string Kernel; ///< the kernel the finding was found in (for reports).
  /// The baseline fingerprint (Fingerprinter), when the output carries one:
  /// SARIF's partialFingerprints, so code-scanning alerts survive line
  /// shifts. Empty otherwise.
  std::string Fingerprint;
  /// Edits that repair the finding, applied together; empty unless the
  /// repair is mechanical and certainly right.
  std::vector<FixIt> Fixes;
  /// Program order of the event behind the finding: orders findings that
  /// share a location (two instructions of one inlined helper).
  unsigned Order = 0;

  friend bool operator<(const Finding &A, const Finding &B);
};

/// Where checks put findings. Keeps them unique: the same check at the same
/// position with the same message is reported once (a wrapper inlined into
/// many kernels, a template instantiated several times), with the notes of
/// every report of it (each load a release leaves unordered).
class FindingSink {
public:
  void report(Finding F);
  const std::vector<Finding> &findings() const { return Findings; }
  std::vector<Finding> takeSorted();

private:
  std::vector<Finding> Findings;
};

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_FINDING_H
