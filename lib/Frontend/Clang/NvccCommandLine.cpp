//===- NvccCommandLine.cpp - Compile commands to device-parse flags ------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/NvccCommandLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;

namespace tmemcheck {

namespace {

enum class Arity { Flag, Value, List };

/// What an option does to the device-side parse.
enum class Action {
  Drop,             ///< nothing: code generation, linking, the build
  Keep,             ///< (host options) passed to Clang as spelled
  PreInclude,       ///< -include <file>
  Define,           ///< -D<def>
  Undefine,         ///< -U<def>
  IncludePath,      ///< -I<path>
  SystemInclude,    ///< -isystem <path>
  TemplateDepth,    ///< -ftemplate-depth=<n>
  Language,         ///< -x cu / -x cuda: the input is CUDA
  Std,              ///< -std=<std>
  RelaxedConstexpr, ///< nvcc's macro for it; Clang allows it already
  ExtendedLambda,   ///< nvcc's macro for it; Clang allows it already
  HostOptions,      ///< -Xcompiler: host options, read with the host table
  GpuArch,          ///< -arch, --cuda-gpu-arch, --offload-arch
  GpuCode,          ///< -code
  GenerateCode,     ///< -gencode arch=...,code=...
  OptionsFile,      ///< expanded before the translation
};

/// One option of nvcc (NvccOptions.def).
struct NvccOption {
  StringRef Long;
  StringRef Short;
  Arity Kind;
  Action Act;
};

const NvccOption NvccOptions[] = {
#define NVCC_OPTION(Long, Short, Kind, Act)                                    \
  {Long, Short, Arity::Kind, Action::Act},
#include "NvccOptions.def"
};

/// How a host (gcc/clang) option takes its value.
enum class HostForm {
  Flag,             ///< exactly the spelling, no value
  Joined,           ///< the spelling followed by the value
  Separate,         ///< the spelling, the value in the next argument
  JoinedOrSeparate, ///< either
  Family,           ///< every option starting with the spelling, no value
};

/// One option (or family of options) of the host compilers.
struct HostOption {
  StringRef Spelling;
  HostForm Form;
  Action Act;
};

/// The host compiler's options that matter to the parse, then the families
/// of those that do not. The first matching entry wins.
const HostOption HostOptions[] = {
    {"--", HostForm::Flag, Action::Drop},
    {"-include-pch", HostForm::Separate, Action::Drop},
    {"-include", HostForm::JoinedOrSeparate, Action::PreInclude},
    {"-imacros", HostForm::JoinedOrSeparate, Action::Keep},
    {"-isystem", HostForm::JoinedOrSeparate, Action::SystemInclude},
    {"-iquote", HostForm::JoinedOrSeparate, Action::Keep},
    {"-idirafter", HostForm::JoinedOrSeparate, Action::Keep},
    {"-isysroot", HostForm::JoinedOrSeparate, Action::Keep},
    {"-iprefix", HostForm::JoinedOrSeparate, Action::Keep},
    {"-iwithprefix", HostForm::JoinedOrSeparate, Action::Keep},
    {"-iwithprefixbefore", HostForm::JoinedOrSeparate, Action::Keep},
    {"--sysroot=", HostForm::Joined, Action::Keep},
    {"--sysroot", HostForm::Separate, Action::Keep},
    {"--gcc-toolchain=", HostForm::Joined, Action::Keep},
    {"--gcc-install-dir=", HostForm::Joined, Action::Keep},
    {"-nostdinc", HostForm::Flag, Action::Keep},
    {"-nostdinc++", HostForm::Flag, Action::Keep},
    {"-nostdlibinc", HostForm::Flag, Action::Keep},
    {"-nobuiltininc", HostForm::Flag, Action::Keep},
    {"-I", HostForm::JoinedOrSeparate, Action::IncludePath},
    {"-D", HostForm::JoinedOrSeparate, Action::Define},
    {"-U", HostForm::JoinedOrSeparate, Action::Undefine},
    {"-std=", HostForm::Joined, Action::Std},
    {"--std=", HostForm::Joined, Action::Std},
    {"-stdlib=", HostForm::Joined, Action::Keep},
    {"-x", HostForm::JoinedOrSeparate, Action::Language},
    {"--cuda-gpu-arch=", HostForm::Joined, Action::GpuArch},
    {"--offload-arch=", HostForm::Joined, Action::GpuArch},
    // Language options that change what parses or what is predefined.
    {"-fexceptions", HostForm::Flag, Action::Keep},
    {"-fno-exceptions", HostForm::Flag, Action::Keep},
    {"-fcxx-exceptions", HostForm::Flag, Action::Keep},
    {"-fno-cxx-exceptions", HostForm::Flag, Action::Keep},
    {"-frtti", HostForm::Flag, Action::Keep},
    {"-fno-rtti", HostForm::Flag, Action::Keep},
    {"-fms-extensions", HostForm::Flag, Action::Keep},
    {"-fno-ms-extensions", HostForm::Flag, Action::Keep},
    {"-fchar8_t", HostForm::Flag, Action::Keep},
    {"-fno-char8_t", HostForm::Flag, Action::Keep},
    {"-fsigned-char", HostForm::Flag, Action::Keep},
    {"-funsigned-char", HostForm::Flag, Action::Keep},
    {"-fno-signed-char", HostForm::Flag, Action::Keep},
    {"-fshort-wchar", HostForm::Flag, Action::Keep},
    {"-fgnu-keywords", HostForm::Flag, Action::Keep},
    {"-fno-gnu-keywords", HostForm::Flag, Action::Keep},
    {"-fno-operator-names", HostForm::Flag, Action::Keep},
    {"-fdeclspec", HostForm::Flag, Action::Keep},
    {"-ffreestanding", HostForm::Flag, Action::Keep},
    {"-fno-builtin", HostForm::Flag, Action::Keep},
    {"-ffast-math", HostForm::Flag, Action::Keep},
    {"-fno-fast-math", HostForm::Flag, Action::Keep},
    {"-fsized-deallocation", HostForm::Flag, Action::Keep},
    {"-faligned-new", HostForm::Flag, Action::Keep},
    {"-fno-aligned-new", HostForm::Flag, Action::Keep},
    {"-fgnuc-version=", HostForm::Joined, Action::Keep},
    {"-ftemplate-depth=", HostForm::Joined, Action::Keep},
    {"-fconstexpr-depth=", HostForm::Joined, Action::Keep},
    {"-fconstexpr-steps=", HostForm::Joined, Action::Keep},
    {"-fbracket-depth=", HostForm::Joined, Action::Keep},
    // Options that take a value and do not matter.
    {"-o", HostForm::JoinedOrSeparate, Action::Drop},
    {"-MF", HostForm::JoinedOrSeparate, Action::Drop},
    {"-MT", HostForm::JoinedOrSeparate, Action::Drop},
    {"-MQ", HostForm::JoinedOrSeparate, Action::Drop},
    {"-MJ", HostForm::JoinedOrSeparate, Action::Drop},
    {"-L", HostForm::JoinedOrSeparate, Action::Drop},
    {"-Xclang", HostForm::Separate, Action::Drop},
    {"-Xlinker", HostForm::Separate, Action::Drop},
    {"-Xassembler", HostForm::Separate, Action::Drop},
    {"-Xpreprocessor", HostForm::Separate, Action::Drop},
    {"-target", HostForm::Separate, Action::Drop},
    {"--target=", HostForm::Joined, Action::Drop},
    {"-resource-dir=", HostForm::Joined, Action::Drop},
    {"-resource-dir", HostForm::JoinedOrSeparate, Action::Drop},
    {"--cuda-path=", HostForm::Joined, Action::Drop},
    {"--cuda-path", HostForm::Separate, Action::Drop},
    {"--driver-mode=", HostForm::Joined, Action::Drop},
    {"-Werror", HostForm::Flag, Action::Drop},
    // Families: warnings, optimisation, debug info, machine, code
    // generation, linking, dependency files, the driver's modes.
    {"-W", HostForm::Family, Action::Drop},
    {"-w", HostForm::Flag, Action::Drop},
    {"-O", HostForm::Family, Action::Drop},
    {"-g", HostForm::Family, Action::Drop},
    {"-m", HostForm::Family, Action::Drop},
    {"-f", HostForm::Family, Action::Drop},
    {"-l", HostForm::Family, Action::Drop},
    {"-M", HostForm::Family, Action::Drop},
    {"-pedantic", HostForm::Family, Action::Drop},
    {"-save-temps", HostForm::Family, Action::Drop},
    {"--cuda-", HostForm::Family, Action::Drop},
    {"--no-cuda-", HostForm::Family, Action::Drop},
    {"--offload-", HostForm::Family, Action::Drop},
    {"-nocuda", HostForm::Family, Action::Drop},
    {"-pthread", HostForm::Flag, Action::Drop},
    {"-pipe", HostForm::Flag, Action::Drop},
    {"-pie", HostForm::Flag, Action::Drop},
    {"-no-pie", HostForm::Flag, Action::Drop},
    {"-rdynamic", HostForm::Flag, Action::Drop},
    {"-static", HostForm::Family, Action::Drop},
    {"-shared", HostForm::Family, Action::Drop},
    {"-nostdlib", HostForm::Flag, Action::Drop},
    {"-nodefaultlibs", HostForm::Flag, Action::Drop},
    {"-ansi", HostForm::Flag, Action::Drop},
    {"-c", HostForm::Flag, Action::Drop},
    {"-S", HostForm::Flag, Action::Drop},
    {"-E", HostForm::Flag, Action::Drop},
    {"-P", HostForm::Flag, Action::Drop},
    {"-C", HostForm::Flag, Action::Drop},
    {"-H", HostForm::Flag, Action::Drop},
    {"-s", HostForm::Flag, Action::Drop},
    {"-v", HostForm::Flag, Action::Drop},
    {"-Qunused-arguments", HostForm::Flag, Action::Drop},
};

/// Compiler launchers that run the real compiler named by their first
/// argument.
bool isLauncher(StringRef Argv0) {
  StringRef Name = sys::path::stem(Argv0);
  return StringSwitch<bool>(Name)
      .Cases({"ccache", "sccache", "distcc", "icecc", "buildcache"}, true)
      .Default(false);
}

/// nvcc's comma-separated lists; `\,` is a comma inside an item.
SmallVector<std::string, 2> splitList(StringRef V) {
  SmallVector<std::string, 2> Items(1);
  for (size_t I = 0; I < V.size(); ++I) {
    if (V[I] == '\\' && I + 1 < V.size() && V[I + 1] == ',') {
      Items.back() += ',';
      ++I;
    } else if (V[I] == ',') {
      Items.emplace_back();
    } else {
      Items.back() += V[I];
    }
  }
  erase_if(Items, [](const std::string &S) { return S.empty(); });
  return Items;
}

/// Reads the command with its response files expanded: nvcc's
/// `--options-file`/`-optf` become `@file`, and LLVM's expansion reads
/// those (nested ones too). Returns an error message naming the file.
std::string expandResponseFiles(std::vector<std::string> &Args,
                                StringRef Directory) {
  auto Resolve = [&](StringRef Name) {
    SmallString<256> P(Name);
    if (sys::path::is_relative(P) && !Directory.empty()) {
      SmallString<256> Base(Directory);
      sys::path::append(Base, P);
      P = Base;
    }
    return std::string(P);
  };
  // A response file that cannot be read is an error; LLVM's expansion
  // would leave a missing one in place as an ordinary argument.
  auto CheckReadable = [&](StringRef Name, StringRef Option) -> std::string {
    std::string Path = Resolve(Name);
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (Buf)
      return "";
    return ("cannot read the response file '" + Name + "' of '" + Option +
            "': " + Buf.getError().message())
        .str();
  };
  for (unsigned Round = 0; Round < 16; ++Round) {
    std::vector<std::string> Next;
    bool AnyFile = false;
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      std::optional<std::string> Files;
      std::string Option;
      for (StringRef Spelling : {"--options-file", "-optf"}) {
        if (A == Spelling) {
          if (I + 1 == Args.size())
            return ("option '" + Spelling + "' has no value").str();
          Files = Args[++I];
          Option = (Spelling + " " + *Files).str();
        } else if (A.starts_with((Spelling + "=").str())) {
          Files = A.drop_front(Spelling.size() + 1).str();
          Option = A.str();
        }
      }
      if (Files) {
        for (const std::string &F : splitList(*Files)) {
          if (std::string E = CheckReadable(F, Option); !E.empty())
            return E;
          Next.push_back("@" + Resolve(F));
        }
        AnyFile = true;
        continue;
      }
      if (A.starts_with("@") && A.size() > 1) {
        if (std::string E = CheckReadable(A.drop_front(), A); !E.empty())
          return E;
        Next.push_back("@" + Resolve(A.drop_front()));
        AnyFile = true;
        continue;
      }
      Next.push_back(A.str());
    }
    if (!AnyFile) {
      Args = std::move(Next);
      return "";
    }
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 64> Argv;
    for (const std::string &A : Next)
      Argv.push_back(Saver.save(A).data());
    cl::ExpansionContext ECtx(Alloc, cl::TokenizeGNUCommandLine);
    ECtx.setCurrentDir(Directory);
    if (Error E = ECtx.expandResponseFiles(Argv))
      return "cannot expand the response files: " + toString(std::move(E));
    Args.assign(Argv.begin(), Argv.end());
  }
  return "response files nest more than 16 levels deep";
}

/// Reads one command with the tables.
class Translator {
public:
  Translator(TranslatedCommand &Out, StringRef File) : Out(Out), File(File) {}

