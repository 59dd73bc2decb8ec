//===- CallStackTest.cpp - Shared inlining stacks
//--------------------------===//
//
// Part of tmemcheck. Events share their frame's call stack; pushing a call
// makes a new stack and leaves the shared one as it was.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/CallStack.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

SourceLoc at(unsigned Line) { return SourceLoc{"k.cu", Line, 3}; }

TEST(CallStackTest, EmptyStackIterates) {
  CallStack S;
  EXPECT_TRUE(S.empty());
  EXPECT_EQ(S.size(), 0u);
  EXPECT_EQ(S.begin(), S.end());
  EXPECT_EQ(S.rbegin(), S.rend());
}

TEST(CallStackTest, PushingLeavesTheSharedStackAlone) {
  CallStack Outer = CallStack().pushed({"wrapper", at(10)});
  CallStack Copy = Outer; // an event of the wrapper's frame
  CallStack Inner = Outer.pushed({"leaf", at(20)});
  ASSERT_EQ(Outer.size(), 1u);
  ASSERT_EQ(Copy.size(), 1u);
  ASSERT_EQ(Inner.size(), 2u);
  EXPECT_EQ(Copy[0].Callee, "wrapper");
  EXPECT_EQ(Inner.front().Callee, "wrapper");
  EXPECT_EQ(Inner.back().Callee, "leaf");
  EXPECT_EQ(Inner[1].CallSite, at(20));
  // Outermost first; rbegin is the innermost call.
  EXPECT_EQ(Inner.rbegin()->Callee, "leaf");
  std::vector<std::string> Names;
  for (const CallFrame &C : Inner)
    Names.push_back(C.Callee);
  EXPECT_EQ(Names, (std::vector<std::string>{"wrapper", "leaf"}));
}

} // namespace
