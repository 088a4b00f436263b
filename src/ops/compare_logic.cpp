// Comparison, logical and bitwise ops: Eq/Ne/Gt/Ge/Lt/Le (tensor and scalar forms, in place),
// Equal (whole-tensor equality), LogicalAnd/Or/Xor and BitwiseAnd/Or/Xor.
//  - Comparisons compute in the promoted dtype of their operands and write true/false as 1/0 in
//    out's dtype (in place: selfRef's). Against a scalar, a floating tensor keeps its dtype (the
//    scalar is rounded to it, as PyTorch does); an integral or bool tensor compares in the promoted
//    dtype of tensor and scalar, so an integer scalar out of the tensor's range compares exactly
//    instead of wrapping (CANN's Gt/Ge/Lt/Le do the same on 910B).
//  - Logical ops read each operand as "!= 0" in its own dtype (NaN is true).
//  - Bitwise ops work on integers and bool (bool: logical). A scalar operand promotes with the
//    tensor as a tensor would (CANN's 910B rule), so `int8 & int64(0x100)` computes in int64.
#include <cstring>
#include <memory>
#include <type_traits>

#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_bitwiseand.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_equal.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "core/phase.h"
#include "ops/binary_args.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// ---- functors -----------------------------------------------------------------------------------

template <typename T>
struct EqOp {
  bool operator()(T a, T b) const { return a == b; }
};
template <typename T>
struct NeOp {
  bool operator()(T a, T b) const { return a != b; }
};
template <typename T>
struct GtOp {
  bool operator()(T a, T b) const { return a > b; }
};
template <typename T>
struct GeOp {
  bool operator()(T a, T b) const { return a >= b; }
};
template <typename T>
struct LtOp {
  bool operator()(T a, T b) const { return a < b; }
};
template <typename T>
struct LeOp {
  bool operator()(T a, T b) const { return a <= b; }
};

// Logical ops compute in bool: the engine converts each operand with "!= 0" (NaN is true).
template <typename T>
struct LogicalAndOp {
  bool operator()(T a, T b) const { return a != T(0) && b != T(0); }
};
template <typename T>
struct LogicalOrOp {
  bool operator()(T a, T b) const { return a != T(0) || b != T(0); }
};
template <typename T>
struct LogicalXorOp {
  bool operator()(T a, T b) const { return (a != T(0)) != (b != T(0)); }
};

// Bitwise ops are planned for integral and bool compute dtypes only; the floating instantiations
// exist because the engine's type switch names every type, and are never run.
template <typename T>
struct BitAndOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(a & b);
    else return T(0);
  }
};
template <typename T>
struct BitOrOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a || b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(a | b);
    else return T(0);
  }
};
template <typename T>
struct BitXorOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a != b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(a ^ b);
    else return T(0);
  }
};

// ---- comparisons ------------------------------------------------------------------------------

constexpr BinaryMasks kCompareMasks{kAllTypes, kAllTypes, kAllTypes};

// The dtype self (op) other is compared in.
DType compare_dtype(const BinaryArgs& x) {
  if (!x.is_scalar(1)) return promote(x.dtype(0), x.dtype(1));
  if (is_floating(x.dtype(0))) return x.dtype(0);
  return promote(x.dtype(0), x.dtype(1));
}

template <template <typename> class F>
void plan_compare(OpBuilder& b, BinaryInput self, BinaryInput other, const aclTensor* out, bool inplace) {
  const BinaryArgs x = check_binary(b, self, other, out, inplace, kCompareMasks);
  plan_binary<TypeSet::kAll>(b, x, compare_dtype(x), functor<F>);
}

template <template <typename> class F>
void plan_logical(OpBuilder& b, const aclTensor* self, const aclTensor* other, const aclTensor* out, bool inplace) {
  const BinaryArgs x = check_binary(b, tensor_arg(self, inplace ? "selfRef" : "self"), tensor_arg(other, "other"), out,
                                    inplace, kCompareMasks);
  plan_binary<TypeSet::kAll>(b, x, DType::kBool, functor<F>);
}

// ---- bitwise ----------------------------------------------------------------------------------

