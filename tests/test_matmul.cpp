// The matmul family (Mm, Matmul, BatchMatMul, Addmm, Baddbmm, Addbmm (+ in-place forms), Gemm, Mv, Addmv,
// Dot, Ger, Addr (+ in-place)) against one reference written here from the contracts:
//   C[b] = alpha * sum_p A[b][i, p] * B[b][p, j] + beta * C0[b][i, j]
// evaluated in double (floating results) or wrapping 64-bit integers (integral results) straight from
// the host copies, each operand reached through a map from logical dims (batch..., rows, cols) to its
// tensor dims. beta == 0 ignores C0 (NaN included), alpha == 0 or k == 0 ignores the product.
// Float32/16 and bfloat16 compute in float32: a result may differ from the double reference by the
// float32 rounding of a k-term sum (bounded by (k + 4) * 2^-24 * sum |terms|) plus the final rounding
// to out's dtype. Integer results are exact.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_addmv.h"
#include "aclnnop/aclnn_addr.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_gemm.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_transpose_batch_mat_mul.h"
#include "op_test_util.h"

namespace {

using namespace optest;
using Map = std::vector<int>;  // logical dim -> tensor dim, -1: absent

const std::vector<aclDataType> kCube = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// Values that keep float32 sums meaningful (no Inf/NaN/denormals: those have their own tests).
const FillOptions kPlain{0.0, 0.5};

// ---- views ----------------------------------------------------------------------------------------

enum class View { kContiguous, kTransposed, kStrided, kExpanded, kCount };

// A view of `shape`: contiguous; its last two dims transposed in storage; every other element of a
// larger storage at an offset; or dim 0 broadcast with stride 0 (inputs only).
TensorDesc view_desc(aclDataType t, const Shape& shape, View v) {
  const size_t r = shape.size();
  if (v == View::kTransposed && r >= 2) {
    Shape sw = shape;
    std::swap(sw[r - 1], sw[r - 2]);
    Shape st = contiguous_strides(sw);
    std::swap(st[r - 1], st[r - 2]);
    return TensorDesc(t, shape, st);
  }
  if (v == View::kStrided && r >= 1) {
    Shape big = shape;
    big[r - 1] *= 2;
    Shape st = contiguous_strides(big);
    st[r - 1] = 2;
    return TensorDesc(t, shape, st, 1);
  }
  if (v == View::kExpanded && r >= 1 && shape[0] > 1) {
    Shape rest(shape.begin() + 1, shape.end());
    Shape st = contiguous_strides(rest);
    st.insert(st.begin(), 0);
    return TensorDesc(t, shape, st);
  }
  return TensorDesc(t, shape);
}

View random_view(Rng& rng, bool input) {
  return static_cast<View>(rng() % (input ? static_cast<int>(View::kCount) : static_cast<int>(View::kExpanded)));
}

// ---- the reference -----------------------------------------------------------------------------------

struct Problem {
  std::string repro;
  Shape batch;
  int64_t m = 0, n = 0, k = 0;
  bool reduce = false;  // Addbmm: C has no batch dims and sums over the batch
  const Tensor* a = nullptr;
  Map am;
  const Tensor* b = nullptr;
  Map bm;
  const Tensor* out = nullptr;  // downloaded
  Map cm;
  std::function<Num(const Shape&)> c0;  // C0 at a logical C index; null: none
  double alpha = 1, beta = 0;
  int64_t alpha_i = 1, beta_i = 0;
  aclDataType result = ACL_FLOAT;  // the dtype the op computes its result in (before out's dtype)
};

Shape tensor_index(const TensorDesc& d, const Map& map, const Shape& logical) {
  Shape idx(d.shape.size(), 0);
  for (size_t i = 0; i < map.size(); ++i)
    if (map[i] >= 0 && d.shape[static_cast<size_t>(map[i])] != 1) idx[static_cast<size_t>(map[i])] = logical[i];
  return idx;
}

Num at(const Tensor& t, const Map& map, const Shape& logical) {
  return t.at(tensor_index(t.desc(), map, logical));
}

double spacing(aclDataType t, double v) {
  const double a = std::fabs(v);
  int e = 0;
  std::frexp(std::max(a, 1e-300), &e);
  switch (t) {
    case ACL_FLOAT16: return std::ldexp(1.0, std::max(e - 11, -24));
    case ACL_BF16: return std::ldexp(1.0, std::max(e - 8, -133));
    case ACL_FLOAT: return std::ldexp(1.0, std::max(e - 24, -149));
    default: return std::ldexp(1.0, std::max(e - 53, -1074));
  }
}

// Checks every element of p.out; returns false after the first mismatch (reported with the repro).
bool check(const Problem& p) {
  const aclDataType od = p.out->desc().dtype;
  const bool floating = is_floating(p.result);
  const bool product = p.k > 0 && (floating ? p.alpha != 0 : p.alpha_i != 0);
  const bool use_c0 = p.c0 && (floating ? p.beta != 0 : p.beta_i != 0);
  const double eps = p.result == ACL_DOUBLE ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
  Shape cshape = p.reduce ? Shape{} : p.batch;
  cshape.push_back(p.m);
  cshape.push_back(p.n);
  const int64_t nb = static_cast<int64_t>(p.batch.size());
  bool ok = true;
  for_each_index(cshape, [&](const Shape& ci) {
    if (!ok) return;
    const int64_t i = ci[ci.size() - 2], j = ci[ci.size() - 1];
    double sum = 0, abs_sum = 0;
    uint64_t isum = 0;
    int64_t terms = 0;
    auto accumulate = [&](const Shape& bidx) {
      Shape la = bidx, lb = bidx;
      la.push_back(i);
      la.push_back(0);
      lb.push_back(0);
      lb.push_back(j);
      for (int64_t q = 0; q < p.k; ++q) {
        la.back() = q;
        lb[lb.size() - 2] = q;
        const Num x = at(*p.a, p.am, la), y = at(*p.b, p.bm, lb);
        if (floating) {
          sum += x.as_double() * y.as_double();
          abs_sum += std::fabs(x.as_double() * y.as_double());
        } else {
          isum += static_cast<uint64_t>(x.i) * static_cast<uint64_t>(y.i);
        }
        ++terms;
      }
    };
    if (product) {
      if (p.reduce) for_each_index(p.batch, accumulate);
      else accumulate(Shape(ci.begin(), ci.begin() + nb));
    }
    Num c0v = Num::integer(0);
    if (use_c0) c0v = p.c0(ci);
    Num expected;
    double tol = 0;
    if (floating) {
      double v = product ? p.alpha * sum : 0.0;
      if (use_c0) v = product ? v + p.beta * c0v.as_double() : p.beta * c0v.as_double();
      expected = cast(Num::real(v), od);
      const double mag = std::fabs(p.alpha) * abs_sum + (use_c0 ? std::fabs(p.beta * c0v.as_double()) : 0.0);
      tol = 2.0 * static_cast<double>(terms + 4) * eps * mag + spacing(od, v);
      if (!is_floating(od)) tol = 1;  // float result cast to an integer out: truncation may go either way
    } else {
      uint64_t v = product ? static_cast<uint64_t>(p.alpha_i) * isum : 0;
      if (use_c0) v += static_cast<uint64_t>(p.beta_i) * static_cast<uint64_t>(c0v.i);
      expected = cast(cast(Num::integer(static_cast<int64_t>(v)), p.result), od);
    }
    const Num got = p.out->at(tensor_index(p.out->desc(), p.cm, ci));
    bool good;
    if (!floating || !is_floating(od)) {
      good = is_floating(od) ? same_value(od, expected, got) : std::llabs(expected.i - got.i) <= (floating ? 1 : 0);
    } else if (std::isnan(expected.f) || std::isinf(expected.f)) {
      good = same_value(od, expected, got);
    } else {
      good = std::fabs(got.f - expected.f) <= tol;
    }
    if (!good) {
      ADD_FAILURE() << p.repro << ": element " << shape_str(ci) << " is " << num_str(got) << ", expected "
                    << num_str(expected) << " (tolerance " << tol << ")";
      ok = false;
    }
  });
  return ok;
}

// Runs an op and checks it; also that nothing outside out's view was written.
using P1 = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;
void run_and_check(Problem& p, Tensor& out, const P1& p1, Phase2Fn p2, const std::vector<uint8_t>* before = nullptr) {
  const std::vector<uint8_t> saved = before ? *before : out.host();
  ASSERT_EQ(run_two_phase(p1, p2), ACL_SUCCESS) << p.repro << ": " << aclGetRecentErrMsg();
  out.download();
  p.out = &out;
  check(p);
  const std::string outside = writes_outside_view(out, saved);
  EXPECT_TRUE(outside.empty()) << p.repro << ": wrote outside the out view:" << outside;
}

Map identity(int r) {
  Map m;
  for (int i = 0; i < r; ++i) m.push_back(i);
  return m;
}

// Map of a tensor of rank `rank` whose last two dims are the matrix and whose other dims align right
// to a batch of nb dims.
Map trailing(int rank, int nb, bool transpose = false) {
  Map m;
  for (int i = 0; i < nb; ++i) {
    const int d = i - nb + (rank - 2);
    m.push_back(d >= 0 ? d : -1);
  }
  m.push_back(transpose ? rank - 1 : rank - 2);
  m.push_back(transpose ? rank - 2 : rank - 1);
  return m;
}

// Map of `self` broadcast to a C of rank r (self's dims aligned right).
Map bias_map(int self_rank, int r) {
  Map m;
  for (int i = 0; i < r; ++i) m.push_back(i - (r - self_rank) >= 0 ? i - (r - self_rank) : -1);
  return m;
}

int64_t pick_dim(Rng& rng) {
  static const int64_t dims[] = {1, 2, 3, 4, 5, 7, 8, 13, 17, 1, 2, 3, 33};
  const int64_t d = dims[rng() % (sizeof dims / sizeof dims[0])];
  return rng() % 23 == 0 ? 0 : d;
}

std::string views_str(const std::vector<const Tensor*>& ts, const std::vector<const char*>& names) {
  std::string r;
  for (size_t i = 0; i < ts.size(); ++i) r += std::string(" ") + names[i] + "=" + ts[i]->desc().str();
  return r;
}

// ---- Mm / Matmul / BatchMatMul --------------------------------------------------------------------------

TEST(Mm, RandomShapesViewsAndDtypes) {
  Rng rng(11);
  for (int iter = 0; iter < 120; ++iter) {
    const int64_t m = pick_dim(rng), k = pick_dim(rng), n = pick_dim(rng);
    const aclDataType ta = kCube[rng() % 3], tb = kCube[rng() % 3], to = kCube[rng() % 3];
    Tensor a(view_desc(ta, {m, k}, random_view(rng, true)));
    Tensor b(view_desc(tb, {k, n}, random_view(rng, true)));
    Tensor out(view_desc(to, {m, n}, random_view(rng, false)));
    a.fill_random(rng, kPlain);
    b.fill_random(rng, kPlain);
    out.fill(Num::real(NAN));
    const int8_t cube = static_cast<int8_t>(rng() % 5);
    Problem p;
    p.repro = "Mm" + views_str({&a, &b, &out}, {"self", "mat2", "out"}) + " cubeMathType=" + std::to_string(cube);
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = &a;
    p.am = identity(2);
    p.b = &b;
    p.bm = identity(2);
    p.cm = identity(2);
    run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnMmGetWorkspaceSize(a.get(), b.get(), out.get(), cube, w, e);
    }, aclnnMm);
    if (HasFailure()) return;
  }
}

