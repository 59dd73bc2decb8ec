//===- Parser.cpp - Inline-asm template and PTX text parser ---------------===//
//
// Part of tmemcheck.
//
// The parser reads the tokens of a Lexer as it goes. Statements are
// handled by an iterative loop: `{` / `}` at statement level only change a
// depth counter, so deep nesting cannot overflow the stack. Operand parsing
// recurses, but only to a small fixed depth (vectors of addresses).
//
// Representation choices (documented here because the header leaves them
// open):
//  * `a|b` (elect.sync, setp with two destinations) becomes two consecutive
//    operands, `a` and `b`, so elect.sync has operands {rx, px, membermask}.
//  * Float literals in hex form (`0f3F800000`, `0d...`) are Immediates whose
//    Imm holds the raw bits; decimal floats (`1.5`) are Symbols.
//  * `call` operand lists `(a, b)` are Vector operands, like `{a, b}`.
//  * Directives other than `.reg` produce nothing; `.entry`/`.func` headers
//    are skipped up to their body `{`, which opens a scope.
//  * In module mode (parsePtxModule) the same loop also records functions
//    (with their block/cluster shape directives), data declarations,
//    `.file`/`.loc` and .debug_str strings; it rejects instructions outside
//    a function and skips (counting them) directives it does not know.
//    Each error is charged to the function it is in, so one bad function
//    does not cost the others.
//  * Every `{` opens a scope with a number (ParsedAsm::Scopes); labels are
//    resolved after the whole text is read, from each `bra` through its
//    enclosing scopes, innermost first, as PTX scopes them.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Ptx/Parser.h"
#include "tmemcheck/Ptx/Module.h"
#include "tmemcheck/Ptx/Opcodes.h"

#include "Lexer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace tmemcheck::ptx {
namespace {

using Sev = ParseDiagnostic::Severity;

/// Deepest operand nesting accepted (`{[a], [b]}` needs 2).
constexpr unsigned MaxOperandDepth = 4;

/// \p Name without its trailing decimal digits (`%r12` -> `%r`).
StringRef withoutTrailingDigits(StringRef Name) {
  size_t N = Name.size();
  while (N > 0 && isDigit(Name[N - 1]))
    --N;
  return Name.take_front(N);
}

/// The `.reg` declarations visible at the current point, so identifiers can
/// be classified as Register or Symbol. Declarations die with their scope.
class RegisterScopes {
public:
  void declare(StringRef Name, bool Parametric, unsigned Count, unsigned Depth,
               unsigned Scope) {
    if (Parametric)
      ParamCounts[Name].push_back(Count);
    else
      ++PlainCounts[Name];
    Live.push_back({Name.str(), Parametric, Count, Depth, Scope});
  }

  /// The scope of the innermost live declaration of \p Name if that
  /// declaration was made deeper than \p MinDepth. Live is ordered by
  /// depth (deeper scopes are popped before shallower ones declare
  /// more), so only its tail of deep entries needs looking at; in most
  /// function bodies it is empty.
  std::optional<unsigned> declaredDeeperThan(StringRef Name,
                                             unsigned MinDepth) const {
    if (Live.empty() || Live.back().Depth <= MinDepth)
      return std::nullopt;
    StringRef Prefix = withoutTrailingDigits(Name);
    unsigned Index = 0;
    bool Indexed = Prefix.size() < Name.size() &&
                   !Name.drop_front(Prefix.size()).getAsInteger(10, Index);
    for (auto It = Live.rbegin(); It != Live.rend() && It->Depth > MinDepth;
         ++It)
      if ((!It->Parametric && It->Name == Name) ||
          (It->Parametric && Indexed && It->Name == Prefix &&
           Index < It->Count))
        return It->Scope;
    return std::nullopt;
  }

  /// Forgets every declaration made deeper than \p Depth.
  void popTo(unsigned Depth) {
    while (!Live.empty() && Live.back().Depth > Depth) {
      const Entry &E = Live.back();
      if (E.Parametric)
        ParamCounts[E.Name].pop_back();
      else
        --PlainCounts[E.Name];
      Live.pop_back();
    }
  }

  bool isDeclared(StringRef Name) const {
    auto It = PlainCounts.find(Name);
    if (It != PlainCounts.end() && It->second > 0)
      return true;
    // `%r<4>` declares %r0 .. %r3.
    StringRef Prefix = withoutTrailingDigits(Name);
    StringRef Digits = Name.drop_front(Prefix.size());
    unsigned Index = 0;
    if (Digits.empty() || Digits.size() > 9 || Digits.getAsInteger(10, Index))
      return false;
    auto PIt = ParamCounts.find(Prefix);
    if (PIt == ParamCounts.end())
      return false;
    for (unsigned Count : PIt->second)
      if (Index < Count)
        return true;
    return false;
  }

private:
  /// One live declaration, for popping at scope exit.
  struct Entry {
    std::string Name;
    bool Parametric;
    unsigned Count;
    unsigned Depth;
    unsigned Scope;
  };
  std::vector<Entry> Live;
  StringMap<unsigned> PlainCounts;
  StringMap<SmallVector<unsigned, 1>> ParamCounts;
};

/// The parser's view of the tokens: lexed on demand, a chunk at a time.
/// Chunks never move, so a reference to a token stays valid while a
/// statement is parsed; those the parser has passed are recycled, so a
/// large module never holds all of its tokens (they would take several
/// times the memory of the text).
class TokenStream {
public:
  explicit TokenStream(Lexer &L) : L(L) {}

  /// Token \p I of the text; past the End token, the End token.
  const Token &operator[](size_t I) {
    if (LLVM_LIKELY(I < Lexed))
      return Chunks[I >> ChunkBits][I & (ChunkSize - 1)];
    return lexUpTo(I);
  }

  /// Lets the chunks wholly before token \p I be reused.
  void releaseBefore(size_t I) {
    for (size_t C = I >> ChunkBits; FirstLive < C; ++FirstLive) {
      Free.push_back(Chunks[FirstLive]);
      Chunks[FirstLive] = nullptr;
    }
  }

private:
  static constexpr unsigned ChunkBits = 9;
  static constexpr size_t ChunkSize = size_t(1) << ChunkBits;

  Lexer &L;
  std::vector<Token *> Chunks; ///< by chunk number; null once released.
  std::vector<std::unique_ptr<Token[]>> Storage;
  std::vector<Token *> Free;
  size_t FirstLive = 0; ///< the first chunk not released.
  size_t Lexed = 0;     ///< tokens lexed so far.

