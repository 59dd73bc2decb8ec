//===- FixItFacts.cpp - What fix-its need to know of the source -----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "FixItFacts.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace tmemcheck {

namespace {

/// The statements a fix-it may put a new line before or after: expression
/// statements, asm, declarations and returns. Labelled statements, loops
/// and branches are not: a line before `case 1: f();` or after `if (c)
/// f();` changes what the label or the branch covers.
bool isSimpleStatement(const Stmt *S) {
  return isa<Expr>(S) || isa<GCCAsmStmt>(S) || isa<DeclStmt>(S) ||
         isa<ReturnStmt>(S);
}

bool isBlank(char C) { return C == ' ' || C == '\t'; }

} // namespace

void FixItFacts::beginKernel(const FunctionDecl *K, KernelGraph &Graph) {
  G = &Graph;
  Kernel = K;
  Queried.clear();
  QueriedStmts.clear();
}

int FixItFacts::statementOf(const Stmt *S, const Frame &F) {
  if (!G || !Kernel)
    return -1;
  const Stmt *InKernel = S;
  for (const Frame *Fr = &F; Fr->Parent; Fr = Fr->Parent) {
    InKernel = Fr->CallStmt;
    if (!InKernel)
      return -1;
  }
  auto [It, New] = Queried.try_emplace(InKernel, QueriedStmts.size());
  if (New)
    QueriedStmts.push_back(InKernel);
  return It->second;
}

void FixItFacts::endKernel() {
  if (!G || !Kernel)
    return;
  // Which statement directly inside a `{ }` block each queried node belongs
  // to: one walk of the kernel body, stopped once all are found. The walks
  // are iterative: kernels with huge expressions must not overflow the
  // stack.
  std::vector<const Stmt *> OwnerOf(QueriedStmts.size(), nullptr);
  size_t Found = 0;
  std::vector<const Stmt *> Work{Kernel->getBody()};
  std::vector<const Stmt *> Owned;
  while (!Work.empty() && Found < QueriedStmts.size()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *CS = dyn_cast<CompoundStmt>(S))
      for (const Stmt *Child : CS->body()) {
        if (!Child || !isSimpleStatement(Child))
          continue;
        // Everything of the statement down to nested statements (a lambda
        // body, a statement expression: not followed) belongs to it.
        Owned.assign(1, Child);
        while (!Owned.empty()) {
          const Stmt *N = Owned.back();
          Owned.pop_back();
          auto Q = Queried.find(N);
          if (Q != Queried.end() && !OwnerOf[Q->second]) {
            OwnerOf[Q->second] = Child;
            ++Found;
          }
          for (const Stmt *C : N->children())
            if (C && isa<Expr>(C))
              Owned.push_back(C);
        }
      }
    // Into nested blocks; a simple statement of a block was searched above.
    for (const Stmt *C : S->children())
      if (!isa<CompoundStmt>(S) || (C && !isSimpleStatement(C)))
        Work.push_back(C);
  }
  // One KernelStatement per owner; events get its index.
  llvm::DenseMap<const Stmt *, int> Index;
  std::vector<int> Final(QueriedStmts.size(), -1);
  for (size_t I = 0; I < OwnerOf.size(); ++I) {
    if (!OwnerOf[I])
      continue;
    auto [It, New] = Index.try_emplace(OwnerOf[I], -1);
    if (New)
      if (std::optional<KernelStatement> K = describe(OwnerOf[I])) {
        It->second = G->Statements.size();
        G->Statements.push_back(std::move(*K));
      }
    Final[I] = It->second;
  }
  for (Block &B : G->Blocks)
    for (Event &E : B.Events)
      if (E.Statement >= 0)
        E.Statement = Final[E.Statement];
  G = nullptr; // the graph is moved away when build() returns
  Kernel = nullptr;
}

