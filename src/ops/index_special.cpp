// Special-purpose index ops of CANN's ops-nn: ScatterList, InplaceQuantScatter,
// ExpandIntoJaggedPermute, ApplyTopKTopP and the sampling kernels TopKTopPSample(V2).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "aclnnop/aclnn_apply_top_k_top_p.h"
#include "aclnnop/aclnn_expand_into_jagged_permute.h"
#include "aclnnop/aclnn_quant_scatter.h"
#include "aclnnop/aclnn_scatter_list.h"
#include "aclnnop/aclnn_top_k_top_p_sample.h"
#include "aclnnop/aclnn_top_k_top_p_sample_v2.h"
#include "core/convert.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/index_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr int64_t kMaxRank = 8;
constexpr float kInf = std::numeric_limits<float>::infinity();

int64_t prod(const Dims& d, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t k = from; k < to && k < d.size(); ++k) n *= d[k];
  return n;
}

// ---- ScatterList --------------------------------------------------------------------------------------------
// For each list element i (mask[i] != 0): var[i][.., start + k, ..] = updates[i][.., k, ..] along the axis,
// k < len; start = indice[i] and len = updates.shape[axis] (1-d indice) or start = indice[i][0] and
// len = min(indice[i][1], updates.shape[axis]) (2-d indice). axis counts in updates' dims.

constexpr DTypeMask kScatterListTypes = dtype_mask({DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64, DType::kUInt8,
                                                    DType::kUInt16, DType::kUInt32, DType::kUInt64, DType::kFloat16,
                                                    DType::kBFloat16, DType::kFloat});

