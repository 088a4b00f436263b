// SwigluGroupGrad through the public C API. Reference: double-precision loops over the host copies
// of the documented backward (sigmoid, silu, its derivative, clamp masks, row weight, groupIndex
// row cut-off, gradWeight row sums), compared within the output dtype's rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_swiglu_group_grad.h"
#include "op_test_util.h"

namespace {

using namespace optest;

double rnd(aclDataType t, double v) {
  if (t == ACL_FLOAT16) return half_value(half_bits(static_cast<float>(v)));
  if (t == ACL_BF16) return bf16_value(bf16_bits(static_cast<float>(v)));
  return static_cast<float>(v);
}
bool close(aclDataType t, double got, double want) {
  want = rnd(t, want);
  if (got == want || (std::isnan(got) && std::isnan(want))) return true;
  const double rel = t == ACL_FLOAT ? 1e-5 : t == ACL_FLOAT16 ? 2e-3 : 1.6e-2;
  return std::fabs(got - want) <= rel * std::fabs(want) + (t == ACL_FLOAT ? 1e-6 : 1e-3);
}

TEST(QuantSwigluGrad, Sweep) {
  Rng rng(41);
  const aclDataType f3[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int it = 0; it < 40; ++it) {
    const aclDataType dt = f3[rng() % 3];
    const int64_t t = static_cast<int64_t>(rng() % 6), h = 1 + static_cast<int64_t>(rng() % 7);
    const bool three = rng() % 2;
    const Shape gs = three ? Shape{1, t, h} : Shape{t, h};
    Shape xs = gs, ws = gs;
    xs.back() = 2 * h;
    ws.back() = 1;
    const bool has_w = rng() % 2, has_gw = has_w && rng() % 2, has_gi = rng() % 2;
    const float clamp = rng() % 2 ? 0.0f : 1.5f;
    Tensor gy(TensorDesc(dt, gs)), x(TensorDesc(dt, xs)), w(TensorDesc(ACL_FLOAT, ws)), yo(TensorDesc(dt, gs));
    Tensor gi(TensorDesc(ACL_INT64, {2})), gx(TensorDesc(dt, xs)), gw(TensorDesc(ACL_FLOAT, ws));
    FillOptions fo;
    fo.special = 0;
    fo.small_int = 0.6;
    gy.fill_random(rng, fo);
    x.fill_random(rng, fo);
    w.fill_random(rng, fo);
    yo.fill_random(rng, fo);
    const int64_t g0 = static_cast<int64_t>(rng() % (t + 1)), g1 = static_cast<int64_t>(rng() % (t + 1 - g0));
    gi.set({0}, Num::integer(g0));
    gi.set({1}, Num::integer(g1));
    gi.upload();
    const std::string r = std::string("SwigluGroupGrad gradY=") + gy.desc().str() + " weight=" + (has_w ? "yes" : "none") +
                          " gradWeight=" + (has_gw ? "yes" : "none") + " groupIndex=" +
                          (has_gi ? std::to_string(g0) + "," + std::to_string(g1) : "none") +
                          " clampLimit=" + std::to_string(clamp);
    ASSERT_EQ(run_two_phase([&](uint64_t* ws_, aclOpExecutor** e) {
                return aclnnSwigluGroupGradGetWorkspaceSize(gy.get(), x.get(), has_w ? w.get() : nullptr,
                                                            has_w ? yo.get() : nullptr, has_gi ? gi.get() : nullptr,
                                                            clamp, gx.get(), has_gw ? gw.get() : nullptr, ws_, e);
              }, aclnnSwigluGroupGrad),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    gx.download();
    gw.download();
    const int64_t trunc = has_gi ? g0 + g1 : t;
    int bad = 0;
    for (int64_t row = 0; row < t && bad < 4; ++row) {
      auto at = [&](const Tensor& tt, int64_t c) {
        return tt.at(three ? Shape{0, row, c} : Shape{row, c}).as_double();
      };
      double acc = 0;
      for (int64_t j = 0; j < h; ++j) acc += at(gy, j) * at(yo, j);
      if (has_gw) {
        const double got = at(gw, 0);
        if (std::fabs(got - acc) > 1e-4 * (std::fabs(acc) + 1)) {
          ADD_FAILURE() << r << ": gradWeight row " << row << " is " << got << ", expected " << acc;
          ++bad;
        }
      }
      for (int64_t j = 0; j < h; ++j) {
        double want0 = 0, want1 = 0;
        if (row < trunc) {
          const double x0 = at(x, j), x1 = at(x, h + j);
          const double a0 = clamp > 0 ? std::min<double>(x0, clamp) : x0;
          const double a1 = clamp > 0 ? std::min<double>(std::max<double>(x1, -clamp), clamp) : x1;
          const double g = at(gy, j) * (has_w ? at(w, 0) : 1.0);
          const double s = 1 / (1 + std::exp(-a0));
          want0 = g * a1 * s * (1 + a0 * (1 - s));
          want1 = g * a0 * s;
          if (clamp > 0 && !(x0 < clamp)) want0 = 0;
          if (clamp > 0 && !(-clamp < x1 && x1 < clamp)) want1 = 0;
        }
        const double got0 = at(gx, j), got1 = at(gx, h + j);
        if (!close(dt, got0, want0) || !close(dt, got1, want1)) {
          ADD_FAILURE() << r << ": gradX row " << row << " col " << j << " is " << got0 << "," << got1 << ", expected "
                        << want0 << "," << want1;
          if (++bad >= 4) break;
        }
      }
    }
  }
  Tensor gy(TensorDesc(ACL_FLOAT, {2, 3})), x(TensorDesc(ACL_FLOAT, {2, 6})), x5(TensorDesc(ACL_FLOAT, {2, 5}));
  Tensor w(TensorDesc(ACL_FLOAT, {2, 1})), gx(TensorDesc(ACL_FLOAT, {2, 6})), gx16(TensorDesc(ACL_FLOAT16, {2, 6}));
  Tensor gi32(TensorDesc(ACL_INT32, {2}));
  expect_phase1_error("SwigluGroupGrad x=[2,5]", ACLNN_ERR_PARAM_INVALID, "x has shape", [&](uint64_t* ws_, aclOpExecutor** e) {
    return aclnnSwigluGroupGradGetWorkspaceSize(gy.get(), x5.get(), nullptr, nullptr, nullptr, 0, gx.get(), nullptr, ws_, e);
  });
  expect_phase1_error("SwigluGroupGrad weight without yOrigin", ACLNN_ERR_PARAM_INVALID, "yOriginOptional", [&](uint64_t* ws_, aclOpExecutor** e) {
    return aclnnSwigluGroupGradGetWorkspaceSize(gy.get(), x.get(), w.get(), nullptr, nullptr, 0, gx.get(), nullptr, ws_, e);
  });
  expect_phase1_error("SwigluGroupGrad clampLimit=-1", ACLNN_ERR_PARAM_INVALID, "clampLimit", [&](uint64_t* ws_, aclOpExecutor** e) {
    return aclnnSwigluGroupGradGetWorkspaceSize(gy.get(), x.get(), nullptr, nullptr, nullptr, -1, gx.get(), nullptr, ws_, e);
  });
  expect_phase1_error("SwigluGroupGrad gradXOut=float16", ACLNN_ERR_PARAM_INVALID, "gradXOut", [&](uint64_t* ws_, aclOpExecutor** e) {
    return aclnnSwigluGroupGradGetWorkspaceSize(gy.get(), x.get(), nullptr, nullptr, nullptr, 0, gx16.get(), nullptr, ws_, e);
  });
  expect_phase1_error("SwigluGroupGrad groupIndex=int32", ACLNN_ERR_PARAM_INVALID, "groupIndexOptional", [&](uint64_t* ws_, aclOpExecutor** e) {
    return aclnnSwigluGroupGradGetWorkspaceSize(gy.get(), x.get(), nullptr, nullptr, gi32.get(), 0, gx.get(), nullptr, ws_, e);
  });
}

}  // namespace