  void run(ArrayRef<std::string> Args) {
    for (size_t I = 0; I < Args.size() && Out.Error.empty(); ++I) {
      StringRef A = Args[I];
      if (!A.starts_with("-") || A == "-") {
        // The input file (re-added by the caller) or other inputs.
        continue;
      }
      bool Matched = Out.Syntax == CommandSyntax::Nvcc
                         ? tryNvcc(Args, I, /*Attached=*/true) ||
                               tryHost(Args, I, /*FamiliesToo=*/true)
                         : tryHost(Args, I, /*FamiliesToo=*/false) ||
                               tryNvcc(Args, I, /*Attached=*/false) ||
                               tryHost(Args, I, /*FamiliesToo=*/true) ||
                               tryNvcc(Args, I, /*Attached=*/true);
      if (!Matched && Out.Error.empty()) {
        if (!is_contained(Out.UnknownOptions, A))
          Out.UnknownOptions.push_back(A.str());
      }
    }
    if (!Out.Error.empty())
      return;
    // -Xcompiler parts, read as one host command line: a part that takes a
    // value may have it in the next part (`-Xcompiler -isystem,/dir`).
    // Options the host table does not know are the host compiler's
    // business: dropped without a remark.
    std::vector<std::string> Host = std::move(HostParts);
    for (size_t I = 0; I < Host.size() && Out.Error.empty(); ++I)
      if (StringRef(Host[I]).starts_with("-"))
        tryHost(Host, I, /*FamiliesToo=*/true);
  }

private:
  TranslatedCommand &Out;
  StringRef File;
  std::vector<std::string> HostParts;

