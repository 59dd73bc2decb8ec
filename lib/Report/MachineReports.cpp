//===- MachineReports.cpp - JSON and SARIF output -------------------------===//
//
// Part of tmemcheck. Built with llvm::json; SARIF field names follow the
// OASIS SARIF 2.1.0 schema as GitHub code scanning reads it.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/MachineReports.h"
#include "tmemcheck/Report/SourceExtent.h"
#include "tmemcheck/Report/SourceFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace tmemcheck {

namespace {

/// \p Path percent-encoded for a URI: bytes other than RFC 3986's
/// unreserved characters, sub-delimiters, '@' and '/' (and ':' unless
/// \p AllowColon: a colon in the first segment of a relative reference
/// would read as a scheme) become %XX.
std::string uriEncoded(StringRef Path, bool AllowColon) {
  std::string Out;
  for (unsigned char C : Path) {
    if (isAlnum(C) || StringRef("-._~!$&'()*+,;=@/").contains(C) ||
        (AllowColon && C == ':'))
      Out += static_cast<char>(C);
    else
      Out += {'%', hexdigit(C >> 4), hexdigit(C & 15)};
  }
  return Out;
}

/// \p Path made absolute, without dots, with forward slashes.
std::string absolutePath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return sys::path::convert_to_slash(Abs);
}

/// A file URI for a path (made absolute).
std::string fileUri(StringRef Path) {
  std::string Abs = absolutePath(Path);
  return "file://" + std::string(StringRef(Abs).starts_with("/") ? "" : "/") +
         uriEncoded(Abs, /*AllowColon=*/true);
}

/// A file URI for a directory, with the trailing '/' that a base URI needs.
std::string directoryUri(StringRef Dir) {
  std::string Uri = fileUri(Dir);
  if (!StringRef(Uri).ends_with("/"))
    Uri += '/';
  return Uri;
}

constexpr StringLiteral SrcRootId = "%SRCROOT%";

/// What the writer needs of a run to render locations: the source root
/// URIs are made relative to, and the files' text (region ends, UTF-16
/// columns).
struct LocationWriter {
  std::string Root; ///< absolute, with a trailing '/'; empty: no root.
  /// Root with symbolic links resolved, with a trailing '/'.
  std::string RealRoot;
  SourceFiles Files;

  void setRoot(StringRef Dir) {
    Root = absolutePath(Dir);
    SmallString<256> Real;
    RealRoot = sys::fs::real_path(Root, Real)
                   ? Root
                   : sys::path::convert_to_slash(Real);
    for (std::string *R : {&Root, &RealRoot})
      if (!StringRef(*R).ends_with("/"))
        *R += '/';
  }

  /// SARIF artifactLocation: relative to %SRCROOT% inside the root (as
  /// given, else with symbolic links resolved in both), an absolute file
  /// URI outside it.
  json::Object artifactLocation(StringRef Path) {
    std::string Abs = absolutePath(Path);
    auto Relative = [&](StringRef File,
                        StringRef Base) -> std::optional<json::Object> {
      if (Base.empty() || !File.starts_with(Base) || File.size() == Base.size())
        return std::nullopt;
      return json::Object{{"uri", uriEncoded(File.drop_front(Base.size()),
                                             /*AllowColon=*/false)},
                          {"uriBaseId", SrcRootId}};
    };
    if (auto R = Relative(Abs, Root))
      return std::move(*R);
    SmallString<256> Real;
    if (!Root.empty() && !sys::fs::real_path(Abs, Real))
      if (auto R = Relative(sys::path::convert_to_slash(Real), RealRoot))
        return std::move(*R);
    return json::Object{{"uri", fileUri(Abs)}};
  }

  /// \p ByteColumn of \p Line of \p File in UTF-16 code units (the byte
  /// column when the file cannot be read: the same for ASCII text).
  unsigned column(StringRef File, unsigned Line, unsigned ByteColumn) {
    if (std::optional<StringRef> Text = lineText(Files, File, Line))
      return utf16Column(*Text, ByteColumn);
    return ByteColumn;
  }