void plan_scatter_list(OpBuilder& b, aclTensorList* var_arg, const aclTensor* indice_arg, const aclTensor* updates_arg,
                       const aclTensor* mask_arg, const char* reduce, int64_t axis) {
  const std::vector<const aclTensor*> vars = b.output_list(var_arg, "varRef");
  const aclTensor& indice = b.input(indice_arg, "indice");
  const aclTensor& updates = b.input(updates_arg, "updates");
  const aclTensor* mask = mask_arg ? &b.input(mask_arg, "maskOptional") : nullptr;
  if (reduce && std::string(reduce) != "update") invalid("reduceOptional is \"{}\", expected \"update\"", reduce);
  check_dtype_in(b.op(), "updates", updates.dtype, kScatterListTypes);
  check_dtype_in(b.op(), "indice", indice.dtype, kIndexDTypes);
  if (mask) check_dtype_in(b.op(), "maskOptional", mask->dtype, dtype_mask({DType::kUInt8}));
  const int64_t nb = static_cast<int64_t>(vars.size());
  if (nb == 0) invalid("varRef is empty, expected at least one tensor");
  const Dims vshape = vars[0]->view;
  for (int64_t i = 0; i < nb; ++i) {
    const aclTensor& v = *vars[static_cast<size_t>(i)];
    if (v.dtype != updates.dtype)
      invalid("varRef[{}] has dtype {}, expected the dtype of updates ({})", i, dtype_name(v.dtype), dtype_name(updates.dtype));
    if (v.view != vshape)
      invalid("varRef[{}] has shape {}, expected the shape of varRef[0] ({})", i, dims_str(v.view), dims_str(vshape));
  }
  if (vshape.empty()) invalid("varRef's tensors are 0-d, expected at least 1 dim");
  check_rank(updates, "updates", kMaxRank);
  const int64_t urank = updates.dim();
  if (urank != static_cast<int64_t>(vshape.size()) + 1)
    invalid("updates has {} dims ({}), expected one more than varRef's tensors ({})", urank, dims_str(updates.view),
            dims_str(vshape));
  if (updates.view[0] != nb) invalid("updates.shape[0] is {}, expected the number of varRef tensors ({})", updates.view[0], nb);
  const int64_t ax = axis < 0 ? axis + urank : axis;
  if (ax <= 0 || ax >= urank) invalid("axis is {}, expected a dim of updates other than 0 (in ({}, {}) or ({}, {}))", axis, -urank, 0, 0, urank);
  const int64_t vax = ax - 1;
  for (int64_t k = 1; k < urank; ++k) {
    const int64_t u = updates.view[static_cast<size_t>(k)], v = vshape[static_cast<size_t>(k - 1)];
    if (k == ax ? u > v : u != v)
      invalid("updates has shape {} and varRef's tensors {}: dims other than axis must match, axis' may be smaller",
              dims_str(updates.view), dims_str(vshape));
  }
  if (indice.dim() < 1 || indice.dim() > 2 || indice.view[0] != nb || (indice.dim() == 2 && indice.view[1] != 2))
    invalid("indice has shape {}, expected [{}] or [{}, 2]", dims_str(indice.view), nb, nb);
  if (mask && (mask->dim() != 1 || mask->view[0] != nb))
    invalid("maskOptional has shape {}, expected [{}]", dims_str(mask->view), nb);
  DensePlan p(b);
  p.separate_outputs();
  const int ii = p.input(indice, DType::kInt64);
  const int ui = p.input(updates, updates.dtype);
  const int mi = mask ? p.input(*mask, DType::kBool) : -1;
  std::vector<int> vi;
  for (const aclTensor* v : vars) vi.push_back(p.output(*v, v->dtype, Access::kReadWrite));
  const int64_t outer = prod(vshape, 0, static_cast<size_t>(vax));
  const int64_t vsize = vshape[static_cast<size_t>(vax)];
  const int64_t usize = updates.view[static_cast<size_t>(ax)];
  const int64_t inner = prod(vshape, static_cast<size_t>(vax) + 1, vshape.size());
  const bool two_d = indice.dim() == 2;
  const size_t esize = updates.elem_size();
  p.finish(std::string("index.scatter_list.") + dtype_name(updates.dtype), [=](const DenseArgs& a) {
    const int64_t* idx = a.in<int64_t>(ii);
    const char* up = static_cast<const char*>(a.ptr(ui));
    const int64_t per_update = outer * usize * inner;
    for (int64_t i = 0; i < nb; ++i) {  // check every bag before writing any
      if (mi >= 0 && !a.in<bool>(mi)[i]) continue;
      const int64_t start = two_d ? idx[2 * i] : idx[i];
      const int64_t len = two_d ? std::min(idx[2 * i + 1], usize) : usize;
      if (start < 0 || (len > 0 && start + len > vsize))
        throw InvalidArgument(fmt::format("aclnnScatterList: indice for varRef[{}] starts at {} for {} entries, outside "
                                          "[0, {}] along the axis",
                                          i, start, len, vsize));
    }
    for (int64_t i = 0; i < nb; ++i) {
      if (mi >= 0 && !a.in<bool>(mi)[i]) continue;
      const int64_t start = two_d ? idx[2 * i] : idx[i];
      const int64_t len = two_d ? std::min(idx[2 * i + 1], usize) : usize;
      if (len <= 0) continue;
      char* dst = static_cast<char*>(a.ptr(vi[static_cast<size_t>(i)]));
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(dst + ((o * vsize + start) * inner) * static_cast<int64_t>(esize),
                    up + (i * per_update + (o * usize) * inner) * static_cast<int64_t>(esize),
                    static_cast<size_t>(len * inner) * esize);
    }
  });
}

// ---- InplaceQuantScatter ------------------------------------------------------------------------------------

