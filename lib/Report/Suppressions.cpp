//===- Suppressions.cpp - NOLINT comments ---------------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/Suppressions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"

#include <iterator>

namespace tmemcheck {

namespace {

/// Does the NOLINT-style marker \p Marker on \p Line cover \p Check? A
/// marker without a list covers every check; `(a,b-*)` covers the globs.
bool markerCovers(llvm::StringRef Line, llvm::StringRef Marker,
                  llvm::StringRef Check) {
  size_t Pos = 0;
  while ((Pos = Line.find(Marker, Pos)) != llvm::StringRef::npos) {
    llvm::StringRef Rest = Line.substr(Pos + Marker.size());
    Pos += Marker.size();
    // NOLINT must not match NOLINTNEXTLINE / NOLINTBEGIN.
    if (!Rest.empty() &&
        (std::isalpha(static_cast<unsigned char>(Rest[0])) || Rest[0] == '_'))
      continue;
    if (!Rest.consume_front("("))
      return true;
    llvm::StringRef List = Rest.take_until([](char C) { return C == ')'; });
    llvm::SmallVector<llvm::StringRef, 4> Globs;
    List.split(Globs, ',', -1, false);
    for (llvm::StringRef G : Globs) {
      G = G.trim();
      if (auto P = llvm::GlobPattern::create(G); P && P->match(Check))
        return true;
    }
  }
  return false;
}

} // namespace

const Suppressions::FileInfo &Suppressions::fileInfo(const std::string &Path) {
  auto It = Files.find(Path);
  if (It != Files.end())
    return It->second;
  FileInfo Info;
  if (auto Buf = llvm::MemoryBuffer::getFile(Path))
    Info = index((*Buf)->getBuffer());
  return Files.insert({Path, std::move(Info)}).first->second;
}

Suppressions::FileInfo Suppressions::index(llvm::StringRef Text) {
  FileInfo Info;
  llvm::SmallVector<llvm::StringRef, 0> Parts;
  Text.split(Parts, '\n');
  for (llvm::StringRef P : Parts) {
    if (P.contains("NOLINTBEGIN") || P.contains("NOLINTEND"))
      Info.BlockMarkerLines.push_back(Info.Lines.size());
    Info.Lines.push_back(P.rtrim("\r").str());
  }
  return Info;
}

void Suppressions::setContents(llvm::StringRef Path, llvm::StringRef Text) {
  Files[Path] = index(Text);
}

bool Suppressions::isSuppressed(const Finding &F) {
  if (!F.Loc.isValid())
    return false;
  const FileInfo &Info = fileInfo(F.Loc.File);
  unsigned L = F.Loc.Line;
  if (L == 0 || L > Info.Lines.size())
    return false;
  if (markerCovers(Info.Lines[L - 1], "NOLINT", F.CheckName))
    return true;
  if (L >= 2 && markerCovers(Info.Lines[L - 2], "NOLINTNEXTLINE", F.CheckName))
    return true;
  // Innermost open NOLINTBEGIN above the line that covers the check.
  int Depth = 0;
  auto Above = llvm::lower_bound(Info.BlockMarkerLines, L - 1);
  for (auto It = std::make_reverse_iterator(Above),
            End = Info.BlockMarkerLines.rend();
       It != End; ++It) {
    llvm::StringRef Line = Info.Lines[*It];
    if (markerCovers(Line, "NOLINTEND", F.CheckName))
      --Depth;
    else if (markerCovers(Line, "NOLINTBEGIN", F.CheckName) && ++Depth > 0)
      return true;
  }
  return false;
}

} // namespace tmemcheck
