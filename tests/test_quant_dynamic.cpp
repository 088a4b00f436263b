// DynamicQuant(V2), GroupQuant, DequantBias and FakeQuantPer{Tensor,Channel}AffineCachemask through
// the public C API. References: plain float32 loops over the host copies in the documented order
// (row max of |x * smooth|, inv = dtypeMax / max, y = rint(x * inv); asymmetric scale/offset from
// row max/min), rounding with std::nearbyint (ties to even), saturation, NaN -> 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_dequant_bias.h"
#include "aclnnop/aclnn_dynamic_quant.h"
#include "aclnnop/aclnn_dynamic_quant_v2.h"
#include "aclnnop/aclnn_fake_quant_per_channel_affine_cachemask.h"
#include "aclnnop/aclnn_fake_quant_per_tensor_affine_cachemask.h"
#include "aclnnop/aclnn_group_quant.h"
#include "op_test_util.h"

namespace {

using namespace optest;

float fval(const Tensor& t, const Shape& i) { return static_cast<float>(t.at(i).as_double()); }
int64_t sat(double v, int64_t lo, int64_t hi) {
  if (std::isnan(v)) return 0;
  v = std::nearbyint(v);
  return v < lo ? lo : v > hi ? hi : static_cast<int64_t>(v);
}
// Quantized value at x index i of y (int8, or int32 packing 8 nibbles along the last dim).
int64_t y_value(const Tensor& y, const Shape& i, bool packed) {
  if (!packed) return y.at(i).i;
  Shape w = i;
  w.back() /= 8;
  const uint32_t nib = (static_cast<uint32_t>(y.at(w).i) >> (4 * (i.back() % 8))) & 0xF;
  return nib >= 8 ? static_cast<int64_t>(nib) - 16 : nib;
}
bool same_f(float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); }

TensorDesc maybe_strided(aclDataType t, const Shape& s, Rng& rng) {
  if (s.size() < 2 || rng() % 3 != 0) return TensorDesc(t, s);
  // rows padded: row stride larger than the row
  Shape st = contiguous_strides(s);
  const size_t r = s.size();
  st[r - 2] = s[r - 1] + 3;
  for (size_t d = r - 2; d-- > 0;) st[d] = st[d + 1] * s[d + 1];
  return TensorDesc(t, s, st);
}

struct DynCase {
  bool v2;
  TensorDesc x;
  bool smooth, group, asym, packed;
  std::string str() const {
    return std::string(v2 ? "DynamicQuantV2" : "DynamicQuant") + " x=" + x.str() + " smooth=" + (smooth ? "yes" : "no") +
           " groupIndex=" + (group ? "yes" : "no") + " offsetOut=" + (asym ? "yes" : "no") +
           " y=" + (packed ? "int32" : "int8");
  }
};

