//===- SourceLoc.h - Front-end independent source positions ----*- C++ -*-===//
//
// Part of tmemcheck. The analysis core does not see the Clang AST (the PTX
// front end feeds it too), so positions are plain file/line/column triples.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_SOURCELOC_H
#define TMEMCHECK_ANALYSIS_SOURCELOC_H

#include <string>
#include <tuple>

namespace tmemcheck {

/// A position in an input file, 1-based. Invalid when Line == 0.
struct SourceLoc {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  /// Where the code at the position ends, in the same file: the line and
  /// byte column just past its last character (SARIF's endLine and
  /// endColumn). Set by a front end that parsed the code (the C++ front end
  /// from Clang's source range of the call or asm statement); 0 when
  /// unknown. Not part of the position's identity: comparisons ignore it.
  unsigned EndLine = 0;
  unsigned EndColumn = 0;
  /// True for positions inside system or library headers (CCCL, CUTLASS):
  /// findings are moved to the nearest call site in user code.
  bool InSystemHeader = false;

  bool isValid() const { return Line != 0; }
  bool hasEnd() const { return EndLine != 0; }
  friend bool operator<(const SourceLoc &A, const SourceLoc &B) {
    return std::tie(A.File, A.Line, A.Column) <
           std::tie(B.File, B.Line, B.Column);
  }
  friend bool operator==(const SourceLoc &A, const SourceLoc &B) {
    return std::tie(A.File, A.Line, A.Column) ==
           std::tie(B.File, B.Line, B.Column);
  }
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_SOURCELOC_H
