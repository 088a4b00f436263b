// Max pooling with fixed windows: MaxPool (ONNX-style, asymmetric pads), MaxPool2dWithIndices,
// MaxPool2dWithMask, MaxPool3dWithArgmax and their backward ops. Indices are flat spatial positions
// within a plane ((d*H + h)*W + w), as PyTorch's; see pool_mask.h for MaxPool2dWithMask's indices.
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_max_pool2d_with_indices_backward.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax_backward.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/pool_mask.h"
#include "ops/pool_plan.h"
#include "ops/registry.h"

namespace pacl::pool {
namespace {

constexpr DTypeMask kMaxPoolTypes = dtype_mask({DType::kFloat16, DType::kFloat, DType::kBFloat16, DType::kInt32,
                                                DType::kInt64, DType::kUInt8, DType::kInt16, DType::kInt8,
                                                DType::kUInt16});
constexpr DTypeMask kPoolFloatTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
constexpr DTypeMask kIndexTypes = dtype_mask({DType::kInt32, DType::kInt64});

// The window parameters of MaxPool2dWithIndices / WithMask / MaxPool3dWithArgmax (and backward):
// kernelSize 1 or nd values, stride 0 (= kernelSize), 1 or nd, padding 1 or nd in [0, kernel/2],
// dilation 1 or nd (> 0; exactly 1 when dilation_one).
FixedWindows torch_windows(int nd, const aclIntArray& kernel_a, const aclIntArray& stride_a,
                           const aclIntArray& padding_a, const aclIntArray& dilation_a, bool dilation_one,
                           bool check_pad_half = true) {
  const size_t n = static_cast<size_t>(nd);
  const auto kernel = expand_param(kernel_a, "kernelSize", nd, {1, n});
  check_positive(kernel, "kernelSize");
  const auto stride = expand_param(stride_a, "stride", nd, {0, 1, n}, kernel);
  check_positive(stride, "stride");
  const auto pad = expand_param(padding_a, "padding", nd, {1, n});
  if (check_pad_half) {
    check_half_kernel_pad(pad, kernel, "padding");
  } else {
    for (size_t i = 0; i < n; ++i)
      if (pad[i] < 0 || pad[i] > kernel[i])
        invalid("padding is {}, every value must be in [0, kernelSize] (kernelSize {})", dims_str(Dims(pad)),
                dims_str(Dims(kernel)));
  }
  const auto dilation = expand_param(dilation_a, "dilation", nd, {1, n});
  check_positive(dilation, "dilation");
  if (dilation_one)
    for (int64_t d : dilation)
      if (d != 1) invalid("dilation is {}, only 1 is supported", dims_str(Dims(dilation)));
  return fixed_windows(kernel, stride, pad, dilation);
}

Geometry fixed_geometry(const aclTensor& self, const Dims& out_shape, const FixedWindows& w, bool channels_last) {
  Geometry g = make_geometry(self.view, out_shape, w.nd, channels_last);
  set_fixed_windows(g, w.nd, w.w.data());
  return g;
}

// ---- MaxPool (ONNX MaxPool: pads {top, left, bottom, right}) -------------------------------------

void plan_max_pool(OpBuilder& b, const aclTensor* self_a, const aclIntArray* kernel_a, const aclIntArray* strides_a,
                   int64_t auto_pad, const aclIntArray* pads_a, const aclIntArray* dilations_a, int64_t ceil_mode,
                   const aclTensor* out_a) {
  const aclTensor& self = b.input(self_a, "self");
  const aclIntArray& kernel_arr = b.int_array(kernel_a, "kernelShape");
  const aclIntArray& strides_arr = b.int_array(strides_a, "strides");
  const aclIntArray& pads_arr = b.int_array(pads_a, "pads");
  const aclIntArray& dil_arr = b.int_array(dilations_a, "dilations");
  const aclTensor& out = b.output(out_a, "out");
  check_dtype_in(b.op(), "self", self.dtype, kMaxPoolTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  check_pool_rank(self, "self", 2);
  const auto kernel = expand_param(kernel_arr, "kernelShape", 2, {1, 2});
  check_positive(kernel, "kernelShape");
  const auto strides = expand_param(strides_arr, "strides", 2, {0, 1, 2}, {1, 1});
  check_positive(strides, "strides");
  if (auto_pad != 0) invalid("autoPad is {}, only 0 (NOTSET) is supported", auto_pad);
  const size_t np = pads_arr.values.size();
  if (np != 0 && np != 1 && np != 2 && np != 4) invalid("pads has {} values, expected 0, 1, 2 or 4", np);
  int64_t pt = 0, pl = 0, pb = 0, pr = 0;
  if (np == 1) pt = pl = pb = pr = pads_arr.values[0];
  if (np == 2) pt = pb = pads_arr.values[0], pl = pr = pads_arr.values[1];
  if (np == 4) pt = pads_arr.values[0], pl = pads_arr.values[1], pb = pads_arr.values[2], pr = pads_arr.values[3];
  if (pt < 0 || pl < 0 || pb < 0 || pr < 0) invalid("pads is {}, values must not be negative", dims_str(Dims(pads_arr.values)));
  if (pt + pb > kernel[0] || pl + pr > kernel[1])
    invalid("pads is {}: the pads of an axis must sum to at most its kernelShape ({})", dims_str(Dims(pads_arr.values)),
            dims_str(Dims(kernel)));
  const size_t nd_ = dil_arr.values.size();
  if (nd_ != 0 && nd_ != 1 && nd_ != 2 && nd_ != 4) invalid("dilations has {} values, expected 0, 1, 2 or 4", nd_);
  for (int64_t d : dil_arr.values)
    if (d != 1) invalid("dilations is {}, only 1 is supported", dims_str(Dims(dil_arr.values)));
  FixedWindows w;
  w.nd = 2;
  w.w[0] = Window{kernel[0], strides[0], pt, pb, 1};
  w.w[1] = Window{kernel[1], strides[1], pl, pr, 1};
  const Dims shape = pooled_shape(self, w, false, ceil_mode != 0);
  check_positive_output(shape, self, "output shape");
  check_shape_equals(out, "out", shape, "the pooled shape");
  plan_max_forward(b, self, out, nullptr, fixed_geometry(self, shape, w, false));
}

// ---- MaxPool2dWithIndices / MaxPool2dWithMask --------------------------------------------------

void plan_max_pool2d(OpBuilder& b, const aclTensor* self_a, const aclIntArray* kernel_a, const aclIntArray* stride_a,
                     const aclIntArray* padding_a, const aclIntArray* dilation_a, bool ceil_mode,
                     const aclTensor* out_a, const aclTensor* indices_a, bool mask) {
  const aclTensor& self = b.input(self_a, "self");
  const aclIntArray& kernel = b.int_array(kernel_a, "kernelSize");
  const aclIntArray& stride = b.int_array(stride_a, "stride");
  const aclIntArray& padding = b.int_array(padding_a, "padding");
  const aclIntArray& dilation = b.int_array(dilation_a, "dilation");
  const aclTensor& out = b.output(out_a, "out");
  const aclTensor& indices = b.output(indices_a, "indices");
  check_dtype_in(b.op(), "self", self.dtype, kPoolFloatTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  if (mask) {
    if (indices.dtype != DType::kInt8) invalid("indices has dtype {}, expected int8", dtype_name(indices.dtype));
  } else {
    check_dtype_in(b.op(), "indices", indices.dtype, kIndexTypes);
  }
  const bool cl = !mask && channels_last_format(self, 2);
  if (mask && self.format == kFormatNHWC) invalid("self has format NHWC; aclnnMaxPool2dWithMask takes NCHW or ND");
  check_pool_rank(self, "self", 2);
  if (out.format != self.format) invalid("out has format {}, expected the format of self ({})", out.format, self.format);
  check_nonempty_planes(self, "self", 2);
  const FixedWindows w = torch_windows(2, kernel, stride, padding, dilation, mask);
  const Dims shape = pooled_shape(self, w, cl, ceil_mode);
  check_positive_output(shape, self, "output shape");
  check_shape_equals(out, "out", shape, "the pooled shape");
  Geometry g = fixed_geometry(self, shape, w, cl);
  if (!mask) {
    check_shape_equals(indices, "indices", shape, "the shape of out");
    plan_max_forward(b, self, out, &indices, std::move(g));
    return;
  }
  const MaskLayout layout = MaskLayout::of(g);
  check_shape_equals(indices, "indices", layout.indices_shape(self.dim() == 4), "the mask shape");
  plan_mask_forward(b, self, out, indices, std::move(g), layout);
}

void plan_max_pool2d_backward(OpBuilder& b, const aclTensor* grad_out_a, const aclTensor* self_a,
                              const aclTensor* indices_a, const aclIntArray* kernel_a, const aclIntArray* stride_a,
                              const aclIntArray* padding_a, const aclIntArray* dilation_a, bool ceil_mode,
                              const aclTensor* grad_in_a, bool mask) {
  const aclTensor& grad_out = b.input(grad_out_a, "gradOutput");
  const aclTensor& self = b.input(self_a, "self");
  const aclTensor& indices = b.input(indices_a, "indices");
  const aclIntArray& kernel = b.int_array(kernel_a, "kernelSize");
  const aclIntArray& stride = b.int_array(stride_a, "stride");
  const aclIntArray& padding = b.int_array(padding_a, "padding");
  const aclIntArray& dilation = b.int_array(dilation_a, "dilation");
  const aclTensor& grad_in = b.output(grad_in_a, "gradInput");
  check_dtype_in(b.op(), "self", self.dtype, kPoolFloatTypes);
  if (grad_out.dtype != self.dtype)
    invalid("gradOutput has dtype {}, expected the dtype of self ({})", dtype_name(grad_out.dtype), dtype_name(self.dtype));
  if (grad_in.dtype != self.dtype)
    invalid("gradInput has dtype {}, expected the dtype of self ({})", dtype_name(grad_in.dtype), dtype_name(self.dtype));
  if (mask) {
    if (indices.dtype != DType::kInt8) invalid("indices has dtype {}, expected int8", dtype_name(indices.dtype));
  } else {
    check_dtype_in(b.op(), "indices", indices.dtype, kIndexTypes);
  }
  const bool cl = !mask && channels_last_format(self, 2);
  check_pool_rank(self, "self", 2);
  check_pool_rank(grad_out, "gradOutput", 2);
  check_nonempty_planes(self, "self", 2);
  const FixedWindows w = torch_windows(2, kernel, stride, padding, dilation, mask, false);
  const Dims shape = pooled_shape(self, w, cl, ceil_mode);
  check_positive_output(shape, self, "output shape");
  check_shape_equals(grad_out, "gradOutput", shape, "the pooled shape of self");
  check_shape_equals(grad_in, "gradInput", self.view, "the shape of self");
  Geometry g = fixed_geometry(self, shape, w, cl);
  if (!mask) {
    check_shape_equals(indices, "indices", shape, "the shape of gradOutput");
    plan_max_backward(b, grad_out, indices, grad_in, std::move(g));
    return;
  }
  const MaskLayout layout = MaskLayout::of(g);
  check_shape_equals(indices, "indices", layout.indices_shape(self.dim() == 4), "the mask shape");
  plan_mask_backward(b, grad_out, indices, grad_in, std::move(g), layout);
}

// ---- MaxPool3dWithArgmax -----------------------------------------------------------------------

void plan_max_pool3d(OpBuilder& b, const aclTensor* self_a, const aclIntArray* kernel_a, const aclIntArray* stride_a,
                     const aclIntArray* padding_a, const aclIntArray* dilation_a, bool ceil_mode,
                     const aclTensor* out_a, const aclTensor* indices_a) {
  const aclTensor& self = b.input(self_a, "self");
  const aclIntArray& kernel = b.int_array(kernel_a, "kernelSize");
  const aclIntArray& stride = b.int_array(stride_a, "stride");
  const aclIntArray& padding = b.int_array(padding_a, "padding");
  const aclIntArray& dilation = b.int_array(dilation_a, "dilation");
  const aclTensor& out = b.output(out_a, "out");
  const aclTensor& indices = b.output(indices_a, "indices");
  check_dtype_in(b.op(), "self", self.dtype, kPoolFloatTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  check_dtype_in(b.op(), "indices", indices.dtype, kIndexTypes);
  const bool cl = channels_last_format(self, 3);
  check_pool_rank(self, "self", 3);
  check_nonempty_planes(self, "self", 3);
  const FixedWindows w = torch_windows(3, kernel, stride, padding, dilation, false);
  const Dims shape = pooled_shape(self, w, cl, ceil_mode);
  check_positive_output(shape, self, "output shape");
  check_shape_equals(out, "out", shape, "the pooled shape");
  check_shape_equals(indices, "indices", shape, "the shape of out");
  plan_max_forward(b, self, out, &indices, fixed_geometry(self, shape, w, cl));
}

void plan_max_pool3d_backward(OpBuilder& b, const aclTensor* grad_out_a, const aclTensor* self_a,
                              const aclTensor* indices_a, const aclIntArray* kernel_a, const aclIntArray* stride_a,
                              const aclIntArray* padding_a, const aclIntArray* dilation_a, bool ceil_mode,
                              const aclTensor* grad_in_a) {
  const aclTensor& grad_out = b.input(grad_out_a, "gradOutput");
  const aclTensor& self = b.input(self_a, "self");
  const aclTensor& indices = b.input(indices_a, "indices");
  const aclIntArray& kernel = b.int_array(kernel_a, "kernelSize");
  const aclIntArray& stride = b.int_array(stride_a, "stride");
  const aclIntArray& padding = b.int_array(padding_a, "padding");
  const aclIntArray& dilation = b.int_array(dilation_a, "dilation");
  const aclTensor& grad_in = b.output(grad_in_a, "gradInput");
  check_dtype_in(b.op(), "self", self.dtype, kPoolFloatTypes);
  if (grad_out.dtype != self.dtype)
    invalid("gradOutput has dtype {}, expected the dtype of self ({})", dtype_name(grad_out.dtype), dtype_name(self.dtype));
  if (grad_in.dtype != self.dtype)
    invalid("gradInput has dtype {}, expected the dtype of self ({})", dtype_name(grad_in.dtype), dtype_name(self.dtype));
  check_dtype_in(b.op(), "indices", indices.dtype, kIndexTypes);
  check_pool_rank(self, "self", 3);
  check_nonempty_planes(self, "self", 3);
  const FixedWindows w = torch_windows(3, kernel, stride, padding, dilation, false);
  const Dims shape = pooled_shape(self, w, false, ceil_mode);
  check_positive_output(shape, self, "output shape");
  check_shape_equals(grad_out, "gradOutput", shape, "the pooled shape of self");
  check_shape_equals(indices, "indices", shape, "the shape of gradOutput");
  check_shape_equals(grad_in, "gradInput", self.view, "the shape of self");
  plan_max_backward(b, grad_out, indices, grad_in, fixed_geometry(self, shape, w, false));
}

}  // namespace
}  // namespace pacl::pool

using pacl::pool::plan_max_pool;

extern "C" aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelShape,
                                                    const aclIntArray* strides, const int64_t autoPad,
                                                    const aclIntArray* pads, const aclIntArray* dilations,
                                                    const int64_t ceilMode, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxPool, "aclnnMaxPoolGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            plan_max_pool(b, self, kernelShape, strides, autoPad, pads, dilations, ceilMode, out);
                          });
}