void check_dynamic(Rng& rng, const DynCase& c) {
  const std::string r = c.str();
  const Shape& xs = c.x.shape;
  const int64_t h = xs.back();
  const int64_t rows = numel(xs) / std::max<int64_t>(h, 1);
  const int64_t groups = 3;
  Tensor x(c.x);
  Tensor sm(TensorDesc(c.x.dtype, c.group ? Shape{groups, h} : Shape{h}));
  Tensor gi(TensorDesc(ACL_INT32, {groups}));
  Shape ys = xs;
  if (c.packed) ys.back() /= 8;
  Tensor y(TensorDesc(c.packed ? ACL_INT32 : ACL_INT8, ys));
  const Shape rs(xs.begin(), xs.end() - 1);
  Tensor sc(TensorDesc(ACL_FLOAT, rs)), of(TensorDesc(ACL_FLOAT, rs));
  FillOptions fo;
  fo.special = 0.02;
  x.fill_random(rng, fo);
  FillOptions so;
  so.special = 0;
  sm.fill_random(rng, so);
  // cumulative group ends: non-decreasing, the last one covers every row
  std::vector<int32_t> ends(groups);
  for (int64_t g = 0; g < groups; ++g) ends[g] = static_cast<int32_t>(rng() % (rows + 1));
  std::sort(ends.begin(), ends.end());
  ends.back() = static_cast<int32_t>(rows);
  for (int64_t g = 0; g < groups; ++g) gi.set({g}, Num::integer(ends[g]));
  gi.upload();
  aclnnStatus st;
  if (c.v2) {
    st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnDynamicQuantV2GetWorkspaceSize(x.get(), c.smooth ? sm.get() : nullptr, c.group ? gi.get() : nullptr,
                                                 c.packed ? 3 : 2, y.get(), sc.get(), c.asym ? of.get() : nullptr, w, e);
    }, aclnnDynamicQuantV2);
  } else {
    st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnDynamicQuantGetWorkspaceSize(x.get(), c.smooth ? sm.get() : nullptr, y.get(), sc.get(), w, e);
    }, aclnnDynamicQuant);
  }
  ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  y.download();
  sc.download();
  of.download();
  const double hi = c.packed ? 7 : 127, lo = c.packed ? -8 : -128;
  int bad = 0;
  for (int64_t row = 0; row < rows && bad < 4; ++row) {
    // row index -> x index
    Shape base(xs.size(), 0);
    int64_t rem = row;
    for (size_t d = xs.size() - 1; d-- > 0;) {
      base[d] = rem % xs[d];
      rem /= xs[d];
    }
    int64_t g = 0;
    while (g < groups - 1 && ends[static_cast<size_t>(g)] < row + 1) ++g;
    std::vector<float> in(static_cast<size_t>(h));
    bool has_nan = false;
    for (int64_t j = 0; j < h; ++j) {
      Shape i = base;
      i.back() = j;
      float v = fval(x, i);
      if (c.smooth) v *= fval(sm, c.group ? Shape{g, j} : Shape{j});
      in[static_cast<size_t>(j)] = v;
      has_nan = has_nan || std::isnan(v);
    }
    Shape ri(base.begin(), base.end() - 1);
    float want_scale, want_off = 0, inv;
    if (!c.asym) {
      float m = 0;
      for (float v : in) m = std::max(m, std::fabs(v));
      if (has_nan) m = NAN;
      inv = static_cast<float>(hi) / m;
      want_scale = 1.0f / inv;
    } else {
      float mx = *std::max_element(in.begin(), in.end()), mn = *std::min_element(in.begin(), in.end());
      if (has_nan) mx = mn = NAN;
      want_scale = (mx - mn) / static_cast<float>(hi - lo);
      want_off = static_cast<float>(hi) - mx / want_scale;
      inv = 1.0f / want_scale;
    }
    if (!same_f(fval(sc, ri), want_scale)) {
      ADD_FAILURE() << r << ": scaleOut[" << shape_str(ri) << "] is " << fval(sc, ri) << ", expected " << want_scale;
      ++bad;
    }
    if (c.asym && !same_f(fval(of, ri), want_off)) {
      ADD_FAILURE() << r << ": offsetOut[" << shape_str(ri) << "] is " << fval(of, ri) << ", expected " << want_off;
      ++bad;
    }
    for (int64_t j = 0; j < h; ++j) {
      Shape i = base;
      i.back() = j;
      const float t = c.asym ? in[static_cast<size_t>(j)] * inv + want_off : in[static_cast<size_t>(j)] * inv;
      const int64_t want = sat(t, static_cast<int64_t>(lo), static_cast<int64_t>(hi));
      const int64_t got = y_value(y, i, c.packed);
      if (got != want) {
        ADD_FAILURE() << r << ": y at [" << shape_str(i) << "] is " << got << ", expected " << want;
        if (++bad >= 4) break;
      }
    }
  }
}

TEST(QuantDynamic, DynamicQuantSweep) {
  Rng rng(21);
  for (int it = 0; it < 60; ++it) {
    const aclDataType xt = rng() % 2 ? ACL_FLOAT16 : ACL_BF16;
    const int64_t rank = 1 + static_cast<int64_t>(rng() % 3);
    Shape s(static_cast<size_t>(rank));
    for (auto& d : s) d = 1 + static_cast<int64_t>(rng() % 4);
    const bool packed = rng() % 3 == 0;
    s.back() = packed ? 8 * (1 + static_cast<int64_t>(rng() % 2)) : 1 + static_cast<int64_t>(rng() % 20);
    const bool v2 = it % 2;
    DynCase c{v2, maybe_strided(xt, s, rng), rng() % 2 == 0, false, false, packed};
    if (v2) {
      c.asym = rng() % 2;
      c.group = c.smooth && rng() % 2;
    }
    check_dynamic(rng, c);
  }
}

