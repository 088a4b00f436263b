// Average pooling with fixed windows: AvgPool2d, AvgPool3d and their backward ops (PyTorch's
// avg_pool semantics: zero padding, count_include_pad, divisor_override, ceil_mode).
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool2d_backward.h"
#include "aclnnop/aclnn_avgpool3d.h"
#include "aclnnop/aclnn_avgpool3d_backward.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/pool_plan.h"
#include "ops/registry.h"

namespace pacl::pool {
namespace {

constexpr DTypeMask kAvgTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

struct AvgWindows {
  FixedWindows w;
  bool ceil_mode;
  AvgOptions opt;
};

// kernelSize 1 or nd values > 0; stride 0 (= kernelSize), 1 or nd values > 0; padding 1 or nd
// values in [0, kernelSize/2]. stride may be null (= kernelSize) where `stride_optional`.
AvgWindows avg_windows(int nd, const aclIntArray& kernel_a, const aclIntArray* stride_a, const aclIntArray& pad_a,
                       bool ceil_mode, bool count_include_pad, int64_t divisor_override) {
  const size_t n = static_cast<size_t>(nd);
  const char* stride_name = nd == 2 ? "strides" : "stride";
  const auto kernel = expand_param(kernel_a, "kernelSize", nd, {1, n});
  check_positive(kernel, "kernelSize");
  const auto stride = stride_a ? expand_param(*stride_a, stride_name, nd, {0, 1, n}, kernel) : kernel;
  check_positive(stride, stride_name);
  const auto pad = expand_param(pad_a, nd == 2 ? "paddings" : "padding", nd, {1, n});
  check_half_kernel_pad(pad, kernel, nd == 2 ? "paddings" : "padding");
  AvgWindows w;
  w.w = fixed_windows(kernel, stride, pad, std::vector<int64_t>(n, 1));
  w.ceil_mode = ceil_mode;
  w.opt = AvgOptions{count_include_pad, divisor_override};
  return w;
}

void check_cube_math_type(int8_t t) {
  if (t < 0 || t > 3) invalid("cubeMathType is {}, expected 0 (KEEP_DTYPE), 1, 2 or 3", static_cast<int>(t));
}

void plan_avg_pool(OpBuilder& b, int nd, const aclTensor* self_a, const aclIntArray* kernel_a,
                   const aclIntArray* stride_a, const aclIntArray* pad_a, bool ceil_mode, bool count_include_pad,
                   int64_t divisor_override, const int8_t* cube_math_type, const aclTensor* out_a) {
  const aclTensor& self = b.input(self_a, "self");
  const aclIntArray& kernel = b.int_array(kernel_a, "kernelSize");
  const aclIntArray& stride = b.int_array(stride_a, nd == 2 ? "strides" : "stride");
  const aclIntArray& pad = b.int_array(pad_a, nd == 2 ? "paddings" : "padding");
  const aclTensor& out = b.output(out_a, "out");
  check_dtype_in(b.op(), "self", self.dtype, kAvgTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  if (cube_math_type) check_cube_math_type(*cube_math_type);
  check_pool_rank(self, "self", nd);
  check_nonempty_planes(self, "self", nd);
  const AvgWindows w = avg_windows(nd, kernel, &stride, pad, ceil_mode, count_include_pad, divisor_override);
  if (nd == 3)
    for (int d = 0; d < 3; ++d)
      if (w.w.w[static_cast<size_t>(d)].kernel > self.view[static_cast<size_t>(self.dim() - 3 + d)])
        invalid("kernelSize[{}] is {}, larger than dim {} of self ({})", d, w.w.w[static_cast<size_t>(d)].kernel,
                self.dim() - 3 + d, dims_str(self.view));
  const Dims shape = pooled_shape(self, w.w, false, w.ceil_mode);
  check_positive_output(shape, self, "output shape");
  check_shape_equals(out, "out", shape, "the pooled shape");
  Geometry g = make_geometry(self.view, shape, nd, false);
  set_fixed_windows(g, nd, w.w.w.data());
  plan_avg_forward(b, self, out, std::move(g), w.opt);
}

void plan_avg_pool_backward(OpBuilder& b, int nd, const aclTensor* grad_out_a, const aclTensor* self_a,
                            const aclIntArray* kernel_a, const aclIntArray* stride_a, const aclIntArray* pad_a,
                            bool ceil_mode, bool count_include_pad, int64_t divisor_override,
                            const int8_t* cube_math_type, const aclTensor* grad_in_a, const char* grad_in_name) {
  const aclTensor& grad_out = b.input(grad_out_a, "gradOutput");
  const aclTensor& self = b.input(self_a, "self");
  const aclIntArray& kernel = b.int_array(kernel_a, "kernelSize");
  const aclIntArray* stride = stride_a ? &b.int_array(stride_a, "stride") : nullptr;
  const aclIntArray& pad = b.int_array(pad_a, "padding");
  const aclTensor& grad_in = b.output(grad_in_a, grad_in_name);
  check_dtype_in(b.op(), "self", self.dtype, kAvgTypes);
  if (grad_out.dtype != self.dtype)
    invalid("gradOutput has dtype {}, expected the dtype of self ({})", dtype_name(grad_out.dtype), dtype_name(self.dtype));
  if (grad_in.dtype != self.dtype)
    invalid("{} has dtype {}, expected the dtype of self ({})", grad_in_name, dtype_name(grad_in.dtype),
            dtype_name(self.dtype));
  if (cube_math_type) check_cube_math_type(*cube_math_type);
  check_pool_rank(self, "self", nd);
  check_pool_rank(grad_out, "gradOutput", nd);
  check_nonempty_planes(self, "self", nd);
  AvgWindows w = avg_windows(nd, kernel, stride, pad, ceil_mode, count_include_pad, divisor_override);
  const Dims shape = pooled_shape(self, w.w, false, w.ceil_mode);
  check_positive_output(shape, self, "output shape");
  check_shape_equals(grad_out, "gradOutput", shape, "the pooled shape of self");
  check_shape_equals(grad_in, grad_in_name, self.view, "the shape of self");
  Geometry g = make_geometry(self.view, shape, nd, false);
  set_fixed_windows(g, nd, w.w.w.data());
  plan_avg_backward(b, grad_out, grad_in, std::move(g), w.opt);
}

}  // namespace
}  // namespace pacl::pool

extern "C" aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                      const aclIntArray* strides, const aclIntArray* paddings,
                                                      const bool ceilMode, const bool countIncludePad,
                                                      const int64_t divisorOverride, const int8_t cubeMathType,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AvgPool2d, "aclnnAvgPool2dGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_avg_pool(b, 2, self, kernelSize, strides, paddings, ceilMode,
                                                      countIncludePad, divisorOverride, &cubeMathType, out);
                          });
}

