// The project's header, found through Compat: IncludeDirs.
#pragma once

__device__ inline void project_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], %1;" ::"l"(slot), "r"(ncols) : "memory");
}