  void fail(const Twine &Message) {
    if (Out.Error.empty())
      Out.Error = Message.str();
  }

  void noteArch(StringRef Name, StringRef Option) {
    bool Unknown = false;
    std::string Arch = normalizeGpuArch(Name, Unknown);
    if (Unknown) {
      fail("unknown GPU architecture '" + Name + "' in '" + Option + "'");
      return;
    }
    if (!Arch.empty() && !is_contained(Out.GpuArchs, Arch))
      Out.GpuArchs.push_back(Arch);
  }

  /// `arch=compute_100a,code=[sm_100a,compute_100a]` or `arch=...,code=...`.
  void noteGenerateCode(StringRef Spec, StringRef Option) {
    SmallVector<std::string, 4> Codes;
    std::string Arch;
    bool SawKey = false;
    while (!Spec.empty()) {
      auto [Key, Rest] = Spec.split('=');
      if (Rest.data() == nullptr || Key.contains(',')) {
        fail("'" + Option + "': expected arch=<arch>,code=<code>");
        return;
      }
      StringRef Value;
      if (Rest.starts_with("[")) {
        size_t Close = Rest.find(']');
        if (Close == StringRef::npos) {
          fail("'" + Option + "': unbalanced '['");
          return;
        }
        Value = Rest.slice(1, Close);
        Spec = Rest.drop_front(Close + 1).ltrim(',');
      } else {
        std::tie(Value, Spec) = Rest.split(',');
      }
      SawKey = true;
      Key = Key.trim();
      if (Key == "arch")
        Arch = Value.trim().str();
      else if (Key == "code")
        for (const std::string &C : splitList(Value))
          Codes.push_back(StringRef(C).trim().str());
      else {
        fail("'" + Option + "': unknown keyword '" + Key +
             "' (nvcc allows arch and code)");
        return;
      }
    }
    if (!SawKey) {
      fail("'" + Option + "': expected arch=<arch>,code=<code>");
      return;
    }
    for (const std::string &C : Codes)
      noteArch(C, Option);
    if (!Arch.empty())
      noteArch(Arch, Option);
  }

