//===- ResourceReport.cpp - Per-kernel TMEM resource report ---------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/ResourceReport.h"

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

using namespace llvm;

namespace tmemcheck {

namespace {

const char *roleOf(const Event &E, bool IsScaleFactorOperand) {
  if (IsScaleFactorOperand)
    return "scale-factor";
  switch (E.Op->Kind) {
  case TmemOpKind::Mma:
    return "accumulator";
  case TmemOpKind::Copy:
    return "copy";
  case TmemOpKind::Load:
    return "load";
  case TmemOpKind::Store:
    return "store";
  case TmemOpKind::Shift:
    return "shift";
  default:
    return "other";
  }
}

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
    if (E.K != Event::Kind::Tmem || !E.Op)
      return;
    if (E.Op->Kind == TmemOpKind::Load) {
      ++R.Loads;
      auto Range = accessRange(E);
      if (Range && Range->Width)
        ColumnsRead += *Range->Width;
      else
        ColumnsKnown = false;
    }
    // The D / taddr range, then (for mma) the scale-factor operands.
    std::vector<std::pair<std::optional<TmemRange>, bool>> Ranges;
    if (E.Op->Kind != TmemOpKind::Dealloc)
      Ranges.push_back({accessRange(E), false});
    if (E.Op->Kind == TmemOpKind::Mma)
      for (int I : {E.Op->SfaOperand, E.Op->SfbOperand})
        if (I >= 0 && static_cast<size_t>(I) < E.Operands.size()) {
          const AbstractValue &V = E.Operands[I].Value;
          if (V.isTmemAddress()) {
            TmemRange T;
            T.Slot = V.Slot;
            T.Column = V.ColumnOffset;
            Ranges.push_back({T, true});
          }
        }
    for (auto &[Range, IsSf] : Ranges) {
      if (!Range)
        continue;
      auto It = Index.find(Range->Slot);
      if (It == Index.end())
        continue;
      RegionReport &RR = R.Regions[It->second];
      if (!Range->Column || !Range->Width) {
        ++RR.UnknownRangeAccesses;
        continue;
      }
      int64_t Begin = *Range->Column, End = Begin + *Range->Width;
      RR.Used = std::max(RR.Used.value_or(0), End);
      std::string Role = roleOf(E, IsSf);
      bool Merged = false;
      for (RoleRange &X : RR.Ranges)
        if (X.Role == Role && Begin < X.End && X.Begin < End) {
          X.Begin = std::min(X.Begin, Begin);
          X.End = std::max(X.End, End);
          Merged = true;
          break;
        }
      if (!Merged)
        RR.Ranges.push_back({Role, Begin, End, E.kernelLoc()});
    }
  });
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
                return std::tie(A.Begin, A.End, A.Role) <
                       std::tie(B.Begin, B.End, B.Role);
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
      OS << fmt::format("    {:<13} columns {:>3}..{:<3} (first at {}:{})\n",
                        X.Role, X.Begin, X.End - 1, X.Site.Line,
                        X.Site.Column);
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
      Ranges.push_back(json::Object{{"role", X.Role},
                                    {"begin", X.Begin},
                                    {"end", X.End},
                                    {"site", locJson(X.Site)}});
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