TEST(QuantDynamic, DynamicQuantZeroRowAndTies) {
  // a zero row: scale 0, y 0; a row [127, 63.5, -0.5]: inv = 1, ties to even
  Tensor x(TensorDesc(ACL_FLOAT16, {2, 3})), y(TensorDesc(ACL_INT8, {2, 3})), sc(TensorDesc(ACL_FLOAT, {2}));
  const float v[6] = {0, 0, 0, 127, 62.5f, -0.5f};
  for (int k = 0; k < 6; ++k) x.set({k / 3, k % 3}, Num::real(v[k]));
  x.upload();
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnDynamicQuantGetWorkspaceSize(x.get(), nullptr, y.get(), sc.get(), w, e);
            }, aclnnDynamicQuant),
            ACL_SUCCESS);
  y.download();
  sc.download();
  EXPECT_EQ(fval(sc, {0}), 0.0f);
  EXPECT_EQ(fval(sc, {1}), 1.0f);
  const int64_t want[6] = {0, 0, 0, 127, 62, 0};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(y.at({k / 3, k % 3}).i, want[k]) << "DynamicQuant element " << k;
}

TEST(QuantDynamic, DynamicQuantBadInputs) {
  Tensor x(TensorDesc(ACL_FLOAT16, {2, 8})), xf(TensorDesc(ACL_FLOAT, {2, 8})), y(TensorDesc(ACL_INT8, {2, 8}));
  Tensor y16(TensorDesc(ACL_FLOAT16, {2, 8})), sc(TensorDesc(ACL_FLOAT, {2})), sc3(TensorDesc(ACL_FLOAT, {3}));
  Tensor smb(TensorDesc(ACL_BF16, {8})), gi(TensorDesc(ACL_INT32, {2}));
  expect_phase1_error("DynamicQuant x=float32", ACLNN_ERR_PARAM_INVALID, "x dtype", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicQuantGetWorkspaceSize(xf.get(), nullptr, y.get(), sc.get(), w, e);
  });
  expect_phase1_error("DynamicQuant y=float16", ACLNN_ERR_PARAM_INVALID, "yOut", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicQuantGetWorkspaceSize(x.get(), nullptr, y16.get(), sc.get(), w, e);
  });
  expect_phase1_error("DynamicQuant scaleOut=[3]", ACLNN_ERR_PARAM_INVALID, "scaleOut", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicQuantGetWorkspaceSize(x.get(), nullptr, y.get(), sc3.get(), w, e);
  });
  expect_phase1_error("DynamicQuant smooth=bf16", ACLNN_ERR_PARAM_INVALID, "smoothScalesOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicQuantGetWorkspaceSize(x.get(), smb.get(), y.get(), sc.get(), w, e);
  });
  expect_phase1_error("DynamicQuantV2 groupIndex without smooth", ACLNN_ERR_PARAM_INVALID, "smoothScalesOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicQuantV2GetWorkspaceSize(x.get(), nullptr, gi.get(), 2, y.get(), sc.get(), nullptr, w, e);
  });
  expect_phase1_error("DynamicQuantV2 dstType=3 y=int8", ACLNN_ERR_PARAM_INVALID, "yOut", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDynamicQuantV2GetWorkspaceSize(x.get(), nullptr, nullptr, 3, y.get(), sc.get(), nullptr, w, e);
  });
}

// ---- GroupQuant ------------------------------------------------------------------------------------

