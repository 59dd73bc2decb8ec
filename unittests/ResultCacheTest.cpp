//===- ResultCacheTest.cpp - The result cache and its outcome format ------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Driver/ResultCache.h"
#include "tmemcheck/Driver/FileOutcome.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace tmemcheck;

namespace {

SourceLoc loc(const char *File, unsigned Line, unsigned Column) {
  SourceLoc L;
  L.File = File;
  L.Line = Line;
  L.Column = Column;
  L.EndLine = Line + 1;
  L.EndColumn = Column + 2;
  L.InSystemHeader = Line % 2;
  return L;
}

/// An outcome with every field away from its default.
FileOutcome everyField() {
  FileOutcome O;
  O.TU.File = "k.cu";
  O.TU.Parsed = true;
  O.TU.CompileErrors = 2;
  O.TU.FirstError = "k.cu:1:2: bad";
  O.TU.ErrorLines = {"k.cu:1:2: error: bad", "k.cu:3:4: error: worse"};
  O.TU.UnknownOptions = {"--weird"};
  O.TU.Tcgen05Instructions = 7;
  O.TU.Remarks = {{loc("k.cu", 3, 1), "a remark", true}};
  O.TU.FrontendSeconds = 1.5;
  O.TU.GraphSeconds = 0.25;
  O.TU.ParseSeconds = 0.75;
  O.TU.Threads = 2;
  Finding F;
  F.CheckName = "tmem-leak";
  F.Level = Severity::Warning;
  F.Loc = loc("k.cu", 10, 5);
  F.Message = "leaks \"x\"\n\ttabbed";
  F.Notes = {{loc("k.cu", 4, 2), "allocated here", 3u, false},
             {loc("h.cuh", 5, 1), "context", std::nullopt, true}};
  F.FlowSteps = {{loc("k.cu", 2, 1), "step", 0u, false}};
  F.Kernel = "k";
  F.Fingerprint = "abc";
  F.Fixes = {{"k.cu", 12, 3, "fixed"}};
  F.Order = 9;
  O.Findings = {F};
  KernelReport R;
  R.Kernel = "k";
  R.Loc = loc("k.cu", 1, 1);
  RegionReport Region;
  Region.Name = "slot";
  Region.AllocSite = loc("k.cu", 4, 2);
  Region.Allocated = 256;
  Region.Used = 128;
  Region.Ranges = {{"accumulator", 0, 128, loc("k.cu", 6, 3), 1u, 2}};
  Region.UnknownRangeAccesses = 1;
  Region.Sites = {{loc("k.cu", 6, 3), 0, 128}};
  Region.UnknownSites = {loc("k.cu", 8, 1)};
  R.Regions = {Region};
  R.PeakColumns = 256;
  R.Loads = 4;
  R.LoadsPerTile = 1ull << 40;
  R.ColumnsReadPerThread = 512;
  ReuseEdge E;
  E.K = ReuseEdge::CrossRole;
  E.Earlier = Region.Ranges.front();
  E.Later = Region.Ranges.front();
  E.Begin = 0;
  E.End = 64;
  E.Region = "slot";
  R.RiskiestReuse = E;
  O.Reports = {R};
  O.KernelRemarks = {{loc("k.cu", 1, 1), "budget", false}};
  KernelVerdict V;
  V.Kernel = "k";
  V.Loc = loc("k.cu", 1, 1);
  V.Reasons = {{loc("k.cu", 2, 2), "why"}};
  V.ReportedFindings = 1;
  O.Verdicts = {V};
  O.KernelCount = 1;
  O.ChecksSeconds = 0.125;
  return O;
}

TEST(FileOutcomeTest, RoundTripsEveryField) {
  FileOutcome O = everyField();
  llvm::json::Value V = outcomeToJson(O);
  FileOutcome Back;
  ASSERT_TRUE(outcomeFromJson(V, Back));
  EXPECT_EQ(outcomeToJson(Back), V);
  // A few fields read back directly (the comparison above would also pass
  // if both directions dropped a field).
  ASSERT_EQ(Back.Findings.size(), 1u);
  const Finding &F = Back.Findings.front();
  EXPECT_EQ(F.Level, Severity::Warning);
  EXPECT_EQ(F.Message, "leaks \"x\"\n\ttabbed");
  ASSERT_EQ(F.Notes.size(), 2u);
  EXPECT_EQ(F.Notes[0].Order, std::optional<unsigned>(3));
  EXPECT_FALSE(F.Notes[1].Order);
  EXPECT_TRUE(F.Notes[1].AfterFinding);
  EXPECT_EQ(F.Notes[1].Loc.EndColumn, 3u);
  EXPECT_TRUE(F.Notes[1].Loc.InSystemHeader);
  EXPECT_EQ(F.Fixes.front(), (FixIt{"k.cu", 12, 3, "fixed"}));
  ASSERT_EQ(Back.Reports.size(), 1u);
  EXPECT_EQ(Back.Reports[0].LoadsPerTile, 1ull << 40);
  ASSERT_TRUE(Back.Reports[0].RiskiestReuse);
  EXPECT_EQ(Back.Reports[0].RiskiestReuse->K, ReuseEdge::CrossRole);
  EXPECT_EQ(Back.Reports[0].Regions[0].Ranges[0].Stage,
            std::optional<unsigned>(1));
  EXPECT_EQ(Back.Reports[0].Regions[0].UnknownSites.size(), 1u);
  EXPECT_EQ(Back.TU.ParseSeconds, std::optional<double>(0.75));
  EXPECT_EQ(Back.TU.ErrorLines.size(), 2u);
  EXPECT_EQ(Back.Verdicts[0].Reasons[0].Message, "why");
}

TEST(FileOutcomeTest, RejectsWhatItDidNotWrite) {
  FileOutcome Back;
  EXPECT_FALSE(outcomeFromJson(llvm::json::Value("garbage"), Back));
  EXPECT_FALSE(outcomeFromJson(llvm::json::Object{}, Back));
  llvm::json::Value V = outcomeToJson(everyField());
  (*(*V.getAsObject()->getArray("findings"))[0].getAsObject())["level"] = 7;
  EXPECT_FALSE(outcomeFromJson(V, Back));
}

/// A directory of its own for one test, removed at the end.
class ResultCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tmemcheck-cache", Dir));
    Input = path("input.h");
    write(Input, "#define N 1\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  static void write(llvm::StringRef Path, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  static void setTime(llvm::StringRef Path, int64_t SecondsSinceEpoch) {
    int FD;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
        Path, FD, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append));
    auto T = llvm::sys::toTimePoint(SecondsSinceEpoch);
    EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(FD, T, T));
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  std::unique_ptr<ResultCache> open() {
    auto C = ResultCache::open(path("cache"));
    EXPECT_TRUE(bool(C));
    return C ? std::move(*C) : nullptr;
  }

  llvm::SmallString<256> Dir;
  std::string Input;
};

