#include "ops/gemm.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <dnnl.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>

#include "core/convert.h"
#include "core/parallel.h"
#include "runtime/status.h"

namespace pacl {

namespace {

// ---- layouts --------------------------------------------------------------------------------------

// Strides of an operand over its logical dims: batch dims, then rows, then cols.
struct Layout {
  Dims batch;
  int64_t rs = 0, cs = 0;
};

Dims logical_strides(const aclTensor& t, const Dims& strides, const MatMap& map) {
  Dims r(map.dims.size(), 0);
  for (size_t i = 0; i < map.dims.size(); ++i) {
    const int d = map.dims[i];
    if (d >= 0 && t.view[static_cast<size_t>(d)] != 1)
      r[i] = strides[static_cast<size_t>(d)] * (map.scale.empty() ? 1 : map.scale[i]);
  }
  return r;
}

Layout to_layout(const Dims& logical) {
  Layout l;
  const size_t nb = logical.size() - 2;
  l.batch.assign(logical.begin(), logical.begin() + static_cast<std::ptrdiff_t>(nb));
  l.rs = logical[nb];
  l.cs = logical[nb + 1];
  return l;
}

// Gives the stride of a size-1 matrix dim the value a BLAS layout expects, so that a row or column
// vector counts as row-major or column-major whichever its other stride allows.
void normalize(int64_t rows, int64_t cols, Layout& l) {
  if (rows <= 1 && cols <= 1) {
    l.rs = 1;
    l.cs = 1;
  } else if (rows <= 1) {
    l.rs = l.cs == 1 ? cols : 1;
  } else if (cols <= 1) {
    l.cs = l.rs == 1 ? rows : 1;
  }
}

// Row-major with leading dimension rs, or column-major (transposed) with leading dimension cs.
bool blas_ok(int64_t rows, int64_t cols, const Layout& l) {
  return (l.cs == 1 && l.rs >= std::max<int64_t>(cols, 1)) || (l.rs == 1 && l.cs >= std::max<int64_t>(rows, 1));
}

// Whether the view covers a dense block exactly once, in some order of its dims.
bool dense_permutation(const aclTensor& t) {
  std::vector<std::pair<int64_t, int64_t>> d;  // (stride, size) of the dims of size > 1
  for (size_t i = 0; i < t.view.size(); ++i)
    if (t.view[i] != 1) d.emplace_back(t.strides[i], t.view[i]);
  std::sort(d.begin(), d.end());
  int64_t expected = 1;
  for (const auto& [stride, size] : d) {
    if (stride != expected) return false;
    expected *= size;
  }
  return true;
}

bool overlaps(const aclTensor& a, const aclTensor& b) {
  if (!a.data || !b.data || a.numel() == 0 || b.numel() == 0) return false;
  int64_t alo, ahi, blo, bhi;
  a.byte_extent(&alo, &ahi);
  b.byte_extent(&blo, &bhi);
  const auto pa = reinterpret_cast<intptr_t>(a.data), pb = reinterpret_cast<intptr_t>(b.data);
  return pa + alo < pb + bhi && pb + blo < pa + ahi;
}

// ---- the batch walk ------------------------------------------------------------------------------

struct Walk {
  Dims batch;            // merged batch shape
  Layout a, b, c;        // final strides
  int64_t m = 0, n = 0, k = 0;
  int64_t batches() const { return std::accumulate(batch.begin(), batch.end(), int64_t{1}, std::multiplies<>()); }
  // Element offsets of batch index `i` (row-major over `batch`).
  void offsets(int64_t i, int64_t* oa, int64_t* ob, int64_t* oc) const {
    int64_t x = 0, y = 0, z = 0;
    for (size_t d = batch.size(); d-- > 0;) {
      const int64_t j = i % batch[d];
      i /= batch[d];
      x += j * a.batch[d];
      y += j * b.batch[d];
      z += j * c.batch[d];
    }
    *oa = x;
    *ob = y;
    *oc = z;
  }
};

// Drops unit batch dims and merges adjacent batch dims that every operand walks as one.
void merge_batch(Walk& w) {
  Walk r = w;
  r.batch.clear();
  r.a.batch.clear();
  r.b.batch.clear();
  r.c.batch.clear();
  for (size_t d = 0; d < w.batch.size(); ++d) {
    if (w.batch[d] == 1) continue;
    if (!r.batch.empty()) {
      const int64_t s = w.batch[d];
      if (r.a.batch.back() == s * w.a.batch[d] && r.b.batch.back() == s * w.b.batch[d] &&
          r.c.batch.back() == s * w.c.batch[d]) {
        r.batch.back() *= s;
        r.a.batch.back() = w.a.batch[d];
        r.b.batch.back() = w.b.batch[d];
        r.c.batch.back() = w.c.batch[d];
        continue;
      }
    }
    r.batch.push_back(w.batch[d]);
    r.a.batch.push_back(w.a.batch[d]);
    r.b.batch.push_back(w.b.batch[d]);
    r.c.batch.push_back(w.c.batch[d]);
  }
  w = r;
}

// With B shared by the whole innermost batch dim, A's and C's rows of consecutive batches may form one
// taller matrix: one GEMM of (batch*m) rows instead of `batch` GEMMs.
void fold_batch_into_m(Walk& w) {
  while (!w.batch.empty()) {
    const int64_t s = w.batch.back();
    if (w.b.batch.back() != 0 || w.a.batch.back() != w.m * w.a.rs || w.c.batch.back() != w.m * w.c.rs) return;
    if (!blas_ok(w.m * s, w.k, w.a) || !blas_ok(w.m * s, w.n, w.c)) return;
    w.m *= s;
    w.batch.pop_back();
    w.a.batch.pop_back();
    w.b.batch.pop_back();
    w.c.batch.pop_back();
  }
}

// ---- oneDNN -----------------------------------------------------------------------------------------

dnnl::engine& cpu_engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

// A memory desc of [batch..., rows, cols] with the given strides; a broadcast batch dim (stride 0 over
// a batch dim > 1) becomes a dim of 1, as oneDNN's matmul broadcasting expects.
dnnl::memory::desc matrix_desc(const Dims& batch, int64_t rows, int64_t cols, const Layout& l, bool broadcastable) {
  dnnl::memory::dims dims, strides;
  int64_t extent = 1;  // one past the furthest element, for the strides of unit dims
  extent = std::max(extent, (rows - 1) * l.rs + (cols - 1) * l.cs + 1);
  for (size_t d = 0; d < batch.size(); ++d) {
    const bool bcast = broadcastable && l.batch[d] == 0;
    dims.push_back(bcast ? 1 : batch[d]);
    if (!bcast) extent = std::max(extent, (batch[d] - 1) * l.batch[d] + 1);
  }
  for (size_t d = 0; d < batch.size(); ++d) strides.push_back(dims[d] == 1 ? extent : l.batch[d]);
  dims.push_back(rows);
  dims.push_back(cols);
  strides.push_back(l.rs);
  strides.push_back(l.cs);
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
}

struct DnnlGemm {
  dnnl::matmul first, rest;  // rest: the batches after the first (reduce_batch only)
  dnnl::memory::desc a_md, b_md, c_md, scratch_md;
  size_t scratch_bytes = 0;
  std::string impl;
};

// Creates the primitive(s) for w; throws dnnl::error when oneDNN has none.
DnnlGemm build_dnnl(const Walk& w, bool reduce, float alpha, float beta, bool use_c0) {
  DnnlGemm g;
  const Dims none;
  const Dims& batch = reduce ? none : w.batch;
  g.a_md = matrix_desc(batch, w.m, w.k, w.a, true);
  g.b_md = matrix_desc(batch, w.k, w.n, w.b, true);
  g.c_md = matrix_desc(batch, w.m, w.n, w.c, false);
  auto make = [&](bool sum, float sum_scale, dnnl::matmul::primitive_desc* pd_out) {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
    if (sum) {
      dnnl::post_ops po;
      po.append_sum(sum_scale);
      attr.set_post_ops(po);
    }
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(g.a_md, g.b_md, g.c_md), attr, cpu_engine());
    *pd_out = pd;
    return dnnl::matmul(pd);
  };
  dnnl::matmul::primitive_desc pd;
  g.first = make(use_c0, beta, &pd);
  g.scratch_md = pd.scratchpad_desc();
  g.scratch_bytes = g.scratch_md.get_size();
  g.impl = pd.impl_info_str();
  if (reduce && w.batches() > 1) {
    dnnl::matmul::primitive_desc pd2;
    g.rest = make(true, 1.0f, &pd2);
    g.scratch_bytes = std::max(g.scratch_bytes, pd2.scratchpad_desc().get_size());
    g.scratch_md = g.scratch_bytes == g.scratch_md.get_size() ? g.scratch_md : pd2.scratchpad_desc();
  }
  return g;
}

// build_dnnl, memoized by everything it reads. Creating a oneDNN primitive descriptor (the
// implementation dispatch) takes tens of microseconds, as long as a 256^3 GEMM itself, and phase 1
// of the same GEMM repeats it on every call. Primitives are stateless with a user scratchpad, so one
// plan serves any number of kernels and threads. A failure is not memoized (the caller falls back).
// Bounded: the memo is emptied when it reaches kMaxPlans entries.
DnnlGemm make_dnnl(const Walk& w, bool reduce, float alpha, float beta, bool use_c0) {
  constexpr size_t kMaxPlans = 512;
  std::vector<int64_t> key{w.m, w.n, w.k, reduce, use_c0};
  uint32_t bits[2];
  std::memcpy(&bits[0], &alpha, 4);
  std::memcpy(&bits[1], &beta, 4);
  key.push_back(bits[0]);
  key.push_back(bits[1]);
  auto put = [&key](const Dims& d) {
    key.push_back(static_cast<int64_t>(d.size()));
    key.insert(key.end(), d.begin(), d.end());
  };
  put(w.batch);
  for (const Layout* l : {&w.a, &w.b, &w.c}) {
    key.push_back(l->rs);
    key.push_back(l->cs);
    put(l->batch);
  }
  struct Memo {
    std::mutex mu;
    std::map<std::vector<int64_t>, DnnlGemm> plans;
  };
  static Memo* memo = new Memo;  // never destroyed: primitives must not outlive oneDNN at exit
  {
    std::lock_guard<std::mutex> lock(memo->mu);
    const auto it = memo->plans.find(key);
    if (it != memo->plans.end()) return it->second;
  }
  DnnlGemm g = build_dnnl(w, reduce, alpha, beta, use_c0);
  std::lock_guard<std::mutex> lock(memo->mu);
  if (memo->plans.size() >= kMaxPlans) memo->plans.clear();
  memo->plans.emplace(std::move(key), g);
  return g;
}

void run_dnnl(const DnnlGemm& g, const Walk& w, bool reduce, const float* a, const float* b, float* c,
              void* scratch) {
  set_gemm_threads();
  dnnl::engine& eng = cpu_engine();
  thread_local dnnl::stream s(eng);
  dnnl::memory sm(g.scratch_md, eng, scratch);
  auto exec = [&](const dnnl::matmul& prim, const float* pa, const float* pb) {
    dnnl::memory am(g.a_md, eng, const_cast<float*>(pa)), bm(g.b_md, eng, const_cast<float*>(pb)),
        cm(g.c_md, eng, c);
    prim.execute(s, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}, {DNNL_ARG_SCRATCHPAD, sm}});
  };
  if (!reduce) {
    exec(g.first, a, b);
  } else {
    for (int64_t i = 0; i < w.batches(); ++i) {
      int64_t oa, ob, oc;
      w.offsets(i, &oa, &ob, &oc);
      exec(i == 0 ? g.first : g.rest, a + oa, b + ob);
    }
  }
  s.wait();
}

