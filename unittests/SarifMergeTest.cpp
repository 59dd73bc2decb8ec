//===- SarifMergeTest.cpp - Merging the SARIF logs of shards --------------===//
//
// Part of tmemcheck. Checks the index bookkeeping of the merge on small
// hand-written logs: rules and artifacts de-duplicated, ruleIndex and
// artifact indices renumbered, malformed logs rejected with their name.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/SarifMerge.h"

#include "gtest/gtest.h"

using namespace tmemcheck;
using llvm::json::Value;

namespace {

Value parse(llvm::StringRef Text) {
  llvm::Expected<Value> V = llvm::json::parse(Text);
  EXPECT_TRUE(static_cast<bool>(V)) << llvm::toString(V.takeError());
  return V ? std::move(*V) : Value(nullptr);
}

/// A log of one run with rules \p Rules, artifacts at \p Uris, and results
/// given as (ruleIndex, artifact index) pairs.
Value log(std::vector<std::string> Rules, std::vector<std::string> Uris,
          std::vector<std::pair<int, int>> Results) {
  llvm::json::Array R, A, Res;
  for (const std::string &Id : Rules)
    R.push_back(llvm::json::Object{{"id", Id}});
  for (const std::string &U : Uris)
    A.push_back(
        llvm::json::Object{{"location", llvm::json::Object{{"uri", U}}}});
  for (auto [Rule, Artifact] : Results)
    Res.push_back(llvm::json::Object{
        {"ruleId", Rules[Rule]},
        {"ruleIndex", Rule},
        {"locations", llvm::json::Array{llvm::json::Object{
                          {"physicalLocation",
                           llvm::json::Object{
                               {"artifactLocation",
                                llvm::json::Object{{"uri", Uris[Artifact]},
                                                   {"index", Artifact}}}}}}}}});
  return llvm::json::Object{
      {"version", "2.1.0"},
      {"runs",
       llvm::json::Array{llvm::json::Object{
           {"tool",
            llvm::json::Object{
                {"driver", llvm::json::Object{{"name", "tmemcheck"},
                                              {"version", "0.1.0"},
                                              {"rules", std::move(R)}}}}},
           {"artifacts", std::move(A)},
           {"results", std::move(Res)}}}}};
}

TEST(SarifMergeTest, RulesAndArtifactsAreDeduplicatedAndIndicesFixed) {
  SarifMerger M;
  ASSERT_FALSE(static_cast<bool>(
      M.add("a.sarif",
            log({"tmem-leak", "tmem-x"}, {"file:///a.cu"}, {{0, 0}, {1, 0}}))));
  ASSERT_FALSE(static_cast<bool>(M.add(
      "b.sarif", log({"tmem-y", "tmem-leak"}, {"file:///b.cu", "file:///a.cu"},
                     {{1, 1}, {0, 0}}))));
  llvm::Expected<Value> Merged = M.result();
  ASSERT_TRUE(static_cast<bool>(Merged));
  const llvm::json::Object &Run =
      *(*Merged->getAsObject()->getArray("runs"))[0].getAsObject();
  const llvm::json::Array &Rules =
      *Run.getObject("tool")->getObject("driver")->getArray("rules");
  ASSERT_EQ(Rules.size(), 3u);
  EXPECT_EQ(Rules[0].getAsObject()->getString("id"), "tmem-leak");
  EXPECT_EQ(Rules[1].getAsObject()->getString("id"), "tmem-x");
  EXPECT_EQ(Rules[2].getAsObject()->getString("id"), "tmem-y");
  EXPECT_EQ(Run.getArray("artifacts")->size(), 2u);
  EXPECT_EQ(Run.getObject("tool")->getObject("driver")->getString("version"),
            "0.1.0");
  const llvm::json::Array &Results = *Run.getArray("results");
  ASSERT_EQ(Results.size(), 4u);
  // (ruleIndex, artifact index) after the merge.
  std::vector<std::pair<int64_t, int64_t>> Got;
  for (const Value &R : Results) {
    const llvm::json::Object &O = *R.getAsObject();
    const llvm::json::Object &Loc = *(*O.getArray("locations"))[0]
                                         .getAsObject()
                                         ->getObject("physicalLocation")
                                         ->getObject("artifactLocation");
    Got.emplace_back(*O.getInteger("ruleIndex"), *Loc.getInteger("index"));
    // Every renumbered index still points at the result's rule and file.
    EXPECT_EQ(Rules[*O.getInteger("ruleIndex")].getAsObject()->getString("id"),
              O.getString("ruleId"));
    EXPECT_EQ((*Run.getArray("artifacts"))[*Loc.getInteger("index")]
                  .getAsObject()
                  ->getObject("location")
                  ->getString("uri"),
              Loc.getString("uri"));
  }
  std::vector<std::pair<int64_t, int64_t>> Want = {
      {0, 0}, {1, 0}, {0, 0}, {2, 1}};
  EXPECT_EQ(Got, Want);
}

std::string addError(llvm::StringRef Text) {
  SarifMerger M;
  llvm::Error E = M.add("x.sarif", parse(Text));
  return E ? llvm::toString(std::move(E)) : "merged";
}

TEST(SarifMergeTest, MalformedLogsAreRejectedWithTheirName) {
  EXPECT_EQ(addError("[]"), "x.sarif: invalid SARIF log: expected a JSON "
                            "object");
  EXPECT_EQ(addError(R"({"version": "2.0.0", "runs": []})"),
            "x.sarif: invalid SARIF log: \"version\" is not \"2.1.0\"");
  EXPECT_EQ(addError(R"({"version": "2.1.0"})"),
            "x.sarif: invalid SARIF log: no \"runs\" array");
  EXPECT_EQ(addError(R"({"version": "2.1.0", "runs": [{"tool": {}}]})"),
            "x.sarif: invalid SARIF log: runs[0].tool.driver.name is missing");
  EXPECT_EQ(addError(R"({"version": "2.1.0", "runs": [{"tool": {"driver":
              {"name": "t", "rules": [{"id": "r"}]}},
              "results": [{"ruleIndex": 1}]}]})"),
            "x.sarif: invalid SARIF log: runs[0].results[0].ruleIndex does "
            "not name a rule of the run's driver");
  EXPECT_EQ(addError(R"({"version": "2.1.0", "runs": [{"tool": {"driver":
              {"name": "t"}}, "results": [{"locations": [{
              "physicalLocation": {"artifactLocation": {"index": 0}}}]}]}]})"),
            "x.sarif: invalid SARIF log: runs[0].results[0]: artifact index "
            "0 does not name an artifact of the run");
}

