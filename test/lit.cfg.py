# lit configuration of the tmemcheck test suite.
#
# Features:
#   cuda  - a CUDA installation (headers) exists: tests using CCCL wrappers.
#   nvcc  - nvcc can compile for sm_100a: tests that validate kernels as
#           real PTX. Without them those tests report UNSUPPORTED.
#   clang-tidy - clang-tidy-22 and the clang-tidy plugin exist.
#   csa-plugin - clang-22 and the Static Analyzer plugin exist (it is not
#           built in the sanitized build).
#   clang-apply-replacements - LLVM 22's clang-apply-replacements (package
#           clang-tools-22): tests that --export-fixes output applies.
#   jsonschema - python3 can import jsonschema (Debian: python3-jsonschema):
#           tests that validate SARIF logs against the vendored schema.
#   chromium - headless Chromium (Debian: chromium): tests that render the
#           HTML report (its DOM and a screenshot).
import os
import shutil
import subprocess

import lit.formats

config.name = "tmemcheck"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cu", ".test", ".ptx", ".cuh"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tmemcheck_obj_root, "test")

path = os.path.pathsep.join([config.llvm_tools_dir,
                             os.path.dirname(config.tmemcheck_bin),
                             config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
# Never let the developer's terminal settings leak into expectations.
config.environment["TERM"] = "dumb"

cuda_root = None
for candidate in [os.environ.get("CUDA_PATH"), "/usr/local/cuda"]:
    if candidate and os.path.exists(os.path.join(candidate, "include",
                                                 "cuda_runtime.h")):
        cuda_root = candidate
        break
if cuda_root:
    config.available_features.add("cuda")
    config.substitutions.append(("%cuda-path", cuda_root))
if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))
else:
    lit_config.note("nvcc not found: kernels are not validated as real PTX "
                    "(tests marked REQUIRES: nvcc are skipped)")

# %tmemcheck analyses with the embedded stub headers, so raw-asm tests give
# the same result with or without CUDA; %tmemcheck-cuda uses the CUDA
# installation (tests that include <cuda/ptx> say REQUIRES: cuda).
config.substitutions.append(("%tmemcheck-cuda",
                             config.tmemcheck_bin + " --quiet --no-snippets"))
# lit applies substitutions in order: every longer %tmemcheck-* name must
# come before the bare %tmemcheck, or it would be rewritten as a prefix.
config.substitutions.append(("%tmemcheck-bin", config.tmemcheck_bin))
config.substitutions.append(("%tmemcheck",
                             config.tmemcheck_bin +
                             " --quiet --no-snippets --no-cuda"))
config.substitutions.append(("%examples",
                             os.path.join(config.tmemcheck_src_root,
                                          "examples")))
config.substitutions.append(("%unittests", config.unittests))

# Real build systems (test/buildsys): CMake configures a CUDA project with
# nvcc, bear records a Makefile's nvcc commands.
for tool in ["cmake", "bear", "make", "ninja"]:
    found = shutil.which(tool)
    if found:
        config.available_features.add(tool)
        config.substitutions.append(("%" + tool + "-bin", found))
    else:
        lit_config.note(tool + " not found: the build-system tests that need "
                        "it are skipped (scripts/setup.sh installs it)")

# The install and package tests install this build tree.
config.substitutions.append(("%build-dir", config.tmemcheck_obj_root))
if shutil.which("dpkg-deb") and shutil.which("cpack"):
    config.available_features.add("dpkg-deb")
else:
    lit_config.note("dpkg-deb or cpack not found: the .deb package test is "
                    "skipped")

# The clang-tidy plugin is tested with the real clang-tidy-22 binary.
if config.clang_tidy and os.path.exists(config.clang_tidy) and \
        not config.clang_tidy.endswith("NOTFOUND") and \
        os.path.exists(config.tidy_plugin):
    config.available_features.add("clang-tidy")
    config.substitutions.append(("%clang-tidy", config.clang_tidy))
    config.substitutions.append(("%tidy-plugin", config.tidy_plugin))
else:
    lit_config.note("clang-tidy-22 or the plugin not found: the plugin tests "
                    "are skipped")

# The HTML report is rendered by headless Chromium (Debian: chromium): its
# DOM and a PNG whose pixels are checked.
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))
else:
    lit_config.note("chromium not found: the HTML report is not rendered "
                    "(apt-get install chromium to run that test)")

# The Clang Static Analyzer plugin is tested with the real clang-22, through
# `--analyze -Xclang -load` and clang's own -verify.
if config.clang and os.path.exists(config.clang) and \
        os.path.exists(config.csa_plugin):
    config.available_features.add("csa-plugin")
    # %csa-analyze: the device side of a CUDA file under the Static Analyzer
    # with the plugin's checker and text notes (docs/csa-checker.md); tests
    # add the headers (-nocudainc and the stub, or %cuda-path) and -verify.
    config.substitutions.append((
        "%csa-analyze",
        " ".join([config.clang, "-x cuda --cuda-device-only",
                  "--cuda-gpu-arch=sm_100a -nocudalib",
                  "-Wno-unknown-cuda-version -fsyntax-only -Xclang -analyze",
                  "-Xclang -load -Xclang", config.csa_plugin,
                  "-Xclang -analyzer-checker=tmem.TmemLifecycle",
                  "-Xclang -analyzer-output=text"])))
    config.substitutions.append(("%csa-plugin", config.csa_plugin))
    config.substitutions.append(("%csa-clang", config.clang))
else:
    lit_config.note("clang-22 or the Static Analyzer plugin not found: the "
                    "plugin tests are skipped")

# clang-apply-replacements consumes --export-fixes files.
apply_replacements = (shutil.which("clang-apply-replacements",
                                   path=config.llvm_tools_dir) or
                      shutil.which("clang-apply-replacements-22"))
if apply_replacements:
    config.available_features.add("clang-apply-replacements")
    config.substitutions.append(("%clang-apply-replacements",
                                 apply_replacements))
else:
    lit_config.note("clang-apply-replacements not found: the test that "
                    "applies --export-fixes output is skipped")

# SARIF logs are validated against the SARIF 2.1.0 schema (third_party/sarif)
# by python3-jsonschema, which scripts/setup.sh installs.
python3 = shutil.which("python3")
if python3 and subprocess.run([python3, "-c", "import jsonschema"],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("jsonschema")
else:
    lit_config.note("python3 module jsonschema not found: the SARIF logs are "
                    "not validated against the SARIF 2.1.0 schema (apt-get "
                    "install python3-jsonschema)")
config.substitutions.append((
    "%validate-sarif-schema",
    "python3 " + os.path.join(config.tmemcheck_src_root, "test", "report",
                              "Inputs", "validate_sarif_schema.py") + " " +
    os.path.join(config.tmemcheck_src_root, "third_party", "sarif",
                 "sarif-schema-2.1.0.json")))

# The language server (test/lsp): a scripted client in Python drives every
# session; Neovim's built-in LSP client is the real editor client.
config.substitutions.append((
    "%lsp-client",
    "python3 " + os.path.join(config.tmemcheck_src_root, "test", "lsp",
                              "Inputs", "lsp_client.py")))
nvim = shutil.which("nvim")
if nvim:
    config.available_features.add("nvim")
    config.substitutions.append(("%nvim", nvim))
else:
    lit_config.note("nvim not found: the editor-client test is skipped "
                    "(scripts/setup.sh installs neovim)")
