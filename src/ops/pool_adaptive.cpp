// Adaptive pooling: output position o of a spatial dim of size `in` pools input positions
// [floor(o*in/out), ceil((o+1)*in/out)). AdaptiveAvgPool2d/3d, AdaptiveMaxPool2d/3d and backward.
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d_backward.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d_backward.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "aclnnop/aclnn_adaptive_max_pool3d.h"
#include "aclnnop/aclnn_adaptive_max_pool3d_backward.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/pool_plan.h"
#include "ops/registry.h"

namespace pacl::pool {
namespace {

constexpr DTypeMask kAdaptiveTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
constexpr DTypeMask kAdaptiveMax2dTypes = kAdaptiveTypes | dtype_mask({DType::kDouble});
constexpr DTypeMask kIndexTypes = dtype_mask({DType::kInt32, DType::kInt64});

std::vector<int64_t> requested_size(const aclIntArray& a, int nd) {
  if (static_cast<int>(a.values.size()) != nd) invalid("outputSize has {} values, expected {}", a.values.size(), nd);
  for (int64_t v : a.values)
    if (v <= 0) invalid("outputSize is {}, every value must be greater than 0", dims_str(Dims(a.values)));
  return a.values;
}

Geometry adaptive_geometry(const Dims& in, const Dims& out, int nd, bool channels_last) {
  Geometry g = make_geometry(in, out, nd, channels_last);
  set_adaptive_windows(g);
  return g;
}

void plan_adaptive_avg(OpBuilder& b, int nd, const aclTensor* self_a, const aclIntArray* size_a,
                       const aclTensor* out_a) {
  const aclTensor& self = b.input(self_a, "self");
  const aclIntArray& size = b.int_array(size_a, "outputSize");
  const aclTensor& out = b.output(out_a, "out");
  check_dtype_in(b.op(), "self", self.dtype, kAdaptiveTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  check_pool_rank(self, "self", nd);
  check_nonempty_planes(self, "self", nd);
  const Dims shape = adaptive_shape(self, requested_size(size, nd), false);
  check_shape_equals(out, "out", shape, "self's shape with outputSize as its spatial dims");
  plan_avg_forward(b, self, out, adaptive_geometry(self.view, shape, nd, false), AvgOptions{});
}

void plan_adaptive_avg_backward(OpBuilder& b, int nd, const aclTensor* grad_out_a, const aclTensor* self_a,
                                const aclTensor* out_a) {
  const aclTensor& grad_out = b.input(grad_out_a, "gradOutput");
  const aclTensor& self = b.input(self_a, "self");
  const aclTensor& out = b.output(out_a, "out");
  check_dtype_in(b.op(), "self", self.dtype, kAdaptiveTypes);
  if (grad_out.dtype != self.dtype)
    invalid("gradOutput has dtype {}, expected the dtype of self ({})", dtype_name(grad_out.dtype), dtype_name(self.dtype));
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  check_pool_rank(self, "self", nd);
  check_nonempty_planes(self, "self", nd);
  if (grad_out.dim() != self.dim())
    invalid("gradOutput has {} dims, expected the {} of self", grad_out.dim(), self.dim());
  check_nonempty_planes(grad_out, "gradOutput", nd);
  for (int64_t d = 0; d < self.dim() - nd; ++d)
    if (grad_out.view[static_cast<size_t>(d)] != self.view[static_cast<size_t>(d)])
      invalid("gradOutput has shape {}, its batch and channel dims must match self {}", dims_str(grad_out.view),
              dims_str(self.view));
  check_shape_equals(out, "out", self.view, "the shape of self");
  AvgOptions opt;
  opt.count_include_pad = false;
  plan_avg_backward(b, grad_out, out, adaptive_geometry(self.view, grad_out.view, nd, false), opt);
}

void plan_adaptive_max(OpBuilder& b, int nd, const aclTensor* self_a, const aclIntArray* size_a,
                       const aclTensor* out_a, const aclTensor* indices_a) {
  const aclTensor& self = b.input(self_a, "self");
  const aclIntArray& size = b.int_array(size_a, "outputSize");
  const aclTensor& out = b.output(out_a, "outputOut");
  const aclTensor& indices = b.output(indices_a, "indicesOut");
  check_dtype_in(b.op(), "self", self.dtype, nd == 2 ? kAdaptiveMax2dTypes : kAdaptiveTypes);
  if (out.dtype != self.dtype)
    invalid("outputOut has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  if (nd == 2) {
    if (indices.dtype != DType::kInt64) invalid("indicesOut has dtype {}, expected int64", dtype_name(indices.dtype));
  } else {
    check_dtype_in(b.op(), "indicesOut", indices.dtype, kIndexTypes);
  }
  const bool cl = nd == 2 && channels_last_format(self, 2);
  check_pool_rank(self, "self", nd);
  check_nonempty_planes(self, "self", nd);
  const Dims shape = adaptive_shape(self, requested_size(size, nd), cl);
  check_shape_equals(out, "outputOut", shape, "self's shape with outputSize as its spatial dims");
  check_shape_equals(indices, "indicesOut", shape, "the shape of outputOut");
  plan_max_forward(b, self, out, &indices, adaptive_geometry(self.view, shape, nd, cl));
}

void plan_adaptive_max_backward(OpBuilder& b, int nd, const aclTensor* grad_out_a, const aclTensor* self_a,
                                const aclTensor* indices_a, const aclTensor* grad_in_a) {
  const aclTensor& grad_out = b.input(grad_out_a, "gradOutput");
  const aclTensor& self = b.input(self_a, "self");
  const aclTensor& indices = b.input(indices_a, "indices");
  const aclTensor& grad_in = b.output(grad_in_a, "gradInput");
  check_dtype_in(b.op(), "self", self.dtype, kAdaptiveTypes);
  if (grad_out.dtype != self.dtype)
    invalid("gradOutput has dtype {}, expected the dtype of self ({})", dtype_name(grad_out.dtype), dtype_name(self.dtype));
  if (grad_in.dtype != self.dtype)
    invalid("gradInput has dtype {}, expected the dtype of self ({})", dtype_name(grad_in.dtype), dtype_name(self.dtype));
  check_dtype_in(b.op(), "indices", indices.dtype, kIndexTypes);
  check_pool_rank(self, "self", nd);
  check_nonempty_planes(self, "self", nd);
  if (grad_out.dim() != self.dim())
    invalid("gradOutput has {} dims, expected the {} of self", grad_out.dim(), self.dim());
  for (int64_t d = 0; d < self.dim() - nd; ++d)
    if (grad_out.view[static_cast<size_t>(d)] != self.view[static_cast<size_t>(d)])
      invalid("gradOutput has shape {}, its batch and channel dims must match self {}", dims_str(grad_out.view),
              dims_str(self.view));
  check_shape_equals(indices, "indices", grad_out.view, "the shape of gradOutput");
  check_shape_equals(grad_in, "gradInput", self.view, "the shape of self");
  plan_max_backward(b, grad_out, indices, grad_in, adaptive_geometry(self.view, grad_out.view, nd, false));
}

}  // namespace
}  // namespace pacl::pool

extern "C" aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaptiveAvgPool2d, "aclnnAdaptiveAvgPool2dGetWorkspaceSize", workspaceSize,
                          executor,
                          [&](pacl::OpBuilder& b) { pacl::pool::plan_adaptive_avg(b, 2, self, outputSize, out); });
}