TEST(Mm, LargeTransposedOperands) {
  // Transposed float32 views go to oneDNN as they are (it packs them itself, in its booked scratchpad).
  Rng rng(12);
  const int64_t n = 160;
  Tensor a(view_desc(ACL_FLOAT, {n, n}, View::kTransposed)), b(view_desc(ACL_FLOAT, {n, n}, View::kTransposed));
  Tensor out(TensorDesc(ACL_FLOAT, {n, n}));
  a.fill_random(rng, kPlain);
  b.fill_random(rng, kPlain);
  uint64_t ws = 0;
  const std::string repro = "Mm" + views_str({&a, &b, &out}, {"self", "mat2", "out"});
  auto p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnMmGetWorkspaceSize(a.get(), b.get(), out.get(), 0, w, e); };
  ASSERT_EQ(run_two_phase(p1, aclnnMm, &ws), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  // Storage element (i, j) of a transposed view is at j * n + i.
  std::vector<float> x(static_cast<size_t>(n * n)), y(x.size()), z(x.size());
  std::memcpy(x.data(), a.host().data(), x.size() * 4);
  std::memcpy(y.data(), b.host().data(), y.size() * 4);
  std::memcpy(z.data(), out.host().data(), z.size() * 4);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0, mag = 0;
      for (int64_t q = 0; q < n; ++q) {
        const double t = static_cast<double>(x[static_cast<size_t>(q * n + i)]) * y[static_cast<size_t>(j * n + q)];
        s += t;
        mag += std::fabs(t);
      }
      const double got = z[static_cast<size_t>(i * n + j)];
      ASSERT_LE(std::fabs(got - s), 2.0 * (n + 4) * std::ldexp(1.0, -24) * mag + 1e-30) << repro << " at " << i << "," << j;
    }
}