std::optional<KernelStatement> FixItFacts::describe(const Stmt *S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = S->getBeginLoc(), E = S->getEndLoc();
  if (B.isInvalid() || E.isInvalid() || B.isMacroID() || E.isMacroID() ||
      SM.isInSystemHeader(B))
    return std::nullopt;
  FileID FID = SM.getFileID(B);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  if (SM.getFileID(E) != FID || !FE)
    return std::nullopt;
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return std::nullopt;
  size_t BeginOff = SM.getFileOffset(B);
  size_t EndOff =
      SM.getFileOffset(E) + Lexer::MeasureTokenLength(E, SM, Ctx.getLangOpts());
  if (EndOff > Buf.size() || BeginOff > EndOff)
    return std::nullopt;
  // Events are located by presumed positions: a `#line` that renames the
  // file would make them incomparable with the statement.
  SourceLoc First = toSourceLoc(SM, B), Last = toSourceLoc(SM, E);
  if (First.File != FE->getName())
    return std::nullopt;

  KernelStatement K;
  K.File = First.File;
  K.FirstLine = First.Line;
  K.FirstColumn = First.Column;
  K.LastLine = Last.Line;
  K.LastColumn = Last.Column;
  size_t Newline = Buf.find('\n', BeginOff);
  K.CrLf =
      Newline != StringRef::npos && Newline > 0 && Buf[Newline - 1] == '\r';

  size_t LineStart = BeginOff;
  while (LineStart > 0 && isBlank(Buf[LineStart - 1]))
    --LineStart;
  if (LineStart == 0 || Buf[LineStart - 1] == '\n') {
    K.LineStart = LineStart;
    K.Indent = Buf.slice(LineStart, BeginOff).str();
  }

  // After the statement: its ';' (a declaration ends with it already),
  // then blanks and at most a `//` comment up to the line break.
  size_t At = EndOff;
  auto SkipBlanks = [&] {
    while (At < Buf.size() && isBlank(Buf[At]))
      ++At;
  };
  bool Terminated = isa<DeclStmt>(S);
  if (!Terminated) {
    SkipBlanks();
    Terminated = At < Buf.size() && Buf[At] == ';';
    ++At;
  }
  if (Terminated) {
    SkipBlanks();
    if (Buf.substr(At).starts_with("//"))
      At = Buf.find('\n', At);
    if (At < Buf.size() && Buf[At] == '\r')
      ++At;
    if (At < Buf.size() && Buf[At] == '\n')
      K.NextLineStart = At + 1;
  }
  return K;
}

namespace {

/// The literal \p IL as written, when it is in user code and not produced
/// by a macro.
std::optional<WrittenLiteral> writtenLiteral(const ASTContext &Ctx,
                                             const IntegerLiteral &IL) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = IL.getLocation();
  if (Loc.isInvalid() || Loc.isMacroID() || SM.isInSystemHeader(Loc) ||
      IL.getValue().getActiveBits() > 62)
    return std::nullopt;
  FileID FID = SM.getFileID(Loc);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (!FE || Invalid)
    return std::nullopt;
  unsigned Offset = SM.getFileOffset(Loc);
  unsigned Length = Lexer::MeasureTokenLength(Loc, SM, Ctx.getLangOpts());
  if (Length == 0 || Offset + Length > Buf.size())
    return std::nullopt;
  return WrittenLiteral{FE->getName().str(), Offset,
                        Buf.substr(Offset, Length).str(),
                        static_cast<int64_t>(IL.getValue().getZExtValue())};
}

} // namespace

int FixItFacts::add(std::optional<WrittenLiteral> L) {
  if (!L || !G)
    return -1;
  G->Literals.push_back(std::move(*L));
  return G->Literals.size() - 1;
}

int FixItFacts::literalOf(const Expr *E, const Frame &F) {
  return add(findLiteral(E, F));
}

int FixItFacts::immediateOf(const GCCAsmStmt &S, const ptx::Operand &O) {
  return add(findImmediate(S, O));
}

