// Conversion, copy, fill and selection ops: Cast, InplaceCopy, InplaceFillScalar/Tensor, InplaceZero,
// InplaceOne, InplaceMaskedFillScalar/Tensor and SWhere. All are elementwise plans over the shared
// engine: a copy is the identity functor computed in the destination's arithmetic type (so no value
// passes through a narrower type than a direct conversion would), a fill is a constant input, a
// selection is a ternary functor.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_zero.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// ---- functors ---------------------------------------------------------------------------------

template <typename T>
struct Identity {
  static constexpr bool kIdentity = true;
  T operator()(T a) const { return a; }
};
// Floating -> integer conversion as CANN's Cast does it: NaN becomes 0 (the rest as PyTorch).
template <typename T>
struct NanToZero {
  T operator()(T a) const { return a != a ? T(0) : a; }
};
template <typename T>
struct Select {  // condition ? a : b
  T operator()(T c, T a, T b) const { return c != T(0) ? a : b; }
};
template <typename T>
struct MaskedFill {  // mask ? value : self
  T operator()(T self, T mask, T value) const { return mask != T(0) ? value : self; }
};

// ---- checks -----------------------------------------------------------------------------------

// Dtypes CANN's copy/cast accept that pacl has no storage type for yet.
bool cann_only_dtype(DType t) {
  return is_complex(t) || t == DType::kUInt16 || t == DType::kUInt32 || t == DType::kUInt64;
}

void check_copy_dtype(const OpInfo& op, const char* arg, DType t) {
  if (is_compute_dtype(t)) return;
  if (cann_only_dtype(t))
    unsupported("{} dtype {} is not supported by pacl's aclnn{} yet; supported: {}", arg, dtype_name(t), op.name,
                mask_names(kAllTypes));
  invalid("{} dtype {} is not supported by aclnn{}; supported: {}", arg, dtype_name(t), op.name,
          mask_names(kAllTypes));
}

void check_same_shape(const aclTensor& t, const char* arg, const aclTensor& ref, const char* ref_name) {
  if (t.view != ref.view)
    invalid("{} has shape {}, expected the shape of {} {}", arg, dims_str(t.view), ref_name, dims_str(ref.view));
}

// shape(in) must broadcast to shape(target) without changing it.
void check_broadcasts_to(const aclTensor& in, const char* in_name, const aclTensor& target, const char* target_name) {
  const Dims shape = broadcast_shapes(target.view, target_name, in.view, in_name);
  if (shape != target.view)
    invalid("{} {} cannot be broadcast to the shape {} of {}", in_name, dims_str(in.view), dims_str(target.view),
            target_name);
}

// A fill value of the constant 0 or 1 (InplaceZero, InplaceOne).
aclScalar int_scalar(int64_t v) {
  aclScalar s;
  s.dtype = DType::kInt64;
  std::memcpy(s.bytes, &v, sizeof v);
  return s;
}

// ---- copy with dtype conversion -----------------------------------------------------------------

// Byte range [lo, hi) a view touches, relative to its element [0..0].
struct Extent {
  int64_t lo = 0, hi = 0;
};
Extent extent_of(const Dims& shape, const Dims& strides, size_t esize) {
  Extent e;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t span = (shape[i] - 1) * strides[i];
    (span < 0 ? e.lo : e.hi) += span;
  }
  e.lo *= static_cast<int64_t>(esize);
  e.hi = (e.hi + 1) * static_cast<int64_t>(esize);
  return e;
}

// Runs a copy kernel whose source may share memory with its destination (x[1:] = x[:-1]): when the
// two byte ranges overlap at run time, and are not the very same view, the source is staged in a
// private copy first, so every element reads the value it had before the op.
class StagedSourceKernel final : public Kernel {
 public:
  StagedSourceKernel(std::shared_ptr<const Kernel> inner, int n_slots, int src_slot, int dst_slot, Extent src,
                     Extent dst, bool same_layout)
      : inner_(std::move(inner)), n_slots_(n_slots), src_slot_(src_slot), dst_slot_(dst_slot), src_(src), dst_(dst),
        same_layout_(same_layout) {}

  std::string name() const override { return inner_->name(); }

  void run(void* const* data, void* workspace) const override {
    const char* s = static_cast<const char*>(data[src_slot_]);
    const char* d = static_cast<const char*>(data[dst_slot_]);
    const bool overlap = s + src_.lo < d + dst_.hi && d + dst_.lo < s + src_.hi;
    if (!overlap || (same_layout_ && s == d)) {
      inner_->run(data, workspace);
      return;
    }
    std::vector<unsigned char> staged(static_cast<size_t>(src_.hi - src_.lo));
    std::memcpy(staged.data(), s + src_.lo, staged.size());
    std::vector<void*> rebound(data, data + n_slots_);
    rebound[static_cast<size_t>(src_slot_)] = staged.data() - src_.lo;
    inner_->run(rebound.data(), workspace);
  }

