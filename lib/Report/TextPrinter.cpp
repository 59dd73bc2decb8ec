//===- TextPrinter.cpp - Clang-style text diagnostics ---------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/TextPrinter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tmemcheck {

llvm::StringRef TextPrinter::lineOf(const SourceLoc &Loc) {
  auto It = FileLines.find(Loc.File);
  if (It == FileLines.end()) {
    std::vector<std::string> Lines;
    if (auto Buf = llvm::MemoryBuffer::getFile(Loc.File)) {
      llvm::SmallVector<llvm::StringRef, 0> Parts;
      (*Buf)->getBuffer().split(Parts, '\n');
      for (llvm::StringRef P : Parts)
        Lines.push_back(P.rtrim("\r").str());
    }
    It = FileLines.insert({Loc.File, std::move(Lines)}).first;
  }
  if (Loc.Line == 0 || Loc.Line > It->second.size())
    return "";
  return It->second[Loc.Line - 1];
}

void TextPrinter::printLine(const SourceLoc &Loc, Severity Level,
                            llvm::StringRef Label, llvm::StringRef Message,
                            llvm::StringRef CheckName) {
  bool Colors = OS.has_colors();
  if (Colors)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
  OS << Loc.File;
  if (Loc.isValid())
    OS << ':' << Loc.Line << ':' << Loc.Column;
  OS << ": ";
  if (Colors) {
    auto Color = Label == "error"     ? llvm::raw_ostream::RED
                 : Label == "warning" ? llvm::raw_ostream::MAGENTA
                 : Label == "note"    ? llvm::raw_ostream::BLACK
                                      : llvm::raw_ostream::BLUE;
    OS.changeColor(Color, /*Bold=*/true);
  }
  OS << Label << ": ";
  if (Colors)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
  OS << Message;
  if (!CheckName.empty())
    OS << " [" << CheckName << ']';
  if (Colors)
    OS.resetColor();
  OS << '\n';
}

void TextPrinter::printSnippet(const SourceLoc &Loc) {
  if (!ShowSnippets || !Loc.isValid())
    return;
  llvm::StringRef Line = lineOf(Loc);
  if (Line.empty())
    return;
  OS << "  " << Line << '\n' << "  ";
  for (unsigned I = 1; I < Loc.Column && I <= Line.size(); ++I)
    OS << (Line[I - 1] == '\t' ? '\t' : ' ');
  if (OS.has_colors())
    OS.changeColor(llvm::raw_ostream::GREEN, /*Bold=*/true);
  OS << '^';
  if (OS.has_colors())
    OS.resetColor();
  OS << '\n';
}

void TextPrinter::print(const Finding &F) {
  printLine(F.Loc, F.Level, severityName(F.Level), F.Message, F.CheckName);
  printSnippet(F.Loc);
  for (const FindingNote &N : F.Notes) {
    printLine(N.Loc, Severity::Remark, "note", N.Message, "");
    printSnippet(N.Loc);
  }
}

void TextPrinter::printRemark(const AnalysisRemark &R) {
  printLine(R.Loc, Severity::Remark, "remark", R.Message, "");
}

} // namespace tmemcheck
