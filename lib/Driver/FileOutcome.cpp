//===- FileOutcome.cpp - One file's results, and their JSON form ----------===//
//
// Part of tmemcheck.
//
// The JSON form is private to the result cache (it is versioned with the
// tool, ResultCache.cpp): short keys, every field. toJSON/fromJSON pairs
// follow LLVM's JSON conventions, found by argument-dependent lookup, so
// that vectors and optionals of them convert on their own.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Driver/FileOutcome.h"

namespace json = llvm::json;

namespace tmemcheck {

// SourceLoc: the position and its end; `sys` for system headers.
json::Value toJSON(const SourceLoc &L) {
  return json::Object{{"f", L.File},       {"l", L.Line},
                      {"c", L.Column},     {"el", L.EndLine},
                      {"ec", L.EndColumn}, {"sys", L.InSystemHeader}};
}
bool fromJSON(const json::Value &V, SourceLoc &L, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("f", L.File) && O.map("l", L.Line) &&
         O.map("c", L.Column) && O.map("el", L.EndLine) &&
         O.map("ec", L.EndColumn) && O.map("sys", L.InSystemHeader);
}

json::Value toJSON(const FindingNote &N) {
  return json::Object{{"loc", N.Loc},
                      {"msg", N.Message},
                      {"order", N.Order},
                      {"after", N.AfterFinding}};
}
bool fromJSON(const json::Value &V, FindingNote &N, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("loc", N.Loc) && O.map("msg", N.Message) &&
         O.map("order", N.Order) && O.map("after", N.AfterFinding);
}

json::Value toJSON(const FixIt &F) {
  return json::Object{{"file", F.File},
                      {"offset", F.Offset},
                      {"length", F.Length},
                      {"text", F.Text}};
}
bool fromJSON(const json::Value &V, FixIt &F, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("file", F.File) && O.map("offset", F.Offset) &&
         O.map("length", F.Length) && O.map("text", F.Text);
}

json::Value toJSON(const Finding &F) {
  return json::Object{{"check", F.CheckName}, {"level", int(F.Level)},
                      {"loc", F.Loc},         {"msg", F.Message},
                      {"notes", F.Notes},     {"flow", F.FlowSteps},
                      {"kernel", F.Kernel},   {"fingerprint", F.Fingerprint},
                      {"fixes", F.Fixes},     {"order", F.Order}};
}
bool fromJSON(const json::Value &V, Finding &F, json::Path P) {
  json::ObjectMapper O(V, P);
  int Level = 0;
  if (!(O && O.map("check", F.CheckName) && O.map("level", Level) &&
        O.map("loc", F.Loc) && O.map("msg", F.Message) &&
        O.map("notes", F.Notes) && O.map("flow", F.FlowSteps) &&
        O.map("kernel", F.Kernel) && O.map("fingerprint", F.Fingerprint) &&
        O.map("fixes", F.Fixes) && O.map("order", F.Order)))
    return false;
  if (Level < int(Severity::Remark) || Level > int(Severity::Error)) {
    P.field("level").report("not a severity");
    return false;
  }
  F.Level = Severity(Level);
  return true;
}

json::Value toJSON(const AnalysisRemark &R) {
  return json::Object{
      {"loc", R.Loc}, {"msg", R.Message}, {"incomplete", R.MakesIncomplete}};
}
bool fromJSON(const json::Value &V, AnalysisRemark &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("loc", R.Loc) && O.map("msg", R.Message) &&
         O.map("incomplete", R.MakesIncomplete);
}

json::Value toJSON(const IncompleteReason &R) {
  return json::Object{{"loc", R.Loc}, {"msg", R.Message}};
}
bool fromJSON(const json::Value &V, IncompleteReason &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("loc", R.Loc) && O.map("msg", R.Message);
}

json::Value toJSON(const KernelVerdict &K) {
  return json::Object{{"kernel", K.Kernel},
                      {"loc", K.Loc},
                      {"reasons", K.Reasons},
                      {"reported", K.ReportedFindings}};
}
bool fromJSON(const json::Value &V, KernelVerdict &K, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("kernel", K.Kernel) && O.map("loc", K.Loc) &&
         O.map("reasons", K.Reasons) && O.map("reported", K.ReportedFindings);
}

json::Value toJSON(const RoleRange &R) {
  return json::Object{{"role", R.Role},   {"begin", R.Begin},
                      {"end", R.End},     {"site", R.Site},
                      {"stage", R.Stage}, {"stages", R.StageCount}};
}
bool fromJSON(const json::Value &V, RoleRange &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("role", R.Role) && O.map("begin", R.Begin) &&
         O.map("end", R.End) && O.map("site", R.Site) &&
         O.map("stage", R.Stage) && O.map("stages", R.StageCount);
}

json::Value toJSON(const ColumnSite &S) {
  return json::Object{{"loc", S.Loc}, {"begin", S.Begin}, {"end", S.End}};
}
bool fromJSON(const json::Value &V, ColumnSite &S, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("loc", S.Loc) && O.map("begin", S.Begin) &&
         O.map("end", S.End);
}

json::Value toJSON(const RegionReport &R) {
  return json::Object{
      {"name", R.Name},           {"alloc", R.AllocSite},
      {"allocated", R.Allocated}, {"used", R.Used},
      {"ranges", R.Ranges},       {"unknown", R.UnknownRangeAccesses},
      {"sites", R.Sites},         {"unknownSites", R.UnknownSites}};
}
bool fromJSON(const json::Value &V, RegionReport &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("name", R.Name) && O.map("alloc", R.AllocSite) &&
         O.map("allocated", R.Allocated) && O.map("used", R.Used) &&
         O.map("ranges", R.Ranges) &&
         O.map("unknown", R.UnknownRangeAccesses) && O.map("sites", R.Sites) &&
         O.map("unknownSites", R.UnknownSites);
}

json::Value toJSON(const ReuseEdge &E) {
  return json::Object{{"kind", int(E.K)}, {"earlier", E.Earlier},
                      {"later", E.Later}, {"begin", E.Begin},
                      {"end", E.End},     {"region", E.Region}};
}
bool fromJSON(const json::Value &V, ReuseEdge &E, json::Path P) {
  json::ObjectMapper O(V, P);
  int Kind = 0;
  if (!(O && O.map("kind", Kind) && O.map("earlier", E.Earlier) &&
        O.map("later", E.Later) && O.map("begin", E.Begin) &&
        O.map("end", E.End) && O.map("region", E.Region)))
    return false;
  if (Kind < int(ReuseEdge::OperandOverlap) ||
      Kind > int(ReuseEdge::StageReuse)) {
    P.field("kind").report("not a reuse edge kind");
    return false;
  }
  E.K = ReuseEdge::Kind(Kind);
  return true;
}

json::Value toJSON(const KernelReport &R) {
  return json::Object{{"kernel", R.Kernel},
                      {"loc", R.Loc},
                      {"regions", R.Regions},
                      {"peak", R.PeakColumns},
                      {"loads", R.Loads},
                      {"loadsPerTile", R.LoadsPerTile},
                      {"columnsRead", R.ColumnsReadPerThread},
                      {"riskiest", R.RiskiestReuse}};
}
bool fromJSON(const json::Value &V, KernelReport &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("kernel", R.Kernel) && O.map("loc", R.Loc) &&
         O.map("regions", R.Regions) && O.map("peak", R.PeakColumns) &&
         O.map("loads", R.Loads) && O.map("loadsPerTile", R.LoadsPerTile) &&
         O.map("columnsRead", R.ColumnsReadPerThread) &&
         O.map("riskiest", R.RiskiestReuse);
}

namespace {

/// The front end's result, without the graphs (handed to the checks one
/// at a time and dropped) and the crashed kernels (an outcome with any is
/// not cached).
json::Value frontEndToJson(const TranslationUnitResult &TU) {
  return json::Object{{"file", TU.File},
                      {"parsed", TU.Parsed},
                      {"errors", TU.CompileErrors},
                      {"firstError", TU.FirstError},
                      {"errorLines", TU.ErrorLines},
                      {"unknownOptions", TU.UnknownOptions},
                      {"tcgen05", TU.Tcgen05Instructions},
                      {"remarks", TU.Remarks},
                      {"frontendSeconds", TU.FrontendSeconds},
                      {"graphSeconds", TU.GraphSeconds},
                      {"parseSeconds", TU.ParseSeconds},
                      {"threads", TU.Threads}};
}

bool frontEndFromJson(const json::Value &V, TranslationUnitResult &TU,
                      json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("file", TU.File) && O.map("parsed", TU.Parsed) &&
         O.map("errors", TU.CompileErrors) &&
         O.map("firstError", TU.FirstError) &&
         O.map("errorLines", TU.ErrorLines) &&
         O.map("unknownOptions", TU.UnknownOptions) &&
         O.map("tcgen05", TU.Tcgen05Instructions) &&
         O.map("remarks", TU.Remarks) &&
         O.map("frontendSeconds", TU.FrontendSeconds) &&
         O.map("graphSeconds", TU.GraphSeconds) &&
         O.map("parseSeconds", TU.ParseSeconds) && O.map("threads", TU.Threads);
}

} // namespace

json::Value outcomeToJson(const FileOutcome &O) {
  return json::Object{{"frontEnd", frontEndToJson(O.TU)},
                      {"findings", O.Findings},
                      {"reports", O.Reports},
                      {"kernelRemarks", O.KernelRemarks},
                      {"verdicts", O.Verdicts},
                      {"kernels", O.KernelCount},
                      {"checksSeconds", O.ChecksSeconds}};
}

bool outcomeFromJson(const json::Value &V, FileOutcome &O) {
  json::Path::Root Root("outcome");
  json::Path P(Root);
  json::ObjectMapper M(V, P);
  const json::Object *Obj = V.getAsObject();
  const json::Value *FrontEnd = Obj ? Obj->get("frontEnd") : nullptr;
  return M && FrontEnd &&
         frontEndFromJson(*FrontEnd, O.TU, P.field("frontEnd")) &&
         M.map("findings", O.Findings) && M.map("reports", O.Reports) &&
         M.map("kernelRemarks", O.KernelRemarks) &&
         M.map("verdicts", O.Verdicts) && M.map("kernels", O.KernelCount) &&
         M.map("checksSeconds", O.ChecksSeconds);
}

} // namespace tmemcheck
