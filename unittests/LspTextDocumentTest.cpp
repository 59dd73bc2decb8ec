//===- LspTextDocumentTest.cpp - Buffers, positions and LSP framing -------===//
//
// Part of tmemcheck. The language server's conversions between LSP
// positions (UTF-16 code units by default) and Clang's byte columns, its
// incremental edits, URIs, and the base protocol's framing.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Lsp/JsonRpcTransport.h"
#include "tmemcheck/Lsp/LspProtocol.h"
#include "tmemcheck/Lsp/TextDocument.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstring>

using namespace tmemcheck;
using namespace tmemcheck::lsp;

namespace {

TEST(LspTextDocument, Utf16AndByteColumns) {
  // "é" is 2 bytes and 1 UTF-16 unit; "😀" 4 bytes and 2 units.
  TextDocument D("a\n/* é😀 */ x = 1;\n", 1);
  ASSERT_EQ(D.lineCount(), 3u);
  // 'x' of line 2: 3 + 2 + 4 + 4 bytes before it, 10 UTF-16 units.
  size_t XByte = D.line(1).find('x');
  Position P = D.positionOf(2, XByte + 1, PositionEncoding::Utf16);
  EXPECT_EQ(P.Line, 1u);
  EXPECT_EQ(P.Character, 3u + 1 + 2 + 4); // "/* ", é, 😀, " */ "
  EXPECT_EQ(D.positionOf(2, XByte + 1, PositionEncoding::Utf8).Character,
            XByte);
  // Back to the byte offset.
  llvm::Expected<size_t> Off = D.offsetOf(P, PositionEncoding::Utf16);
  ASSERT_TRUE(bool(Off));
  EXPECT_EQ(D.text()[*Off], 'x');
  // A character past the end of a line is the line's end.
  Off = D.offsetOf({0, 99}, PositionEncoding::Utf16);
  ASSERT_TRUE(bool(Off));
  EXPECT_EQ(*Off, 1u);
}

TEST(LspTextDocument, IncrementalAndFullChanges) {
  TextDocument D("int a;\nint b;\n", 1);
  Range R{{1, 4}, {1, 5}};
  ASSERT_FALSE(bool(D.applyChange(&R, "bee", 2, PositionEncoding::Utf16)));
  EXPECT_EQ(D.text(), "int a;\nint bee;\n");
  EXPECT_EQ(D.version(), 2);
  // Insertion at the very end (the position after the last line break).
  Range End{{2, 0}, {2, 0}};
  ASSERT_FALSE(
      bool(D.applyChange(&End, "int c;\n", 3, PositionEncoding::Utf16)));
  EXPECT_EQ(D.line(2), "int c;");
  // A range past the end fails and leaves the document alone.
  Range Bad{{9, 0}, {9, 1}};
  llvm::Error E = D.applyChange(&Bad, "x", 4, PositionEncoding::Utf16);
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  EXPECT_EQ(D.version(), 3);
  // A range that ends before it starts fails too.
  Range Backwards{{1, 3}, {0, 1}};
  E = D.applyChange(&Backwards, "x", 4, PositionEncoding::Utf16);
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  ASSERT_FALSE(bool(D.applyChange(nullptr, "new", 5, PositionEncoding::Utf16)));
  EXPECT_EQ(D.text(), "new");
}

TEST(LspTextDocument, InvalidUtf8CountsOneUnitPerByte) {
  llvm::StringRef Line("\xff\xfe"
                       "x");
  EXPECT_EQ(unitsInBytes(Line, 2, PositionEncoding::Utf16), 2u);
  EXPECT_EQ(bytesInUnits(Line, 2, PositionEncoding::Utf16), 2u);
}

TEST(LspProtocol, UrisRoundTrip) {
  std::string Uri = pathToUri("/tmp/a b/k%1.cu");
  EXPECT_EQ(Uri, "file:///tmp/a%20b/k%251.cu");
  EXPECT_EQ(uriToPath(Uri), std::optional<std::string>("/tmp/a b/k%1.cu"));
  EXPECT_EQ(uriToPath("file://localhost/x.cu"),
            std::optional<std::string>("/x.cu"));
  EXPECT_FALSE(uriToPath("untitled:1"));
  EXPECT_FALSE(uriToPath("file://host/x.cu"));
  EXPECT_FALSE(uriToPath("file:///bad%zz"));
}

TEST(LspProtocol, RangeOfALocationWithoutEnd) {
  TextDocument D("  mbarArrive(&bar);\n", 1);
  SourceLoc L{"/k.cu", 1, 3, false};
  Range R = rangeOf(L, D, PositionEncoding::Utf16);
  EXPECT_EQ(R.Start, (Position{0, 2}));
  EXPECT_EQ(R.End, (Position{0, 12})); // the word mbarArrive
}

/// Frames written to a FILE* and read back.
TEST(LspTransport, ReadsFramesAndSkipsBadOnes) {
  const char Input[] = "Content-Length: 13\r\n\r\n{\"method\":1}\n"
                       "X-Other: 1\r\n\r\n"
                       "Content-Length: 3\r\n\r\n{x}"
                       "Content-Length: 2\r\n\r\n[]";
  std::FILE *In = fmemopen(const_cast<char *>(Input), std::strlen(Input), "r");
  ASSERT_NE(In, nullptr);
  std::string Written;
  llvm::raw_string_ostream Out(Written);
  JsonRpcTransport T(In, Out);
  IncomingFrame F = T.read();
  EXPECT_EQ(F.K, IncomingFrame::Message);
  EXPECT_EQ(T.read().K, IncomingFrame::BadHeader);
  EXPECT_EQ(T.read().K, IncomingFrame::BadJson);
  F = T.read();
  EXPECT_EQ(F.K, IncomingFrame::Message);
  EXPECT_NE(F.Body.getAsArray(), nullptr);
  EXPECT_EQ(T.read().K, IncomingFrame::End);
  std::fclose(In);
  T.reply(7, nullptr);
  EXPECT_EQ(Written, "Content-Length: 38\r\n\r\n"
                     "{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":null}");
}

} // namespace
