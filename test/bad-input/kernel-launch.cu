// RUN: %tmemcheck %s 2>&1 | count 0
// RUN: %tmemcheck-cuda %s 2>&1 | count 0
// REQUIRES: cuda
//
// A device-side parse still type-checks host code: a kernel launch in the
// same file must not be a compile error (with the CUDA headers or with the
// embedded stub).
template <int N> __global__ void k(int a, int b) {}
void launch() { k<1><<<dim3(2, 1, 1), 128>>>(0, 0); }
