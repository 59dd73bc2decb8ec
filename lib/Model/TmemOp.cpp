//===- TmemOp.cpp - Decoding tcgen05 instructions -------------------------===//
//
// Part of tmemcheck. The grammar follows tcgen05-rules.md §2 (forms), §3
// (footprints) and §9 (what ptxas accepts). Modifiers are matched in any
// order, as ptxas does (EXP-6: `tcgen05.shift.down.cta_group::1` and
// `tcgen05.ld.red...f32.max` are accepted), but each may appear once.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/TmemOp.h"

#include "tmemcheck/Model/Footprint.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace tmemcheck {

StringRef kindName(TmemOpKind K) {
  switch (K) {
  case TmemOpKind::Alloc:
    return "alloc";
  case TmemOpKind::Dealloc:
    return "dealloc";
  case TmemOpKind::RelinquishAllocPermit:
    return "relinquish_alloc_permit";
  case TmemOpKind::Load:
    return "ld";
  case TmemOpKind::Store:
    return "st";
  case TmemOpKind::WaitLoad:
    return "wait::ld";
  case TmemOpKind::WaitStore:
    return "wait::st";
  case TmemOpKind::Copy:
    return "cp";
  case TmemOpKind::Shift:
    return "shift";
  case TmemOpKind::Mma:
    return "mma";
  case TmemOpKind::Commit:
    return "commit";
  case TmemOpKind::FenceBeforeThreadSync:
    return "fence::before_thread_sync";
  case TmemOpKind::FenceAfterThreadSync:
    return "fence::after_thread_sync";
  }
  return "tcgen05";
}

namespace {

using ptx::Instruction;
using ptx::Operand;
using ptx::ParseDiagnostic;
using ptx::TextRange;

/// Shared state of one decode: the instruction, the diagnostics sink and
/// whether an error was reported (then the result is discarded).
class Decoder {
public:
  Decoder(const Instruction &I, std::vector<ParseDiagnostic> &Diags)
      : I(I), Diags(Diags) {}

  std::optional<TmemOp> run();

private:
  const Instruction &I;
  std::vector<ParseDiagnostic> &Diags;
  TmemOp Op;
  bool Failed = false;
  bool Sync = false, Aligned = false;
  StringSet<> Seen;

  void error(const Twine &Msg, TextRange R) {
    Diags.push_back(
        {ParseDiagnostic::Severity::Error, (I.Opcode + ": " + Msg).str(), R});
    Failed = true;
  }
  void error(const Twine &Msg) { error(Msg, I.OpcodeRange); }
  TextRange rangeOf(size_t Idx) const {
    return Idx < I.Operands.size() ? I.Operands[Idx].Range : I.Range;
  }
  const Operand *operand(size_t Idx) const {
    return Idx < I.Operands.size() ? &I.Operands[Idx] : nullptr;
  }

  /// Walks the modifiers after the sub-op (Parts[2..]); \p Accept returns
  /// false for a modifier it does not know.
  template <typename Fn> void scanModifiers(Fn Accept) {
    for (size_t K = 2; K < I.Parts.size(); ++K) {
      StringRef Part = I.Parts[K];
      if (!Seen.insert(Part).second) {
        error("duplicate modifier '." + Part + "'");
        continue;
      }
      if (Part == "sync") {
        Sync = true;
        continue;
      }
      if (Part == "aligned") {
        Aligned = true;
        continue;
      }
      if (Part.starts_with("cta_group")) {
        parseCtaGroup(Part);
        continue;
      }
      if (Part == "exclusive") {
        error("'.exclusive' (PTX ISA 9.4) is not supported by ptxas 13.0");
        continue;
      }
      if (!Accept(Part))
        error("unknown modifier '." + Part + "' for tcgen05." + I.Parts[1]);
    }
  }

  void parseCtaGroup(StringRef Part) {
    if (Op.Group != CtaGroup::Unspecified) {
      error("'.cta_group' given twice");
      return;
    }
    if (Part == "cta_group::1")
      Op.Group = CtaGroup::One;
    else if (Part == "cta_group::2")
      Op.Group = CtaGroup::Two;
    else
      error("invalid '." + Part +
            "' (expected .cta_group::1 or .cta_group::2)");
  }

