// The column count the kernel of cached.cu allocates (edited by
// test/cli/cache.test).
#define KERNEL_COLS 96