  void apply(Action Act, StringRef Value, StringRef Option, bool NvccList) {
    SmallVector<std::string, 2> Items;
    if (NvccList)
      Items = splitList(Value);
    else
      Items.push_back(Value.str());
    switch (Act) {
    case Action::Drop:
    case Action::OptionsFile:
      return;
    case Action::Keep:
      return; // handled by tryHost, which knows the spelling
    case Action::PreInclude:
      for (const std::string &V : Items) {
        Out.Args.push_back("-include");
        Out.Args.push_back(V);
      }
      return;
    case Action::Define:
      for (const std::string &V : Items)
        Out.Args.push_back("-D" + V);
      return;
    case Action::Undefine:
      for (const std::string &V : Items)
        Out.Args.push_back("-U" + V);
      return;
    case Action::IncludePath:
      for (const std::string &V : Items)
        Out.Args.push_back("-I" + V);
      return;
    case Action::SystemInclude:
      for (const std::string &V : Items) {
        Out.Args.push_back("-isystem");
        Out.Args.push_back(V);
      }
      return;
    case Action::TemplateDepth:
      Out.Args.push_back(("-ftemplate-depth=" + Value).str());
      return;
    case Action::Language:
      Out.CompiledAsCuda = Value == "cu" || Value == "cuda";
      return;
    case Action::Std:
      // Clang's CUDA headers need C++11; nvcc's oldest dialect would only
      // make them fail.
      if (Value != "c++03" && Value != "c++98")
        Out.Args.push_back(("-std=" + Value).str());
      return;
    case Action::RelaxedConstexpr:
      // Clang lets device code call constexpr host functions already.
      Out.Args.push_back("-D__CUDACC_RELAXED_CONSTEXPR__");
      return;
    case Action::ExtendedLambda:
      // Clang accepts __device__ lambdas in host code already.
      Out.Args.push_back("-D__CUDACC_EXTENDED_LAMBDA__");
      return;
    case Action::HostOptions:
      for (std::string &V : splitList(Value))
        HostParts.push_back(std::move(V));
      return;
    case Action::GpuArch:
      for (const std::string &V : splitList(Value))
        noteArch(V, Option);
      return;
    case Action::GpuCode:
      for (const std::string &V : Items)
        noteArch(V, Option);
      return;
    case Action::GenerateCode:
      noteGenerateCode(Value, Option);
      return;
    }
  }

