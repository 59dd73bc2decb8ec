//===- PreludePchTest.cpp - What decides that a prelude PCH is stale ------===//
//
// Part of tmemcheck. A PCH of the pre-included headers is reused only while
// every file it was built from keeps its size and modification time; the
// list of those files is kept next to the PCH and must read back as written
// and reject what is not such a list.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/PreludePch.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

TEST(PreludePchTest, InputsReadBackAsWritten) {
  std::vector<PchInput> Inputs = {
      {"/usr/include/c++/12/bits/move.h", 6788, 1744025177},
      {"/opt/cuda dir/include/cuda_runtime.h", 0, -5}};
  std::optional<std::vector<PchInput>> Read =
      parsePchInputs(printPchInputs(Inputs));
  ASSERT_TRUE(Read);
  ASSERT_EQ(Read->size(), 2u);
  for (size_t I = 0; I < Inputs.size(); ++I) {
    EXPECT_EQ((*Read)[I].Path, Inputs[I].Path);
    EXPECT_EQ((*Read)[I].Size, Inputs[I].Size);
    EXPECT_EQ((*Read)[I].ModificationTime, Inputs[I].ModificationTime);
  }
  EXPECT_TRUE(parsePchInputs("")->empty());
}

TEST(PreludePchTest, MalformedInputListsAreRejected) {
  EXPECT_FALSE(parsePchInputs("12 34\n"));          // no path
  EXPECT_FALSE(parsePchInputs("twelve 34 /a.h\n")); // no size
  EXPECT_FALSE(parsePchInputs("12 x /a.h\n"));      // no time
  EXPECT_FALSE(parsePchInputs("12 34 /a.h\n-1 34 /b.h\n"));
}

TEST(PreludePchTest, AnyChangedInputMakesThePchStale) {
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  FS->addFile("/inc/a.h", 1000, llvm::MemoryBuffer::getMemBuffer("abc"));
  FS->addFile("/inc/b.h", 2000, llvm::MemoryBuffer::getMemBuffer("de"));
  std::vector<PchInput> Inputs = {{"/inc/a.h", 3, 1000}, {"/inc/b.h", 2, 2000}};
  EXPECT_TRUE(pchInputsUnchanged(Inputs, *FS));
  EXPECT_TRUE(pchInputsUnchanged({}, *FS));

  std::vector<PchInput> OtherSize = Inputs;
  OtherSize[1].Size = 3;
  EXPECT_FALSE(pchInputsUnchanged(OtherSize, *FS));
  std::vector<PchInput> OtherTime = Inputs;
  OtherTime[0].ModificationTime = 1001;
  EXPECT_FALSE(pchInputsUnchanged(OtherTime, *FS));
  std::vector<PchInput> Gone = Inputs;
  Gone.push_back({"/inc/c.h", 0, 0});
  EXPECT_FALSE(pchInputsUnchanged(Gone, *FS));
}

} // namespace