  /// A region from byte positions, columns in UTF-16 code units.
  json::Object region(StringRef File, LineColumn Begin,
                      std::optional<LineColumn> End) {
    json::Object Region{
        {"startLine", Begin.Line},
        {"startColumn", column(File, Begin.Line, Begin.Column)}};
    if (End) {
      Region["endLine"] = End->Line;
      Region["endColumn"] = column(File, End->Line, End->Column);
    }
    return Region;
  }

  /// SARIF physicalLocation: the artifact and, for a valid position, the
  /// region of the code there: up to the end the front end gave it, else
  /// up to the end of the instruction of a .ptx file (ptxExtentAt), else
  /// its start alone.
  json::Object physicalLocation(const SourceLoc &L) {
    json::Object Phys{{"artifactLocation", artifactLocation(L.File)}};
    if (!L.isValid() || L.Column == 0)
      return Phys;
    if (L.hasEnd())
      Phys["region"] = region(L.File, {L.Line, L.Column},
                              LineColumn{L.EndLine, L.EndColumn});
    else if (std::optional<SourceExtent> E = ptxExtentAt(Files, L))
      Phys["region"] = region(L.File, E->Begin, E->End);
    else
      Phys["region"] = region(L.File, {L.Line, L.Column}, std::nullopt);
    return Phys;
  }

  json::Object location(const SourceLoc &L, std::optional<std::string> Message,
                        std::optional<int64_t> Id = std::nullopt) {
    json::Object Loc{{"physicalLocation", physicalLocation(L)}};
    if (Id)
      Loc["id"] = *Id;
    if (Message)
      Loc["message"] = json::Object{{"text", std::move(*Message)}};
    return Loc;
  }

  /// SARIF `fixes`: one fix with one artifactChange per file, its edits as
  /// replacements of a deleted region (line/column and byte offset/length)
  /// by inserted content.
  json::Array fixes(const std::vector<FixIt> &Fixes) {
    std::map<std::string, json::Array> ByFile;
    for (const FixIt &Fix : Fixes) {
      json::Object Region;
      if (auto B = Files.lineColumn(Fix.File, Fix.Offset))
        if (auto E = Files.lineColumn(Fix.File, Fix.Offset + Fix.Length))
          Region = region(Fix.File, *B, *E);
      Region["byteOffset"] = Fix.Offset;
      Region["byteLength"] = Fix.Length;
      ByFile[Fix.File].push_back(
          json::Object{{"deletedRegion", std::move(Region)},
                       {"insertedContent", json::Object{{"text", Fix.Text}}}});
    }
    json::Array Changes;
    for (auto &[File, Replacements] : ByFile)
      Changes.push_back(
          json::Object{{"artifactLocation", artifactLocation(File)},
                       {"replacements", std::move(Replacements)}});
    json::Array Out;
    if (!Changes.empty())
      Out.push_back(json::Object{{"artifactChanges", std::move(Changes)}});
    return Out;
  }
};

