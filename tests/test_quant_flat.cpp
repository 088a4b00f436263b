// FlatQuant(V2, V3) per-token mode through the public C API. Reference: float32 loops on the host
// copies (x @ P2, then P1 @ ., row max |.| / (7 / clipRatio), rint to int4, nibbles unpacked by
// hand); V3 rows past the groupList total expect out 0 and quantScale 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_flat_quant.h"
#include "aclnnop/aclnn_flat_quant_v2.h"
#include "aclnnop/aclnn_flat_quant_v3.h"
#include "op_test_util.h"

namespace {

using namespace optest;

float fval(const Tensor& t, const Shape& i) { return static_cast<float>(t.at(i).as_double()); }

TEST(QuantFlat, Sweep) {
  Rng rng(51);
  for (int it = 0; it < 24; ++it) {
    const int ver = it % 3;
    const aclDataType dt = rng() % 2 ? ACL_FLOAT16 : ACL_BF16;
    const int64_t m = 1 + static_cast<int64_t>(rng() % 4), n1 = 1 + static_cast<int64_t>(rng() % 4),
                  n2 = 8 * (1 + static_cast<int64_t>(rng() % 2));
    const double clip = rng() % 2 ? 1.0 : 0.5;
    Tensor x(TensorDesc(dt, {m, n1, n2})), p1(TensorDesc(dt, {n1, n1})), p2(TensorDesc(dt, {n2, n2}));
    Tensor out(TensorDesc(ACL_INT32, {m, n1, n2 / 8})), qs(TensorDesc(ACL_FLOAT, {m}));
    const int64_t gtype = static_cast<int64_t>(rng() % 3);
    Tensor gl(TensorDesc(ACL_INT64, gtype == 2 ? Shape{2, 2} : Shape{2}));
    const int64_t a = static_cast<int64_t>(rng() % (m + 1)), bb = static_cast<int64_t>(rng() % (m + 1 - a));
    int64_t total = a + bb;
    if (gtype == 0) {
      gl.set({0}, Num::integer(a));
      gl.set({1}, Num::integer(a + bb));
    } else if (gtype == 1) {
      gl.set({0}, Num::integer(a));
      gl.set({1}, Num::integer(bb));
    } else {
      gl.set({0, 0}, Num::integer(0));
      gl.set({0, 1}, Num::integer(a));
      gl.set({1, 0}, Num::integer(1));
      gl.set({1, 1}, Num::integer(bb));
    }
    gl.upload();
    if (ver != 2) total = m;
    FillOptions fo;  // small values: no overflow in the two matmuls
    fo.special = 0;
    fo.small_int = 1.0;
    x.fill_random(rng, fo);
    p1.fill_random(rng, fo);
    p2.fill_random(rng, fo);
    const std::string r = "FlatQuant" + std::string(ver ? "V" + std::to_string(ver + 1) : "") + " x=" + x.desc().str() +
                          " clipRatio=" + std::to_string(clip) +
                          (ver == 2 ? " groupListType=" + std::to_string(gtype) + " total=" + std::to_string(total) : "");
    aclnnStatus st;
    if (ver == 0)
      st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
        return aclnnFlatQuantGetWorkspaceSize(x.get(), p1.get(), p2.get(), clip, out.get(), qs.get(), w, e);
      }, aclnnFlatQuant);
    else if (ver == 1)
      st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
        return aclnnFlatQuantV2GetWorkspaceSize(x.get(), p1.get(), p2.get(), clip, 0.0, out.get(), qs.get(), w, e);
      }, aclnnFlatQuantV2);
    else
      st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
        return aclnnFlatQuantV3GetWorkspaceSize(x.get(), p1.get(), p2.get(), gl.get(), clip, 0.0, gtype, out.get(),
                                                qs.get(), w, e);
      }, aclnnFlatQuantV3);
    ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    out.download();
    qs.download();
    int bad = 0;
    for (int64_t row = 0; row < m && bad < 4; ++row) {
      std::vector<float> t1(static_cast<size_t>(n1 * n2)), t2(t1.size());
      for (int64_t i = 0; i < n1; ++i)
        for (int64_t k = 0; k < n2; ++k) {
          float acc = 0;
          for (int64_t j = 0; j < n2; ++j) acc += fval(x, {row, i, j}) * fval(p2, {j, k});
          t1[static_cast<size_t>(i * n2 + k)] = acc;
        }
      float mx = 0;
      for (int64_t i = 0; i < n1; ++i)
        for (int64_t k = 0; k < n2; ++k) {
          float acc = 0;
          for (int64_t j = 0; j < n1; ++j) acc += fval(p1, {i, j}) * t1[static_cast<size_t>(j * n2 + k)];
          t2[static_cast<size_t>(i * n2 + k)] = acc;
          mx = std::max(mx, std::fabs(acc));
        }
      const bool live = row < total;
      const float s = live ? mx / static_cast<float>(7.0 / clip) : 0.0f;
      if (fval(qs, {row}) != s) {
        ADD_FAILURE() << r << ": quantScale[" << row << "] is " << fval(qs, {row}) << ", expected " << s;
        ++bad;
      }
      for (int64_t i = 0; i < n1; ++i)
        for (int64_t k = 0; k < n2; ++k) {
          double q = 0;
          if (live) {
            const double v = t2[static_cast<size_t>(i * n2 + k)] / s;
            q = std::isnan(v) ? 0 : std::min(7.0, std::max(-8.0, std::nearbyint(v)));
          }
          const uint32_t word = static_cast<uint32_t>(out.at({row, i, k / 8}).i);
          const uint32_t nib = (word >> (4 * (k % 8))) & 0xF;
          const int64_t got = nib >= 8 ? static_cast<int64_t>(nib) - 16 : nib;
          if (got != static_cast<int64_t>(q)) {
            ADD_FAILURE() << r << ": out[" << row << "," << i << "," << k << "] is " << got << ", expected " << q;
            if (++bad >= 4) break;
          }
        }
    }
  }
  Tensor x(TensorDesc(ACL_FLOAT16, {2, 2, 8})), p1(TensorDesc(ACL_FLOAT16, {2, 2})), p2(TensorDesc(ACL_FLOAT16, {8, 8}));
  Tensor p2b(TensorDesc(ACL_FLOAT16, {4, 4})), out(TensorDesc(ACL_INT32, {2, 2, 1})), qs(TensorDesc(ACL_FLOAT, {2}));
  expect_phase1_error("FlatQuant clipRatio=0", ACLNN_ERR_PARAM_INVALID, "clipRatio", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnFlatQuantGetWorkspaceSize(x.get(), p1.get(), p2.get(), 0.0, out.get(), qs.get(), w, e);
  });
  expect_phase1_error("FlatQuant kroneckerP2=[4,4]", ACLNN_ERR_PARAM_INVALID, "kroneckerP2", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnFlatQuantGetWorkspaceSize(x.get(), p1.get(), p2b.get(), 1.0, out.get(), qs.get(), w, e);
  });
}

}  // namespace