// ---- loops (float64, integers, bool; k == 0; oneDNN fallback) ----------------------------------------

struct LoopGemm {
  Walk w;
  bool reduce = false, product = true, use_c0 = false;
  double alpha = 1, beta = 0;
  uint64_t alpha_i = 1, beta_i = 0;
};

template <typename T>
void run_loops(const LoopGemm& g, const T* A, const T* B, T* C) {
  constexpr bool kFloat = std::is_floating_point_v<T>;
  using Acc = std::conditional_t<kFloat, double, uint64_t>;
  const Walk& w = g.w;
  const int64_t batches = w.batches();
  const int64_t rows = (g.reduce ? 1 : batches) * w.m;
  const int64_t inner = g.product ? w.k * (g.reduce ? batches : 1) : 1;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, w.n * inner));
  parallel_for(rows, grain, [&](int64_t lo, int64_t hi, int) {
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t bi = r / w.m, i = r % w.m;
      int64_t oa = 0, ob = 0, oc = 0;
      if (!g.reduce) w.offsets(bi, &oa, &ob, &oc);
      T* crow = C + oc + i * w.c.rs;
      for (int64_t j = 0; j < w.n; ++j) {
        Acc acc = 0;
        if (g.product) {
          for (int64_t q = 0; q < (g.reduce ? batches : 1); ++q) {
            int64_t xa = oa, xb = ob, xc;
            if (g.reduce) w.offsets(q, &xa, &xb, &xc);
            const T* pa = A + xa + i * w.a.rs;
            const T* pb = B + xb + j * w.b.cs;
            for (int64_t p = 0; p < w.k; ++p)
              acc += static_cast<Acc>(pa[p * w.a.cs]) * static_cast<Acc>(pb[p * w.b.rs]);
          }
        }
        T& out = crow[j * w.c.cs];
        if constexpr (kFloat) {
          double v = g.product ? g.alpha * acc : 0.0;
          if (g.use_c0) v = g.product ? v + g.beta * static_cast<double>(out) : g.beta * static_cast<double>(out);
          out = static_cast<T>(v);
        } else {
          uint64_t v = g.product ? g.alpha_i * acc : 0;
          if (g.use_c0) v += g.beta_i * static_cast<uint64_t>(out);
          if constexpr (std::is_same_v<T, bool>) out = v != 0;
          else out = static_cast<T>(static_cast<int64_t>(v));
        }
      }
    }
  });
}