TEST(QuantDynamic, GroupQuantSweep) {
  Rng rng(22);
  const aclDataType f3[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int it = 0; it < 40; ++it) {
    const int64_t rows = static_cast<int64_t>(rng() % 7), groups = 1 + static_cast<int64_t>(rng() % 4);
    const bool packed = rng() % 3 == 0;
    const int64_t h = packed ? 8 * (1 + static_cast<int64_t>(rng() % 2)) : 1 + static_cast<int64_t>(rng() % 9);
    const aclDataType xt = f3[rng() % 3], st = f3[rng() % 3];
    const aclDataType gt = rng() % 2 ? ACL_INT32 : ACL_INT64;
    const bool has_off = rng() % 2;
    Tensor x(maybe_strided(xt, {rows, h}, rng)), sc(TensorDesc(st, {groups, h})), gi(TensorDesc(gt, {groups}));
    Tensor off(TensorDesc(st, {1})), y(TensorDesc(packed ? ACL_INT32 : ACL_INT8, {rows, packed ? h / 8 : h}));
    std::vector<int64_t> ends(static_cast<size_t>(groups));
    for (auto& e : ends) e = static_cast<int64_t>(rng() % (rows + 1));
    std::sort(ends.begin(), ends.end());
    ends.back() = rows;
    for (int64_t g = 0; g < groups; ++g) gi.set({g}, Num::integer(ends[static_cast<size_t>(g)]));
    gi.upload();
    x.fill_random(rng);
    FillOptions so;
    so.special = 0;
    sc.fill_random(rng, so);
    off.fill_random(rng, so);
    const std::string r = "GroupQuant x=" + x.desc().str() + " scale=" + sc.desc().str() + " groupIndex=" +
                          gi.desc().str() + " offset=" + (has_off ? off.desc().str() : "none") +
                          " dstType=" + (packed ? "3" : "2");
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnGroupQuantGetWorkspaceSize(x.get(), sc.get(), gi.get(), has_off ? off.get() : nullptr,
                                                       packed ? 3 : 2, y.get(), w, e);
              }, aclnnGroupQuant),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    y.download();
    int bad = 0;
    for (int64_t row = 0; row < rows; ++row) {
      int64_t g = 0;
      while (ends[static_cast<size_t>(g)] <= row) ++g;
      for (int64_t j = 0; j < h && bad < 4; ++j) {
        float t = fval(x, {row, j}) * fval(sc, {g, j});
        if (has_off) t += fval(off, {0});
        const int64_t want = sat(t, packed ? -8 : -128, packed ? 7 : 127);
        const int64_t got = y_value(y, {row, j}, packed);
        if (got != want) {
          ADD_FAILURE() << r << ": y at [" << row << "," << j << "] is " << got << ", expected " << want;
          ++bad;
        }
      }
    }
  }
  Tensor x(TensorDesc(ACL_FLOAT, {4, 2})), sc(TensorDesc(ACL_FLOAT, {3, 2})), gi(TensorDesc(ACL_INT32, {2}));
  Tensor gf(TensorDesc(ACL_FLOAT, {3})), y(TensorDesc(ACL_INT8, {4, 2}));
  expect_phase1_error("GroupQuant groupIndex=[2]", ACLNN_ERR_PARAM_INVALID, "groupIndex", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGroupQuantGetWorkspaceSize(x.get(), sc.get(), gi.get(), nullptr, 2, y.get(), w, e);
  });
  expect_phase1_error("GroupQuant groupIndex=float", ACLNN_ERR_PARAM_INVALID, "groupIndex dtype", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGroupQuantGetWorkspaceSize(x.get(), sc.get(), gf.get(), nullptr, 2, y.get(), w, e);
  });
}

// ---- DequantBias -----------------------------------------------------------------------------------

double to_out(aclDataType t, float v) { return t == ACL_FLOAT16 ? half_value(half_bits(v)) : bf16_value(bf16_bits(v)); }