void plan_quant_scatter(OpBuilder& b, aclTensor* self_arg, const aclTensor* indices_arg, const aclTensor* updates_arg,
                        const aclTensor* scales_arg, const aclTensor* zero_arg, int64_t axis, int64_t quant_axis,
                        int64_t reduction) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  const aclTensor& indices = b.input(indices_arg, "indices");
  const aclTensor& updates = b.input(updates_arg, "updates");
  const aclTensor& scales = b.input(scales_arg, "quantScales");
  const aclTensor* zero = zero_arg ? &b.input(zero_arg, "quantZeroPoints") : nullptr;
  check_dtype_in(b.op(), "selfRef", self.dtype, dtype_mask({DType::kInt8}));
  check_dtype_in(b.op(), "indices", indices.dtype, kIndexDTypes);
  check_dtype_in(b.op(), "updates", updates.dtype, dtype_mask({DType::kFloat16, DType::kBFloat16}));
  const bool bf = updates.dtype == DType::kBFloat16;
  check_dtype_in(b.op(), "quantScales", scales.dtype, dtype_mask({bf ? DType::kBFloat16 : DType::kFloat}));
  if (zero) check_dtype_in(b.op(), "quantZeroPoints", zero->dtype, dtype_mask({bf ? DType::kBFloat16 : DType::kInt32}));
  const int64_t r = self.dim();
  if (r < 3 || r > kMaxRank) invalid("selfRef has {} dims ({}), expected 3 to 8", r, dims_str(self.view));
  if (updates.dim() != r)
    invalid("updates has {} dims ({}), expected as many as selfRef ({})", updates.dim(), dims_str(updates.view), r);
  if (indices.dim() != 1) invalid("indices has {} dims ({}), expected 1", indices.dim(), dims_str(indices.view));
  if (axis != -2 && axis != r - 2) invalid("axis is {}, expected -2 (or {})", axis, r - 2);
  if (quant_axis != -1 && quant_axis != r - 1) invalid("quantAxis is {}, expected -1 (or {})", quant_axis, r - 1);
  if (reduction != 1) invalid("reduction is {}, expected 1 (update)", reduction);
  // [batch, middle dims..., axis, quant]: the middle dims are flattened into `mid`.
  const size_t ax = static_cast<size_t>(r - 2);
  const int64_t n0 = updates.view[0], s1 = self.view[ax], u1 = updates.view[ax], d = self.view[ax + 1];
  const int64_t mid = prod(self.view, 1, ax);
  if (indices.view[0] != n0) invalid("indices has {} elements, expected updates.shape[0] ({})", indices.view[0], n0);
  bool fits = n0 <= self.view[0] && u1 <= s1 && updates.view[ax + 1] == d;
  for (size_t k = 1; k < ax; ++k) fits &= updates.view[k] == self.view[k];
  if (!fits)
    invalid("updates has shape {}, expected selfRef's {} with dim 0 and the axis dim at most as large", dims_str(updates.view),
            dims_str(self.view));
  if (scales.numel() != d) invalid("quantScales has {} elements, expected updates.shape[-1] ({})", scales.numel(), d);
  if (zero && zero->numel() != d) invalid("quantZeroPoints has {} elements, expected updates.shape[-1] ({})", zero->numel(), d);
  if (updates.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int ii = p.input(indices, DType::kInt64);
  const int ui = p.input(updates, DType::kFloat);
  const int si = p.input(scales, DType::kFloat);
  const int zi = zero ? p.input(*zero, DType::kFloat) : -1;
  const int oi = p.output(self, DType::kInt8, Access::kReadWrite);
  const Dims ishape = indices.view;
  p.finish("index.quant_scatter.int8", [=](const DenseArgs& a) {
    const int64_t* idx = a.in<int64_t>(ii);
    for (int64_t i = 0; i < n0; ++i)
      if (idx[i] < 0 || idx[i] + u1 > s1)
        throw InvalidArgument(fmt::format("aclnnInplaceQuantScatter: indices[{}] is {}, expected a value in [0, {}] "
                                          "(selfRef.shape[-2] - updates.shape[-2])",
                                          i, idx[i], s1 - u1));
    const float* u = a.in<float>(ui);
    const float* sc = a.in<float>(si);
    const float* zp = zi >= 0 ? a.in<float>(zi) : nullptr;
    int8_t* y = a.out<int8_t>(oi);
    for (int64_t i = 0; i < n0; ++i)
      for (int64_t m = 0; m < mid; ++m)
        for (int64_t k = 0; k < u1; ++k)
          for (int64_t c = 0; c < d; ++c) {
            float v = u[((i * mid + m) * u1 + k) * d + c] / sc[c];
            if (zp) v += zp[c];
            v = std::isnan(v) ? 0.0f : std::min(127.0f, std::max(-128.0f, std::nearbyint(v)));  // CAST_RINT, saturated
            y[((i * mid + m) * s1 + idx[i] + k) * d + c] = static_cast<int8_t>(v);
          }
  });
}

// ---- ExpandIntoJaggedPermute ------------------------------------------------------------------------------

