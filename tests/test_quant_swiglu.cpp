// SwiGluQuant(V2) and DynamicBlockQuant(V2) through the public C API. References: float32 loops on
// the host copies in the documented order (swish(A) * B, * smooth [+ offset], 127 / row max;
// block max / 127 capped by 1 / minScale), rint with saturation, NaN -> 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_dynamic_block_quant.h"
#include "aclnnop/aclnn_dynamic_block_quant_v2.h"
#include "aclnnop/aclnn_swi_glu_quant.h"
#include "aclnnop/aclnn_swi_glu_quant_v2.h"
#include "op_test_util.h"

namespace {

using namespace optest;

float fval(const Tensor& t, const Shape& i) { return static_cast<float>(t.at(i).as_double()); }
int64_t sat(double v) {
  if (std::isnan(v)) return 0;
  v = std::nearbyint(v);
  return v < -128 ? -128 : v > 127 ? 127 : static_cast<int64_t>(v);
}
bool same_f(float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); }

TEST(QuantSwiglu, SwiGluQuantSweep) {
  Rng rng(31);
  const aclDataType f3[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int it = 0; it < 60; ++it) {
    const bool v2 = it % 2;
    const aclDataType xt = f3[rng() % 3];
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 7), n = 1 + static_cast<int64_t>(rng() % 9);
    const Shape xs = rng() % 2 ? Shape{rows, 2 * n} : Shape{1, rows, 2 * n};
    const bool has_group = !v2 || rng() % 2;
    const int64_t groups = has_group ? 1 + static_cast<int64_t>(rng() % 3) : 1;
    const bool count_mode = v2 && rng() % 2;
    const bool is_static = rng() % 3 == 0;
    const bool per_channel = rng() % 2;
    const bool left = rng() % 2;
    const bool has_smooth = is_static || !v2 || rng() % 4 != 0;
    const Shape ps = per_channel ? Shape{groups, n} : Shape{groups};
    Tensor x(TensorDesc(xt, xs)), sm(TensorDesc(ACL_FLOAT, ps)), of(TensorDesc(ACL_FLOAT, ps));
    Tensor gi(TensorDesc(ACL_INT32, {groups}));
    Shape ys = xs;
    ys.back() = n;
    const Shape rs(xs.begin(), xs.end() - 1);
    Tensor y(TensorDesc(ACL_INT8, ys)), sc(TensorDesc(ACL_FLOAT, rs));
    // group ends (cumulative); the last may stop short of the rows: later rows use no smooth
    std::vector<int64_t> ends(static_cast<size_t>(groups));
    for (auto& e : ends) e = static_cast<int64_t>(rng() % (rows + 1));
    std::sort(ends.begin(), ends.end());
    if (rng() % 2) ends.back() = rows;
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t v = count_mode ? ends[static_cast<size_t>(g)] - (g ? ends[static_cast<size_t>(g - 1)] : 0)
                                   : ends[static_cast<size_t>(g)];
      gi.set({g}, Num::integer(v));
    }
    gi.upload();
    FillOptions fo;
    fo.special = 0.02;
    x.fill_random(rng, fo);
    FillOptions so;
    so.special = 0;
    sm.fill_random(rng, so);
    of.fill_random(rng, so);
    sc.fill(Num::real(-7.0));
    char mode_static[] = "static";
    char mode_dynamic[] = "dynamic";
    char* mode = is_static ? mode_static : (rng() % 2 ? mode_dynamic : nullptr);
    const std::string r = std::string(v2 ? "SwiGluQuantV2" : "SwiGluQuant") + " x=" + x.desc().str() +
                          " smooth=" + (has_smooth ? sm.desc().str() : "none") + " groupIndex=" +
                          (has_group ? gi.desc().str() : "none") + (count_mode ? " count" : " cumsum") +
                          " activateLeft=" + (left ? "1" : "0") + " mode=" + (mode ? mode : "null");
    aclTensor* smp = has_smooth ? sm.get() : nullptr;
    aclTensor* ofp = is_static ? of.get() : nullptr;
    aclTensor* gip = has_group ? gi.get() : nullptr;
    const aclnnStatus st =
        v2 ? run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
               return aclnnSwiGluQuantV2GetWorkspaceSize(x.get(), smp, ofp, gip, left, mode, count_mode ? 1 : 0, 2,
                                                         y.get(), sc.get(), w, e);
             }, aclnnSwiGluQuantV2)
           : run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
               return aclnnSwiGluQuantGetWorkspaceSize(x.get(), smp, ofp, gip, left, mode, y.get(), sc.get(), w, e);
             }, aclnnSwiGluQuant);
    ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    y.download();
    sc.download();
    int bad = 0;
    for (int64_t row = 0; row < rows && bad < 4; ++row) {
      Shape base = xs.size() == 3 ? Shape{0, row, 0} : Shape{row, 0};
      int64_t g = 0;
      if (has_group)
        while (g < groups && ends[static_cast<size_t>(g)] < row + 1) ++g;
      std::vector<float> t(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j) {
        Shape ia = base, ib = base;
        ia.back() = left ? j : j + n;
        ib.back() = left ? j + n : j;
        const float av = fval(x, ia), bv = fval(x, ib);
        float v = av / (1.0f + std::exp(-av)) * bv;
        if (has_smooth && g < groups) {
          v *= per_channel ? fval(sm, {g, j}) : fval(sm, {g});
          if (is_static) v += per_channel ? fval(of, {g, j}) : fval(of, {g});
        }
        t[static_cast<size_t>(j)] = v;
      }
      float q = 1.0f;
      Shape ri(base.begin(), base.end() - 1);
      if (!is_static) {
        float m = 0;
        bool nan = false;
        for (float v : t) {
          m = std::max(m, std::fabs(v));
          nan = nan || std::isnan(v);
        }
        q = nan ? NAN : 127.0f / m;
        if (!same_f(fval(sc, ri), q)) {
          ADD_FAILURE() << r << ": scaleOut row " << row << " is " << fval(sc, ri) << ", expected " << q;
          ++bad;
        }
      } else if (fval(sc, ri) != -7.0f) {
        ADD_FAILURE() << r << ": static mode wrote scaleOut row " << row;
        ++bad;
      }
      for (int64_t j = 0; j < n; ++j) {
        Shape i = base;
        i.back() = j;
        const int64_t want = sat(is_static ? t[static_cast<size_t>(j)] : t[static_cast<size_t>(j)] * q);
        if (y.at(i).i != want) {
          ADD_FAILURE() << r << ": y at [" << shape_str(i) << "] is " << y.at(i).i << ", expected " << want;
          if (++bad >= 4) break;
        }
      }
    }
  }
  Tensor x(TensorDesc(ACL_FLOAT, {2, 6})), xo(TensorDesc(ACL_FLOAT, {2, 5})), sm(TensorDesc(ACL_FLOAT, {1, 3}));
  Tensor sm4(TensorDesc(ACL_FLOAT, {1, 4})), y(TensorDesc(ACL_INT8, {2, 3})), sc(TensorDesc(ACL_FLOAT, {2}));
  char bad_mode[] = "banana";
  expect_phase1_error("SwiGluQuant x last dim odd", ACLNN_ERR_PARAM_INVALID, "x has shape", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnSwiGluQuantGetWorkspaceSize(xo.get(), sm.get(), nullptr, nullptr, false, nullptr, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("SwiGluQuant smooth=[1,4]", ACLNN_ERR_PARAM_INVALID, "smoothScalesOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnSwiGluQuantGetWorkspaceSize(x.get(), sm4.get(), nullptr, nullptr, false, nullptr, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("SwiGluQuant mode=banana", ACLNN_ERR_PARAM_INVALID, "quantModeOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnSwiGluQuantGetWorkspaceSize(x.get(), sm.get(), nullptr, nullptr, false, bad_mode, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("SwiGluQuantV2 groupListType=2", ACLNN_ERR_PARAM_INVALID, "groupListType", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnSwiGluQuantV2GetWorkspaceSize(x.get(), sm.get(), nullptr, nullptr, false, nullptr, 2, 2, y.get(), sc.get(), w, e);
  });
}

TEST(QuantSwiglu, DynamicBlockQuantSweep) {
  Rng rng(32);
  const aclDataType f3[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  const int64_t rbs[] = {1, 64}, cbs[] = {1, 64, 128};
  for (int it = 0; it < 24; ++it) {
    const bool v2 = it % 2;
    const aclDataType xt = f3[rng() % 3];
    const int64_t rb = rbs[rng() % 2], cb = cbs[rng() % 3];
    const int64_t m = 1 + static_cast<int64_t>(rng() % 70), n = 1 + static_cast<int64_t>(rng() % 140);
    const bool three = rng() % 2;
    const int64_t bsz = three ? 1 + static_cast<int64_t>(rng() % 2) : 1;
    const Shape xs = three ? Shape{bsz, m, n} : Shape{m, n};
    const int64_t mb = (m + rb - 1) / rb, nb = (n + cb - 1) / cb;
    const Shape ss = three ? Shape{bsz, mb, nb} : Shape{mb, nb};
    const double min_scale = rng() % 2 ? 0.0 : 50.0;
    Tensor x(TensorDesc(xt, xs)), y(TensorDesc(ACL_INT8, xs)), sc(TensorDesc(ACL_FLOAT, ss));
    FillOptions fo;
    fo.special = 0.001;
    x.fill_random(rng, fo);
    char rint[] = "rint";
    const std::string r = std::string(v2 ? "DynamicBlockQuantV2" : "DynamicBlockQuant") + " x=" + x.desc().str() +
                          " rowBlockSize=" + std::to_string(rb) + " colBlockSize=" + std::to_string(cb) +
                          " minScale=" + std::to_string(min_scale);
    const aclnnStatus st =
        v2 ? run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
               return aclnnDynamicBlockQuantV2GetWorkspaceSize(x.get(), min_scale, rint, 2, rb, cb, 0.0, y.get(), sc.get(), w, e);
             }, aclnnDynamicBlockQuantV2)
           : run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
               return aclnnDynamicBlockQuantGetWorkspaceSize(x.get(), min_scale, nullptr, 2, rb, cb, y.get(), sc.get(), w, e);
             }, aclnnDynamicBlockQuant);
    ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    y.download();
    sc.download();
    int bad = 0;
    for_each_index(ss, [&](const Shape& bi) {
      if (bad > 3) return;
      const int64_t bt = three ? bi[0] : 0, i = bi[bi.size() - 2], j = bi.back();
      auto xi = [&](int64_t rr, int64_t cc) { return three ? Shape{bt, rr, cc} : Shape{rr, cc}; };
      float mx = 0;
      bool nan = false;
      for (int64_t rr = i * rb; rr < std::min(m, (i + 1) * rb); ++rr)
        for (int64_t cc = j * cb; cc < std::min(n, (j + 1) * cb); ++cc) {
          const float v = std::fabs(fval(x, xi(rr, cc)));
          nan = nan || std::isnan(v);
          mx = std::max(mx, v);
        }
      const float s = nan ? NAN : std::min(mx / 127.0f, static_cast<float>(1.0 / min_scale));
      if (!same_f(fval(sc, bi), s)) {
        ADD_FAILURE() << r << ": scaleOut at [" << shape_str(bi) << "] is " << fval(sc, bi) << ", expected " << s;
        ++bad;
      }
      for (int64_t rr = i * rb; rr < std::min(m, (i + 1) * rb) && bad < 4; ++rr)
        for (int64_t cc = j * cb; cc < std::min(n, (j + 1) * cb); ++cc) {
          const int64_t want = sat(fval(x, xi(rr, cc)) / s);
          if (y.at(xi(rr, cc)).i != want) {
            ADD_FAILURE() << r << ": y at [" << rr << "," << cc << "] is " << y.at(xi(rr, cc)).i << ", expected " << want;
            ++bad;
            break;
          }
        }
    });
  }
  Tensor x(TensorDesc(ACL_FLOAT, {4, 2})), y(TensorDesc(ACL_INT8, {4, 2})), sc(TensorDesc(ACL_FLOAT, {4, 1}));
  Tensor sc2(TensorDesc(ACL_FLOAT, {2, 1}));
  expect_phase1_error("DynamicBlockQuant rowBlockSize=3", ACLNN_ERR_PARAM_INVALID, "rowBlockSize", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicBlockQuantGetWorkspaceSize(x.get(), 0, nullptr, 2, 3, 128, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("DynamicBlockQuant scaleOut=[2,1]", ACLNN_ERR_PARAM_INVALID, "scaleOut", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicBlockQuantGetWorkspaceSize(x.get(), 0, nullptr, 2, 1, 128, y.get(), sc2.get(), w, e);
  });
  expect_phase1_error("DynamicBlockQuant minScale=-1", ACLNN_ERR_PARAM_INVALID, "minScale", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicBlockQuantGetWorkspaceSize(x.get(), -1, nullptr, 2, 1, 128, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("DynamicBlockQuant dstType=3", ACLNN_ERR_PARAM_INVALID, "dstType", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicBlockQuantGetWorkspaceSize(x.get(), 0, nullptr, 3, 1, 128, y.get(), sc.get(), w, e);
  });
}

}  // namespace
