// DequantSwigluQuant through the public C API. Reference: float32 loops on the host copies in the
// documented order (int32 dequant with weight/activation scales and int32 or floating bias, swish(A)
// * B, static x / quantScale + quantOffset or dynamic max|t| / 127), rint with int8 saturation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_dequant_swiglu_quant.h"
#include "op_test_util.h"

namespace {

using namespace optest;

float fval(const Tensor& t, const Shape& i) { return static_cast<float>(t.at(i).as_double()); }
int64_t sat(double v) {
  if (std::isnan(v)) return 0;
  v = std::nearbyint(v);
  return v < -128 ? -128 : v > 127 ? 127 : static_cast<int64_t>(v);
}

TEST(QuantDequantSwiglu, Sweep) {
  Rng rng(61);
  const aclDataType xts[] = {ACL_INT32, ACL_FLOAT16, ACL_BF16};
  const aclDataType bts[] = {ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int it = 0; it < 50; ++it) {
    const aclDataType xt = xts[rng() % 3];
    const bool is_int = xt == ACL_INT32;
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 5), h = 1 + static_cast<int64_t>(rng() % 8);
    const bool dynamic = rng() % 2, left = rng() % 2;
    const bool has_as = is_int && rng() % 2, has_bias = is_int && rng() % 2;
    const bool has_qs = rng() % 4 != 0, q_one = rng() % 3 == 0;
    const aclDataType bt = bts[rng() % 4];
    Tensor x(TensorDesc(xt, {rows, 2 * h})), ws(TensorDesc(ACL_FLOAT, {2 * h})), as(TensorDesc(ACL_FLOAT, {rows}));
    Tensor bias(TensorDesc(bt, {1, 2 * h})), qs(TensorDesc(ACL_FLOAT, {q_one ? 1 : h})), qo(TensorDesc(ACL_FLOAT, {q_one ? 1 : h}));
    Tensor y(TensorDesc(ACL_INT8, {rows, h})), sc(TensorDesc(ACL_FLOAT, {rows}));
    FillOptions fo;
    fo.special = 0;
    fo.small_int = 0.8;
    x.fill_random(rng, fo);
    ws.fill_random(rng, fo);
    as.fill_random(rng, fo);
    bias.fill_random(rng, fo);
    for (int64_t k = 0; k < qs.desc().shape[0]; ++k) {
      qs.set({k}, Num::real(std::ldexp(1.0 + static_cast<double>(rng() % 16) / 16, static_cast<int>(rng() % 6) - 3)));
      qo.set({k}, Num::real(static_cast<double>(rng() % 9) - 4));
    }
    qs.upload();
    qo.upload();
    char st_mode[] = "static", dy_mode[] = "dynamic";
    const std::string r = std::string("DequantSwigluQuant x=") + x.desc().str() + " activationScale=" + (has_as ? "yes" : "none") +
                          " bias=" + (has_bias ? bias.desc().str() : "none") + " quantScale=" + (has_qs ? qs.desc().str() : "none") +
                          " mode=" + (dynamic ? "dynamic" : "static") + " activateLeft=" + (left ? "1" : "0");
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnDequantSwigluQuantGetWorkspaceSize(
                    x.get(), is_int ? ws.get() : nullptr, has_as ? as.get() : nullptr, has_bias ? bias.get() : nullptr,
                    has_qs ? qs.get() : nullptr, has_qs ? qo.get() : nullptr, nullptr, left, dynamic ? dy_mode : st_mode,
                    y.get(), sc.get(), w, e);
              }, aclnnDequantSwigluQuant),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    y.download();
    sc.download();
    int bad = 0;
    for (int64_t row = 0; row < rows && bad < 4; ++row) {
      std::vector<float> d(static_cast<size_t>(2 * h)), s(static_cast<size_t>(h));
      for (int64_t c = 0; c < 2 * h; ++c) {
        if (!is_int) {
          d[static_cast<size_t>(c)] = fval(x, {row, c});
          continue;
        }
        int64_t v = x.at({row, c}).i;
        if (has_bias && bt == ACL_INT32) v = wrap_int(static_cast<uint64_t>(v + bias.at({0, c}).i), ACL_INT32);
        float f = static_cast<float>(v) * fval(ws, {c});
        if (has_as) f *= fval(as, {row});
        if (has_bias && bt != ACL_INT32) f += fval(bias, {0, c});
        d[static_cast<size_t>(c)] = f;
      }
      for (int64_t j = 0; j < h; ++j) {
        const float av = d[static_cast<size_t>(left ? j : j + h)], bv = d[static_cast<size_t>(left ? j + h : j)];
        s[static_cast<size_t>(j)] = av / (1.0f + std::exp(-av)) * bv;
      }
      auto qv = [&](const Tensor& t, int64_t j) { return fval(t, {q_one ? 0 : j}); };
      std::vector<int64_t> want(static_cast<size_t>(h));
      if (!dynamic) {
        for (int64_t j = 0; j < h; ++j) {
          float t = s[static_cast<size_t>(j)];
          if (has_qs) t = (q_one && h != 1 ? t * (1.0f / qv(qs, j)) : t / qv(qs, j)) + qv(qo, j);
          want[static_cast<size_t>(j)] = sat(t);
        }
      } else {
        float mx = 0;
        for (int64_t j = 0; j < h; ++j) {
          if (has_qs) s[static_cast<size_t>(j)] *= qv(qs, j);
          mx = std::max(mx, std::fabs(s[static_cast<size_t>(j)]));
        }
        const float scale = mx / 127.0f;
        if (fval(sc, {row}) != scale && !(std::isnan(scale) && std::isnan(fval(sc, {row})))) {
          ADD_FAILURE() << r << ": scaleOut[" << row << "] is " << fval(sc, {row}) << ", expected " << scale;
          ++bad;
        }
        for (int64_t j = 0; j < h; ++j) want[static_cast<size_t>(j)] = sat(s[static_cast<size_t>(j)] * (1.0f / scale));
      }
      for (int64_t j = 0; j < h; ++j)
        if (y.at({row, j}).i != want[static_cast<size_t>(j)]) {
          ADD_FAILURE() << r << ": y at [" << row << "," << j << "] is " << y.at({row, j}).i << ", expected "
                        << want[static_cast<size_t>(j)];
          if (++bad >= 4) break;
        }
    }
  }
  Tensor x(TensorDesc(ACL_INT32, {2, 8})), xh(TensorDesc(ACL_FLOAT16, {2, 8})), ws(TensorDesc(ACL_FLOAT, {8}));
  Tensor ws4(TensorDesc(ACL_FLOAT, {4})), y(TensorDesc(ACL_INT8, {2, 4})), sc(TensorDesc(ACL_FLOAT, {2}));
  Tensor gi(TensorDesc(ACL_INT64, {1}));
  char st_mode[] = "static", bad_mode[] = "fuzzy";
  expect_phase1_error("DequantSwigluQuant int32 x without weightScale", ACLNN_ERR_PARAM_INVALID, "weightScaleOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDequantSwigluQuantGetWorkspaceSize(x.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, false, st_mode, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("DequantSwigluQuant weightScale=[4]", ACLNN_ERR_PARAM_INVALID, "weightScaleOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDequantSwigluQuantGetWorkspaceSize(x.get(), ws4.get(), nullptr, nullptr, nullptr, nullptr, nullptr, false, st_mode, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("DequantSwigluQuant float16 x with weightScale", ACLNN_ERR_PARAM_INVALID, "weightScaleOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDequantSwigluQuantGetWorkspaceSize(xh.get(), ws.get(), nullptr, nullptr, nullptr, nullptr, nullptr, false, st_mode, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("DequantSwigluQuant mode=fuzzy", ACLNN_ERR_PARAM_INVALID, "quantModeOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDequantSwigluQuantGetWorkspaceSize(xh.get(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, false, bad_mode, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("DequantSwigluQuant groupIndex", ACLNN_ERR_PARAM_INVALID, "groupIndexOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDequantSwigluQuantGetWorkspaceSize(xh.get(), nullptr, nullptr, nullptr, nullptr, nullptr, gi.get(), false, st_mode, y.get(), sc.get(), w, e);
  });
}

}  // namespace