TEST(Matmul, RandomRanksBroadcastingAndViews) {
  Rng rng(13);
  for (int iter = 0; iter < 150; ++iter) {
    const int ra = 1 + static_cast<int>(rng() % 4), rb = 1 + static_cast<int>(rng() % 4);
    const int64_t m = pick_dim(rng) % 9, k = pick_dim(rng) % 9, n = pick_dim(rng) % 9;
    const int nba = std::max(ra - 2, 0), nbb = std::max(rb - 2, 0), nb = std::max(nba, nbb);
    Shape batch(static_cast<size_t>(nb));
    for (auto& d : batch) d = 1 + static_cast<int64_t>(rng() % 3);
    auto batch_of = [&](int count) {  // the trailing `count` batch dims, some of them 1
      Shape s(batch.end() - count, batch.end());
      for (auto& d : s)
        if (rng() % 3 == 0) d = 1;
      return s;
    };
    Shape sa = batch_of(nba), sb = batch_of(nbb);
    if (ra > 1) sa.push_back(m);
    sa.push_back(k);
    sb.push_back(k);
    if (rb > 1) sb.push_back(n);
    Shape bc(static_cast<size_t>(nb), 1);  // the broadcast batch
    for (int i = 0; i < nb; ++i) {
      const int ia = i - (nb - nba), ib = i - (nb - nbb);
      if (ia >= 0) bc[static_cast<size_t>(i)] = std::max(bc[static_cast<size_t>(i)], sa[static_cast<size_t>(ia)]);
      if (ib >= 0) bc[static_cast<size_t>(i)] = std::max(bc[static_cast<size_t>(i)], sb[static_cast<size_t>(ib)]);
    }
    Shape so = bc;
    if (ra > 1) so.push_back(m);
    if (rb > 1) so.push_back(n);
    const aclDataType ta = kCube[rng() % 3], tb = kCube[rng() % 3], to = kCube[rng() % 3];
    Tensor a(view_desc(ta, sa, random_view(rng, true)));
    Tensor b(view_desc(tb, sb, random_view(rng, true)));
    Tensor out(view_desc(to, so, random_view(rng, false)));
    a.fill_random(rng, kPlain);
    b.fill_random(rng, kPlain);
    out.fill(Num::real(NAN));
    Problem p;
    p.repro = "Matmul" + views_str({&a, &b, &out}, {"self", "mat2", "out"});
    p.batch = bc;
    p.m = ra > 1 ? m : 1;
    p.n = rb > 1 ? n : 1;
    p.k = k;
    p.a = &a;
    p.am = ra > 1 ? trailing(ra, nb) : Map(static_cast<size_t>(nb), -1);
    if (ra == 1) {
      p.am.push_back(-1);
      p.am.push_back(0);
    }
    p.b = &b;
    p.bm = rb > 1 ? trailing(rb, nb) : Map(static_cast<size_t>(nb), -1);
    if (rb == 1) {
      p.bm.push_back(0);
      p.bm.push_back(-1);
    }
    p.cm = identity(nb);
    p.cm.push_back(ra > 1 ? nb : -1);
    p.cm.push_back(rb > 1 ? nb + (ra > 1 ? 1 : 0) : -1);
    run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnMatmulGetWorkspaceSize(a.get(), b.get(), out.get(), 1, w, e);
    }, aclnnMatmul);
    if (HasFailure()) return;
  }
}

TEST(Matmul, SharedRightOperandFoldsBatches) {
  // (B, M, K) @ (K, N), plus the same with a transposed right operand and a batch-strided left one.
  Rng rng(14);
  for (View va : {View::kContiguous, View::kStrided}) {
    for (View vb : {View::kContiguous, View::kTransposed}) {
      Tensor a(view_desc(ACL_FLOAT, {3, 2, 5, 7}, va)), b(view_desc(ACL_FLOAT, {7, 6}, vb));
      Tensor out(TensorDesc(ACL_FLOAT, {3, 2, 5, 6}));
      a.fill_random(rng, kPlain);
      b.fill_random(rng, kPlain);
      Problem p;
      p.repro = "Matmul" + views_str({&a, &b, &out}, {"self", "mat2", "out"});
      p.batch = {3, 2};
      p.m = 5;
      p.n = 6;
      p.k = 7;
      p.a = &a;
      p.am = identity(4);
      p.b = &b;
      p.bm = {-1, -1, 0, 1};
      p.cm = identity(4);
      run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnMatmulGetWorkspaceSize(a.get(), b.get(), out.get(), 0, w, e);
      }, aclnnMatmul);
    }
  }
}

TEST(BatchMatMul, RandomBatchesAndViews) {
  Rng rng(15);
  for (int iter = 0; iter < 80; ++iter) {
    const int64_t bs = 1 + static_cast<int64_t>(rng() % 4), m = pick_dim(rng), k = pick_dim(rng), n = pick_dim(rng);
    const int64_t ba = rng() % 3 == 0 ? 1 : bs, bb = rng() % 3 == 0 ? 1 : bs;
    const aclDataType ta = kCube[rng() % 3], tb = kCube[rng() % 3], to = kCube[rng() % 3];
    Tensor a(view_desc(ta, {ba, m, k}, random_view(rng, true)));
    Tensor b(view_desc(tb, {bb, k, n}, random_view(rng, true)));
    const int64_t bo = std::max(ba, bb);
    Tensor out(view_desc(to, {bo, m, n}, random_view(rng, false)));
    a.fill_random(rng, kPlain);
    b.fill_random(rng, kPlain);
    out.fill(Num::real(NAN));
    Problem p;
    p.repro = "BatchMatMul" + views_str({&a, &b, &out}, {"self", "mat2", "out"});
    p.batch = {bo};
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = &a;
    p.am = identity(3);
    p.b = &b;
    p.bm = identity(3);
    p.cm = identity(3);
    run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnBatchMatMulGetWorkspaceSize(a.get(), b.get(), out.get(), 2, w, e);
    }, aclnnBatchMatMul);
    if (HasFailure()) return;
  }
}

// ---- Addmm / Baddbmm / Addbmm / Gemm ----------------------------------------------------------------

const double kCoefficients[] = {1.0, 0.0, -0.5, 2.0, 1.25};