TEST(QuantDynamic, DequantBiasSweep) {
  Rng rng(23);
  const aclDataType biases[] = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_INT32};
  for (int it = 0; it < 40; ++it) {
    const int64_t m = static_cast<int64_t>(rng() % 6), n = 1 + static_cast<int64_t>(rng() % 9);
    const aclDataType wt = rng() % 2 ? ACL_FLOAT : ACL_BF16;
    const aclDataType ot = wt == ACL_FLOAT ? ACL_FLOAT16 : ACL_BF16;
    const aclDataType bt = biases[rng() % 4];
    const bool has_as = rng() % 2, has_bias = rng() % 3 != 0;
    Tensor x(maybe_strided(ACL_INT32, {m, n}, rng)), ws(TensorDesc(wt, {n})), as(TensorDesc(ACL_FLOAT, {m}));
    Tensor bias(TensorDesc(bt, {n})), y(TensorDesc(ot, {m, n}));
    const std::string r = "DequantBias x=" + x.desc().str() + " weightScale=" + ws.desc().str() +
                          " activateScale=" + (has_as ? "yes" : "none") + " bias=" + (has_bias ? bias.desc().str() : "none");
    x.fill_random(rng);
    FillOptions so;
    so.special = 0;
    ws.fill_random(rng, so);
    as.fill_random(rng, so);
    bias.fill_random(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnDequantBiasGetWorkspaceSize(x.get(), ws.get(), has_as ? as.get() : nullptr,
                                                        has_bias ? bias.get() : nullptr, static_cast<int64_t>(ot),
                                                        y.get(), w, e);
              }, aclnnDequantBias),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    y.download();
    int bad = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n && bad < 4; ++j) {
        int64_t q = x.at({i, j}).i;
        if (has_bias && bt == ACL_INT32) q = wrap_int(static_cast<uint64_t>(q + bias.at({j}).i), ACL_INT32);
        float v = static_cast<float>(q) * fval(ws, {j});
        if (has_as) v *= fval(as, {i});
        if (has_bias && bt != ACL_INT32) v += fval(bias, {j});
        const double want = to_out(ot, v), got = y.at({i, j}).as_double();
        if (!(want == got || (std::isnan(want) && std::isnan(got)))) {
          ADD_FAILURE() << r << ": y at [" << i << "," << j << "] is " << got << ", expected " << want;
          ++bad;
        }
      }
  }
  Tensor x(TensorDesc(ACL_INT32, {2, 3})), xf(TensorDesc(ACL_FLOAT, {2, 3})), ws(TensorDesc(ACL_FLOAT, {3}));
  Tensor ws2(TensorDesc(ACL_FLOAT, {2})), y(TensorDesc(ACL_FLOAT16, {2, 3}));
  expect_phase1_error("DequantBias x=float", ACLNN_ERR_PARAM_INVALID, "x dtype", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDequantBiasGetWorkspaceSize(xf.get(), ws.get(), nullptr, nullptr, 1, y.get(), w, e);
  });
  expect_phase1_error("DequantBias weightScale=[2]", ACLNN_ERR_PARAM_INVALID, "weightScale", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDequantBiasGetWorkspaceSize(x.get(), ws2.get(), nullptr, nullptr, 1, y.get(), w, e);
  });
  expect_phase1_error("DequantBias outputDtype=27 out=f16", ACLNN_ERR_PARAM_INVALID, "out has dtype", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDequantBiasGetWorkspaceSize(x.get(), ws.get(), nullptr, nullptr, 27, y.get(), w, e);
  });
}

// ---- FakeQuant ---------------------------------------------------------------------------------------

