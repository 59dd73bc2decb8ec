//===- HtmlReport.cpp - The TMEM map as an HTML page ----------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/HtmlReport.h"

#include "tmemcheck/Model/Footprint.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <algorithm>

using namespace llvm;

namespace tmemcheck {

namespace {

// Geometry of one TMEM map: 2 px per column, 1.25 px per lane.
constexpr int ColumnPx = 2;
constexpr int MapWidth = TmemColumns * ColumnPx;
constexpr int MapHeight = 160;
constexpr int Left = 70, Top = 30;

std::string escaped(StringRef S) {
  std::string Out;
  raw_string_ostream OS(Out);
  printHTMLEscaped(S, OS);
  return Out;
}

/// Fill colour of a role; accumulator stages get successive shades.
std::string colorOf(const RoleRange &X) {
  static const char *const Stages[] = {"#3b6fd8", "#6f9df0", "#9dbdf6",
                                       "#2a4f9c"};
  if (X.Role == "accumulator")
    return Stages[X.Stage.value_or(0) % 4];
  if (X.Role == "scale-factor-a")
    return "#e8871e";
  if (X.Role == "scale-factor-b")
    return "#2f9e44";
  if (X.Role == "a-operand")
    return "#9c36b5";
  if (X.Role == "staging")
    return "#0c8599";
  if (X.Role == "shift")
    return "#a0522d";
  return "#868e96"; // copy, store, load
}

std::string siteText(const SourceLoc &L) {
  return fmt::format("{}:{}:{}", sys::path::filename(L.File).str(), L.Line,
                     L.Column);
}

std::string bandLabel(const RoleRange &X) {
  std::string Label = X.Role == "accumulator"      ? "acc"
                      : X.Role == "scale-factor-a" ? "SFA"
                      : X.Role == "scale-factor-b" ? "SFB"
                      : X.Role == "a-operand"      ? "A"
                                                   : X.Role;
  if (X.Stage)
    Label += fmt::format(" stage {}", *X.Stage);
  return Label;
}

/// A finding drawn on a region's map at the columns of the code it points
/// at, numbered as in the kernel's findings table.
struct PlacedFinding {
  unsigned Number = 0;
  const Finding *F = nullptr;
  int64_t Begin = 0, End = 0;
  /// The lane below the map its marker and number are drawn in.
  unsigned Row = 0;
};

std::string colorOf(Severity S) {
  switch (S) {
  case Severity::Error:
    return "#c2255c";
  case Severity::Warning:
    return "#e67700";
  case Severity::Remark:
    return "#5c7cfa";
  }
  return "#c2255c";
}

std::string findingTitle(const PlacedFinding &P) {
  return fmt::format("finding {}: {}: {} [{}] at {}; columns {}..{}", P.Number,
                     severityName(P.F->Level).str(), P.F->Message,
                     P.F->CheckName, siteText(P.F->Loc), P.Begin, P.End - 1);
}

/// Where on the maps \p F goes: the columns of the code at its location, or
/// failing that at the first of its notes that has known columns (the
/// alloc, the access). The union of every access at that position (a
/// wrapper called in a loop). Nullopt when no position has known columns.
std::optional<std::pair<size_t, PlacedFinding>>
placeFinding(const KernelReport &R, const Finding &F) {
  std::vector<const SourceLoc *> Candidates{&F.Loc};
  for (const FindingNote &N : F.Notes)
    Candidates.push_back(&N.Loc);
  for (const SourceLoc *L : Candidates)
    for (size_t I = 0; I < R.Regions.size(); ++I) {
      std::optional<PlacedFinding> P;
      for (const ColumnSite &S : R.Regions[I].Sites) {
        if (!(S.Loc == *L))
          continue;
        if (!P)
          P = PlacedFinding{0, &F, S.Begin, S.End, 0};
        P->Begin = std::min(P->Begin, S.Begin);
        P->End = std::max(P->End, S.End);
      }
      if (P && P->End > P->Begin)
        return std::make_pair(I, *P);
    }
  return std::nullopt;
}

void writeRegionMap(raw_ostream &OS, const RegionReport &RR,
                    const std::optional<ReuseEdge> &Edge,
                    const std::vector<PlacedFinding> &Marks) {
  unsigned Rows = 0;
  for (const PlacedFinding &P : Marks)
    Rows = std::max(Rows, P.Row + 1);
  const int MarkTop = Top + MapHeight + 54;
  const int Width = Left + MapWidth + 40,
            Height = Top + MapHeight + 64 + (Rows ? 6 + 14 * Rows : 0);
  OS << fmt::format("<svg class=\"tmem-map\" width=\"{0}\" height=\"{1}\" "
                    "viewBox=\"0 0 {0} {1}\" "
                    "xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
                    "aria-label=\"TMEM map of region {2}\">\n",
                    Width, Height, escaped(RR.Name));
  OS << "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
        "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        "<rect width=\"6\" height=\"6\" fill=\"#ffffff\" "
        "fill-opacity=\"0.15\"/>"
        "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#d6001c\" "
        "stroke-width=\"3\"/></pattern>"
        "<pattern id=\"unalloc\" width=\"8\" height=\"8\" "
        "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#ced4da\" "
        "stroke-width=\"2\"/></pattern></defs>\n";
  auto X = [](int64_t Column) { return Left + Column * ColumnPx; };
  // The whole TMEM, then the allocation.
  OS << fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                    "fill=\"url(#unalloc)\" stroke=\"#495057\"><title>not "
                    "allocated by this region</title></rect>\n",
                    Left, Top, MapWidth, MapHeight);
  if (RR.Allocated)
    OS << fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f1f3f5\" "
        "stroke=\"#212529\"><title>allocated: {} columns at {}</title>"
        "</rect>\n",
        Left, Top, std::min<int64_t>(*RR.Allocated, TmemColumns) * ColumnPx,
        MapHeight, *RR.Allocated, escaped(siteText(RR.AllocSite)));
  // One band per role range.
  unsigned SmallLabels = 0;
  for (const RoleRange &R : RR.Ranges) {
    int64_t Begin = std::clamp<int64_t>(R.Begin, 0, TmemColumns);
    int64_t End = std::clamp<int64_t>(R.End, 0, TmemColumns);
    if (End <= Begin)
      continue;
    OS << fmt::format(
        "<rect class=\"band\" data-role=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
        "height=\"{}\" fill=\"{}\" stroke=\"#ffffff\">"
        "<title>{}: columns {}..{}, lanes 0..127{}; first at {}</title>"
        "</rect>\n",
        escaped(R.Role), X(Begin), Top, (End - Begin) * ColumnPx, MapHeight,
        colorOf(R), escaped(R.Role), R.Begin, R.End - 1,
        R.Stage ? fmt::format(", stage {} of {}", *R.Stage, R.StageCount)
                : std::string(),
        escaped(siteText(R.Site)));
    std::string Label = bandLabel(R);
    if ((End - Begin) * ColumnPx >= static_cast<int64_t>(Label.size()) * 7)
      OS << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
                        "fill=\"#ffffff\" font-weight=\"bold\">{}</text>\n",
                        X(Begin) + (End - Begin) * ColumnPx / 2,
                        Top + MapHeight / 2 + 5, escaped(Label));
    else {
      // Narrow bands are labelled below the map, staggered, with a leader.
      int LabelY = Top + MapHeight + 20 + 13 * (SmallLabels++ % 3);
      int Mid = X(Begin) + (End - Begin) * ColumnPx / 2;
      OS << fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" "
                        "stroke=\"{3}\"/><text x=\"{4}\" y=\"{5}\" "
                        "font-size=\"11\" fill=\"{3}\">{6}</text>\n",
                        Mid, Top + MapHeight, LabelY - 4, colorOf(R), Mid + 3,
                        LabelY, escaped(Label));
    }
  }
  // Overlaps of different roles or stages, hatched.
  for (size_t I = 0; I < RR.Ranges.size(); ++I)
    for (size_t J = I + 1; J < RR.Ranges.size(); ++J) {
      const RoleRange &A = RR.Ranges[I], &B = RR.Ranges[J];
      int64_t Begin = std::max(A.Begin, B.Begin), End = std::min(A.End, B.End);
      if (End <= Begin || (A.Role == B.Role && A.Stage == B.Stage))
        continue;
      Begin = std::clamp<int64_t>(Begin, 0, TmemColumns);
      End = std::clamp<int64_t>(End, 0, TmemColumns);
      OS << fmt::format(
          "<rect class=\"overlap\" x=\"{}\" y=\"{}\" width=\"{}\" "
          "height=\"{}\" fill=\"url(#hatch)\" stroke=\"#d6001c\">"
          "<title>overlap: {} and {} share columns {}..{}</title></rect>\n",
          X(Begin), Top, std::max<int64_t>(1, End - Begin) * ColumnPx,
          MapHeight, escaped(bandLabel(A)), escaped(bandLabel(B)), Begin,
          End - 1);
    }
  // The riskiest reuse edge as a bracket above the map.
  if (Edge && Edge->Region == RR.Name && Edge->End > Edge->Begin) {
    int64_t Begin = std::clamp<int64_t>(Edge->Begin, 0, TmemColumns);
    int64_t End = std::clamp<int64_t>(Edge->End, 0, TmemColumns);
    OS << fmt::format(
        "<path d=\"M{0} {2} v-8 h{1} v8\" fill=\"none\" stroke=\"#d6001c\" "
        "stroke-width=\"2\"><title>riskiest reuse: {3}</title></path>\n",
        X(Begin), (End - Begin) * ColumnPx, Top - 2,
        escaped(reuseKindName(Edge->K)));
  }
  // Lane quarters and the column axis.
  for (int Q = 1; Q < 4; ++Q)
    OS << fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
                      "stroke=\"#212529\" stroke-dasharray=\"4 4\" "
                      "stroke-opacity=\"0.5\"/>\n",
                      Left, Top + Q * MapHeight / 4, Left + MapWidth);
  // The lane ranges right-aligned before the map, and the axis title
  // turned along it: "lanes 96-127" in one line would not fit in Left.
  for (int Q = 0; Q < 4; ++Q)
    OS << fmt::format("<text class=\"lane-label\" x=\"{}\" y=\"{}\" "
                      "font-size=\"11\" text-anchor=\"end\">{}-{}</text>\n",
                      Left - 6, Top + Q * MapHeight / 4 + MapHeight / 8 + 4,
                      Q * 32, Q * 32 + 31);
  OS << fmt::format("<text x=\"{0}\" y=\"{1}\" font-size=\"11\" "
                    "text-anchor=\"middle\" "
                    "transform=\"rotate(-90 {0} {1})\">lanes</text>\n",
                    14, Top + MapHeight / 2);
  for (int64_t C = 0; C <= TmemColumns; C += 64)
    OS << fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" "
                      "stroke=\"#212529\"/><text x=\"{0}\" y=\"{3}\" "
                      "font-size=\"11\" text-anchor=\"middle\">{4}</text>\n",
                      X(C), Top + MapHeight, Top + MapHeight + 5, Top - 14, C);
  // Findings: a dashed outline over their columns, a numbered marker below.
  for (const PlacedFinding &P : Marks) {
    int64_t Begin = std::clamp<int64_t>(P.Begin, 0, TmemColumns);
    int64_t End = std::clamp<int64_t>(P.End, 0, TmemColumns);
    int64_t W = std::max<int64_t>(1, End - Begin) * ColumnPx;
    std::string Color = colorOf(P.F->Level);
    std::string Title = escaped(findingTitle(P));
    OS << fmt::format(
        "<rect class=\"finding\" data-check=\"{}\" x=\"{}\" y=\"{}\" "
        "width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"2\" stroke-dasharray=\"6 "
        "3\"><title>{}</title></rect>\n",
        escaped(P.F->CheckName), X(Begin), Top, W, MapHeight, Color, Title);
    int Y = MarkTop + 14 * P.Row;
    OS << fmt::format(
        "<rect class=\"finding-mark\" x=\"{}\" y=\"{}\" width=\"{}\" "
        "height=\"8\" fill=\"{}\"><title>{}</title></rect><text "
        "class=\"finding-number\" x=\"{}\" y=\"{}\" font-size=\"11\" "
        "font-weight=\"bold\" fill=\"{}\">{}</text>\n",
        X(Begin), Y, W, Color, Title, X(Begin) + W + 2, Y + 8, Color, P.Number);
  }
  OS << "</svg>\n";
}

