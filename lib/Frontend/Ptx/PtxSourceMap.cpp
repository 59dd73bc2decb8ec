//===- PtxSourceMap.cpp - Source positions of PTX instructions ------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "PtxSourceMap.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace llvm;

namespace tmemcheck {

PtxSourceMap::PtxSourceMap(const ptx::ParsedModule &M, StringRef Text,
                           std::string PtxPath)
    : M(M), PtxPath(std::move(PtxPath)) {
  Buffer = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(Text, this->PtxPath,
                                 /*RequiresNullTerminator=*/false),
      SMLoc());
  // Every event asks for its instruction's position, and kernels are
  // built on several threads: what the lookups need is computed here, once
  // (a CUTLASS module names hundreds of files and inlined functions).
  for (size_t I = 0; I < M.Files.size(); ++I)
    FileByIndex.try_emplace(M.Files[I].Index, I);
  for (const ptx::LocDirective &L : M.Locs)
    if (L.InlinedAt && !CalleeNames.count(L.FunctionNameLabel)) {
      auto Name = M.DebugStrings.find(L.FunctionNameLabel);
      CalleeNames[L.FunctionNameLabel] =
          Name != M.DebugStrings.end()
              ? displayName(Name->second, /*IsFunction=*/true)
              : "an inlined function";
    }
}

SourceLoc PtxSourceMap::ptxLoc(unsigned Offset) const {
  const MemoryBuffer *B = SM.getMemoryBuffer(Buffer);
  Offset = std::min<size_t>(Offset, B->getBufferSize());
  auto [Line, Col] = SM.getLineAndColumn(
      SMLoc::getFromPointer(B->getBufferStart() + Offset), Buffer);
  SourceLoc L;
  L.File = PtxPath;
  L.Line = Line;
  L.Column = Col;
  return L;
}

std::string PtxSourceMap::filePath(unsigned Index) const {
  auto It = FileByIndex.find(Index);
  return It == FileByIndex.end() ? "" : M.Files[It->second].Path;
}

std::optional<SourceLoc>
PtxSourceMap::fromLoc(const ptx::LocPosition &P) const {
  std::string Path = filePath(P.File);
  if (Path.empty() || P.Line == 0)
    return std::nullopt;
  SourceLoc L;
  L.File = std::move(Path);
  L.Line = P.Line;
  L.Column = std::max(1u, P.Column); // nvcc writes 0 for "no column"
  return L;
}

PtxPosition PtxSourceMap::instruction(const ptx::FunctionDecl &F,
                                      unsigned Index) const {
  PtxPosition Pos;
  const ptx::Instruction &I = M.Body.Instructions[Index];
  // The last .loc of the function at or before the instruction; without
  // one, the instruction's place in the PTX text (looked up only then).
  auto Begin = M.Locs.begin() + F.FirstLoc, End = M.Locs.begin() + F.EndLoc;
  auto It = std::upper_bound(Begin, End, Index,
                             [](unsigned Idx, const ptx::LocDirective &L) {
                               return Idx < L.InstructionIndex;
                             });
  std::optional<SourceLoc> Src;
  if (It != Begin)
    Src = fromLoc(std::prev(It)->Pos);
  if (!Src) {
    Pos.Loc = ptxLoc(I.OpcodeRange.Offset);
    return Pos;
  }
  const ptx::LocDirective &L = *std::prev(It);
  Pos.Loc = *Src;
  if (L.InlinedAt)
    if (std::optional<SourceLoc> Site = fromLoc(*L.InlinedAt)) {
      CallFrame Frame;
      Frame.CallSite = *Site;
      Frame.Callee = CalleeNames.find(L.FunctionNameLabel)->second;
      Pos.InlinedFrom = std::move(Frame);
    }
  return Pos;
}

SourceLoc PtxSourceMap::functionLoc(const ptx::FunctionDecl &F) const {
  for (unsigned I = F.FirstLoc; I < F.EndLoc; ++I)
    if (!M.Locs[I].InlinedAt)
      if (std::optional<SourceLoc> L = fromLoc(M.Locs[I].Pos))
        return *L;
  return ptxLoc(F.NameRange.Offset);
}

namespace {

/// LLVM's Itanium demangler recurses once per nesting level of the name
/// (`PPP...i`, `A1_A1_...`, nested templates), with no bound of its own, and
/// a .ptx module is arbitrary text: a symbol of some 100000 characters
/// overflows the stack. The depth is at most the length, so symbols longer
/// than this are not demangled (shown as written). CUTLASS's longest kernel
/// names are a few thousand characters; 16384 levels stay well inside an
/// 8 MB stack, sanitized build included (measured: 32768 `P` are fine,
/// 100000 overflow it).
constexpr size_t MaxDemangledLength = 16384;

bool demanglable(StringRef Symbol) {
  return Symbol.starts_with("_Z") && Symbol.size() <= MaxDemangledLength;
}

} // namespace

std::string displayName(StringRef Symbol, bool IsFunction) {
  if (!demanglable(Symbol))
    return Symbol.str();
  const std::string Mangled = Symbol.str(); // the demangler points into it
  if (IsFunction) {
    ItaniumPartialDemangler D;
    if (!D.partialDemangle(Mangled.c_str()) && D.isFunction()) {
      size_t N = 0;
      char *Buf = D.getFunctionName(nullptr, &N);
      std::string Name = Buf ? Buf : "";
      std::free(Buf);
      if (!Name.empty())
        return Name;
    }
  }
  std::string Demangled = demangle(Mangled);
  if (!IsFunction) {
    size_t Colons = Demangled.rfind("::");
    if (Colons != std::string::npos)
      return Demangled.substr(Colons + 2);
  }
  return Demangled;
}

std::optional<unsigned> declaredParameterCount(StringRef Symbol) {
  if (!demanglable(Symbol))
    return std::nullopt;
  const std::string Mangled = Symbol.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()) || !D.isFunction())
    return std::nullopt;
  size_t N = 0;
  char *Buf = D.getFunctionParameters(nullptr, &N);
  if (!Buf)
    return std::nullopt;
  StringRef Params = StringRef(Buf).trim();
  std::optional<unsigned> Count;
  // "(int, Pipe<2, 3>, void (*)(int))": commas outside nested brackets.
  if (Params.consume_front("(") && Params.consume_back(")")) {
    Params = Params.trim();
    unsigned Commas = 0, Depth = 0;
    for (char C : Params) {
      if (C == '<' || C == '(' || C == '[')
        ++Depth;
      else if ((C == '>' || C == ')' || C == ']') && Depth)
        --Depth;
      else if (C == ',' && !Depth)
        ++Commas;
    }
    Count = Params.empty() || Params == "void" ? 0 : Commas + 1;
  }
  std::free(Buf);
  return Count;
}

} // namespace tmemcheck
