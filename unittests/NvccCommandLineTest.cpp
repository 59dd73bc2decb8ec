//===- NvccCommandLineTest.cpp - The compile-command translation ---------===//
//
// Part of tmemcheck. One test per nvcc spelling the build systems emit
// (issue 15): each must be read with its arity (so that its value is not
// taken for an input or an option), dropped or translated, and never reach
// Clang.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/NvccCommandLine.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace tmemcheck;

namespace {

std::vector<std::string> nvcc(std::initializer_list<std::string> Middle) {
  std::vector<std::string> Cmd = {"/usr/local/cuda/bin/nvcc"};
  Cmd.insert(Cmd.end(), Middle);
  Cmd.insert(Cmd.end(), {"-DKEEP=1", "-c", "k.cu", "-o", "k.o"});
  return Cmd;
}

TranslatedCommand translate(const std::vector<std::string> &Cmd) {
  return translateCompileCommand(Cmd, "/build", "k.cu");
}

/// The spelling is understood and dropped: no error, nothing unknown, the
/// neighbours intact, no argument of it kept.
void expectDropped(std::initializer_list<std::string> Spelling) {
  TranslatedCommand T = translate(nvcc(Spelling));
  std::string Shown;
  for (const std::string &S : Spelling)
    Shown += S + " ";
  EXPECT_EQ(T.Error, "") << Shown;
  EXPECT_TRUE(T.UnknownOptions.empty())
      << Shown << ": unknown " << T.UnknownOptions.front();
  EXPECT_EQ(T.Args, std::vector<std::string>{"-DKEEP=1"}) << Shown;
}

TEST(NvccCommandLine, CMakeForwardUnknownToHostCompiler) {
  expectDropped({"-forward-unknown-to-host-compiler"});
  expectDropped({"--forward-unknown-to-host-compiler"});
}
TEST(NvccCommandLine, MaxRegCount) {
  expectDropped({"-maxrregcount=64"});
  expectDropped({"-maxrregcount", "64"});
  expectDropped({"--maxrregcount=64"});
  expectDropped({"--maxrregcount", "64"});
}
TEST(NvccCommandLine, Xcudafe) {
  expectDropped({"-Xcudafe", "--diag_suppress=177"});
  expectDropped({"-Xcudafe", "--display_error_number"});
  expectDropped({"-Xcudafe=--diag_suppress=177"});
}
TEST(NvccCommandLine, DefaultStream) {
  expectDropped({"--default-stream", "per-thread"});
  expectDropped({"-default-stream", "per-thread"});
  expectDropped({"--default-stream=per-thread"});
}
TEST(NvccCommandLine, Ftz) {
  expectDropped({"-ftz=true"});
  expectDropped({"-ftz", "true"});
  expectDropped({"--ftz=false"});
}
TEST(NvccCommandLine, Rdc) {
  expectDropped({"-rdc", "true"});
  expectDropped({"-rdc=true"});
  expectDropped({"--relocatable-device-code=true"});
  expectDropped({"--relocatable-device-code", "true"});
  expectDropped({"-dc"});
  expectDropped({"--device-c"});
}
TEST(NvccCommandLine, ResourceUsage) {
  expectDropped({"-res-usage"});
  expectDropped({"--resource-usage"});
}
TEST(NvccCommandLine, DiagSuppress) {
  expectDropped({"--diag-suppress", "177"});
  expectDropped({"--diag-suppress=177,550"});
  expectDropped({"-diag-suppress", "177"});
  expectDropped({"-diag-suppress=177"});
}
TEST(NvccCommandLine, StaticGlobalTemplateStub) {
  expectDropped({"-static-global-template-stub=false"});
  expectDropped({"--static-global-template-stub", "true"});
}
TEST(NvccCommandLine, SplitCompile) {
  expectDropped({"--split-compile", "0"});
  expectDropped({"-split-compile=4"});
  expectDropped({"--split-compile-extended", "2"});
}
TEST(NvccCommandLine, Cudart) {
  expectDropped({"-cudart", "shared"});
  expectDropped({"--cudart=static"});
  expectDropped({"-cudadevrt", "static"});
}
TEST(NvccCommandLine, OtherCodeGenerationAndDriverOptions) {
  for (auto S : std::vector<std::vector<std::string>>{
           {"-lineinfo"},
           {"--generate-line-info"},
           {"-G"},
           {"-g"},
           {"-O3"},
           {"-O", "3"},
           {"--optimize", "2"},
           {"-use_fast_math"},
           {"--use_fast_math"},
           {"-Xptxas", "-v"},
           {"-Xptxas=-v,-warn-spills"},
           {"--ptxas-options", "-v"},
           {"-Xnvlink", "--suppress-stack-size-warning"},
           {"-Xfatbin", "-compress-all"},
           {"-Xcicc", "-O1"},
           {"-ccbin", "/usr/bin/g++-12"},
           {"-ccbin=/usr/bin/g++-12"},
           {"--compiler-bindir", "/usr/bin/g++"},
           {"-t", "4"},
           {"-t4"},
           {"--threads", "0"},
           {"-Werror", "all-warnings"},
           {"-Wno-deprecated-gpu-targets"},
           {"--keep"},
           {"--keep-dir", "/tmp"},
           {"-MD", "-MT", "k.o", "-MF", "k.o.d"},
           {"-MMD"},
           {"-prec-div=false"},
           {"-prec-sqrt", "false"},
           {"-fmad=false"},
           {"--extra-device-vectorization"},
           {"-m64"},
           {"--machine", "64"},
           {"--dopt", "on"},
           {"-lto"},
           {"-dlto"},
           {"--allow-unsupported-compiler"},
           {"-time", "t.csv"},
           {"--fdevice-time-trace", "t.json"},
           {"-err-no"},
           {"--display-error-number"},
           {"-noeh"},
           {"--expt-extended-lambda", "-UNOPE"},
       }) {
    std::vector<std::string> Cmd = {"nvcc"};
    Cmd.insert(Cmd.end(), S.begin(), S.end());
    Cmd.insert(Cmd.end(), {"-DKEEP=1", "-c", "k.cu"});
    TranslatedCommand T = translate(Cmd);
    EXPECT_EQ(T.Error, "") << S.front();
    EXPECT_TRUE(T.UnknownOptions.empty()) << S.front();
    EXPECT_EQ(T.Args.back(), "-DKEEP=1") << S.front();
  }
}

TEST(NvccCommandLine, KeepsWhatShapesTheParse) {
  TranslatedCommand T = translate({"nvcc",
                                   "-I/a",
                                   "-I",
                                   "/b",
                                   "--include-path=/c,/d",
                                   "-isystem",
                                   "/s",
                                   "--system-include=/t",
                                   "-DA",
                                   "-D",
                                   "B=2",
                                   "--define-macro=C=3",
                                   "-UD",
                                   "--undefine-macro",
                                   "E",
                                   "-include",
                                   "pre.h",
                                   "--pre-include=pre2.h",
                                   "-std=c++20",
                                   "--std",
                                   "c++17",
                                   "-x",
                                   "cu",
                                   "-c",
                                   "k.cpp"});
  EXPECT_EQ(T.Error, "");
  EXPECT_TRUE(T.CompiledAsCuda);
  std::vector<std::string> Want = {
      "-I/a",     "-I/b",     "-I/c",       "-I/d",      "-isystem",
      "/s",       "-isystem", "/t",         "-DA",       "-DB=2",
      "-DC=3",    "-UD",      "-UE",        "-include",  "pre.h",
      "-include", "pre2.h",   "-std=c++20", "-std=c++17"};
  EXPECT_EQ(T.Args, Want);
}

TEST(NvccCommandLine, CommaListsAndEscapes) {
  TranslatedCommand T = translate({"nvcc", "-DA=1,B=2", "-DC=x\\,y", "k.cu"});
  EXPECT_EQ(T.Args, (std::vector<std::string>{"-DA=1", "-DB=2", "-DC=x,y"}));
}

TEST(NvccCommandLine, LambdaAndConstexprMacros) {
  TranslatedCommand T =
      translate({"nvcc", "--expt-relaxed-constexpr", "--extended-lambda",
                 "-expt-extended-lambda", "k.cu"});
  EXPECT_EQ(T.Args, (std::vector<std::string>{"-D__CUDACC_RELAXED_CONSTEXPR__",
                                              "-D__CUDACC_EXTENDED_LAMBDA__",
                                              "-D__CUDACC_EXTENDED_LAMBDA__"}));
}

TEST(NvccCommandLine, XcompilerKeepsMacrosAndIncludePaths) {
  TranslatedCommand T = translate(
      {"nvcc", "-Xcompiler", "-fPIC,-DHOST=1,-Wall", "-Xcompiler=-isystem,/h",
       "--compiler-options", "-I/x -O2", "-Xcompiler", "-include", "-Xcompiler",
       "cfg.h", "-Xcompiler", "-frobnicate", "k.cu"});
  EXPECT_EQ(T.Error, "");
  EXPECT_TRUE(T.UnknownOptions.empty());
  EXPECT_EQ(T.Args,
            (std::vector<std::string>{"-DHOST=1", "-isystem", "/h", "-I/x -O2",
                                      "-include", "cfg.h"}));
}

TEST(NvccCommandLine, ArchitecturesOfTheCommand) {
  auto Archs = [](std::initializer_list<std::string> A) {
    std::vector<std::string> Cmd = {"nvcc"};
    Cmd.insert(Cmd.end(), A);
    Cmd.push_back("k.cu");
    TranslatedCommand T = translate(Cmd);
    EXPECT_EQ(T.Error, "");
    return T.GpuArchs;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(Archs({"-arch=sm_100a"}), V{"sm_100a"});
  EXPECT_EQ(Archs({"-arch", "sm_103a"}), V{"sm_103a"});
  EXPECT_EQ(Archs({"--gpu-architecture=compute_110f"}), V{"sm_110f"});
  EXPECT_EQ(Archs({"-gencode", "arch=compute_100a,code=sm_100a"}),
            V{"sm_100a"});
  EXPECT_EQ(Archs({"-gencode=arch=compute_90a,code=sm_90a", "-gencode",
                   "arch=compute_100f,code=[compute_100f,sm_100f]"}),
            (V{"sm_90a", "sm_100f"}));
  // CMake, CMAKE_CUDA_ARCHITECTURES=100a.
  EXPECT_EQ(Archs({"--generate-code=arch=compute_100a,code=[compute_100a,"
                   "sm_100a]"}),
            V{"sm_100a"});
  EXPECT_EQ(Archs({"-arch=compute_103a", "-code=sm_103a,compute_103a"}),
            V{"sm_103a"});
  EXPECT_EQ(Archs({"-arch=native"}), V{});
  EXPECT_EQ(Archs({"-arch=all-major"}), V{});
  // Clang's spellings.
  EXPECT_EQ(Archs({"--cuda-gpu-arch=sm_100a"}), V{"sm_100a"});
  EXPECT_EQ(Archs({"--offload-arch=sm_90a,sm_110a"}), (V{"sm_90a", "sm_110a"}));
}

TEST(NvccCommandLine, UnknownArchitectureNamesTheOption) {
  TranslatedCommand T = translate({"nvcc", "-arch=sm_999", "k.cu"});
  EXPECT_EQ(T.Error, "unknown GPU architecture 'sm_999' in '-arch=sm_999'");
  T = translate({"nvcc", "-gencode", "arch=compute_100a,code=bogus", "k.cu"});
  EXPECT_EQ(T.Error, "unknown GPU architecture 'bogus' in '-gencode "
                     "arch=compute_100a,code=bogus'");
  T = translate({"nvcc", "-gencode", "nonsense", "k.cu"});
  EXPECT_NE(T.Error.find("expected arch=<arch>,code=<code>"),
            std::string::npos);
}

TEST(NvccCommandLine, OptionWithoutItsValue) {
  TranslatedCommand T = translate({"nvcc", "k.cu", "-arch"});
  EXPECT_EQ(T.Error, "option '-arch' at the end of the command has no value");
}

TEST(NvccCommandLine, UnknownOptionsAreNamedAndDropped) {
  TranslatedCommand T = translate(
      {"nvcc", "--frobnicate", "-DA", "-zzz", "--frobnicate", "k.cu"});
  EXPECT_EQ(T.Error, "");
  EXPECT_EQ(T.Args, std::vector<std::string>{"-DA"});
  EXPECT_EQ(T.UnknownOptions,
            (std::vector<std::string>{"--frobnicate", "-zzz"}));
}

TEST(NvccCommandLine, HostOptionsForwardedByCMake) {
  // -forward-unknown-to-host-compiler: gcc's options among nvcc's.
  TranslatedCommand T =
      translate({"nvcc", "-forward-unknown-to-host-compiler", "-fPIC", "-Wall",
                 "-Wextra", "-pthread", "-march=native", "-fopenmp",
                 "-fno-exceptions", "-iquote", "/q", "k.cu"});
  EXPECT_EQ(T.Error, "");
  EXPECT_TRUE(T.UnknownOptions.empty());
  EXPECT_EQ(T.Args,
            (std::vector<std::string>{"-fno-exceptions", "-iquote", "/q"}));
}

TEST(NvccCommandLine, ClangAndGccCommands) {
  TranslatedCommand T = translateCompileCommand(
      {"/usr/bin/clang++-22", "-x", "cuda", "--cuda-gpu-arch=sm_100a",
       "-DX=a,b", "-I", "inc", "-O2", "-g", "-Werror", "-c", "k.cu", "-o",
       "k.o", "-Xclang", "-fno-pch-timestamp", "-target", "x86_64-linux-gnu"},
      "/build", "k.cu");
  EXPECT_EQ(T.Syntax, CommandSyntax::Host);
  EXPECT_EQ(T.Error, "");
  EXPECT_TRUE(T.CompiledAsCuda);
  EXPECT_EQ(T.GpuArchs, std::vector<std::string>{"sm_100a"});
  EXPECT_EQ(T.Args, (std::vector<std::string>{"-DX=a,b", "-Iinc"}));
}

TEST(NvccCommandLine, LaunchersAreLookedThrough) {
  TranslatedCommand T = translateCompileCommand(
      {"/usr/bin/ccache", "/usr/local/cuda/bin/nvcc", "-DA,B", "k.cu"},
      "/build", "k.cu");
  EXPECT_EQ(T.Syntax, CommandSyntax::Nvcc);
  EXPECT_EQ(T.Args, (std::vector<std::string>{"-DA", "-DB"}));
}

TEST(NvccCommandLine, RemovedArgs) {
  TranslatedCommand T =
      translateCompileCommand({"nvcc", "-DA", "-DB", "-Xcompiler=-DC", "k.cu"},
                              "/build", "k.cu", {"-DB", "-DC"});
  EXPECT_EQ(T.Args, std::vector<std::string>{"-DA"});
}

/// A directory of response files that goes away with the test.
class ResponseFiles : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tmemcheck-rsp", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  llvm::SmallString<256> Dir;
};

TEST_F(ResponseFiles, OptionsFileOptfAndAt) {
  // CMake's Makefiles generator: --options-file with quoted include paths.
  write("includes_CUDA.rsp", "-I\"/with space/inc\" -isystem /sys\n");
  write("more.rsp", "-DFROM_OPTF=1 @nested.rsp");
  write("nested.rsp", "-DNESTED");
  write("at.rsp", "-DFROM_AT --maxrregcount 32");
  TranslatedCommand T =
      translateCompileCommand({"nvcc", "--options-file", "includes_CUDA.rsp",
                               "-optf=more.rsp", "@at.rsp", "k.cu"},
                              Dir, "k.cu");
  EXPECT_EQ(T.Error, "");
  EXPECT_TRUE(T.UnknownOptions.empty());
  EXPECT_EQ(T.Args, (std::vector<std::string>{"-I/with space/inc", "-isystem",
                                              "/sys", "-DFROM_OPTF=1",
                                              "-DNESTED", "-DFROM_AT"}));
}

TEST_F(ResponseFiles, UnreadableResponseFileNamesTheOption) {
  TranslatedCommand T = translateCompileCommand(
      {"nvcc", "--options-file", "missing.rsp", "k.cu"}, Dir, "k.cu");
  EXPECT_NE(T.Error.find("cannot read the response file 'missing.rsp' of "
                         "'--options-file missing.rsp'"),
            std::string::npos)
      << T.Error;
  T = translateCompileCommand({"nvcc", "@gone.rsp", "k.cu"}, Dir, "k.cu");
  EXPECT_NE(T.Error.find("'gone.rsp' of '@gone.rsp'"), std::string::npos)
      << T.Error;
}

TEST(NvccCommandLine, NormalizeGpuArch) {
  bool Unknown = false;
  EXPECT_EQ(normalizeGpuArch("compute_100a", Unknown), "sm_100a");
  EXPECT_FALSE(Unknown);
  EXPECT_EQ(normalizeGpuArch("lto_103f", Unknown), "sm_103f");
  EXPECT_EQ(normalizeGpuArch("sm_90", Unknown), "sm_90");
  EXPECT_EQ(normalizeGpuArch("gfx90a", Unknown), "");
  EXPECT_TRUE(Unknown);
  EXPECT_EQ(normalizeGpuArch("sm_1000a", Unknown), "");
  EXPECT_TRUE(Unknown);
}

} // namespace
