// Padding: ConstantPadNd, Reflection/Replication/CircularPad{1,2,3}d and their backward ops. Each
// padded dim is an index map from out to self (pad_map); the forward op is the gather through the
// maps (PiecePlan::gather: the product of the maps' affine intervals, at most 27 pieces for 3
// padded dims), the backward op the matching scatter-add of gradOutput into a zeroed gradInput.
// Negative pads crop.
#include "aclnnop/aclnn_circular_pad2d.h"
#include "aclnnop/aclnn_circular_pad2d_backward.h"
#include "aclnnop/aclnn_circular_pad3d.h"
#include "aclnnop/aclnn_circular_pad3d_backward.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_pad2d_backward.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_reflection_pad1d_backward.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_reflection_pad3d.h"
#include "aclnnop/aclnn_reflection_pad3d_backward.h"
#include "aclnnop/aclnn_replication_pad1d.h"
#include "aclnnop/aclnn_replication_pad1d_backward.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "aclnnop/aclnn_replication_pad3d.h"
#include "aclnnop/aclnn_replication_pad3d_backward.h"
#include "core/phase.h"
#include "ops/movement.h"
#include "ops/pieces.h"
#include "ops/registry.h"

namespace pacl {
namespace {

enum class PadMode { kConstant, kReflect, kReplicate, kCircular };

// Source index of each out index of a dim of size n padded by lo before and hi after; -1 where
// the constant goes.
std::vector<int64_t> pad_map(PadMode mode, int64_t n, int64_t lo, int64_t hi) {
  std::vector<int64_t> m(static_cast<size_t>(std::max<int64_t>(0, n + lo + hi)));
  for (size_t i = 0; i < m.size(); ++i) {
    int64_t j = static_cast<int64_t>(i) - lo;
    if (j < 0 || j >= n) {
      switch (mode) {
        case PadMode::kConstant: j = -1; break;
        case PadMode::kReflect: j = j < 0 ? -j : 2 * (n - 1) - j; break;
        case PadMode::kReplicate: j = j < 0 ? 0 : n - 1; break;
        case PadMode::kCircular: j = ((j % n) + n) % n; break;
      }
    }
    m[i] = j;
  }
  return m;
}

struct PadPlan {
  Dims out_shape;
  std::vector<std::vector<int64_t>> maps;
};

// The out shape and per-dim maps for `pad` = (lo, hi) pairs from the last dim backwards.
PadPlan pad_plan(PadMode mode, const aclTensor& self, const std::vector<int64_t>& pad) {
  PadPlan r{self.view, {}};
  const int64_t rank = self.dim();
  for (int64_t k = 0; k < rank; ++k) {
    const size_t pair = static_cast<size_t>(rank - 1 - k);
    const int64_t n = self.view[static_cast<size_t>(k)];
    int64_t lo = 0, hi = 0;
    if (2 * pair < pad.size()) {
      lo = pad[2 * pair];
      hi = pad[2 * pair + 1];
      if (n + lo + hi < 0)
        invalid("padding ({}, {}) of self's dim {} (size {}) gives a negative size {}", lo, hi, k, n, n + lo + hi);
    }
    r.out_shape[static_cast<size_t>(k)] = n + lo + hi;
    r.maps.push_back(pad_map(mode, n, lo, hi));
  }
  return r;
}

// Reflection / replication / circular: D padded dims, self of rank D+1 or D+2 (a batch dim), every
// pad smaller than its dim, every non-batch dim non-empty (CANN's checks).
struct ModeSpec {
  PadMode mode;
  int dims;
  DTypeMask types;
};

void check_mode_args(const ModeSpec& spec, const aclTensor& self, const char* self_name,
                     const std::vector<int64_t>& padding) {
  check_rank_between(self, self_name, spec.dims + 1, spec.dims + 2);
  if (static_cast<int>(padding.size()) != 2 * spec.dims)
    invalid("padding {} has {} entries, expected {} (a before/after pair for each of the last {} dims)",
            list_str(padding), padding.size(), 2 * spec.dims, spec.dims);
  const int64_t rank = self.dim();
  for (int64_t k = rank == spec.dims + 2 ? 1 : 0; k < rank; ++k)
    if (self.view[static_cast<size_t>(k)] == 0)
      invalid("{} {} is empty in dim {}; only a batch dim (dim 0 of a {}-d {}) may be empty", self_name,
              dims_str(self.view), k, spec.dims + 2, self_name);
  for (size_t i = 0; i < padding.size(); ++i) {
    const int64_t k = rank - 1 - static_cast<int64_t>(i / 2);
    const int64_t n = self.view[static_cast<size_t>(k)];
    if (padding[i] >= n)
      invalid("padding[{}] is {}, expected a pad < {} (the size of {}'s dim {})", i, padding[i], n, self_name, k);
  }
}

void plan_mode_pad(OpBuilder& b, const ModeSpec& spec, const aclTensor* self_arg, const aclIntArray* padding_arg,
                   const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& padding = b.int_array(padding_arg, "padding");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, spec.types);
  check_same_dtype(out, "out", self, "self");
  check_mode_args(spec, self, "self", padding.values);
  const PadPlan p = pad_plan(spec.mode, self, padding.values);
  check_shape_equals(out, "out", p.out_shape, "the padded shape");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  const PiecePlan::Operand src = pp.source(self), dst = pp.dest(out);
  pp.gather(dst, src, p.maps);
  pp.finish(fmt::format("pad.{}", dtype_name(self.dtype)), PiecePlan::Order::kDisjoint);
}

void plan_mode_pad_backward(OpBuilder& b, const ModeSpec& spec, const aclTensor* grad_out_arg,
                            const aclTensor* self_arg, const aclIntArray* padding_arg, const aclTensor* grad_in_arg) {
  const aclTensor& grad_out = b.input(grad_out_arg, "gradOutput");
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& padding = b.int_array(padding_arg, "padding");
  const aclTensor& grad_in = b.output(grad_in_arg, "gradInput");
  check_dtype_in(b.op(), "self", self.dtype, spec.types);
  check_same_dtype(grad_out, "gradOutput", self, "self");
  check_same_dtype(grad_in, "gradInput", self, "self");
  check_mode_args(spec, self, "self", padding.values);
  const PadPlan p = pad_plan(spec.mode, self, padding.values);
  check_shape_equals(grad_out, "gradOutput", p.out_shape, "the padded shape of self");
  check_shape_equals(grad_in, "gradInput", self.view, "the shape of self");
  if (grad_in.numel() == 0) return;
  const DType ct = self.dtype == DType::kDouble ? DType::kDouble : DType::kFloat;
  PiecePlan pp(b);
  const PiecePlan::Operand go = pp.dense_source(grad_out, ct), gi = pp.dest(grad_in, ct);
  pp.fill_zero(gi, 0, {1}, {grad_in.numel()});
  pp.scatter_add(gi, go, p.maps);
  pp.finish(fmt::format("pad_backward.{}", dtype_name(self.dtype)));
}

void plan_constant_pad(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* pad_arg, const aclScalar* value_arg,
                       const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& pad = b.int_array(pad_arg, "pad");
  const aclScalar& value = b.scalar(value_arg, "value");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kMoveTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 0, 8);
  if (pad.values.size() % 2 != 0 || static_cast<int64_t>(pad.values.size()) > 2 * self.dim())
    invalid("pad {} has {} entries, expected an even number of at most {} (two per dim of self {})",
            list_str(pad.values), pad.values.size(), 2 * self.dim(), dims_str(self.view));
  if (!is_compute_dtype(value.dtype) && value.dtype != self.dtype)
    invalid("value has dtype {}, expected a real dtype or the dtype of self ({})", dtype_name(value.dtype),
            dtype_name(self.dtype));
  if (is_floating(value.dtype) && is_integral(self.dtype, true) && self.dtype != DType::kBool &&
      value.to_double() != std::trunc(value.to_double()))
    invalid("value {} is not an integer, expected a value of self's dtype {}", value.describe(), dtype_name(self.dtype));
  const PadPlan p = pad_plan(PadMode::kConstant, self, pad.values);
  check_shape_equals(out, "out", p.out_shape, "the padded shape");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  const PiecePlan::Operand src = pp.source(self), dst = pp.dest(out);
  pp.gather(dst, src, p.maps, element_bytes(self.dtype, value));
  pp.finish(fmt::format("constant_pad.{}", dtype_name(self.dtype)), PiecePlan::Order::kDisjoint);
}

