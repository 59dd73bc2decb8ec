// A stand-in for the shapes of CuTe's TMEM tensors (cute/pointer.hpp's
// tmem_ptr, cute/tensor_impl.hpp, atom/copy_atom.hpp, algorithm/copy.hpp,
// atom/copy_traits_sm100.hpp's copy_unpack): a fragment made at
// make_tmem_ptr() (address 0), moved with `t.data() = t.data().get() + c`,
// partitioned by thread and sliced by run-time coordinates, and copied by
// an atom that receives `raw_pointer_cast(src.data())`. The layouts are
// static, as CuTe's TMEM layouts are.
#pragma once
#include "cute_sm100_stub.h"

namespace cute {

template <auto v> struct C {
  static constexpr auto value = v;
  __device__ constexpr operator decltype(v)() const { return v; }
};
// `stage == _0{}`: a C<bool>, decided by the types alone.
template <auto a, auto b>
__device__ constexpr C<a == b> operator==(C<a>, C<b>) {
  return {};
}
using _0 = C<0>;
using _1 = C<1>;
template <int N> using Int = C<N>;
template <class... T> struct tuple {};
template <class Shape, class Stride> struct Layout {};
struct Underscore {};
__device__ constexpr Underscore _{};

template <class T> struct tmem_ptr {
  __device__ tmem_ptr(uint32_t addr = 0) : addr_(addr) {}
  __device__ uint32_t const &get() const { return addr_; }
  __device__ uint32_t &get() { return addr_; }
  __device__ tmem_ptr operator+(uint32_t const &i) const { return {addr_ + i}; }
  uint32_t addr_;
};
template <class T> __device__ tmem_ptr<T> make_tmem_ptr(uint32_t addr = 0) {
  return tmem_ptr<T>(addr);
}
template <class T> __device__ uint32_t raw_pointer_cast(tmem_ptr<T> const &p) {
  return p.get();
}

template <class Iterator> struct ViewEngine {
  Iterator ptr_;
  __device__ Iterator &begin() { return ptr_; }
  __device__ Iterator const &begin() const { return ptr_; }
};

// The offset of a coordinate: a run-time value, as in CuTe (crd2idx over
// the layout's strides), which the tool does not follow.
__device__ inline uint32_t offset_of(int row, int col) {
  return (uint32_t(row) << 16) + uint32_t(col) * 8;
}

template <class Engine, class LayoutT> struct Tensor {
  using layout_type = LayoutT;
  Engine engine_;
  __device__ auto &data() { return engine_.begin(); }
  __device__ auto const &data() const { return engine_.begin(); }
  // tensor(row, _) / tensor(_, _, k): a slice of this tensor.
  template <class A, class B>
  __device__ Tensor operator()(A const &a, B const &b) const {
    Tensor Slice = *this;
    Slice.data() = data() + offset_of(coord(a), coord(b));
    return Slice;
  }
  template <class L> __device__ Tensor compose(L const &) const {
    return *this;
  }

private:
  __device__ static int coord(Underscore) { return 0; }
  __device__ static int coord(int i) { return i; }
};

template <class T, class LayoutT>
__device__ Tensor<ViewEngine<tmem_ptr<T>>, LayoutT>
make_tensor(tmem_ptr<T> const &p, LayoutT const &) {
  return {ViewEngine<tmem_ptr<T>>{p}};
}

// A UMMA TiledMma and its accumulator fragment: M lanes by N fp32 columns
// at address 0, as tmem_frg::make builds it.
template <int M, int N> struct UmmaTiledMma {};
template <int M, int N, class Shape>
__device__ auto partition_fragment_C(UmmaTiledMma<M, N> const &, Shape const &) {
  return make_tensor(make_tmem_ptr<float>(),
                     Layout<tuple<C<M>, C<N>>, tuple<C<65536>, C<1>>>{});
}

template <class Atom> struct ThrCopy {
  int thr_idx_;
  // A 32dp atom's thread partition starts at its warp's lane quarter (the
  // row of lane 0): the address is the same in every lane of the warp, and
  // each lane's own row is implicit in the instruction's shape (rules §2).
  template <class T> __device__ auto partition_S(T const &t) const {
    auto Thr = make_tensor(t.data(), typename T::layout_type{});
    return Thr(thr_idx_ / 32 % 4 * 32, _);
  }
  template <class T> __device__ auto partition_D(T const &t) const {
    return partition_S(t);
  }
};
template <class Atom> struct TiledCopy {
  __device__ ThrCopy<Atom> get_slice(int thr_idx) const { return {thr_idx}; }
};
template <class Atom, class T>
__device__ TiledCopy<Atom> make_tmem_copy(Atom const &, T const &) {
  return {};
}

// copy_traits_sm100.hpp's copy_unpack: the atom gets the slice's address.
template <class Atom, class E, class L>
__device__ void copy_unpack(Tensor<E, L> const &src, uint32_t (&regs)[8]) {
  uint32_t tmem_addr = raw_pointer_cast(src.data());
  detail::explode(Atom::copy, &tmem_addr, int_sequence<0>{}, regs,
                  int_sequence<0, 1, 2, 3, 4, 5, 6, 7>{});
}
template <class Atom, class E, class L>
__device__ void copy_unpack(uint32_t (&regs)[2], Tensor<E, L> const &dst) {
  uint32_t tmem_addr = raw_pointer_cast(dst.data());
  detail::explode(Atom::copy, regs, int_sequence<0, 1>{}, &tmem_addr,
                  int_sequence<0>{});
}
// algorithm/copy.hpp: one atom call per slice of the rest mode.
template <class Atom, class E, class L>
__device__ void copy(TiledCopy<Atom> const &, Tensor<E, L> const &src,
                     uint32_t (&regs)[8]) {
  Tensor<E, L> Slice = src(_, 0);
  copy_unpack<Atom>(Slice, regs);
}
template <class Atom, class E, class L>
__device__ void copy(TiledCopy<Atom> const &, uint32_t (&regs)[2],
                     Tensor<E, L> const &dst) {
  copy_unpack<Atom>(regs, dst(_, 0));
}

} // namespace cute