void plan_jagged_permute(OpBuilder& b, const aclTensor* permute_arg, const aclTensor* in_off_arg,
                         const aclTensor* out_off_arg, int64_t output_size, const aclTensor* out_arg) {
  const aclTensor& permute = b.input(permute_arg, "permute");
  const aclTensor& in_off = b.input(in_off_arg, "inputOffset");
  const aclTensor& out_off = b.input(out_off_arg, "outputOffset");
  const aclTensor& out = b.output(out_arg, "outputPermuteOut");
  check_dtype_in(b.op(), "permute", permute.dtype, dtype_mask({DType::kInt32}));
  for (const auto& [t, name] : {std::pair<const aclTensor*, const char*>{&in_off, "inputOffset"},
                                {&out_off, "outputOffset"}, {&out, "outputPermuteOut"}})
    if (t->dtype != permute.dtype)
      invalid("{} has dtype {}, expected the dtype of permute ({})", name, dtype_name(t->dtype), dtype_name(permute.dtype));
  if (permute.dim() != 1) invalid("permute has {} dims, expected 1", permute.dim());
  const int64_t n = permute.numel();
  if (in_off.view != Dims{n + 1}) invalid("inputOffset has shape {}, expected [{}]", dims_str(in_off.view), n + 1);
  if (out_off.view != Dims{n + 1}) invalid("outputOffset has shape {}, expected [{}]", dims_str(out_off.view), n + 1);
  check_shape_equals(out, "outputPermuteOut", Dims{output_size}, "[outputSize]");
  DensePlan p(b);
  p.separate_outputs();
  const int pi = p.input(permute, DType::kInt64);
  const int ii = p.input(in_off, DType::kInt64);
  const int oi = p.input(out_off, DType::kInt64);
  const int yi = p.output(out, DType::kInt64);
  p.finish("index.expand_into_jagged_permute", [=](const DenseArgs& a) {
    const int64_t* perm = a.in<int64_t>(pi);
    const int64_t* io = a.in<int64_t>(ii);
    const int64_t* oo = a.in<int64_t>(oi);
    int64_t* y = a.out<int64_t>(yi);
    check_index_values("ExpandIntoJaggedPermute", "permute", Dims{n}, perm, n, n, IndexRule::kNonNegative, "permute.numel()");
    for (int64_t i = 0; i < n; ++i)
      if (oo[i] < 0 || oo[i] > oo[i + 1] || oo[i + 1] > output_size)
        throw InvalidArgument(fmt::format("aclnnExpandIntoJaggedPermute: outputOffset[{}..{}] = [{}, {}] is not an "
                                          "increasing range inside [0, {}]",
                                          i, i + 1, oo[i], oo[i + 1], output_size));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = oo[i]; j < oo[i + 1]; ++j) y[j] = io[perm[i]] + (j - oo[i]);
  });
}

// ---- ApplyTopKTopP ------------------------------------------------------------------------------------------

constexpr DTypeMask kLogitTypes = dtype_mask({DType::kBFloat16, DType::kFloat16, DType::kFloat});

