// Data formats. NpuFormatCast moves data between ND and FRACTAL_NZ: a [.., m, n] view is stored
// as [.., ceil(n / C0), ceil(m / 16), 16, C0] (element (i, j) at [j / C0, i / 16, i % 16, j % C0],
// padding zero), with C0 = 32 bytes / size of additionalDtype. pacl's own ops read ND only, so the
// weight preprocessing APIs (TransMatmulWeight, TransConvolutionWeight and the Calculate*Size
// helpers) keep weights in ND: the transforms are identities and the sizes are element counts.
#include <cstring>

#include "aclnnop/aclnn_npu_format_cast.h"
#include "aclnnop/aclnn_trans_convolution_weight.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/movement.h"
#include "ops/pieces.h"
#include "ops/registry.h"
#include "runtime/c_boundary.h"

namespace pacl {
namespace {

constexpr int32_t kFormatNd = 2, kFormatNz = 29, kFormatNzC0_16 = 50, kFormatNzC0_32 = 51, kFormatNzC0_2 = 52,
                  kFormatNzC0_4 = 53;
constexpr int64_t kM0 = 16;

bool is_nz(int32_t f) {
  return f == kFormatNz || f == kFormatNzC0_16 || f == kFormatNzC0_32 || f == kFormatNzC0_2 || f == kFormatNzC0_4;
}

constexpr DTypeMask kNzTypes = dtype_mask({DType::kInt8, DType::kUInt8, DType::kInt32, DType::kFloat, DType::kFloat16,
                                           DType::kBFloat16});

// NZ storage dims of an ND view with block C0.
Dims nz_dims(const Dims& view, int64_t c0) {
  if (view.size() < 2) invalid("a FRACTAL_NZ tensor needs at least 2 dims, got {}", dims_str(view));
  const int64_t m = view[view.size() - 2], n = view.back();
  Dims d(view.begin(), view.end() - 2);
  d.push_back((n + c0 - 1) / c0);
  d.push_back((m + kM0 - 1) / kM0);
  d.push_back(kM0);
  d.push_back(c0);
  return d;
}

void calculate_size_and_format(const aclTensor* src_arg, int dst_format, int additional, int64_t** dst_shape,
                               uint64_t* dst_size, int* actual) {
  const aclTensor& src = live(src_arg, "srcTensor");
  if (!dst_shape) throw NullArgument("argument 'dstShape' is null");
  if (!dst_size) throw NullArgument("argument 'dstShapeSize' is null");
  if (!actual) throw NullArgument("argument 'actualFormat' is null");
  Dims dims;
  int32_t fmt_out;
  if (src.format == kFormatNd && dst_format == kFormatNz) {
    const size_t add = dtype_size(static_cast<DType>(additional));
    if (add == 0 || 32 % add != 0) invalid("additionalDtype {} has no FRACTAL_NZ block size", additional);
    const int64_t c0 = 32 / static_cast<int64_t>(add);
    dims = nz_dims(src.view, c0);
    const int64_t native = 32 / static_cast<int64_t>(src.elem_size());
    fmt_out = c0 == native ? kFormatNz : c0 == 16 ? kFormatNzC0_16 : c0 == 32 ? kFormatNzC0_32 : c0 == 2 ? kFormatNzC0_2
                                                                                               : c0 == 4 ? kFormatNzC0_4
                                                                                                         : -1;
    if (fmt_out < 0) invalid("additionalDtype {} gives a block of {} elements, which has no FRACTAL_NZ format", additional, c0);
  } else if (is_nz(src.format) && dst_format == kFormatNd) {
    dims = src.view;
    fmt_out = kFormatNd;
  } else {
    unsupported("converting format {} to format {} is not supported by pacl (ND <-> FRACTAL_NZ only)", src.format,
                dst_format);
  }
  *dst_shape = new int64_t[dims.size() ? dims.size() : 1];  // the caller frees it with delete[] (CANN's contract)
  for (size_t i = 0; i < dims.size(); ++i) (*dst_shape)[i] = dims[i];
  *dst_size = dims.size();
  *actual = fmt_out;
}

void plan_format_cast(OpBuilder& b, const aclTensor* src_arg, const aclTensor* dst_arg) {
  const aclTensor& src = b.input(src_arg, "srcTensor");
  const aclTensor& dst = b.output(dst_arg, "dstTensor");
  check_dtype_in(b.op(), "srcTensor", src.dtype, kNzTypes);
  check_same_dtype(dst, "dstTensor", src, "srcTensor");
  const bool pack = src.format == kFormatNd && is_nz(dst.format);
  if (!pack && !(is_nz(src.format) && dst.format == kFormatNd))
    unsupported("converting format {} to format {} is not supported by pacl (ND <-> FRACTAL_NZ only)", src.format,
                dst.format);
  const aclTensor& nd = pack ? src : dst;
  const aclTensor& nz = pack ? dst : src;
  check_rank_between(nd, pack ? "srcTensor" : "dstTensor", 2, 8);
  if (nz.storage.size() < 4) invalid("{} has storage dims {}, expected FRACTAL_NZ's [.., n1, m1, 16, C0]", pack ? "dstTensor" : "srcTensor", dims_str(nz.storage));
  const int64_t c0 = nz.storage.back();
  if (c0 <= 0 || nz.storage[nz.storage.size() - 2] != kM0)
    invalid("{} has storage dims {}, expected FRACTAL_NZ's [.., n1, m1, 16, C0]", pack ? "dstTensor" : "srcTensor",
            dims_str(nz.storage));
  check_shape_equals(nz, pack ? "dstTensor" : "srcTensor", nd.view, "the ND tensor's shape");
  const Dims storage = nz_dims(nd.view, c0);
  if (nz.storage != storage)
    invalid("{} has storage dims {}, expected {} for the view {} with C0 {}", pack ? "dstTensor" : "srcTensor",
            dims_str(nz.storage), dims_str(storage), dims_str(nd.view), c0);
  if (nz.offset != 0) invalid("the FRACTAL_NZ tensor has a view offset {}, expected 0", nz.offset);
  if (nd.numel() == 0) return;
  const int64_t m = nd.view[nd.view.size() - 2], n = nd.view.back();
  const int64_t n1 = storage[storage.size() - 4], m1 = storage[storage.size() - 3];
  const int64_t batch = nd.numel() / (m * n), block = n1 * m1 * kM0 * c0;
  const size_t es = dtype_size(src.dtype);
  // The NZ side is the raw storage (a strided operand at its base); the ND side is dense.
  // The NZ tensor is used at its storage base (its view strides mean nothing for the layout).
  if (pack && !dst.is_contiguous())
    invalid("dstTensor must have contiguous view strides over its FRACTAL_NZ storage, got {}", dst.describe());
  DensePlan p(b);
  const int in = pack ? p.input(src, src.dtype) : p.strided(src);
  const int out = p.output(dst, dst.dtype);
  p.finish(fmt::format("format_cast.{}", pack ? "nd_to_nz" : "nz_to_nd"), [=](const DenseArgs& a) {
    const char* s = static_cast<const char*>(a.ptr(in));
    char* d = static_cast<char*>(a.ptr(out));
    if (pack) std::memset(d, 0, static_cast<size_t>(batch * block) * es);  // padding
    parallel_for(batch * m, 256, [&](int64_t from, int64_t to, int) {
      for (int64_t r = from; r < to; ++r) {
        const int64_t bi = r / m, i = r % m;
        for (int64_t j = 0; j < n; ++j) {
          const int64_t z = bi * block + ((j / c0) * m1 * kM0 + i) * c0 + j % c0;  // (j/C0, i/16, i%16, j%C0)
          const int64_t o = r * n + j;
          if (pack) std::memcpy(d + z * static_cast<int64_t>(es), s + o * static_cast<int64_t>(es), es);
          else std::memcpy(d + o * static_cast<int64_t>(es), s + z * static_cast<int64_t>(es), es);
        }
      }
    });
  });
}

uint64_t element_count(const aclIntArray* shape_arg, const char* name, size_t min_dims, size_t max_dims) {
  const aclIntArray& shape = live(shape_arg, name);
  if (shape.values.size() < min_dims || shape.values.size() > max_dims)
    invalid("{} {} has {} dims, expected {} to {}", name, list_str(shape.values), shape.values.size(), min_dims, max_dims);
  uint64_t n = 1;
  for (size_t i = 0; i < shape.values.size(); ++i) {
    if (shape.values[i] < 0) invalid("{}[{}] is {}, expected a size >= 0", name, i, shape.values[i]);
    n *= static_cast<uint64_t>(shape.values[i]);
  }
  return n;
}

constexpr DTypeMask kMatmulWeightTypes = dtype_mask({DType::kFloat16, DType::kBFloat16, DType::kInt8});

void plan_trans_matmul_weight(OpBuilder& b, const aclTensor* weight_arg) {
  const aclTensor& w = b.inout(weight_arg, "mmWeightRef");
  check_dtype_in(b.op(), "mmWeightRef", w.dtype, kMatmulWeightTypes);
  check_rank_between(w, "mmWeightRef", 2, 6);
  // Nothing to run: the weight stays in ND.
}

void plan_trans_conv_weight(OpBuilder& b, const aclTensor* in_arg, bool transposed, int64_t groups,
                            const aclTensor* out_arg) {
  const aclTensor& in = b.input(in_arg, "weightIn");
  const aclTensor& out = b.output(out_arg, "weightOut");
  check_dtype_in(b.op(), "weightIn", in.dtype, dtype_mask({DType::kFloat16, DType::kFloat}));
  check_dtype_in(b.op(), "weightOut", out.dtype, dtype_mask({DType::kFloat16}));
  check_rank_between(in, "weightIn", 4, 4);
  if (transposed) invalid("transposed is true, expected false (the only supported value)");
  if (groups < 1 || groups > 65535) invalid("groups is {}, expected a value in [1, 65535]", groups);
  check_shape_equals(out, "weightOut", in.view, "the shape of weightIn");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  const PiecePlan::Operand src = pp.source(in), dst = pp.dest(out);
  pp.copy(dst, 0, dst.strides, src, 0, src.strides, in.view);
  pp.finish("trans_convolution_weight");
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnNpuFormatCastCalculateSizeAndFormat(const aclTensor* srcTensor, const int dstFormat,
                                                                int additionalDtype, int64_t** dstShape,
                                                                uint64_t* dstShapeSize, int* actualFormat) {
  return pacl::nn_call("aclnnNpuFormatCastCalculateSizeAndFormat", [&] {
    pacl::calculate_size_and_format(srcTensor, dstFormat, additionalDtype, dstShape, dstShapeSize, actualFormat);
  });
}

extern "C" aclnnStatus aclnnNpuFormatCastGetWorkspaceSize(const aclTensor* srcTensor, aclTensor* dstTensor,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_NpuFormatCast, "aclnnNpuFormatCastGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_format_cast(b, srcTensor, dstTensor); });
}

extern "C" aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape, uint64_t* weightTensorSize) {
  return pacl::nn_call("aclnnCalculateMatmulWeightSize", [&] {
    if (!weightTensorSize) throw pacl::NullArgument("argument 'weightTensorSize' is null");
    *weightTensorSize = pacl::element_count(tensorShape, "tensorShape", 2, 6);
  });
}

extern "C" aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
                                                        uint64_t* weightTensorSize) {
  return pacl::nn_call("aclnnCalculateMatmulWeightSizeV2", [&] {
    if (!weightTensorSize) throw pacl::NullArgument("argument 'weightTensorSize' is null");
    if (pacl::dtype_size(static_cast<pacl::DType>(dataType)) == 0)
      pacl::invalid("dataType {} is not a storable dtype", static_cast<int>(dataType));
    *weightTensorSize = pacl::element_count(tensorShape, "tensorShape", 2, 6);
  });
}

extern "C" aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor* mmWeightRef, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_TransMatmulWeight, "aclnnTransMatmulWeightGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) { pacl::plan_trans_matmul_weight(b, mmWeightRef); });
}

