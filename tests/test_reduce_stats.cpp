// Reductions through the public C API, part 2: ReduceNansum, ReduceLogSum, Prod, ProdDim, Max,
// Min, MaxV2, GlobalMaxPool, GlobalAveragePool, Aminmax, AminmaxAll, AminmaxDim, Any, All, Var,
// VarCorrection, VarMean, Std, StdMeanCorrection, BatchNormStats, LogSumExp, Norm, LinalgVectorNorm.
//
// References fold each slice (gathered in reduction order from the host copies, cast to the
// compute dtype) in double. Tolerances: the rounding into the output dtype plus the accumulation
// error of the method: 1e-5 of the sum of magnitudes for float32 sums (blocks of 32 terms per
// lane), n * 2^-22 relative for float32 products, 1e-9 relative for variances (accumulated in
// double), 1e-5 relative for norms and log-sum-exp (float32 exp/pow, a few ulps each).
#include <gtest/gtest.h>

#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_aminmax.h"
#include "aclnnop/aclnn_aminmax_all.h"
#include "aclnnop/aclnn_aminmax_dim.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_batch_norm_stats.h"
#include "aclnnop/aclnn_global_average_pool.h"
#include "aclnnop/aclnn_global_max_pool.h"
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_v2.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_log_sum.h"
#include "aclnnop/aclnn_reduce_nansum.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"
#include "reduce_test_util.h"

namespace {

using namespace rtest;

const std::vector<aclDataType> kFloat3 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

bool ran(const std::string& r, const Phase1Fn& p1, Phase2Fn p2) {
  const aclnnStatus st = run_two_phase(p1, p2);
  EXPECT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  return st == ACL_SUCCESS;
}

std::string mismatch(const Num& got, double want) {
  return "got " + num_str(got) + ", expected " + num_str(Num::real(want));
}

std::vector<double> as_doubles(const std::vector<Num>& vals, aclDataType t) {
  std::vector<double> r;
  for (const Num& v : vals) r.push_back(cast(v, t).as_double());
  return r;
}

// ---- nansum, log-sum, prod ---------------------------------------------------------------------------

TEST(ReduceNansum, NaNCountsAsZero) {
  Rng rng(21);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64,
                                          ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_BOOL};
  for (int iter = 0; iter < 100; ++iter) {
    const aclDataType st = types[static_cast<size_t>(iter) % types.size()];
    const aclDataType dtype = is_floating(st) ? kFloat3[rng() % 3] : (rng() % 2 ? st : ACL_INT64);
    Problem p = random_problem(rng, st, false, true);
    const TensorDesc od = out_view(rng, dtype, p.out_shape);
    const std::string r = repro("ReduceNansum", p, std::string(" dtype=") + dtype_name(dtype), od);
    Tensor self(p.self), out(od);
    fill(self, rng, 0.2);
    IntArray dims(p.dims);
    if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnReduceNansumGetWorkspaceSize(self.get(), dims.a, p.keepdim, dtype, out.get(), w, e);
        }, aclnnReduceNansum)) return;
    out.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      std::vector<Num> kept;
      for (const Num& v : vals)
        kept.push_back(v.is_float && std::isnan(v.f) ? Num::real(0) : v);
      return check_sum(dtype, kept, out.at(out_index(full, p.mask, p.keepdim)), false);
    });
    if (HasFailure()) return;
  }
}

TEST(ReduceLogSum, LogOfTheSum) {
  Rng rng(22);
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType t = kFloat3[static_cast<size_t>(iter) % 3];
    Problem p = random_problem(rng, t, false, true);
    const bool noop = p.dims.empty() ? iter % 2 == 0 : rng() % 4 == 0;
    const bool copy = noop && p.dims.empty();  // CANN: copied unchanged, no log
    if (copy) {
      p.mask.assign(p.self.shape.size(), false);
      p.out_shape = p.self.shape;
    }
    const TensorDesc od = out_view(rng, t, p.out_shape);
    const std::string r = repro("ReduceLogSum", p, " noopWithEmptyAxes=" + std::to_string(noop), od);
    Tensor self(p.self), out(od);
    for (int64_t k = 0; k < p.self.storage_elems(); ++k)  // positive values: the log is defined
      store(t, self.host().data() + k * dtype_size(t), Num::real(std::fabs(value(t, rng, 0.02).f)));
    self.upload();
    IntArray dims(p.dims);
    if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnReduceLogSumGetWorkspaceSize(self.get(), dims.a, p.keepdim, noop, out.get(), w, e);
        }, aclnnReduceLogSum)) return;
    out.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      const Num got = out.at(out_index(full, p.mask, p.keepdim));
      if (copy) return same_number(vals[0], got) ? std::string() : "copy: got " + num_str(got) + ", expected " + num_str(vals[0]);
      if (vals.empty()) return got.f == 0 ? std::string() : "an empty reduction gives 0 (CANN), got " + num_str(got);
      double s = 0;
      for (double v : as_doubles(vals, t)) s += v;
      const double want = std::log(s);
      return close(t, want, got.f, 1e-5 + 1e-6 * std::fabs(want)) ? std::string() : mismatch(got, want);
    });
    if (HasFailure()) return;
  }
}

