//===- LspProtocol.cpp - tmemcheck's results in LSP terms -----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Lsp/LspProtocol.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

namespace tmemcheck {
namespace lsp {

std::string pathToUri(llvm::StringRef Path) {
  std::string Uri = "file://";
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-._~").contains(C))
      Uri.push_back(C);
    else
      Uri += fmt::format("%{:02X}", unsigned(C));
  }
  return Uri;
}

std::optional<std::string> uriToPath(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return std::nullopt;
  // An authority other than localhost names another machine.
  if (!Uri.starts_with("/")) {
    if (!Uri.consume_front("localhost"))
      return std::nullopt;
  }
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    if (Uri[I] != '%') {
      Path.push_back(Uri[I]);
      continue;
    }
    unsigned Byte = 0;
    if (I + 2 >= Uri.size() || Uri.substr(I + 1, 2).getAsInteger(16, Byte))
      return std::nullopt;
    Path.push_back(char(Byte));
    I += 2;
  }
  return Path;
}

llvm::json::Value toJson(const Position &P) {
  return llvm::json::Object{{"line", P.Line}, {"character", P.Character}};
}

llvm::json::Value toJson(const Range &R) {
  return llvm::json::Object{{"start", toJson(R.Start)}, {"end", toJson(R.End)}};
}

bool fromJson(const llvm::json::Value &V, Position &P) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O)
    return false;
  std::optional<int64_t> Line = O->getInteger("line");
  std::optional<int64_t> Character = O->getInteger("character");
  if (!Line || !Character || *Line < 0 || *Character < 0)
    return false;
  P.Line = *Line;
  P.Character = *Character;
  return true;
}

bool fromJson(const llvm::json::Value &V, Range &R) {
  const llvm::json::Object *O = V.getAsObject();
  return O && O->get("start") && O->get("end") &&
         fromJson(*O->get("start"), R.Start) && fromJson(*O->get("end"), R.End);
}

int lspSeverity(Severity S) {
  switch (S) {
  case Severity::Error:
    return 1;
  case Severity::Warning:
    return 2;
  case Severity::Remark:
    return 3;
  }
  return 3;
}

Range rangeOf(const SourceLoc &Loc, const TextDocument &Doc,
              PositionEncoding Enc) {
  Range R;
  R.Start = Doc.positionOf(Loc.Line, Loc.Column, Enc);
  if (Loc.hasEnd() &&
      (Loc.EndLine > Loc.Line ||
       (Loc.EndLine == Loc.Line && Loc.EndColumn > Loc.Column))) {
    R.End = Doc.positionOf(Loc.EndLine, Loc.EndColumn, Enc);
    return R;
  }
  // The word at the start (an identifier, a call's name), else one
  // character.
  llvm::StringRef Line = Doc.line(R.Start.Line);
  size_t Begin = Loc.Column ? Loc.Column - 1 : 0, End = Begin;
  while (End < Line.size() && (llvm::isAlnum(Line[End]) || Line[End] == '_' ||
                               Line[End] == '.' || Line[End] == ':'))
    ++End;
  if (End == Begin && End < Line.size())
    ++End;
  R.End = {R.Start.Line, unitsInBytes(Line, End, Enc)};
  return R;
}

std::string checkPageUrl(llvm::StringRef HelpBase, llvm::StringRef Check) {
  std::string Base = HelpBase.str();
  if (!Base.empty() && Base.back() != '/')
    Base += '/';
  return Base + "checks/" + Check.str() + ".md";
}

namespace {

std::string columnsText(int64_t Begin, int64_t End) {
  return fmt::format("columns {}–{}", Begin, End - 1);
}

std::string rolesText(const RegionReport &Region) {
  std::string Out;
  for (const RoleRange &Role : Region.Ranges) {
    Out +=
        fmt::format("\n- {}: {}", Role.Role, columnsText(Role.Begin, Role.End));
    if (Role.Stage && Role.StageCount > 1)
      Out += fmt::format(" (stage {} of {})", *Role.Stage + 1, Role.StageCount);
  }
  if (Region.UnknownRangeAccesses)
    Out += fmt::format("\n- {} access(es) at columns the analysis could not "
                       "determine",
                       Region.UnknownRangeAccesses);
  return Out;
}

/// \p Line lies within the code at \p L (a statement may span lines).
bool isAt(const SourceLoc &L, llvm::StringRef File, unsigned Line) {
  unsigned Last = L.hasEnd() && L.EndLine > L.Line ? L.EndLine : L.Line;
  return L.isValid() && L.Line <= Line && Line <= Last && L.File == File;
}

} // namespace

std::string regionHover(const KernelReport &R, llvm::StringRef File,
                        unsigned Line) {
  for (const RegionReport &Region : R.Regions) {
    auto Allocated = [&] {
      return Region.Allocated
                 ? fmt::format("{} columns allocated", *Region.Allocated)
                 : std::string("columns allocated: not known statically");
    };
    if (isAt(Region.AllocSite, File, Line)) {
      std::string Text = fmt::format(
          "**TMEM region `{}`** (kernel `{}`): {}{}, 128 lanes", Region.Name,
          R.Kernel, Allocated(),
          Region.Used ? fmt::format(", {} used", *Region.Used) : "");
      if (R.PeakColumns)
        Text += fmt::format("; the kernel holds at most {} columns at once",
                            *R.PeakColumns);
      return Text + rolesText(Region);
    }
    for (const ColumnSite &Site : Region.Sites)
      if (isAt(Site.Loc, File, Line) && Site.Begin < Site.End) {
        std::string Text = fmt::format(
            "**TMEM region `{}`** (kernel `{}`): this code touches {} of {}",
            Region.Name, R.Kernel, columnsText(Site.Begin, Site.End),
            Allocated());
        for (const RoleRange &Role : Region.Ranges)
          if (Role.Begin < Site.End && Site.Begin < Role.End)
            Text += fmt::format("\n- {}: {}", Role.Role,
                                columnsText(Role.Begin, Role.End));
        return Text;
      }
    for (const SourceLoc &Site : Region.UnknownSites)
      if (isAt(Site, File, Line))
        return fmt::format(
            "**TMEM region `{}`** (kernel `{}`): this code touches columns "
            "that are not known statically, of {}; the checks that compare "
            "columns (overlaps, bounds) cannot place it",
            Region.Name, R.Kernel, Allocated());
  }
  return "";
}

} // namespace lsp
} // namespace tmemcheck
