//===- MachineReports.cpp - JSON and SARIF output -------------------------===//
//
// Part of tmemcheck. Built with llvm::json; SARIF field names follow the
// OASIS SARIF 2.1.0 schema as GitHub code scanning reads it.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/MachineReports.h"
#include "tmemcheck/Report/SourceFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;

namespace tmemcheck {

namespace {

/// A file URI for an absolute path (SARIF artifactLocation.uri).
std::string fileUri(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::string Uri = "file://";
  for (char C : sys::path::convert_to_slash(Abs)) {
    if (C == ' ')
      Uri += "%20";
    else if (C == '%')
      Uri += "%25";
    else
      Uri += C;
  }
  return Uri;
}

json::Object physicalLocation(const SourceLoc &L) {
  json::Object Region;
  if (L.isValid()) {
    Region["startLine"] = L.Line;
    Region["startColumn"] = L.Column;
  }
  json::Object Phys{
      {"artifactLocation", json::Object{{"uri", fileUri(L.File)}}}};
  if (L.isValid())
    Phys["region"] = std::move(Region);
  return Phys;
}

/// SARIF `fixes`: one fix with one artifactChange per file, its edits as
/// replacements of a deleted region (line/column and byte offset/length)
/// by inserted content.
json::Array sarifFixes(const std::vector<FixIt> &Fixes, SourceFiles &Files) {
  std::map<std::string, json::Array> ByFile;
  for (const FixIt &Fix : Fixes) {
    json::Object Region{{"byteOffset", Fix.Offset}, {"byteLength", Fix.Length}};
    if (auto B = Files.lineColumn(Fix.File, Fix.Offset))
      if (auto E = Files.lineColumn(Fix.File, Fix.Offset + Fix.Length)) {
        Region["startLine"] = B->Line;
        Region["startColumn"] = B->Column;
        Region["endLine"] = E->Line;
        Region["endColumn"] = E->Column;
      }
    ByFile[Fix.File].push_back(
        json::Object{{"deletedRegion", std::move(Region)},
                     {"insertedContent", json::Object{{"text", Fix.Text}}}});
  }
  json::Array Changes;
  for (auto &[File, Replacements] : ByFile)
    Changes.push_back(
        json::Object{{"artifactLocation", json::Object{{"uri", fileUri(File)}}},
                     {"replacements", std::move(Replacements)}});
  json::Array Out;
  if (!Changes.empty())
    Out.push_back(json::Object{{"artifactChanges", std::move(Changes)}});
  return Out;
}

StringRef sarifLevel(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Remark:
    return "note";
  }
  return "warning";
}

} // namespace

void writeJsonReport(raw_ostream &OS, const std::vector<Finding> &Findings,
                     const std::vector<KernelVerdict> &Verdicts) {
  json::Array Out;
  for (const Finding &F : Findings) {
    json::Array Notes;
    for (const FindingNote &N : F.Notes)
      Notes.push_back(json::Object{{"file", N.Loc.File},
                                   {"line", N.Loc.Line},
                                   {"column", N.Loc.Column},
                                   {"message", N.Message}});
    json::Array Fixes;
    for (const FixIt &Fix : F.Fixes)
      Fixes.push_back(json::Object{{"file", Fix.File},
                                   {"offset", Fix.Offset},
                                   {"length", Fix.Length},
                                   {"replacement", Fix.Text}});
    Out.push_back(json::Object{{"check", F.CheckName},
                               {"severity", severityName(F.Level)},
                               {"file", F.Loc.File},
                               {"line", F.Loc.Line},
                               {"column", F.Loc.Column},
                               {"message", F.Message},
                               {"kernel", F.Kernel},
                               {"notes", std::move(Notes)},
                               {"fixes", std::move(Fixes)}});
  }
  json::Array Kernels;
  for (const KernelVerdict &V : Verdicts) {
    json::Array Reasons;
    for (const IncompleteReason &R : V.Reasons)
      Reasons.push_back(json::Object{{"file", R.Loc.File},
                                     {"line", R.Loc.Line},
                                     {"column", R.Loc.Column},
                                     {"message", R.Message}});
    Kernels.push_back(json::Object{{"kernel", V.Kernel},
                                   {"file", V.Loc.File},
                                   {"line", V.Loc.Line},
                                   {"verdict", verdictName(V.kind())},
                                   {"findings", V.ReportedFindings},
                                   {"reasons", std::move(Reasons)}});
  }
  OS << formatv("{0:2}",
                json::Value(json::Object{{"version", 2},
                                         {"findings", std::move(Out)},
                                         {"kernels", std::move(Kernels)}}))
     << '\n';
}

void writeSarifReport(raw_ostream &OS, const std::vector<Finding> &Findings,
                      const std::vector<CheckInfo> &Rules,
                      StringRef ToolVersion) {
  json::Array RuleArray;
  std::map<std::string, unsigned> RuleIndex;
  for (const CheckInfo &C : Rules) {
    RuleIndex[C.Name] = RuleArray.size();
    RuleArray.push_back(json::Object{
        {"id", C.Name},
        {"name", C.Name},
        {"shortDescription", json::Object{{"text", C.Summary}}},
        {"fullDescription", json::Object{{"text", C.Summary}}},
        {"help", json::Object{{"text", C.Summary + " (see docs/checks/" +
                                           C.Name + ".md)"}}},
        {"defaultConfiguration",
         json::Object{{"level", sarifLevel(C.DefaultSeverity)},
                      {"enabled", !C.Strict}}}});
  }
  json::Array Results;
  SourceFiles Files;
  for (const Finding &F : Findings) {
    json::Array Related;
    for (size_t I = 0; I < F.Notes.size(); ++I)
      Related.push_back(json::Object{
          {"id", static_cast<int64_t>(I)},
          {"physicalLocation", physicalLocation(F.Notes[I].Loc)},
          {"message", json::Object{{"text", F.Notes[I].Message}}}});
    json::Object R{
        {"ruleId", F.CheckName},
        {"level", sarifLevel(F.Level)},
        {"message", json::Object{{"text", F.Message}}},
        {"locations", json::Array{json::Object{
                          {"physicalLocation", physicalLocation(F.Loc)}}}},
        {"relatedLocations", std::move(Related)}};
    if (auto It = RuleIndex.find(F.CheckName); It != RuleIndex.end())
      R["ruleIndex"] = It->second;
    if (!F.Kernel.empty())
      R["properties"] = json::Object{{"kernel", F.Kernel}};
    if (!F.Fixes.empty())
      R["fixes"] = sarifFixes(F.Fixes, Files);
    if (!F.Fingerprint.empty())
      R["partialFingerprints"] =
          json::Object{{"tmemcheckStatement/v1", F.Fingerprint}};
    Results.push_back(std::move(R));
  }
  json::Object Driver{{"name", "tmemcheck"},
                      {"version", ToolVersion},
                      {"rules", std::move(RuleArray)}};
  json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{json::Object{
                   {"tool", json::Object{{"driver", std::move(Driver)}}},
                   {"results", std::move(Results)},
                   {"columnKind", "unicodeCodePoints"}}}}};
  OS << formatv("{0:2}", json::Value(std::move(Log))) << '\n';
}

} // namespace tmemcheck
