//===- SourceExtentTest.cpp - Where a PTX instruction ends ----------------===//
//
// Part of tmemcheck. The extent of the PTX instruction at a finding's
// position in a .ptx file and the byte -> UTF-16 column conversion SARIF's
// columnKind needs.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/SourceExtent.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

/// A temporary file with \p Text, removed at the end of the test.
class TempFile {
public:
  TempFile(llvm::StringRef Text, llvm::StringRef Suffix) {
    int FD = -1;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("extent", Suffix, FD, Path));
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
  }
  ~TempFile() { llvm::sys::fs::remove(Path); }
  std::string path() const { return std::string(Path); }

private:
  llvm::SmallString<128> Path;
};

/// "line:col-line:col" of the extent at \p Line : \p Column, or "none".
std::string extentText(llvm::StringRef Text, unsigned Line, unsigned Column,
                       llvm::StringRef Suffix) {
  TempFile F(Text, Suffix);
  SourceFiles Files;
  std::optional<SourceExtent> E =
      ptxExtentAt(Files, SourceLoc{F.path(), Line, Column});
  if (!E)
    return "none";
  return std::to_string(E->Begin.Line) + ":" + std::to_string(E->Begin.Column) +
         "-" + std::to_string(E->End.Line) + ":" +
         std::to_string(E->End.Column);
}

TEST(SourceExtentTest, PtxInstructions) {
  // The instruction up to its ';', or the line before a comment.
  EXPECT_EQ(extentText("\ttcgen05.alloc.b32 [%r1], 32; // c\n", 1, 2, "ptx"),
            "1:2-1:30");
  EXPECT_EQ(extentText("\t@%p1 bra $L__BB0_2 // c\n", 1, 7, "ptx"), "1:7-1:20");
  // Past the end of the line, no such line.
  EXPECT_EQ(extentText("ab\n", 1, 9, "ptx"), "none");
  EXPECT_EQ(extentText("ab\n", 4, 1, "ptx"), "none");
  // C++ text is not scanned: its ends come from Clang's source ranges.
  EXPECT_EQ(extentText("  tmem_ld(r, a);\n", 1, 3, "cu"), "none");
}

TEST(SourceExtentTest, Utf16Columns) {
  EXPECT_EQ(utf16Column("abc", 1), 1u);
  EXPECT_EQ(utf16Column("abc", 4), 4u);
  // "ö" is 2 bytes and 1 unit, U+1F600 4 bytes and 2 units.
  EXPECT_EQ(utf16Column("\xc3\xb6x", 3), 2u);
  EXPECT_EQ(utf16Column("\xf0\x9f\x98\x80x", 5), 3u);
  EXPECT_EQ(utf16Column("/* gr\xc3\xb6\xc3\x9f"
                        "e \xf0\x9f\x98\x80 */ asm",
                        20),
            16u);
  // An invalid byte counts one unit; columns past the end one per byte.
  EXPECT_EQ(utf16Column("\xffx", 2), 2u);
  EXPECT_EQ(utf16Column("ab", 6), 6u);
}

} // namespace