void plan_apply_top_k_top_p(OpBuilder& b, const aclTensor* logits_arg, const aclTensor* p_arg, const aclTensor* k_arg,
                            const aclTensor* out_arg) {
  const aclTensor& logits = b.input(logits_arg, "logits");
  const aclTensor* pt = p_arg ? &b.input(p_arg, "p") : nullptr;
  const aclTensor* kt = k_arg ? &b.input(k_arg, "k") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  if (!pt && !kt) throw NullArgument("arguments 'p' and 'k' are both null: pass at least one");
  check_dtype_in(b.op(), "logits", logits.dtype, kLogitTypes);
  if (logits.dim() != 2) invalid("logits has {} dims ({}), expected 2", logits.dim(), dims_str(logits.view));
  const int64_t rows = logits.view[0], v = logits.view[1];
  if (pt) {
    if (pt->dtype != logits.dtype) invalid("p has dtype {}, expected the dtype of logits ({})", dtype_name(pt->dtype), dtype_name(logits.dtype));
    if (pt->view != Dims{rows}) invalid("p has shape {}, expected [{}]", dims_str(pt->view), rows);
  }
  if (kt) {
    check_dtype_in(b.op(), "k", kt->dtype, dtype_mask({DType::kInt32}));
    if (kt->view != Dims{rows}) invalid("k has shape {}, expected [{}]", dims_str(kt->view), rows);
  }
  if (out.dtype != logits.dtype) invalid("out has dtype {}, expected the dtype of logits ({})", dtype_name(out.dtype), dtype_name(logits.dtype));
  check_shape_equals(out, "out", logits.view, "logits' shape");
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int li = p.input(logits, DType::kFloat);
  const int pi = pt ? p.input(*pt, DType::kFloat) : -1;
  const int ki = kt ? p.input(*kt, DType::kInt64) : -1;
  const int oi = p.output(out, DType::kFloat);
  p.finish(std::string("index.apply_top_k_top_p.") + dtype_name(logits.dtype), [=](const DenseArgs& a) {
    auto run = [&](int64_t from, int64_t to, int) {
      std::vector<int64_t> order(static_cast<size_t>(v));
      std::vector<float> sorted(static_cast<size_t>(v));
      for (int64_t r = from; r < to; ++r) {
        const float* x = a.in<float>(li) + r * v;
        float* y = a.out<float>(oi) + r * v;
        std::iota(order.begin(), order.end(), int64_t{0});
        std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return x[i] < x[j]; });
        for (int64_t j = 0; j < v; ++j) sorted[static_cast<size_t>(j)] = x[order[static_cast<size_t>(j)]];
        if (ki >= 0) {
          const int64_t k = a.in<int64_t>(ki)[r];
          if (k > 0 && k < v) {
            const float threshold = sorted[static_cast<size_t>(v - k)];
            for (auto& s : sorted)
              if (s < threshold) s = -kInf;
          }
        }
        if (pi >= 0) {
          const float top_p = a.in<float>(pi)[r];
          float mx = -kInf;
          for (float s : sorted) mx = std::max(mx, s);
          double total = 0;
          std::vector<double> e(static_cast<size_t>(v));
          for (int64_t j = 0; j < v; ++j) total += (e[static_cast<size_t>(j)] = std::exp(static_cast<double>(sorted[static_cast<size_t>(j)]) - mx));
          double cum = 0;
          for (int64_t j = 0; j + 1 < v; ++j) {  // the last (largest) entry always stays
            cum += e[static_cast<size_t>(j)] / total;
            if (static_cast<float>(cum) <= 1.0f - top_p) sorted[static_cast<size_t>(j)] = -kInf;
          }
        }
        for (int64_t j = 0; j < v; ++j) y[order[static_cast<size_t>(j)]] = sorted[static_cast<size_t>(j)];
      }
    };
    if (rows > 1 && rows * v >= 64 * 1024) parallel_for(rows, 1, run);
    else run(0, rows, 0);
  });
}

// ---- TopKTopPSample (V1, V2) ------------------------------------------------------------------------------
// Per row: candidates = the top-k logits (1 <= k <= min(ksMax, 1024, vocSize); ties keep the lower
// position first) or, for other k, every entry; probabilities = softmax of the candidates (or the
// values themselves when inputIsLogits is false); top-p keeps the shortest prefix of the descending
// order whose probabilities add up to p (at least one; p >= 1 keeps all, p <= 0 keeps one); min-p
// keeps entries with probability >= minP * the largest; the chosen position maximizes prob / (q + eps)
// (argmax of prob without q; the first on ties).

struct SampleArgs {
  const aclTensor* logits = nullptr;
  const aclTensor* top_k = nullptr;
  const aclTensor* top_p = nullptr;
  const aclTensor* q = nullptr;
  const aclTensor* min_p = nullptr;
  double eps = 1e-8;
  bool need_logits = false;
  int64_t ks_max = 1024;
  bool input_is_logits = true;
  bool need_sample_result = false;
  const aclTensor* select_idx = nullptr;
  const aclTensor* select_logits = nullptr;
  const aclTensor* logits_idx = nullptr;
  const aclTensor* sort_masked = nullptr;
};

