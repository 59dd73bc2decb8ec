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

void TextPrinter::printFixIt(const FixIt &Fix) {
  std::optional<LineColumn> Begin = Files.lineColumn(Fix.File, Fix.Offset);
  std::optional<LineColumn> End =
      Files.lineColumn(Fix.File, Fix.Offset + Fix.Length);
  std::optional<llvm::StringRef> Text = Files.text(Fix.File);
  if (!Begin || !End || !Text)
    return;
  if (ShowSnippets) {
    // The lines the edit touches, before and after it.
    size_t First = Text->rfind('\n', Fix.Offset); // searches before Offset
    First = First == llvm::StringRef::npos ? 0 : First + 1;
    size_t Last = Text->find('\n', Fix.Offset + Fix.Length);
    if (Last == llvm::StringRef::npos)
      Last = Text->size();
    bool WholeLineInsertion = Fix.Length == 0 && First == Fix.Offset &&
                              llvm::StringRef(Fix.Text).ends_with("\n");
    auto PrintLines = [&](char Mark, llvm::StringRef Lines) {
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      Lines.split(Parts, '\n');
      for (llvm::StringRef P : Parts)
        OS << "  " << Mark << P.rtrim("\r") << '\n';
    };
    if (WholeLineInsertion) {
      // New lines between their neighbours, as in a diff.
      if (First > 0) {
        size_t Prev = Text->rfind('\n', First - 1);
        PrintLines(' ',
                   Text->slice(Prev == llvm::StringRef::npos ? 0 : Prev + 1,
                               First - 1));
      }
      PrintLines('+', llvm::StringRef(Fix.Text).drop_back().rtrim("\r"));
      if (First < Text->size())
        PrintLines(' ', Text->slice(First, Last));
    } else {
      PrintLines('-', Text->slice(First, Last));
      PrintLines('+', (Text->slice(First, Fix.Offset) + Fix.Text +
                       Text->slice(Fix.Offset + Fix.Length, Last))
                          .str());
    }
  }
  OS << "fix-it:\"";
  OS.write_escaped(Fix.File);
  OS << "\":{" << Begin->Line << ':' << Begin->Column << '-' << End->Line << ':'
     << End->Column << "}:\"";
  OS.write_escaped(Fix.Text);
  OS << "\"\n";
}

void TextPrinter::print(const Finding &F) {
  printLine(F.Loc, F.Level, severityName(F.Level), F.Message, F.CheckName);
  printSnippet(F.Loc);
  for (const FixIt &Fix : F.Fixes)
    printFixIt(Fix);
  for (const FindingNote &N : F.Notes) {
    printLine(N.Loc, Severity::Remark, "note", N.Message, "");
    printSnippet(N.Loc);
  }
}

void TextPrinter::printRemark(const AnalysisRemark &R) {
  printLine(R.Loc, Severity::Remark, "remark", R.Message, "");
}

} // namespace tmemcheck