  void requireCtaGroup() {
    if (Op.Group == CtaGroup::Unspecified && !Failed)
      error("missing '.cta_group::1' or '.cta_group::2'");
  }
  void forbidCtaGroup() {
    if (Op.Group != CtaGroup::Unspecified)
      error("'.cta_group' is not allowed on tcgen05." + I.Parts[1]);
  }
  void requireSyncAligned() {
    if (!Sync || !Aligned)
      error("missing '.sync.aligned' (tcgen05." + I.Parts[1] +
            " is warp-collective)");
  }
  void forbidSyncAligned() {
    if (Sync || Aligned)
      error("'.sync.aligned' is not allowed on tcgen05." + I.Parts[1]);
  }
  void requirePart(StringRef Part) {
    if (!Seen.contains(Part))
      error("missing '." + Part + "'");
  }

  bool expectOperandCount(size_t Min, size_t Max, StringRef Syntax) {
    size_t N = I.Operands.size();
    if (N >= Min && N <= Max)
      return true;
    std::string Want = Min == Max
                           ? std::to_string(Min)
                           : std::to_string(Min) + " to " + std::to_string(Max);
    error("expected " + Twine(Want) + " operand" + (Max == 1 ? "" : "s") +
              " (" + Syntax + "), found " + Twine(N),
          I.Range);
    return false;
  }
  bool expectAddress(size_t Idx, StringRef What) {
    const Operand *O = operand(Idx);
    if (O && O->K == Operand::Kind::Address)
      return true;
    error("operand " + Twine(Idx + 1) + " (" + What +
              ") must be an address in brackets",
          rangeOf(Idx));
    return false;
  }
  bool expectLeaf(size_t Idx, StringRef What) {
    const Operand *O = operand(Idx);
    if (O && O->isLeaf())
      return true;
    error("operand " + Twine(Idx + 1) + " (" + What +
              ") must be a register, asm operand or immediate",
          rangeOf(Idx));
    return false;
  }

