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

json::Object locJson(const SourceLoc &L) {
  return json::Object{{"file", L.File}, {"line", L.Line}, {"column", L.Column}};
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
    R.Regions.push_back(std::move(RR));
  }
  int64_t ColumnsRead = 0;
  bool ColumnsKnown = true;
  G.forEachEvent([&](const Event &E) {
    if (E.K != Event::Kind::Tmem || !E.Op || E.Op->Kind != TmemOpKind::Load)
      return;
    ++R.Loads;
    auto Range = accessRange(E);
    if (Range && Range->Width)
      ColumnsRead += *Range->Width;
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
      RR.Ranges.push_back({Role, Begin, End, U.Site->kernelLoc(), U.Stage,
                           U.StageCount});
      FirstSite[It->second].push_back(U.Site->Id);
    }
  }
  for (auto &[Slot, I] : Index)
    R.Regions[I].UnknownRangeAccesses = Layout.unknownAccesses(Slot);
  if (R.Loads)
    R.ColumnsReadPerThread =
        ColumnsKnown ? std::optional<int64_t>(ColumnsRead) : std::nullopt;
  // Peak: the most columns certainly allocated right after an alloc.
  G.forEachEvent([&](const Event &E) {
    if (E.K != Event::Kind::Tmem || !E.Op || E.Op->Kind != TmemOpKind::Alloc)
      return;
    std::optional<int64_t> Cols = columnCount(E);
    if (!Cols)
      return;
    int64_t Live = *Cols;
    const CtaState &S = L.stateBefore(E);
    for (const Region &Reg : L.regions()) {
      PhaseSet P = S.phases(Reg.Slot);
      if (Reg.Slot != allocSlot(E) && Reg.Columns && P &&
          !(P & ~PhaseAnyAllocated))
        Live += *Reg.Columns;
    }
    R.PeakColumns = std::max(R.PeakColumns.value_or(0), Live);
  });
  for (RegionReport &RR : R.Regions)
    std::sort(RR.Ranges.begin(), RR.Ranges.end(),
              [](const RoleRange &A, const RoleRange &B) {
                return std::tie(A.Begin, A.End, A.Role, A.Stage) <
                       std::tie(B.Begin, B.End, B.Role, B.Stage);
              });
  return R;
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
      OS << fmt::format("    {:<14} columns {:>3}..{:<3}{} (first at {}:{})\n",
                        X.Role, X.Begin, X.End - 1,
                        X.Stage ? fmt::format(" stage {} of {}", *X.Stage,
                                              X.StageCount)
                                : std::string(),
                        X.Site.Line, X.Site.Column);
    if (RR.UnknownRangeAccesses)
      OS << fmt::format("    {} access(es) at columns not known statically\n",
                        RR.UnknownRangeAccesses);
  }
  OS << fmt::format("  peak columns allocated at once: {}\n",
                    Opt(R.PeakColumns));
  OS << fmt::format("  readback: {} tcgen05.ld instruction(s), {} column(s) "
                    "read per thread\n",
                    R.Loads, Opt(R.ColumnsReadPerThread));
}

json::Value resourceReportToJson(const KernelReport &R) {
  json::Array Regions;
  for (const RegionReport &RR : R.Regions) {
    json::Array Ranges;
    for (const RoleRange &X : RR.Ranges)
    {
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
    O["unused_columns"] = RR.Allocated && RR.Used
                              ? json::Value(std::max<int64_t>(0, *RR.Allocated - *RR.Used))
                              : json::Value(nullptr);
    Regions.push_back(std::move(O));
  }
  json::Object Out{{"kernel", R.Kernel},
                   {"location", locJson(R.Loc)},
                   {"regions", std::move(Regions)},
                   {"tcgen05_ld_instructions", R.Loads}};
  Out["peak_columns"] =
      R.PeakColumns ? json::Value(*R.PeakColumns) : json::Value(nullptr);
  Out["columns_read_per_thread"] = R.ColumnsReadPerThread
                                       ? json::Value(*R.ColumnsReadPerThread)
                                       : json::Value(nullptr);
  return Out;
}

} // namespace tmemcheck
