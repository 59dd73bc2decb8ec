//===- FixApplier.h - Applying fix-its in place (--fix) ---------*- C++ -*-===//
//
// Part of tmemcheck. `--fix` rewrites the analysed files with the fix-its
// of the reported findings. A file gets all of its edits or none: when two
// edits overlap (their order would matter) the file is left alone. The
// new contents go to a temporary file in the same directory that is then
// renamed over the original, so no reader ever sees a half-written source.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_FIXAPPLIER_H
#define TMEMCHECK_REPORT_FIXAPPLIER_H

#include "tmemcheck/Report/Finding.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tmemcheck {

/// What --fix did to one file.
struct FixResult {
  enum Outcome {
    Applied,     ///< every edit was written.
    Overlapping, ///< some edits overlap: none was applied.
    ReadOnly,    ///< the file may not be written: left untouched.
    Failed,      ///< reading, editing or writing failed: left untouched.
  };
  std::string File;
  Outcome Result = Applied;
  unsigned Edits = 0; ///< distinct edits for the file.
  std::string Detail; ///< for Failed: why.
};

/// Applies the fix-its of \p Findings, file by file (identical edits from
/// several findings count once).
std::vector<FixResult> applyFixIts(const std::vector<Finding> &Findings);

/// Prints one line per file to \p Errs: errors for read-only and failed
/// files, a warning for overlapping edits, and (unless \p Quiet) what was
/// applied. Returns false if some file could not be written.
bool reportFixResults(llvm::raw_ostream &Errs,
                      const std::vector<FixResult> &Results, bool Quiet);

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_FIXAPPLIER_H