constexpr DTypeMask kBitwiseInputs = kIntegralTypes | dtype_mask({DType::kBool});

template <template <typename> class F>
void plan_bitwise(OpBuilder& b, BinaryInput self, BinaryInput other, const aclTensor* out, bool inplace,
                  DTypeMask out_mask) {
  const BinaryArgs x = check_binary(b, self, other, out, inplace, BinaryMasks{kBitwiseInputs, kBitwiseInputs, out_mask});
  const DType result = promote(x.dtype(0), x.dtype(1));
  check_can_cast(result, *x.out, x.out_name);
  plan_binary<TypeSet::kAll>(b, x, result, functor<F>);
}

// Out dtypes CANN's 910B kernels accept: tensor forms of And/Or integers and bool; Xor and the
// scalar forms also floating types.
constexpr DTypeMask kBitwiseOutInt = kBitwiseInputs;
constexpr DTypeMask kBitwiseOutAny = kAllTypes;

// ---- Equal ------------------------------------------------------------------------------------

// Writes one constant bool (shapes differ, or both tensors are empty with the same shape).
class ConstantBoolKernel final : public Kernel {
 public:
  ConstantBoolKernel(int out_slot, bool value) : out_slot_(out_slot), value_(value) {}
  std::string name() const override { return value_ ? "equal.constant<true>" : "equal.constant<false>"; }
  void run(void* const* data, void* /*workspace*/) const override {
    const unsigned char v = value_ ? 1 : 0;
    std::memcpy(data[out_slot_], &v, 1);
  }

 private:
  int out_slot_;
  bool value_;
};

// Compares two same-shape tensors element by element in T; stops at the first difference.
// Workspace: two chunk buffers of T (operands are converted to T, a chunk at a time).
template <typename T>
class TensorEqualKernel final : public Kernel {
  static constexpr int64_t kChunk = 512;

 public:
  TensorEqualKernel(Geometry g, int a_slot, DType a_dtype, int b_slot, DType b_dtype, int out_slot)
      : g_(std::move(g)), slot_{a_slot, b_slot}, dtype_{a_dtype, b_dtype}, out_slot_(out_slot) {}
  static constexpr uint64_t workspace_bytes() { return 2 * kChunk * sizeof(T); }
  std::string name() const override { return std::string("equal<") + dtype_name(dtype_of<T>()) + ">"; }

  void run(void* const* data, void* workspace) const override {
    const unsigned char v = all_equal(data, static_cast<T*>(workspace)) ? 1 : 0;
    std::memcpy(data[out_slot_], &v, 1);
  }

 private:
  bool all_equal(void* const* data, T* buf) const {
    constexpr DType kT = dtype_of<T>();
    const size_t nd = g_.shape.size();
    const int64_t inner = nd ? g_.shape[nd - 1] : 1;
    int64_t rows = 1;
    for (size_t d = 0; d + 1 < nd; ++d) rows *= g_.shape[d];
    const char* base[2];
    int64_t esize[2], stride[2];
    for (int k = 0; k < 2; ++k) {
      base[k] = static_cast<const char*>(data[slot_[k]]);
      esize[k] = static_cast<int64_t>(dtype_size(dtype_[k]));
      stride[k] = nd ? g_.strides[k][nd - 1] : 0;
    }
    T* tmp[2] = {buf, buf + kChunk};
    std::vector<int64_t> idx(nd > 0 ? nd - 1 : 0, 0);
    int64_t off[2] = {0, 0};  // element offsets of the current row
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < inner; c += kChunk) {
        const int64_t m = std::min(kChunk, inner - c);
        for (int k = 0; k < 2; ++k)
          convert_strided(kT, tmp[k], 1, dtype_[k], base[k] + (off[k] + c * stride[k]) * esize[k], stride[k], m);
        for (int64_t i = 0; i < m; ++i)
          if (!(tmp[0][i] == tmp[1][i])) return false;
      }
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < g_.shape[d]) {
          for (int k = 0; k < 2; ++k) off[k] += g_.strides[k][d];
          break;
        }
        for (int k = 0; k < 2; ++k) off[k] -= g_.strides[k][d] * (g_.shape[d] - 1);
        idx[d] = 0;
      }
    }
    return true;
  }

  Geometry g_;
  int slot_[2];
  DType dtype_[2];
  int out_slot_;
};

