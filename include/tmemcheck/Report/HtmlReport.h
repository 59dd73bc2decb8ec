//===- HtmlReport.h - The TMEM map as an HTML page --------------*- C++ -*-===//
//
// Part of tmemcheck. `--report=html`: one self-contained HTML page (no
// scripts, no external resources) that draws each kernel's TMEM plan as an
// SVG picture of the 128-lane x 512-column Tensor Memory, one coloured
// band per region role and accumulator stage, overlaps hatched, hover text
// with the source line, followed by the numbers of the text report.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_HTMLREPORT_H
#define TMEMCHECK_REPORT_HTMLREPORT_H

#include "tmemcheck/Report/ResourceReport.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace tmemcheck {

void writeHtmlReport(llvm::raw_ostream &OS,
                     const std::vector<KernelReport> &Reports);

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_HTMLREPORT_H
