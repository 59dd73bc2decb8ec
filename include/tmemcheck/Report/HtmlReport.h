//===- HtmlReport.h - The TMEM map as an HTML page --------------*- C++ -*-===//
//
// Part of tmemcheck. `--report=html`: one self-contained HTML page (no
// scripts, no external resources) that draws each kernel's TMEM plan as an
// SVG picture of the 128-lane x 512-column Tensor Memory, one coloured
// band per region role and accumulator stage, overlaps hatched, hover text
// with the source line, the findings drawn at their columns, followed by
// the numbers of the text report and the findings.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_HTMLREPORT_H
#define TMEMCHECK_REPORT_HTMLREPORT_H

#include "tmemcheck/Report/Finding.h"
#include "tmemcheck/Report/ResourceReport.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace tmemcheck {

/// A kernel's resource report with the findings reported in it.
struct HtmlKernel {
  KernelReport Report;
  std::vector<Finding> Findings;
};

/// The page: per kernel its maps, each finding outlined over the columns
/// of the code it points at (the first of its location and its notes that
/// has known columns) with its message as hover text and a numbered marker
/// below the map, and a table of its findings; then \p Unmapped, findings
/// of kernels that have no map (they use no TMEM the report sees).
void writeHtmlReport(llvm::raw_ostream &OS,
                     const std::vector<HtmlKernel> &Kernels,
                     const std::vector<Finding> &Unmapped = {});

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_HTMLREPORT_H
