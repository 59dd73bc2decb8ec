//===- WrappingCountersTest.cpp - Fields kept below a bound ---------------===//
//
// Part of tmemcheck. WrappingCounters finds CUTLASS's PipelineState index
// kept in [0, Stages) by its methods, and gives up on a field that is
// decremented, set past the bound, or written outside its class.
//
//===----------------------------------------------------------------------===//

#include "WrappingCounters.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

/// The field \p Field of the class template specialisation or class named
/// \p Class in \p AST (the first one found).
const clang::FieldDecl *fieldOf(clang::ASTUnit &AST, llvm::StringRef Class,
                                llvm::StringRef Field) {
  for (clang::Decl *D : AST.getASTContext().getTranslationUnitDecl()->decls()) {
    const clang::CXXRecordDecl *RD = nullptr;
    if (auto *CT = llvm::dyn_cast<clang::ClassTemplateDecl>(D)) {
      for (auto *S : CT->specializations())
        if (S->getName() == Class)
          RD = S;
    } else if (auto *R = llvm::dyn_cast<clang::CXXRecordDecl>(D);
               R && R->getName() == Class && R->hasDefinition()) {
      RD = R;
    }
    if (RD)
      for (const clang::FieldDecl *FD : RD->fields())
        if (FD->getName() == Field)
          return FD;
  }
  return nullptr;
}

TEST(WrappingCounters, PipelineStateIndex) {
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          R"cpp(
template <unsigned Stages_> struct PipelineState {
  static constexpr unsigned Stages = Stages_;
  int index_ = 0;
  unsigned phase_ = 0;
  PipelineState() : index_{}, phase_{} {}
  PipelineState(int index, unsigned phase) : index_(index), phase_(phase) {}
  int index() const { return index_; }
  void operator++() {
    if constexpr (Stages > 0) {
      ++index_;
      if (index_ == Stages) {
        index_ = 0;
        phase_ ^= 1;
      }
    }
  }
  PipelineState &operator=(PipelineState const &other) {
    index_ = other.index();
    phase_ = other.phase_;
    return *this;
  }
  PipelineState &advance(unsigned n) {
    index_ = (index_ + n) % Stages;
    return *this;
  }
};
struct Down {
  int k = 0;
  void step() { --k; }
};
struct TooFar {
  int k = 0;
  void step() {
    ++k;
    if (k == 4)
      k = 0;
  }
  void jump() { k = 7; }
};
struct Public {
  int k = 0;
  void step() {
    ++k;
    if (k == 2)
      k = 0;
  }
};
void use() {
  PipelineState<3> s;
  ++s;
  s.advance(5);
  PipelineState<3> t;
  t = s;
  Down d;
  d.step();
  TooFar f;
  f.step();
  f.jump();
  Public p;
  p.step();
  p.k = 9;
}
)cpp",
          {"-std=c++17"});
  ASSERT_TRUE(AST);
  WrappingCounters Counters(AST->getASTContext());
  EXPECT_EQ(Counters.limitOf(fieldOf(*AST, "PipelineState", "index_")), 3);
  // phase_ is flipped with ^=: not a counter.
  EXPECT_FALSE(Counters.limitOf(fieldOf(*AST, "PipelineState", "phase_")));
  EXPECT_FALSE(Counters.limitOf(fieldOf(*AST, "Down", "k")));
  EXPECT_FALSE(Counters.limitOf(fieldOf(*AST, "TooFar", "k")));
  EXPECT_FALSE(Counters.limitOf(fieldOf(*AST, "Public", "k")));
}

} // namespace