  const Token &lexUpTo(size_t I) {
    while (I >= Lexed && !L.done()) {
      Token *Chunk;
      if (Free.empty()) {
        Storage.push_back(std::make_unique<Token[]>(ChunkSize));
        Chunk = Storage.back().get();
      } else {
        Chunk = Free.back();
        Free.pop_back();
      }
      Chunks.push_back(Chunk);
      Lexed += L.lex(Chunk, ChunkSize);
    }
    if (I >= Lexed)
      I = Lexed - 1; // the End token
    return Chunks[I >> ChunkBits][I & (ChunkSize - 1)];
  }
};

/// The ';' bytes of \p Text, counted in blocks with a byte-wide counter
/// (which the compiler turns into vector code).
size_t countSemicolons(StringRef Text) {
  size_t N = 0;
  const char *P = Text.data(), *E = P + Text.size();
  for (; E - P >= 255; P += 255) {
    uint8_t Block = 0;
    for (unsigned I = 0; I < 255; ++I)
      Block += P[I] == ';';
    N += Block;
  }
  for (; P < E; ++P)
    N += *P == ';';
  return N;
}

/// Recursive-descent parser over the token stream; statement level is an
/// iterative loop.
class Parser {
public:
  Parser(Lexer &L, StringRef Text, ParsedAsm &Out,
         ParsedModule *Module = nullptr)
      : Lex(L), Toks(L), Text(Text), Out(Out), M(Module) {
    Cur = &Toks[0];
  }

  void run();

private:
  Lexer &Lex;
  TokenStream Toks;
  StringRef Text;
  /// Toks[P], and the end of Toks[P - 1] (0 at the start).
  const Token *Cur = nullptr;
  unsigned PrevEnd = 0;

  ParsedAsm &Out;
  ParsedModule *M; ///< set in module mode.
  size_t P = 0;
  unsigned Depth = 0;
  RegisterScopes Regs;
  /// Module mode: the function whose header ended at the current `{`, and
  /// the function whose body is open (indices into M->Functions, or -1).
  int PendingBody = -1;
  int OpenFunction = -1;
  /// The `{ }` scopes open at the current point, innermost last (scope 0,
  /// the whole text, is always there).
  SmallVector<unsigned, 8> ScopeStack = {0};
  /// The `bra` instructions with a label operand, for resolveLabels (which
  /// then need not read the instructions again).
  struct Branch {
    unsigned Instruction;
    unsigned Scope;
    std::string Target;
  };
  std::vector<Branch> Branches;

  const Token &cur() const { return *Cur; }
  const Token &peekTok(size_t Ahead = 1) { return Toks[P + Ahead]; }
  bool atEnd() const { return cur().is(Token::Kind::End); }
  void advance() {
    if (!atEnd()) {
      PrevEnd = Cur->end();
      Cur = &Toks[++P];
    }
  }
  unsigned prevEnd() const { return PrevEnd; }

  void diag(Sev Level, const Twine &Msg, const Token &At) {
    diag(Level, Msg, TextRange{At.Offset, At.Length});
  }
  void diag(Sev Level, const Twine &Msg, TextRange R) {
    std::string Text = Msg.str();
    if (M && Level == Sev::Error)
      chargeError(Text, R);
    addDiagnostic(Out.Diagnostics, Level, std::move(Text), R);
  }
  /// Module mode: charges an error to the function it is in, or, between
  /// functions, to the one before it (a stray '}' or a lost ';' may have
  /// cut that one short), or to the module before the first function.
  /// Counted even past the diagnostics cap.
  void chargeError(const std::string &Msg, TextRange R) {
    auto After = llvm::upper_bound(M->Functions, R.Offset,
                                   [](unsigned Off, const FunctionDecl &F) {
                                     return Off < F.HeaderOffset;
                                   });
    if (After != M->Functions.begin()) {
      FunctionDecl &F = *std::prev(After);
      if (F.Errors++ == 0) {
        F.FirstErrorMessage = Msg;
        F.FirstErrorRange = R;
      }
      return;
    }
    if (M->ModuleScopeErrors++ == 0) {
      M->FirstModuleScopeErrorMessage = Msg;
      M->FirstModuleScopeErrorRange = R;
    }
  }

