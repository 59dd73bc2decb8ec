//===- TextPrinter.h - Clang-style text diagnostics -------------*- C++ -*-===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_TEXTPRINTER_H
#define TMEMCHECK_REPORT_TEXTPRINTER_H

#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Report/Finding.h"
#include "tmemcheck/Report/SourceFiles.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <vector>

namespace tmemcheck {

/// Prints findings the way clang and clang-tidy do:
/// `path:line:col: error: message [check]`, the source line with a caret,
/// the fix-its (the changed lines as `-`/`+` lines with snippets, and
/// clang's parseable `fix-it:"path":{l:c-l:c}:"text"` line), then `note:`
/// lines. Colors only when the stream is a terminal.
class TextPrinter {
public:
  explicit TextPrinter(llvm::raw_ostream &OS, bool ShowSnippets = true)
      : OS(OS), ShowSnippets(ShowSnippets) {}

  void print(const Finding &F);
  void printRemark(const AnalysisRemark &R);

private:
  void printLine(const SourceLoc &Loc, Severity Level, llvm::StringRef Label,
                 llvm::StringRef Message, llvm::StringRef CheckName);
  void printSnippet(const SourceLoc &Loc);
  void printFixIt(const FixIt &Fix);
  llvm::StringRef lineOf(const SourceLoc &Loc);

  llvm::raw_ostream &OS;
  bool ShowSnippets;
  llvm::StringMap<std::vector<std::string>> FileLines;
  SourceFiles Files;
};

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_TEXTPRINTER_H