/// \p Text as the link text of a SARIF plain-text embedded link: literal
/// brackets and backslashes escaped with a backslash (SARIF 3.11.6).
std::string linkText(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '[' || C == ']' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

/// SARIF `codeFlows` of a finding with a timeline: the notes that name
/// events run before it on the path it describes (FindingNote::Order) and
/// its FlowSteps, in Order, the finding itself after them and before the
/// steps that follow it (FindingNote::AfterFinding): e.g. alloc -> dealloc
/// -> the load after it, or a leaked alloc -> the exit. One thread flow,
/// within GitHub's limit on its locations. Empty without such steps.
json::Array codeFlows(const Finding &F, LocationWriter &W) {
  struct Step {
    bool After;
    unsigned Order;
    const SourceLoc *Loc;
    std::string Message;
  };
  std::vector<Step> Steps;
  for (const FindingNote &N : F.Notes)
    if (N.Order && N.Loc.isValid())
      Steps.push_back({false, *N.Order, &N.Loc, N.Message});
  // The timeline's other events, unless a note names them.
  for (const FindingNote &N : F.FlowSteps)
    if (N.Order && N.Loc.isValid() &&
        llvm::none_of(Steps, [&](const Step &S) { return *S.Loc == N.Loc; }))
      Steps.push_back({N.AfterFinding, *N.Order, &N.Loc, N.Message});
  if (Steps.empty())
    return {};
  std::stable_sort(
      Steps.begin(), Steps.end(), [](const Step &A, const Step &B) {
        return std::tie(A.After, A.Order) < std::tie(B.After, B.Order);
      });
  // GitHub shows MaxThreadFlowLocations; the finding is always among them.
  if (Steps.size() >= SarifLimits::MaxThreadFlowLocations)
    Steps.resize(SarifLimits::MaxThreadFlowLocations - 1);
  auto FirstAfter = llvm::find_if(Steps, [](const Step &S) { return S.After; });
  Steps.insert(FirstAfter, {false, 0, &F.Loc, "the finding: " + F.Message});
  json::Array Locations;
  for (size_t I = 0; I < Steps.size(); ++I)
    Locations.push_back(
        json::Object{{"location", W.location(*Steps[I].Loc, Steps[I].Message)},
                     {"executionOrder", static_cast<int64_t>(I) + 1}});
  return json::Array{json::Object{
      {"message",
       json::Object{{"text", "The events of the finding's timeline in the "
                             "order they run (in a loop, an event may run on "
                             "an earlier iteration; other threads' events "
                             "where they interleave), the finding among "
                             "them."}}},
      {"threadFlows",
       json::Array{json::Object{{"locations", std::move(Locations)}}}}}};
}

/// The JSON report's "endLine"/"endColumn" (byte column, exclusive) of a
/// position whose end the front end gave.
void addEnd(json::Object &O, const SourceLoc &L) {
  if (!L.hasEnd())
    return;
  O["endLine"] = L.EndLine;
  O["endColumn"] = L.EndColumn;
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
    for (const FindingNote &N : F.Notes) {
      json::Object Note{{"file", N.Loc.File},
                        {"line", N.Loc.Line},
                        {"column", N.Loc.Column},
                        {"message", N.Message}};
      addEnd(Note, N.Loc);
      Notes.push_back(std::move(Note));
    }
    json::Array Fixes;
    for (const FixIt &Fix : F.Fixes)
      Fixes.push_back(json::Object{{"file", Fix.File},
                                   {"offset", Fix.Offset},
                                   {"length", Fix.Length},
                                   {"replacement", Fix.Text}});
    json::Object Entry{
        {"check", F.CheckName},     {"severity", severityName(F.Level)},
        {"file", F.Loc.File},       {"line", F.Loc.Line},
        {"column", F.Loc.Column},   {"message", F.Message},
        {"kernel", F.Kernel},       {"notes", std::move(Notes)},
        {"fixes", std::move(Fixes)}};
    addEnd(Entry, F.Loc);
    Out.push_back(std::move(Entry));
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
                      StringRef ToolVersion, const SarifRunInfo &Info) {
  json::Array RuleArray;
  std::map<std::string, unsigned> RuleIndex;
  const std::string Base =
      Info.HelpBase.empty() || StringRef(Info.HelpBase).ends_with("/")
          ? Info.HelpBase
          : Info.HelpBase + "/";
  for (const CheckInfo &C : Rules) {
    RuleIndex[C.Name] = RuleArray.size();
    std::string Page = "checks/" + C.Name + ".md";
    std::string PageLink = (Base.empty() ? "docs/" : Base) + Page;
    std::string RulesLink = (Base.empty() ? "docs/" : Base) + "rules.md";
    json::Object Rule{
        {"id", C.Name},
        {"name", C.Name},
        {"shortDescription", json::Object{{"text", C.Summary}}},
        {"fullDescription", json::Object{{"text", C.Summary}}},
        {"help",
         json::Object{
             {"text",
              C.Summary + " (see " + PageLink + " and " + RulesLink + ")"},
             {"markdown", "**" + C.Name + "**: " + C.Summary +
                              "\n\nWhat it finds, why (with the rule it "
                              "cites), a bad and a good example and how to "
                              "suppress it: [" +
                              Page + "](" + PageLink +
                              "). The rule ids in the messages are explained "
                              "in the [rules reference](" +
                              RulesLink + ")."}}},
        {"defaultConfiguration",
         json::Object{{"level", sarifLevel(C.DefaultSeverity)},
                      {"enabled", !C.Strict}}}};
    if (!Base.empty())
      Rule["helpUri"] = Base + Page;
    RuleArray.push_back(std::move(Rule));
  }
  LocationWriter W;
  if (!Info.SrcRoot.empty())
    W.setRoot(Info.SrcRoot);
  json::Array Results;
  for (const Finding &F : Findings) {
    if (Results.size() == SarifLimits::MaxResultsPerRun)
      break;
    // Notes become related locations with ids 1..N, linked from the
    // message text; GitHub keeps at most SarifLimits::MaxLocationsPerResult
    // locations, the primary one included.
    size_t Linked =
        std::min(F.Notes.size(), SarifLimits::MaxLocationsPerResult - 1);
    json::Array Related;
    std::string Links;
    for (size_t I = 0; I < Linked; ++I) {
      const FindingNote &N = F.Notes[I];
      int64_t Id = static_cast<int64_t>(I) + 1;
      Related.push_back(W.location(N.Loc, N.Message, Id));
      Links += (I == 0 ? "" : I + 1 == Linked ? " and " : ", ");
      Links += "[" + linkText(N.Message) + "](" + std::to_string(Id) + ")";
    }
    std::string Text = F.Message;
    if (!Links.empty())
      Text +=
          (StringRef(Text).ends_with(".") ? " See " : ". See ") + Links + ".";
    json::Object R{{"ruleId", F.CheckName},
                   {"level", sarifLevel(F.Level)},
                   {"message", json::Object{{"text", std::move(Text)}}},
                   {"locations", json::Array{W.location(F.Loc, std::nullopt)}},
                   {"relatedLocations", std::move(Related)}};
    if (json::Array Flows = codeFlows(F, W); !Flows.empty())
      R["codeFlows"] = std::move(Flows);
    if (auto It = RuleIndex.find(F.CheckName); It != RuleIndex.end())
      R["ruleIndex"] = It->second;
    if (!F.Kernel.empty())
      R["properties"] = json::Object{{"kernel", F.Kernel}};
    if (!F.Fixes.empty())
      R["fixes"] = W.fixes(F.Fixes);
    if (!F.Fingerprint.empty())
      R["partialFingerprints"] =
          json::Object{{"tmemcheckStatement/v1", F.Fingerprint}};
    Results.push_back(std::move(R));
  }
  json::Object Driver{{"name", "tmemcheck"},
                      {"version", ToolVersion},
                      {"rules", std::move(RuleArray)}};
  json::Array Notifications;
  auto Notify = [&](std::string Level, std::string Message,
                    const SourceLoc &L) {
    json::Object Note{{"level", Level},
                      {"message", json::Object{{"text", Message}}}};
    if (!L.File.empty())
      Note["locations"] = json::Array{
          json::Object{{"physicalLocation", W.physicalLocation(L)}}};
    Notifications.push_back(std::move(Note));
  };
  for (const SarifNotification &N : Info.Notifications)
    Notify(N.Level, N.Message, N.Loc);
  if (Findings.size() > SarifLimits::MaxResultsPerRun)
    Notify("warning",
           formatv("{0} finding(s) not in this log: GitHub code scanning "
                   "accepts at most {1} results per run (the text or JSON "
                   "output has them all)",
                   Findings.size() - SarifLimits::MaxResultsPerRun,
                   SarifLimits::MaxResultsPerRun)
               .str(),
           SourceLoc());
  json::Object Run{
      {"tool", json::Object{{"driver", std::move(Driver)}}},
      {"invocations",
       json::Array{json::Object{
           {"executionSuccessful", Info.ExecutionSuccessful},
           {"toolExecutionNotifications", std::move(Notifications)}}}},
      {"results", std::move(Results)},
      {"columnKind", "utf16CodeUnits"}};
  if (!W.Root.empty())
    Run["originalUriBaseIds"] = json::Object{
        {SrcRootId,
         json::Object{
             {"uri", directoryUri(W.Root)},
             {"description", json::Object{{"text", "The source root: artifact "
                                                   "URIs are relative to it "
                                                   "(--sarif-srcroot)."}}}}}};
  json::Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                   {"version", "2.1.0"},
                   {"runs", json::Array{std::move(Run)}}};
  OS << formatv("{0:2}", json::Value(std::move(Log))) << '\n';
}

} // namespace tmemcheck