void run_loops(DType t, const LoopGemm& g, const void* a, const void* b, void* c) {
  visit_dtype(t, [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (is_16bit_float_v<S>) {
      throw std::logic_error("matmul loops: 16-bit floats compute in float32");
    } else {
      run_loops<S>(g, static_cast<const S*>(a), static_cast<const S*>(b), static_cast<S*>(c));
    }
  });
}

}  // namespace

void set_gemm_threads() {
  if (omp_get_max_threads() != max_threads()) omp_set_num_threads(max_threads());
}

void check_cube_math_type(int8_t cube_math_type) {
  if (cube_math_type < 0 || cube_math_type > 4)
    invalid("cubeMathType is {}, expected one of 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16), "
            "3 (USE_HF32), 4 (USE_FP32_ADD)",
            static_cast<int>(cube_math_type));
}

MatMap trailing_matrix_map(int64_t rank, size_t batch_rank, bool transpose) {
  MatMap m;
  const int64_t tb = rank - 2;  // the tensor's batch dims
  for (size_t i = 0; i < batch_rank; ++i) {
    const int64_t d = static_cast<int64_t>(i) - static_cast<int64_t>(batch_rank) + tb;
    m.dims.push_back(d >= 0 ? static_cast<int>(d) : -1);
  }
  m.dims.push_back(static_cast<int>(transpose ? rank - 1 : rank - 2));
  m.dims.push_back(static_cast<int>(transpose ? rank - 2 : rank - 1));
  return m;
}

