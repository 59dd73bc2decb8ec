//===- ResourceReport.h - Per-kernel TMEM resource report -------*- C++ -*-===//
//
// Part of tmemcheck. What a kernel plans in TMEM, as the planning procedure
// ends: each allocation with the columns it gets and the columns its
// accesses reach (the rest is alignment waste), the column ranges each role
// uses (accumulator, scale factors, copies, loads, stores), the peak of
// columns allocated at once, and the epilogue's readback cost.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_RESOURCEREPORT_H
#define TMEMCHECK_REPORT_RESOURCEREPORT_H

#include "tmemcheck/Analysis/AnalysisContext.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// A contiguous column range [Begin, End) a role touches in a region.
struct RoleRange {
  std::string Role; ///< roleName(TmemRole): "accumulator", "scale-factor-a"...
  int64_t Begin = 0;
  int64_t End = 0;
  SourceLoc Site;                ///< first access with this range
  std::optional<unsigned> Stage; ///< accumulator stage, when one of several
  unsigned StageCount = 1;
};

/// Columns [Begin, End) of a region that the code at Loc touches: a
/// known-column access (at the instruction, at the call in user code and at
/// the kernel's statement), or an alloc or dealloc (the whole allocation).
/// The HTML report draws findings at these columns.
struct ColumnSite {
  SourceLoc Loc;
  int64_t Begin = 0;
  int64_t End = 0;
};

/// One region of the report.
struct RegionReport {
  std::string Name;
  SourceLoc AllocSite;
  std::optional<int64_t> Allocated; ///< columns the alloc requests
  std::optional<int64_t> Used;      ///< highest column end reached + 0
  std::vector<RoleRange> Ranges;
  unsigned UnknownRangeAccesses = 0; ///< accesses whose columns are unknown
  /// Where the code touches which columns (not in the text or JSON report).
  std::vector<ColumnSite> Sites;
  /// Where the code touches columns that are not known statically (at the
  /// instruction, at the call in user code and at the kernel's statement;
  /// not in the text or JSON report).
  std::vector<SourceLoc> UnknownSites;
};

/// Two uses of the same columns and what orders them: the planning
/// procedure's "riskiest reuse edge" is the one with the thinnest ordering.
struct ReuseEdge {
  /// Riskiest first: operands of one mma overlapping (no ordering at all),
  /// different roles sharing columns (only the kernel's pipeline orders
  /// them), scale factors re-copied over columns earlier mmas read (the
  /// issuing thread's tcgen05 order, rule S8, UNCONFIRMED), accumulator
  /// stages overlapping each other (the stage barriers), an accumulator
  /// stage reused for the next tile after the epilogue read it (the
  /// mbarrier handshake).
  enum Kind {
    OperandOverlap,
    CrossRole,
    ScaleFactorRefresh,
    OverlappingStages,
    StageReuse
  };
  Kind K = StageReuse;
  RoleRange Earlier;          ///< the use whose columns are reused
  RoleRange Later;            ///< the writer that reuses them
  int64_t Begin = 0, End = 0; ///< the shared columns [Begin, End)
  std::string Region;
};

llvm::StringRef reuseKindName(ReuseEdge::Kind K);
/// What orders the two uses of an edge of this kind, in one sentence.
llvm::StringRef reuseOrdering(ReuseEdge::Kind K);

/// The report of one kernel.
struct KernelReport {
  std::string Kernel;
  SourceLoc Loc;
  std::vector<RegionReport> Regions;
  std::optional<int64_t> PeakColumns; ///< most columns allocated at once
  unsigned Loads = 0;                 ///< tcgen05.ld instructions
  /// tcgen05.ld executed per thread per tile: each instruction times the
  /// constant trip counts of the `for` loops around it.
  uint64_t LoadsPerTile = 0;
  /// 32-bit columns read per thread per tile (ld width x trips), if known.
  std::optional<int64_t> ColumnsReadPerThread;
  std::optional<ReuseEdge> RiskiestReuse;
};

KernelReport buildResourceReport(AnalysisContext &Ctx);

/// True when the kernel has any tcgen05 instruction: the report leaves out
/// kernels that never touch TMEM (fill kernels, reference GEMMs).
bool usesTmem(const KernelGraph &G);

void printResourceReport(llvm::raw_ostream &OS, const KernelReport &R);
llvm::json::Value resourceReportToJson(const KernelReport &R);

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_RESOURCEREPORT_H