  /// nvcc's own spellings: `--long[=v| v]`, `-short[=v| v]`, and `-Xv`
  /// for one-letter short names (when \p Attached).
  bool tryNvcc(ArrayRef<std::string> Args, size_t &I, bool Attached) {
    StringRef A = Args[I];
    bool IsLong = A.starts_with("--");
    StringRef Body = A.drop_front(IsLong ? 2 : 1);
    auto [Name, Value] = Body.split('=');
    bool HasValue = Body.contains('=');
    // Exact names first: `-expt-relaxed-constexpr` is not `-e xpt-...`.
    const NvccOption *Found = nullptr;
    bool Joined = false;
    for (const NvccOption &O : NvccOptions)
      if (Name == (IsLong ? O.Long : O.Short) && !Name.empty() &&
          !(O.Kind == Arity::Flag && HasValue)) {
        Found = &O;
        break;
      }
    if (!Found && Attached && !IsLong && Body.size() > 1)
      for (const NvccOption &O : NvccOptions)
        if (O.Short.size() == 1 && O.Kind != Arity::Flag &&
            Body.starts_with(O.Short) && O.Short != "x" && O.Short != "o") {
          Found = &O;
          Joined = true;
          break;
        }
    if (Found) {
      const NvccOption &O = *Found;
      if (O.Kind == Arity::Flag) {
        apply(O.Act, "", A, false);
        return true;
      }
      std::string Option = A.str();
      StringRef V;
      if (Joined) {
        V = Body.drop_front(1);
      } else if (HasValue) {
        V = Value;
      } else if (I + 1 < Args.size()) {
        V = Args[++I];
        Option += " " + V.str();
      } else {
        fail("option '" + A + "' at the end of the command has no value");
        return true;
      }
      apply(O.Act, V, Option, O.Kind == Arity::List);
      return true;
    }
    return false;
  }