/// The findings of a kernel (or of no map) as a table.
void writeFindingsTable(raw_ostream &OS, const std::vector<const Finding *> &Fs,
                        const std::vector<std::string> &Where,
                        unsigned FirstNumber) {
  if (Fs.empty())
    return;
  OS << "<table class=\"findings\"><tr><th>#</th><th>severity</th>"
        "<th>check</th><th>columns</th><th>at</th><th>message</th></tr>\n";
  for (size_t I = 0; I < Fs.size(); ++I)
    OS << fmt::format(
        "<tr><td>{}</td><td style=\"color:{}\">{}</td><td><code>{}</code>"
        "</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        FirstNumber + I, colorOf(Fs[I]->Level),
        escaped(severityName(Fs[I]->Level)), escaped(Fs[I]->CheckName),
        escaped(Where[I]), escaped(siteText(Fs[I]->Loc)),
        escaped(Fs[I]->Message));
  OS << "</table>\n";
}

std::string optText(const std::optional<int64_t> &V) {
  return V ? std::to_string(*V) : std::string("?");
}

} // namespace

void writeHtmlReport(raw_ostream &OS, const std::vector<HtmlKernel> &Kernels,
                     const std::vector<Finding> &Unmapped) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<title>tmemcheck TMEM report</title>\n<style>\n"
        "body{font-family:sans-serif;margin:24px;color:#212529}\n"
        "svg text{font-family:sans-serif}\n"
        "table{border-collapse:collapse;margin:8px 0 24px}\n"
        "td,th{border:1px solid #ced4da;padding:3px 8px;text-align:left}\n"
        ".findings code{white-space:nowrap}\n"
        ".swatch{display:inline-block;width:12px;height:12px;margin-right:4px;"
        "vertical-align:middle}\n"
        "</style></head><body>\n<h1>TMEM plan</h1>\n"
        "<p>Each map is the 128-lane &times; 512-column Tensor Memory of one "
        "SM; the hatched grey part is not allocated by the region. Bands are "
        "the column ranges of each role (they span all lanes: accumulators of "
        "M = 128 and scale factors replicated into every quarter do); red "
        "hatching marks columns two roles or stages share, a red bracket the "
        "riskiest reuse. Hover for the source line. Findings are outlined, "
        "dashed, over the columns of the code they point at and numbered "
        "below the map (red: error, orange: warning); the table under each "
        "kernel lists them.</p>\n";
  if (Kernels.empty())
    OS << "<p>No kernel found.</p>\n";
  for (const HtmlKernel &K : Kernels) {
    const KernelReport &R = K.Report;
    // Number the kernel's findings and place each on a region's map.
    std::vector<std::vector<PlacedFinding>> Marks(R.Regions.size());
    std::vector<const Finding *> Listed;
    std::vector<std::string> Where;
    for (const Finding &F : K.Findings) {
      Listed.push_back(&F);
      auto Placed = placeFinding(R, F);
      if (!Placed) {
        Where.push_back("not drawn: no known columns at its lines");
        continue;
      }
      auto &[Region, P] = *Placed;
      P.Number = Listed.size();
      // The first lane where its marker and number do not overlap another.
      const int64_t LabelColumns = 8;
      for (;; ++P.Row) {
        bool Free = true;
        for (const PlacedFinding &Q : Marks[Region])
          if (Q.Row == P.Row && P.Begin < Q.End + LabelColumns &&
              Q.Begin < P.End + LabelColumns)
            Free = false;
        if (Free)
          break;
      }
      Where.push_back(fmt::format("{}..{} of {}", P.Begin, P.End - 1,
                                  R.Regions[Region].Name));
      Marks[Region].push_back(P);
    }
    OS << fmt::format("<section class=\"kernel\"><h2>{}</h2><p>{}</p>\n",
                      escaped(R.Kernel), escaped(siteText(R.Loc)));
    if (R.Regions.empty())
      OS << "<p>No TMEM allocation found.</p>\n";
    for (const RegionReport &RR : R.Regions) {
      OS << fmt::format("<h3>region <code>{}</code>: {} columns allocated at "
                        "{}, {} used by known accesses</h3>\n",
                        escaped(RR.Name), optText(RR.Allocated),
                        escaped(siteText(RR.AllocSite)), optText(RR.Used));
      writeRegionMap(OS, RR, R.RiskiestReuse, Marks[&RR - R.Regions.data()]);
      OS << "<table><tr><th>role</th><th>columns</th><th>stage</th>"
            "<th>first at</th></tr>\n";
      for (const RoleRange &X : RR.Ranges)
        OS << fmt::format(
            "<tr><td><span class=\"swatch\" style=\"background:{}\"></span>{}"
            "</td><td>{}..{}</td><td>{}</td><td>{}</td></tr>\n",
            colorOf(X), escaped(X.Role), X.Begin, X.End - 1,
            X.Stage ? fmt::format("{} of {}", *X.Stage, X.StageCount)
                    : std::string(),
            escaped(siteText(X.Site)));
      OS << "</table>\n";
      if (RR.UnknownRangeAccesses)
        OS << fmt::format("<p>{} access(es) at columns not known statically "
                          "are not drawn.</p>\n",
                          RR.UnknownRangeAccesses);
    }
    OS << "<ul>\n";
    OS << fmt::format("<li>peak columns allocated at once: {}</li>\n",
                      optText(R.PeakColumns));
    OS << fmt::format("<li>readback: {} tcgen05.ld instruction(s), {} "
                      "run(s) and {} column(s) read per thread per tile</li>\n",
                      R.Loads, R.LoadsPerTile, optText(R.ColumnsReadPerThread));
    if (const std::optional<ReuseEdge> &E = R.RiskiestReuse)
      OS << fmt::format(
          "<li>riskiest reuse: {}: columns {}..{} of <code>{}</code>, {} at {} "
          "then {} at {}; ordered by {}</li>\n",
          escaped(reuseKindName(E->K)), E->Begin, E->End - 1,
          escaped(E->Region), escaped(E->Earlier.Role),
          escaped(siteText(E->Earlier.Site)), escaped(E->Later.Role),
          escaped(siteText(E->Later.Site)), escaped(reuseOrdering(E->K)));
    else
      OS << "<li>riskiest reuse: none</li>\n";
    OS << "</ul>\n";
    if (!Listed.empty())
      OS << fmt::format("<h3>{} finding(s)</h3>\n", Listed.size());
    writeFindingsTable(OS, Listed, Where, 1);
    OS << "</section>\n";
  }
  if (!Unmapped.empty()) {
    OS << "<section class=\"unmapped\"><h2>Findings in kernels without a "
          "TMEM map</h2>\n";
    std::vector<const Finding *> Listed;
    for (const Finding &F : Unmapped)
      Listed.push_back(&F);
    writeFindingsTable(OS, Listed,
                       std::vector<std::string>(Listed.size(), "no map"), 1);
    OS << "</section>\n";
  }
  OS << "</body></html>\n";
}

} // namespace tmemcheck