 private:
  std::shared_ptr<const Kernel> inner_;
  int n_slots_, src_slot_, dst_slot_;
  Extent src_, dst_;
  bool same_layout_;
};

// Plans dst = convert(src) over dst's shape (src broadcast). Computed in dst's arithmetic type, or in
// src's when a floating value becomes an integer (NaN -> 0 must see the floating value).
void plan_convert(OpBuilder& b, const aclTensor& src, const aclTensor& dst) {
  const std::string name = std::string("copy.") + b.op().name;
  std::array<EwInput, 1> in{EwInput{&src, nullptr}};
  if (is_floating(src.dtype) && is_integral(dst.dtype, false)) {
    plan_elementwise<1, TypeSet::kFloating>(b, name, src.dtype, dst, in, [](auto tag) {
      return NanToZero<typename decltype(tag)::type>{};
    });
  } else if (is_floating(src.dtype) && is_floating(dst.dtype)) {
    // Between floating dtypes, computing in the source dtype and letting the output conversion round
    // gives the same values as computing in the destination dtype (every intermediate is exact), with
    // one rounding pass instead of two (Cast float32 -> float16 was three passes over each chunk).
    plan_elementwise<1, TypeSet::kFloating>(b, name, src.dtype, dst, in,
                                            [](auto tag) { return Identity<typename decltype(tag)::type>{}; });
  } else {
    plan_elementwise<1>(b, name, dst.dtype, dst, in, [](auto tag) { return Identity<typename decltype(tag)::type>{}; });
  }
}

void plan_cast(OpBuilder& b, const aclTensor* self_arg, aclDataType dtype_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  const DType dtype = static_cast<DType>(dtype_arg);
  check_copy_dtype(b.op(), "self", self.dtype);
  check_copy_dtype(b.op(), "dtype", dtype);
  if (out.dtype != dtype)
    invalid("out dtype {} must equal the requested dtype {}", dtype_name(out.dtype), dtype_name(dtype));
  check_rank(self, "self");
  check_same_shape(out, "out", self, "self");
  plan_convert(b, self, out);
}

void plan_inplace_copy(OpBuilder& b, const aclTensor* self_arg, const aclTensor* src_arg) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  const aclTensor& src = b.input(src_arg, "src");
  check_copy_dtype(b.op(), "selfRef", self.dtype);
  check_copy_dtype(b.op(), "src", src.dtype);
  check_rank(self, "selfRef");
  check_rank(src, "src");
  check_broadcasts_to(src, "src", self, "selfRef");
  plan_convert(b, src, self);
  if (!b.kernel()) return;
  const Dims src_strides = broadcast_strides(src, self.view);
  Dims dst_strides = self.strides;
  for (size_t i = 0; i < self.view.size(); ++i)
    if (self.view[i] == 1) dst_strides[i] = 0;
  const bool same_layout = src.dtype == self.dtype && src_strides == dst_strides;
  b.set_kernel(std::make_shared<StagedSourceKernel>(b.kernel(), 2, b.slot_of(src), b.slot_of(self),
                                                    extent_of(src.view, src.strides, src.elem_size()),
                                                    extent_of(self.view, self.strides, self.elem_size()), same_layout),
               b.workspace_size());
}

// ---- fills --------------------------------------------------------------------------------------

// selfRef = value (a scalar, or a one-element tensor broadcast).
void plan_fill(OpBuilder& b, const aclTensor& self, EwInput value) {
  std::array<EwInput, 1> in{value};
  plan_elementwise<1>(b, std::string("fill.") + b.op().name, self.dtype, self, in,
                      [](auto tag) { return Identity<typename decltype(tag)::type>{}; });
}

void plan_fill_scalar(OpBuilder& b, const aclTensor* self_arg, const aclScalar* value_arg) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  const aclScalar& value = b.scalar(value_arg, "value");
  check_dtype_supported(b.op(), "selfRef", self.dtype);
  check_dtype_supported(b.op(), "value", value.dtype);
  check_rank(self, "selfRef");
  plan_fill(b, self, EwInput{nullptr, &value});
}

void plan_fill_tensor(OpBuilder& b, const aclTensor* self_arg, const aclTensor* value_arg) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  const aclTensor& value = b.input(value_arg, "value");
  check_dtype_supported(b.op(), "selfRef", self.dtype);
  check_dtype_supported(b.op(), "value", value.dtype);
  check_rank(self, "selfRef");
  if (value.dim() > 1 || (value.dim() == 1 && value.view[0] != 1))
    invalid("value must be a 0-d tensor or a 1-d tensor of one element, got shape {}", dims_str(value.view));
  plan_fill(b, self, EwInput{&value, nullptr});
}

