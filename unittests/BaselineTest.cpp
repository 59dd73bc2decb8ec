//===- BaselineTest.cpp - Reading and writing baseline files --------------===//
//
// Part of tmemcheck. Checks the versioned baseline format: what is read,
// what a malformed file is told, and that a written file reads back.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/Baseline.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

const std::string Hex(64, 'a');

std::string parseError(llvm::StringRef Text) {
  llvm::Expected<Baseline> B = Baseline::parse(Text, "b.json");
  if (B)
    return "parsed";
  return llvm::toString(B.takeError());
}

TEST(BaselineTest, ReadsFingerprints) {
  llvm::Expected<Baseline> B =
      Baseline::parse(R"({"version": 1, "findings": [{"fingerprint": ")" + Hex +
                          R"(", "check": "tmem-leak", "extra": [1, 2]}]})",
                      "b.json");
  ASSERT_TRUE(static_cast<bool>(B)) << llvm::toString(B.takeError());
  EXPECT_EQ(B->size(), 1u);
  EXPECT_TRUE(B->contains(Hex));
  EXPECT_FALSE(B->contains(std::string(64, 'b')));
}

TEST(BaselineTest, MalformedFilesAreNamedAndExplained) {
  EXPECT_EQ(parseError("{"), "b.json: invalid baseline: not JSON: [1:1, "
                             "byte=1]: Expected object key");
  EXPECT_EQ(parseError("[]"), "b.json: invalid baseline: expected object");
  EXPECT_EQ(parseError(R"({"findings": []})"),
            "b.json: invalid baseline: missing value at (root).version");
  EXPECT_EQ(parseError(R"({"version": 2, "findings": []})"),
            "b.json: invalid baseline: version 2 is not supported (this "
            "tmemcheck reads version 1)");
  EXPECT_EQ(parseError(R"({"version": 1})"),
            "b.json: invalid baseline: missing value at (root).findings");
  EXPECT_EQ(parseError(R"({"version": 1, "findings": {}})"),
            "b.json: invalid baseline: expected array at (root).findings");
  EXPECT_EQ(parseError(R"({"version": 1, "findings": [{"check": "x"}]})"),
            "b.json: invalid baseline: missing value at "
            "(root).findings[0].fingerprint");
  EXPECT_EQ(parseError(R"({"version": 1, "findings": [{"fingerprint": 3}]})"),
            "b.json: invalid baseline: expected string at "
            "(root).findings[0].fingerprint");
  EXPECT_EQ(
      parseError(R"({"version": 1, "findings": [{"fingerprint": "AB"}]})"),
      "b.json: invalid baseline: expected 64 lowercase hex digits (a "
      "SHA-256 digest) at (root).findings[0].fingerprint");
}

TEST(BaselineTest, MissingFileIsAnError) {
  llvm::Expected<Baseline> B = Baseline::load("/nonexistent/b.json");
  ASSERT_FALSE(static_cast<bool>(B));
  EXPECT_EQ(llvm::toString(B.takeError()),
            "cannot read baseline '/nonexistent/b.json': No such file or "
            "directory");
}

TEST(BaselineTest, WrittenBaselineReadsBack) {
  llvm::SmallString<256> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("baseline", Dir));
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "b.json");
  FindingIdentity A, B;
  A.Fingerprint = std::string(64, '1');
  A.File = "z.cu";
  B.Fingerprint = std::string(64, '2');
  B.File = "a.cu";
  ASSERT_FALSE(static_cast<bool>(Baseline::write(Path, {A, B})));
  llvm::Expected<Baseline> Read = Baseline::load(Path);
  ASSERT_TRUE(static_cast<bool>(Read)) << llvm::toString(Read.takeError());
  EXPECT_EQ(Read->size(), 2u);
  EXPECT_TRUE(Read->contains(A.Fingerprint));
  EXPECT_TRUE(Read->contains(B.Fingerprint));
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
