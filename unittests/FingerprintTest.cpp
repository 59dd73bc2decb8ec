//===- FingerprintTest.cpp - Statement normalisation and fingerprints -----===//
//
// Part of tmemcheck. Checks what a baseline fingerprint depends on (and
// what it must not depend on: line numbers, formatting, comments).
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/Fingerprint.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

TEST(FingerprintTest, WhitespaceIsRemovedBetweenPunctuation) {
  EXPECT_EQ(normalizeStatementText("  tmem_alloc( &slot ,\t64 ) ;  "),
            "tmem_alloc(&slot,64);");
  EXPECT_EQ(normalizeStatementText("a\n+\r\nb;"), "a+b;");
}

TEST(FingerprintTest, OneSpaceSeparatesWords) {
  EXPECT_EQ(normalizeStatementText("return   x ;"), "return x;");
  EXPECT_EQ(normalizeStatementText("unsigned\n\tint  n = 1;"),
            "unsigned int n=1;");
}

TEST(FingerprintTest, CommentsAreDropped) {
  EXPECT_EQ(normalizeStatementText("f(x); // was g(x)"), "f(x);");
  EXPECT_EQ(normalizeStatementText("f(/* cols */ 64);"), "f(64);");
  // A comment between two words still separates them.
  EXPECT_EQ(normalizeStatementText("int/**/x;"), "int x;");
  EXPECT_EQ(normalizeStatementText("a; /* multi\nline */ b;"), "a;b;");
}

