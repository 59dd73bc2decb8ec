//===- SourceFiles.cpp - Input files as the reports see them --------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/SourceFiles.h"

#include "llvm/Support/MemoryBuffer.h"

namespace tmemcheck {

unsigned SourceFiles::bufferOf(llvm::StringRef Path) {
  auto It = Ids.find(Path);
  if (It != Ids.end())
    return It->second;
  unsigned Id = 0;
  if (auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/true))
    Id = Buffers.AddNewSourceBuffer(std::move(*Buf), llvm::SMLoc());
  Ids[Path] = Id;
  return Id;
}

std::optional<llvm::StringRef> SourceFiles::text(llvm::StringRef Path) {
  unsigned Id = bufferOf(Path);
  if (!Id)
    return std::nullopt;
  return Buffers.getMemoryBuffer(Id)->getBuffer();
}

std::optional<LineColumn> SourceFiles::lineColumn(llvm::StringRef Path,
                                                  unsigned Offset) {
  unsigned Id = bufferOf(Path);
  if (!Id)
    return std::nullopt;
  llvm::StringRef Text = Buffers.getMemoryBuffer(Id)->getBuffer();
  if (Offset > Text.size())
    return std::nullopt;
  auto [Line, Column] = Buffers.getLineAndColumn(
      llvm::SMLoc::getFromPointer(Text.data() + Offset), Id);
  return LineColumn{Line, Column};
}

std::optional<unsigned> SourceFiles::offset(llvm::StringRef Path, unsigned Line,
                                            unsigned Column) {
  unsigned Id = bufferOf(Path);
  if (!Id || Line == 0 || Column == 0)
    return std::nullopt;
  llvm::SMLoc Loc = Buffers.FindLocForLineAndColumn(Id, Line, Column);
  if (!Loc.isValid())
    return std::nullopt;
  return Loc.getPointer() - Buffers.getMemoryBuffer(Id)->getBuffer().data();
}

} // namespace tmemcheck
