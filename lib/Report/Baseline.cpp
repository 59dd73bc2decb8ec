//===- Baseline.cpp - Accepted findings of legacy code --------------------===//
//
// Part of tmemcheck. Read with llvm::json's ObjectMapper, so a malformed
// file is reported with the JSON path of the bad value.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/Baseline.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <tuple>

using namespace llvm;

namespace tmemcheck {

namespace {

Error baselineError(StringRef Name, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           Name + ": invalid baseline: " + Message);
}

bool isSha256Hex(StringRef S) {
  return S.size() == 64 &&
         all_of(S, [](char C) { return isDigit(C) || (C >= 'a' && C <= 'f'); });
}

} // namespace

Expected<Baseline> Baseline::load(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(),
                             "cannot read baseline '" + Path +
                                 "': " + Buf.getError().message());
  return parse((*Buf)->getBuffer(), Path);
}

Expected<Baseline> Baseline::parse(StringRef Text, StringRef Name) {
  Expected<json::Value> Doc = json::parse(Text);
  if (!Doc)
    return baselineError(Name, "not JSON: " + toString(Doc.takeError()));

  json::Path::Root Root;
  json::Path P(Root);
  json::ObjectMapper O(*Doc, P);
  int64_t Version = 0;
  if (!O || !O.map("version", Version))
    return baselineError(Name, toString(Root.getError()));
  if (Version != BaselineFormatVersion)
    return baselineError(Name, formatv("version {0} is not supported (this "
                                       "tmemcheck reads version {1})",
                                       Version, BaselineFormatVersion));
  // A json::Path refers to its parent: each level is a named local.
  json::Path FindingsPath = P.field("findings");
  const json::Array *Findings = Doc->getAsObject()->getArray("findings");
  if (!Findings) {
    if (Doc->getAsObject()->get("findings"))
      FindingsPath.report("expected array");
    else
      FindingsPath.report("missing value");
    return baselineError(Name, toString(Root.getError()));
  }
  Baseline B;
  for (size_t I = 0; I < Findings->size(); ++I) {
    json::Path EntryPath = FindingsPath.index(I);
    json::ObjectMapper Entry((*Findings)[I], EntryPath);
    std::string Fingerprint;
    if (!Entry || !Entry.map("fingerprint", Fingerprint))
      return baselineError(Name, toString(Root.getError()));
    if (!isSha256Hex(Fingerprint)) {
      json::Path FingerprintPath = EntryPath.field("fingerprint");
      FingerprintPath.report(
          "expected 64 lowercase hex digits (a SHA-256 digest)");
      return baselineError(Name, toString(Root.getError()));
    }
    B.Fingerprints.insert(Fingerprint);
  }
  return B;
}

Error Baseline::write(StringRef Path, std::vector<FindingIdentity> Entries) {
  llvm::sort(Entries, [](const FindingIdentity &A, const FindingIdentity &B) {
    return std::tie(A.File, A.Kernel, A.CheckName, A.Statement, A.Occurrence) <
           std::tie(B.File, B.Kernel, B.CheckName, B.Statement, B.Occurrence);
  });
  json::Array Findings;
  for (const FindingIdentity &E : Entries)
    Findings.push_back(json::Object{{"fingerprint", E.Fingerprint},
                                    {"check", E.CheckName},
                                    {"file", E.File},
                                    {"kernel", E.Kernel},
                                    {"statement", E.Statement},
                                    {"occurrence", E.Occurrence}});
  json::Value Doc = json::Object{{"version", BaselineFormatVersion},
                                 {"tool", "tmemcheck"},
                                 {"findings", std::move(Findings)}};
  if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
        OS << formatv("{0:2}", Doc) << '\n';
        return Error::success();
      }))
    return createStringError(inconvertibleErrorCode(),
                             "cannot write baseline '" + Path + "': " +
                                 errorToErrorCode(std::move(E)).message());
  return Error::success();
}

Expected<std::unique_ptr<BaselineFilter>>
BaselineFilter::create(StringRef ReadPath, StringRef WritePath) {
  std::unique_ptr<BaselineFilter> F(new BaselineFilter());
  if (!ReadPath.empty()) {
    Expected<Baseline> B = Baseline::load(ReadPath);
    if (!B)
      return B.takeError();
    F->Read = std::move(*B);
    F->Reader.emplace(sys::path::parent_path(ReadPath));
  }
  if (!WritePath.empty()) {
    F->WritePath = WritePath.str();
    F->Writer.emplace(sys::path::parent_path(WritePath));
  }
  return std::move(F);
}

bool BaselineFilter::isSuppressed(const Finding &F) {
  if (Writer)
    Written.push_back(Writer->identify(F));
  if (!Reader || !Read->contains(Reader->identify(F).Fingerprint))
    return false;
  ++Suppressed;
  return true;
}

Error BaselineFilter::finish() {
  if (WritePath.empty())
    return Error::success();
  return Baseline::write(WritePath, std::move(Written));
}

} // namespace tmemcheck