TEST(Prod, ProductsOfAllAndAlongADim) {
  Rng rng(23);
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType st = kAll[static_cast<size_t>(iter) % kAll.size()];
    const aclDataType dtype = rng() % 2 ? st : kAll[rng() % kAll.size()];
    if ((is_floating(st) && !is_floating(dtype)) || (dtype == ACL_BOOL && st != ACL_BOOL)) continue;  // not castable
    const bool along = iter % 2 == 0;
    Problem p = random_problem(rng, st, along, true);
    if (!along) {
      p.dims.clear();
      p.mask.assign(p.self.shape.size(), true);
      p.keepdim = false;
      p.out_shape = rng() % 2 ? Shape{} : Shape{1};
    }
    const TensorDesc od = out_view(rng, dtype, p.out_shape);
    const std::string r = repro(along ? "ProdDim" : "Prod", p, std::string(" dtype=") + dtype_name(dtype), od);
    Tensor self(p.self), out(od);
    const size_t es = dtype_size(st);
    for (int64_t k = 0; k < p.self.storage_elems(); ++k) {  // near 1 for floats (no overflow), small integers
      const Num v = is_floating(st) ? Num::real(std::uniform_real_distribution<double>(0.6, 1.6)(rng))
                                    : rng() % 20 == 0 ? value(st, rng, 1.0) : Num::integer(static_cast<int64_t>(rng() % 5) - 2);
      store(st, self.host().data() + k * es, v);
    }
    self.upload();
    const int64_t dim = along ? p.dims[0] : 0;
    if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
          return along ? aclnnProdDimGetWorkspaceSize(self.get(), dim, p.keepdim, dtype, out.get(), w, e)
                       : aclnnProdGetWorkspaceSize(self.get(), dtype, out.get(), w, e);
        }, along ? aclnnProdDim : aclnnProd)) return;
    out.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      const Num got = out.at(along ? out_index(full, p.mask, p.keepdim) : Shape(od.shape.size(), 0));
      if (is_floating(dtype)) {
        double prod = 1;
        for (double v : as_doubles(vals, dtype)) prod *= v;
        const double slack = std::fabs(prod) * static_cast<double>(vals.size() + 1) * 2.4e-7;
        return close(dtype, prod, got.f, slack) ? std::string() : mismatch(got, prod);
      }
      uint64_t prod = 1;
      for (const Num& v : vals) prod *= static_cast<uint64_t>(cast(v, dtype).i);
      const Num want = dtype == ACL_BOOL ? Num::integer(prod != 0) : cast(Num::integer(static_cast<int64_t>(prod)), dtype);
      return want.i == got.i ? std::string() : "got " + num_str(got) + ", expected " + num_str(want);
    });
    if (HasFailure()) return;
  }
}

// ---- extremes of everything, pools, aminmax, any/all --------------------------------------------------