Dims broadcast_batch(const Dims& a, const char* a_name, const Dims& b, const char* b_name) {
  const size_t n = std::max(a.size(), b.size());
  Dims r(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1)
      invalid("the batch dims of {} {} and {} {} do not broadcast", a_name, dims_str(a), b_name, dims_str(b));
    r[i] = x == 1 ? y : x;
  }
  return r;
}

void plan_matmul(DensePlan& p, const MatmulProblem& prob, const std::string& name) {
  const aclTensor& A = *prob.a;
  const aclTensor& B = *prob.b;
  const aclTensor& C = *prob.c;
  const bool reduce = prob.reduce_batch;
  const bool is_float = is_floating(prob.compute);
  const bool use_c0 = (is_float ? prob.beta != 0 : prob.beta_i != 0) && (prob.bias || prob.read_c);
  const bool prefill = prob.bias && use_c0;
  int64_t batches = 1;
  for (int64_t d : prob.batch) batches *= d;
  const bool nonzero_alpha = is_float ? prob.alpha != 0 : prob.alpha_i != 0;
  const bool product = prob.k > 0 && batches > 0 && nonzero_alpha;
  bool onednn = prob.compute == DType::kFloat && product;

  // C's logical dims (for the bias prefill).
  Dims c_shape = reduce ? Dims{} : prob.batch;
  c_shape.push_back(prob.m);
  c_shape.push_back(prob.n);

  auto layout_of = [&](const aclTensor& t, const MatMap& map, bool direct, int64_t rows, int64_t cols) {
    Layout l = to_layout(logical_strides(t, direct ? t.strides : contiguous_strides(t.view), map));
    normalize(rows, cols, l);
    return l;
  };
  // Direct: the operand is read (written) where it is; otherwise DensePlan makes a dense copy.
  auto direct_input = [&](const aclTensor& t, const MatMap& map, int64_t rows, int64_t cols) {
    if (t.dtype != prob.compute) return false;
    return !onednn || blas_ok(rows, cols, layout_of(t, map, true, rows, cols));
  };
  bool a_direct = direct_input(A, prob.a_map, prob.m, prob.k);
  bool b_direct = direct_input(B, prob.b_map, prob.k, prob.n);
  bool c_direct = C.dtype == prob.compute && dense_permutation(C) && !overlaps(C, A) && !overlaps(C, B) &&
                  !(prob.bias && overlaps(C, *prob.bias)) &&
                  (!onednn || blas_ok(prob.m, prob.n, layout_of(C, prob.c_map, true, prob.m, prob.n)));

  auto make_walk = [&] {
    Walk w;
    w.m = prob.m;
    w.n = prob.n;
    w.k = prob.k;
    w.batch = prob.batch;
    w.a = layout_of(A, prob.a_map, a_direct, prob.m, prob.k);
    w.b = layout_of(B, prob.b_map, b_direct, prob.k, prob.n);
    w.c = layout_of(C, prob.c_map, c_direct, prob.m, prob.n);
    if (reduce) w.c.batch.assign(w.batch.size(), 0);
    merge_batch(w);
    if (!reduce) fold_batch_into_m(w);
    return w;
  };
  Walk w = make_walk();

  auto dnnl_gemm = std::make_shared<DnnlGemm>();
  if (onednn) {
    // true: a primitive exists (*dnnl_gemm); *fast: it is not oneDNN's reference kernel.
    auto attempt = [&](bool* fast) {
      try {
        *dnnl_gemm = make_dnnl(w, reduce, static_cast<float>(prob.alpha), static_cast<float>(prob.beta), use_c0);
        *fast = dnnl_gemm->impl.rfind("ref", 0) != 0;
        return true;
      } catch (const dnnl::error&) {
        *fast = false;
        return false;
      }
    };
    bool fast = false;
    bool made = attempt(&fast);
    const bool strided = (a_direct && !A.is_contiguous()) || (b_direct && !B.is_contiguous()) ||
                         (c_direct && !C.is_contiguous());
    if (!fast && strided) {  // no fast kernel for these strides: dense copies instead
      a_direct = a_direct && A.is_contiguous();
      b_direct = b_direct && B.is_contiguous();
      c_direct = c_direct && C.is_contiguous();
      w = make_walk();
      made = attempt(&fast);
    }
    onednn = made;
  }

  // Operands that are first rounded to a 16-bit result dtype: a dense copy in that dtype, widened to
  // float32 into scratch by the body.
  const DType round_to =
      (prob.result == DType::kFloat16 || prob.result == DType::kBFloat16) ? prob.result : DType::kUndefined;
  auto rounds = [&](const aclTensor& t) {
    return round_to != DType::kUndefined && t.dtype != round_to && t.dtype != prob.compute;
  };
  const bool a_round = rounds(A), b_round = rounds(B), bias_round = prefill && rounds(*prob.bias);
  if (a_round || b_round) {
    a_direct = a_direct && !a_round;
    b_direct = b_direct && !b_round;
    w = make_walk();
    if (onednn) {
      try {
        *dnnl_gemm = make_dnnl(w, reduce, static_cast<float>(prob.alpha), static_cast<float>(prob.beta), use_c0);
      } catch (const dnnl::error&) {
        onednn = false;
      }
    }
  }
  const int ka = a_direct ? p.strided(A) : p.input(A, a_round ? round_to : prob.compute);
  const int kb = b_direct ? p.strided(B) : p.input(B, b_round ? round_to : prob.compute);
  const int kbias = !prefill ? -1 : bias_round ? p.input(*prob.bias, round_to) : p.strided(*prob.bias);
  const int kc = c_direct ? p.strided(C)
                          : p.output(C, prob.compute, prob.read_c ? Access::kReadWrite : Access::kWrite);
  const size_t scratch = onednn && dnnl_gemm->scratch_bytes ? p.scratch(dnnl_gemm->scratch_bytes) : 0;
  const size_t a_wide = a_round ? p.scratch(static_cast<size_t>(A.numel()) * sizeof(float)) : 0;
  const size_t b_wide = b_round ? p.scratch(static_cast<size_t>(B.numel()) * sizeof(float)) : 0;

  // The bias prefill writes C's logical view with C's own strides (or its dense buffer's).
  Dims c_strides, bias_strides;
  DType bias_t = DType::kFloat;
  if (prefill) {
    c_strides = logical_strides(C, c_direct ? C.strides : contiguous_strides(C.view), prob.c_map);
    bias_strides = logical_strides(*prob.bias, bias_round ? contiguous_strides(prob.bias->view) : prob.bias->strides,
                                   prob.bias_map);
    bias_t = bias_round ? round_to : prob.bias->dtype;
  }
  const Dims a_shape = A.view, b_shape = B.view;
  const DType t = prob.compute;
  LoopGemm loops;
  loops.w = w;
  loops.reduce = reduce;
  loops.product = product;
  loops.use_c0 = use_c0;
  loops.alpha = prob.alpha;
  loops.beta = prob.beta;
  loops.alpha_i = static_cast<uint64_t>(prob.alpha_i);
  loops.beta_i = static_cast<uint64_t>(prob.beta_i);

  std::string kernel = name + (onednn ? ".onednn." + dnnl_gemm->impl : std::string(".loops.") + dtype_name(t));
  p.finish(kernel, [=](const DenseArgs& args) {
    void* c = args.ptr(kc);
    const void* a = args.ptr(ka);
    const void* b = args.ptr(kb);
    if (a_round) {
      copy_strided(a_shape, DType::kFloat, args.scratch(a_wide), contiguous_strides(a_shape), round_to, a,
                   contiguous_strides(a_shape));
      a = args.scratch(a_wide);
    }
    if (b_round) {
      copy_strided(b_shape, DType::kFloat, args.scratch(b_wide), contiguous_strides(b_shape), round_to, b,
                   contiguous_strides(b_shape));
      b = args.scratch(b_wide);
    }
    if (prefill) copy_strided(c_shape, t, c, c_strides, bias_t, args.ptr(kbias), bias_strides);
    if (onednn) {
      run_dnnl(*dnnl_gemm, w, reduce, static_cast<const float*>(a), static_cast<const float*>(b), static_cast<float*>(c),
               args.scratch(scratch));
    } else {
      run_loops(t, loops, a, b, c);
    }
  });
}

}  // namespace pacl