extern "C" aclnnStatus aclnnCalculateConvolutionWeightSize(const aclIntArray* tensorShape, bool transposed,
                                                           int64_t groups, aclDataType dataType,
                                                           uint64_t* weightTensorSize) {
  return pacl::nn_call("aclnnCalculateConvolutionWeightSize", [&] {
    if (!weightTensorSize) throw pacl::NullArgument("argument 'weightTensorSize' is null");
    if (transposed) pacl::invalid("transposed is true, expected false (the only supported value)");
    if (groups < 1 || groups > 65535) pacl::invalid("groups is {}, expected a value in [1, 65535]", groups);
    if (static_cast<pacl::DType>(dataType) != pacl::DType::kFloat16)
      pacl::invalid("dataType is {}, expected float16", pacl::dtype_name(static_cast<pacl::DType>(dataType)));
    *weightTensorSize = pacl::element_count(tensorShape, "tensorShape", 4, 4);
  });
}

extern "C" aclnnStatus aclnnTransConvolutionWeightGetWorkspaceSize(const aclTensor* weightIn, bool transposed,
                                                                   const int64_t groups, aclTensor* weightOut,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_TransConvolutionWeight, "aclnnTransConvolutionWeightGetWorkspaceSize",
                          workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_trans_conv_weight(b, weightIn, transposed, groups, weightOut); });
}