TEST(Max, AllElementsAndV2) {
  Rng rng(24);
  for (int iter = 0; iter < 80; ++iter) {
    const aclDataType t = kAll[static_cast<size_t>(iter) % kAll.size()];
    const int form = iter % 3;  // 0: Max, 1: Min, 2: MaxV2
    Problem p = random_problem(rng, t, false, true);
    bool noop = false;
    if (form < 2) {
      p.dims.clear();
      p.mask.assign(p.self.shape.size(), true);
      p.keepdim = false;
      p.out_shape = rng() % 2 ? Shape{} : Shape{1};
    } else if (p.dims.empty() && rng() % 2) {
      noop = true;
      p.mask.assign(p.self.shape.size(), false);
      p.out_shape = p.self.shape;
    }
    const TensorDesc od = out_view(rng, t, p.out_shape);
    const char* name = form == 0 ? "Max" : form == 1 ? "Min" : "MaxV2";
    const std::string r = repro(name, p, form == 2 ? " noopWithEmptyDims=" + std::to_string(noop) : "", od);
    Tensor self(p.self), out(od);
    fill(self, rng, 0.05);
    IntArray dims(p.dims);
    auto p1 = [&](uint64_t* w, aclOpExecutor** e) {
      if (form == 0) return aclnnMaxGetWorkspaceSize(self.get(), out.get(), w, e);
      if (form == 1) return aclnnMinGetWorkspaceSize(self.get(), out.get(), w, e);
      return aclnnMaxV2GetWorkspaceSize(self.get(), dims.a, p.keepdim, noop, out.get(), w, e);
    };
    if (numel(od.shape) > 0 && numel(p.self.shape) == 0) {
      expect_phase1_error(r, ACLNN_ERR_PARAM_INVALID, "no identity", p1);
      continue;
    }
    if (!ran(r, p1, form == 0 ? aclnnMax : form == 1 ? aclnnMin : aclnnMaxV2)) return;
    out.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      const Num want = extreme(vals, form != 1);
      const Num got = out.at(form < 2 ? Shape(od.shape.size(), 0) : out_index(full, p.mask, p.keepdim));
      return same_number(want, got) ? std::string() : "got " + num_str(got) + ", expected " + num_str(want);
    });
    if (HasFailure()) return;
  }
}

TEST(GlobalPool, MaxAndAverageOverSpatialDims) {
  Rng rng(25);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE};
  for (int iter = 0; iter < 30; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const bool avg = iter % 2 == 0;
    Shape s = random_shape(rng, 2, 4, false);
    s.insert(s.begin(), {1 + static_cast<int64_t>(rng() % 3), 1 + static_cast<int64_t>(rng() % 3), 1 + static_cast<int64_t>(rng() % 5)});
    s.push_back(1 + static_cast<int64_t>(rng() % 5));
    Problem p;
    p.self = random_view(rng, t, s);
    p.mask.assign(s.size(), true);
    p.mask[0] = p.mask[1] = false;
    p.keepdim = true;
    p.out_shape = reduced(s, p.mask, true);
    const TensorDesc od = out_view(rng, t, p.out_shape);
    const std::string r = repro(avg ? "GlobalAveragePool" : "GlobalMaxPool", p, "", od);
    Tensor self(p.self), out(od);
    fill(self, rng, 0.02);
    if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
          return avg ? aclnnGlobalAveragePoolGetWorkspaceSize(self.get(), out.get(), w, e)
                     : aclnnGlobalMaxPoolGetWorkspaceSize(self.get(), out.get(), w, e);
        }, avg ? aclnnGlobalAveragePool : aclnnGlobalMaxPool)) return;
    out.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      const Num got = out.at(out_index(full, p.mask, true));
      if (avg) return check_sum(t, vals, got, true);
      return same_number(extreme(vals, true), got) ? std::string() : "got " + num_str(got);
    });
    if (HasFailure()) return;
  }
  Tensor self3(TensorDesc(ACL_FLOAT, {2, 3, 4})), out3(TensorDesc(ACL_FLOAT, {2, 3, 1}));
  expect_phase1_error("3-d self", ACLNN_ERR_PARAM_INVALID, "expected 4 to 8", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGlobalMaxPoolGetWorkspaceSize(self3.get(), out3.get(), w, e);
  });
}

