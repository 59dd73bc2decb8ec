//===- UserApiModel.cpp - Wrappers the user models in config --------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/UserApiModel.h"

#include "tmemcheck/Ptx/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace tmemcheck {

namespace {

/// Instructions a model may contain besides tcgen05 and synchronisation:
/// the plumbing of an mbarrier wait loop or of an address conversion. They
/// do nothing the analysis tracks, so leaving them out of the model loses
/// nothing; anything else would be ignored silently and is refused.
bool isPlumbing(const ptx::Instruction &I) {
  static const llvm::StringSet<> Bases = {"bra",  "mov",  "setp",
                                          "selp", "cvta", "cvt"};
  return Bases.contains(I.base());
}

llvm::Error modelError(const UserApiModel &M, const llvm::Twine &Why) {
  return llvm::createStringError(
      std::errc::invalid_argument,
      ("ApiModels: the model of '" + M.Function + "': " + Why).str().c_str());
}

/// The `::`-separated components of a name.
llvm::SmallVector<llvm::StringRef, 4> components(llvm::StringRef Name) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Name.split(Parts, "::", -1, /*KeepEmpty=*/false);
  return Parts;
}

} // namespace

std::string withoutTemplateArguments(llvm::StringRef QualifiedName) {
  std::string Out;
  unsigned Depth = 0;
  for (size_t I = 0; I < QualifiedName.size(); ++I) {
    char C = QualifiedName[I];
    // `operator<` and `operator<<` are names, not argument lists.
    llvm::StringRef Before = QualifiedName.take_front(I).rtrim();
    if (Depth == 0 && C == '<' &&
        (Before.ends_with("operator") || Before.ends_with("operator<"))) {
      Out += C;
      continue;
    }
    if (C == '<')
      ++Depth;
    else if (C == '>' && Depth)
      --Depth;
    else if (Depth == 0)
      Out += C;
  }
  return Depth ? QualifiedName.str() : Out;
}

llvm::Expected<std::vector<ModeledInstruction>>
decodeUserApiModel(const UserApiModel &M, unsigned NumArguments) {
  llvm::StringRef Function = M.Function;
  Function.consume_front("::");
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Function.split(Parts, "::");
  if (llvm::any_of(Parts, [](llvm::StringRef P) {
        return P.empty() || P.contains(':') || P.contains(' ');
      }))
    return modelError(M, "'Function' must be a function name, optionally "
                         "qualified (`name`, `ns::name`, `::ns::name`)");
  std::vector<ptx::AsmOperandInfo> Arguments(NumArguments);
  for (ptx::AsmOperandInfo &A : Arguments)
    A.Constraint = "r";
  ptx::ParsedAsm Parsed = ptx::parseInlineAsm(M.Asm, Arguments);
  for (const ptx::ParseDiagnostic &D : Parsed.Diagnostics)
    if (D.Level == ptx::ParseDiagnostic::Severity::Error)
      return modelError(M, "cannot parse 'Asm' at offset " +
                               llvm::Twine(D.Range.Offset) + ": " + D.Message);
  std::vector<ModeledInstruction> Out;
  for (ptx::Instruction &I : Parsed.Instructions) {
    std::vector<ptx::ParseDiagnostic> Diags;
    std::optional<TmemOp> Op = decodeTmemOp(I, Diags);
    if (!Diags.empty())
      return modelError(M, "cannot decode '" + I.Opcode +
                               "': " + Diags.front().Message);
    std::optional<SyncOp> Sync;
    if (!Op)
      Sync = decodeSyncOp(I);
    if (!Op && !Sync) {
      if (isPlumbing(I))
        continue;
      return modelError(M, "'" + I.Opcode +
                               "' is neither a tcgen05 instruction nor a "
                               "synchronisation tmemcheck models; list only "
                               "what the function does to TMEM and to the "
                               "order of threads");
    }
    Out.push_back({std::move(I), std::move(Op), Sync});
  }
  return Out;
}

llvm::Expected<UserApiModelTable>
UserApiModelTable::create(const std::vector<UserApiModel> &Models) {
  UserApiModelTable T;
  for (const UserApiModel &M : Models) {
    llvm::Expected<std::vector<ModeledInstruction>> Instrs =
        decodeUserApiModel(M);
    if (!Instrs)
      return Instrs.takeError();
    T.Entries.push_back({M, std::move(*Instrs)});
  }
  return T;
}

const UserApiModelTable::Entry *
UserApiModelTable::find(llvm::StringRef QualifiedName) const {
  if (Entries.empty())
    return nullptr;
  std::string Name = withoutTemplateArguments(QualifiedName);
  llvm::StringRef Q = Name;
  Q.consume_front("::");
  const Entry *Best = nullptr;
  unsigned BestRank = 0;
  for (const Entry &E : Entries) {
    llvm::StringRef Spec = E.Spec.Function;
    bool Anchored = Spec.consume_front("::");
    bool Matches =
        Anchored ? Q == Spec
                 : Q == Spec || (Q.ends_with(Spec) &&
                                 Q.drop_back(Spec.size()).ends_with("::"));
    if (!Matches)
      continue;
    unsigned Rank = 1 + components(Spec).size() + (Anchored ? 1000 : 0);
    if (Rank > BestRank) {
      Best = &E;
      BestRank = Rank;
    }
  }
  return Best;
}

const UserApiModelTable::Entry *
UserApiModelTable::findByMember(llvm::StringRef TypeName,
                                llvm::StringRef Member) const {
  if (Entries.empty())
    return nullptr;
  std::string Type = withoutTemplateArguments(TypeName);
  llvm::SmallVector<llvm::StringRef, 8> Words;
  llvm::StringRef(Type).split(Words, ' ', -1, false);
  llvm::StringSet<> TypeComponents;
  for (llvm::StringRef W : Words)
    for (llvm::StringRef C : components(W))
      TypeComponents.insert(C.trim("&*"));
  for (const Entry &E : Entries) {
    llvm::SmallVector<llvm::StringRef, 4> Parts = components(E.Spec.Function);
    if (Parts.size() >= 2 && Parts.back() == Member &&
        TypeComponents.contains(Parts[Parts.size() - 2]))
      return &E;
  }
  return nullptr;
}

} // namespace tmemcheck