void plan_sample(OpBuilder& b, const SampleArgs& s) {
  const aclTensor& logits = *s.logits;
  check_dtype_in(b.op(), "logits", logits.dtype, b.op().name == std::string("TopKTopPSample")
                                                     ? dtype_mask({DType::kFloat16, DType::kBFloat16})
                                                     : kLogitTypes);
  if (logits.dim() != 2) invalid("logits has {} dims ({}), expected 2", logits.dim(), dims_str(logits.view));
  const int64_t rows = logits.view[0], v = logits.view[1];
  if (rows <= 0 || v <= 0) invalid("logits has shape {}, expected a non-empty [batch, vocSize]", dims_str(logits.view));
  check_dtype_in(b.op(), "topK", s.top_k->dtype, dtype_mask({DType::kInt32}));
  if (s.top_k->view != Dims{rows}) invalid("topK has shape {}, expected [{}]", dims_str(s.top_k->view), rows);
  if (s.top_p->dtype != logits.dtype) invalid("topP has dtype {}, expected the dtype of logits ({})", dtype_name(s.top_p->dtype), dtype_name(logits.dtype));
  if (s.top_p->view != Dims{rows}) invalid("topP has shape {}, expected [{}]", dims_str(s.top_p->view), rows);
  if (s.q) {
    check_dtype_in(b.op(), "q", s.q->dtype, dtype_mask({DType::kFloat}));
    check_shape_equals(*s.q, "q", logits.view, "logits' shape");
  }
  if (s.min_p) {
    if (s.min_p->dtype != logits.dtype) invalid("minPs has dtype {}, expected the dtype of logits ({})", dtype_name(s.min_p->dtype), dtype_name(logits.dtype));
    if (s.min_p->numel() != rows) invalid("minPs has shape {}, expected {} elements", dims_str(s.min_p->view), rows);
  }
  if (s.ks_max < 1 || s.ks_max > 1024) invalid("ksMax is {}, expected a value in [1, 1024]", s.ks_max);
  check_dtype_in(b.op(), "logitsSelectIdx", s.select_idx->dtype, dtype_mask({DType::kInt64}));
  check_shape_equals(*s.select_idx, "logitsSelectIdx", Dims{rows}, "[batch]");
  check_dtype_in(b.op(), "logitsTopKPSelect", s.select_logits->dtype, dtype_mask({DType::kFloat}));
  if (s.select_logits->numel() != rows * v)
    invalid("logitsTopKPSelect has shape {}, expected logits' shape {}", dims_str(s.select_logits->view), dims_str(logits.view));
  if (s.logits_idx) {
    check_dtype_in(b.op(), "logitsIdx", s.logits_idx->dtype, dtype_mask({DType::kInt64}));
    check_shape_equals(*s.logits_idx, "logitsIdx", logits.view, "logits' shape");
    check_dtype_in(b.op(), "logitsSortMasked", s.sort_masked->dtype, dtype_mask({DType::kFloat}));
    check_shape_equals(*s.sort_masked, "logitsSortMasked", logits.view, "logits' shape");
  }
  DensePlan p(b);
  p.separate_outputs();
  const int li = p.input(logits, DType::kFloat);
  const int ki = p.input(*s.top_k, DType::kInt64);
  const int pi = p.input(*s.top_p, DType::kFloat);
  const int qi = s.q ? p.input(*s.q, DType::kFloat) : -1;
  const int mi = s.min_p ? p.input(*s.min_p, DType::kFloat) : -1;
  const int si = p.output(*s.select_idx, DType::kInt64);
  const int gi = p.output(*s.select_logits, DType::kFloat, Access::kReadWrite);
  const int xi = s.logits_idx ? p.output(*s.logits_idx, DType::kInt64) : -1;
  const int yi = s.sort_masked ? p.output(*s.sort_masked, DType::kFloat) : -1;
  const int64_t kmax = std::min<int64_t>(std::min<int64_t>((s.ks_max + 7) / 8 * 8, 1024), v);
  const double eps = s.eps;
  const bool need_logits = s.need_logits, is_logits = s.input_is_logits, need_result = s.need_sample_result;
  p.finish(std::string("index.top_k_top_p_sample.") + dtype_name(logits.dtype), [=](const DenseArgs& a) {
    auto run = [&](int64_t from, int64_t to, int) {
      std::vector<int64_t> cand(static_cast<size_t>(v));
      std::vector<double> prob(static_cast<size_t>(v));
      for (int64_t r = from; r < to; ++r) {
        const float* x = a.in<float>(li) + r * v;
        const int64_t k = a.in<int64_t>(ki)[r];
        const float top_p = a.in<float>(pi)[r];
        auto desc = [&](int64_t i, int64_t j) { return x[i] > x[j] || (x[i] == x[j] && i < j); };
        std::iota(cand.begin(), cand.end(), int64_t{0});
        int64_t n = v;
        if (k >= 1 && k <= kmax) {
          std::partial_sort(cand.begin(), cand.begin() + k, cand.end(), desc);
          n = k;
        } else {
          std::sort(cand.begin(), cand.end(), desc);
        }
        double total = 0;
        const double mx = x[cand[0]];
        for (int64_t j = 0; j < n; ++j) {
          const double e = is_logits ? std::exp(static_cast<double>(x[cand[static_cast<size_t>(j)]]) - mx)
                                     : static_cast<double>(x[cand[static_cast<size_t>(j)]]);
          prob[static_cast<size_t>(j)] = e;
          total += e;
        }
        if (is_logits && total > 0)
          for (int64_t j = 0; j < n; ++j) prob[static_cast<size_t>(j)] /= total;
        int64_t kept = n;
        if (top_p <= 0.0f) {
          kept = 1;
        } else if (top_p < 1.0f) {
          double cum = 0;
          kept = n;
          for (int64_t j = 0; j < n; ++j) {
            cum += prob[static_cast<size_t>(j)];
            if (cum >= top_p) {
              kept = j + 1;
              break;
            }
          }
        }
        if (mi >= 0) {
          const float mp = a.in<float>(mi)[r];
          if (mp >= 1.0f) {
            kept = 1;  // the doc: minPs >= 1 keeps only the largest
          } else if (mp > 0.0f) {
            const double floor_p = mp * prob[0];
            int64_t m = 1;
            while (m < kept && prob[static_cast<size_t>(m)] >= floor_p) ++m;
            kept = m;
          }
        }
        const float def = is_logits ? -kInf : 0.0f;
        if (need_result) {
          int64_t* li_out = a.out<int64_t>(xi) + r * v;
          float* sm = a.out<float>(yi) + r * v;
          for (int64_t j = 0; j < v; ++j) {
            li_out[j] = j < n ? cand[static_cast<size_t>(j)] : 0;
            sm[j] = j < kept ? static_cast<float>(prob[static_cast<size_t>(j)]) : def;
          }
        }
        int64_t best = 0;
        double best_v = -1;
        for (int64_t j = 0; j < kept; ++j) {
          double score = prob[static_cast<size_t>(j)];
          if (qi >= 0) score /= static_cast<double>(a.in<float>(qi)[r * v + cand[static_cast<size_t>(j)]]) + eps;
          if (score > best_v) {
            best_v = score;
            best = j;
          }
        }
        a.out<int64_t>(si)[r] = cand[static_cast<size_t>(best)];
        if (need_logits) {
          float* g = a.out<float>(gi) + r * v;
          std::fill_n(g, v, def);
          for (int64_t j = 0; j < kept; ++j) g[cand[static_cast<size_t>(j)]] = x[cand[static_cast<size_t>(j)]];
        }
      }
    };
    if (rows > 1) parallel_for(rows, 1, run);
    else run(0, rows, 0);
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" {

aclnnStatus aclnnScatterListGetWorkspaceSize(aclTensorList* varRef, const aclTensor* indice, const aclTensor* updates,
                                             const aclTensor* maskOptional, char* reduceOptional, int64_t axis,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ScatterList, "aclnnScatterListGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_scatter_list(b, varRef, indice, updates, maskOptional, reduceOptional, axis);
                          });
}

aclnnStatus aclnnInplaceQuantScatterGetWorkspaceSize(aclTensor* selfRef, const aclTensor* indices,
                                                     const aclTensor* updates, const aclTensor* quantScales,
                                                     const aclTensor* quantZeroPoints, int64_t axis, int64_t quantAxis,
                                                     int64_t reduction, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceQuantScatter, "aclnnInplaceQuantScatterGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            pacl::plan_quant_scatter(b, selfRef, indices, updates, quantScales, quantZeroPoints, axis,
                                                     quantAxis, reduction);
                          });
}