TEST(Addmm, RandomShapesCoefficientsAndViews) {
  Rng rng(16);
  for (int iter = 0; iter < 120; ++iter) {
    const bool inplace = iter % 3 == 2;
    const int64_t m = pick_dim(rng), k = pick_dim(rng), n = pick_dim(rng);
    const aclDataType ts = kCube[rng() % 3], t1 = kCube[rng() % 3], t2 = kCube[rng() % 3], to = kCube[rng() % 3];
    static const Shape kSelfShapes[] = {{-1, -2}, {-2}, {1, -2}, {-1, 1}, {1, 1}, {1}};
    Shape ss = inplace ? Shape{m, n} : kSelfShapes[rng() % 6];
    for (auto& d : ss) d = d == -1 ? m : d == -2 ? n : d;
    Tensor self(view_desc(ts, ss, random_view(rng, !inplace)));
    Tensor m1(view_desc(t1, {m, k}, random_view(rng, true)));
    Tensor m2(view_desc(t2, {k, n}, random_view(rng, true)));
    Tensor out(view_desc(to, {m, n}, random_view(rng, false)));
    self.fill_random(rng, kPlain);
    m1.fill_random(rng, kPlain);
    m2.fill_random(rng, kPlain);
    out.fill(Num::real(NAN));
    const double beta = kCoefficients[rng() % 5], alpha = kCoefficients[rng() % 5];
    Scalar sb(ScalarDesc(rng() % 2 ? ACL_FLOAT : ACL_DOUBLE, beta)), sa(ScalarDesc(ACL_FLOAT, alpha));
    const std::vector<uint8_t> self_before = self.host();
    Problem p;
    p.repro = std::string(inplace ? "InplaceAddmm" : "Addmm") + views_str({&self, &m1, &m2}, {"self", "mat1", "mat2"}) +
              (inplace ? "" : " out=" + out.desc().str()) + " beta=" + sb.desc().str() + " alpha=" + sa.desc().str();
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = &m1;
    p.am = identity(2);
    p.b = &m2;
    p.bm = identity(2);
    p.cm = identity(2);
    p.alpha = alpha;
    p.beta = beta;
    const Map sm = bias_map(static_cast<int>(ss.size()), 2);
    p.c0 = [&, sm](const Shape& ci) { return self.at(self_before, tensor_index(self.desc(), sm, ci)); };
    if (inplace) {
      run_and_check(p, self, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceAddmmGetWorkspaceSize(self.get(), m1.get(), m2.get(), sb.get(), sa.get(), 1, w, e);
      }, aclnnInplaceAddmm, &self_before);
    } else {
      run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnAddmmGetWorkspaceSize(self.get(), m1.get(), m2.get(), sb.get(), sa.get(), out.get(), 1, w, e);
      }, aclnnAddmm);
    }
    if (HasFailure()) return;
  }
}

TEST(Addmm, BetaZeroIgnoresNaNInSelfAndAlphaZeroIgnoresMatrices) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), m1(TensorDesc(ACL_FLOAT, {2, 4})), m2(TensorDesc(ACL_FLOAT, {4, 3}));
  Tensor out(TensorDesc(ACL_FLOAT, {2, 3}));
  self.fill(Num::real(NAN));
  m1.fill(Num::real(1.0));
  m2.fill(Num::real(2.0));
  Scalar zero(ScalarDesc(ACL_FLOAT, 0.0)), one(ScalarDesc(ACL_FLOAT, 1.0));
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddmmGetWorkspaceSize(self.get(), m1.get(), m2.get(), zero.get(), one.get(), out.get(), 0, w, e);
  }, aclnnAddmm), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  for_each_index({2, 3}, [&](const Shape& i) { EXPECT_EQ(out.at(i).f, 8.0) << shape_str(i); });
  // alpha = 0: the product is not computed (Inf/NaN in the matrices do not matter), out = beta * self.
  self.fill(Num::real(3.0));
  m1.fill(Num::real(INFINITY));
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddmmGetWorkspaceSize(self.get(), m1.get(), m2.get(), one.get(), zero.get(), out.get(), 0, w, e);
  }, aclnnAddmm), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  for_each_index({2, 3}, [&](const Shape& i) { EXPECT_EQ(out.at(i).f, 3.0) << shape_str(i); });
}

TEST(Addmm, NaNAndInfPropagateThroughTheProduct) {
  Tensor self(TensorDesc(ACL_FLOAT, {3})), m1(TensorDesc(ACL_FLOAT, {2, 2})), m2(TensorDesc(ACL_FLOAT, {2, 3}));
  Tensor out(TensorDesc(ACL_FLOAT, {2, 3}));
  self.fill(Num::real(1.0));
  m1.fill(Num::real(1.0));
  m2.fill(Num::real(1.0));
  m1.set({0, 1}, Num::real(NAN));
  m2.set({0, 2}, Num::real(INFINITY));
  m1.upload();
  m2.upload();
  Scalar one(ScalarDesc(ACL_FLOAT, 1.0));
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddmmGetWorkspaceSize(self.get(), m1.get(), m2.get(), one.get(), one.get(), out.get(), 0, w, e);
  }, aclnnAddmm), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  for (int64_t j = 0; j < 3; ++j) EXPECT_TRUE(std::isnan(out.at({0, j}).f)) << j;
  EXPECT_EQ(out.at({1, 0}).f, 3.0);
  EXPECT_EQ(out.at({1, 2}).f, INFINITY);
}

