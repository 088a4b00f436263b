// Tril / Triu (+ in-place): over the last two dims [R, C] of self, row i keeps the columns
// j <= i + diagonal (Tril) or j >= i + diagonal (Triu) and zeroes the others. Each row is one
// kept run (copied) and one zero run, moved as bytes: any storable dtype.
#include <cstring>

#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/movement.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kTriangleTypes = kMoveTypes & ~dtype_mask({DType::kComplex128});

void plan_triangle(OpBuilder& b, bool lower, const aclTensor* self_arg, int64_t diagonal, const aclTensor* out_arg,
                   bool inplace) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  check_dtype_in(b.op(), self_name, self.dtype, kTriangleTypes);
  if (!inplace) check_same_dtype(out, "out", self, self_name);
  // CANN's Triu also takes a 0-d self (copied unchanged).
  if (!(self.dim() == 0 && !lower)) check_rank_between(self, self_name, 2, 8);
  if (!inplace) check_shape_equals(out, "out", self.view, "the shape of self");
  if (out.numel() == 0) return;
  const int64_t rank = self.dim();
  const int64_t rows = rank ? self.view[static_cast<size_t>(rank - 2)] : 1;
  const int64_t cols = rank ? self.view[static_cast<size_t>(rank - 1)] : 1;
  const int64_t total_rows = self.numel() / cols;
  const size_t es = dtype_size(self.dtype);
  const int64_t k = rank ? std::clamp<int64_t>(diagonal, -rows - 1, cols + 1) : (lower ? cols : -1);
  DensePlan p(b);
  p.separate_outputs();
  const int src = inplace ? -1 : p.input(self, self.dtype);
  const int dst = p.output(out, out.dtype, inplace ? Access::kReadWrite : Access::kWrite);
  p.finish(fmt::format("{}.{}", lower ? "tril" : "triu", dtype_name(self.dtype)), [=](const DenseArgs& a) {
    const char* s = src >= 0 ? static_cast<const char*>(a.ptr(src)) : nullptr;
    char* o = static_cast<char*>(a.ptr(dst));
    const int64_t grain = std::max<int64_t>(1, 16384 / cols);
    parallel_for(total_rows, grain, [&](int64_t from, int64_t to, int) {
      for (int64_t r = from; r < to; ++r) {
        const int64_t i = rank ? r % rows : 0;
        // Kept columns [keep_lo, keep_hi).
        const int64_t keep_lo = lower ? 0 : std::clamp<int64_t>(i + k, 0, cols);
        const int64_t keep_hi = lower ? std::clamp<int64_t>(i + k + 1, 0, cols) : cols;
        char* row = o + static_cast<size_t>(r * cols) * es;
        if (s && keep_hi > keep_lo)
          std::memcpy(row + keep_lo * es, s + static_cast<size_t>(r * cols + keep_lo) * es,
                      static_cast<size_t>(keep_hi - keep_lo) * es);
        if (keep_lo > 0) std::memset(row, 0, static_cast<size_t>(keep_lo) * es);
        if (keep_hi < cols) std::memset(row + keep_hi * es, 0, static_cast<size_t>(cols - keep_hi) * es);
      }
    });
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Tril, "aclnnTrilGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_triangle(b, true, self, diagonal, out, false); });
}

extern "C" aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceTril, "aclnnInplaceTrilGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_triangle(b, true, selfRef, diagonal, nullptr, true); });
}

extern "C" aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Triu, "aclnnTriuGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_triangle(b, false, self, diagonal, out, false); });
}

extern "C" aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceTriu, "aclnnInplaceTriuGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_triangle(b, false, selfRef, diagonal, nullptr, true); });
}