TEST(Aminmax, DimsAllAndDim) {
  Rng rng(26);
  for (int iter = 0; iter < 90; ++iter) {
    const aclDataType t = kAll[static_cast<size_t>(iter) % kAll.size()];
    const int form = iter % 3;  // 0: Aminmax (dims), 1: AminmaxAll, 2: AminmaxDim
    Problem p = random_problem(rng, t, form == 2, true);
    if (form == 1) {
      p.dims.clear();
      p.mask.assign(p.self.shape.size(), true);
      p.keepdim = false;
      p.out_shape = rng() % 2 ? Shape{} : Shape{1};
    }
    const TensorDesc lo_d = out_view(rng, t, p.out_shape), hi_d = out_view(rng, t, p.out_shape);
    const char* name = form == 0 ? "Aminmax" : form == 1 ? "AminmaxAll" : "AminmaxDim";
    const std::string r = repro(name, p, " maxOut=" + hi_d.str(), lo_d);
    Tensor self(p.self), lo(lo_d), hi(hi_d);
    fill(self, rng, 0.05);
    IntArray dims(p.dims);
    auto p1 = [&](uint64_t* w, aclOpExecutor** e) {
      if (form == 0) return aclnnAminmaxGetWorkspaceSize(self.get(), dims.a, p.keepdim, lo.get(), hi.get(), w, e);
      if (form == 1) return aclnnAminmaxAllGetWorkspaceSize(self.get(), lo.get(), hi.get(), w, e);
      return aclnnAminmaxDimGetWorkspaceSize(self.get(), p.dims[0], p.keepdim, lo.get(), hi.get(), w, e);
    };
    if (numel(lo_d.shape) > 0 && numel(p.self.shape) == 0) {
      expect_phase1_error(r, ACLNN_ERR_PARAM_INVALID, "no identity", p1);
      continue;
    }
    if (!ran(r, p1, form == 0 ? aclnnAminmax : form == 1 ? aclnnAminmaxAll : aclnnAminmaxDim)) return;
    lo.download();
    hi.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      const Shape o = form == 1 ? Shape(lo_d.shape.size(), 0) : out_index(full, p.mask, p.keepdim);
      if (!same_number(extreme(vals, false), lo.at(o))) return "min " + num_str(lo.at(o)) + ", expected " + num_str(extreme(vals, false));
      if (!same_number(extreme(vals, true), hi.at(o))) return "max " + num_str(hi.at(o)) + ", expected " + num_str(extreme(vals, true));
      return std::string();
    });
    if (HasFailure()) return;
  }
}

TEST(AnyAll, NonzeroPredicates) {
  Rng rng(27);
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = kAll[static_cast<size_t>(iter) % kAll.size()];
    const bool is_all = iter % 2 == 0;
    Problem p = random_problem(rng, t, false, true);
    const TensorDesc od = out_view(rng, rng() % 3 ? ACL_BOOL : ACL_UINT8, p.out_shape);
    const std::string r = repro(is_all ? "All" : "Any", p, "", od);
    Tensor self(p.self), out(od);
    const size_t es = dtype_size(t);
    const double zeros = (rng() % 3) * 0.45;  // sometimes all nonzero, sometimes mostly zero
    for (int64_t k = 0; k < p.self.storage_elems(); ++k)
      store(t, self.host().data() + k * es, std::uniform_real_distribution<double>(0, 1)(rng) < zeros ? Num::integer(0) : value(t, rng, 0.1));
    self.upload();
    IntArray dims(p.dims);
    if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
          return is_all ? aclnnAllGetWorkspaceSize(self.get(), dims.a, p.keepdim, out.get(), w, e)
                        : aclnnAnyGetWorkspaceSize(self.get(), dims.a, p.keepdim, out.get(), w, e);
        }, is_all ? aclnnAll : aclnnAny)) return;
    out.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      bool want = is_all;
      for (const Num& v : vals) want = is_all ? want && v.nonzero() : want || v.nonzero();
      const Num got = out.at(out_index(full, p.mask, p.keepdim));
      return got.i == (want ? 1 : 0) ? std::string() : "got " + num_str(got) + ", expected " + std::to_string(want);
    });
    if (HasFailure()) return;
  }
}

// ---- variance ---------------------------------------------------------------------------------------------

struct Moments {
  double mean, m2;
};

Moments moments(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  const double mean = x.empty() ? std::nan("") : s / static_cast<double>(x.size());
  double m2 = 0;
  for (double v : x) m2 += (v - mean) * (v - mean);
  return {mean, m2};
}

