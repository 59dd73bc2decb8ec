//===- UserApiModelTest.cpp - Matching and decoding of user API models ----===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/UserApiModel.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

UserApiModelTable tableOf(std::vector<UserApiModel> Models) {
  llvm::Expected<UserApiModelTable> T = UserApiModelTable::create(Models);
  EXPECT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  return std::move(*T);
}

const char *functionOf(const UserApiModelTable::Entry *E) {
  return E ? E->Spec.Function.c_str() : "(none)";
}

TEST(UserApiModelTest, TemplateArgumentsAreRemoved) {
  EXPECT_EQ(withoutTemplateArguments("ns::Pipe<4, Foo<int>>::wait<true>"),
            "ns::Pipe::wait");
  EXPECT_EQ(withoutTemplateArguments("ns::Cmp::operator<"),
            "ns::Cmp::operator<");
  EXPECT_EQ(withoutTemplateArguments("ns::X<1>::operator<<"),
            "ns::X::operator<<");
  // Unbalanced: left as it is rather than cut.
  EXPECT_EQ(withoutTemplateArguments("a<b::c"), "a<b::c");
}

TEST(UserApiModelTest, NamesMatchLikeClangTidyHasName) {
  UserApiModelTable T = tableOf({{"alloc", "", false},
                                 {"proj::tmem::alloc", "", false},
                                 {"::free", "", false}});
  // An unqualified model matches that name in any scope; a qualified one
  // matches a suffix on a `::` boundary and beats the unqualified one.
  EXPECT_STREQ(functionOf(T.find("other::alloc")), "alloc");
  EXPECT_STREQ(functionOf(T.find("proj::tmem::alloc")), "proj::tmem::alloc");
  EXPECT_STREQ(functionOf(T.find("outer::proj::tmem::alloc")),
               "proj::tmem::alloc");
  EXPECT_STREQ(functionOf(T.find("xproj::tmem::alloc")), "alloc");
  EXPECT_EQ(T.find("realloc"), nullptr);
  // `::free` is anchored at the global scope.
  EXPECT_STREQ(functionOf(T.find("free")), "::free");
  EXPECT_EQ(T.find("ns::free"), nullptr);
}

TEST(UserApiModelTest, MembersOfClassTemplates) {
  UserApiModelTable T = tableOf({{"proj::Pipe::wait", "", false}});
  EXPECT_STREQ(functionOf(T.find("proj::Pipe<2>::wait")), "proj::Pipe::wait");
  // A dependent call `pipe.wait(...)`: the object's type is only spelled.
  EXPECT_NE(T.findByMember("proj::Pipe<Stages> &", "wait"), nullptr);
  EXPECT_NE(T.findByMember("const Pipe<4>", "wait"), nullptr);
  EXPECT_EQ(T.findByMember("proj::Pipeline<4>", "wait"), nullptr);
  EXPECT_EQ(T.findByMember("proj::Pipe<4>", "arrive"), nullptr);
}

TEST(UserApiModelTest, DecodesTheInstructions) {
  llvm::Expected<std::vector<ModeledInstruction>> I = decodeUserApiModel(
      {"wait_full",
       "{ .reg .pred p; L: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], "
       "%1; @!p bra L; } tcgen05.fence::after_thread_sync;",
       false});
  ASSERT_TRUE(static_cast<bool>(I)) << llvm::toString(I.takeError());
  // The branch is plumbing; the wait and the fence are kept.
  ASSERT_EQ(I->size(), 2u);
  ASSERT_TRUE((*I)[0].Sync.has_value());
  EXPECT_EQ((*I)[0].Sync->Kind, SyncOpKind::MbarrierWait);
  ASSERT_TRUE((*I)[1].Op.has_value());
  EXPECT_EQ((*I)[1].Op->Kind, TmemOpKind::FenceAfterThreadSync);
}

TEST(UserApiModelTest, RefusesWhatItWouldIgnore) {
  for (const char *Asm :
       {"ld.shared.u32 %0, [%1];",
        "tcgen05.alloc.cta_group::3.sync.aligned."
        "shared::cta.b32 [%0], %1;",
        "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2"}) {
    llvm::Expected<std::vector<ModeledInstruction>> I =
        decodeUserApiModel({"f", Asm, false});
    EXPECT_FALSE(static_cast<bool>(I)) << Asm;
    if (!I)
      EXPECT_NE(llvm::toString(I.takeError()).find("the model of 'f'"),
                std::string::npos);
  }
  for (const char *Name : {"", "::", "a::", "a:::b", "a b"}) {
    llvm::Expected<std::vector<ModeledInstruction>> I =
        decodeUserApiModel({Name, "", false});
    EXPECT_FALSE(static_cast<bool>(I)) << Name;
    if (!I)
      llvm::consumeError(I.takeError());
  }
}

} // namespace