extern "C" aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                                 const aclIntArray* stride, const aclIntArray* padding,
                                                                 const aclIntArray* dilation, bool ceilMode,
                                                                 aclTensor* out, aclTensor* indices,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxPool2dWithIndices, "aclnnMaxPool2dWithIndicesGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_max_pool2d(b, self, kernelSize, stride, padding, dilation, ceilMode, out,
                                                        indices, false);
                          });
}

extern "C" aclnnStatus aclnnMaxPool2dWithMaskGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                              const aclIntArray* stride, const aclIntArray* padding,
                                                              const aclIntArray* dilation, bool ceilMode,
                                                              aclTensor* out, aclTensor* indices,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxPool2dWithMask, "aclnnMaxPool2dWithMaskGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_max_pool2d(b, self, kernelSize, stride, padding, dilation, ceilMode, out,
                                                        indices, true);
                          });
}

extern "C" aclnnStatus aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxPool2dWithIndicesBackward, "aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_max_pool2d_backward(b, gradOutput, self, indices, kernelSize, stride,
                                                                 padding, dilation, ceilMode, gradInput, false);
                          });
}

extern "C" aclnnStatus aclnnMaxPool2dWithMaskBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxPool2dWithMaskBackward, "aclnnMaxPool2dWithMaskBackwardGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_max_pool2d_backward(b, gradOutput, self, indices, kernelSize, stride,
                                                                 padding, dilation, ceilMode, gradInput, true);
                          });
}

extern "C" aclnnStatus aclnnMaxPool3dWithArgmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                                const aclIntArray* stride, const aclIntArray* padding,
                                                                const aclIntArray* dilation, bool ceilMode,
                                                                aclTensor* out, aclTensor* indices,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxPool3dWithArgmax, "aclnnMaxPool3dWithArgmaxGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_max_pool3d(b, self, kernelSize, stride, padding, dilation, ceilMode, out,
                                                        indices);
                          });
}

extern "C" aclnnStatus aclnnMaxPool3dWithArgmaxBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxPool3dWithArgmaxBackward, "aclnnMaxPool3dWithArgmaxBackwardGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::pool::plan_max_pool3d_backward(b, gradOutput, self, indices, kernelSize, stride,
                                                                 padding, dilation, ceilMode, gradInput);
                          });
}