TEST_F(ResultCacheTest, ServesWhileTheInputsKeepTheirContents) {
  auto Cache = open();
  ASSERT_TRUE(Cache);
  EXPECT_FALSE(Cache->lookup("key"));
  setTime(Input, 1000000000);
  ASSERT_FALSE(llvm::errorToBool(Cache->store(
      "key", everyField(), {Input, Input}, std::chrono::system_clock::now())));
  std::optional<FileOutcome> Hit = Cache->lookup("key");
  ASSERT_TRUE(Hit);
  EXPECT_TRUE(Hit->FromCache);
  EXPECT_EQ(outcomeToJson(*Hit), outcomeToJson(everyField()));
  EXPECT_FALSE(Cache->lookup("another key"));
  // Touched, same bytes: still served.
  setTime(Input, 1100000000);
  EXPECT_TRUE(Cache->lookup("key"));
  // Edited (same size, same time): the contents decide.
  write(Input, "#define N 2\n");
  setTime(Input, 1100000000);
  EXPECT_TRUE(Cache->lookup("key")) << "size and time unchanged: not read";
  setTime(Input, 1200000000);
  EXPECT_FALSE(Cache->lookup("key"));
  EXPECT_EQ(Cache->hits(), 3u);
  EXPECT_EQ(Cache->misses(), 3u);
}

