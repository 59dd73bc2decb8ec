//===- ResultCache.cpp - Results of unchanged files, kept across runs -----===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Driver/ResultCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

#include <set>

namespace json = llvm::json;
namespace fs = llvm::sys::fs;

namespace tmemcheck {

namespace {

/// Bumped whenever the entry's layout or the outcome's JSON form changes.
constexpr int64_t EntryFormat = 2;

std::string hashText(llvm::ArrayRef<uint8_t> Bytes) {
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(Bytes);
  return fmt::format("{:016x}{:016x}", H.high64, H.low64);
}

std::string hashText(llvm::StringRef Text) {
  return hashText(llvm::arrayRefFromStringRef(Text));
}

/// The hash of a file's contents, or nothing when it cannot be read.
std::optional<std::string> hashFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return hashText((*Buf)->getBuffer());
}

int64_t nanoseconds(llvm::sys::TimePoint<> T) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             T.time_since_epoch())
      .count();
}

/// One file an outcome was computed from, as it was then.
struct Input {
  std::string Path;
  uint64_t Size = 0;
  int64_t ModifiedNs = 0;
  std::string Hash;
};

/// The inputs as {"dirs": [...], "files": [[dir, name, size, mtime,
/// hash], ...]}: a CUTLASS file reads over 1600 headers from a few dozen
/// directories, and naming each directory once halves the entry.
json::Value inputsToJson(const std::vector<Input> &Inputs) {
  json::Array Dirs, Files;
  llvm::StringMap<int64_t> DirIndex;
  for (const Input &I : Inputs) {
    llvm::StringRef Dir = llvm::sys::path::parent_path(I.Path);
    auto [It, New] = DirIndex.try_emplace(Dir, int64_t(Dirs.size()));
    if (New)
      Dirs.push_back(Dir.str());
    Files.push_back(json::Array{It->second,
                                llvm::sys::path::filename(I.Path).str(), I.Size,
                                I.ModifiedNs, I.Hash});
  }
  return json::Object{{"dirs", std::move(Dirs)}, {"files", std::move(Files)}};
}

bool inputsFromJson(const json::Value &V, std::vector<Input> &Inputs) {
  const json::Object *O = V.getAsObject();
  const json::Array *Dirs = O ? O->getArray("dirs") : nullptr;
  const json::Array *Files = O ? O->getArray("files") : nullptr;
  if (!Dirs || !Files)
    return false;
  for (const json::Value &F : *Files) {
    const json::Array *A = F.getAsArray();
    if (!A || A->size() != 5)
      return false;
    std::optional<int64_t> Dir = (*A)[0].getAsInteger();
    std::optional<llvm::StringRef> Name = (*A)[1].getAsString();
    std::optional<int64_t> Size = (*A)[2].getAsInteger();
    std::optional<int64_t> Modified = (*A)[3].getAsInteger();
    std::optional<llvm::StringRef> Hash = (*A)[4].getAsString();
    if (!Dir || *Dir < 0 || size_t(*Dir) >= Dirs->size() || !Name || !Size ||
        *Size < 0 || !Modified || !Hash)
      return false;
    std::optional<llvm::StringRef> DirName = (*Dirs)[*Dir].getAsString();
    if (!DirName)
      return false;
    llvm::SmallString<256> Path(*DirName);
    llvm::sys::path::append(Path, *Name);
    Inputs.push_back(
        {std::string(Path), uint64_t(*Size), *Modified, Hash->str()});
  }
  return true;
}

/// Whether \p I still has its contents. \p Refreshed is set when it does
/// but its size or time changed (the entry should record the new ones).
bool unchanged(Input &I, bool &Refreshed) {
  fs::file_status S;
  if (fs::status(I.Path, S) || !fs::is_regular_file(S))
    return false;
  int64_t Modified = nanoseconds(S.getLastModificationTime());
  if (S.getSize() == I.Size && Modified == I.ModifiedNs)
    return true;
  std::optional<std::string> Hash = hashFile(I.Path);
  if (!Hash || *Hash != I.Hash)
    return false;
  I.Size = S.getSize();
  I.ModifiedNs = Modified;
  Refreshed = true;
  return true;
}

llvm::Error writeEntry(llvm::StringRef Path, llvm::StringRef Key,
                       const std::vector<Input> &Inputs, json::Value Outcome) {
  json::Object Entry{{"format", EntryFormat},
                     {"key", Key},
                     {"inputs", inputsToJson(Inputs)},
                     {"outcome", std::move(Outcome)}};
  // writeToOutput writes a temporary file and renames it into place.
  return llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << json::Value(std::move(Entry));
    return llvm::Error::success();
  });
}

} // namespace

