"""Checks that what `tmemcheck --version` says of its linkage is what the
executable is: `ldd` lists the shared libLLVM/libclang-cpp exactly when it
says "shared libraries", and libmimalloc exactly when it names mimalloc.

Usage: check-linkage.py TMEMCHECK VERSION_OUTPUT
"""
import subprocess
import sys

binary, version_file = sys.argv[1], sys.argv[2]
version = open(version_file).read()
deps = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
shared_llvm = "libLLVM" in deps or "libclang-cpp" in deps
says_static = "LLVM and Clang: linked statically" in version
mimalloc = "libmimalloc" in deps
says_mimalloc = "allocator: mimalloc" in version
ok = True
if shared_llvm == says_static:
    print(f"linkage: --version says static={says_static}, ldd shows shared "
          f"LLVM={shared_llvm}")
    ok = False
if mimalloc != says_mimalloc:
    print(f"allocator: --version says mimalloc={says_mimalloc}, ldd shows "
          f"libmimalloc={mimalloc}")
    ok = False
print("linkage as reported" if ok else "linkage differs from --version")
sys.exit(0 if ok else 1)