TEST(Baddbmm, RandomShapesCoefficientsAndViews) {
  Rng rng(17);
  for (int iter = 0; iter < 120; ++iter) {
    const bool reduce = iter % 2 == 1;  // Addbmm
    const bool inplace = iter % 5 == 3;
    const int64_t bs = pick_dim(rng) % 5, m = pick_dim(rng) % 9, k = pick_dim(rng) % 9, n = pick_dim(rng) % 9;
    const int64_t b1s = rng() % 3 == 0 ? 1 : bs, b2s = rng() % 3 == 0 ? 1 : bs;
    const int64_t bo = b1s == 1 ? b2s : b1s;
    const aclDataType t1 = kCube[rng() % 3], t2 = kCube[rng() % 3], to = kCube[rng() % 3];
    const Shape cs = reduce ? Shape{m, n} : Shape{bo, m, n};
    Shape ss = cs;
    if (!inplace) {  // self broadcasts: drop leading dims, set some dims to 1
      ss.erase(ss.begin(), ss.begin() + static_cast<std::ptrdiff_t>(rng() % 2));
      for (auto& d : ss)
        if (rng() % 3 == 0) d = 1;
    }
    Tensor self(view_desc(inplace ? to : to, ss, random_view(rng, !inplace)));
    Tensor b1(view_desc(t1, {b1s, m, k}, random_view(rng, true)));
    Tensor b2(view_desc(t2, {b2s, k, n}, random_view(rng, true)));
    Tensor out(view_desc(to, cs, random_view(rng, false)));
    self.fill_random(rng, kPlain);
    b1.fill_random(rng, kPlain);
    b2.fill_random(rng, kPlain);
    out.fill(Num::real(NAN));
    const double beta = kCoefficients[rng() % 5], alpha = kCoefficients[rng() % 5];
    Scalar sb(ScalarDesc(ACL_FLOAT, beta)), sa(ScalarDesc(rng() % 2 ? ACL_INT32 : ACL_FLOAT, alpha));
    const double alpha_v = sa.desc().value.as_double();
    const std::vector<uint8_t> self_before = self.host();
    const std::string name = std::string(inplace ? "Inplace" : "") + (reduce ? "Addbmm" : "Baddbmm");
    Problem p;
    p.repro = name + views_str({&self, &b1, &b2}, {"self", "batch1", "batch2"}) +
              (inplace ? "" : " out=" + out.desc().str()) + " beta=" + sb.desc().str() + " alpha=" + sa.desc().str();
    p.batch = {bo};
    p.reduce = reduce;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = &b1;
    p.am = identity(3);
    p.b = &b2;
    p.bm = identity(3);
    p.cm = identity(static_cast<int>(cs.size()));
    p.alpha = alpha_v;
    p.beta = beta;
    const Map sm = bias_map(static_cast<int>(ss.size()), static_cast<int>(cs.size()));
    p.c0 = [&, sm](const Shape& ci) { return self.at(self_before, tensor_index(self.desc(), sm, ci)); };
    if (inplace && reduce) {
      run_and_check(p, self, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceAddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), sb.get(), sa.get(), 1, w, e);
      }, aclnnInplaceAddbmm, &self_before);
    } else if (inplace) {
      run_and_check(p, self, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceBaddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), sb.get(), sa.get(), 1, w, e);
      }, aclnnInplaceBaddbmm, &self_before);
    } else if (reduce) {
      run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnAddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), sb.get(), sa.get(), out.get(), 1, w, e);
      }, aclnnAddbmm);
    } else {
      run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnBaddbmmGetWorkspaceSize(self.get(), b1.get(), b2.get(), sb.get(), sa.get(), out.get(), 1, w, e);
      }, aclnnBaddbmm);
    }
    if (HasFailure()) return;
  }
}

TEST(Gemm, TransposeFlagsAndBroadcastC) {
  Rng rng(18);
  for (int iter = 0; iter < 60; ++iter) {
    const int64_t m = pick_dim(rng), k = pick_dim(rng), n = pick_dim(rng);
    const bool ta = rng() % 2, tb = rng() % 2;
    const aclDataType dt = kCube[rng() % 3];
    Tensor A(view_desc(dt, ta ? Shape{k, m} : Shape{m, k}, random_view(rng, true)));
    Tensor B(view_desc(dt, tb ? Shape{n, k} : Shape{k, n}, random_view(rng, true)));
    static const Shape kCShapes[] = {{-1, -2}, {-2}, {1, -2}, {-1, 1}};
    Shape cs = kCShapes[rng() % 4];
    for (auto& d : cs) d = d == -1 ? m : d == -2 ? n : d;
    Tensor C(view_desc(dt, cs, random_view(rng, true)));
    Tensor out(view_desc(dt, {m, n}, random_view(rng, false)));
    A.fill_random(rng, kPlain);
    B.fill_random(rng, kPlain);
    C.fill_random(rng, kPlain);
    out.fill(Num::real(NAN));
    const float alpha = static_cast<float>(kCoefficients[rng() % 5]), beta = static_cast<float>(kCoefficients[rng() % 5]);
    Problem p;
    p.repro = "Gemm" + views_str({&A, &B, &C, &out}, {"A", "B", "C", "out"}) + " transA=" + std::to_string(ta) +
              " transB=" + std::to_string(tb) + " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta);
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = &A;
    p.am = trailing(2, 0, ta);
    p.b = &B;
    p.bm = trailing(2, 0, tb);
    p.cm = identity(2);
    p.alpha = alpha;
    p.beta = beta;
    const Map cmap = bias_map(static_cast<int>(cs.size()), 2);
    p.c0 = [&, cmap](const Shape& ci) { return at(C, cmap, ci); };
    run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnGemmGetWorkspaceSize(A.get(), B.get(), C.get(), alpha, beta, ta, tb, out.get(), 1, w, e);
    }, aclnnGemm);
    if (HasFailure()) return;
  }
}

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  IntArray(const IntArray&) = delete;
  IntArray& operator=(const IntArray&) = delete;
  aclIntArray* a;
};

TEST(TransposeBatchMatMul, PermutationsAndBatchSplit) {
  Rng rng(23);
  for (int iter = 0; iter < 40; ++iter) {
    const int64_t bs = 1 + static_cast<int64_t>(rng() % 4), m = pick_dim(rng), k = pick_dim(rng), n = pick_dim(rng);
    const bool t1 = rng() % 2, t2 = rng() % 2;
    std::vector<int64_t> splits;
    for (int64_t d = 1; d <= bs; ++d)
      if (bs % d == 0) splits.push_back(d);
    const int64_t split = splits[rng() % splits.size()];
    const aclDataType ta = kCube[rng() % 3], tb = kCube[rng() % 3], to = kCube[rng() % 3];
    Tensor x1(view_desc(ta, t1 ? Shape{m, bs, k} : Shape{bs, m, k}, random_view(rng, true)));
    Tensor x2(view_desc(tb, t2 ? Shape{bs, n, k} : Shape{bs, k, n}, random_view(rng, true)));
    Tensor out(view_desc(to, split == 1 ? Shape{m, bs, n} : Shape{split, m, bs / split * n}, random_view(rng, false)));
    x1.fill_random(rng, kPlain);
    x2.fill_random(rng, kPlain);
    out.fill(Num::real(NAN));
    IntArray p1(t1 ? std::vector<int64_t>{1, 0, 2} : std::vector<int64_t>{0, 1, 2});
    IntArray p2(t2 ? std::vector<int64_t>{0, 2, 1} : std::vector<int64_t>{0, 1, 2});
    IntArray py({1, 0, 2});
    Problem p;
    p.repro = "TransposeBatchMatMul" + views_str({&x1, &x2, &out}, {"x1", "x2", "out"}) + " permX1=" +
              (t1 ? "[1,0,2]" : "[0,1,2]") + " permX2=" + (t2 ? "[0,2,1]" : "[0,1,2]") +
              " batchSplitFactor=" + std::to_string(split);
    p.batch = {bs};
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = &x1;
    p.am = t1 ? Map{1, 0, 2} : Map{0, 1, 2};
    p.b = &x2;
    p.bm = t2 ? Map{0, 2, 1} : Map{0, 1, 2};
    // out is checked through a copy in [b, m, n] order.
    Tensor logical(TensorDesc(to, {bs, m, n}));
    p.cm = identity(3);
    const int64_t per = bs / split;
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnTransposeBatchMatMulGetWorkspaceSize(x1.get(), x2.get(), nullptr, nullptr, p1.a, p2.a, py.a, 1,
                                                       static_cast<int32_t>(split), out.get(), w, e);
    }, aclnnTransposeBatchMatMul), ACL_SUCCESS) << p.repro << ": " << aclGetRecentErrMsg();
    out.download();
    for_each_index({bs, m, n}, [&](const Shape& i) {
      const Shape o = split == 1 ? Shape{i[1], i[0], i[2]} : Shape{i[0] / per, i[1], (i[0] % per) * n + i[2]};
      logical.set(i, out.at(o));
    });
    p.out = &logical;
    check(p);
    if (HasFailure()) return;
  }
}

