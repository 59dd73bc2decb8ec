#!/usr/bin/env bash
# Regenerates the committed .ptx test inputs from their CUDA sources (needs
# CUDA 13). Paths in .file directives are relative to this directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
for src in lifecycle-bugs clean hoisted-roles unrolled-reads lane-operands widening; do
  "$nvcc" -gencode arch=compute_100a,code=sm_100a -ptx -lineinfo "$src.cu" \
    -o "$src.ptx"
done
# The kernels of the check lit tests that pin the same source lines for
# .cu and .ptx input: tmem-shared-access, tmem-divergent-barrier,
# tmem-alloc-peer-race and tmem-reuse-race (../peer-reuse.test).
for src in shared-access divergent-barrier alloc-peer-race reuse-race; do
  "$nvcc" -gencode arch=compute_100a,code=sm_100a -include cstdint -ptx \
    -lineinfo "../../checks/$src.cu" -o "$src.ptx"
done
# Wrappers defined in another translation unit (a -rdc build), described
# by ApiModels in the config tests' .tmemcheck.yaml.
"$nvcc" -gencode arch=compute_100a,code=sm_100a -include cstdint -rdc=true \
  -ptx -lineinfo ../../config/Inputs/api-models/wrapped.cu -o wrapped-rdc.ptx
sed -i 's|"../../config/Inputs/api-models/|"|' wrapped-rdc.ptx
# Kernels whose CUDA source is a test of the CUDA side.
for src in alloc-base pipeline-release carved-pipeline-handoff; do
  "$nvcc" -gencode arch=compute_100a,code=sm_100a -include cstdint -ptx \
    -lineinfo "../../checks/$src.cu" -o "$src.ptx"
  sed -i "s|\"$PWD/|\"|" "$src.ptx"
  sed -i 's|"\.\./\.\./checks/|"|' "$src.ptx"
done
# Keep the .file paths relative: findings then name "clean.cu:12:3" on any
# machine.
sed -i "s|\"$PWD/|\"|" ./*.ptx
sed -i 's|"../../checks/|"|' shared-access.ptx divergent-barrier.ptx
# One softmax body for two warpgroups (../../analysis/cute-tensor-*.cu, with
# the stand-in CuTe headers' asm enabled): the clean kernels and the twins
# that hand pending columns over.
cute="-std=c++17 -I../../analysis/Inputs/cute -DSTUB_TCGEN05_ENABLED"
for variant in "cute-tensor-runtime-stage:" \
  "cute-tensor-runtime-stage-overlaid:-DS1_COLUMN=0" \
  "cute-tensor-chosen-pipeline:" \
  "cute-tensor-chosen-pipeline-store-s0:-DSTORE_S0" \
  "raw-role-columns:" "raw-role-columns-overlaid:-DS1_COLUMN=0" \
  "cute-tensor-disjoint-overwrite:"; do
  out="${variant%%:*}"
  macro="${variant#*:}"
  src="${out%-overlaid}"
  src="${src%-store-s0}"
  # shellcheck disable=SC2086
  "$nvcc" -gencode arch=compute_100a,code=sm_100a $cute $macro -ptx -lineinfo \
    "../../analysis/$src.cu" -o "$out.ptx"
  sed -i "s|\"$PWD/|\"|" "$out.ptx"
done
# Two roles on their own elements of one barrier array, and a writer of one
# role's columns (../../checks/reuse-race-roles.cu; ../reuse-race-roles.test).
for variant in "reuse-race-roles:" "reuse-race-roles-wrong-stage:-DWRONG_STAGE"; do
  out="${variant%%:*}"
  macro="${variant#*:}"
  # shellcheck disable=SC2086
  "$nvcc" -gencode arch=compute_100a,code=sm_100a -std=c++17 \
    -I../../analysis/Inputs/cute $macro -ptx -lineinfo \
    ../../checks/reuse-race-roles.cu -o "$out.ptx"
  sed -i "s|\"$PWD/|\"|" "$out.ptx"
done
# A release in the last trip of a loop of run-time trip count
# (../../checks/missing-wait-ld-loop-counter-release.cu; ../loop-counter-release.test).
"$nvcc" -gencode arch=compute_100a,code=sm_100a -std=c++17 \
  -I../../analysis/Inputs/cute -ptx -lineinfo \
  ../../checks/missing-wait-ld-loop-counter-release.cu \
  -o missing-wait-ld-loop-counter-release.ptx
sed -i "s|\"$PWD/|\"|" missing-wait-ld-loop-counter-release.ptx