llvm::Expected<std::unique_ptr<ResultCache>>
ResultCache::open(llvm::StringRef Dir) {
  llvm::SmallString<256> Abs(Dir);
  if (std::error_code EC = fs::make_absolute(Abs))
    return llvm::createStringError(EC, "cannot resolve the cache directory '" +
                                           Dir + "': " + EC.message());
  if (std::error_code EC = fs::create_directories(Abs))
    return llvm::createStringError(EC, "cannot create the cache directory '" +
                                           Abs + "': " + EC.message());
  if (!fs::is_directory(Abs))
    return llvm::createStringError(
        std::make_error_code(std::errc::not_a_directory),
        "the cache directory '" + Abs + "' is not a directory");
  if (std::error_code EC = fs::access(Abs, fs::AccessMode::Write))
    return llvm::createStringError(EC, "cannot write to the cache directory '" +
                                           Abs + "': " + EC.message());
  return std::unique_ptr<ResultCache>(new ResultCache(std::string(Abs)));
}

std::string ResultCache::entryPath(llvm::StringRef Key) const {
  std::string Hash = hashText(Key);
  llvm::SmallString<256> P(Dir);
  // Two levels, so that no directory holds more than a few thousand.
  llvm::sys::path::append(P, Hash.substr(0, 2), Hash.substr(2) + ".json");
  return std::string(P);
}

std::optional<FileOutcome> ResultCache::lookup(llvm::StringRef Key) {
  const std::string Path = entryPath(Key);
  auto Miss = [&]() -> std::optional<FileOutcome> {
    ++Misses;
    return std::nullopt;
  };
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return Miss();
  llvm::Expected<json::Value> Entry = json::parse((*Buf)->getBuffer());
  if (!Entry) {
    llvm::consumeError(Entry.takeError());
    return Miss();
  }
  const json::Object *Obj = Entry->getAsObject();
  if (!Obj || Obj->getInteger("format") != EntryFormat ||
      Obj->getString("key") != Key)
    return Miss();
  std::vector<Input> Inputs;
  const json::Value *InputsValue = Obj->get("inputs");
  const json::Value *OutcomeValue = Obj->get("outcome");
  if (!InputsValue || !OutcomeValue || !inputsFromJson(*InputsValue, Inputs))
    return Miss();
  bool Refreshed = false;
  for (Input &I : Inputs)
    if (!unchanged(I, Refreshed))
      return Miss();
  FileOutcome O;
  if (!outcomeFromJson(*OutcomeValue, O))
    return Miss();
  // Touched but unchanged files: record their new times, so that the next
  // run does not hash them again. A failure only costs that hashing.
  if (Refreshed)
    llvm::consumeError(writeEntry(Path, Key, Inputs, *OutcomeValue));
  O.FromCache = true;
  ++Hits;
  return O;
}

llvm::Error ResultCache::store(llvm::StringRef Key, const FileOutcome &O,
                               llvm::ArrayRef<std::string> Paths,
                               llvm::sys::TimePoint<> AnalysisStart) {
  std::vector<Input> Inputs;
  std::set<std::string> Seen;
  const int64_t Start = nanoseconds(AnalysisStart);
  for (const std::string &P : Paths) {
    if (!Seen.insert(P).second)
      continue;
    fs::file_status S;
    if (fs::status(P, S) || !fs::is_regular_file(S))
      return llvm::Error::success(); // not a file on disk: not cacheable
    Input I{P, S.getSize(), nanoseconds(S.getLastModificationTime()), ""};
    if (I.ModifiedNs > Start)
      return llvm::Error::success(); // changed while it was analysed
    std::optional<std::string> Hash = hashFile(P);
    if (!Hash)
      return llvm::Error::success();
    I.Hash = std::move(*Hash);
    Inputs.push_back(std::move(I));
  }
  llvm::sort(Inputs,
             [](const Input &A, const Input &B) { return A.Path < B.Path; });
  const std::string Path = entryPath(Key);
  if (std::error_code EC =
          fs::create_directories(llvm::sys::path::parent_path(Path)))
    return llvm::createStringError(EC, "cannot create '" +
                                           llvm::sys::path::parent_path(Path) +
                                           "': " + EC.message());
  return writeEntry(Path, Key, Inputs, outcomeToJson(O));
}

std::string ResultCache::toolIdentity(llvm::StringRef Version,
                                      const char *Argv0, void *MainAddr) {
  std::string Exe = fs::getMainExecutable(Argv0, MainAddr);
  fs::file_status S;
  if (Exe.empty() || fs::status(Exe, S))
    return "";
  return fmt::format("tmemcheck {} {} {} {}", Version.str(), Exe, S.getSize(),
                     nanoseconds(S.getLastModificationTime()));
}

} // namespace tmemcheck