// ---- Mv / Addmv / Dot / Ger / Addr ----------------------------------------------------------------

const std::vector<aclDataType> kAll = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                       ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

aclDataType promote3(aclDataType a, aclDataType b, aclDataType c);

// PyTorch's promote_types over the ten compute dtypes (a small table, written from its rules).
aclDataType promote2(aclDataType a, aclDataType b) {
  if (a == b) return a;
  auto rank_float = [](aclDataType t) { return t == ACL_DOUBLE ? 3 : t == ACL_FLOAT ? 2 : t == ACL_FLOAT16 || t == ACL_BF16 ? 1 : 0; };
  if (is_floating(a) || is_floating(b)) {
    if ((a == ACL_FLOAT16 && b == ACL_BF16) || (a == ACL_BF16 && b == ACL_FLOAT16)) return ACL_FLOAT;
    return rank_float(a) >= rank_float(b) ? a : b;
  }
  if (a == ACL_BOOL) return b;
  if (b == ACL_BOOL) return a;
  if ((a == ACL_UINT8 && b == ACL_INT8) || (a == ACL_INT8 && b == ACL_UINT8)) return ACL_INT16;
  if (a == ACL_UINT8) return b;
  if (b == ACL_UINT8) return a;
  return dtype_size(a) >= dtype_size(b) ? a : b;
}
aclDataType promote3(aclDataType a, aclDataType b, aclDataType c) { return promote2(promote2(a, b), c); }

aclDataType compute_of(aclDataType t) { return t == ACL_FLOAT16 || t == ACL_BF16 ? ACL_FLOAT : t; }

FillOptions fill_for(aclDataType t) { return is_floating(t) ? kPlain : FillOptions{0.1, 0.4}; }

TEST(Mv, RandomShapesAndViews) {
  Rng rng(19);
  for (int iter = 0; iter < 60; ++iter) {
    const int64_t n = pick_dim(rng), m = pick_dim(rng);
    const aclDataType t = kCube[rng() % 3];
    Tensor self(view_desc(t, {n, m}, random_view(rng, true))), vec(view_desc(t, {m}, random_view(rng, true)));
    Tensor out(view_desc(t, {n}, random_view(rng, false)));
    self.fill_random(rng, kPlain);
    vec.fill_random(rng, kPlain);
    out.fill(Num::real(NAN));
    Problem p;
    p.repro = "Mv" + views_str({&self, &vec, &out}, {"self", "vec", "out"});
    p.m = n;
    p.n = 1;
    p.k = m;
    p.a = &self;
    p.am = {0, 1};
    p.b = &vec;
    p.bm = {0, -1};
    p.cm = {0, -1};
    run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnMvGetWorkspaceSize(self.get(), vec.get(), out.get(), 1, w, e);
    }, aclnnMv);
    if (HasFailure()) return;
  }
}

// A coefficient scalar valid for a result dtype (integral results take integral scalars).
ScalarDesc coefficient(Rng& rng, aclDataType result) {
  if (result == ACL_BOOL) return ScalarDesc(ACL_BOOL, static_cast<double>(rng() % 2));
  if (!is_floating(result)) return ScalarDesc(rng() % 2 ? ACL_INT64 : ACL_INT32, static_cast<double>(static_cast<int>(rng() % 5) - 2));
  return ScalarDesc(ACL_FLOAT, kCoefficients[rng() % 5]);
}

TEST(Addmv, EveryDtypeAndBroadcastSelf) {
  Rng rng(20);
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType ts = kAll[rng() % kAll.size()], tm = kAll[rng() % kAll.size()],
                      tv = rng() % 2 ? tm : kAll[rng() % kAll.size()];
    const aclDataType result = promote3(ts, tm, tv);
    const aclDataType to = result == ACL_BOOL ? ACL_INT32 : result;
    const int64_t n = pick_dim(rng), m = pick_dim(rng);
    Tensor self(view_desc(ts, {rng() % 3 == 0 ? 1 : n}, random_view(rng, true)));
    Tensor mat(view_desc(tm, {n, m}, random_view(rng, true))), vec(view_desc(tv, {m}, random_view(rng, true)));
    Tensor out(view_desc(to, {n}, random_view(rng, false)));
    self.fill_random(rng, fill_for(ts));
    mat.fill_random(rng, fill_for(tm));
    vec.fill_random(rng, fill_for(tv));
    out.fill(Num::real(NAN));
    Scalar sa(coefficient(rng, result)), sb(coefficient(rng, result));
    Problem p;
    p.repro = "Addmv" + views_str({&self, &mat, &vec, &out}, {"self", "mat", "vec", "out"}) + " alpha=" +
              sa.desc().str() + " beta=" + sb.desc().str();
    p.m = n;
    p.n = 1;
    p.k = m;
    p.a = &mat;
    p.am = {0, 1};
    p.b = &vec;
    p.bm = {0, -1};
    p.cm = {0, -1};
    p.result = compute_of(result);
    p.alpha = sa.desc().value.as_double();
    p.beta = sb.desc().value.as_double();
    p.alpha_i = sa.desc().value.i;
    p.beta_i = sb.desc().value.i;
    p.c0 = [&](const Shape& ci) { return cast(at(self, {0, -1}, ci), result); };
    // Operands are converted to the result dtype before multiplying.
    Tensor* conv_src[] = {&mat, &vec};
    std::vector<std::unique_ptr<Tensor>> conv;
    for (Tensor* t : conv_src) {
      conv.push_back(std::make_unique<Tensor>(TensorDesc(p.result, t->desc().shape)));
      for_each_index(t->desc().shape, [&](const Shape& i) { conv.back()->set(i, cast(t->at(i), result)); });
    }
    p.a = conv[0].get();
    p.b = conv[1].get();
    run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnAddmvGetWorkspaceSize(self.get(), mat.get(), vec.get(), sa.get(), sb.get(), out.get(), 0, w, e);
    }, aclnnAddmv);
    if (HasFailure()) return;
  }
}