// 0: Var (unbiased flag), 1: VarCorrection, 2: VarMean, 3: Std, 4: StdMeanCorrection.
void run_var(Rng& rng, int form) {
  static const char* names[] = {"Var", "VarCorrection", "VarMean", "Std", "StdMeanCorrection"};
  const aclDataType t = kFloat3[rng() % 3];
  Problem p = random_problem(rng, t, false, true);
  const bool null_dims = p.dims.empty() && rng() % 2;
  const int64_t correction = form == 0 ? static_cast<int64_t>(rng() % 2) : static_cast<int64_t>(rng() % 4);
  const bool with_mean = form == 2 || form == 4, is_std = form >= 3;
  const TensorDesc od = out_view(rng, kFloat3[rng() % 3], p.out_shape), md = out_view(rng, t, p.out_shape);
  const std::string r = repro(names[form], p,
                              " correction=" + std::to_string(correction) + (null_dims ? " dim=null" : "") +
                                  (with_mean ? " meanOut=" + md.str() : ""),
                              od);
  Tensor self(p.self), out(od), mean(md);
  fill(self, rng, 0.03);
  IntArray dims(p.dims);
  aclIntArray* d = null_dims ? nullptr : dims.a;
  if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
        switch (form) {
          case 0: return aclnnVarGetWorkspaceSize(self.get(), d, correction == 1, p.keepdim, out.get(), w, e);
          case 1: return aclnnVarCorrectionGetWorkspaceSize(self.get(), d, correction, p.keepdim, out.get(), w, e);
          case 2: return aclnnVarMeanGetWorkspaceSize(self.get(), d, correction, p.keepdim, out.get(), mean.get(), w, e);
          case 3: return aclnnStdGetWorkspaceSize(self.get(), d, correction, p.keepdim, out.get(), w, e);
          default:
            return aclnnStdMeanCorrectionGetWorkspaceSize(self.get(), d, correction, p.keepdim, out.get(), mean.get(), w, e);
        }
      }, form == 0 ? aclnnVar : form == 1 ? aclnnVarCorrection : form == 2 ? aclnnVarMean : form == 3 ? aclnnStd
                                                                                                       : aclnnStdMeanCorrection))
    return;
  out.download();
  mean.download();
  check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
    const Shape o = out_index(full, p.mask, p.keepdim);
    const std::vector<double> x = as_doubles(vals, t);
    const Moments m = moments(x);
    double var = m.m2 / std::max(0.0, static_cast<double>(x.size()) - static_cast<double>(correction));
    if (x.empty()) var = std::nan("");
    // The variance is computed in double, then rounded to self's dtype, then converted to out's.
    const double want = cast(Num::real(is_std ? std::sqrt(var) : var), t).f;
    const double scale = x.empty() ? 0 : (m.m2 + m.mean * m.mean) * 1e-9;
    if (!close(od.dtype, want, out.at(o).f, scale + ulp_at(t, want))) return (is_std ? "std " : "var ") + mismatch(out.at(o), want);
    if (with_mean && !close(t, m.mean, mean.at(o).f, std::fabs(m.mean) * 1e-9))
      return "mean " + mismatch(mean.at(o), m.mean);
    return std::string();
  });
}

TEST(Var, AllForms) {
  Rng rng(28);
  for (int iter = 0; iter < 150; ++iter) {
    run_var(rng, iter % 5);
    if (HasFailure()) return;
  }
}

// Large offsets: a naive sum-of-squares formula would lose every digit here.
TEST(Var, StableForLargeMeans) {
  const int64_t n = 5000;
  Tensor self(TensorDesc(ACL_FLOAT, {2, n})), out(TensorDesc(ACL_FLOAT, {2})), outc(TensorDesc(ACL_FLOAT, {n}));
  for (int64_t k = 0; k < n; ++k) {
    self.set({0, k}, Num::real(1e6 + static_cast<double>(k % 2)));
    self.set({1, k}, Num::real(-3e5 + static_cast<double>(k % 4)));
  }
  self.upload();
  IntArray last({1});
  ASSERT_TRUE(ran("Var stable", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnVarCorrectionGetWorkspaceSize(self.get(), last.a, 0, false, out.get(), w, e);
  }, aclnnVarCorrection));
  out.download();
  EXPECT_NEAR(out.at({0}).f, 0.25, 1e-6);
  EXPECT_NEAR(out.at({1}).f, 1.25, 1e-6);
}

// Ramps over long rows: blocks (and chunks of a split reduction) with different means are merged.
TEST(Var, LongRowsMergeBlocksAndChunks) {
  for (int64_t n : {int64_t{3000}, int64_t{140000}}) {
    Tensor self(TensorDesc(ACL_FLOAT, {n})), var(TensorDesc(ACL_FLOAT, {})), mean(TensorDesc(ACL_FLOAT, {}));
    for (int64_t k = 0; k < n; ++k) self.set({k}, Num::real(static_cast<double>(k) / 1024));
    self.upload();
    ASSERT_TRUE(ran("VarMean ramp", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnVarMeanGetWorkspaceSize(self.get(), nullptr, 0, false, var.get(), mean.get(), w, e);
    }, aclnnVarMean));
    var.download();
    mean.download();
    const double nd = static_cast<double>(n), want = (nd * nd - 1) / 12 / 1024 / 1024;
    EXPECT_TRUE(close(ACL_FLOAT, want, var.at({}).f, 0)) << n << ": " << var.at({}).f << " vs " << want;
    EXPECT_TRUE(close(ACL_FLOAT, (nd - 1) / 2 / 1024, mean.at({}).f, 0)) << n << ": " << mean.at({}).f;
  }
}

