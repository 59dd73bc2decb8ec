//===- Config.cpp - .tmemcheck.yaml ---------------------------------------===//
//
// Part of tmemcheck. Read with LLVM's YAML I/O.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Config/Config.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tmemcheck {

namespace {

/// YAML is printable Unicode text (YAML 1.2, c-printable). LLVM's reader
/// passes other bytes through inside strings, and decodes some malformed
/// escapes (`"\U!U..."`) into them, but its writer cannot render them
/// faithfully: --dump-config would print a different config. Such a file or
/// value is rejected. Returns the offset of the first bad character and why.
std::optional<std::pair<size_t, const char *>>
unprintableText(llvm::StringRef Text) {
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(Text.data());
  const llvm::UTF8 *End = Begin + Text.size();
  const llvm::UTF8 *Pos = Begin;
  while (Pos < End) {
    const llvm::UTF8 *Start = Pos;
    llvm::UTF32 C = 0;
    if (llvm::convertUTF8Sequence(&Pos, End, &C, llvm::strictConversion) !=
        llvm::conversionOK)
      return std::make_pair(size_t(Start - Begin), "not valid UTF-8 text");
    if (!(C == 0x9 || C == 0xA || C == 0xD || (C >= 0x20 && C <= 0x7E) ||
          C == 0x85 || (C >= 0xA0 && C <= 0xD7FF) ||
          (C >= 0xE000 && C <= 0xFFFD) || C >= 0x10000))
      return std::make_pair(size_t(Start - Begin),
                            "control character in the text");
  }
  return std::nullopt;
}

/// "line:col: why" of the first unprintable character of a file.
std::optional<std::string> unprintableFile(llvm::StringRef Text) {
  auto Bad = unprintableText(Text);
  if (!Bad)
    return std::nullopt;
  llvm::StringRef Before = Text.take_front(Bad->first);
  size_t LineStart = Before.rfind('\n');
  size_t Column = LineStart == llvm::StringRef::npos
                      ? Before.size()
                      : Before.size() - LineStart - 1;
  return (llvm::Twine(Before.count('\n') + 1) + ":" + llvm::Twine(Column + 1) +
          ": " + Bad->second)
      .str();
}

/// A .tmemcheck.yaml is a flat mapping; no real one nests more than this.
constexpr unsigned MaxConfigNesting = 64;

bool nestedTooDeeply(llvm::yaml::Node *N, unsigned Depth, llvm::SMRange &At) {
  if (!N)
    return false;
  if (Depth > MaxConfigNesting) {
    At = N->getSourceRange();
    return true;
  }
  if (auto *M = llvm::dyn_cast<llvm::yaml::MappingNode>(N)) {
    for (llvm::yaml::KeyValueNode &KV : *M)
      if (nestedTooDeeply(KV.getKey(), Depth + 1, At) ||
          nestedTooDeeply(KV.getValue(), Depth + 1, At))
        return true;
  } else if (auto *S = llvm::dyn_cast<llvm::yaml::SequenceNode>(N)) {
    for (llvm::yaml::Node &Child : *S)
      if (nestedTooDeeply(&Child, Depth + 1, At))
        return true;
  }
  return false;
}

/// LLVM's YAML I/O builds its node tree recursively, one stack frame per
/// nesting level, so a file nested tens of thousands of levels deep
/// (`[[[[…`) would overflow the stack. The nesting is measured first with
/// the lazy YAML parser, which parses a collection only as far as it is
/// walked, and the walk stops at MaxConfigNesting. Syntax errors are left
/// for YAML I/O to report.
std::optional<std::string> tooDeeplyNestedFile(llvm::StringRef Text) {
  llvm::SourceMgr SM;
  SM.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  llvm::yaml::Stream Stream(Text, SM, /*ShowColors=*/false);
  llvm::SMRange At;
  for (llvm::yaml::Document &Doc : Stream)
    if (nestedTooDeeply(Doc.getRoot(), 0, At)) {
      auto [Line, Column] = SM.getLineAndColumn(At.Start);
      return (llvm::Twine(Line) + ":" + llvm::Twine(Column) +
              ": nested more than " + llvm::Twine(MaxConfigNesting) +
              " levels deep (a .tmemcheck.yaml is a flat list of settings)")
          .str();
    }
  return std::nullopt;
}

/// A number of seconds in the file. LLVM's YAML writer prints doubles with
/// six significant digits, so --dump-config would show 0.1234567 as
/// 0.123457; this one prints the shortest text that reads back exactly.
struct Seconds {
  double Value = 0;
};

} // namespace
} // namespace tmemcheck