TEST(Dot, EveryDtype) {
  Rng rng(21);
  const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32, ACL_UINT8};
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType t = types[iter % 6];
    const int64_t n = iter % 7 == 0 ? 0 : pick_dim(rng) * (1 + iter % 3);
    Tensor self(view_desc(t, {n}, random_view(rng, true))), other(view_desc(t, {n}, random_view(rng, true)));
    Tensor out(TensorDesc(t, {}));
    self.fill_random(rng, fill_for(t));
    other.fill_random(rng, fill_for(t));
    out.fill(Num::real(NAN));
    Problem p;
    p.repro = "Dot" + views_str({&self, &other, &out}, {"self", "tensor", "out"});
    p.m = 1;
    p.n = 1;
    p.k = n;
    p.a = &self;
    p.am = {-1, 0};
    p.b = &other;
    p.bm = {0, -1};
    p.cm = {-1, -1};
    p.result = compute_of(t);
    run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnDotGetWorkspaceSize(self.get(), other.get(), out.get(), w, e);
    }, aclnnDot);
    if (HasFailure()) return;
  }
}

TEST(Addr, EveryDtypeOptionalCoefficientsAndInplace) {
  Rng rng(22);
  for (int iter = 0; iter < 150; ++iter) {
    const int kind = iter % 3;  // 0 Ger, 1 Addr, 2 InplaceAddr
    const aclDataType t1 = kAll[rng() % kAll.size()], t2 = rng() % 2 ? t1 : kAll[rng() % kAll.size()];
    aclDataType ts = rng() % 2 ? t1 : kAll[rng() % kAll.size()];
    aclDataType result = kind == 0 ? promote2(t1, t2) : promote3(ts, t1, t2);
    if (kind == 2) {  // selfRef holds the result: it must be the widest dtype
      ts = result;
    }
    const aclDataType to = kind == 2 ? ts : result;
    const int64_t n = pick_dim(rng), m = pick_dim(rng);
    Shape ss = {n, m};
    if (kind == 1) {
      static const Shape kSelf[] = {{-1, -2}, {-2}, {1, -2}, {-1, 1}, {}};
      ss = kSelf[rng() % 5];
      for (auto& d : ss) d = d == -1 ? n : d == -2 ? m : d;
    }
    Tensor self(view_desc(ts, ss, random_view(rng, kind != 2)));
    Tensor v1(view_desc(t1, {n}, random_view(rng, true))), v2(view_desc(t2, {m}, random_view(rng, true)));
    Tensor out(view_desc(to, {n, m}, random_view(rng, false)));
    self.fill_random(rng, fill_for(ts));
    v1.fill_random(rng, fill_for(t1));
    v2.fill_random(rng, fill_for(t2));
    out.fill(Num::real(NAN));
    const bool has_beta = rng() % 3 != 0, has_alpha = rng() % 3 != 0;
    Scalar sb(coefficient(rng, result)), sa(coefficient(rng, result));
    const std::vector<uint8_t> self_before = self.host();
    Problem p;
    p.repro = std::string(kind == 0 ? "Ger" : kind == 1 ? "Addr" : "InplaceAddr") +
              views_str({&self, &v1, &v2, &out}, {"self", "vec1", "vec2", "out"}) +
              (has_beta ? " beta=" + sb.desc().str() : "") + (has_alpha ? " alpha=" + sa.desc().str() : "");
    p.m = n;
    p.n = m;
    p.k = 1;
    p.cm = {0, 1};
    p.result = compute_of(result);
    std::vector<std::unique_ptr<Tensor>> conv;
    for (Tensor* t : {&v1, &v2}) {
      conv.push_back(std::make_unique<Tensor>(TensorDesc(p.result, t->desc().shape)));
      for_each_index(t->desc().shape, [&](const Shape& i) { conv.back()->set(i, cast(t->at(i), result)); });
    }
    p.a = conv[0].get();
    p.am = {0, -1};
    p.b = conv[1].get();
    p.bm = {-1, 0};
    if (kind != 0) {
      p.alpha = has_alpha ? sa.desc().value.as_double() : 1.0;
      p.beta = has_beta ? sb.desc().value.as_double() : 1.0;
      p.alpha_i = has_alpha ? sa.desc().value.i : 1;
      p.beta_i = has_beta ? sb.desc().value.i : 1;
      const Map sm = bias_map(static_cast<int>(ss.size()), 2);
      p.c0 = [&, sm](const Shape& ci) { return cast(self.at(self_before, tensor_index(self.desc(), sm, ci)), result); };
    }
    aclScalar* beta = has_beta ? sb.get() : nullptr;
    aclScalar* alpha = has_alpha ? sa.get() : nullptr;
    if (kind == 0) {
      run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnGerGetWorkspaceSize(v1.get(), v2.get(), out.get(), w, e);
      }, aclnnGer);
    } else if (kind == 1) {
      run_and_check(p, out, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnAddrGetWorkspaceSize(self.get(), v1.get(), v2.get(), beta, alpha, out.get(), w, e);
      }, aclnnAddr);
    } else {
      run_and_check(p, self, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceAddrGetWorkspaceSize(self.get(), v1.get(), v2.get(), beta, alpha, w, e);
      }, aclnnInplaceAddr, &self_before);
    }
    if (HasFailure()) return;
  }
}

// ---- bad arguments ------------------------------------------------------------------------------------