TEST(BatchNormStats, PerChannelMeanAndInvstd) {
  Rng rng(29);
  for (int iter = 0; iter < 30; ++iter) {
    const aclDataType t = kFloat3[static_cast<size_t>(iter) % 3];
    Shape s = random_shape(rng, 3, 4, false);
    s.insert(s.begin(), {1 + static_cast<int64_t>(rng() % 3), 1 + static_cast<int64_t>(rng() % 4)});
    if (iter == 7) s[0] = 0;  // an empty batch: mean 0, invstd NaN
    const double eps = iter % 2 ? 1e-5 : 0.1;
    Problem p;
    p.self = random_view(rng, t, s);
    p.mask.assign(s.size(), true);
    p.mask[1] = false;
    p.out_shape = {s[1]};
    const std::string r = repro("BatchNormStats", p, " eps=" + std::to_string(eps), TensorDesc(ACL_FLOAT, p.out_shape));
    Tensor self(p.self), mean(TensorDesc(ACL_FLOAT, p.out_shape)), invstd(TensorDesc(ACL_FLOAT, p.out_shape));
    fill(self, rng, 0);
    if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnBatchNormStatsGetWorkspaceSize(self.get(), eps, mean.get(), invstd.get(), w, e);
        }, aclnnBatchNormStats)) return;
    mean.download();
    invstd.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      const Shape o{full[1]};
      const Moments m = moments(as_doubles(vals, t));
      if (vals.empty()) return mean.at(o).f == 0 && std::isnan(invstd.at(o).f) ? std::string() : "empty batch";
      const double want = 1.0 / std::sqrt(m.m2 / static_cast<double>(vals.size()) + eps);
      if (!close(ACL_FLOAT, m.mean, mean.at(o).f, 1e-9 * (std::fabs(m.mean) + 1))) return "mean " + mismatch(mean.at(o), m.mean);
      if (!close(ACL_FLOAT, want, invstd.at(o).f, 1e-7 * want)) return "invstd " + mismatch(invstd.at(o), want);
      return std::string();
    });
    if (HasFailure()) return;
  }
}

// ---- log-sum-exp and norms ----------------------------------------------------------------------------

double logsumexp_ref(const std::vector<double>& x) {
  double m = -HUGE_VAL;
  bool pinf = false;
  for (double v : x) {
    if (std::isnan(v)) return v;
    if (v == HUGE_VAL) pinf = true;
    m = std::max(m, v);
  }
  if (pinf) return HUGE_VAL;
  if (m == -HUGE_VAL) return m;
  double s = 0;
  for (double v : x) s += std::exp(v - m);
  return m + std::log(s);
}

TEST(LogSumExp, StableAndPyTorchSpecialValues) {
  Rng rng(30);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64,
                                          ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_BOOL};
  for (int iter = 0; iter < 100; ++iter) {
    const aclDataType st = types[static_cast<size_t>(iter) % types.size()];
    const aclDataType ot = kFloat3[rng() % 3];
    Problem p = random_problem(rng, st, false, true);
    const TensorDesc od = out_view(rng, ot, p.out_shape);
    const std::string r = repro("LogSumExp", p, "", od);
    Tensor self(p.self), out(od);
    fill(self, rng, 0.05);
    IntArray dims(p.dims);
    if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnLogSumExpGetWorkspaceSize(self.get(), dims.a, p.keepdim, out.get(), w, e);
        }, aclnnLogSumExp)) return;
    out.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      const double want = logsumexp_ref(as_doubles(vals, ACL_FLOAT));
      const Num got = out.at(out_index(full, p.mask, p.keepdim));
      return close(ot, want, got.f, 1e-5 * (std::fabs(want) + 1)) ? std::string() : mismatch(got, want);
    });
    if (HasFailure()) return;
  }
}

double norm_ref(const std::vector<double>& x, double p) {
  if (x.empty()) return 0;
  double a = p == -HUGE_VAL ? HUGE_VAL : 0;
  for (double v : x) {
    const double m = std::fabs(v);
    if (std::isnan(m) && p != 0) return m;  // p = 0 counts a NaN as nonzero (PyTorch)
    if (p == HUGE_VAL) a = std::max(a, m);
    else if (p == -HUGE_VAL) a = std::min(a, m);
    else if (p == 0) a += (m != 0 || std::isnan(m)) ? 1 : 0;
    else a += std::pow(m, p);
  }
  if (p == 0 || std::isinf(p)) return a;
  return std::pow(a, 1 / p);
}

