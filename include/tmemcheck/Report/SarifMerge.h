//===- SarifMerge.h - One SARIF log from the logs of shards -----*- C++ -*-===//
//
// Part of tmemcheck. A run split into shards (--shard=K/N) writes one SARIF
// log per shard; code-scanning services want one log with one run. The
// merge keeps the first run's tool driver, de-duplicates rules by id and
// artifacts by location, and concatenates the results with their rule and
// artifact indices renumbered. uriBaseIds (%SRCROOT%) keep the first log's
// base; a later log whose same id names another directory has its URIs
// rewritten against the first base (or made absolute when outside it).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_SARIFMERGE_H
#define TMEMCHECK_REPORT_SARIFMERGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// Accumulates SARIF 2.1.0 logs into one log with one run. Every run of
/// every log must come from the same tool (driver name).
class SarifMerger {
public:
  /// Adds the runs of \p Log; \p Name (the file) is used in errors. On
  /// error nothing of \p Log was added.
  llvm::Error add(llvm::StringRef Name, const llvm::json::Value &Log);

  /// The merged log. Fails when no run was added (the tool is unknown).
  llvm::Expected<llvm::json::Value> result() const;

private:
  std::optional<llvm::json::Object> Driver; ///< the first run's, no rules.
  std::optional<llvm::json::Value> Schema, ColumnKind;
  llvm::json::Array Rules, Artifacts, Results, Invocations;
  llvm::json::Object OriginalUriBaseIds;
  llvm::StringMap<unsigned> RuleIndex;     ///< rule id -> merged index.
  llvm::StringMap<unsigned> ArtifactIndex; ///< location key -> merged index.
};

/// Reads the SARIF files \p Inputs, merges them and writes the log to
/// \p Output (`-` is stdout). Errors name the file they are about.
llvm::Error mergeSarifFiles(llvm::ArrayRef<std::string> Inputs,
                            llvm::StringRef Output);

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_SARIFMERGE_H
