#include "lib_arch.h"

__global__ void kernel(float2 *io) {
  __shared__ uint32_t slot;
  LibState st;
  st.cols = 96;
  st.stage_addr = lib_stage_addr(&slot);
  if (threadIdx.x / 32 == 0)
    lib_alloc(&slot, 96);
  lib_store_nibble(reinterpret_cast<uint8_t *>(io), 3);
  io[threadIdx.x] = __ffma2_rn(io[threadIdx.x], lib_scale(io[0], io[1]), io[2]);
}