TEST(QuantDynamic, FakeQuantSweep) {
  Rng rng(24);
  for (int it = 0; it < 50; ++it) {
    const bool per_channel = it % 2;
    const aclDataType xt = rng() % 2 ? ACL_FLOAT : ACL_FLOAT16;
    const aclDataType st = rng() % 2 ? ACL_FLOAT : ACL_FLOAT16;
    const int64_t rank = static_cast<int64_t>(rng() % 4) + (per_channel ? 1 : 0);
    Shape s(static_cast<size_t>(rank));
    for (auto& d : s) d = static_cast<int64_t>(rng() % 4) + (it % 12 == 0 ? 0 : 1);
    const int64_t axis = per_channel ? static_cast<int64_t>(rng() % rank) - (rng() % 2 ? rank : 0) : 0;
    const int64_t ax = axis < 0 ? axis + rank : axis;
    const int64_t pn = per_channel ? s[static_cast<size_t>(ax)] : 1;
    const int64_t qmin = -static_cast<int64_t>(rng() % 130), qmax = static_cast<int64_t>(rng() % 130);
    const float enabled = per_channel ? 1.0f : (rng() % 4 == 0 ? 0.5f : 1.0f);
    Tensor x(TensorDesc(xt, s)), sc(TensorDesc(st, {pn})), zp(TensorDesc(ACL_INT32, {pn}));
    Tensor out(TensorDesc(xt, s)), mask(TensorDesc(ACL_BOOL, s));
    const std::string r = std::string(per_channel ? "FakeQuantPerChannelAffineCachemask" : "FakeQuantPerTensorAffineCachemask") +
                          " self=" + x.desc().str() + " scale=" + sc.desc().str() + " axis=" + std::to_string(axis) +
                          " quantMin=" + std::to_string(qmin) + " quantMax=" + std::to_string(qmax) +
                          " fakeQuantEnabled=" + std::to_string(enabled);
    FillOptions fo;
    fo.special = 0.05;
    x.fill_random(rng, fo);
    for (int64_t k = 0; k < pn; ++k) {
      sc.set({k}, Num::real(std::ldexp(1.0 + static_cast<double>(rng() % 64) / 64.0, static_cast<int>(rng() % 8) - 4)));
      zp.set({k}, Num::integer(static_cast<int64_t>(rng() % 21) - 10));
    }
    sc.upload();
    zp.upload();
    const aclnnStatus st2 =
        per_channel ? run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(x.get(), sc.get(), zp.get(), axis, qmin, qmax,
                                                                                       out.get(), mask.get(), w, e);
                      }, aclnnFakeQuantPerChannelAffineCachemask)
                    : run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(x.get(), sc.get(), zp.get(), enabled, qmin,
                                                                                      qmax, out.get(), mask.get(), w, e);
                      }, aclnnFakeQuantPerTensorAffineCachemask);
    ASSERT_EQ(st2, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    out.download();
    mask.download();
    int bad = 0;
    for_each_index(s, [&](const Shape& i) {
      if (bad > 3) return;
      const int64_t c = per_channel ? i[static_cast<size_t>(ax)] : 0;
      const float xv = fval(x, i), scv = fval(sc, {c});
      const int64_t z = zp.at({c}).i;
      float want_o;
      bool want_m;
      if (enabled < 1.0f) {
        want_o = xv;
        want_m = true;
      } else {
        const double q = std::nearbyint(static_cast<double>(xv / scv)) + static_cast<double>(z);
        if (std::isnan(q)) {
          want_o = NAN;
          want_m = false;
        } else {
          const double cl = std::min<double>(qmax, std::max<double>(qmin, q));
          want_o = static_cast<float>(cl - z) * scv;
          want_m = q >= qmin && q <= qmax;
        }
      }
      const double wo = xt == ACL_FLOAT16 ? half_value(half_bits(want_o)) : want_o;
      const double go = out.at(i).as_double();
      if (!(wo == go || (std::isnan(wo) && std::isnan(go))) || (mask.at(i).i != 0) != want_m) {
        ADD_FAILURE() << r << ": at [" << shape_str(i) << "] out " << go << " mask " << mask.at(i).i << ", expected "
                      << wo << " " << want_m << " (self " << xv << ")";
        ++bad;
      }
    });
  }
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3})), sc(TensorDesc(ACL_FLOAT, {3})), zp(TensorDesc(ACL_INT32, {3}));
  Tensor zpf(TensorDesc(ACL_FLOAT, {3})), out(TensorDesc(ACL_FLOAT, {2, 3})), mask(TensorDesc(ACL_BOOL, {2, 3}));
  expect_phase1_error("FakeQuantPerChannel axis=2", ACLNN_ERR_PARAM_INVALID, "axis", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(x.get(), sc.get(), zp.get(), 2, 0, 255, out.get(), mask.get(), w, e);
  });
  expect_phase1_error("FakeQuantPerChannel axis=0 scale=[3]", ACLNN_ERR_PARAM_INVALID, "scale has shape", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(x.get(), sc.get(), zp.get(), 0, 0, 255, out.get(), mask.get(), w, e);
  });
  expect_phase1_error("FakeQuantPerChannel zeroPoint=float", ACLNN_ERR_PARAM_INVALID, "zeroPoint dtype", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(x.get(), sc.get(), zpf.get(), 1, 0, 255, out.get(), mask.get(), w, e);
  });
  expect_phase1_error("FakeQuantPerChannel quantMin>quantMax", ACLNN_ERR_PARAM_INVALID, "quantMin", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(x.get(), sc.get(), zp.get(), 1, 10, 5, out.get(), mask.get(), w, e);
  });
  expect_phase1_error("FakeQuantPerTensor scale=[3]", ACLNN_ERR_PARAM_INVALID, "scale has shape", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(x.get(), sc.get(), zp.get(), 1.0f, 0, 255, out.get(), mask.get(), w, e);
  });
}

}  // namespace