aclnnStatus aclnnExpandIntoJaggedPermuteGetWorkspaceSize(const aclTensor* permute, const aclTensor* inputOffset,
                                                         const aclTensor* outputOffset, int64_t outputSize,
                                                         const aclTensor* outputPermuteOut, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ExpandIntoJaggedPermute, "aclnnExpandIntoJaggedPermuteGetWorkspaceSize",
                          workspaceSize, executor, [&](OpBuilder& b) {
                            pacl::plan_jagged_permute(b, permute, inputOffset, outputOffset, outputSize,
                                                      outputPermuteOut);
                          });
}

aclnnStatus aclnnApplyTopKTopPGetWorkspaceSize(const aclTensor* logits, const aclTensor* p, const aclTensor* k,
                                               aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ApplyTopKTopP, "aclnnApplyTopKTopPGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_apply_top_k_top_p(b, logits, p, k, out); });
}

aclnnStatus aclnnTopKTopPSampleGetWorkspaceSize(const aclTensor* logits, const aclTensor* topK, const aclTensor* topP,
                                                const aclTensor* q, double eps, bool isNeedLogits, int64_t topKGuess,
                                                const aclTensor* logitsSelectIdx, const aclTensor* logitsTopKPSelect,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_TopKTopPSample, "aclnnTopKTopPSampleGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::SampleArgs s;
                            s.logits = &b.input(logits, "logits");
                            s.top_k = &b.input(topK, "topK");
                            s.top_p = &b.input(topP, "topP");
                            s.q = q ? &b.input(q, "q") : nullptr;
                            s.eps = eps;
                            s.need_logits = isNeedLogits;
                            if (topKGuess <= 0) pacl::invalid("topKGuess is {}, expected a positive value", topKGuess);
                            s.select_idx = &b.output(logitsSelectIdx, "logitsSelectIdx");
                            s.select_logits = &b.output(logitsTopKPSelect, "logitsTopKPSelect");
                            pacl::plan_sample(b, s);
                          });
}

