// Renorm / InplaceRenorm and EmbeddingRenorm (PyTorch's renorm and embedding_renorm_):
//   norm_i = ||slice_i||_p (p = 0: count of non-zeros; p = inf: max |x|; else (sum |x|^p)^(1/p)),
//   slice_i scaled by maxNorm / (norm_i + 1e-7) when norm_i > maxNorm, else unchanged.
// Renorm's slices are the sub-tensors at each index of `dim` (the input as [outer, n, inner]);
// EmbeddingRenorm's are the rows of the 2-D selfRef named by indices (each distinct index once;
// indices outside [0, rows) are skipped: CANN leaves them undefined). Norms accumulate in float64;
// float16/bfloat16 are scaled in float32 and rounded once.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "aclnnop/aclnn_embedding_renorm.h"
#include "aclnnop/aclnn_renorm.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/elementwise_op.h"
#include "ops/norm_rows.h"
#include "ops/registry.h"

namespace pacl {
namespace {

enum class PKind { kZero, kOne, kTwo, kInf, kOther };

PKind p_kind(double p) {
  if (p == 0) return PKind::kZero;
  if (p == 1) return PKind::kOne;
  if (p == 2) return PKind::kTwo;
  if (std::isinf(p)) return PKind::kInf;
  return PKind::kOther;
}

// The contribution of one value to a p-norm accumulator (combined with + or, for inf, max).
inline double norm_term(double v, PKind k, double p) {
  switch (k) {
    case PKind::kZero: return v != 0 ? 1.0 : 0.0;
    case PKind::kOne: return std::fabs(v);
    case PKind::kTwo: return v * v;
    case PKind::kInf: return std::fabs(v);
    default: return std::pow(std::fabs(v), p);
  }
}

inline double norm_finish(double acc, PKind k, double p) {
  switch (k) {
    case PKind::kTwo: return std::sqrt(acc);
    case PKind::kOther: return std::pow(acc, 1 / p);
    default: return acc;
  }
}

inline double renorm_factor(double norm, double max_norm) { return norm > max_norm ? max_norm / (norm + 1e-7) : 1.0; }

template <typename T>
void renorm_kernel(const T* x, T* y, const rows::Layout& g, double p, double max_norm, double* part) {
  const PKind k = p_kind(p);
  const int64_t n = g.n, inner = g.inner;
  const int threads = max_threads();
  for (int64_t i = 0; i < static_cast<int64_t>(threads) * n; ++i) part[i] = 0;
  rows::for_tasks(g.outer, n * inner, [&](int64_t b, int64_t e, int t) {
    double* acc = part + static_cast<int64_t>(t) * n;
    for (int64_t o = b; o < e; ++o)
      for (int64_t i = 0; i < n; ++i) {
        const T* r = x + (o * n + i) * inner;
        double a = acc[i];
        if (k == PKind::kInf) {
          for (int64_t j = 0; j < inner; ++j) {
            const double v = std::fabs(static_cast<double>(r[j]));
            a = (v > a || std::isnan(v)) ? v : a;
          }
        } else {
          for (int64_t j = 0; j < inner; ++j) a += norm_term(static_cast<double>(r[j]), k, p);
        }
        acc[i] = a;
      }
  });
  // part[0..n): the factors.
  for (int64_t i = 0; i < n; ++i) {
    double a = part[i];
    for (int t = 1; t < threads; ++t) {
      const double v = part[static_cast<int64_t>(t) * n + i];
      a = k == PKind::kInf ? ((v > a || std::isnan(v)) ? v : a) : a + v;
    }
    part[i] = renorm_factor(norm_finish(a, k, p), max_norm);
  }
  rows::for_tasks(g.outer * n, inner, [&](int64_t b, int64_t e, int) {
    for (int64_t r = b; r < e; ++r) {
      const T f = static_cast<T>(part[r % n]);
      const T* xr = x + r * inner;
      T* yr = y + r * inner;
      for (int64_t j = 0; j < inner; ++j) yr[j] = xr[j] * f;
    }
  });
}

void plan_renorm(OpBuilder& b, bool inplace, const aclTensor* self_arg, const aclScalar* p_arg, int64_t dim,
                 const aclScalar* max_arg, const aclTensor* out_arg) {
  const char* sname = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, sname) : b.input(self_arg, sname);
  const aclScalar& ps = b.scalar(p_arg, "p");
  const aclScalar& ms = b.scalar(max_arg, "maxNorm");
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  const OpInfo& op = b.op();
  check_dtype_in(op, sname, self.dtype, kFloatingTypes);
  if (!inplace) {
    if (out.dtype != self.dtype)
      invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
    check_shape_equals(out, "out", self.view, "the shape of self");
  }
  if (self.dim() < 2 || self.dim() > 8) invalid("{} has {} dims ({}), expected 2 to 8", sname, self.dim(), dims_str(self.view));
  const double p = ps.to_double(), max_norm = ms.to_double();
  if (!(p >= 0)) invalid("p is {}, expected a value >= 0", p);
  if (!(max_norm >= 0)) invalid("maxNorm is {}, expected a value >= 0", max_norm);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  if (self.numel() == 0) return;
  rows::Layout g;
  for (int64_t k = 0; k < self.dim(); ++k) (k < d ? g.outer : k == d ? g.n : g.inner) *= self.view[static_cast<size_t>(k)];
  const DType ct = arithmetic_dtype(self.dtype);
  DensePlan p_(b);
  const int xi = inplace ? -1 : p_.input(self, ct);
  if (!inplace) p_.separate_outputs();
  const int yi = p_.output(out, ct, inplace ? Access::kReadWrite : Access::kWrite);
  const size_t part = p_.scratch(static_cast<size_t>(max_threads()) * static_cast<size_t>(g.n) * 8);
  p_.finish(std::string("renorm.") + dtype_name(ct), [=](const DenseArgs& a) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = inplace ? a.out<T>(yi) : a.in<T>(xi);
      renorm_kernel<T>(x, a.out<T>(yi), g, p, max_norm, a.scratch<double>(part));
    });
  });
}