  /// The host compiler's spellings (HostOptions): specific options only,
  /// or the families too.
  bool tryHost(ArrayRef<std::string> Args, size_t &I, bool FamiliesToo) {
    StringRef A = Args[I];
    for (const HostOption &H : HostOptions) {
      StringRef S = H.Spelling;
      std::optional<StringRef> V;
      bool Separate = false;
      switch (H.Form) {
      case HostForm::Flag:
        if (A != S)
          continue;
        break;
      case HostForm::Family:
        if (!FamiliesToo || !A.starts_with(S))
          continue;
        break;
      case HostForm::Joined:
        if (!A.starts_with(S))
          continue;
        V = A.drop_front(S.size());
        break;
      case HostForm::Separate:
        if (A != S)
          continue;
        Separate = true;
        break;
      case HostForm::JoinedOrSeparate:
        if (!A.starts_with(S))
          continue;
        if (A == S)
          Separate = true;
        else
          V = A.drop_front(S.size());
        break;
      }
      if (Separate) {
        if (I + 1 == Args.size()) {
          fail("option '" + A + "' at the end of the command has no value");
          return true;
        }
        V = Args[++I];
      }
      if (H.Act == Action::Keep) {
        Out.Args.push_back(A.str());
        if (Separate)
          Out.Args.push_back(V->str());
        return true;
      }
      std::string Option = A.str();
      if (Separate)
        Option += " " + V->str();
      apply(H.Act, V.value_or(""), Option, /*NvccList=*/false);
      return true;
    }
    return false;
  }
};

} // namespace

CommandSyntax commandSyntaxOf(StringRef Argv0) {
  StringRef Name = sys::path::stem(Argv0);
  return Name.contains("nvcc") ? CommandSyntax::Nvcc : CommandSyntax::Host;
}

std::string normalizeGpuArch(StringRef Name, bool &Unknown) {
  Unknown = false;
  Name = Name.trim();
  if (Name == "native" || Name == "all" || Name == "all-major")
    return "";
  StringRef Number = Name;
  if (!(Number.consume_front("sm_") || Number.consume_front("compute_") ||
        Number.consume_front("lto_"))) {
    Unknown = true;
    return "";
  }
  StringRef Suffix;
  if (Number.ends_with("a") || Number.ends_with("f")) {
    Suffix = Number.take_back(1);
    Number = Number.drop_back(1);
  }
  unsigned N = 0;
  if (Number.getAsInteger(10, N)) {
    Unknown = true;
    return "";
  }
  // nvcc 12.x and 13.x targets (101 and 107 are CUDA 12.8/12.9 names).
  static const unsigned Known[] = {50,  52,  53,  60,  61,  62, 70, 72,
                                   75,  80,  86,  87,  88,  89, 90, 100,
                                   101, 103, 107, 110, 120, 121};
  if (!is_contained(Known, N)) {
    Unknown = true;
    return "";
  }
  return ("sm_" + Number + Suffix).str();
}

TranslatedCommand translateCompileCommand(ArrayRef<std::string> CommandLine,
                                          StringRef Directory, StringRef File,
                                          ArrayRef<std::string> RemovedArgs) {
  TranslatedCommand Out;
  size_t First = 0;
  while (First + 1 < CommandLine.size() && isLauncher(CommandLine[First]))
    ++First;
  if (First >= CommandLine.size())
    return Out;
  Out.Syntax = commandSyntaxOf(CommandLine[First]);
  std::vector<std::string> Args(CommandLine.begin() + First + 1,
                                CommandLine.end());
  if (std::string E = expandResponseFiles(Args, Directory); !E.empty()) {
    Out.Error = E;
    return Out;
  }
  erase_if(Args,
           [&](const std::string &A) { return is_contained(RemovedArgs, A); });
  Translator(Out, File).run(Args);
  erase_if(Out.Args,
           [&](const std::string &A) { return is_contained(RemovedArgs, A); });
  return Out;
}

} // namespace tmemcheck