void plan_equal(OpBuilder& b, const aclTensor* self_arg, const aclTensor* other_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& other = b.input(other_arg, "other");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_supported(b.op(), "self", self.dtype);
  check_dtype_supported(b.op(), "other", other.dtype);
  check_dtype_in(b.op(), "out", out.dtype, dtype_mask({DType::kBool}));
  check_rank(self, "self");
  check_rank(other, "other");
  check_rank(out, "out");
  if (out.view != Dims{1}) invalid("out has shape {}, expected [1]", dims_str(out.view));
  if (self.view != other.view || self.numel() == 0) {
    b.set_kernel(std::make_shared<ConstantBoolKernel>(b.slot_of(out), self.view == other.view));
    return;
  }
  const DType compute = arithmetic_dtype(promote(self.dtype, other.dtype));
  visit_arithmetic(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Geometry g = merge_dims(self.view, {self.strides, other.strides});
    b.set_kernel(std::make_shared<TensorEqualKernel<T>>(std::move(g), b.slot_of(self), self.dtype, b.slot_of(other),
                                                        other.dtype, b.slot_of(out)),
                 TensorEqualKernel<T>::workspace_bytes());
  });
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points -------------------------------------------------------------------------

#define PACL_PHASE1(Name, ...)                                                                     \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, \
                   [&](pacl::OpBuilder& b) { __VA_ARGS__; })

// Eq/Ne/Gt/Ge/Lt/Le: Tensor, Scalar and their in-place forms (selfRef's constness as in CANN).
#define PACL_COMPARE(Op, Functor, InplaceTensorSelf, InplaceScalarSelf)                                              \
  aclnnStatus aclnn##Op##TensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,       \
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {                 \
    return PACL_PHASE1(Op##Tensor, pacl::plan_compare<pacl::Functor>(b, pacl::tensor_arg(self, "self"),               \
                                                                     pacl::tensor_arg(other, "other"), out, false)); \
  }                                                                                                                  \
  aclnnStatus aclnnInplace##Op##TensorGetWorkspaceSize(InplaceTensorSelf selfRef, const aclTensor* other,            \
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {          \
    return PACL_PHASE1(Inplace##Op##Tensor,                                                                          \
                       pacl::plan_compare<pacl::Functor>(b, pacl::tensor_arg(selfRef, "selfRef"),                    \
                                                         pacl::tensor_arg(other, "other"), nullptr, true));          \
  }                                                                                                                  \
  aclnnStatus aclnn##Op##ScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,       \
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {                 \
    return PACL_PHASE1(Op##Scalar, pacl::plan_compare<pacl::Functor>(b, pacl::tensor_arg(self, "self"),               \
                                                                     pacl::scalar_arg(other, "other"), out, false)); \
  }                                                                                                                  \
  aclnnStatus aclnnInplace##Op##ScalarGetWorkspaceSize(InplaceScalarSelf selfRef, const aclScalar* other,            \
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {          \
    return PACL_PHASE1(Inplace##Op##Scalar,                                                                          \
                       pacl::plan_compare<pacl::Functor>(b, pacl::tensor_arg(selfRef, "selfRef"),                    \
                                                         pacl::scalar_arg(other, "other"), nullptr, true));          \
  }

