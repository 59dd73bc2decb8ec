//===- SourceLocMemoTest.cpp - Positions made once per file
//----------------===//
//
// Part of tmemcheck. The graph builder's memo of source positions must give
// what toSourceLoc gives, ends of ranges and macro expansions included,
// however often and in whatever order it is asked.
//
//===----------------------------------------------------------------------===//

#include "SourceLocMemo.h"
#include "ClangSourceLoc.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

/// Every statement of the translation unit, in traversal order.
class StmtCollector : public clang::RecursiveASTVisitor<StmtCollector> {
public:
  bool VisitStmt(clang::Stmt *S) {
    Stmts.push_back(S);
    return true;
  }
  std::vector<const clang::Stmt *> Stmts;
};

bool sameLoc(const SourceLoc &A, const SourceLoc &B) {
  return A == B && A.EndLine == B.EndLine && A.EndColumn == B.EndColumn &&
         A.InSystemHeader == B.InSystemHeader;
}

TEST(SourceLocMemoTest, GivesWhatToSourceLocGives) {
  std::unique_ptr<clang::ASTUnit> AST = clang::tooling::buildASTFromCode(
      R"cpp(
#define TWICE(x) ((x) + (x))
#define CALL(f) f(1, 2)
int add(int a, int b) { return a + b; }
int f(int v) {
  int w = TWICE(v);
  int u = CALL(add);
  return add(w,
             u) + TWICE(add(v, 3));
}
)cpp",
      "memo.cc");
  ASSERT_TRUE(AST);
  StmtCollector C;
  C.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  ASSERT_GT(C.Stmts.size(), 20u);
  const clang::SourceManager &SM = AST->getSourceManager();
  const clang::LangOptions &LO = AST->getLangOpts();
  SourceLocMemo Memo(SM, LO);
  // Twice, the second time from the memo; backwards as well.
  for (int Round = 0; Round < 2; ++Round)
    for (size_t I = 0; I < C.Stmts.size(); ++I) {
      const clang::Stmt *S = C.Stmts[Round == 0 ? I : C.Stmts.size() - 1 - I];
      SCOPED_TRACE(S->getStmtClassName());
      EXPECT_TRUE(sameLoc(Memo.of(S->getSourceRange()),
                          toSourceLoc(SM, LO, S->getSourceRange())));
      EXPECT_TRUE(sameLoc(Memo.of(S->getBeginLoc()),
                          toSourceLoc(SM, S->getBeginLoc())));
      clang::CharSourceRange Chars =
          clang::CharSourceRange::getCharRange(S->getSourceRange());
      EXPECT_TRUE(sameLoc(Memo.of(Chars), toSourceLoc(SM, LO, Chars)));
    }
  // A range that spans two lines keeps its end.
  bool SawMultiLine = false;
  for (const clang::Stmt *S : C.Stmts)
    SawMultiLine |= Memo.of(S->getSourceRange()).EndLine >
                    Memo.of(S->getSourceRange()).Line;
  EXPECT_TRUE(SawMultiLine);
}

} // namespace