TEST(MatmulFamily, BadArguments) {
  Tensor a23(TensorDesc(ACL_FLOAT, {2, 3})), a34(TensorDesc(ACL_FLOAT, {3, 4})), a24(TensorDesc(ACL_FLOAT, {2, 4}));
  Tensor a44(TensorDesc(ACL_FLOAT, {4, 4})), i34(TensorDesc(ACL_INT32, {3, 4})), d24(TensorDesc(ACL_DOUBLE, {2, 4}));
  Tensor b233(TensorDesc(ACL_FLOAT, {2, 3, 3})), b334(TensorDesc(ACL_FLOAT, {3, 3, 4})), v3(TensorDesc(ACL_FLOAT, {3}));
  Tensor v4(TensorDesc(ACL_FLOAT, {4})), v2(TensorDesc(ACL_FLOAT, {2})), s0(TensorDesc(ACL_FLOAT, {}));
  Tensor r7(TensorDesc(ACL_FLOAT, {1, 1, 1, 1, 1, 2, 3}));
  Scalar one(ScalarDesc(ACL_FLOAT, 1.0)), fl(ScalarDesc(ACL_FLOAT, 1.5)), bo(ScalarDesc(ACL_BOOL, 1.0));
  Tensor iv3(TensorDesc(ACL_INT32, {3})), iv2(TensorDesc(ACL_INT32, {2})), i23(TensorDesc(ACL_INT32, {2, 3}));
  const auto kInvalid = ACLNN_ERR_PARAM_INVALID;
  auto mm = [](const Tensor* s, const Tensor* m, const Tensor* o, int8_t cube) {
    return [=](uint64_t* w, aclOpExecutor** e) {
      return aclnnMmGetWorkspaceSize(s ? s->get() : nullptr, m ? m->get() : nullptr, o ? o->get() : nullptr, cube, w, e);
    };
  };
  expect_phase1_error("Mm null self", ACLNN_ERR_PARAM_NULLPTR, "self", mm(nullptr, &a34, &a24, 0));
  expect_phase1_error("Mm null out", ACLNN_ERR_PARAM_NULLPTR, "out", mm(&a23, &a34, nullptr, 0));
  expect_phase1_error("Mm k mismatch", kInvalid, "mat2", mm(&a23, &a44, &a24, 0));
  expect_phase1_error("Mm out shape", kInvalid, "out has shape [4, 4]", mm(&a23, &a34, &a44, 0));
  expect_phase1_error("Mm int mat2", kInvalid, "mat2 dtype int32", mm(&a23, &i34, &a24, 0));
  expect_phase1_error("Mm double out", kInvalid, "out dtype float64", mm(&a23, &a34, &d24, 0));
  expect_phase1_error("Mm 3-D self", kInvalid, "self has 3 dims", mm(&b233, &a34, &a24, 0));
  expect_phase1_error("Mm cubeMathType", kInvalid, "cubeMathType is 5", mm(&a23, &a34, &a24, 5));
  expect_phase1_error("Mm cubeMathType -1", kInvalid, "cubeMathType is -1", mm(&a23, &a34, &a24, -1));
  auto matmul = [](const Tensor& s, const Tensor& m, const Tensor& o) {
    return [&](uint64_t* w, aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(s.get(), m.get(), o.get(), 0, w, e); };
  };
  expect_phase1_error("Matmul 0-d self", kInvalid, "self has 0 dims", matmul(s0, a34, a24));
  expect_phase1_error("Matmul 7-D self", kInvalid, "self has 7 dims", matmul(r7, a34, a24));
  expect_phase1_error("Matmul k mismatch", kInvalid, "reduced dims differ (3 vs 4)", matmul(a23, v4, v2));
  expect_phase1_error("Matmul batch", kInvalid, "do not broadcast", matmul(b233, b334, b334));
  expect_phase1_error("Matmul out", kInvalid, "out has shape", matmul(v3, a34, a24));
  expect_phase1_error("BatchMatMul 2-D", kInvalid, "self has 2 dims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnBatchMatMulGetWorkspaceSize(a23.get(), b334.get(), b334.get(), 0, w, e);
  });
  expect_phase1_error("Addmm null beta", ACLNN_ERR_PARAM_NULLPTR, "beta", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddmmGetWorkspaceSize(a24.get(), a23.get(), a34.get(), nullptr, one.get(), a24.get(), 0, w, e);
  });
  expect_phase1_error("Addmm self broadcast", kInvalid, "self has shape [3]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddmmGetWorkspaceSize(v3.get(), a23.get(), a34.get(), one.get(), one.get(), a24.get(), 0, w, e);
  });
  expect_phase1_error("InplaceAddmm selfRef shape", kInvalid, "selfRef has 1 dims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceAddmmGetWorkspaceSize(v4.get(), a23.get(), a34.get(), one.get(), one.get(), 0, w, e);
  });
  expect_phase1_error("Baddbmm batch", kInvalid, "batch1", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnBaddbmmGetWorkspaceSize(b334.get(), b233.get(), b334.get(), one.get(), one.get(), b334.get(), 0, w, e);
  });
  Tensor b323(TensorDesc(ACL_FLOAT, {3, 2, 3}));
  expect_phase1_error("Addbmm out", kInvalid, "out has shape [2, 3, 3]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddbmmGetWorkspaceSize(a24.get(), b323.get(), b334.get(), one.get(), one.get(), b233.get(), 0, w, e);
  });
  expect_phase1_error("Gemm k", kInvalid, "B (transposed)", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGemmGetWorkspaceSize(a23.get(), a34.get(), a24.get(), 1, 1, 0, 1, a24.get(), 0, w, e);
  });
  expect_phase1_error("Mv dtype", kInvalid, "vec has dtype int32", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMvGetWorkspaceSize(a23.get(), iv3.get(), v2.get(), 0, w, e);
  });
  expect_phase1_error("Mv length", kInvalid, "vec has shape [4]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMvGetWorkspaceSize(a23.get(), v4.get(), v2.get(), 0, w, e);
  });
  expect_phase1_error("Addmv float alpha with ints", kInvalid, "alpha is a float32 scalar", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddmvGetWorkspaceSize(iv2.get(), i23.get(), iv3.get(), fl.get(), one.get(), iv2.get(), 0, w, e);
  });
  expect_phase1_error("Dot dtype", kInvalid, "tensor has dtype int32", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDotGetWorkspaceSize(v3.get(), iv3.get(), s0.get(), w, e);
  });
  expect_phase1_error("Dot out", kInvalid, "out has 1 dims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDotGetWorkspaceSize(v3.get(), v3.get(), v3.get(), w, e);
  });
  expect_phase1_error("Ger out cast", kInvalid, "cannot be cast", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGerGetWorkspaceSize(v2.get(), v3.get(), i23.get(), w, e);
  });
  expect_phase1_error("Addr bool beta", kInvalid, "betaOptional is a bool scalar", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddrGetWorkspaceSize(a23.get(), v2.get(), v3.get(), bo.get(), nullptr, a23.get(), w, e);
  });
  expect_phase1_error("Addr self", kInvalid, "self has shape [2]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddrGetWorkspaceSize(v2.get(), v2.get(), v3.get(), nullptr, nullptr, a23.get(), w, e);
  });
}

}  // namespace