void plan_fill_constant(OpBuilder& b, const aclTensor* self_arg, int64_t v, bool check_dims) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  check_dtype_supported(b.op(), "selfRef", self.dtype);
  if (check_dims) check_rank(self, "selfRef");
  const aclScalar value = int_scalar(v);
  plan_fill(b, self, EwInput{nullptr, &value});
}

// ---- masked fill and where ----------------------------------------------------------------------

inline constexpr DTypeMask kMaskedFillTypes = dtype_mask(
    {DType::kBool, DType::kInt8, DType::kInt32, DType::kInt64, DType::kFloat, DType::kFloat16, DType::kBFloat16});

// selfRef = mask ? value : selfRef, value a scalar or a 0-d tensor.
void plan_masked_fill(OpBuilder& b, const aclTensor* self_arg, const aclTensor* mask_arg,
                      const aclTensor* value_tensor, const aclScalar* value_scalar, bool scalar_form) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  const aclTensor& mask = b.input(mask_arg, "mask");
  const EwInput value = scalar_form ? EwInput{nullptr, &b.scalar(value_scalar, "value")}
                                     : EwInput{&b.input(value_tensor, "value"), nullptr};
  check_dtype_in(b.op(), "selfRef", self.dtype, kMaskedFillTypes);
  check_dtype_in(b.op(), "mask", mask.dtype, dtype_mask({DType::kBool}));
  if (value.tensor) check_dtype_in(b.op(), "value", value.tensor->dtype, kMaskedFillTypes);
  if (value.scalar) check_dtype_supported(b.op(), "value", value.scalar->dtype);
  check_rank(self, "selfRef");
  check_rank(mask, "mask");
  if (value.tensor && value.tensor->dim() != 0)
    invalid("value must be a 0-d tensor, got shape {}", dims_str(value.tensor->view));
  check_broadcasts_to(mask, "mask", self, "selfRef");
  std::array<EwInput, 3> in{EwInput{&self, nullptr}, EwInput{&mask, nullptr}, value};
  plan_elementwise<3>(b, std::string("elementwise.") + b.op().name, self.dtype, self, in,
                      [](auto tag) { return MaskedFill<typename decltype(tag)::type>{}; });
}

void plan_where(OpBuilder& b, const aclTensor* cond_arg, const aclTensor* self_arg, const aclTensor* other_arg,
                const aclTensor* out_arg) {
  const aclTensor& cond = b.input(cond_arg, "condition");
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& other = b.input(other_arg, "other");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_supported(b.op(), "self", self.dtype);
  check_dtype_supported(b.op(), "other", other.dtype);
  check_dtype_supported(b.op(), "out", out.dtype);
  check_dtype_in(b.op(), "condition", cond.dtype, dtype_mask({DType::kBool, DType::kUInt8}));
  const DType promoted = promote(self.dtype, other.dtype);
  if (promoted == DType::kUndefined)
    invalid("self dtype {} and other dtype {} have no common dtype", dtype_name(self.dtype), dtype_name(other.dtype));
  check_rank(self, "self");
  check_rank(other, "other");
  check_rank(cond, "condition");
  const Dims so = broadcast_shapes(self.view, "self", other.view, "other");
  const Dims shape = broadcast_shapes(cond.view, "condition", so, "broadcast(self, other)");
  check_shape_equals(out, "out", shape);
  std::array<EwInput, 3> in{EwInput{&cond, nullptr}, EwInput{&self, nullptr}, EwInput{&other, nullptr}};
  plan_elementwise<3>(b, "elementwise.SWhere", promoted, out, in,
                      [](auto tag) { return Select<typename decltype(tag)::type>{}; });
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points -------------------------------------------------------------------------

#define PACL_PHASE1(Name, ...)                                                                              \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor,              \
                   [&](pacl::OpBuilder& b) { __VA_ARGS__; })

extern "C" {

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Cast, pacl::plan_cast(b, self, dtype, out));
}

aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceCopy, pacl::plan_inplace_copy(b, selfRef, src));
}

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceFillScalar, pacl::plan_fill_scalar(b, selfRef, value));
}

aclnnStatus aclnnInplaceFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* value,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceFillTensor, pacl::plan_fill_tensor(b, selfRef, value));
}

// CANN checks no rank limit for InplaceZero.
aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceZero, pacl::plan_fill_constant(b, selfRef, 0, false));
}

aclnnStatus aclnnInplaceOneGetWorkspaceSize(const aclTensor* selfRef, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceOne, pacl::plan_fill_constant(b, selfRef, 1, true));
}

aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                         const aclScalar* value, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceMaskedFillScalar, pacl::plan_masked_fill(b, selfRef, mask, nullptr, value, true));
}

aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                         const aclTensor* value, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceMaskedFillTensor, pacl::plan_masked_fill(b, selfRef, mask, value, nullptr, false));
}

aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self, const aclTensor* other,
                                        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SWhere, pacl::plan_where(b, condition, self, other, out));
}

}  // extern "C"