extern "C" aclnnStatus aclnnAvgPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                      const aclIntArray* stride, const aclIntArray* padding,
                                                      bool ceilMode, bool countIncludePad, int64_t divisorOverride,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AvgPool3d, "aclnnAvgPool3dGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_avg_pool(b, 3, self, kernelSize, stride, padding, ceilMode,
                                                      countIncludePad, divisorOverride, nullptr, out);
                          });
}

extern "C" aclnnStatus aclnnAvgPool2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                              const aclIntArray* kernelSize, const aclIntArray* stride,
                                                              const aclIntArray* padding, bool ceilMode,
                                                              bool countIncludePad, int64_t divisorOverride,
                                                              int8_t cubeMathType, aclTensor* gradInput,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AvgPool2dBackward, "aclnnAvgPool2dBackwardGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_avg_pool_backward(b, 2, gradOutput, self, kernelSize, stride, padding,
                                                               ceilMode, countIncludePad, divisorOverride,
                                                               &cubeMathType, gradInput, "gradInput");
                          });
}

extern "C" aclnnStatus aclnnAvgPool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                              const aclIntArray* kernelSize, const aclIntArray* stride,
                                                              const aclIntArray* padding, bool ceilMode,
                                                              bool countIncludePad, int64_t divisorOverride,
                                                              aclTensor* output, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AvgPool3dBackward, "aclnnAvgPool3dBackwardGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_avg_pool_backward(b, 3, gradOutput, self, kernelSize, stride, padding,
                                                               ceilMode, countIncludePad, divisorOverride, nullptr,
                                                               output, "output");
                          });
}