TEST(FingerprintTest, LiteralsKeepCommentMarkersAndQuotes) {
  EXPECT_EQ(normalizeStatementText(R"(asm("a // b" :: "r"(x)); // c)"),
            R"(asm("a//b"::"r"(x));)");
  EXPECT_EQ(normalizeStatementText(R"(s = "x\"/*y";)"), R"(s="x\"/*y";)");
  EXPECT_EQ(normalizeStatementText("c = '/'; // d"), "c='/';");
  // A digit separator is not a character literal.
  EXPECT_EQ(normalizeStatementText("n = 1'024; // k"), "n=1'024;");
}

TEST(FingerprintTest, DifferentStatementsDiffer) {
  EXPECT_NE(normalizeStatementText("tmem_alloc(&slot, 64);"),
            normalizeStatementText("tmem_alloc(&slot, 32);"));
  EXPECT_NE(normalizeStatementText("int x;"), normalizeStatementText("intx;"));
}

TEST(FingerprintTest, StatementSpansOpenParentheses) {
  std::vector<std::string> Lines = {
      "  asm volatile(\"tcgen05.alloc [%0], 64;\"",
      "               :: \"r\"(slot));",
      "  next();",
  };
  EXPECT_EQ(statementTextAt(Lines, 1),
            "asm volatile(\"tcgen05.alloc[%0],64;\"::\"r\"(slot));");
  EXPECT_EQ(statementTextAt(Lines, 3), "next();");
  EXPECT_EQ(statementTextAt(Lines, 0), "");
  EXPECT_EQ(statementTextAt(Lines, 4), "");
}

TEST(FingerprintTest, StatementEndsAtBraceOrLabel) {
  std::vector<std::string> Lines = {
      "if (warp == 0) {", "  f();",         "}",         "L1:",
      "  g();",           "#pragma unroll", "for (;;) {"};
  EXPECT_EQ(statementTextAt(Lines, 1), "if(warp==0){");
  EXPECT_EQ(statementTextAt(Lines, 4), "L1:");
  EXPECT_EQ(statementTextAt(Lines, 6), "#pragma unroll");
}

TEST(FingerprintTest, StatementIsBounded) {
  std::vector<std::string> Lines(20, "f(a,");
  EXPECT_EQ(statementTextAt(Lines, 1).size(),
            std::string("f(a,").size() * MaxStatementLines);
}

TEST(FingerprintTest, FingerprintIsAHexDigestOfEveryField) {
  FindingIdentity Id;
  Id.CheckName = "tmem-leak";
  Id.File = "src/gemm.cu";
  Id.Kernel = "gemm";
  Id.Statement = "tmem_alloc(&slot,64);";
  std::string Base = computeFingerprint(Id);
  EXPECT_EQ(Base.size(), 64u);
  EXPECT_EQ(Base.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(computeFingerprint(Id), Base);
  auto Differs = [&](auto Change) {
    FindingIdentity Other = Id;
    Change(Other);
    return computeFingerprint(Other) != Base;
  };
  EXPECT_TRUE(Differs([](FindingIdentity &I) { I.CheckName = "tmem-x"; }));
  EXPECT_TRUE(Differs([](FindingIdentity &I) { I.File = "src/attn.cu"; }));
  EXPECT_TRUE(Differs([](FindingIdentity &I) { I.Kernel = "attn"; }));
  EXPECT_TRUE(Differs([](FindingIdentity &I) { I.Statement = "f();"; }));
  EXPECT_TRUE(Differs([](FindingIdentity &I) { I.Occurrence = 1; }));
  // Fields are delimited: moving text from one field to the next matters.
  EXPECT_TRUE(Differs([](FindingIdentity &I) {
    I.Kernel = "gemmtmem_alloc(&slot,64);";
    I.Statement = "";
  }));
}

/// A temporary directory with one source file, removed at the end.
class FingerprinterTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fingerprint", Dir));
    llvm::SmallString<256> Sub(Dir);
    llvm::sys::path::append(Sub, "src");
    ASSERT_FALSE(llvm::sys::fs::create_directory(Sub));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return std::string(Path);
  }

  Finding at(const std::string &File, unsigned Line) {
    Finding F;
    F.CheckName = "tmem-leak";
    F.Kernel = "k";
    F.Loc.File = File;
    F.Loc.Line = Line;
    F.Loc.Column = 3;
    return F;
  }

  llvm::SmallString<256> Dir;
};

TEST_F(FingerprinterTest, PathsAreRelativeToTheBaseDirectory) {
  std::string File = write("src/k.cu", "f();\n");
  Fingerprinter FP(Dir);
  EXPECT_EQ(FP.displayPath(File), "src/k.cu");
  EXPECT_EQ(FP.identify(at(File, 1)).File, "src/k.cu");
  // Outside the base directory the path stays as given.
  EXPECT_EQ(FP.displayPath("/nonexistent/./a/../k.cu"), "/nonexistent/k.cu");
}

TEST_F(FingerprinterTest, LineShiftsKeepTheFingerprint) {
  std::string File =
      write("src/k.cu", "void k() {\n  tmem_alloc(&s, 64);\n}\n");
  std::string Before = Fingerprinter(Dir).identify(at(File, 2)).Fingerprint;
  write("src/k.cu",
        "// new comment\n\nvoid k() {\n\n  tmem_alloc( &s,64 ); // why\n}\n");
  FindingIdentity After = Fingerprinter(Dir).identify(at(File, 5));
  EXPECT_EQ(After.Statement, "tmem_alloc(&s,64);");
  EXPECT_EQ(After.Fingerprint, Before);
  write("src/k.cu", "void k() {\n  tmem_alloc(&s, 32);\n}\n");
  EXPECT_NE(Fingerprinter(Dir).identify(at(File, 2)).Fingerprint, Before);
}

TEST_F(FingerprinterTest, IdenticalStatementsGetOccurrenceIndices) {
  std::string File = write("src/k.cu", "f();\nf();\ng();\n");
  Fingerprinter FP(Dir);
  FindingIdentity A = FP.identify(at(File, 1));
  FindingIdentity B = FP.identify(at(File, 2));
  FindingIdentity C = FP.identify(at(File, 3));
  EXPECT_EQ(A.Occurrence, 0u);
  EXPECT_EQ(B.Occurrence, 1u);
  EXPECT_EQ(C.Occurrence, 0u);
  EXPECT_NE(A.Fingerprint, B.Fingerprint);
}

TEST_F(FingerprinterTest, UnreadableFileStillHasAFingerprint) {
  Fingerprinter FP(Dir);
  FindingIdentity Id = FP.identify(at(std::string(Dir) + "/missing.cu", 4));
  EXPECT_EQ(Id.Statement, "");
  EXPECT_EQ(Id.File, "missing.cu");
  EXPECT_EQ(Id.Fingerprint.size(), 64u);
}

} // namespace