void plan_embedding_renorm(OpBuilder& b, const aclTensor* self_arg, const aclTensor* idx_arg, double max_norm,
                           double norm_type) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  const aclTensor& idx = b.input(idx_arg, "indices");
  const OpInfo& op = b.op();
  check_dtype_in(op, "selfRef", self.dtype, kFloatingTypes);
  check_dtype_in(op, "indices", idx.dtype, dtype_mask({DType::kInt32, DType::kInt64}));
  if (self.dim() != 2) invalid("selfRef has {} dims ({}), expected 2 [rows, dim]", self.dim(), dims_str(self.view));
  if (idx.dim() > 8) invalid("indices has {} dims, expected at most 8", idx.dim());
  if (!(norm_type >= 0)) invalid("normType is {}, expected a value >= 0", norm_type);
  if (self.numel() == 0 || idx.numel() == 0) return;
  const int64_t V = self.view[0], D = self.view[1], ni = idx.numel();
  const DType ct = arithmetic_dtype(self.dtype);
  DensePlan p(b);
  const int ii = p.input(idx, DType::kInt64);
  const int yi = p.output(self, ct, Access::kReadWrite);
  const size_t sorted = p.scratch(static_cast<size_t>(ni) * 8);
  p.finish(std::string("embedding_renorm.") + dtype_name(ct), [=](const DenseArgs& a) {
    int64_t* s = a.scratch<int64_t>(sorted);
    std::copy(a.in<int64_t>(ii), a.in<int64_t>(ii) + ni, s);
    std::sort(s, s + ni);
    const int64_t nu = std::unique(s, s + ni) - s;
    const PKind k = p_kind(norm_type);
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* y = a.out<T>(yi);
      rows::for_tasks(nu, D, [&](int64_t begin, int64_t end, int) {
        for (int64_t u = begin; u < end; ++u) {
          const int64_t r = s[u];
          if (r < 0 || r >= V) continue;
          T* row = y + r * D;
          double acc = 0;
          for (int64_t j = 0; j < D; ++j) {
            const double t = norm_term(static_cast<double>(row[j]), k, norm_type);
            acc = k == PKind::kInf ? ((t > acc || std::isnan(t)) ? t : acc) : acc + t;
          }
          const double norm = norm_finish(acc, k, norm_type);
          if (!(norm > max_norm)) continue;
          const T f = static_cast<T>(max_norm / (norm + 1e-7));
          for (int64_t j = 0; j < D; ++j) row[j] *= f;
        }
      });
    });
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnRenormGetWorkspaceSize(const aclTensor* self, const aclScalar* p, int64_t dim,
                                                  const aclScalar* maxNorm, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Renorm, "aclnnRenormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_renorm(b, false, self, p, dim, maxNorm, out); });
}

extern "C" aclnnStatus aclnnInplaceRenormGetWorkspaceSize(aclTensor* selfRef, const aclScalar* p, int64_t dim,
                                                         const aclScalar* maxNorm, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceRenorm, "aclnnInplaceRenormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_renorm(b, true, selfRef, p, dim, maxNorm, nullptr); });
}

extern "C" aclnnStatus aclnnEmbeddingRenormGetWorkspaceSize(aclTensor* selfRef, const aclTensor* indices, double maxNorm,
                                                           double normType, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_EmbeddingRenorm, "aclnnEmbeddingRenormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_embedding_renorm(b, selfRef, indices, maxNorm, normType);
                          });
}