TEST(Norm, NormAndLinalgVectorNorm) {
  Rng rng(31);
  const double ps[] = {0, 1, 2, 3, 0.5, -1, HUGE_VAL, -HUGE_VAL};
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType st = kFloat3[static_cast<size_t>(iter) % 3];
    const bool linalg = iter % 2 == 0;
    const double pv = ps[rng() % 8];
    const aclDataType dtype = linalg && rng() % 2 ? ACL_FLOAT : st;  // LinalgVectorNorm: self's dtype or float32
    const aclDataType ot = linalg ? dtype : kFloat3[rng() % 3];
    Problem p = random_problem(rng, st, false, true);
    const TensorDesc od = out_view(rng, ot, p.out_shape);
    const std::string r = repro(linalg ? "LinalgVectorNorm" : "Norm", p,
                                " p=" + std::to_string(pv) + (linalg ? std::string(" dtype=") + dtype_name(dtype) : ""), od);
    Tensor self(p.self), out(od);
    fill(self, rng, 0.03);
    IntArray dims(p.dims);
    const float pf = static_cast<float>(pv);
    aclScalar* ps_ = aclCreateScalar(const_cast<float*>(&pf), ACL_FLOAT);
    const bool ok = ran(r, [&](uint64_t* w, aclOpExecutor** e) {
      return linalg ? aclnnLinalgVectorNormGetWorkspaceSize(self.get(), ps_, dims.a, p.keepdim, dtype, out.get(), w, e)
                    : aclnnNormGetWorkspaceSize(self.get(), ps_, dims.a, p.keepdim, out.get(), w, e);
    }, linalg ? aclnnLinalgVectorNorm : aclnnNorm);
    aclDestroyScalar(ps_);
    if (!ok) return;
    out.download();
    const aclDataType compute = linalg ? dtype : st;
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      const double want = cast(Num::real(norm_ref(as_doubles(vals, compute), pv)), compute).f;
      const Num got = out.at(out_index(full, p.mask, p.keepdim));
      return close(ot, want, got.f, 1e-5 * std::fabs(want) + ulp_at(compute, want)) ? std::string() : mismatch(got, want);
    });
    if (HasFailure()) return;
  }
}

// One long row reduced by every kind of reducer: the split path merges their partial states.
TEST(ReduceStats, SplitReductionsOfEveryKind) {
  Rng rng(32);
  const int64_t n = 140001;
  Tensor self(TensorDesc(ACL_FLOAT, {n})), out(TensorDesc(ACL_FLOAT, {})), bout(TensorDesc(ACL_BOOL, {}));
  fill(self, rng, 0);
  self.set({n - 5}, Num::real(40));  // the max sits in the last chunk
  self.upload();
  std::vector<double> x;
  for (int64_t k = 0; k < n; ++k) x.push_back(self.at({k}).f);
  IntArray all({});
  auto check = [&](const char* what, const Phase1Fn& p1, Phase2Fn p2, double want, double rel) {
    ASSERT_TRUE(ran(what, p1, p2));
    out.download();
    EXPECT_TRUE(close(ACL_FLOAT, want, out.at({}).f, rel * std::fabs(want))) << what << ": " << out.at({}).f << " vs " << want;
  };
  check("LogSumExp", [&](uint64_t* w, aclOpExecutor** e) { return aclnnLogSumExpGetWorkspaceSize(self.get(), all.a, false, out.get(), w, e); },
        aclnnLogSumExp, logsumexp_ref(x), 1e-6);
  for (double pv : {2.0, 3.0, HUGE_VAL, -HUGE_VAL}) {
    const float pf = static_cast<float>(pv);
    aclScalar* ps = aclCreateScalar(const_cast<float*>(&pf), ACL_FLOAT);
    check("Norm", [&](uint64_t* w, aclOpExecutor** e) { return aclnnNormGetWorkspaceSize(self.get(), ps, all.a, false, out.get(), w, e); },
          aclnnNorm, norm_ref(x, pv), 1e-5);
    aclDestroyScalar(ps);
  }
  check("Max", [&](uint64_t* w, aclOpExecutor** e) { return aclnnMaxGetWorkspaceSize(self.get(), out.get(), w, e); },
        aclnnMax, 40, 0);
  ASSERT_TRUE(ran("All", [&](uint64_t* w, aclOpExecutor** e) { return aclnnAllGetWorkspaceSize(self.get(), all.a, false, bout.get(), w, e); },
                  aclnnAll));
  bout.download();
  bool want = true;
  for (double v : x) want = want && v != 0;
  EXPECT_EQ(bout.at({}).i, want ? 1 : 0);
}