TEST_F(ResultCacheTest, DoesNotStoreWhatMayPredateItsInputs) {
  auto Cache = open();
  ASSERT_TRUE(Cache);
  // Modified after the analysis started: the outcome may be of the old
  // contents.
  setTime(Input, 2000000000);
  ASSERT_FALSE(llvm::errorToBool(Cache->store(
      "key", everyField(), {Input}, llvm::sys::toTimePoint(1900000000))));
  EXPECT_FALSE(Cache->lookup("key"));
  // An input that is not a file on disk.
  ASSERT_FALSE(
      llvm::errorToBool(Cache->store("key", everyField(), {path("missing.h")},
                                     std::chrono::system_clock::now())));
  EXPECT_FALSE(Cache->lookup("key"));
  // A deleted input is a miss.
  setTime(Input, 1000000000);
  ASSERT_FALSE(llvm::errorToBool(Cache->store(
      "key", everyField(), {Input}, std::chrono::system_clock::now())));
  EXPECT_TRUE(Cache->lookup("key"));
  llvm::sys::fs::remove(Input);
  EXPECT_FALSE(Cache->lookup("key"));
}

TEST_F(ResultCacheTest, DamagedEntriesAreMisses) {
  auto Cache = open();
  ASSERT_TRUE(Cache);
  setTime(Input, 1000000000);
  ASSERT_FALSE(llvm::errorToBool(Cache->store(
      "key", everyField(), {Input}, std::chrono::system_clock::now())));
  ASSERT_TRUE(Cache->lookup("key"));
  // The one entry, rewritten by \p Edit.
  auto Rewrite = [&](llvm::function_ref<void(llvm::json::Object &)> Edit) {
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(path("cache"), EC), End;
         It != End && !EC; It.increment(EC)) {
      if (!llvm::StringRef(It->path()).ends_with(".json"))
        continue;
      auto Buf = llvm::MemoryBuffer::getFile(It->path());
      ASSERT_TRUE(bool(Buf));
      llvm::Expected<llvm::json::Value> V =
          llvm::json::parse((*Buf)->getBuffer());
      ASSERT_TRUE(bool(V));
      Edit(*V->getAsObject());
      write(It->path(), llvm::formatv("{0}", *V).str());
    }
  };
  // A directory index past the table.
  Rewrite([](llvm::json::Object &Entry) {
    auto &File =
        *(*Entry.getObject("inputs")->getArray("files"))[0].getAsArray();
    File[0] = 99;
  });
  EXPECT_FALSE(Cache->lookup("key"));
  // Another key stored under this one's name (a hash collision).
  Rewrite([](llvm::json::Object &Entry) {
    auto &File =
        *(*Entry.getObject("inputs")->getArray("files"))[0].getAsArray();
    File[0] = 0;
    Entry["key"] = "other";
  });
  EXPECT_FALSE(Cache->lookup("key"));
  // Another format.
  Rewrite([](llvm::json::Object &Entry) {
    Entry["key"] = "key";
    Entry["format"] = 1;
  });
  EXPECT_FALSE(Cache->lookup("key"));
  Rewrite([](llvm::json::Object &Entry) { Entry["format"] = 2; });
  EXPECT_TRUE(Cache->lookup("key")) << "the edits above are all undone";
}

TEST_F(ResultCacheTest, CannotOpenAFile) {
  write(path("file"), "x");
  auto C = ResultCache::open(path("file"));
  ASSERT_FALSE(bool(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("is not a directory"),
            std::string::npos);
}

} // namespace