namespace llvm::yaml {
template <> struct ScalarTraits<tmemcheck::Seconds> {
  static void output(const tmemcheck::Seconds &S, void *, raw_ostream &OS) {
    char Buf[64];
    for (int Digits = 1; Digits <= 17; ++Digits) {
      snprintf(Buf, sizeof(Buf), "%.*g", Digits, S.Value);
      if (std::strtod(Buf, nullptr) == S.Value)
        break;
    }
    OS << Buf;
  }
  static StringRef input(StringRef Scalar, void *, tmemcheck::Seconds &S) {
    if (!to_float(Scalar, S.Value))
      return "invalid number";
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};
} // namespace llvm::yaml

LLVM_YAML_IS_SEQUENCE_VECTOR(tmemcheck::UserApiModel)
LLVM_YAML_IS_SEQUENCE_VECTOR(tmemcheck::TemplateInstantiation)

namespace llvm::yaml {
/// `CheckSeverity:` maps check names to severities.
template <> struct CustomMappingTraits<std::map<std::string, std::string>> {
  static void inputOne(IO &IO, StringRef Key,
                       std::map<std::string, std::string> &M) {
    IO.mapRequired(Key.str().c_str(), M[Key.str()]);
  }
  static void output(IO &IO, std::map<std::string, std::string> &M) {
    for (auto &[Key, Value] : M)
      IO.mapRequired(Key.c_str(), Value);
  }
};

/// True when reading a document that already failed to parse: a
/// validate() must then say nothing, because Input::setError needs a
/// current node that a broken document does not have (`@x: [` crashed).
inline bool parseFailed(IO &IO) {
  return !IO.outputting() && static_cast<Input &>(IO).error();
}

template <> struct MappingTraits<tmemcheck::CompatSettings> {
  static void mapping(IO &IO, tmemcheck::CompatSettings &C) {
    IO.mapOptional("Profile", C.Profile);
    IO.mapOptional("GpuArch", C.GpuArch);
    IO.mapOptional("Defines", C.Defines);
    IO.mapOptional("IncludeDirs", C.IncludeDirs);
    IO.mapOptional("ExtraArgs", C.ExtraArgs);
    IO.mapOptional("ExtraArgsBefore", C.ExtraArgsBefore);
    IO.mapOptional("RemovedArgs", C.RemovedArgs);
  }
  static std::string validate(IO &IO, tmemcheck::CompatSettings &C) {
    if (parseFailed(IO))
      return "";
    if (C.Profile && *C.Profile != "nvcc" && *C.Profile != "clang")
      return "Compat: Profile must be 'nvcc' or 'clang'";
    if (C.GpuArch && !llvm::StringRef(*C.GpuArch).starts_with("sm_"))
      return "Compat: GpuArch must be a target such as sm_100a";
    for (const std::string &D : C.Defines) {
      llvm::StringRef Name = llvm::StringRef(D).split('=').first;
      if (Name.empty() || llvm::isDigit(Name.front()) ||
          !llvm::all_of(Name,
                        [](char Ch) { return llvm::isAlnum(Ch) || Ch == '_'; }))
        return "Compat: Defines: '" + D +
               "' is not NAME or NAME=VALUE with NAME an identifier";
    }
    for (const std::vector<std::string> *List :
         {&C.Defines, &C.IncludeDirs, &C.ExtraArgs, &C.ExtraArgsBefore,
          &C.RemovedArgs})
      for (const std::string &Item : *List)
        if (Item.empty() || tmemcheck::unprintableText(Item))
          return "Compat: an entry is empty or not printable text";
    if (C.GpuArch && tmemcheck::unprintableText(*C.GpuArch))
      return "Compat: GpuArch is not printable text";
    return "";
  }
};

template <> struct MappingTraits<tmemcheck::UserApiModel> {
  static void mapping(IO &IO, tmemcheck::UserApiModel &M) {
    IO.mapRequired("Function", M.Function);
    IO.mapRequired("Asm", M.Asm);
    IO.mapOptional("ElectsInside", M.ElectsInside, false);
  }
  static std::string validate(IO &IO, tmemcheck::UserApiModel &M) {
    if (parseFailed(IO))
      return "";
    for (const std::string *Text : {&M.Function, &M.Asm})
      if (auto Bad = tmemcheck::unprintableText(*Text))
        return std::string("ApiModels: ") + Bad->second;
    if (llvm::Expected<std::vector<tmemcheck::ModeledInstruction>> I =
            tmemcheck::decodeUserApiModel(M);
        !I)
      return llvm::toString(I.takeError());
    return "";
  }
};

/// `Roots:`; a struct of its own only for the YAML mapping.
struct RootsSection {
  std::optional<bool> DeviceFunctions;
  std::vector<std::string> Functions;
};

template <> struct MappingTraits<RootsSection> {
  static void mapping(IO &IO, RootsSection &R) {
    IO.mapOptional("DeviceFunctions", R.DeviceFunctions);
    IO.mapOptional("Functions", R.Functions);
  }
  static std::string validate(IO &IO, RootsSection &R) {
    if (parseFailed(IO))
      return "";
    for (const std::string &F : R.Functions)
      if (F.empty() || tmemcheck::unprintableText(F))
        return "Roots: Functions: an entry is empty or not printable text";
    return "";
  }
};

template <> struct MappingTraits<tmemcheck::TemplateInstantiation> {
  static void mapping(IO &IO, tmemcheck::TemplateInstantiation &T) {
    IO.mapRequired("Kernel", T.Kernel);
    IO.mapRequired("Args", T.Args);
  }
  static std::string validate(IO &IO, tmemcheck::TemplateInstantiation &T) {
    if (parseFailed(IO))
      return "";
    llvm::StringRef Name(T.Kernel);
    Name.consume_front("::");
    auto IsIdentifier = [](llvm::StringRef W) {
      return !W.empty() && !llvm::isDigit(W.front()) &&
             llvm::all_of(
                 W, [](char Ch) { return llvm::isAlnum(Ch) || Ch == '_'; });
    };
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    Name.split(Parts, "::");
    if (!llvm::all_of(Parts, IsIdentifier))
      return "Instantiate: Kernel: '" + T.Kernel +
             "' is not a qualified name (ns::kernel)";
    if (tmemcheck::unprintableText(T.Args) ||
        llvm::StringRef(T.Args).contains('\n') ||
        llvm::StringRef(T.Args).contains(';'))
      return "Instantiate: Args of '" + T.Kernel +
             "' must be template arguments on one line";
    return "";
  }
};

template <> struct MappingTraits<tmemcheck::Config> {
  static void mapping(IO &IO, tmemcheck::Config &C) {
    IO.mapOptional("Checks", C.Checks);
    IO.mapOptional("WarningsAsErrors", C.WarningsAsErrors);
    IO.mapOptional("MaxCallDepth", C.MaxCallDepth);
    IO.mapOptional("MaxEvents", C.MaxEvents);
    std::optional<tmemcheck::Seconds> Seconds;
    if (C.MaxKernelSeconds)
      Seconds = tmemcheck::Seconds{*C.MaxKernelSeconds};
    IO.mapOptional("MaxKernelSeconds", Seconds);
    if (Seconds)
      C.MaxKernelSeconds = Seconds->Value;
    IO.mapOptional("MaxLoopIterations", C.MaxLoopIterations);
    IO.mapOptional("CheckSeverity", C.CheckSeverity);
    IO.mapOptional("AssumeCtasPerSm", C.AssumeCtasPerSm);
    IO.mapOptional("RequireComplete", C.RequireComplete);
    IO.mapOptional("Compat", C.Compat);
    IO.mapOptional("ApiModels", C.ApiModels);
    std::optional<RootsSection> Roots;
    if (C.DeviceFunctionRoots || !C.RootFunctions.empty())
      Roots = RootsSection{C.DeviceFunctionRoots, C.RootFunctions};
    IO.mapOptional("Roots", Roots);
    if (Roots) {
      C.DeviceFunctionRoots = Roots->DeviceFunctions;
      C.RootFunctions = Roots->Functions;
    }
    IO.mapOptional("Instantiate", C.Instantiate);
    IO.mapOptional("CoverageCheck", C.CoverageCheck);
    IO.mapOptional("SarifSrcRoot", C.SarifSrcRoot);
    IO.mapOptional("SarifHelpBase", C.SarifHelpBase);
    IO.mapOptional("CacheDir", C.CacheDir);
  }
  static std::string validate(IO &IO, tmemcheck::Config &C) {
    if (parseFailed(IO))
      return "";
    for (auto [Key, Value] :
         {std::make_pair("Checks", &C.Checks),
          std::make_pair("WarningsAsErrors", &C.WarningsAsErrors)})
      if (auto Bad = tmemcheck::unprintableText(*Value))
        return std::string(Key) + ": " + Bad->second +
               " (after its escape sequences are decoded)";
    for (const auto &[Check, Level] : C.CheckSeverity) {
      // Check names are plain words (`tmem-missing-fence`); anything else
      // could not be written back as a YAML key (--dump-config).
      if (Check.empty() || !llvm::all_of(Check, [](char Ch) {
            return llvm::isAlnum(Ch) || Ch == '-' || Ch == '_' || Ch == '.';
          }))
        return "CheckSeverity: '" + Check +
               "' is not a check name (letters, digits, '-', '_', '.')";
      if (Level != "error" && Level != "warning")
        return "CheckSeverity: the severity of '" + Check +
               "' must be 'error' or 'warning'";
    }
    for (auto [Key, Value] : {std::make_pair("SarifSrcRoot", &C.SarifSrcRoot),
                              std::make_pair("SarifHelpBase", &C.SarifHelpBase),
                              std::make_pair("CacheDir", &C.CacheDir)})
      if (*Value &&
          (Value->value().empty() || tmemcheck::unprintableText(**Value) ||
           llvm::StringRef(**Value).contains('\n')))
        return std::string(Key) + " must be a non-empty value on one line";
    if (C.MaxKernelSeconds &&
        !(std::isfinite(*C.MaxKernelSeconds) && *C.MaxKernelSeconds >= 0))
      return "MaxKernelSeconds must be a number of seconds, 0 or more";
    return "";
  }
};
} // namespace llvm::yaml

namespace tmemcheck {

std::vector<std::string>
CompatSettings::parseArguments(llvm::StringRef ConfigDir) const {
  std::vector<std::string> Args;
  for (const std::string &D : Defines)
    Args.push_back("-D" + D);
  for (const std::string &Dir : IncludeDirs) {
    llvm::SmallString<256> Path(Dir);
    if (llvm::sys::path::is_relative(Path) && !ConfigDir.empty()) {
      llvm::SmallString<256> Base(ConfigDir);
      llvm::sys::path::append(Base, Path);
      Path = Base;
    }
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    Args.push_back("-I" + std::string(Path));
  }
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  return Args;
}

llvm::Expected<Config> parseConfig(llvm::StringRef Text, llvm::StringRef Path) {
  Config C;
  C.Path = Path.str();
  if (Text.trim().empty())
    return C;
  if (std::optional<std::string> Bad = unprintableFile(Text))
    return llvm::createStringError(std::errc::illegal_byte_sequence, "%s:%s",
                                   Path.str().c_str(), Bad->c_str());
  if (std::optional<std::string> Deep = tooDeeplyNestedFile(Text))
    return llvm::createStringError(std::errc::invalid_argument, "%s:%s",
                                   Path.str().c_str(), Deep->c_str());
  std::string Message;
  llvm::yaml::Input In(
      Text, /*Ctxt=*/nullptr,
      [](const llvm::SMDiagnostic &D, void *Ctx) {
        auto &M = *static_cast<std::string *>(Ctx);
        if (M.empty())
          M = (llvm::Twine(D.getLineNo()) + ":" +
               llvm::Twine(D.getColumnNo() + 1) + ": " + D.getMessage())
                  .str();
      },
      &Message);
  In >> C;
  if (In.error())
    return llvm::createStringError(
        In.error(), "%s:%s", Path.str().c_str(),
        (Message.empty() ? std::string(" invalid configuration") : Message)
            .c_str());
  C.Path = Path.str();
  return C;
}

std::string configToYaml(const Config &C) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::yaml::Output Y(OS);
  Config Copy = C;
  Y << Copy;
  return Out;
}

llvm::Expected<Config> ConfigFinder::load(llvm::StringRef Path) {
  auto It = Loaded.find(Path);
  if (It != Loaded.end())
    return It->second;
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "%s: %s", Path.str().c_str(),
                                   Buf.getError().message().c_str());
  llvm::Expected<Config> C = parseConfig((*Buf)->getBuffer(), Path);
  if (C)
    Loaded[Path] = *C;
  return C;
}

llvm::Expected<Config> ConfigFinder::forFile(llvm::StringRef File) {
  if (!Explicit.empty())
    return load(Explicit);
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  std::vector<std::string> Visited;
  std::string Found;
  for (llvm::StringRef D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    auto Cached = DirToConfigPath.find(D);
    if (Cached != DirToConfigPath.end()) {
      Found = Cached->second;
      break;
    }
    Visited.push_back(D.str());
    llvm::SmallString<256> Candidate(D);
    llvm::sys::path::append(Candidate, ".tmemcheck.yaml");
    if (llvm::sys::fs::exists(Candidate)) {
      Found = std::string(Candidate);
      break;
    }
  }
  for (const std::string &D : Visited)
    DirToConfigPath[D] = Found;
  if (Found.empty())
    return Config();
  return load(Found);
}

} // namespace tmemcheck
