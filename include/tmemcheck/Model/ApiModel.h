//===- ApiModel.h - Library wrappers modeled by name ------------*- C++ -*-===//
//
// Part of tmemcheck. Some wrappers cannot be analysed through their bodies:
// CUTLASS compiles its SM100 code out under Clang (rules §7), and kernels
// that are template patterns call them through dependent expressions. These
// are recognised by name and stand for the tcgen05 instruction they emit
// (rules §7.2).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_MODEL_APIMODEL_H
#define TMEMCHECK_MODEL_APIMODEL_H

#include "tmemcheck/Model/TmemOp.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// How a call to a known wrapper maps onto a tcgen05 instruction: the
/// instruction's meaning and, per instruction operand, the call argument
/// that supplies it (-1: none).
struct ApiModel {
  std::string Name; ///< e.g. "cute::TMEM::Allocator1Sm::allocate"
  TmemOp Op;
  std::vector<int> OperandArgs; ///< indexed like TmemOp operand fields
  /// The wrapper elects one thread itself (CUTLASS MMA atoms, umma_arrive):
  /// the instruction is not issued by every calling thread.
  bool ElectsInside = false;
};

/// The model of the function with the given qualified name (template
/// arguments removed), or nullptr.
const ApiModel *findApiModel(llvm::StringRef QualifiedName);

/// The model for a member call whose object type is only known by name (a
/// dependent call in a template pattern): \p TypeName is the spelled type of
/// the object, \p Member the member function name.
const ApiModel *findApiModelByMember(llvm::StringRef TypeName,
                                     llvm::StringRef Member);

/// TileLang's `tl::tcgen05_ld_<D>dp<B>bNx<N, pack16>(start, offset, dst)`
/// (tl_templates/cuda/copy_sm100.h): a tcgen05.ld of D lanes and N repeats
/// of the B-bit pattern at `start + offset` (issued in legal .xN pieces at
/// consecutive columns), followed by tcgen05.wait::ld. Its body does not
/// parse under Clang (a dependent member template called without
/// `template`), so the call is modelled by name. The op's TmemAddrOperand
/// is 0; std::nullopt if \p QualifiedName is not such a wrapper.
std::optional<TmemOp> tileLangLoadOp(llvm::StringRef QualifiedName,
                                     int64_t Repeat, bool Pack16);

/// CuTe's SM100 copy and MMA atoms (cute/arch/copy_sm100.hpp,
/// mma_sm100_umma.hpp): `SM100_TMEM_LOAD_<L>dp<B>b<N>x[_16b]::copy`,
/// `SM100_TMEM_LOAD_STAT_32dp32b<N>x::copy`, `SM100_TMEM_STORE_…::copy`,
/// `SM100_UTCCP_<shape>_<1|2>cta::copy` and
/// `SM100_MMA_<kind>[_2x1SM]_<SS|TS>[_SCALED|_SPARSE|…]::fma`. Their names
/// encode the instruction (shape, repeat count, packing, cta_group, kind,
/// A in TMEM or shared memory, sparsity, block scaling), so every struct of
/// the family is modelled by decoding its name rather than by a list. The
/// result is the PTX the call stands for, `%N` being call argument N
/// (\p NumArgs of them), as a user API model would write it; the MMA's
/// instruction descriptor (the upper half of a 64-bit argument) is left
/// unknown. CUTLASS 4's namespaced spelling of the TMEM atoms
/// (`cute::SM100::TMEM::LOAD::SM100_TMEM_LOAD_…`, `…::STORE::`,
/// `…::LOAD_STAT::`, `…::UTCCP::`) is accepted too. std::nullopt if
/// \p QualifiedName (template arguments removed) is not such an atom.
/// The block-scaled FP4 MMAs (`SM100_MMA_MXF4*`) take their scale vector
/// from the template argument VS (\p ScaleVectorSize: 16 is
/// `kind::mxf4nvf4.block_scale.block16`, 32 is `.block32`); without it
/// they are not modelled (the body, if visible, is followed).
std::optional<std::string>
cuteAtomPtx(llvm::StringRef QualifiedName, unsigned NumArgs,
            std::optional<int64_t> ScaleVectorSize = std::nullopt);

/// CUTLASS's `cutlass::arch::NamedBarrier` (cutlass/arch/barrier.h), the
/// type of every SM100 kernel's `tmem_allocation_result_barrier` and of the
/// epilogue's barriers: the PTX mnemonic a member (`arrive`,
/// `arrive_and_wait`, `sync`, `arrive_unaligned`,
/// `arrive_and_wait_unaligned`) or static member (`arrive(n, id)`,
/// `arrive_and_wait(n, id)`, `sync(n, id)`) emits: `bar.arrive`,
/// `bar.sync`, `barrier.arrive` or `barrier.sync`, each taking `id,
/// count`. Its asm is compiled out without `CUDA_BARRIER_ENABLED`, and its
/// operands live in the object's fields, so the call is modelled by name;
/// std::nullopt if \p QualifiedName is not such a member.
std::optional<llvm::StringRef>
cutlassNamedBarrierMnemonic(llvm::StringRef QualifiedName);

/// The barrier id CUTLASS reserves below the user's ids
/// (`NamedBarrier::ReservedNamedBarrierCount`): a user id `i` is hardware
/// barrier `i + 8`.
constexpr int64_t CutlassReservedNamedBarrierCount = 8;

} // namespace tmemcheck

#endif // TMEMCHECK_MODEL_APIMODEL_H
