// DequantSituQuant through the public C API. Reference: float32 loops on the host copies of the
// documented path (int8/int32 dequant, tanh(gate / beta) * beta * sigmoid(gate) * [tanh-limited] up,
// static s / quantScale + quantOffset or dynamic max|t| / 127 with 0 -> 1), truncated and
// saturated to int8.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_dequant_situ_quant.h"
#include "op_test_util.h"

namespace {

using namespace optest;

float fval(const Tensor& t, const Shape& i) { return static_cast<float>(t.at(i).as_double()); }
int64_t trunc8(double v) {
  if (std::isnan(v)) return 0;
  v = std::trunc(v);
  return v < -128 ? -128 : v > 127 ? 127 : static_cast<int64_t>(v);
}

TEST(QuantSitu, Sweep) {
  Rng rng(71);
  const aclDataType xts[] = {ACL_INT8, ACL_INT32, ACL_FLOAT16, ACL_BF16};
  for (int it = 0; it < 50; ++it) {
    const aclDataType xt = xts[rng() % 4];
    const bool is8 = xt == ACL_INT8, is32 = xt == ACL_INT32;
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 5), h = 1 + static_cast<int64_t>(rng() % 8);
    const bool dynamic = is32 || rng() % 2, left = rng() % 2;
    const bool has_bias = (is8 || is32) && rng() % 2, has_qs = !is32 && (!dynamic || rng() % 2);
    const bool has_qo = !dynamic && rng() % 2;
    const int64_t wn = rng() % 3 == 0 ? 1 : 2 * h, qn = rng() % 3 == 0 ? 1 : h;
    const float beta = rng() % 2 ? 4.0f : 1.5f, lb = rng() % 2 ? 25.0f : 0.0f;
    Tensor x(TensorDesc(xt, {rows, 2 * h})), ws(TensorDesc(ACL_FLOAT, {wn})), as(TensorDesc(ACL_FLOAT, {1}));
    Tensor bias(TensorDesc(ACL_FLOAT, {wn})), qs(TensorDesc(ACL_FLOAT, {qn})), qo(TensorDesc(ACL_FLOAT, {qn}));
    Tensor y(TensorDesc(ACL_INT8, {rows, h})), sc(TensorDesc(ACL_FLOAT, {rows}));
    FillOptions fo;
    fo.special = 0;
    fo.small_int = 0.8;
    x.fill_random(rng, fo);
    for (int64_t k = 0; k < wn; ++k) {
      ws.set({k}, Num::real(static_cast<double>(rng() % 64) / 32.0));
      bias.set({k}, Num::real(static_cast<double>(rng() % 16) / 4.0 - 2));
    }
    for (int64_t k = 0; k < qn; ++k) {
      qs.set({k}, Num::real(std::ldexp(1.0 + static_cast<double>(rng() % 16) / 16, static_cast<int>(rng() % 6) - 4)));
      qo.set({k}, Num::real(static_cast<double>(rng() % 9) - 4));
    }
    as.set({0}, Num::real(0.75));
    ws.upload();
    bias.upload();
    qs.upload();
    qo.upload();
    as.upload();
    char st_mode[] = "static", dy_mode[] = "dynamic";
    const std::string r = std::string("DequantSituQuant x=") + x.desc().str() + " weightScale=[" + std::to_string(wn) +
                          "] bias=" + (has_bias ? "yes" : "none") + " quantScale=" + (has_qs ? std::to_string(qn) : "none") +
                          " quantOffset=" + (has_qo ? "yes" : "none") + " beta=" + std::to_string(beta) +
                          " linearBeta=" + std::to_string(lb) + " mode=" + (dynamic ? "dynamic" : "static") +
                          " activateLeft=" + (left ? "1" : "0");
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnDequantSituQuantGetWorkspaceSize(
                    x.get(), (is8 || is32) ? ws.get() : nullptr, is32 ? as.get() : nullptr,
                    has_bias ? bias.get() : nullptr, has_qs ? qs.get() : nullptr, has_qo ? qo.get() : nullptr, nullptr,
                    beta, lb, left, dynamic ? dy_mode : st_mode, y.get(), sc.get(), w, e);
              }, aclnnDequantSituQuant),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    y.download();
    sc.download();
    int bad = 0;
    for (int64_t row = 0; row < rows && bad < 4; ++row) {
      std::vector<float> d(static_cast<size_t>(2 * h)), s(static_cast<size_t>(h));
      for (int64_t c = 0; c < 2 * h; ++c) {
        float v = fval(x, {row, c});
        if (is8 || is32) v *= fval(ws, {wn == 1 ? 0 : c});
        if (is32) v *= fval(as, {0});
        if (has_bias) v += fval(bias, {wn == 1 ? 0 : c});
        d[static_cast<size_t>(c)] = v;
      }
      for (int64_t j = 0; j < h; ++j) {
        const float g = d[static_cast<size_t>(left ? j : j + h)];
        float u = d[static_cast<size_t>(left ? j + h : j)];
        const float sa = std::tanh(g * (1.0f / beta)) * beta * (1.0f / (1.0f + std::exp(-g)));
        if (lb > 0) u = std::tanh(u * (1.0f / lb)) * lb;
        s[static_cast<size_t>(j)] = sa * u;
      }
      std::vector<int64_t> want(static_cast<size_t>(h));
      if (!dynamic) {
        for (int64_t j = 0; j < h; ++j) {
          float t = s[static_cast<size_t>(j)] / fval(qs, {qn == 1 ? 0 : j});
          if (has_qo) t += fval(qo, {qn == 1 ? 0 : j});
          want[static_cast<size_t>(j)] = trunc8(t);
        }
      } else {
        float mx = 0;
        for (int64_t j = 0; j < h; ++j) {
          if (has_qs) s[static_cast<size_t>(j)] *= fval(qs, {qn == 1 ? 0 : j});
          mx = std::isnan(s[static_cast<size_t>(j)]) || std::isnan(mx) ? NAN : std::max(mx, std::fabs(s[static_cast<size_t>(j)]));
        }
        float scale = mx / 127.0f;  // a NaN in the row (inf inputs) makes the scale NaN
        if (scale == 0) scale = 1;
        if (fval(sc, {row}) != scale && !(std::isnan(scale) && std::isnan(fval(sc, {row})))) {
          ADD_FAILURE() << r << ": yScaleOut[" << row << "] is " << fval(sc, {row}) << ", expected " << scale;
          ++bad;
        }
        for (int64_t j = 0; j < h; ++j) want[static_cast<size_t>(j)] = trunc8(s[static_cast<size_t>(j)] * (1.0f / scale));
      }
      for (int64_t j = 0; j < h; ++j)
        if (y.at({row, j}).i != want[static_cast<size_t>(j)]) {
          ADD_FAILURE() << r << ": y at [" << row << "," << j << "] is " << y.at({row, j}).i << ", expected "
                        << want[static_cast<size_t>(j)];
          if (++bad >= 4) break;
        }
    }
  }
  Tensor x(TensorDesc(ACL_INT8, {2, 8})), x32(TensorDesc(ACL_INT32, {2, 8})), ws(TensorDesc(ACL_FLOAT, {8}));
  Tensor ws3(TensorDesc(ACL_FLOAT, {3})), as(TensorDesc(ACL_FLOAT, {1})), qs(TensorDesc(ACL_FLOAT, {4}));
  Tensor y(TensorDesc(ACL_INT8, {2, 4})), sc(TensorDesc(ACL_FLOAT, {2}));
  char st_mode[] = "static";
  aclTensor* yp = y.get();
  aclTensor* scp = sc.get();
  auto p1 = [yp, scp](aclTensor* xx, aclTensor* w, aclTensor* a, aclTensor* q, float beta, char* mode) {
    return [=](uint64_t* wsz, aclOpExecutor** e) {
      return aclnnDequantSituQuantGetWorkspaceSize(xx, w, a, nullptr, q, nullptr, nullptr, beta, 0.0f, true, mode,
                                                   yp, scp, wsz, e);
    };
  };
  expect_phase1_error("DequantSituQuant beta=0", ACLNN_ERR_PARAM_INVALID, "beta", p1(x.get(), ws.get(), nullptr, nullptr, 0.0f, nullptr));
  expect_phase1_error("DequantSituQuant int8 without weightScale", ACLNN_ERR_PARAM_INVALID, "weightScaleOptional", p1(x.get(), nullptr, nullptr, nullptr, 1.0f, nullptr));
  expect_phase1_error("DequantSituQuant weightScale=[3]", ACLNN_ERR_PARAM_INVALID, "weightScaleOptional", p1(x.get(), ws3.get(), nullptr, nullptr, 1.0f, nullptr));
  expect_phase1_error("DequantSituQuant int32 without activationScale", ACLNN_ERR_PARAM_INVALID, "activationScaleOptional", p1(x32.get(), ws.get(), nullptr, nullptr, 1.0f, nullptr));
  expect_phase1_error("DequantSituQuant int32 with quantScale", ACLNN_ERR_PARAM_INVALID, "quantScaleOptional", p1(x32.get(), ws.get(), as.get(), qs.get(), 1.0f, nullptr));
  expect_phase1_error("DequantSituQuant static without quantScale", ACLNN_ERR_PARAM_INVALID, "quantScaleOptional", p1(x.get(), ws.get(), nullptr, nullptr, 1.0f, st_mode));
}

}  // namespace