TEST(SarifMergeTest, RunsOfDifferentToolsAreNotMerged) {
  SarifMerger M;
  ASSERT_FALSE(static_cast<bool>(M.add("a.sarif", log({}, {}, {}))));
  llvm::Error E =
      M.add("b.sarif",
            parse(R"({"version": "2.1.0", "runs": [{"tool": {"driver": {"name":
               "other"}}}]})"));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "b.sarif: invalid SARIF log: runs[0] comes from 'other', the logs "
            "before it from 'tmemcheck'");
}

TEST(SarifMergeTest, NothingToMergeIsAnError) {
  SarifMerger M;
  llvm::Expected<Value> V = M.result();
  ASSERT_FALSE(static_cast<bool>(V));
  EXPECT_EQ(llvm::toString(V.takeError()), "no SARIF run to merge");
}

} // namespace

namespace {

/// A tmemcheck log of one result at \p Uri relative to %SRCROOT% = \p Root.
Value rootedLog(llvm::StringRef Root, llvm::StringRef Uri) {
  return llvm::json::Object{
      {"version", "2.1.0"},
      {"runs",
       llvm::json::Array{llvm::json::Object{
           {"tool",
            llvm::json::Object{
                {"driver", llvm::json::Object{{"name", "tmemcheck"}}}}},
           {"originalUriBaseIds",
            llvm::json::Object{
                {"%SRCROOT%", llvm::json::Object{{"uri", Root.str()}}}}},
           {"results",
            llvm::json::Array{llvm::json::Object{
                {"ruleId", "r"},
                {"locations",
                 llvm::json::Array{llvm::json::Object{
                     {"physicalLocation",
                      llvm::json::Object{
                          {"artifactLocation",
                           llvm::json::Object{
                               {"uri", Uri.str()},
                               {"uriBaseId", "%SRCROOT%"}}}}}}}}}}}}}}};
}

/// "uri@base" of the artifact of result \p I of the merged log.
std::string resultUri(const Value &Merged, size_t I) {
  const llvm::json::Object *Art =
      (*(*Merged.getAsObject()->getArray("runs"))[0].getAsObject()->getArray(
          "results"))[I]
          .getAsObject()
          ->getArray("locations")
          ->front()
          .getAsObject()
          ->getObject("physicalLocation")
          ->getObject("artifactLocation");
  return Art->getString("uri")->str() + "@" +
         Art->getString("uriBaseId").value_or("").str();
}

} // namespace

TEST(SarifMergeTest, SourceRootsOfShardsAreReconciled) {
  SarifMerger M;
  ASSERT_FALSE(static_cast<bool>(
      M.add("a.sarif", rootedLog("file:///repo/", "src/a.cu"))));
  // Same root: kept as is. A root inside the first: rebased onto it.
  // A root outside it: absolute, without a base.
  ASSERT_FALSE(static_cast<bool>(
      M.add("b.sarif", rootedLog("file:///repo/", "src/b.cu"))));
  ASSERT_FALSE(static_cast<bool>(
      M.add("c.sarif", rootedLog("file:///repo/lib/", "c.cu"))));
  ASSERT_FALSE(static_cast<bool>(
      M.add("d.sarif", rootedLog("file:///elsewhere/", "d.cu"))));
  llvm::Expected<Value> Merged = M.result();
  ASSERT_TRUE(static_cast<bool>(Merged));
  EXPECT_EQ(resultUri(*Merged, 0), "src/a.cu@%SRCROOT%");
  EXPECT_EQ(resultUri(*Merged, 1), "src/b.cu@%SRCROOT%");
  EXPECT_EQ(resultUri(*Merged, 2), "lib/c.cu@%SRCROOT%");
  EXPECT_EQ(resultUri(*Merged, 3), "file:///elsewhere/d.cu@");
  const llvm::json::Object *Bases =
      (*Merged->getAsObject()->getArray("runs"))[0].getAsObject()->getObject(
          "originalUriBaseIds");
  ASSERT_TRUE(Bases);
  EXPECT_EQ(Bases->getObject("%SRCROOT%")->getString("uri"),
            llvm::StringRef("file:///repo/"));
}