constexpr DTypeMask kCircularTypes =
    dtype_mask({DType::kFloat16, DType::kBFloat16, DType::kFloat, DType::kInt8, DType::kInt32});
constexpr DTypeMask kGradTypes = kFloatingTypes;
constexpr DTypeMask kCircularGradTypes = dtype_mask({DType::kFloat16, DType::kBFloat16, DType::kFloat});

constexpr ModeSpec kReflect1{PadMode::kReflect, 1, kMoveTypes}, kReflect2{PadMode::kReflect, 2, kMoveTypes},
    kReflect3{PadMode::kReflect, 3, kMoveTypes};
constexpr ModeSpec kReplicate1{PadMode::kReplicate, 1, kMoveTypes}, kReplicate2{PadMode::kReplicate, 2, kMoveTypes},
    kReplicate3{PadMode::kReplicate, 3, kMoveTypes};
constexpr ModeSpec kCircular2{PadMode::kCircular, 2, kCircularTypes}, kCircular3{PadMode::kCircular, 3, kCircularTypes};
constexpr ModeSpec kReflectGrad1{PadMode::kReflect, 1, kGradTypes}, kReflectGrad2{PadMode::kReflect, 2, kGradTypes},
    kReflectGrad3{PadMode::kReflect, 3, kGradTypes};
