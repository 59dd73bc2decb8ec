//===- UserApiModel.h - Wrappers the user models in config ------*- C++ -*-===//
//
// Part of tmemcheck. A project's own wrappers of tcgen05 (a `tmem_alloc`
// defined in another translation unit, a helper whose body Clang cannot
// parse, a library the built-in table does not know) are described in
// .tmemcheck.yaml (`ApiModels:`) by the PTX they emit, written like an
// inline-asm template whose `%N` is the call's argument N. A call of such a
// function then stands for those instructions instead of its body.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_MODEL_USERAPIMODEL_H
#define TMEMCHECK_MODEL_USERAPIMODEL_H

#include "tmemcheck/Model/TmemOp.h"
#include "tmemcheck/Ptx/Instruction.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// One `ApiModels:` entry as written in the config.
struct UserApiModel {
  /// The function: `name` matches a function of that name in any scope,
  /// `ns::Class::name` one whose qualified name ends so, `::ns::name` the
  /// exact qualified name (clang-tidy's hasName rules). Template arguments
  /// are not written.
  std::string Function;
  /// The PTX the call stands for; `%N` is argument N of the call (for a
  /// member function, N counts the arguments after the object). Empty: the
  /// function does nothing to TMEM and synchronises nothing, so the call is
  /// neither followed nor an opaque call.
  std::string Asm;
  /// The function elects one thread itself (like CUTLASS's umma_arrive):
  /// its single-thread instructions are not issued by every calling lane.
  bool ElectsInside = false;

  friend bool operator==(const UserApiModel &A, const UserApiModel &B) {
    return A.Function == B.Function && A.Asm == B.Asm &&
           A.ElectsInside == B.ElectsInside;
  }
};

/// A PTX instruction of a model with its meaning.
struct ModeledInstruction {
  ptx::Instruction I;
  std::optional<TmemOp> Op;
  std::optional<SyncOp> Sync;
};

/// The most call arguments an asm text may refer to (`%0` … `%31`).
constexpr unsigned MaxModelArguments = 32;

/// Parses and decodes the Asm of \p M. Fails, saying why, when the text
/// does not parse, when it holds an instruction that is neither a tcgen05
/// instruction nor a synchronisation tmemcheck knows (it would be ignored
/// silently), when a tcgen05 instruction does not decode, or when it refers
/// to an argument past MaxModelArguments.
llvm::Expected<std::vector<ModeledInstruction>>
decodeUserApiModel(const UserApiModel &M,
                   unsigned NumArguments = MaxModelArguments);

/// The user models of one configuration, decoded once, looked up by the
/// qualified name of a callee.
class UserApiModelTable {
public:
  /// One model with its decoded instructions.
  struct Entry {
    UserApiModel Spec;
    std::vector<ModeledInstruction> Instructions;
  };

  /// Decodes every model; the first that fails makes the whole table fail
  /// (the config loader has already reported it with its line).
  static llvm::Expected<UserApiModelTable>
  create(const std::vector<UserApiModel> &Models);

  /// The model of the function with qualified name \p QualifiedName
  /// (template arguments anywhere in it are ignored), or nullptr. When
  /// several match, the most qualified wins, then the first written.
  const Entry *find(llvm::StringRef QualifiedName) const;
  /// The model for a dependent member call `obj.Member(...)` whose object
  /// type is spelled \p TypeName: a model `Class::Member` whose Class is a
  /// component of the type's name.
  const Entry *findByMember(llvm::StringRef TypeName,
                            llvm::StringRef Member) const;
  bool empty() const { return Entries.empty(); }

private:
  std::vector<Entry> Entries;
};

/// \p QualifiedName with every template argument list removed
/// (`ns::Pipe<4>::wait<true>` -> `ns::Pipe::wait`).
std::string withoutTemplateArguments(llvm::StringRef QualifiedName);

} // namespace tmemcheck

#endif // TMEMCHECK_MODEL_USERAPIMODEL_H