// ---- bad arguments --------------------------------------------------------------------------------------

TEST(ReduceStats, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {2})), out_i(TensorDesc(ACL_INT32, {2}));
  Tensor iself(TensorDesc(ACL_INT32, {2, 3})), dself(TensorDesc(ACL_DOUBLE, {2, 3})), wrong(TensorDesc(ACL_FLOAT, {3}));
  IntArray d1({1}), rep({0, 0});
  float two = 2;
  aclScalar* p2 = aclCreateScalar(&two, ACL_FLOAT);
  expect_phase1_error("Var int self", ACLNN_ERR_PARAM_INVALID, "self dtype int32", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnVarGetWorkspaceSize(iself.get(), d1.a, true, false, out.get(), w, e);
  });
  expect_phase1_error("Var null out", ACLNN_ERR_PARAM_NULLPTR, "out", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnVarGetWorkspaceSize(self.get(), d1.a, true, false, nullptr, w, e);
  });
  expect_phase1_error("VarMean null mean", ACLNN_ERR_PARAM_NULLPTR, "meanOut", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnVarMeanGetWorkspaceSize(self.get(), d1.a, 1, false, out.get(), nullptr, w, e);
  });
  expect_phase1_error("Std shape", ACLNN_ERR_PARAM_INVALID, "out has shape [3]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnStdGetWorkspaceSize(self.get(), d1.a, 1, false, wrong.get(), w, e);
  });
  expect_phase1_error("StdMean repeated dims", ACLNN_ERR_PARAM_INVALID, "more than once", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnStdMeanCorrectionGetWorkspaceSize(self.get(), rep.a, 1, false, out.get(), out.get(), w, e);
  });
  expect_phase1_error("LogSumExp double", ACLNN_ERR_PARAM_INVALID, "self dtype float64", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnLogSumExpGetWorkspaceSize(dself.get(), d1.a, false, out.get(), w, e);
  });
  expect_phase1_error("LogSumExp int out", ACLNN_ERR_PARAM_INVALID, "out dtype int32", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnLogSumExpGetWorkspaceSize(self.get(), d1.a, false, out_i.get(), w, e);
  });
  expect_phase1_error("Norm null p", ACLNN_ERR_PARAM_NULLPTR, "pScalar", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnNormGetWorkspaceSize(self.get(), nullptr, d1.a, false, out.get(), w, e);
  });
  expect_phase1_error("LinalgVectorNorm dtype", ACLNN_ERR_PARAM_INVALID, "dtype argument", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnLinalgVectorNormGetWorkspaceSize(self.get(), p2, d1.a, false, ACL_FLOAT16, out.get(), w, e);
  });
  expect_phase1_error("Prod dtype cast", ACLNN_ERR_PARAM_INVALID, "cannot be cast", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnProdGetWorkspaceSize(self.get(), ACL_INT32, out_i.get(), w, e);
  });
  expect_phase1_error("Nansum dtype vs out", ACLNN_ERR_PARAM_INVALID, "dtype argument", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnReduceNansumGetWorkspaceSize(self.get(), d1.a, false, ACL_FLOAT16, out.get(), w, e);
  });
  expect_phase1_error("Any float out", ACLNN_ERR_PARAM_INVALID, "out dtype float32", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAnyGetWorkspaceSize(self.get(), d1.a, false, out.get(), w, e);
  });
  expect_phase1_error("Aminmax out dtype", ACLNN_ERR_PARAM_INVALID, "maxOut", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAminmaxDimGetWorkspaceSize(self.get(), 1, false, out.get(), out_i.get(), w, e);
  });
  Tensor bn(TensorDesc(ACL_FLOAT, {4})), bnm(TensorDesc(ACL_FLOAT, {4}));
  expect_phase1_error("BatchNormStats 1-d", ACLNN_ERR_PARAM_INVALID, "expected 2 to 8", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnBatchNormStatsGetWorkspaceSize(bn.get(), 1e-5, bnm.get(), bnm.get(), w, e);
  });
  aclDestroyScalar(p2);
}

}  // namespace