constexpr ModeSpec kReplicateGrad1{PadMode::kReplicate, 1, kGradTypes},
    kReplicateGrad2{PadMode::kReplicate, 2, kGradTypes}, kReplicateGrad3{PadMode::kReplicate, 3, kGradTypes};
constexpr ModeSpec kCircularGrad2{PadMode::kCircular, 2, kCircularGradTypes},
    kCircularGrad3{PadMode::kCircular, 3, kCircularGradTypes};

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad,
                                                          const aclScalar* value, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ConstantPadNd, "aclnnConstantPadNdGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_constant_pad(b, self, pad, value, out); });
}

#define PACL_PAD_FORWARD(Name, spec)                                                                              \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,        \
                                                       aclTensor* out, uint64_t* workspaceSize,                  \
                                                       aclOpExecutor** executor) {                               \
    return pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor,          \
                            [&](OpBuilder& b) { pacl::plan_mode_pad(b, pacl::spec, self, padding, out); });     \
  }
#define PACL_PAD_BACKWARD(Name, spec)                                                                             \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,       \
                                                       const aclIntArray* padding, aclTensor* gradInput,         \
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {      \
    return pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor,          \
                            [&](OpBuilder& b) {                                                                  \
                              pacl::plan_mode_pad_backward(b, pacl::spec, gradOutput, self, padding, gradInput); \
                            });                                                                                  \
  }

PACL_PAD_FORWARD(ReflectionPad1d, kReflect1)
PACL_PAD_FORWARD(ReflectionPad2d, kReflect2)
PACL_PAD_FORWARD(ReflectionPad3d, kReflect3)
PACL_PAD_FORWARD(ReplicationPad1d, kReplicate1)
PACL_PAD_FORWARD(ReplicationPad2d, kReplicate2)
PACL_PAD_FORWARD(ReplicationPad3d, kReplicate3)
PACL_PAD_FORWARD(CircularPad2d, kCircular2)
PACL_PAD_FORWARD(CircularPad3d, kCircular3)
PACL_PAD_BACKWARD(ReflectionPad1dBackward, kReflectGrad1)
PACL_PAD_BACKWARD(ReflectionPad2dBackward, kReflectGrad2)
PACL_PAD_BACKWARD(ReflectionPad3dBackward, kReflectGrad3)
PACL_PAD_BACKWARD(ReplicationPad1dBackward, kReplicateGrad1)
PACL_PAD_BACKWARD(ReplicationPad2dBackward, kReplicateGrad2)
PACL_PAD_BACKWARD(ReplicationPad3dBackward, kReplicateGrad3)
PACL_PAD_BACKWARD(CircularPad2dBackward, kCircularGrad2)
PACL_PAD_BACKWARD(CircularPad3dBackward, kCircularGrad3)