extern "C" aclnnStatus aclnnAdaptiveAvgPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaptiveAvgPool3d, "aclnnAdaptiveAvgPool3dGetWorkspaceSize", workspaceSize,
                          executor,
                          [&](pacl::OpBuilder& b) { pacl::pool::plan_adaptive_avg(b, 3, self, outputSize, out); });
}

extern "C" aclnnStatus aclnnAdaptiveAvgPool2dBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                      const aclTensor* self, aclTensor* out,
                                                                      uint64_t* workspaceSize,
                                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaptiveAvgPool2dBackward, "aclnnAdaptiveAvgPool2dBackwardGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_adaptive_avg_backward(b, 2, gradOutput, self, out);
                          });
}

extern "C" aclnnStatus aclnnAdaptiveAvgPool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                      const aclTensor* self, aclTensor* out,
                                                                      uint64_t* workspaceSize,
                                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaptiveAvgPool3dBackward, "aclnnAdaptiveAvgPool3dBackwardGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_adaptive_avg_backward(b, 3, gradOutput, self, out);
                          });
}

extern "C" aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                              aclTensor* outputOut, aclTensor* indicesOut,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaptiveMaxPool2d, "aclnnAdaptiveMaxPool2dGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_adaptive_max(b, 2, self, outputSize, outputOut, indicesOut);
                          });
}

extern "C" aclnnStatus aclnnAdaptiveMaxPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                              aclTensor* outputOut, aclTensor* indicesOut,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaptiveMaxPool3d, "aclnnAdaptiveMaxPool3dGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_adaptive_max(b, 3, self, outputSize, outputOut, indicesOut);
                          });
}

extern "C" aclnnStatus aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                      const aclTensor* self, const aclTensor* indices,
                                                                      aclTensor* gradInput, uint64_t* workspaceSize,
                                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaptiveMaxPool2dBackward, "aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_adaptive_max_backward(b, 2, gradOutput, self, indices, gradInput);
                          });
}

extern "C" aclnnStatus aclnnAdaptiveMaxPool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                      const aclTensor* self, const aclTensor* indices,
                                                                      aclTensor* gradInput, uint64_t* workspaceSize,
                                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaptiveMaxPool3dBackward, "aclnnAdaptiveMaxPool3dBackwardGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_adaptive_max_backward(b, 3, gradOutput, self, indices, gradInput);
                          });
}
