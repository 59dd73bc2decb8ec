//===- ExportFixes.h - clang-tidy's --export-fixes YAML ---------*- C++ -*-===//
//
// Part of tmemcheck. `--export-fixes=<file>` writes the findings and their
// fix-its in the YAML format of clang-tidy's option of the same name
// (clang::tooling::TranslationUnitDiagnostics), so that
// clang-apply-replacements, run-clang-tidy and editors consume it as they
// consume clang-tidy's.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_EXPORTFIXES_H
#define TMEMCHECK_REPORT_EXPORTFIXES_H

#include "tmemcheck/Report/Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace tmemcheck {

/// Writes \p Findings (with their notes and fix-its; paths made absolute)
/// to \p OutputPath as one TranslationUnitDiagnostics document whose
/// MainSourceFile is \p MainSourceFile.
llvm::Error exportFixes(llvm::StringRef OutputPath,
                        llvm::StringRef MainSourceFile,
                        const std::vector<Finding> &Findings);

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_EXPORTFIXES_H
