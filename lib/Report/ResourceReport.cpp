//===- ResourceReport.cpp - Per-kernel TMEM resource report ---------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/ResourceReport.h"

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/Layout.h"
#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

using namespace llvm;

namespace tmemcheck {

namespace {

RoleRange roleRangeOf(const RoleUse &U) {
  return {
      roleName(U.Role).str(), *U.Range.Column, *U.Range.Column + *U.Range.Width,
      U.Site->kernelLoc(),    U.Stage,         U.StageCount};
}

bool isOperandRole(TmemRole R) {
  return R == TmemRole::ScaleFactorA || R == TmemRole::ScaleFactorB ||
         R == TmemRole::AOperand;
}

/// More uses than this and the pairwise search for reuse edges is skipped
/// (a 10,000-instruction unrolled kernel would make it quadratic).
constexpr size_t MaxUsesForReuseEdges = 4000;

/// The kind of reuse edge between an earlier use \p A and a writer \p B of
/// overlapping columns, if they form one.
std::optional<ReuseEdge::Kind> classifyReuse(const RoleUse &A,
                                             const RoleUse &B) {
  if (!B.writes() || !overlaps(A.Range, B.Range))
    return std::nullopt;
  if (A.Site == B.Site) {
    if (B.Role == TmemRole::Accumulator && isOperandRole(A.Role))
      return ReuseEdge::OperandOverlap;
    if (A.Role == TmemRole::Accumulator && B.Role == TmemRole::Accumulator &&
        A.Stage != B.Stage)
      return ReuseEdge::OverlappingStages;
    return std::nullopt;
  }
  if (A.Role != B.Role) {
    if (A.Role == TmemRole::Load || B.Role == TmemRole::Load)
      return std::nullopt;
    return ReuseEdge::CrossRole;
  }
  if ((A.Role == TmemRole::ScaleFactorA || A.Role == TmemRole::ScaleFactorB) &&
      A.Site->Op->Kind == TmemOpKind::Mma &&
      B.Site->Op->Kind == TmemOpKind::Copy)
    return ReuseEdge::ScaleFactorRefresh;
  if (A.Role == TmemRole::Accumulator &&
      (A.Range.Column != B.Range.Column || A.Range.Width != B.Range.Width))
    return ReuseEdge::OverlappingStages;
  return std::nullopt;
}

std::optional<ReuseEdge>
findRiskiestReuse(const KernelGraph &G, const TmemLayout &Layout,
                  const KernelReport &R,
                  const std::map<uint64_t, size_t> &Index) {
  const std::vector<RoleUse> &Uses = Layout.uses();
  std::optional<ReuseEdge> Best;
  auto Consider = [&](ReuseEdge::Kind K, const RoleRange &Earlier,
                      const RoleRange &Later, uint64_t Slot) {
    if (Best && Best->K <= K)
      return;
    auto It = Index.find(Slot);
    ReuseEdge E;
    E.K = K;
    E.Earlier = Earlier;
    E.Later = Later;
    E.Begin = std::max(Earlier.Begin, Later.Begin);
    E.End = std::min(Earlier.End, Later.End);
    E.Region = It == Index.end() ? std::string() : R.Regions[It->second].Name;
    Best = E;
  };
  if (Uses.size() <= MaxUsesForReuseEdges)
    for (const RoleUse &A : Uses)
      for (const RoleUse &B : Uses)
        if (&A != &B)
          if (std::optional<ReuseEdge::Kind> K = classifyReuse(A, B)) {
            // Two roles sharing columns are shown in program order.
            bool Swap = *K == ReuseEdge::CrossRole && B.Site->Id < A.Site->Id;
            Consider(*K, roleRangeOf(Swap ? B : A), roleRangeOf(Swap ? A : B),
                     A.Range.Slot);
          }
  if (Best)
    return Best;
  // An accumulator the epilogue reads is reused by the next tile's mma.
  G.forEachEvent([&](const Event &E) {
    if (Best || E.K != Event::Kind::Tmem || !E.Op ||
        E.Op->Kind != TmemOpKind::Load)
      return;
    std::optional<TmemRange> Read = accessRange(E);
    if (!Read)
      return;
    std::vector<TmemRange> Ranges = possibleAccessRanges(E);
    for (const RoleUse &A : Uses) {
      if (A.Role != TmemRole::Accumulator || A.Range.Slot != Read->Slot)
        continue;
      bool Overlap =
          Ranges.empty() || llvm::any_of(Ranges, [&](const TmemRange &X) {
            return overlaps(X, A.Range);
          });
      if (!Overlap)
        continue;
      RoleRange Ld{
          "load",        *A.Range.Column, *A.Range.Column + *A.Range.Width,
          E.kernelLoc(), std::nullopt,    1};
      Consider(ReuseEdge::StageReuse, Ld, roleRangeOf(A), A.Range.Slot);
      return;
    }
  });
  return Best;
}

json::Object locJson(const SourceLoc &L) {
  return json::Object{{"file", L.File}, {"line", L.Line}, {"column", L.Column}};
}

/// Columns [Begin, End) at each position \p E is seen from: the
/// instruction, the call in user code, the kernel's statement.
void addColumnSites(RegionReport &RR, const Event &E, int64_t Begin,
                    int64_t End) {
  for (const SourceLoc &L : {E.Loc, E.userLoc(), E.kernelLoc()})
    if (L.isValid())
      RR.Sites.push_back({L, Begin, End});
}

} // namespace

KernelReport buildResourceReport(AnalysisContext &Ctx) {
  const KernelGraph &G = Ctx.graph();
  const LifecycleAnalysis &L = Ctx.lifecycle();
  KernelReport R;
  R.Kernel = G.Name;
  R.Loc = G.Loc;
  std::map<uint64_t, size_t> Index;
  for (const Region &Reg : L.regions()) {
    Index[Reg.Slot] = R.Regions.size();
    RegionReport RR;
    RR.Name = Reg.Name;
    RR.AllocSite = Reg.Allocs.front()->kernelLoc();
    RR.Allocated = Reg.Columns;
    if (Reg.Columns)
      for (const std::vector<const Event *> *Events :
           {&Reg.Allocs, &Reg.Deallocs})
        for (const Event *E : *Events)
          addColumnSites(RR, *E, 0, *Reg.Columns);
    R.Regions.push_back(std::move(RR));
  }
  int64_t ColumnsRead = 0;
  bool ColumnsKnown = true;
  G.forEachEvent([&](const Event &E) {
    if (E.K != Event::Kind::Tmem || !E.Op || E.Op->Kind != TmemOpKind::Load)
      return;
    ++R.Loads;
    R.LoadsPerTile += E.TripsPerTile;
    auto Range = accessRange(E);
    if (Range && Range->Width)
      ColumnsRead += *Range->Width * E.TripsPerTile;
    else
      ColumnsKnown = false;
  });
  TmemLayout Layout(G);
  // Per region and range: the id of the event shown as its site.
  std::vector<std::vector<unsigned>> FirstSite(R.Regions.size());
  for (const RoleUse &U : Layout.uses()) {
    auto It = Index.find(U.Range.Slot);
    if (It == Index.end())
      continue;
    RegionReport &RR = R.Regions[It->second];
    int64_t Begin = *U.Range.Column, End = Begin + *U.Range.Width;
    RR.Used = std::max(RR.Used.value_or(0), End);
    addColumnSites(RR, *U.Site, Begin, End);
    std::string Role = roleName(U.Role).str();
    bool Merged = false;
    for (size_t I = 0; I < RR.Ranges.size(); ++I) {
      RoleRange &X = RR.Ranges[I];
      if (X.Role == Role && X.Stage == U.Stage && Begin < X.End &&
          X.Begin < End) {
        X.Begin = std::min(X.Begin, Begin);
        X.End = std::max(X.End, End);
        // The site shown is the first access in program order.
        if (U.Site->Id < FirstSite[It->second][I]) {
          FirstSite[It->second][I] = U.Site->Id;
          X.Site = U.Site->kernelLoc();
        }
        Merged = true;
        break;
      }
    }
    if (!Merged) {
      RR.Ranges.push_back(
          {Role, Begin, End, U.Site->kernelLoc(), U.Stage, U.StageCount});
      FirstSite[It->second].push_back(U.Site->Id);
    }
  }
  for (auto &[Slot, I] : Index) {
    RegionReport &RR = R.Regions[I];
    llvm::ArrayRef<const Event *> Unknown = Layout.unknownAccesses(Slot);
    RR.UnknownRangeAccesses = Unknown.size();
    for (const Event *E : Unknown)
      for (const SourceLoc &L : {E->Loc, E->userLoc(), E->kernelLoc()})
        if (L.isValid())
          RR.UnknownSites.push_back(L);
  }
  R.RiskiestReuse = findRiskiestReuse(G, Layout, R, Index);
  if (R.Loads)
    R.ColumnsReadPerThread =
        ColumnsKnown ? std::optional<int64_t>(ColumnsRead) : std::nullopt;
  // Peak: the most columns certainly allocated right after an alloc.
  R.PeakColumns = peakAllocatedColumns(G, L);
  for (RegionReport &RR : R.Regions) {
    auto Key = [](const ColumnSite &S) {
      return std::tie(S.Loc.File, S.Loc.Line, S.Loc.Column, S.Begin, S.End);
    };
    std::sort(RR.Sites.begin(), RR.Sites.end(),
              [&](const ColumnSite &A, const ColumnSite &B) {
                return Key(A) < Key(B);
              });
    RR.Sites.erase(std::unique(RR.Sites.begin(), RR.Sites.end(),
                               [&](const ColumnSite &A, const ColumnSite &B) {
                                 return Key(A) == Key(B);
                               }),
                   RR.Sites.end());
  }
  for (RegionReport &RR : R.Regions)
    std::sort(RR.Ranges.begin(), RR.Ranges.end(),
              [](const RoleRange &A, const RoleRange &B) {
                return std::tie(A.Begin, A.End, A.Role, A.Stage) <
                       std::tie(B.Begin, B.End, B.Role, B.Stage);
              });
  return R;
}

StringRef reuseKindName(ReuseEdge::Kind K) {
  switch (K) {
  case ReuseEdge::OperandOverlap:
    return "operand overlap in one mma";
  case ReuseEdge::CrossRole:
    return "columns shared by two roles";
  case ReuseEdge::ScaleFactorRefresh:
    return "scale factors re-copied over columns earlier mmas read";
  case ReuseEdge::OverlappingStages:
    return "overlapping accumulator stages";
  case ReuseEdge::StageReuse:
    return "accumulator stage reused after the epilogue read it";
  }
  return "";
}

StringRef reuseOrdering(ReuseEdge::Kind K) {
  switch (K) {
  case ReuseEdge::OperandOverlap:
    return "nothing: one instruction reads and writes the columns (rule S7)";
  case ReuseEdge::CrossRole:
    return "only the kernel's own pipeline synchronisation (rules §5)";
  case ReuseEdge::ScaleFactorRefresh:
    return "the issuing thread's tcgen05 pipeline order, mma reads -> cp "
           "writes (rule S8: UNCONFIRMED for scale-factor reads)";
  case ReuseEdge::OverlappingStages:
    return "the accumulator-stage barriers (tmem-empty), rules §5.4";
  case ReuseEdge::StageReuse:
    return "tcgen05.wait::ld, then the epilogue's arrive on the stage's "
           "empty barrier that the MMA warp waits on (rules §5.2)";
  }
  return "";
}

bool usesTmem(const KernelGraph &G) {
  bool Uses = false;
  G.forEachEvent([&](const Event &E) { Uses |= E.K == Event::Kind::Tmem; });
  return Uses;
}

void printResourceReport(raw_ostream &OS, const KernelReport &R) {
  auto Opt = [](const std::optional<int64_t> &V) {
    return V ? std::to_string(*V) : std::string("?");
  };
  OS << fmt::format("TMEM report for kernel '{}' ({}:{})\n", R.Kernel,
                    R.Loc.File, R.Loc.Line);
  if (R.Regions.empty())
    OS << "  no TMEM allocation found\n";
  for (const RegionReport &RR : R.Regions) {
    std::string Waste = "?";
    if (RR.Allocated && RR.Used)
      Waste = std::to_string(std::max<int64_t>(0, *RR.Allocated - *RR.Used));
    OS << fmt::format("  region '{}' allocated at {}:{}: {} columns, {} used "
                      "by known accesses, {} unused\n",
                      RR.Name, RR.AllocSite.Line, RR.AllocSite.Column,
                      Opt(RR.Allocated), Opt(RR.Used), Waste);
    for (const RoleRange &X : RR.Ranges)
      OS << fmt::format(
          "    {:<14} columns {:>3}..{:<3}{} (first at {}:{})\n", X.Role,
          X.Begin, X.End - 1,
          X.Stage ? fmt::format(" stage {} of {}", *X.Stage, X.StageCount)
                  : std::string(),
          X.Site.Line, X.Site.Column);
    if (RR.UnknownRangeAccesses)
      OS << fmt::format("    {} access(es) at columns not known statically\n",
                        RR.UnknownRangeAccesses);
  }
  OS << fmt::format("  peak columns allocated at once: {}\n",
                    Opt(R.PeakColumns));
  OS << fmt::format("  readback: {} tcgen05.ld instruction(s), {} run(s) "
                    "and {} column(s) read per thread per tile\n",
                    R.Loads, R.LoadsPerTile, Opt(R.ColumnsReadPerThread));
  if (const std::optional<ReuseEdge> &E = R.RiskiestReuse) {
    OS << fmt::format("  riskiest reuse: {}: columns {}..{} of '{}', {} at "
                      "{}:{} then {} at {}:{}\n",
                      reuseKindName(E->K), E->Begin, E->End - 1, E->Region,
                      E->Earlier.Role, E->Earlier.Site.Line,
                      E->Earlier.Site.Column, E->Later.Role, E->Later.Site.Line,
                      E->Later.Site.Column);
    OS << fmt::format("    ordered by {}\n", reuseOrdering(E->K));
  } else {
    OS << "  riskiest reuse: none (no columns are reused by known accesses)\n";
  }
}

json::Value resourceReportToJson(const KernelReport &R) {
  json::Array Regions;
  for (const RegionReport &RR : R.Regions) {
    json::Array Ranges;
    for (const RoleRange &X : RR.Ranges) {
      json::Object O{{"role", X.Role},
                     {"begin", X.Begin},
                     {"end", X.End},
                     {"site", locJson(X.Site)}};
      if (X.Stage) {
        O["stage"] = *X.Stage;
        O["stages"] = X.StageCount;
      }
      Ranges.push_back(std::move(O));
    }
    json::Object O{{"name", RR.Name},
                   {"alloc_site", locJson(RR.AllocSite)},
                   {"ranges", std::move(Ranges)},
                   {"unknown_range_accesses", RR.UnknownRangeAccesses}};
    O["allocated_columns"] =
        RR.Allocated ? json::Value(*RR.Allocated) : json::Value(nullptr);
    O["used_columns"] = RR.Used ? json::Value(*RR.Used) : json::Value(nullptr);
    O["unused_columns"] =
        RR.Allocated && RR.Used
            ? json::Value(std::max<int64_t>(0, *RR.Allocated - *RR.Used))
            : json::Value(nullptr);
    Regions.push_back(std::move(O));
  }
  json::Object Out{{"kernel", R.Kernel},
                   {"location", locJson(R.Loc)},
                   {"regions", std::move(Regions)},
                   {"tcgen05_ld_instructions", R.Loads},
                   {"tcgen05_ld_per_tile", static_cast<int64_t>(R.LoadsPerTile)}};
  Out["peak_columns"] =
      R.PeakColumns ? json::Value(*R.PeakColumns) : json::Value(nullptr);
  if (const std::optional<ReuseEdge> &E = R.RiskiestReuse) {
    auto Use = [](const RoleRange &X) {
      return json::Object{{"role", X.Role},
                          {"begin", X.Begin},
                          {"end", X.End},
                          {"site", locJson(X.Site)}};
    };
    Out["riskiest_reuse"] = json::Object{{"kind", reuseKindName(E->K)},
                                         {"ordering", reuseOrdering(E->K)},
                                         {"region", E->Region},
                                         {"begin", E->Begin},
                                         {"end", E->End},
                                         {"earlier", Use(E->Earlier)},
                                         {"later", Use(E->Later)}};
  } else {
    Out["riskiest_reuse"] = nullptr;
  }
  Out["columns_read_per_thread"] = R.ColumnsReadPerThread
                                       ? json::Value(*R.ColumnsReadPerThread)
                                       : json::Value(nullptr);
  return Out;
}

} // namespace tmemcheck
