//===- SarifWriterTest.cpp - The SARIF log for code scanning --------------===//
//
// Part of tmemcheck. What writeSarifReport does at GitHub's limits and with
// text that needs escaping: results beyond the per-run limit left out with
// a notification, related locations and code-flow steps capped, brackets
// in a note's link text escaped, URIs percent-encoded and made relative to
// the source root.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/MachineReports.h"

#include "llvm/Support/JSON.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

llvm::json::Value sarifOf(const std::vector<Finding> &Findings,
                          const SarifRunInfo &Info = SarifRunInfo()) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  std::vector<CheckInfo> Rules{{"tmem-x", Severity::Error, false, "x", {}}};
  writeSarifReport(OS, Findings, Rules, "0.0", Info);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Out);
  EXPECT_TRUE(static_cast<bool>(V));
  return V ? std::move(*V) : llvm::json::Value(nullptr);
}

const llvm::json::Object &run(const llvm::json::Value &Log) {
  return *(*Log.getAsObject()->getArray("runs"))[0].getAsObject();
}

Finding finding(std::string File, unsigned Line) {
  Finding F;
  F.CheckName = "tmem-x";
  F.Loc = SourceLoc{std::move(File), Line, 1};
  F.Message = "m";
  return F;
}

TEST(SarifWriterTest, ResultsBeyondTheRunLimitAreLeftOutAndSaid) {
  std::vector<Finding> Fs(SarifLimits::MaxResultsPerRun + 2,
                          finding("/nonexistent/a.cu", 1));
  llvm::json::Value Log = sarifOf(Fs);
  EXPECT_EQ(run(Log).getArray("results")->size(),
            SarifLimits::MaxResultsPerRun);
  const llvm::json::Array *Notes =
      (*run(Log).getArray("invocations"))[0].getAsObject()->getArray(
          "toolExecutionNotifications");
  ASSERT_EQ(Notes->size(), 1u);
  EXPECT_EQ(*(*Notes)[0].getAsObject()->getObject("message")->getString("text"),
            "2 finding(s) not in this log: GitHub code scanning accepts at "
            "most 25000 results per run (the text or JSON output has them "
            "all)");
}

TEST(SarifWriterTest, LocationsAndFlowStepsAreCapped) {
  Finding F = finding("/nonexistent/a.cu", 5000);
  for (unsigned I = 1; I <= 2000; ++I)
    F.Notes.push_back({SourceLoc{"/nonexistent/a.cu", I, 1}, "n", I});
  llvm::json::Value Log = sarifOf({F});
  const llvm::json::Object &R =
      *(*run(Log).getArray("results"))[0].getAsObject();
  EXPECT_EQ(R.getArray("relatedLocations")->size(),
            SarifLimits::MaxLocationsPerResult - 1);
  const llvm::json::Array &Steps = *(*R.getArray("codeFlows"))[0]
                                        .getAsObject()
                                        ->getArray("threadFlows")
                                        ->front()
                                        .getAsObject()
                                        ->getArray("locations");
  ASSERT_EQ(Steps.size(), SarifLimits::MaxThreadFlowLocations);
  // The finding itself is the last step.
  EXPECT_EQ(*Steps.back()
                 .getAsObject()
                 ->getObject("location")
                 ->getObject("message")
                 ->getString("text"),
            "the finding: m");
}

TEST(SarifWriterTest, LinkTextIsEscapedAndUrisEncoded) {
  Finding F = finding("/src/dir one/a[1].cu", 3);
  F.Message = "m [see below].";
  F.Notes.push_back({SourceLoc{"/elsewhere/b.cu", 2, 1}, "x[0] \\ y", {}});
  SarifRunInfo Info;
  Info.SrcRoot = "/src";
  llvm::json::Value Log = sarifOf({F}, Info);
  const llvm::json::Object &R =
      *(*run(Log).getArray("results"))[0].getAsObject();
  EXPECT_EQ(*R.getObject("message")->getString("text"),
            "m [see below]. See [x\\[0\\] \\\\ y](1).");
  const llvm::json::Object *Art = R.getArray("locations")
                                      ->front()
                                      .getAsObject()
                                      ->getObject("physicalLocation")
                                      ->getObject("artifactLocation");
  EXPECT_EQ(*Art->getString("uri"), "dir%20one/a%5B1%5D.cu");
  EXPECT_EQ(*Art->getString("uriBaseId"), "%SRCROOT%");
  const llvm::json::Object *Other = R.getArray("relatedLocations")
                                        ->front()
                                        .getAsObject()
                                        ->getObject("physicalLocation")
                                        ->getObject("artifactLocation");
  EXPECT_EQ(*Other->getString("uri"), "file:///elsewhere/b.cu");
  EXPECT_FALSE(Other->get("uriBaseId"));
  EXPECT_EQ(*run(Log)
                 .getObject("originalUriBaseIds")
                 ->getObject("%SRCROOT%")
                 ->getString("uri"),
            "file:///src/");
  // No note names an event before the finding: no code flow.
  EXPECT_FALSE(R.get("codeFlows"));
}

} // namespace