// BitwiseAnd/Or/Xor: Tensor, Scalar and their in-place forms.
#define PACL_BITWISE(Op, Functor, InplaceTensorSelf, InplaceScalarSelf, TensorOutMask)                               \
  aclnnStatus aclnnBitwise##Op##TensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, \
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {          \
    return PACL_PHASE1(Bitwise##Op##Tensor,                                                                          \
                       pacl::plan_bitwise<pacl::Functor>(b, pacl::tensor_arg(self, "self"),                          \
                                                         pacl::tensor_arg(other, "other"), out, false,               \
                                                         pacl::TensorOutMask));                                      \
  }                                                                                                                  \
  aclnnStatus aclnnInplaceBitwise##Op##TensorGetWorkspaceSize(InplaceTensorSelf selfRef, const aclTensor* other,     \
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {   \
    return PACL_PHASE1(InplaceBitwise##Op##Tensor,                                                                   \
                       pacl::plan_bitwise<pacl::Functor>(b, pacl::tensor_arg(selfRef, "selfRef"),                    \
                                                         pacl::tensor_arg(other, "other"), nullptr, true,            \
                                                         pacl::kAllTypes));                                          \
  }                                                                                                                  \
  aclnnStatus aclnnBitwise##Op##ScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out, \
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {          \
    return PACL_PHASE1(Bitwise##Op##Scalar,                                                                          \
                       pacl::plan_bitwise<pacl::Functor>(b, pacl::tensor_arg(self, "self"),                          \
                                                         pacl::scalar_arg(other, "other"), out, false,               \
                                                         pacl::kBitwiseOutAny));                                     \
  }                                                                                                                  \
  aclnnStatus aclnnInplaceBitwise##Op##ScalarGetWorkspaceSize(InplaceScalarSelf selfRef, const aclScalar* other,     \
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {   \
    return PACL_PHASE1(InplaceBitwise##Op##Scalar,                                                                   \
                       pacl::plan_bitwise<pacl::Functor>(b, pacl::tensor_arg(selfRef, "selfRef"),                    \
                                                         pacl::scalar_arg(other, "other"), nullptr, true,            \
                                                         pacl::kAllTypes));                                          \
  }

extern "C" {

PACL_COMPARE(Eq, EqOp, const aclTensor*, const aclTensor*)
PACL_COMPARE(Ne, NeOp, aclTensor*, aclTensor*)
PACL_COMPARE(Gt, GtOp, const aclTensor*, aclTensor*)
PACL_COMPARE(Ge, GeOp, aclTensor*, aclTensor*)
PACL_COMPARE(Lt, LtOp, const aclTensor*, const aclTensor*)
PACL_COMPARE(Le, LeOp, aclTensor*, aclTensor*)

aclnnStatus aclnnEqualGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Equal, pacl::plan_equal(b, self, other, out));
}

aclnnStatus aclnnLogicalAndGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LogicalAnd, pacl::plan_logical<pacl::LogicalAndOp>(b, self, other, out, false));
}
aclnnStatus aclnnInplaceLogicalAndGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceLogicalAnd, pacl::plan_logical<pacl::LogicalAndOp>(b, selfRef, other, nullptr, true));
}
aclnnStatus aclnnLogicalOrGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LogicalOr, pacl::plan_logical<pacl::LogicalOrOp>(b, self, other, out, false));
}
aclnnStatus aclnnInplaceLogicalOrGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceLogicalOr, pacl::plan_logical<pacl::LogicalOrOp>(b, selfRef, other, nullptr, true));
}
aclnnStatus aclnnLogicalXorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LogicalXor, pacl::plan_logical<pacl::LogicalXorOp>(b, self, other, out, false));
}

PACL_BITWISE(And, BitAndOp, const aclTensor*, const aclTensor*, kBitwiseOutInt)
PACL_BITWISE(Or, BitOrOp, aclTensor*, aclTensor*, kBitwiseOutInt)
PACL_BITWISE(Xor, BitXorOp, aclTensor*, aclTensor*, kBitwiseOutAny)

aclnnStatus aclnnBitwiseAndTensorOutGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(BitwiseAndTensorOut,
                     pacl::plan_bitwise<pacl::BitAndOp>(b, pacl::tensor_arg(self, "self"),
                                                        pacl::tensor_arg(other, "other"), out, false,
                                                        pacl::kBitwiseOutInt));
}
aclnnStatus aclnnInplaceBitwiseAndTensorOutGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceBitwiseAndTensorOut,
                     pacl::plan_bitwise<pacl::BitAndOp>(b, pacl::tensor_arg(self, "self"),
                                                        pacl::tensor_arg(other, "other"), nullptr, true,
                                                        pacl::kAllTypes));
}

}  // extern "C"
