//===- SharedAccess.h - Instructions taking shared addresses -----*- C++
//-*-===//
//
// Part of tmemcheck. The PTX instructions other than tcgen05 whose operands
// are shared-memory (or generic) addresses: ld/st/atom/red, ldmatrix and
// stmatrix, cp.async and the bulk/TMA copies, cvta from shared, mapa.
// A TMEM address is not a shared-memory address (rules M3), so a TMEM value
// in one of these operands is a bug that ptxas accepts silently (rules §10
// #26); front ends record such uses as events.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_MODEL_SHAREDACCESS_H
#define TMEMCHECK_MODEL_SHAREDACCESS_H

#include "tmemcheck/Ptx/Instruction.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tmemcheck {

/// The meaning of an instruction that dereferences or converts a memory
/// address: which of its operands must be shared-memory (or generic)
/// addresses. Operand indices refer to Instruction::Operands.
struct SharedAccessOp {
  llvm::SmallVector<int, 2> AddressOperands;
  /// The address is generic (no state space, or cvta's source): a TMEM
  /// value there is a pointer made from it.
  bool Generic = false;
  /// A call of a shared-memory matrix descriptor builder
  /// (`make_smem_desc(addr)`): the operand is the address the descriptor
  /// encodes, and a value computed from a TMEM address is wrong there too.
  bool Descriptor = false;
};

/// True for the name of a function that builds a shared-memory matrix
/// descriptor from an address (DeepGEMM `make_smem_desc`, CuTe
/// `make_umma_desc`, `desc_encode` of hand-written GEMMs); instruction
/// descriptor builders (`make_instr_desc`) are not.
bool isSmemDescriptorBuilder(llvm::StringRef Name);

/// Decodes \p I; std::nullopt when it takes no shared-memory or generic
/// address (global, local, param and const accesses, arithmetic, tcgen05,
/// which TmemOp describes, and the mbarrier instructions, which SyncOp
/// describes).
std::optional<SharedAccessOp> decodeSharedAccess(const ptx::Instruction &I);

} // namespace tmemcheck

#endif // TMEMCHECK_MODEL_SHAREDACCESS_H