  void decodeAlloc();
  void decodeDealloc();
  void decodeRelinquish();
  void decodeLdSt(bool IsLoad);
  void decodeWait(bool IsLoad);
  void decodeCopy();
  void decodeShift();
  void decodeMma();
  void decodeCommit();
  void decodeFence(bool Before);
};

void Decoder::decodeAlloc() {
  Op.Kind = TmemOpKind::Alloc;
  scanModifiers([](StringRef P) { return P == "shared::cta" || P == "b32"; });
  requireCtaGroup();
  requireSyncAligned();
  requirePart("b32");
  if (expectOperandCount(2, 2, "[dst], nCols")) {
    expectAddress(0, "shared-memory destination [dst]");
    expectLeaf(1, "nCols");
    Op.SlotOperand = 0;
    Op.NColsOperand = 1;
  }
}

void Decoder::decodeDealloc() {
  Op.Kind = TmemOpKind::Dealloc;
  scanModifiers([](StringRef P) { return P == "b32"; });
  requireCtaGroup();
  requireSyncAligned();
  requirePart("b32");
  if (expectOperandCount(2, 2, "taddr, nCols")) {
    expectLeaf(0, "taddr");
    expectLeaf(1, "nCols");
    Op.TmemAddrOperand = 0;
    Op.NColsOperand = 1;
  }
}

void Decoder::decodeRelinquish() {
  Op.Kind = TmemOpKind::RelinquishAllocPermit;
  scanModifiers([](StringRef) { return false; });
  requireCtaGroup();
  requireSyncAligned();
  expectOperandCount(0, 0, "none");
}

void Decoder::decodeLdSt(bool IsLoad) {
  Op.Kind = IsLoad ? TmemOpKind::Load : TmemOpKind::Store;
  Op.Issue = IssueGranularity::WarpCollective;
  Op.Completion =
      IsLoad ? CompletionClass::WaitLoad : CompletionClass::WaitStore;
  StringRef ShapeText, RepeatText, RedOp, RedType;
  bool B32 = false;
  scanModifiers([&](StringRef P) {
    std::optional<LdStShape> Shape = StringSwitch<std::optional<LdStShape>>(P)
                                         .Case("32x32b", LdStShape::S32x32b)
                                         .Case("16x64b", LdStShape::S16x64b)
                                         .Case("16x128b", LdStShape::S16x128b)
                                         .Case("16x256b", LdStShape::S16x256b)
                                         .Case("16x32bx2", LdStShape::S16x32bx2)
                                         .Default(std::nullopt);
    if (Shape) {
      if (Op.LdSt)
        error("more than one shape ('." + ShapeText + "' and '." + P + "')");
      Op.LdSt = Shape;
      ShapeText = P;
      return true;
    }
    if (P.size() > 1 && P[0] == 'x' && all_of(P.drop_front(), isDigit)) {
      if (!RepeatText.empty())
        error("more than one repeat count");
      RepeatText = P;
      return true;
    }
    if (P == "b32") {
      B32 = true;
      return true;
    }
    if (IsLoad && P == "pack::16b") {
      Op.Packed16 = true;
      return true;
    }
    if (!IsLoad && P == "unpack::16b") {
      Op.Packed16 = true;
      return true;
    }
    if (IsLoad && P == "red") {
      Op.Reduction = true;
      return true;
    }
    if (IsLoad && (P == "min" || P == "max")) {
      if (!RedOp.empty())
        error("more than one reduction operation");
      RedOp = P;
      return true;
    }
    if (IsLoad && (P == "abs" || P == "NaN"))
      return true;
    if (IsLoad && (P == "f32" || P == "u32" || P == "s32")) {
      RedType = P;
      return true;
    }
    return false;
  });
  forbidCtaGroup();
  requireSyncAligned();
  if (!Op.LdSt) {
    error("missing shape (one of .32x32b, .16x64b, .16x128b, .16x256b, "
          ".16x32bx2)");
    return;
  }
  if (RepeatText.empty()) {
    error("missing repeat count '.xN'");
    return;
  }
  unsigned N = 0;
  unsigned Max = maxLdStRepeat(*Op.LdSt);
  if (RepeatText.drop_front().getAsInteger(10, N) || !isPowerOf2_32(N) ||
      N > Max) {
    error("'." + RepeatText + "' is not a legal repeat count for ." +
          ShapeText + " (powers of two from .x1 to .x" + Twine(Max) + ")");
    return;
  }
  Op.Repeat = N;
  Op.RegisterCount = ldStRegisterCount(*Op.LdSt, N);

  if (Op.Reduction) {
    if (*Op.LdSt != LdStShape::S32x32b && *Op.LdSt != LdStShape::S16x32bx2)
      error("'.red' requires shape .32x32b or .16x32bx2");
    if (RedOp.empty())
      error("'.red' requires '.min' or '.max'");
    if (RedType.empty())
      error("'.red' requires a type (.f32, .u32 or .s32)");
    if (B32)
      error("'.red' takes .f32/.u32/.s32, not .b32");
    if (N < 2)
      error("'.red' requires .x2 or larger");
    if ((Seen.contains("abs") || Seen.contains("NaN")) && RedType != "f32")
      error("'.abs' and '.NaN' require .f32");
  } else {
    if (!RedOp.empty() || !RedType.empty() || Seen.contains("abs") ||
        Seen.contains("NaN"))
      error("reduction modifiers need 'tcgen05.ld.red'");
    if (!B32)
      error("missing '.b32'");
  }
  if (Failed)
    return;

  bool Split = *Op.LdSt == LdStShape::S16x32bx2;
  size_t Want = 2 + (Split ? 1 : 0) + (Op.Reduction ? 1 : 0);
  if (I.Operands.size() != Want) {
    if (Split && I.Operands.size() + 1 == Want)
      error("missing the immediate half-split offset required by .16x32bx2",
            I.Range);
    else
      error("expected " + Twine(Want) + " operands (" +
                (IsLoad ? (Op.Reduction ? "{r...}, redval, [taddr]"
                                        : "{r...}, [taddr]")
                        : "[taddr], {r...}") +
                (Split ? (IsLoad ? ", splitOffset"
                                 : " with splitOffset after "
                                   "[taddr]")
                       : "") +
                "), found " + Twine(I.Operands.size()),
            I.Range);
    return;
  }
  size_t Idx = 0;
  if (IsLoad) {
    Op.DataOperand = Idx++;
    if (Op.Reduction) {
      expectLeaf(Idx, "redval");
      Op.RedValOperand = Idx++;
    }
    Op.TmemAddrOperand = Idx++;
    if (Split)
      Op.SplitOffsetOperand = Idx++;
  } else {
    Op.TmemAddrOperand = Idx++;
    if (Split)
      Op.SplitOffsetOperand = Idx++;
    Op.DataOperand = Idx++;
  }
  expectAddress(Op.TmemAddrOperand, "TMEM address [taddr]");

  std::optional<int64_t> SplitValue;
  if (Split) {
    const Operand &S = I.Operands[Op.SplitOffsetOperand];
    if (S.K == Operand::Kind::Immediate)
      SplitValue = S.Imm;
    else if (S.K != Operand::Kind::AsmOperand)
      error("the .16x32bx2 half-split offset must be an immediate (ptxas: "
            "\"Arguments mismatch\")",
            S.Range);
  }

  const Operand &Data = I.Operands[Op.DataOperand];
  if (Data.K != Operand::Kind::Vector) {
    error("the data operand must be a vector '{...}' of " +
              Twine(Op.RegisterCount) + " register" +
              (Op.RegisterCount == 1 ? "" : "s"),
          Data.Range);
  } else if (Data.Elements.size() != Op.RegisterCount) {
    error("data vector has " + Twine(Data.Elements.size()) + " register" +
              (Data.Elements.size() == 1 ? "" : "s") + " but ." + ShapeText +
              ".x" + Twine(N) + " needs " + Twine(Op.RegisterCount) +
              " (ptxas: \"Argument vector size mismatch\")",
          Data.Range);
  }
  Op.Access = ldStFootprint(*Op.LdSt, N, Op.Packed16, SplitValue);
}

void Decoder::decodeWait(bool IsLoad) {
  Op.Kind = IsLoad ? TmemOpKind::WaitLoad : TmemOpKind::WaitStore;
  scanModifiers([](StringRef) { return false; });
  forbidCtaGroup();
  requireSyncAligned();
  expectOperandCount(0, 0, "none");
}

void Decoder::decodeCopy() {
  Op.Kind = TmemOpKind::Copy;
  Op.Issue = IssueGranularity::SingleThread;
  Op.Completion = CompletionClass::Commit;
  StringRef Shape;
  bool B8x16 = false;
  scanModifiers([&](StringRef P) {
    if (P == "128x256b" || P == "4x256b" || P == "128x128b" || P == "64x128b" ||
        P == "32x128b") {
      if (!Shape.empty())
        error("more than one shape ('." + Shape + "' and '." + P + "')");
      Shape = P;
      return true;
    }
    if (P == "warpx2::02_13" || P == "warpx2::01_23" || P == "warpx4") {
      if (!Op.Multicast.empty())
        error("more than one multicast qualifier");
      Op.Multicast = P.str();
      return true;
    }
    if (P == "b8x16") {
      B8x16 = true;
      return true;
    }
    if (P == "b6x16_p32" || P == "b4x16_p64") {
      if (!Op.SourceFormat.empty())
        error("more than one source format");
      Op.SourceFormat = P.str();
      return true;
    }
    return false;
  });
  requireCtaGroup();
  forbidSyncAligned();
  if (Shape.empty()) {
    error("missing shape (one of .128x256b, .4x256b, .128x128b, .64x128b, "
          ".32x128b)");
    return;
  }
  StringRef MC = Op.Multicast;
  if (Shape == "64x128b") {
    if (MC == "warpx2::02_13")
      Op.Cp = CopyShape::S64x128bWarpx2_02_13;
    else if (MC == "warpx2::01_23")
      Op.Cp = CopyShape::S64x128bWarpx2_01_23;
    else
      error(".64x128b requires '.warpx2::02_13' or '.warpx2::01_23'");
  } else if (Shape == "32x128b") {
    if (MC == "warpx4")
      Op.Cp = CopyShape::S32x128bWarpx4;
    else
      error(".32x128b requires '.warpx4'");
  } else {
    if (!MC.empty())
      error("'." + MC + "' is not allowed with ." + Shape);
    Op.Cp = StringSwitch<CopyShape>(Shape)
                .Case("128x256b", CopyShape::S128x256b)
                .Case("4x256b", CopyShape::S4x256b)
                .Default(CopyShape::S128x128b);
  }
  if (B8x16 && Op.SourceFormat.empty())
    error("'.b8x16' requires a source format (.b6x16_p32 or .b4x16_p64)");
  if (!B8x16 && !Op.SourceFormat.empty())
    error("'." + Op.SourceFormat + "' must follow '.b8x16'");
  if (expectOperandCount(2, 2, "[taddr], s_desc")) {
    expectAddress(0, "TMEM address [taddr]");
    expectLeaf(1, "s_desc");
    Op.TmemAddrOperand = 0;
    Op.SourceDescOperand = 1;
  }
  if (Op.Cp)
    Op.Access = copyFootprint(*Op.Cp);
}

void Decoder::decodeShift() {
  Op.Kind = TmemOpKind::Shift;
  Op.Issue = IssueGranularity::SingleThread;
  Op.Completion = CompletionClass::Commit;
  scanModifiers([](StringRef P) { return P == "down"; });
  requireCtaGroup();
  forbidSyncAligned();
  requirePart("down");
  if (expectOperandCount(1, 1, "[taddr]")) {
    expectAddress(0, "TMEM address [taddr]");
    Op.TmemAddrOperand = 0;
  }
  Op.Access = shiftFootprint();
}

void Decoder::decodeMma() {
  Op.Kind = TmemOpKind::Mma;
  Op.Issue = IssueGranularity::SingleThread;
  Op.Completion = CompletionClass::Commit;
  StringRef KindText, ScaleVecText, BlockText;
  scanModifiers([&](StringRef P) {
    if (P == "sp") {
      Op.Sparse = true;
      return true;
    }
    if (P == "ws") {
      Op.WeightStationary = true;
      return true;
    }
    if (P.starts_with("kind::")) {
      std::optional<MmaKind> K = StringSwitch<std::optional<MmaKind>>(P)
                                     .Case("kind::f16", MmaKind::F16)
                                     .Case("kind::tf32", MmaKind::TF32)
                                     .Case("kind::f8f6f4", MmaKind::F8F6F4)
                                     .Case("kind::i8", MmaKind::I8)
                                     .Case("kind::mxf8f6f4", MmaKind::MXF8F6F4)
                                     .Case("kind::mxf4", MmaKind::MXF4)
                                     .Case("kind::mxf4nvf4", MmaKind::MXF4NVF4)
                                     .Default(std::nullopt);
      if (!K) {
        error("unknown '." + P + "'");
        return true;
      }
      if (Op.Mma)
        error("more than one '.kind'");
      Op.Mma = K;
      KindText = P;
      return true;
    }
    if (P == "block_scale") {
      Op.BlockScale = true;
      return true;
    }
    if (P == "scale_vec::1X" || P == "scale_vec::2X" || P == "scale_vec::4X") {
      if (!ScaleVecText.empty())
        error("more than one '.scale_vec'");
      ScaleVecText = P;
      return true;
    }
    if (P == "block16" || P == "block32") {
      if (!BlockText.empty())
        error("more than one block size");
      BlockText = P;
      return true;
    }
    if (P.starts_with("collector::")) {
      StringRef Rest = P.drop_front(strlen("collector::"));
      auto [Buffer, Usage] = Rest.split("::");
      bool UsageOk = Usage == "fill" || Usage == "use" || Usage == "lastuse" ||
                     Usage == "discard";
      bool BufferOk = Buffer == "a" || Buffer == "b0" || Buffer == "b1" ||
                      Buffer == "b2" || Buffer == "b3";
      if (!UsageOk || !BufferOk) {
        error("invalid collector qualifier '." + P + "'");
        return true;
      }
      if (!Op.Collector.empty())
        error("more than one collector qualifier");
      Op.Collector = Rest.str();
      return true;
    }
    if (P == "ashift") {
      Op.AShift = true;
      return true;
    }
    return false;
  });
  requireCtaGroup();
  forbidSyncAligned();
  if (!Op.Mma) {
    error("missing '.kind::' (f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, "
          "mxf4nvf4)");
    return;
  }
  MmaKind K = *Op.Mma;
  bool MxKind =
      K == MmaKind::MXF8F6F4 || K == MmaKind::MXF4 || K == MmaKind::MXF4NVF4;

  // Block scaling (rules §6 S1).
  if (!Op.BlockScale && (!ScaleVecText.empty() || !BlockText.empty()))
    error("'.scale_vec'/'.block16'/'.block32' require '.block_scale'");
  if (MxKind && !Op.BlockScale)
    error("'." + KindText + "' requires '.block_scale'");
  if (!MxKind && Op.BlockScale)
    error("'.block_scale' is only valid with .kind::mxf8f6f4, .kind::mxf4 "
          "or .kind::mxf4nvf4");
  if (!ScaleVecText.empty() && !BlockText.empty())
    error("'.scale_vec' and '." + BlockText + "' are mutually exclusive");
  if (MxKind && Op.BlockScale) {
    unsigned Vec = 0;
    if (ScaleVecText == "scale_vec::1X")
      Vec = 1;
    else if (ScaleVecText == "scale_vec::2X")
      Vec = 2;
    else if (ScaleVecText == "scale_vec::4X")
      Vec = 4;
    else if (BlockText == "block16")
      Vec = 4;
    else if (BlockText == "block32")
      Vec = K == MmaKind::MXF8F6F4 ? 1 : 2;
    else if (K == MmaKind::MXF8F6F4)
      Vec = 1;
    else if (K == MmaKind::MXF4)
      Vec = 2;
    else
      error(".kind::mxf4nvf4 requires '.scale_vec::2X', '.scale_vec::4X', "
            "'.block16' or '.block32'");
    bool Legal = Vec == 0 || (K == MmaKind::MXF8F6F4 && Vec == 1) ||
                 (K == MmaKind::MXF4 && Vec == 2) ||
                 (K == MmaKind::MXF4NVF4 && (Vec == 2 || Vec == 4));
    if (!Legal)
      error("'." + (ScaleVecText.empty() ? BlockText : ScaleVecText) +
            "' is not valid with ." + KindText);
    Op.ScaleVec = Legal ? Vec : 0;
  }

  // Weight-stationary and collector rules.
  if (Op.WeightStationary) {
    if (Op.Group == CtaGroup::Two)
      error("'.ws' exists only for .cta_group::1");
    if (MxKind || Op.BlockScale)
      error("'.ws' does not support block-scaled kinds");
    if (!Op.Collector.empty() && Op.Collector[0] == 'a')
      error("'.ws' uses collector buffers b0..b3, not '.collector::a'");
  } else if (!Op.Collector.empty() && Op.Collector[0] == 'b') {
    error("collector buffers b0..b3 require '.ws'");
  }
  if (Failed)
    return;

  // Operands: [d], a, b, {[sp_meta],} idesc, {[sfa], [sfb],} {{mask},}
  // enable_input_d {, scale_input_d}   -- .ws: ... enable_input_d
  // {, zero_column_mask}.
  size_t N = I.Operands.size();
  size_t Idx = 0;
  auto Need = [&](StringRef What) {
    if (Idx < N)
      return true;
    error("missing operand " + Twine(Idx + 1) + " (" + What + ")", I.Range);
    return false;
  };
  if (!Need("[d_tmem]"))
    return;
  expectAddress(Idx, "accumulator [d_tmem]");
  Op.TmemAddrOperand = Idx++;
  if (!Need("a_desc or [a_tmem]"))
    return;
  Op.ATmem = I.Operands[Idx].K == Operand::Kind::Address;
  if (!Op.ATmem)
    expectLeaf(Idx, "a_desc");
  Op.ADescOrTmemOperand = Idx++;
  if (!Need("b_desc"))
    return;
  expectLeaf(Idx, "b_desc");
  Op.BDescOperand = Idx++;
  if (Op.Sparse) {
    if (!Need("[sp_meta]"))
      return;
    expectAddress(Idx, "sparsity metadata [sp_meta]");
    Op.SparseMetaOperand = Idx++;
  }
  if (!Need("idesc"))
    return;
  expectLeaf(Idx, "idesc");
  Op.IdescOperand = Idx++;
  if (Op.BlockScale) {
    if (!Need("[scale_A]"))
      return;
    expectAddress(Idx, "scale factors [scale_A]");
    Op.SfaOperand = Idx++;
    if (!Need("[scale_B]"))
      return;
    expectAddress(Idx, "scale factors [scale_B]");
    Op.SfbOperand = Idx++;
  }
  if (!Op.WeightStationary && Idx < N &&
      I.Operands[Idx].K == Operand::Kind::Vector) {
    if (Op.BlockScale)
      error("a disable-output-lane vector is not allowed with "
            "'.block_scale' (ptxas: \"Arguments mismatch\")",
            I.Operands[Idx].Range);
    size_t Want = Op.Group == CtaGroup::Two ? 8 : 4;
    if (I.Operands[Idx].Elements.size() != Want)
      error("disable-output-lane vector has " +
                Twine(I.Operands[Idx].Elements.size()) +
                " elements, expected " + Twine(Want) + " for ." +
                (Op.Group == CtaGroup::Two ? "cta_group::2" : "cta_group::1"),
            I.Operands[Idx].Range);
    Op.DisableOutputLaneOperand = Idx++;
  }
  if (!Need("enable_input_d"))
    return;
  expectLeaf(Idx, "enable_input_d predicate");
  Op.EnableInputDOperand = Idx++;
  if (Idx < N) {
    if (Op.WeightStationary) {
      expectLeaf(Idx, "zero_column_mask");
      Op.ZeroColumnMaskOperand = Idx++;
    } else {
      if (K != MmaKind::F16 && K != MmaKind::TF32)
        error("scale_input_d is only valid with .kind::f16 and .kind::tf32",
              I.Operands[Idx].Range);
      const Operand &S = I.Operands[Idx];
      if (S.K == Operand::Kind::Immediate && (S.Imm < 0 || S.Imm > 15))
        error("scale_input_d " + Twine(S.Imm) +
                  " is out of range (expected 0..15)",
              S.Range);
      else if (S.K != Operand::Kind::Immediate &&
               S.K != Operand::Kind::AsmOperand)
        error("scale_input_d must be an immediate", S.Range);
      Op.ScaleInputDOperand = Idx++;
    }
  }
  if (Idx < N)
    error("too many operands: expected at most " + Twine(Idx) + ", found " +
              Twine(N),
          I.Operands[Idx].Range);
  if (Op.AShift && !Op.ATmem)
    error("'.ashift' requires the A operand in tensor memory ([a_tmem])");
}

void Decoder::decodeCommit() {
  Op.Kind = TmemOpKind::Commit;
  Op.Issue = IssueGranularity::SingleThread;
  Op.Completion = CompletionClass::Synchronous;
  scanModifiers([&](StringRef P) {
    if (P == "multicast::cluster") {
      Op.CommitMulticast = true;
      return true;
    }
    return P == "mbarrier::arrive::one" || P == "shared::cluster" || P == "b64";
  });
  requireCtaGroup();
  forbidSyncAligned();
  requirePart("mbarrier::arrive::one");
  requirePart("b64");
  if (Op.CommitMulticast) {
    if (expectOperandCount(2, 2, "[mbar], ctaMask")) {
      expectAddress(0, "mbarrier [mbar]");
      expectLeaf(1, "ctaMask");
      Op.MbarOperand = 0;
      Op.CtaMaskOperand = 1;
    }
  } else if (expectOperandCount(1, 1, "[mbar]")) {
    expectAddress(0, "mbarrier [mbar]");
    Op.MbarOperand = 0;
  }
}

void Decoder::decodeFence(bool Before) {
  Op.Kind = Before ? TmemOpKind::FenceBeforeThreadSync
                   : TmemOpKind::FenceAfterThreadSync;
  Op.Issue = IssueGranularity::AnyThread;
  scanModifiers([](StringRef) { return false; });
  forbidCtaGroup();
  forbidSyncAligned();
  expectOperandCount(0, 0, "none");
}

std::optional<TmemOp> Decoder::run() {
  if (I.Parts.size() < 2) {
    error("incomplete tcgen05 instruction");
    return std::nullopt;
  }
  StringRef Sub = I.Parts[1];
  // Defaults; the decoders override Issue/Completion where they differ.
  Op.Issue = IssueGranularity::WarpCollective;
  Op.Completion = CompletionClass::Synchronous;
  if (Sub == "alloc")
    decodeAlloc();
  else if (Sub == "dealloc")
    decodeDealloc();
  else if (Sub == "relinquish_alloc_permit")
    decodeRelinquish();
  else if (Sub == "ld")
    decodeLdSt(true);
  else if (Sub == "st")
    decodeLdSt(false);
  else if (Sub == "wait::ld")
    decodeWait(true);
  else if (Sub == "wait::st")
    decodeWait(false);
  else if (Sub == "cp")
    decodeCopy();
  else if (Sub == "shift")
    decodeShift();
  else if (Sub == "mma")
    decodeMma();
  else if (Sub == "commit")
    decodeCommit();
  else if (Sub == "fence::before_thread_sync")
    decodeFence(true);
  else if (Sub == "fence::after_thread_sync")
    decodeFence(false);
  else
    error("unknown tcgen05 instruction 'tcgen05." + Sub + "'");
  if (Failed)
    return std::nullopt;
  return Op;
}

} // namespace

std::optional<TmemOp> decodeTmemOp(const ptx::Instruction &I,
                                   std::vector<ptx::ParseDiagnostic> &Diags) {
  if (I.base() != "tcgen05")
    return std::nullopt;
  return Decoder(I, Diags).run();
}

} // namespace tmemcheck
