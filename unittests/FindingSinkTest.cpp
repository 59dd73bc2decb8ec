//===- FindingSinkTest.cpp - One finding per check, place and message -----===//
//
// Part of tmemcheck. Checks that the sink keeps a finding reported twice
// once, and that the second report's sites (another load the same release
// leaves unordered) are not lost with it.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/Finding.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

SourceLoc at(unsigned Line) { return SourceLoc{"k.cu", Line, 7}; }

Finding releaseOf(unsigned LoadLine) {
  Finding F;
  F.CheckName = "tmem-missing-wait-ld";
  F.Loc = at(40);
  F.Message = "this mbarrier arrive lets other threads reuse columns";
  F.Notes.push_back({at(12), "'mbarrier.arrive' is issued here", {}});
  F.Notes.push_back({at(LoadLine), "the tcgen05.ld is issued here", LoadLine});
  return F;
}

TEST(FindingSinkTest, ASecondReportAddsTheSitesTheFirstDidNotName) {
  FindingSink Sink;
  Sink.report(releaseOf(30));
  Sink.report(releaseOf(31));
  std::vector<Finding> Out = Sink.takeSorted();
  ASSERT_EQ(Out.size(), 1u);
  ASSERT_EQ(Out[0].Notes.size(), 3u);
  EXPECT_EQ(Out[0].Notes[1].Loc.Line, 30u);
  EXPECT_EQ(Out[0].Notes[2].Loc.Line, 31u);
  EXPECT_EQ(Out[0].Notes[2].Message, "the tcgen05.ld is issued here");
}

TEST(FindingSinkTest, TheSameReportTwiceIsOneFindingWithItsNotesOnce) {
  FindingSink Sink;
  Sink.report(releaseOf(30));
  Sink.report(releaseOf(30));
  std::vector<Finding> Out = Sink.takeSorted();
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0].Notes.size(), 2u);
}

TEST(FindingSinkTest, ASiteNamedAgainThroughOtherFramesIsNotAdded) {
  FindingSink Sink;
  Sink.report(releaseOf(30));
  Finding Again = releaseOf(30);
  Again.Notes[0].Message = "'mbarrier.arrive' is issued here, inside 'g<2>'";
  Sink.report(std::move(Again));
  std::vector<Finding> Out = Sink.takeSorted();
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0].Notes.size(), 2u);
}

TEST(FindingSinkTest, AnotherMessageAtThePlaceIsAnotherFinding) {
  FindingSink Sink;
  Sink.report(releaseOf(30));
  Finding Freed = releaseOf(31);
  Freed.Message = "tcgen05.dealloc frees columns";
  Sink.report(std::move(Freed));
  EXPECT_EQ(Sink.takeSorted().size(), 2u);
}

} // namespace
