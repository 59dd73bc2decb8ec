//===- SarifMerge.cpp - One SARIF log from the logs of shards -------------===//
//
// Part of tmemcheck. Works on llvm::json values: the logs are tmemcheck's
// own (MachineReports.cpp) or any SARIF 2.1.0 producer's with the same
// driver name; fields the merge does not know are kept as they are.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/SarifMerge.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tmemcheck {

namespace {

constexpr StringRef RuleNoun = "a rule of the run's driver";
constexpr StringRef ArtifactNoun = "an artifact of the run";

Error invalid(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// The identity of an artifact: its location's uri and uriBaseId. Empty
/// for an artifact without a uri (never merged with another).
std::string artifactKey(const json::Object &Artifact) {
  const json::Object *Loc = Artifact.getObject("location");
  if (!Loc)
    return "";
  std::optional<StringRef> Uri = Loc->getString("uri");
  if (!Uri)
    return "";
  return (*Uri + StringRef("\0", 1) + Loc->getString("uriBaseId").value_or(""))
      .str();
}

/// Renumbers `index` in \p Ref (an artifactLocation) through \p Map.
Error remapArtifactIndex(json::Object &Ref, ArrayRef<unsigned> Map,
                         const Twine &Where) {
  json::Value *Index = Ref.get("index");
  if (!Index)
    return Error::success();
  std::optional<int64_t> I = Index->getAsInteger();
  if (!I || *I < 0 || static_cast<uint64_t>(*I) >= Map.size())
    return invalid(Where + ": artifact index " + formatv("{0}", *Index) +
                   " does not name " + ArtifactNoun);
  *Index = static_cast<int64_t>(Map[*I]);
  return Error::success();
}

/// Renumbers every artifact reference (`artifactLocation`,
/// `analysisTarget`) anywhere below \p V.
Error remapArtifactReferences(json::Value &V, ArrayRef<unsigned> Map,
                              const Twine &Where) {
  if (json::Array *A = V.getAsArray()) {
    for (json::Value &E : *A)
      if (Error Err = remapArtifactReferences(E, Map, Where))
        return Err;
    return Error::success();
  }
  json::Object *O = V.getAsObject();
  if (!O)
    return Error::success();
  for (auto &[Key, Child] : *O) {
    if (Key == "artifactLocation" || Key == "analysisTarget")
      if (json::Object *Ref = Child.getAsObject())
        if (Error Err = remapArtifactIndex(*Ref, Map, Where))
          return Err;
    if (Error Err = remapArtifactReferences(Child, Map, Where))
      return Err;
  }
  return Error::success();
}

/// Renumbers the index field \p Field of \p O (`ruleIndex` of a result,
/// `index` of its `rule` reference, `parentIndex` of an artifact) through
/// \p Map; \p What says what the index names, for the error.
Error remapIndexField(json::Object &O, StringRef Field, ArrayRef<unsigned> Map,
                      const Twine &Where, StringRef What) {
  json::Value *Index = O.get(Field);
  if (!Index)
    return Error::success();
  std::optional<int64_t> I = Index->getAsInteger();
  if (!I || *I < 0 || static_cast<uint64_t>(*I) >= Map.size())
    return invalid(Where + "." + Field + " does not name " + What);
  *Index = static_cast<int64_t>(Map[*I]);
  return Error::success();
}

/// Base URIs that one log's uriBaseIds mean and the merged log's same ids
/// mean differently: id -> (this log's base, the merged log's base).
using Rebases = StringMap<std::pair<std::string, std::string>>;

/// Rewrites the artifact locations (objects with a uri and a uriBaseId)
/// below \p V whose uriBaseId \p R rebases: relative to the merged log's
/// base when the file is under it, else an absolute URI without a base
/// (two shards run with different --sarif-srcroot directories).
void rebaseUris(json::Value &V, const Rebases &R) {
  if (R.empty())
    return;
  if (json::Array *A = V.getAsArray()) {
    for (json::Value &E : *A)
      rebaseUris(E, R);
    return;
  }
  json::Object *O = V.getAsObject();
  if (!O)
    return;
  std::optional<StringRef> Base = O->getString("uriBaseId");
  std::optional<StringRef> Uri = O->getString("uri");
  if (Base && Uri)
    if (auto It = R.find(*Base); It != R.end()) {
      std::string Absolute = It->second.first + Uri->str();
      StringRef To = It->second.second;
      if (StringRef(Absolute).starts_with(To) && Absolute.size() > To.size()) {
        (*O)["uri"] = Absolute.substr(To.size());
      } else {
        (*O)["uri"] = Absolute;
        O->erase("uriBaseId");
      }
    }
  for (auto &KV : *O)
    rebaseUris(KV.second, R);
}

} // namespace

Error SarifMerger::add(StringRef Name, const json::Value &Log) {
  auto Fail = [&](const Twine &Message) {
    return invalid(Name + ": invalid SARIF log: " + Message);
  };
  const json::Object *L = Log.getAsObject();
  if (!L)
    return Fail("expected a JSON object");
  if (L->getString("version") != StringRef("2.1.0"))
    return Fail("\"version\" is not \"2.1.0\"");
  const json::Array *Runs = L->getArray("runs");
  if (!Runs)
    return Fail("no \"runs\" array");
  if (!Schema)
    if (const json::Value *S = L->get("$schema"))
      Schema = *S;

  for (size_t R = 0; R < Runs->size(); ++R) {
    std::string Where = formatv("runs[{0}]", R);
    const json::Object *Run = (*Runs)[R].getAsObject();
    if (!Run)
      return Fail(Where + " is not an object");
    const json::Object *Tool = Run->getObject("tool");
    const json::Object *D = Tool ? Tool->getObject("driver") : nullptr;
    std::optional<StringRef> ToolName = D ? D->getString("name") : std::nullopt;
    if (!ToolName)
      return Fail(Where + ".tool.driver.name is missing");
    if (!Driver) {
      Driver = *D;
      Driver->erase("rules");
    } else if (Driver->getString("name") != *ToolName) {
      return Fail(Where + " comes from '" + *ToolName +
                  "', the logs before it from '" + *Driver->getString("name") +
                  "'");
    }

    // uriBaseIds this run defines differently from the runs before it.
    Rebases Rebase;
    if (const json::Object *Bases = Run->getObject("originalUriBaseIds"))
      for (const auto &[Key, Base] : *Bases) {
        const json::Object *Mine = Base.getAsObject();
        const json::Object *Merged = OriginalUriBaseIds.getObject(Key);
        std::optional<StringRef> From =
            Mine ? Mine->getString("uri") : std::nullopt;
        std::optional<StringRef> To =
            Merged ? Merged->getString("uri") : std::nullopt;
        if (From && To && *From != *To && From->ends_with("/") &&
            To->ends_with("/"))
          Rebase[Key] = {From->str(), To->str()};
      }

    std::vector<unsigned> RuleMap;
    if (const json::Value *RulesV = D->get("rules")) {
      const json::Array *Local = RulesV->getAsArray();
      if (!Local)
        return Fail(Where + ".tool.driver.rules is not an array");
      for (size_t I = 0; I < Local->size(); ++I) {
        const json::Object *Rule = (*Local)[I].getAsObject();
        std::optional<StringRef> Id =
            Rule ? Rule->getString("id") : std::nullopt;
        if (!Id)
          return Fail(Where + formatv(".tool.driver.rules[{0}] has no id", I));
        auto [It, New] = RuleIndex.try_emplace(*Id, Rules.size());
        if (New)
          Rules.push_back(json::Object(*Rule));
        RuleMap.push_back(It->second);
      }
    }

    std::vector<unsigned> ArtifactMap;
    std::vector<unsigned> Added; // merged indices of artifacts new here
    if (const json::Value *ArtifactsV = Run->get("artifacts")) {
      const json::Array *Local = ArtifactsV->getAsArray();
      if (!Local)
        return Fail(Where + ".artifacts is not an array");
      for (size_t I = 0; I < Local->size(); ++I) {
        const json::Object *A = (*Local)[I].getAsObject();
        if (!A)
          return Fail(Where + formatv(".artifacts[{0}] is not an object", I));
        json::Value Copy = json::Object(*A);
        rebaseUris(Copy, Rebase);
        std::string Key = artifactKey(*Copy.getAsObject());
        unsigned Index = Artifacts.size();
        bool New = true;
        if (!Key.empty()) {
          auto [It, Inserted] = ArtifactIndex.try_emplace(Key, Index);
          Index = It->second;
          New = Inserted;
        }
        if (New) {
          Artifacts.push_back(std::move(Copy));
          Added.push_back(Index);
        }
        ArtifactMap.push_back(Index);
      }
      // Artifacts nest (parentIndex) within the run they came from.
      for (unsigned Index : Added)
        if (Error E = remapIndexField(*Artifacts[Index].getAsObject(),
                                      "parentIndex", ArtifactMap,
                                      Where + ".artifacts[]", ArtifactNoun))
          return Fail(toString(std::move(E)));
    }

    if (const json::Value *ResultsV = Run->get("results")) {
      const json::Array *Local = ResultsV->getAsArray();
      if (!Local)
        return Fail(Where + ".results is not an array");
      for (size_t I = 0; I < Local->size(); ++I) {
        std::string ResultWhere = Where + formatv(".results[{0}]", I).str();
        json::Value Result = (*Local)[I];
        json::Object *O = Result.getAsObject();
        if (!O)
          return Fail(ResultWhere + " is not an object");
        if (Error E = remapIndexField(*O, "ruleIndex", RuleMap, ResultWhere,
                                      RuleNoun))
          return Fail(toString(std::move(E)));
        if (json::Object *RuleRef = O->getObject("rule"))
          if (Error E = remapIndexField(*RuleRef, "index", RuleMap,
                                        ResultWhere + ".rule", RuleNoun))
            return Fail(toString(std::move(E)));
        rebaseUris(Result, Rebase);
        if (Error E = remapArtifactReferences(Result, ArtifactMap, ResultWhere))
          return Fail(toString(std::move(E)));
        Results.push_back(std::move(Result));
      }
    }

    if (!ColumnKind)
      if (const json::Value *CK = Run->get("columnKind"))
        ColumnKind = *CK;
    if (const json::Object *Bases = Run->getObject("originalUriBaseIds"))
      for (const auto &[Key, Base] : *Bases)
        OriginalUriBaseIds.try_emplace(Key, Base);
    if (const json::Array *Inv = Run->getArray("invocations"))
      for (const json::Value &I : *Inv) {
        json::Value Copy = I;
        rebaseUris(Copy, Rebase);
        Invocations.push_back(std::move(Copy));
      }
  }
  return Error::success();
}

Expected<json::Value> SarifMerger::result() const {
  if (!Driver)
    return invalid("no SARIF run to merge");
  json::Object D = *Driver;
  D["rules"] = json::Array(Rules);
  json::Object Run{{"tool", json::Object{{"driver", std::move(D)}}},
                   {"results", json::Array(Results)}};
  if (!Artifacts.empty())
    Run["artifacts"] = json::Array(Artifacts);
  if (ColumnKind)
    Run["columnKind"] = *ColumnKind;
  if (!OriginalUriBaseIds.empty())
    Run["originalUriBaseIds"] = json::Object(OriginalUriBaseIds);
  if (!Invocations.empty())
    Run["invocations"] = json::Array(Invocations);
  return json::Value(json::Object{
      {"$schema", Schema ? *Schema
                         : json::Value("https://json.schemastore.org/"
                                       "sarif-2.1.0.json")},
      {"version", "2.1.0"},
      {"runs", json::Array{std::move(Run)}}});
}

Error mergeSarifFiles(ArrayRef<std::string> Inputs, StringRef Output) {
  if (Inputs.empty())
    return invalid("no SARIF files to merge");
  SarifMerger Merger;
  for (const std::string &Input : Inputs) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Input);
    if (!Buf)
      return invalid("cannot read SARIF log '" + Input +
                     "': " + Buf.getError().message());
    Expected<json::Value> Log = json::parse((*Buf)->getBuffer());
    if (!Log)
      return invalid(Input + ": invalid SARIF log: not JSON: " +
                     toString(Log.takeError()));
    if (Error E = Merger.add(Input, *Log))
      return E;
  }
  Expected<json::Value> Merged = Merger.result();
  if (!Merged)
    return Merged.takeError();
  if (Error E = writeToOutput(Output, [&](raw_ostream &OS) {
        OS << formatv("{0:2}", *Merged) << '\n';
        return Error::success();
      }))
    return invalid("cannot write '" + Output +
                   "': " + errorToErrorCode(std::move(E)).message());
  return Error::success();
}

} // namespace tmemcheck