aclnnStatus aclnnTopKTopPSampleV2GetWorkspaceSize(const aclTensor* logits, const aclTensor* topK, const aclTensor* topP,
                                                  const aclTensor* q, const aclTensor* minPs, double eps,
                                                  bool isNeedLogits, int64_t topKGuess, int64_t ksMax,
                                                  bool inputIsLogits, bool isNeedSampleResult,
                                                  const aclTensor* logitsSelectIdx, const aclTensor* logitsTopKPSelect,
                                                  const aclTensor* logitsIdx, const aclTensor* logitsSortMasked,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_TopKTopPSampleV2, "aclnnTopKTopPSampleV2GetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::SampleArgs s;
                            s.logits = &b.input(logits, "logits");
                            s.top_k = &b.input(topK, "topK");
                            s.top_p = &b.input(topP, "topP");
                            s.q = q ? &b.input(q, "q") : nullptr;
                            s.min_p = minPs ? &b.input(minPs, "minPs") : nullptr;
                            s.eps = eps;
                            s.need_logits = isNeedLogits;
                            s.ks_max = ksMax;
                            s.input_is_logits = inputIsLogits;
                            s.need_sample_result = isNeedSampleResult;
                            if (topKGuess <= 0) pacl::invalid("topKGuess is {}, expected a positive value", topKGuess);
                            s.select_idx = &b.output(logitsSelectIdx, "logitsSelectIdx");
                            s.select_logits = &b.output(logitsTopKPSelect, "logitsTopKPSelect");
                            if (isNeedSampleResult) {
                              s.logits_idx = &b.output(logitsIdx, "logitsIdx");
                              s.sort_masked = &b.output(logitsSortMasked, "logitsSortMasked");
                            }
                            pacl::plan_sample(b, s);
                          });
}

}  // extern "C"