std::optional<WrittenLiteral> FixItFacts::findLiteral(const Expr *E,
                                                      const Frame &F) {
  const Frame *Fr = &F;
  // A bounded number of parameter hops, as the inlining depth is.
  for (unsigned Hops = 0; E && Hops <= 16;) {
    if (const auto *P = dyn_cast<ParenExpr>(E)) {
      E = P->getSubExpr();
    } else if (const auto *C = dyn_cast<CastExpr>(E)) {
      // Implicit conversions and `static_cast<uint32_t>(96)`; the check
      // compares the literal's value with the operand's.
      E = C->getSubExpr();
    } else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
    } else if (const auto *FE = dyn_cast<FullExpr>(E)) {
      E = FE->getSubExpr();
    } else if (const auto *IL = dyn_cast<IntegerLiteral>(E)) {
      return writtenLiteral(Ctx, *IL);
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      // A parameter of an inlined call: the argument written at the call
      // site, unless the callee assigns to the parameter or uses it for
      // something else too (rewriting the argument would change that).
      const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
      if (!P || !Fr->Parent || !Fr->Function || Eval.isModified(P) ||
          !isUsedOnce(P, Fr->Function))
        return std::nullopt;
      auto Arg = Fr->Args.find(P);
      if (Arg == Fr->Args.end())
        return std::nullopt;
      E = Arg->second;
      Fr = Fr->Parent;
      ++Hops;
    } else {
      // Template arguments (SubstNonTypeTemplateParmExpr), default
      // arguments, named constants: rewriting them would change other uses.
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool FixItFacts::isUsedOnce(const ParmVarDecl *P, const FunctionDecl *FD) {
  auto [It, New] = UsedOnce.try_emplace(P, false);
  if (!New)
    return It->second;
  unsigned Uses = 0;
  std::vector<const Stmt *> Work{FD->getBody()};
  while (!Work.empty() && Uses < 2) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      Uses += DRE->getDecl() == P;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return It->second = Uses == 1;
}

std::optional<WrittenLiteral> FixItFacts::findImmediate(const GCCAsmStmt &S,
                                                        const ptx::Operand &O) {
  const auto *Lit = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  if (O.K != ptx::Operand::Kind::Immediate || !Lit || !Lit->isOrdinary() ||
      O.Range.Length == 0 ||
      O.Range.Offset + O.Range.Length > Lit->getByteLength())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  auto LocOf = [&](unsigned Byte) {
    return Lit->getLocationOfByte(Byte, SM, Ctx.getLangOpts(),
                                  Ctx.getTargetInfo());
  };
  SourceLocation First = LocOf(O.Range.Offset);
  SourceLocation Last = LocOf(O.Range.Offset + O.Range.Length - 1);
  if (First.isInvalid() || Last.isInvalid() || First.isMacroID() ||
      Last.isMacroID() || SM.isInSystemHeader(First))
    return std::nullopt;
  FileID FID = SM.getFileID(First);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (!FE || Invalid || SM.getFileID(Last) != FID)
    return std::nullopt;
  unsigned Offset = SM.getFileOffset(First);
  // The immediate must be written as is: no escape sequence, no string
  // concatenation inside it.
  if (SM.getFileOffset(Last) + 1 != Offset + O.Range.Length ||
      Buf.substr(Offset, O.Range.Length) != O.Text)
    return std::nullopt;
  return WrittenLiteral{FE->getName().str(), Offset, O.Text, O.Imm};
}

void FixItFacts::noteWaitLdWrapperCall(const CallExpr *CE,
                                       std::string QualifiedName) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!CE || CE->getNumArgs() != 0 || isa<CXXMemberCallExpr>(CE) ||
      isa<CXXOperatorCallExpr>(CE) || CE->getBeginLoc().isInvalid())
    return;
  SourceLocation CalledAt = SM.getFileLoc(CE->getBeginLoc());
  if (SM.isInSystemHeader(CalledAt))
    return;
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  const NamedDecl *D = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee)) {
    if (DRE->hasExplicitTemplateArgs())
      return;
    D = DRE->getDecl();
  } else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee)) {
    if (ULE->hasExplicitTemplateArgs() || ULE->getNumDecls() != 1)
      return;
    D = (*ULE->decls_begin())->getUnderlyingDecl();
  }
  const FunctionDecl *FD = dyn_cast_or_null<FunctionDecl>(D);
  if (const auto *FT = dyn_cast_or_null<FunctionTemplateDecl>(D))
    FD = FT->getTemplatedDecl();
  if (!FD || isa<CXXMethodDecl>(FD) ||
      FD->getDeclContext()->isFunctionOrMethod())
    return;
  const Decl *First = FD->getFirstDecl();
  if (const FunctionTemplateDecl *T = FD->getPrimaryTemplate())
    First = T->getFirstDecl();
  else if (const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate())
    First = T->getFirstDecl();
  WaitLdWrappers.push_back(
      {QualifiedName + "()", SM.getFileLoc(First->getLocation()), CalledAt});
}

std::string FixItFacts::waitLdCallFor(const FunctionDecl *K) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation KernelBegin = SM.getFileLoc(K->getBeginLoc());
  const WaitLdWrapperCall *Best = nullptr;
  for (const WaitLdWrapperCall &W : WaitLdWrappers) {
    if (W.Declared.isInvalid() ||
        !SM.isBeforeInTranslationUnit(W.Declared, KernelBegin))
      continue;
    if (!Best || SM.isBeforeInTranslationUnit(W.CalledAt, Best->CalledAt))
      Best = &W;
  }
  return Best ? Best->Call : std::string();
}

} // namespace tmemcheck
