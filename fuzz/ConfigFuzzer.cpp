//===- ConfigFuzzer.cpp - libFuzzer target for the config loader ----------===//
//
// Part of tmemcheck. Feeds arbitrary bytes to the .tmemcheck.yaml loader: it
// may only accept them or return an error, never crash, hang or trip a
// sanitizer. An accepted config must survive --dump-config: rendering it as
// YAML and reading that back gives the same settings.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Config/Config.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace tmemcheck;

static bool sameSettings(const Config &A, const Config &B) {
  return A.Checks == B.Checks && A.WarningsAsErrors == B.WarningsAsErrors &&
         A.MaxCallDepth == B.MaxCallDepth && A.MaxEvents == B.MaxEvents &&
         A.MaxKernelSeconds == B.MaxKernelSeconds &&
         A.MaxLoopIterations == B.MaxLoopIterations &&
         A.CheckSeverity == B.CheckSeverity &&
         A.AssumeCtasPerSm == B.AssumeCtasPerSm && A.Compat == B.Compat &&
         A.ApiModels == B.ApiModels;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<Config> C = parseConfig(Text, "fuzz.yaml");
  if (!C) {
    llvm::consumeError(C.takeError());
    return 0;
  }
  std::string Yaml = configToYaml(*C);
  llvm::Expected<Config> Again = parseConfig(Yaml, "dumped.yaml");
  if (!Again) {
    fprintf(stderr, "--dump-config output does not parse: %s\n%s\n",
            llvm::toString(Again.takeError()).c_str(), Yaml.c_str());
    abort();
  }
  if (!sameSettings(*C, *Again)) {
    fprintf(stderr, "--dump-config output reads back differently:\n%s\n",
            Yaml.c_str());
    abort();
  }
  return 0;
}
