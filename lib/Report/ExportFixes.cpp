//===- ExportFixes.cpp - clang-tidy's --export-fixes YAML -----------------===//
//
// Part of tmemcheck. Built on clang's own model and YAML mapping of it
// (clang/Tooling/DiagnosticsYaml.h) with llvm::yaml::Output.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/ExportFixes.h"
#include "tmemcheck/Report/SourceFiles.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
namespace ct = clang::tooling;

namespace tmemcheck {

namespace {

std::string absolutePath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// A message at \p Loc; without a position when the file cannot be read.
ct::DiagnosticMessage messageAt(StringRef Text, const SourceLoc &Loc,
                                SourceFiles &Files) {
  ct::DiagnosticMessage M(Text);
  if (Loc.isValid())
    if (std::optional<unsigned> Offset =
            Files.offset(Loc.File, Loc.Line, Loc.Column)) {
      M.FilePath = absolutePath(Loc.File);
      M.FileOffset = *Offset;
    }
  return M;
}

ct::Diagnostic::Level levelOf(Severity S) {
  switch (S) {
  case Severity::Error:
    return ct::Diagnostic::Error;
  case Severity::Warning:
    return ct::Diagnostic::Warning;
  case Severity::Remark:
    return ct::Diagnostic::Remark;
  }
  return ct::Diagnostic::Warning;
}

} // namespace

Error exportFixes(StringRef OutputPath, StringRef MainSourceFile,
                  const std::vector<Finding> &Findings) {
  SourceFiles Files;
  SmallString<256> BuildDirectory;
  sys::fs::current_path(BuildDirectory);
  ct::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = absolutePath(MainSourceFile);
  for (const Finding &F : Findings) {
    ct::Diagnostic D(F.CheckName, levelOf(F.Level), BuildDirectory);
    D.Message = messageAt(F.Message, F.Loc, Files);
    for (const FixIt &Fix : F.Fixes) {
      ct::Replacement R(absolutePath(Fix.File), Fix.Offset, Fix.Length,
                        Fix.Text);
      if (Error E = D.Message.Fix[R.getFilePath()].add(R))
        return E;
    }
    for (const FindingNote &N : F.Notes)
      D.Notes.push_back(messageAt(N.Message, N.Loc, Files));
    TU.Diagnostics.push_back(std::move(D));
  }
  return writeToOutput(OutputPath, [&](raw_ostream &OS) {
    yaml::Output YAML(OS);
    YAML << TU;
    return Error::success();
  });
}

} // namespace tmemcheck