  void openScope();
  void closeScope();
  void skipStatement();
  void skipLine();
  void skipBalancedBlock();
  void parseDirective();
  void parseFunctionHeader();
  void parseDataDeclaration();
  void parseLoc();
  void parseFile();
  void parseDebugSection();
  void skipUnknownDirective();
  void resolveLabels();
  std::optional<unsigned> parseUnsigned(const char *What);
  void parseRegisterDecl();
  void parseInstruction();
  bool parseOperandList(Instruction &I);
  bool parseOperand(unsigned OpDepth, Operand &O);
  void parseAddress(unsigned OpDepth, Operand &A);
  void parseVector(unsigned OpDepth, Operand &V);
  unsigned countItems();
  std::string registerName(StringRef Spelling) const;
  void makeNumber(const Token &T, bool Negative, unsigned Begin, Operand &O);
};

/// A register declared in a nested `{ }` scope (every inline-asm block's
/// `.reg .pred P1;`) is another register than one of the same name in a
/// sibling or enclosing scope: its name gets the scope's number after '#',
/// which no PTX identifier contains (operandDisplayName drops it).
std::string Parser::registerName(StringRef Spelling) const {
  const unsigned FunctionDepth = M ? 1 : 0;
  if (std::optional<unsigned> S =
          Regs.declaredDeeperThan(Spelling, FunctionDepth)) {
    std::string Name = Spelling.str();
    Name += '#';
    Name += utostr(*S);
    return Name;
  }
  return Spelling.str();
}

void Parser::openScope() {
  if (M && Depth == 0) {
    if (PendingBody < 0)
      diag(Sev::Error, "'{' outside a function body", cur());
    OpenFunction = PendingBody;
  }
  PendingBody = -1;
  ++Depth;
  ScopeStack.push_back(Out.Scopes.size());
  Out.Scopes.push_back(ScopeStack[ScopeStack.size() - 2]);
  advance();
}

void Parser::closeScope() {
  if (Depth == 0) {
    diag(Sev::Error, "unbalanced '}' (no open scope)", cur());
  } else {
    --Depth;
    ScopeStack.pop_back();
    Regs.popTo(Depth);
    if (M && Depth == 0 && OpenFunction >= 0) {
      FunctionDecl &F = M->Functions[OpenFunction];
      F.EndInstruction = Out.Instructions.size();
      F.EndLabel = Out.Labels.size();
      F.EndLoc = M->Locs.size();
      F.CloseBrace = {cur().Offset, cur().Length};
      OpenFunction = -1;
    }
  }
  advance();
}

/// Error recovery: skips to just after the next ';' of this statement, or up
/// to (not including) a '}' that closes an enclosing scope.
void Parser::skipStatement() {
  unsigned Local = 0;
  while (!atEnd()) {
    const Token &T = cur();
    if (T.isPunct(';') && Local == 0) {
      advance();
      return;
    }
    if (T.isPunct('{'))
      ++Local;
    if (T.isPunct('}')) {
      if (Local == 0)
        return;
      --Local;
    }
    advance();
  }
}

/// Skips the rest of a line-based directive (`.version 9.0`, `.loc 1 2 3`).
void Parser::skipLine() {
  advance();
  while (!atEnd() && !cur().NewlineBefore) {
    if (cur().isPunct(';')) {
      advance();
      return;
    }
    if (cur().isPunct('{') || cur().isPunct('}'))
      return;
    advance();
  }
}

/// Skips a `{ ... }` block starting at the current '{' (iteratively).
void Parser::skipBalancedBlock() {
  unsigned Local = 0;
  while (!atEnd()) {
    if (cur().isPunct('{'))
      ++Local;
    else if (cur().isPunct('}') && Local > 0 && --Local == 0) {
      advance();
      return;
    }
    advance();
  }
  diag(Sev::Error, "unterminated '{' block in directive", cur());
}

void Parser::parseDirective() {
  StringRef D = cur().Spelling;
  if (D == ".reg") {
    parseRegisterDecl();
    return;
  }
  static const StringSet<> LineDirectives = {".version",
                                             ".target",
                                             ".address_size",
                                             ".file",
                                             ".loc",
                                             ".maxntid",
                                             ".reqntid",
                                             ".minnctapersm",
                                             ".maxnctapersm",
                                             ".maxnreg",
                                             ".pragma",
                                             ".explicitcluster",
                                             ".reqnctapercluster",
                                             ".maxclusterrank",
                                             ".noreturn",
                                             ".blocksareclusters",
                                             ".abi_preserve",
                                             ".abi_preserve_control",
                                             ".alias"};
  if (M && D == ".loc") {
    parseLoc();
    return;
  }
  if (M && D == ".file") {
    parseFile();
    return;
  }
  if (LineDirectives.contains(D)) {
    skipLine();
    return;
  }
  if (M && D == ".section") {
    parseDebugSection();
    return;
  }
  if (D == ".section") {
    while (!atEnd() && !cur().isPunct('{') && !cur().isPunct(';'))
      advance();
    if (cur().isPunct('{'))
      skipBalancedBlock();
    else
      advance();
    return;
  }

  // Linkage prefixes, then possibly a function header.
  size_t Look = P;
  static const StringSet<> Linkage = {".visible", ".extern", ".weak",
                                      ".common"};
  while (Toks[Look].is(Token::Kind::Word) &&
         Linkage.contains(Toks[Look].Spelling))
    ++Look;
  const Token &Head = Toks[Look];
  if (M && Head.is(Token::Kind::Word) &&
      (Head.Spelling == ".entry" || Head.Spelling == ".func")) {
    parseFunctionHeader();
    return;
  }
  if (M) {
    parseDataDeclaration();
    return;
  }
  if (Head.is(Token::Kind::Word) &&
      (Head.Spelling == ".entry" || Head.Spelling == ".func")) {
    // Skip the header (parameter lists, performance directives) up to the
    // body '{' (left for the statement loop: it opens a scope) or ';'.
    unsigned Parens = 0;
    while (!atEnd()) {
      const Token &T = cur();
      if (T.isPunct('('))
        ++Parens;
      else if (T.isPunct(')') && Parens > 0)
        --Parens;
      else if (Parens == 0 && T.isPunct('{'))
        return;
      else if (Parens == 0 && T.isPunct(';')) {
        advance();
        return;
      } else if (Parens == 0 && T.isPunct('}')) {
        return;
      }
      advance();
    }
    return;
  }
  // Data declarations (.shared, .global, .param, .local, .const, ...):
  // skip to ';', stepping over initializer braces.
  unsigned Local = 0;
  while (!atEnd()) {
    const Token &T = cur();
    if (T.isPunct('{'))
      ++Local;
    else if (T.isPunct('}')) {
      if (Local == 0)
        return;
      --Local;
    } else if (T.isPunct(';') && Local == 0) {
      advance();
      return;
    }
    advance();
  }
}

/// Module mode: a directive the reader does not know (`.frobnicate 1;`):
/// counted and skipped up to its ';' (or the end of its line, or past a
/// `{ }` block it opens), never an error.
void Parser::skipUnknownDirective() {
  const Token &D = cur();
  if (M->UnknownDirectives++ == 0)
    M->FirstUnknownDirective = {D.Offset, D.Length};
  diag(Sev::Warning, "unknown directive '" + D.Spelling + "' skipped", D);
  advance();
  unsigned Local = 0;
  while (!atEnd()) {
    const Token &T = cur();
    if (Local == 0 && T.NewlineBefore)
      return;
    if (T.isPunct(';') && Local == 0) {
      advance();
      return;
    }
    if (T.isPunct('{')) {
      ++Local;
    } else if (T.isPunct('}')) {
      if (Local == 0)
        return;
      if (--Local == 0) {
        advance();
        return;
      }
    }
    advance();
  }
}

/// Module mode: a number operand of a directive (`.loc 1 12 5`).
std::optional<unsigned> Parser::parseUnsigned(const char *What) {
  unsigned V = 0;
  if (!cur().is(Token::Kind::Number) ||
      StringRef(cur().Spelling).getAsInteger(0, V)) {
    diag(Sev::Error, Twine("expected ") + What, cur());
    return std::nullopt;
  }
  advance();
  return V;
}

/// `.loc F L C` with the optional `, function_name LABEL[+N]` and
/// `, inlined_at F L C` of inlined code.
void Parser::parseLoc() {
  const Token &Dir = cur();
  unsigned Begin = Dir.Offset;
  advance();
  LocDirective L;
  L.InstructionIndex = Out.Instructions.size();
  auto Fail = [&]() {
    while (!atEnd() && !cur().NewlineBefore && !cur().isPunct('}'))
      advance();
  };
  std::optional<unsigned> F, Line, Col;
  if (!(F = parseUnsigned("a file index after '.loc'")) ||
      !(Line = parseUnsigned("a line number in '.loc'")) ||
      !(Col = parseUnsigned("a column number in '.loc'")))
    return Fail();
  L.Pos = {*F, *Line, *Col};
  while (cur().isPunct(',') && !cur().NewlineBefore) {
    advance();
    StringRef Key = cur().Spelling;
    if (Key == "function_name") {
      advance();
      L.FunctionNameLabel = cur().Spelling;
      advance();
      if (cur().isPunct('+')) { // `LABEL+12`: an offset into the string
        advance();
        advance();
      }
    } else if (Key == "inlined_at") {
      advance();
      std::optional<unsigned> IF, IL, IC;
      if (!(IF = parseUnsigned("a file index after 'inlined_at'")) ||
          !(IL = parseUnsigned("a line number after 'inlined_at'")) ||
          !(IC = parseUnsigned("a column number after 'inlined_at'")))
        return Fail();
      L.InlinedAt = LocPosition{*IF, *IL, *IC};
    } else {
      diag(Sev::Error, "unexpected '" + Key + "' in '.loc'", cur());
      return Fail();
    }
  }
  L.Range = {Begin, prevEnd() - Begin};
  M->Locs.push_back(std::move(L));
}

/// `.file N "path"` (optionally followed by a timestamp and a size).
void Parser::parseFile() {
  const Token &Dir = cur();
  advance();
  FileDirective F;
  F.Range = {Dir.Offset, Dir.Length};
  std::optional<unsigned> Index = parseUnsigned("a file index after '.file'");
  if (!Index) {
    skipLine();
    return;
  }
  F.Index = *Index;
  if (!cur().is(Token::Kind::String) || cur().Spelling.size() < 2 ||
      cur().Spelling.back() != '"') {
    diag(Sev::Error, "expected a quoted file name after '.file N'", cur());
    skipLine();
    return;
  }
  StringRef Quoted = StringRef(cur().Spelling).drop_front().drop_back();
  for (size_t I = 0; I < Quoted.size(); ++I) {
    if (Quoted[I] == '\\' && I + 1 < Quoted.size())
      ++I;
    F.Path += Quoted[I];
  }
  advance();
  while (!atEnd() && !cur().NewlineBefore && !cur().isPunct('}') &&
         !cur().isPunct('{'))
    advance(); // timestamp, size
  M->Files.push_back(std::move(F));
}

/// `.section .debug_str { $L__info_string0: .b8 95 ... .b8 0 }`: records
/// the strings by label; other sections are skipped.
void Parser::parseDebugSection() {
  advance();
  bool DebugStr = cur().Spelling == ".debug_str";
  while (!atEnd() && !cur().isPunct('{') && !cur().isPunct(';') &&
         !cur().NewlineBefore)
    advance();
  if (!cur().isPunct('{')) {
    if (cur().isPunct(';'))
      advance();
    return;
  }
  unsigned Local = 0;
  std::string *Current = nullptr;
  bool Terminated = false;
  while (!atEnd()) {
    const Token &T = cur();
    if (T.isPunct('{')) {
      ++Local;
    } else if (T.isPunct('}') && Local > 0 && --Local == 0) {
      advance();
      return;
    } else if (DebugStr && T.is(Token::Kind::Word) && peekTok().isPunct(':') &&
               !StringRef(T.Spelling).starts_with(".")) {
      Current = &M->DebugStrings[T.Spelling];
      Current->clear();
      Terminated = false;
    } else if (DebugStr && Current && !Terminated && T.Spelling == ".b8" &&
               peekTok().is(Token::Kind::Number)) {
      unsigned Byte = 0;
      if (!StringRef(peekTok().Spelling).getAsInteger(0, Byte) && Byte < 256) {
        if (Byte == 0)
          Terminated = true;
        else if (Current->size() < 4096)
          *Current += static_cast<char>(Byte);
      }
    }
    advance();
  }
  diag(Sev::Error, "unterminated '{' block in '.section'", cur());
}

/// `[linkage] .entry|.func [(returns)] name (params) [directives] {|;`
void Parser::parseFunctionHeader() {
  FunctionDecl F;
  F.HeaderOffset = cur().Offset;
  while (cur().is(Token::Kind::Word) && cur().Spelling != ".entry" &&
         cur().Spelling != ".func")
    advance(); // .visible, .extern, .weak
  F.IsEntry = cur().Spelling == ".entry";
  const Token &Kw = cur();
  advance();
  // One parenthesised parameter list: the name of each parameter is its
  // last word that is not a directive (`.param .u64 .ptr .align 8 name`).
  auto ParamList = [&](std::vector<std::string> &Names) {
    advance(); // '('
    std::string Last;
    unsigned Nested = 0;
    while (!atEnd()) {
      const Token &T = cur();
      if (T.isPunct('(')) {
        ++Nested;
      } else if (T.isPunct(')') && Nested > 0) {
        --Nested;
      } else if (T.isPunct(',') || T.isPunct(')')) {
        if (!Last.empty())
          Names.push_back(Last);
        Last.clear();
        if (T.isPunct(')')) {
          advance();
          return true;
        }
      } else if (T.isPunct('{') || T.isPunct('}') || T.isPunct(';')) {
        break;
      } else if (T.is(Token::Kind::Word) &&
                 !StringRef(T.Spelling).starts_with(".")) {
        Last = T.Spelling;
      }
      advance();
    }
    diag(Sev::Error, "unterminated parameter list of '" + F.Name + "'", cur());
    return false;
  };
  if (cur().isPunct('(') && !ParamList(F.Returns))
    return;
  if (!cur().is(Token::Kind::Word) ||
      StringRef(cur().Spelling).starts_with(".")) {
    diag(Sev::Error, "expected a function name after '" + Kw.Spelling + "'",
         cur());
    skipStatement();
    return;
  }
  F.Name = cur().Spelling;
  F.NameRange = {cur().Offset, cur().Length};
  advance();
  if (cur().isPunct('(') && !ParamList(F.Params))
    return;
  // Performance directives (.maxntid 128, 1, 1) up to the body or ';':
  // the block and cluster shape and .minnctapersm (tmem-alloc-budget) are
  // kept; a malformed one is ignored (it only tells less).
  auto Number = [&]() -> std::optional<unsigned> {
    unsigned N = 0;
    if (!cur().is(Token::Kind::Number) ||
        StringRef(cur().Spelling).getAsInteger(0, N) || N == 0 ||
        N >= (1u << 20))
      return std::nullopt;
    advance();
    return N;
  };
  // `x[, y[, z]]`; missing dimensions are 1.
  auto Dims = [&]() -> std::optional<std::array<unsigned, 3>> {
    std::array<unsigned, 3> D = {1, 1, 1};
    for (unsigned I = 0; I < 3; ++I) {
      if (I > 0) {
        if (!cur().isPunct(','))
          break;
        advance();
      }
      std::optional<unsigned> N = Number();
      if (!N)
        return std::nullopt;
      D[I] = *N;
    }
    return D;
  };
  while (!atEnd() && !cur().isPunct('{') && !cur().isPunct(';') &&
         !cur().isPunct('}')) {
    StringRef Dir = cur().Spelling;
    TextRange At = {cur().Offset, cur().Length};
    if (!cur().is(Token::Kind::Word) || !Dir.starts_with(".")) {
      advance();
      continue;
    }
    advance();
    if (Dir == ".minnctapersm") {
      if (std::optional<unsigned> N = Number()) {
        F.MinCtasPerSm = *N;
        F.MinCtasPerSmRange = At;
      }
    } else if (Dir == ".reqntid") {
      F.ReqNtid = Dims();
    } else if (Dir == ".maxntid") {
      F.MaxNtid = Dims();
    } else if (Dir == ".reqnctapercluster") {
      F.ReqNctaPerCluster = Dims();
    } else if (Dir == ".maxclusterrank") {
      F.MaxClusterRank = Number().value_or(0);
    } else if (Dir == ".maxnreg") {
      F.MaxNReg = Number().value_or(0);
    } else if (Dir == ".explicitcluster") {
      F.ExplicitCluster = true;
    }
  }
  F.FirstInstruction = F.EndInstruction = Out.Instructions.size();
  F.FirstLabel = F.EndLabel = Out.Labels.size();
  F.FirstLoc = F.EndLoc = M->Locs.size();
  if (cur().isPunct('{')) {
    if (Depth != 0) {
      diag(Sev::Error, "function '" + F.Name + "' defined inside a body",
           F.NameRange);
      return;
    }
    F.HasBody = true;
    PendingBody = M->Functions.size();
  } else if (cur().isPunct(';')) {
    advance();
  } else {
    diag(Sev::Error, "expected '{' or ';' after the header of '" + F.Name + "'",
         cur());
  }
  M->Functions.push_back(std::move(F));
}

/// Module mode: a data declaration (`.shared .align 4 .u32 slot;`) or an
/// unknown directive.
void Parser::parseDataDeclaration() {
  static const StringSet<> Spaces = {
      ".shared",        ".global",        ".const",      ".local",
      ".param",         ".tex",           ".surf",       ".sampler",
      ".callprototype", ".branchtargets", ".calltargets"};
  static const StringSet<> Linkage = {".visible", ".extern", ".weak",
                                      ".common"};
  const Token &First = cur();
  size_t Look = P;
  while (Toks[Look].is(Token::Kind::Word) &&
         Linkage.contains(Toks[Look].Spelling))
    ++Look;
  if (!Toks[Look].is(Token::Kind::Word) ||
      !Spaces.contains(Toks[Look].Spelling)) {
    skipUnknownDirective();
    return;
  }
  VariableDecl V;
  V.StateSpace = Toks[Look].Spelling;
  V.Function = Depth > 0 ? OpenFunction : -1;
  unsigned Begin = First.Offset;
  // Brackets of an array size, braces and parentheses of an initializer
  // (`= {1, 2}`, `= {generic(x), y+8}`); the declaration ends at the ';'
  // outside all of them.
  unsigned Local = 0;
  bool InInitializer = false;
  const size_t StartP = P;
  while (!atEnd()) {
    const Token &T = cur();
    if (T.isPunct('{') || T.isPunct('[') || T.isPunct('(')) {
      ++Local;
    } else if (T.isPunct('}') || T.isPunct(']') || T.isPunct(')')) {
      if (Local == 0)
        break; // a '}' that closes the enclosing body: ';' was missing
      --Local;
    } else if (T.isPunct(';') && Local == 0) {
      advance();
      break;
    } else if (T.isPunct('=') && Local == 0) {
      InInitializer = true; // no more names
    } else if (!InInitializer && Local == 0 && V.Name.empty() &&
               T.is(Token::Kind::Word) &&
               !StringRef(T.Spelling).starts_with(".")) {
      V.Name = T.Spelling;
    } else if (Local == 0 && P != StartP && T.NewlineBefore &&
               T.is(Token::Kind::Word) &&
               (T.Spelling == ".visible" || T.Spelling == ".entry" ||
                T.Spelling == ".func" || T.Spelling == ".extern" ||
                T.Spelling == ".weak")) {
      // A lost ';': do not swallow the next declaration.
      diag(Sev::Error, "missing ';' after the declaration",
           TextRange{prevEnd(), 0});
      break;
    }
    advance();
  }
  V.Range = {Begin, prevEnd() - Begin};
  if (!V.Name.empty() && V.StateSpace != ".callprototype" &&
      V.StateSpace != ".branchtargets" && V.StateSpace != ".calltargets")
    M->Variables.push_back(std::move(V));
}

void Parser::parseRegisterDecl() {
  const Token &RegTok = cur();
  advance();
  std::string Type;
  while (cur().is(Token::Kind::Word) &&
         StringRef(cur().Spelling).starts_with(".")) {
    if (!Type.empty())
      Type += ' ';
    Type += cur().Spelling;
    advance();
  }
  if (Type.empty())
    diag(Sev::Error, "'.reg' declaration without a type", RegTok);

  while (true) {
    const Token &NameTok = cur();
    if (!NameTok.is(Token::Kind::Register) && !NameTok.is(Token::Kind::Word)) {
      diag(Sev::Error, "expected a register name in '.reg' declaration",
           NameTok);
      skipStatement();
      return;
    }
    RegisterDecl R;
    R.Type = Type;
    R.Name = NameTok.Spelling;
    R.ScopeDepth = Depth;
    R.Range = {NameTok.Offset, NameTok.Length};
    advance();
    bool Parametric = false;
    if (cur().isPunct('<')) {
      advance();
      unsigned Count = 0;
      if (!cur().is(Token::Kind::Number) ||
          StringRef(cur().Spelling).getAsInteger(0, Count)) {
        diag(Sev::Error, "expected a register count after '<'", cur());
        skipStatement();
        return;
      }
      advance();
      if (!cur().isPunct('>')) {
        diag(Sev::Error, "expected '>' after the register count", cur());
        skipStatement();
        return;
      }
      advance();
      R.Count = Count;
      Parametric = true;
      R.Range.Length = prevEnd() - R.Range.Offset;
    }
    Regs.declare(R.Name, Parametric, R.Count, Depth, ScopeStack.back());
    Out.Registers.push_back(std::move(R));
    if (cur().isPunct(',')) {
      advance();
      continue;
    }
    if (cur().isPunct(';')) {
      advance();
      return;
    }
    if (atEnd() || cur().isPunct('}') || cur().NewlineBefore) {
      diag(Sev::Warning, "missing ';' after '.reg' declaration",
           TextRange{prevEnd(), 0});
      return;
    }
    diag(Sev::Error, "expected ',' or ';' in '.reg' declaration", cur());
    skipStatement();
    return;
  }
}

/// Fills \p O (a default Operand) with the number \p T, negated if
/// \p Negative (its '-' starting at \p Begin).
void Parser::makeNumber(const Token &T, bool Negative, unsigned Begin,
                        Operand &O) {
  O.Range = {Begin, T.end() - Begin};
  StringRef S = T.Spelling;
  if (Negative)
    O.Text = '-';
  O.Text.append(S.data(), S.size());
  O.K = Operand::Kind::Immediate;

  // The common case, a short decimal literal: no radix or suffix to look
  // for, no overflow possible.
  if (S.size() <= 18 && (S[0] != '0' || S.size() == 1) &&
      all_of(S, [](char C) { return isDigit(C); })) {
    int64_t Value = 0;
    for (char C : S)
      Value = Value * 10 + (C - '0');
    O.Imm = Negative ? -Value : Value;
    return;
  }

  auto Fail = [&](const Twine &Msg) {
    diag(Sev::Error, Msg, O.Range);
    O.K = Operand::Kind::Symbol;
  };

  uint64_t Value = 0;
  StringRef Lower = S;
  if (S.size() > 2 && S[0] == '0' &&
      (S[1] == 'f' || S[1] == 'F' || S[1] == 'd' || S[1] == 'D')) {
    // Hex-encoded float literal: keep the bits.
    size_t Want = (S[1] == 'f' || S[1] == 'F') ? 8 : 16;
    StringRef Hex = S.drop_front(2);
    if (Hex.size() != Want || Hex.getAsInteger(16, Value))
      return Fail("malformed floating-point literal '" + S + "'");
    O.Imm = int64_t(Value);
    return;
  }
  if (Lower.ends_with("U") || Lower.ends_with("u"))
    Lower = Lower.drop_back();
  unsigned Radix = 10;
  StringRef Digits = Lower;
  if (Lower.starts_with_insensitive("0x")) {
    Radix = 16;
    Digits = Lower.drop_front(2);
  } else if (Lower.starts_with_insensitive("0b")) {
    Radix = 2;
    Digits = Lower.drop_front(2);
  } else if (Lower.size() > 1 && Lower[0] == '0' &&
             all_of(Lower, [](char C) { return isDigit(C); })) {
    Radix = 8;
    Digits = Lower.drop_front(1);
  } else if (Lower.contains('.') || Lower.contains_insensitive("e")) {
    // Decimal float: a Symbol, value not needed by the analysis.
    O.K = Operand::Kind::Symbol;
    return;
  }
  if (Digits.empty() || Digits.getAsInteger(Radix, Value)) {
    bool AllDigits = !Digits.empty() && all_of(Digits, [&](char C) {
      unsigned V = isDigit(C) ? C - '0' : (isHexDigit(C) ? 10 : 99);
      return V < Radix || (Radix == 16 && isHexDigit(C));
    });
    return Fail(AllDigits ? "integer literal '" + S + "' is too large"
                          : "malformed number '" + S + "'");
  }
  if (Value > uint64_t(INT64_MAX) &&
      !(Negative && Value == uint64_t(1) << 63) && Radix == 10)
    return Fail("integer literal '" + S + "' is too large");
  O.Imm = Negative ? int64_t(0 - Value) : int64_t(Value);
  return;
}

/// Parses `[...]` into \p A (a default Operand), in place: operands are
/// built where they end up, never moved.
void Parser::parseAddress(unsigned OpDepth, Operand &A) {
  const Token &Open = cur();
  unsigned Begin = Open.Offset;
  advance();
  A.K = Operand::Kind::Address;
  auto Recover = [&]() {
    while (!atEnd() && !cur().isPunct(']') && !cur().isPunct(';') &&
           !cur().isPunct('}'))
      advance();
    if (cur().isPunct(']'))
      advance();
    A.Range = {Begin, prevEnd() - Begin};
  };
  Operand &Base = A.Elements.emplace_back();
  if (!parseOperand(OpDepth + 1, Base)) {
    A.Elements.pop_back();
    return Recover();
  }
  if (!Base.isLeaf())
    diag(Sev::Error, "address base must be a register, operand or symbol",
         Base.Range);
  while (cur().isPunct('+') || cur().isPunct('-')) {
    bool Minus = cur().isPunct('-');
    advance();
    bool Neg = false;
    unsigned NumBegin = cur().Offset;
    if (cur().isPunct('-')) {
      Neg = true;
      advance();
    }
    if (!cur().is(Token::Kind::Number)) {
      diag(Sev::Error, "expected a constant offset in address", cur());
      return Recover();
    }
    Operand Off;
    makeNumber(cur(), Neg, NumBegin, Off);
    advance();
    if (Off.K != Operand::Kind::Immediate)
      return Recover();
    A.AddressOffset += Minus ? -Off.Imm : Off.Imm;
  }
  // `[tmap, {x, y, ...}]`: a tensor map and its coordinate vector
  // (cp.async.bulk.tensor, cp.reduce.async.bulk.tensor, prefetch.tensor).
  if (cur().isPunct(',') && peekTok().isPunct('{')) {
    advance();
    parseVector(OpDepth + 1, A.Elements.emplace_back());
  }
  if (!cur().isPunct(']')) {
    diag(Sev::Error, "expected ']' to close the address", cur());
    return Recover();
  }
  advance();
  A.Range = {Begin, prevEnd() - Begin};
}

/// How many operands the list at the current token has: the ',' and '|'
/// outside brackets up to the ';' or the bracket that closes the list, on
/// the tokens ahead (which are lexed anyway), so that the operands go to
/// one allocation of the right size. Only a capacity: a malformed list
/// gets a guess.
unsigned Parser::countItems() {
  unsigned N = 1, Nest = 0;
  for (size_t I = P, E = P + 1024; I < E; ++I) {
    const Token &T = Toks[I];
    if (T.is(Token::Kind::End))
      break;
    if (!T.is(Token::Kind::Punct))
      continue;
    switch (T.Spelling[0]) {
    case '[':
    case '{':
    case '(':
      ++Nest;
      break;
    case ']':
    case '}':
    case ')':
      if (Nest == 0)
        return N;
      --Nest;
      break;
    case ',':
    case '|':
      N += Nest == 0;
      break;
    case ';':
      return N;
    }
  }
  return N;
}

/// Parses `{...}` or `(...)` into \p V (a default Operand), in place.
void Parser::parseVector(unsigned OpDepth, Operand &V) {
  unsigned Begin = cur().Offset;
  char Close = cur().isPunct('(') ? ')' : '}';
  advance();
  V.K = Operand::Kind::Vector;
  if (cur().isPunct(Close)) {
    advance();
    V.Range = {Begin, prevEnd() - Begin};
    return;
  }
  V.Elements.reserve(countItems());
  // Parses one element at the end of V.Elements; drops it if unreadable.
  auto Element = [&]() {
    if (parseOperand(OpDepth + 1, V.Elements.emplace_back()))
      return true;
    V.Elements.pop_back();
    return false;
  };
  while (true) {
    if (Element() && cur().isPunct('|')) {
      advance();
      Element();
    }
    if (cur().isPunct(',')) {
      advance();
      continue;
    }
    if (cur().isPunct(Close)) {
      advance();
      break;
    }
    diag(Sev::Error,
         Twine("expected ',' or '") + Twine(Close) + "' in " +
             (Close == '}' ? "vector operand" : "parenthesized operand list"),
         cur());
    // Recover: skip to the closing bracket unless the statement ends first.
    while (!atEnd() && !cur().isPunct(Close) && !cur().isPunct(';') &&
           !cur().isPunct('}'))
      advance();
    if (cur().isPunct(Close))
      advance();
    break;
  }
  V.Range = {Begin, prevEnd() - Begin};
}

/// Parses one operand into \p O, a default Operand where the operand is
/// to stay (so that nothing is moved). Returns false, with a diagnostic,
/// if there is none; \p O is then to be dropped.
bool Parser::parseOperand(unsigned OpDepth, Operand &O) {
  const Token &T = cur();
  if (OpDepth > MaxOperandDepth) {
    diag(Sev::Error, "operand nesting is too deep", T);
    return false;
  }
  O.Range = {T.Offset, T.Length};
  switch (T.K) {
  case Token::Kind::Number:
    makeNumber(T, false, T.Offset, O);
    advance();
    return true;
  case Token::Kind::Register:
    O.K = Operand::Kind::Register;
    O.Text = registerName(T.Spelling);
    advance();
    return true;
  case Token::Kind::AsmOperand:
    O.K = Operand::Kind::AsmOperand;
    O.Text = T.Spelling;
    O.AsmOperandIndex = T.AsmIndex;
    advance();
    return true;
  case Token::Kind::Word:
    O.K = Regs.isDeclared(T.Spelling) ? Operand::Kind::Register
                                      : Operand::Kind::Symbol;
    O.Text = O.K == Operand::Kind::Register ? registerName(T.Spelling)
                                            : T.Spelling;
    advance();
    return true;
  case Token::Kind::Punct:
    if (T.isPunct('[')) {
      parseAddress(OpDepth, O);
      return true;
    }
    // `{a, b}` vectors; `(a, b)` lists of call.uni are represented the
    // same way.
    if (T.isPunct('{') || T.isPunct('(')) {
      parseVector(OpDepth, O);
      return true;
    }
    if (T.isPunct('!')) {
      unsigned Begin = T.Offset;
      advance();
      if (!parseOperand(OpDepth + 1, O))
        return false;
      if (!O.isLeaf()) {
        diag(Sev::Error, "'!' applies only to a predicate", O.Range);
        return true;
      }
      O.Negated = true;
      O.Range = {Begin, O.Range.Offset + O.Range.Length - Begin};
      return true;
    }
    if (T.isPunct('-') && peekTok().is(Token::Kind::Number) &&
        peekTok().Offset == T.end()) {
      unsigned Begin = T.Offset;
      advance();
      makeNumber(cur(), true, Begin, O);
      advance();
      return true;
    }
    break;
  default:
    break;
  }
  diag(Sev::Error,
       T.is(Token::Kind::End) ? Twine("expected an operand at end of text")
                              : Twine("expected an operand"),
       T);
  return false;
}

/// Parses the operands up to and including ';'. Returns true if the
/// statement ended cleanly (';', or a tolerated missing ';').
bool Parser::parseOperandList(Instruction &I) {
  auto EndsWithoutSemicolon = [&]() {
    const Token &T = cur();
    if (T.is(Token::Kind::End) || T.isPunct('}'))
      return true;
    // A new line that starts with something opcode-like: the ';' was lost.
    if (T.NewlineBefore &&
        ((T.is(Token::Kind::Word) && StringRef(T.Spelling).contains('.')) ||
         T.isPunct('@')))
      return true;
    return false;
  };
  auto MissingSemi = [&]() {
    diag(Sev::Warning, "missing ';' after '" + I.Opcode + "'",
         TextRange{prevEnd(), 0});
    return true;
  };

  if (cur().isPunct(';')) {
    advance();
    return true;
  }
  if (EndsWithoutSemicolon())
    return MissingSemi();

  I.Operands.reserve(countItems());
  // Parses one operand at the end of I.Operands; drops it if unreadable.
  auto Next = [&]() {
    if (parseOperand(0, I.Operands.emplace_back()))
      return true;
    I.Operands.pop_back();
    skipStatement();
    return false;
  };
  while (true) {
    if (!Next())
      return false;
    if (cur().isPunct('|')) {
      advance();
      if (!Next())
        return false;
    }
    if (cur().isPunct(',')) {
      advance();
      continue;
    }
    if (cur().isPunct(';')) {
      advance();
      return true;
    }
    if (EndsWithoutSemicolon() || cur().NewlineBefore)
      return MissingSemi();
    diag(Sev::Error, "expected ',' or ';' after operand of '" + I.Opcode + "'",
         cur());
    skipStatement();
    return false;
  }
}

void Parser::parseInstruction() {
  unsigned Begin = cur().Offset;
  std::optional<Guard> Pred;
  if (cur().isPunct('@')) {
    advance();
    Guard G;
    if (cur().isPunct('!')) {
      G.Negated = true;
      advance();
    }
    const Token &PT = cur();
    if (!PT.is(Token::Kind::Register) && !PT.is(Token::Kind::AsmOperand) &&
        !PT.is(Token::Kind::Word)) {
      diag(Sev::Error, "expected a predicate after '@'", PT);
      skipStatement();
      return;
    }
    G.Predicate.K = PT.is(Token::Kind::AsmOperand) ? Operand::Kind::AsmOperand
                                                   : Operand::Kind::Register;
    G.Predicate.Text = G.Predicate.K == Operand::Kind::Register
                           ? registerName(PT.Spelling)
                           : PT.Spelling;
    G.Predicate.AsmOperandIndex = PT.AsmIndex;
    G.Predicate.Range = {PT.Offset, PT.Length};
    Pred = std::move(G);
    advance();
  }

  const Token &OpTok = cur();
  if (!OpTok.is(Token::Kind::Word) ||
      StringRef(OpTok.Spelling).starts_with(".")) {
    diag(Sev::Error, "expected an instruction opcode", OpTok);
    skipStatement();
    return;
  }
  // Built in place: an Instruction is large (its parts are inline), moving
  // one costs as much as filling it.
  Instruction &I = Out.Instructions.emplace_back();
  I.ScopeDepth = Depth;
  I.Scope = ScopeStack.back();
  I.Pred = std::move(Pred);
  StringRef Opcode = OpTok.Spelling;
  I.Opcode.assign(Opcode.data(), Opcode.size());
  I.OpcodeRange = {OpTok.Offset, OpTok.Length};
  // Long opcodes (cp.async.bulk.tensor...) have more parts than fit
  // inline: one allocation of the right size rather than doubling.
  SmallVector<StringRef, 16> Parts;
  Opcode.split(Parts, '.');
  I.Parts.reserve(Parts.size());
  for (StringRef Part : Parts) {
    if (Part.empty())
      diag(Sev::Warning, "empty modifier in opcode '" + Opcode + "'", OpTok);
    I.Parts.emplace_back(Part.data(), Part.size());
  }
  advance();

  bool Clean = parseOperandList(I);
  unsigned End =
      std::max(prevEnd(), I.OpcodeRange.Offset + I.OpcodeRange.Length);
  I.Range = {Begin, End - Begin};
  if (!Clean || !isKnownOpcodeBase(I.base())) {
    if (Out.UnknownInstructions++ == 0)
      Out.FirstUnknown = int(Out.Instructions.size() - 1);
  }
  if (I.Parts[0] == "bra" && I.Operands.size() == 1 && I.Operands[0].isLeaf())
    Branches.push_back(
        {unsigned(Out.Instructions.size() - 1), I.Scope, I.Operands[0].Text});
}

void Parser::run() {
  // At most one instruction per ';': reserving saves moving the
  // instructions of a large module as the vector grows.
  Out.Instructions.reserve(countSemicolons(Text));
  while (!atEnd()) {
    // No reference into the tokens lives from one statement to the next.
    Toks.releaseBefore(P);
    const Token &T = cur();
    if (T.isPunct(';')) {
      advance();
      continue;
    }
    if (T.isPunct('{')) {
      openScope();
      continue;
    }
    if (T.isPunct('}')) {
      closeScope();
      continue;
    }
    if (T.is(Token::Kind::Word)) {
      StringRef S = T.Spelling;
      if (S.starts_with(".")) {
        size_t Before = P;
        parseDirective();
        if (P == Before)
          advance();
        continue;
      }
      if (peekTok().isPunct(':')) {
        Out.Labels.push_back({T.Spelling.str(),
                              {T.Offset, peekTok().end() - T.Offset},
                              unsigned(Out.Instructions.size()),
                              ScopeStack.back()});
        advance();
        advance();
        continue;
      }
    }
    if (T.is(Token::Kind::Word) || T.isPunct('@')) {
      if (M && Depth == 0) {
        diag(Sev::Error, "instruction outside a function body", T);
        size_t Before = P;
        skipStatement();
        if (P == Before)
          advance();
        continue;
      }
      parseInstruction();
      continue;
    }
    if (!T.is(Token::Kind::Invalid)) // invalid bytes were diagnosed already
      diag(Sev::Error, "expected an instruction", T);
    size_t Before = P;
    skipStatement();
    if (P == Before)
      advance();
  }
  if (M && OpenFunction >= 0) {
    diag(Sev::Error,
         "the body of '" + M->Functions[OpenFunction].Name +
             "' is not closed at the end of the module (truncated file?)",
         cur());
    // Keep what was read, marked: the function is not analysed, the
    // others are.
    FunctionDecl &F = M->Functions[OpenFunction];
    F.EndInstruction = Out.Instructions.size();
    F.EndLabel = Out.Labels.size();
    F.EndLoc = M->Locs.size();
    F.CloseBrace = {cur().Offset, 0};
    F.Truncated = true;
    OpenFunction = -1;
  } else if (Depth > 0)
    diag(Sev::Error,
         "missing '}': " + Twine(Depth) + " scope" + (Depth == 1 ? "" : "s") +
             " still open at end of text",
         cur());
  // Bytes the lexer could not read (diagnosed there, perhaps past the
  // diagnostics cap) are errors of the function they are in too.
  if (M)
    for (TextRange R : Lex.invalidRanges())
      chargeError("unexpected characters in PTX text", R);
  resolveLabels();
}

void Parser::resolveLabels() {
  // (scope, name) -> label. A scope declaring a name twice is an error in
  // PTX; the first declaration is kept.
  DenseMap<std::pair<unsigned, StringRef>, unsigned> ByScope;
  ByScope.reserve(Out.Labels.size());
  for (unsigned L = 0; L < Out.Labels.size(); ++L)
    ByScope.try_emplace({Out.Labels[L].Scope, Out.Labels[L].Name}, L);
  if (ByScope.empty())
    return;
  for (const Branch &B : Branches) {
    StringRef Name = B.Target;
    for (unsigned S = B.Scope, Steps = 0;
         S < Out.Scopes.size() && Steps <= Out.Scopes.size(); ++Steps) {
      auto It = ByScope.find({S, Name});
      if (It != ByScope.end()) {
        Out.Instructions[B.Instruction].TargetLabel = int(It->second);
        break;
      }
      if (S == 0)
        break;
      S = Out.Scopes[S];
    }
  }
}

ParsedAsm parse(StringRef Text, bool InlineAsm,
                ArrayRef<AsmOperandInfo> Operands,
                ParsedModule *Module = nullptr) {
  ParsedAsm Out;
  Lexer L(Text, InlineAsm, Operands);
  Parser(L, Text, Out, Module).run();
  // The lexer's diagnostics first, then the parser's, under one cap, as
  // if the text had been lexed before it was parsed.
  std::vector<ParseDiagnostic> ParserDiags = std::move(Out.Diagnostics);
  Out.Diagnostics = std::move(L.diagnostics());
  for (ParseDiagnostic &D : ParserDiags)
    addDiagnostic(Out.Diagnostics, D.Level, std::move(D.Message), D.Range);
  return Out;
}

} // namespace

ParsedAsm parseInlineAsm(StringRef Template,
                         ArrayRef<AsmOperandInfo> Operands) {
  return parse(Template, /*InlineAsm=*/true, Operands);
}

ParsedAsm parsePtxText(StringRef Text) {
  return parse(Text, /*InlineAsm=*/false, {});
}

ParsedModule parsePtxModule(StringRef Text) {
  ParsedModule M;
  M.Body = parse(Text, /*InlineAsm=*/false, {}, &M);
  return M;
}

} // namespace tmemcheck::ptx
