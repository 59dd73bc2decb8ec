//===- DocumentAnalyzer.h - Re-analysing an edited buffer fast --*- C++ -*-===//
//
// Part of tmemcheck. An editor asks for the same file again and again, a
// few characters changed each time, and the includes at its top (CUTLASS,
// CuTe, the CUDA headers: most of a Blackwell translation unit) do not
// change. Each open document keeps a clang::ASTUnit whose precompiled
// preamble (clang::PrecompiledPreamble, kept in memory) holds the parsed
// includes: a re-check parses only the rest of the file, then builds the
// kernel graphs and runs the checks as the CLI does.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LSP_DOCUMENTANALYZER_H
#define TMEMCHECK_LSP_DOCUMENTANALYZER_H

#include "tmemcheck/Checks/KernelVerdict.h"
#include "tmemcheck/Driver/FileSettings.h"
#include "tmemcheck/Report/Finding.h"
#include "tmemcheck/Report/ResourceReport.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTUnit;
class PCHContainerOperations;
} // namespace clang

namespace tmemcheck {
namespace lsp {

/// What to analyse: the buffer of one document and how to parse it.
struct AnalysisInput {
  std::string Path;     ///< absolute path of the document
  std::string Contents; ///< the editor's buffer
  /// The Clang command (argv[0] first, the file included), as
  /// CudaEnvironment::prepareParse makes it, run in Directory.
  std::vector<std::string> ParseArgs;
  std::string Directory;
  const FileSettings *Settings = nullptr;
  /// Testing only: the analysis of the kernel of this name crashes.
  std::string CrashInKernel;
};

/// A compiler error of the parse.
struct CompileError {
  SourceLoc Loc;
  std::string Message;
};

/// What one analysis of a document found.
struct AnalysisOutput {
  /// False when Clang produced no AST at all (FailReason says why).
  bool Parsed = false;
  std::string FailReason;
  unsigned CompileErrorCount = 0;
  /// The first errors, those in the document itself first.
  std::vector<CompileError> CompileErrors;
  /// Unique and sorted; severities as the checks report them.
  std::vector<Finding> Findings;
  std::vector<KernelVerdict> Verdicts;
  std::vector<AnalysisRemark> KernelRemarks;
  std::vector<KernelReport> Reports;
  /// The analysis crashed (a tmemcheck bug): what it found until then is
  /// dropped, and the document's parse state with it.
  bool Crashed = false;
  double ParseSeconds = 0;
  double CheckSeconds = 0;
  /// The parse state of the last analysis was reparsed (ASTUnit::Reparse,
  /// which reuses the preamble when its includes are unchanged) rather
  /// than made anew.
  bool Reparsed = false;
};

/// The parse state of one open document, reused from one analysis to the
/// next. Not thread-safe: one analysis at a time.
class DocumentAnalyzer {
public:
  DocumentAnalyzer();
  ~DocumentAnalyzer();
  DocumentAnalyzer(const DocumentAnalyzer &) = delete;
  DocumentAnalyzer &operator=(const DocumentAnalyzer &) = delete;

  AnalysisOutput analyze(const AnalysisInput &In);

  /// Bytes the parse state holds: the AST, the source buffers and the
  /// preprocessor's tables (the in-memory preamble is part of the source
  /// buffers).
  size_t memoryBytes() const;
  /// Parses so far, and how many reused the preamble.
  unsigned parses() const { return Parses; }

private:
  bool parse(const AnalysisInput &In, AnalysisOutput &Out);

  std::unique_ptr<clang::ASTUnit> Unit;
  std::shared_ptr<clang::PCHContainerOperations> PCHOps;
  /// The command and directory Unit was made with: another one needs a
  /// new unit (and preamble).
  std::vector<std::string> UnitArgs;
  std::string UnitDirectory;
  unsigned Parses = 0;
};

} // namespace lsp
} // namespace tmemcheck

#endif // TMEMCHECK_LSP_DOCUMENTANALYZER_H
