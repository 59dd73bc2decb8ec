//===- FixApplierTest.cpp - --fix on files, SourceFiles positions ---------===//
//
// Part of tmemcheck. FixApplier applies all edits of a file or none, never
// writes a read-only file, and leaves no temporary file behind; SourceFiles
// converts between offsets and line/column.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/FixApplier.h"
#include "tmemcheck/Report/SourceFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace tmemcheck;

namespace {

/// A file with the given contents in a fresh temporary directory, removed
/// with the directory at the end of the test.
class TempSource {
public:
  explicit TempSource(llvm::StringRef Contents) {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tmemcheck-fix", Dir));
    Path = Dir;
    llvm::sys::path::append(Path, "kernel.cu");
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC);
    OS << Contents;
  }
  ~TempSource() {
    llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_read |
                                            llvm::sys::fs::owner_write);
    llvm::sys::fs::remove_directories(Dir);
  }
  std::string path() const { return std::string(Path); }
  std::string contents() const {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    return Buf ? (*Buf)->getBuffer().str() : "<unreadable>";
  }
  /// Names in the directory, to see that no temporary file is left.
  unsigned entries() const {
    unsigned N = 0;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      ++N;
    return N;
  }

private:
  llvm::SmallString<128> Dir, Path;
};

Finding findingWith(std::vector<FixIt> Fixes) {
  Finding F;
  F.CheckName = "tmem-test";
  F.Fixes = std::move(Fixes);
  return F;
}

TEST(FixApplierTest, AppliesEveryEditOnce) {
  TempSource S("alloc(96);\nfree(96);\n");
  FixIt Alloc{S.path(), 6, 2, "128"}, Free{S.path(), 16, 2, "128"};
  FixIt Wait{S.path(), 11, 0, "wait();\n"};
  // The same edit from two findings is applied once.
  std::vector<FixResult> R =
      applyFixIts({findingWith({Alloc, Wait}), findingWith({Free, Alloc})});
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Result, FixResult::Applied);
  EXPECT_EQ(R[0].Edits, 3u);
  EXPECT_EQ(S.contents(), "alloc(128);\nwait();\nfree(128);\n");
  EXPECT_EQ(S.entries(), 1u);
}

TEST(FixApplierTest, OverlappingEditsApplyNone) {
  TempSource S("alloc(96);\n");
  std::vector<FixResult> R = applyFixIts(
      {findingWith({{S.path(), 6, 2, "128"}, {S.path(), 7, 3, "x"}})});
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Result, FixResult::Overlapping);
  EXPECT_EQ(S.contents(), "alloc(96);\n");
}

TEST(FixApplierTest, DifferentInsertionsAtOneOffsetApplyNone) {
  TempSource S("a();\nb();\n");
  std::vector<FixResult> R = applyFixIts({findingWith(
      {{S.path(), 5, 0, "wait();\n"}, {S.path(), 5, 0, "relinquish();\n"}})});
  EXPECT_EQ(R[0].Result, FixResult::Overlapping);
  EXPECT_EQ(S.contents(), "a();\nb();\n");
}

TEST(FixApplierTest, AdjacentEditsApply) {
  TempSource S("f(96);\n");
  std::vector<FixResult> R = applyFixIts(
      {findingWith({{S.path(), 2, 2, "128"}, {S.path(), 4, 0, "u"}})});
  EXPECT_EQ(R[0].Result, FixResult::Applied);
  EXPECT_EQ(S.contents(), "f(128u);\n");
}

TEST(FixApplierTest, ReadOnlyFileIsLeftAlone) {
  TempSource S("alloc(96);\n");
  ASSERT_FALSE(
      llvm::sys::fs::setPermissions(S.path(), llvm::sys::fs::all_read));
  std::vector<FixResult> R =
      applyFixIts({findingWith({{S.path(), 6, 2, "128"}})});
  EXPECT_EQ(R[0].Result, FixResult::ReadOnly);
  EXPECT_EQ(S.contents(), "alloc(96);\n");
  std::string Err;
  llvm::raw_string_ostream OS(Err);
  EXPECT_FALSE(reportFixResults(OS, R, /*Quiet=*/true));
  EXPECT_NE(Err.find("cannot apply fix-its to '" + S.path() +
                     "': the file is read-only"),
            std::string::npos);
}

TEST(FixApplierTest, EditPastTheEndFails) {
  TempSource S("short\n");
  std::vector<FixResult> R =
      applyFixIts({findingWith({{S.path(), 100, 2, "x"}})});
  EXPECT_EQ(R[0].Result, FixResult::Failed);
  EXPECT_EQ(S.contents(), "short\n");
}

TEST(FixApplierTest, KeepsPermissions) {
  TempSource S("alloc(96);\n");
  auto Mode = static_cast<llvm::sys::fs::perms>(0640);
  ASSERT_FALSE(llvm::sys::fs::setPermissions(S.path(), Mode));
  applyFixIts({findingWith({{S.path(), 6, 2, "128"}})});
  llvm::sys::fs::file_status Status;
  ASSERT_FALSE(llvm::sys::fs::status(S.path(), Status));
  EXPECT_EQ(Status.permissions(), Mode);
  EXPECT_EQ(S.contents(), "alloc(128);\n");
}

TEST(SourceFilesTest, OffsetsAndLineColumns) {
  TempSource S("ab\r\ncd\n\nef");
  SourceFiles Files;
  EXPECT_EQ(Files.offset(S.path(), 1, 1), 0u);
  EXPECT_EQ(Files.offset(S.path(), 2, 2), 5u);
  EXPECT_EQ(Files.offset(S.path(), 4, 1), 8u);
  std::optional<LineColumn> L = Files.lineColumn(S.path(), 5);
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Line, 2u);
  EXPECT_EQ(L->Column, 2u);
  L = Files.lineColumn(S.path(), 10); // the end of the file
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Line, 4u);
  EXPECT_EQ(L->Column, 3u);
  EXPECT_FALSE(Files.lineColumn(S.path(), 11));
  EXPECT_FALSE(Files.offset(S.path(), 0, 1));
  EXPECT_FALSE(Files.text("/no/such/file.cu"));
}

} // namespace
