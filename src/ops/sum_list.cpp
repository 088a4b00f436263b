// Sum (AccumulateNv2): out = tensors[0] + tensors[1] + ..., each broadcast to out's shape, all of
// out's dtype. float16 is accumulated in float32 and rounded once; integers wrap.
#include <cstring>

#include "aclnnop/aclnn_sum.h"
#include "core/dense.h"
#include "core/elementwise.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"
#include "runtime/status.h"

namespace pacl {
namespace {

constexpr DTypeMask kSumListTypes =
    dtype_mask({DType::kFloat16, DType::kFloat, DType::kInt8, DType::kInt32, DType::kUInt8});

template <typename T>
void add_into(T* __restrict acc, const T* __restrict x, int64_t n) {
  parallel_for(n, 32768, [&](int64_t b, int64_t e, int) {
    for (int64_t i = b; i < e; ++i) {
      if constexpr (std::is_integral_v<T>) acc[i] = static_cast<T>(static_cast<uint64_t>(acc[i]) + static_cast<uint64_t>(x[i]));
      else acc[i] += x[i];
    }
  });
}

void plan_sum_list(OpBuilder& b, const aclTensorList* tensors_arg, const aclTensor* out_arg) {
  const std::vector<const aclTensor*> tensors = b.input_list(tensors_arg, "tensors");
  const aclTensor& out = b.output(out_arg, "out");
  if (tensors.empty()) invalid("tensors is empty, expected at least one tensor");
  check_dtype_in(b.op(), "out", out.dtype, kSumListTypes);
  check_rank(out, "out");
  Dims shape = tensors[0]->view;
  for (size_t k = 0; k < tensors.size(); ++k) {
    const std::string name = "tensors[" + std::to_string(k) + "]";
    check_dtype_in(b.op(), name.c_str(), tensors[k]->dtype, kSumListTypes);
    if (tensors[k]->dtype != out.dtype)
      invalid("{} has dtype {}, expected out's dtype {}", name, dtype_name(tensors[k]->dtype), dtype_name(out.dtype));
    check_rank(*tensors[k], name.c_str());
    if (k > 0) shape = broadcast_shapes(shape, "the shapes before it", tensors[k]->view, name.c_str());
  }
  shape = broadcast_shapes(shape, "the broadcast of tensors", out.view, "out");
  check_shape_equals(out, "out", shape, "the broadcast shape of tensors");
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const DType t = arithmetic_dtype(out.dtype);
  std::vector<int> ids;
  std::vector<Dims> strides;
  std::vector<bool> direct;
  bool need_scratch = false;
  for (size_t k = 0; k < tensors.size(); ++k) {
    ids.push_back(p.strided(*tensors[k]));
    strides.push_back(broadcast_strides(*tensors[k], shape));
    direct.push_back(tensors[k]->dtype == t && tensors[k]->view == shape && tensors[k]->is_contiguous());
    if (k > 0 && !direct.back()) need_scratch = true;
  }
  const int o = p.output(out, t);
  const size_t scratch = need_scratch ? p.scratch(static_cast<size_t>(out.numel()) * dtype_size(t)) : 0;
  std::vector<DType> dtypes;
  for (const aclTensor* x : tensors) dtypes.push_back(x->dtype);
  const int64_t n = out.numel();
  visit_arithmetic<TypeSet::kNumeric>(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    p.finish(std::string("sum_list.") + dtype_name(out.dtype), [=](const DenseArgs& a) {
      T* acc = a.out<T>(o);
      const Dims dense = contiguous_strides(shape);
      copy_strided(shape, t, acc, dense, dtypes[0], a.ptr(ids[0]), strides[0]);
      for (size_t k = 1; k < ids.size(); ++k) {
        const T* x = static_cast<const T*>(a.ptr(ids[k]));
        if (!direct[k]) {
          T* buf = a.scratch<T>(scratch);
          copy_strided(shape, t, buf, dense, dtypes[k], a.ptr(ids[k]), strides[k]);
          x = buf;
        }
        add_into(acc, x, n);
      }
    });
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnSumGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Sum, "aclnnSumGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_sum_list(b, tensors, out); });
}
