//===- SourceExtentTest.cpp - Where a finding's code ends -----------------===//
//
// Part of tmemcheck. The extent of the code at a finding's position (a
// token, a call, the PTX instruction of an asm string or a .ptx line) and
// the byte -> UTF-16 column conversion SARIF's columnKind needs.
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
                       llvm::StringRef Suffix = "cu") {
  TempFile F(Text, Suffix);
  SourceFiles Files;
  std::optional<SourceExtent> E =
      extentAt(Files, SourceLoc{F.path(), Line, Column});
  if (!E)
    return "none";
  return std::to_string(E->Begin.Line) + ":" + std::to_string(E->Begin.Column) +
         "-" + std::to_string(E->End.Line) + ":" +
         std::to_string(E->End.Column);
}

TEST(SourceExtentTest, TokensAndCalls) {
  // An identifier alone, a call up to its parenthesis, a member chain.
  EXPECT_EQ(extentText("  x = y + 1;\n", 1, 3), "1:3-1:4");
  EXPECT_EQ(extentText("  tmem_ld(r, a);\n", 1, 3), "1:3-1:16");
  EXPECT_EQ(extentText("  alloc.free(p, 32) ;\n", 1, 3), "1:3-1:20");
  EXPECT_EQ(
      extentText("  cute::TMEM::Allocator1Sm{}.allocate(32, &s);\n", 1, 3),
      "1:3-1:46");
  EXPECT_EQ(extentText("  p->release();\n", 1, 3), "1:3-1:15");
  // Nested calls, strings and comments with brackets inside the arguments.
  EXPECT_EQ(extentText("f(g(\")\"), /* ) */ 'x');\n", 1, 1), "1:1-1:23");
  // A call over several lines ends on the line of its parenthesis.
  EXPECT_EQ(extentText("  commit(bar,\n         mask);\n", 1, 3), "1:3-2:15");
  // A statement keyword is not called.
  EXPECT_EQ(extentText("  if (x) y();\n", 1, 3), "1:3-1:5");
  // Unbalanced brackets: the token alone.
  EXPECT_EQ(extentText("  f(a];\n", 1, 3), "1:3-1:4");
  // A number, a punctuator.
  EXPECT_EQ(extentText("  n = 0x1f0u;\n", 1, 7), "1:7-1:13");
  EXPECT_EQ(extentText("  a += b;\n", 1, 5), "1:5-1:6");
  // Past the end of the line, no such line.
  EXPECT_EQ(extentText("ab\n", 1, 9), "none");
  EXPECT_EQ(extentText("ab\n", 4, 1), "none");
}

TEST(SourceExtentTest, AsmStringsAndPtx) {
  // A finding inside an asm template: the instruction up to its ';'.
  EXPECT_EQ(
      extentText("asm(\"tcgen05.commit.b64 [%0]; nop;\" :: \"l\"(b));\n", 1, 6),
      "1:6-1:30");
  // Without a ';', up to the closing quote.
  EXPECT_EQ(
      extentText("asm volatile(\"tcgen05.wait::ld.sync.aligned\");\n", 1, 15),
      "1:15-1:44");
  // A comment with quotes before a token does not make it a string.
  EXPECT_EQ(extentText("/* \"x */ foo();\n", 1, 10), "1:10-1:15");
  EXPECT_EQ(extentText("// \"x\nfoo();\n", 2, 1), "2:1-2:6");
  // PTX: the instruction up to its ';', or the line before a comment.
  EXPECT_EQ(extentText("\ttcgen05.alloc.b32 [%r1], 32; // c\n", 1, 2, "ptx"),
            "1:2-1:30");
  EXPECT_EQ(extentText("\t@%p1 bra $L__BB0_2 // c\n", 1, 7, "ptx"), "1:7-1:20");
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
