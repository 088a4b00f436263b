// AscendQuant(V3), Quantize, AscendAntiQuant and TransQuantParam(V2, V3) through the public C API.
// References: float32 arithmetic in the documented order (x * scale [* scale] + offset, x / scale +
// zeroPoint, (x + offset) * scale), rounded to nearest-even with std::nearbyint on the host and
// saturated to the output's range (NaN -> 0); int4 nibbles unpacked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "aclnnop/aclnn_ascend_anti_quant.h"
#include "aclnnop/aclnn_ascend_quant.h"
#include "aclnnop/aclnn_ascend_quant_v3.h"
#include "aclnnop/aclnn_quantize.h"
#include "aclnnop/aclnn_trans_quant_param.h"
#include "aclnnop/aclnn_trans_quant_param_v2.h"
#include "aclnnop/aclnn_trans_quant_param_v3.h"
#include "op_test_util.h"

namespace {

using namespace optest;

float fval(const Tensor& t, const Shape& i) { return static_cast<float>(t.at(i).as_double()); }

double round_mode(double v, const std::string& m) {
  if (m == "floor") return std::floor(v);
  if (m == "ceil") return std::ceil(v);
  if (m == "trunc") return std::trunc(v);
  return std::nearbyint(v);
}
int64_t sat(double v, const std::string& m, int64_t lo, int64_t hi) {
  if (std::isnan(v)) return 0;
  v = round_mode(v, m);
  return v < lo ? lo : v > hi ? hi : static_cast<int64_t>(v);
}

// Index of the parameter element for x index i: along `axis` (p has one entry) or its only one.
Shape param_index(const TensorDesc& p, const Shape& i, int64_t axis) {
  Shape j(p.shape.size(), 0);
  if (numel(p.shape) == 1) return j;
  if (p.shape.size() == 1) j[0] = i[static_cast<size_t>(axis)];
  else j[static_cast<size_t>(axis)] = i[static_cast<size_t>(axis)];
  return j;
}

TensorDesc transposed_last2(aclDataType t, const Shape& s) {
  // a view of shape s whose last two dims are swapped in memory
  if (s.size() < 2) return TensorDesc(t, s);
  Shape st = contiguous_strides(s);
  const size_t r = s.size();
  st[r - 1] = s[r - 2];
  st[r - 2] = 1;
  return TensorDesc(t, s, st);
}

struct QuantCase {
  bool v3;
  TensorDesc x, scale;
  bool has_offset;
  bool sqrt_mode;
  std::string round;
  int32_t dst;
  int32_t axis;
  std::string str() const {
    return std::string(v3 ? "AscendQuantV3" : "AscendQuant") + " x=" + x.str() + " scale=" + scale.str() +
           " offset=" + (has_offset ? "yes" : "none") + " sqrtMode=" + (sqrt_mode ? "1" : "0") + " roundMode=" + round +
           " dstType=" + std::to_string(dst) + " axis=" + std::to_string(axis);
  }
};

void check_quant(Rng& rng, const QuantCase& c, bool specials) {
  const std::string r = c.str();
  Tensor x(c.x), scale(c.scale);
  TensorDesc od = c.scale;
  od.strides = {};
  Tensor offset(od);
  FillOptions fo;
  fo.special = specials ? 0.1 : 0.0;
  x.fill_random(rng, fo);
  FillOptions so;
  so.special = 0.0;
  scale.fill_random(rng, so);
  offset.fill_random(rng, so);
  Shape ys = c.x.shape;
  const bool packed = c.dst == 3;
  if (packed) ys.back() /= 8;
  Tensor y(TensorDesc(packed ? ACL_INT32 : ACL_INT8, ys));
  aclTensor* off = c.has_offset ? offset.get() : nullptr;
  const aclnnStatus st =
      c.v3 ? run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
               return aclnnAscendQuantV3GetWorkspaceSize(x.get(), scale.get(), off, c.sqrt_mode, c.round.c_str(), c.dst,
                                                         c.axis, y.get(), w, e);
             }, aclnnAscendQuantV3)
           : run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
               return aclnnAscendQuantGetWorkspaceSize(x.get(), scale.get(), off, c.sqrt_mode, c.round.c_str(), c.dst,
                                                       y.get(), w, e);
             }, aclnnAscendQuant);
  ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  y.download();
  const int64_t rank = static_cast<int64_t>(c.x.shape.size());
  const int64_t axis = c.axis < 0 ? c.axis + rank : c.axis;
  int bad = 0;
  for_each_index(c.x.shape, [&](const Shape& i) {
    if (bad > 3) return;
    const Shape pj = param_index(c.scale, i, axis);
    const float s = fval(scale, pj);
    float v = c.sqrt_mode ? fval(x, i) * s * s : fval(x, i) * s;
    if (c.has_offset) v += fval(offset, pj);
    int64_t want = sat(v, c.round, packed ? -8 : -128, packed ? 7 : 127);
    int64_t got;
    if (packed) {
      Shape w = i;
      w.back() /= 8;
      const uint32_t word = static_cast<uint32_t>(y.at(w).i);
      const uint32_t nib = (word >> (4 * (i.back() % 8))) & 0xF;
      got = nib >= 8 ? static_cast<int64_t>(nib) - 16 : nib;
    } else {
      got = y.at(i).i;
    }
    if (got != want) {
      ADD_FAILURE() << r << ": y at [" << shape_str(i) << "] is " << got << ", expected " << want << " (x "
                    << fval(x, i) << ")";
      ++bad;
    }
  });
}

const aclDataType kF3[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

TEST(QuantStatic, AscendQuantSweep) {
  Rng rng(11);
  const char* rounds[] = {"round", "floor", "ceil", "trunc"};
  for (int it = 0; it < 60; ++it) {
    const aclDataType xt = kF3[rng() % 3];
    const aclDataType st = xt == ACL_FLOAT ? kF3[rng() % 3] : xt;
    const int64_t rank = 1 + static_cast<int64_t>(rng() % 4);
    Shape s(static_cast<size_t>(rank));
    for (auto& d : s) d = 1 + static_cast<int64_t>(rng() % 4);
    const bool packed = rng() % 3 == 0;
    if (packed) s.back() = 8 * (1 + static_cast<int64_t>(rng() % 2));
    const bool v3 = it % 2 == 1;
    int32_t axis = -1;
    if (v3) axis = static_cast<int32_t>(rng() % rank) - (rng() % 2 ? static_cast<int32_t>(rank) : 0);
    const int64_t ax = axis < 0 ? axis + rank : axis;
    Shape ps;
    switch (rng() % 3) {
      case 0: ps = {s[static_cast<size_t>(ax)]}; break;
      case 1: ps = {1}; break;
      default: ps = Shape(static_cast<size_t>(rank), 1); ps[static_cast<size_t>(ax)] = s[static_cast<size_t>(ax)];
    }
    TensorDesc xd = (rng() % 3 == 0) ? transposed_last2(xt, s) : TensorDesc(xt, s);
    QuantCase c{v3, xd, TensorDesc(st, ps), rng() % 2 == 0, rng() % 4 == 0, rounds[rng() % 4], packed ? 3 : 2, axis};
    check_quant(rng, c, true);
  }
}

TEST(QuantStatic, AscendQuantTiesSaturationNaN) {
  // x * 1 + 0 for hand-picked x: ties go to even, out-of-range saturates, NaN -> 0, inf saturates.
  const std::vector<float> xs = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 127.5f, 128.0f, -128.5f, -129.0f,
                                 1e30f, -1e30f, NAN, INFINITY, -INFINITY, -0.0f};
  const std::vector<int64_t> want = {0, 2, 2, 0, -2, -2, 127, 127, -128, -128, 127, -128, 0, 127, -128, 0};
  Tensor x(TensorDesc(ACL_FLOAT, {static_cast<int64_t>(xs.size())})), s(TensorDesc(ACL_FLOAT, {1}));
  for (size_t i = 0; i < xs.size(); ++i) x.set({static_cast<int64_t>(i)}, Num::real(xs[i]));
  x.upload();
  s.fill(Num::real(1.0));
  Tensor y(TensorDesc(ACL_INT8, {static_cast<int64_t>(xs.size())}));
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnAscendQuantGetWorkspaceSize(x.get(), s.get(), nullptr, false, "round", 2, y.get(), w, e);
            }, aclnnAscendQuant),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  y.download();
  for (size_t i = 0; i < xs.size(); ++i)
    EXPECT_EQ(y.at({static_cast<int64_t>(i)}).i, want[i]) << "AscendQuant x=" << xs[i];
}

TEST(QuantStatic, AscendQuantBadInputs) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 8})), s(TensorDesc(ACL_FLOAT, {8})), s3(TensorDesc(ACL_FLOAT, {3}));
  Tensor s16(TensorDesc(ACL_FLOAT16, {8})), xi(TensorDesc(ACL_INT32, {2, 8}));
  Tensor y(TensorDesc(ACL_INT8, {2, 8})), y32(TensorDesc(ACL_INT32, {2, 1})), ybad(TensorDesc(ACL_INT8, {2, 4}));
  Tensor x16(TensorDesc(ACL_FLOAT16, {2, 8}));
  auto p1 = [&](aclTensor* xx, aclTensor* ss, aclTensor* oo, const char* rm, int32_t dst, aclTensor* yy) {
    return [=](uint64_t* w, aclOpExecutor** e) {
      return aclnnAscendQuantGetWorkspaceSize(xx, ss, oo, false, rm, dst, yy, w, e);
    };
  };
  expect_phase1_error("AscendQuant x=int32", ACLNN_ERR_PARAM_INVALID, "x dtype", p1(xi.get(), s.get(), nullptr, "round", 2, y.get()));
  expect_phase1_error("AscendQuant scale=[3]", ACLNN_ERR_PARAM_INVALID, "scale has shape", p1(x.get(), s3.get(), nullptr, "round", 2, y.get()));
  expect_phase1_error("AscendQuant x=float16 scale=float32", ACLNN_ERR_PARAM_INVALID, "scale has dtype", p1(x16.get(), s.get(), nullptr, "round", 2, y.get()));
  expect_phase1_error("AscendQuant roundMode=banker", ACLNN_ERR_PARAM_INVALID, "roundMode", p1(x.get(), s.get(), nullptr, "banker", 2, y.get()));
  expect_phase1_error("AscendQuant roundMode=null", ACLNN_ERR_PARAM_INVALID, "roundMode", p1(x.get(), s.get(), nullptr, nullptr, 2, y.get()));
  expect_phase1_error("AscendQuant dstType=5", ACLNN_ERR_PARAM_INVALID, "dstType", p1(x.get(), s.get(), nullptr, "round", 5, y.get()));
  expect_phase1_error("AscendQuant dstType=3 y=int8", ACLNN_ERR_PARAM_INVALID, "y has dtype", p1(x.get(), s.get(), nullptr, "round", 3, y.get()));
  expect_phase1_error("AscendQuant y=[2,4]", ACLNN_ERR_PARAM_INVALID, "y has shape", p1(x.get(), s.get(), nullptr, "round", 2, ybad.get()));
  expect_phase1_error("AscendQuant offset dtype", ACLNN_ERR_PARAM_INVALID, "offset has dtype", p1(x.get(), s.get(), s16.get(), "round", 2, y.get()));
  expect_phase1_error("AscendQuant x=null", ACLNN_ERR_PARAM_NULLPTR, "x", p1(nullptr, s.get(), nullptr, "round", 2, y.get()));
  EXPECT_EQ(run_two_phase(p1(x.get(), s.get(), nullptr, "round", 3, y32.get()), aclnnAscendQuant), ACL_SUCCESS);
  expect_phase1_error("AscendQuantV3 axis=2", ACLNN_ERR_PARAM_INVALID, "axis", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAscendQuantV3GetWorkspaceSize(x.get(), s.get(), nullptr, false, "round", 2, 2, y.get(), w, e);
  });
}

// ---- Quantize --------------------------------------------------------------------------------------

TEST(QuantStatic, QuantizeSweep) {
  Rng rng(12);
  const aclDataType outs[] = {ACL_INT8, ACL_UINT8, ACL_INT32};
  const aclDataType zps[] = {ACL_INT32, ACL_INT8, ACL_UINT8, ACL_FLOAT, ACL_BF16};
  for (int it = 0; it < 50; ++it) {
    const aclDataType xt = kF3[rng() % 3];
    const aclDataType st = xt == ACL_FLOAT ? kF3[rng() % 3] : xt;
    const aclDataType ot = outs[rng() % 3];
    const int64_t rank = 1 + static_cast<int64_t>(rng() % 4);
    Shape s(static_cast<size_t>(rank));
    for (auto& d : s) d = static_cast<int64_t>(rng() % 4) + (it % 10 == 0 ? 0 : 1);
    const int32_t axis = static_cast<int32_t>(rng() % rank) - (rng() % 2 ? static_cast<int32_t>(rank) : 0);
    const int64_t ax = axis < 0 ? axis + rank : axis;
    const int64_t pn = rng() % 3 == 0 ? 1 : s[static_cast<size_t>(ax)];
    const bool has_zp = rng() % 3 != 0;
    TensorDesc xd = (rng() % 3 == 0) ? transposed_last2(xt, s) : TensorDesc(xt, s);
    Tensor x(xd), sc(TensorDesc(st, {pn})), zp(TensorDesc(zps[rng() % 5], {pn})), out(TensorDesc(ot, s));
    const std::string r = std::string("Quantize x=") + xd.str() + " scales=" + sc.desc().str() +
                          " zeroPoints=" + (has_zp ? zp.desc().str() : "none") + " dtype=" + dtype_name(ot) +
                          " axis=" + std::to_string(axis);
    FillOptions fo;
    x.fill_random(rng, fo);
    FillOptions so;
    so.special = 0;
    sc.fill_random(rng, so);
    FillOptions zo;
    zo.special = 0;
    zo.small_int = 1.0;
    zp.fill_random(rng, zo);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnQuantizeGetWorkspaceSize(x.get(), sc.get(), has_zp ? zp.get() : nullptr, ot, axis, out.get(),
                                                     w, e);
              }, aclnnQuantize),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    int bad = 0;
    for_each_index(s, [&](const Shape& i) {
      if (bad > 3) return;
      const Shape pj = {pn == 1 ? 0 : i[static_cast<size_t>(ax)]};
      float v = fval(x, i) / fval(sc, pj);
      if (has_zp) v += fval(zp, pj);
      const int64_t want = sat(v, "round", int_min(ot), int_max(ot));
      if (out.at(i).i != want) {
        ADD_FAILURE() << r << ": out at [" << shape_str(i) << "] is " << out.at(i).i << ", expected " << want;
        ++bad;
      }
    });
  }
}

TEST(QuantStatic, QuantizeBadInputs) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3})), s(TensorDesc(ACL_FLOAT, {3})), s2(TensorDesc(ACL_FLOAT, {2}));
  Tensor out(TensorDesc(ACL_INT8, {2, 3})), out16(TensorDesc(ACL_FLOAT16, {2, 3}));
  expect_phase1_error("Quantize axis=2", ACLNN_ERR_PARAM_INVALID, "axis", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnQuantizeGetWorkspaceSize(x.get(), s.get(), nullptr, ACL_INT8, 2, out.get(), w, e);
  });
  expect_phase1_error("Quantize scales=[2] axis=-1", ACLNN_ERR_PARAM_INVALID, "scales has shape", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnQuantizeGetWorkspaceSize(x.get(), s2.get(), nullptr, ACL_INT8, -1, out.get(), w, e);
  });
  expect_phase1_error("Quantize dtype=float16", ACLNN_ERR_PARAM_INVALID, "dtype", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnQuantizeGetWorkspaceSize(x.get(), s.get(), nullptr, ACL_FLOAT16, -1, out16.get(), w, e);
  });
  expect_phase1_error("Quantize out=int8 dtype=uint8", ACLNN_ERR_PARAM_INVALID, "out has dtype", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnQuantizeGetWorkspaceSize(x.get(), s.get(), nullptr, ACL_UINT8, -1, out.get(), w, e);
  });
}

// ---- AscendAntiQuant -------------------------------------------------------------------------------

double to_out(aclDataType t, float v) { return t == ACL_FLOAT16 ? half_value(half_bits(v)) : bf16_value(bf16_bits(v)); }

TEST(QuantStatic, AscendAntiQuantSweep) {
  Rng rng(13);
  for (int it = 0; it < 50; ++it) {
    const bool packed = it % 3 == 2;
    const aclDataType st = rng() % 2 ? ACL_FLOAT : ACL_BF16;
    const aclDataType yt = rng() % 2 ? ACL_FLOAT16 : ACL_BF16;
    const int64_t rank = 1 + static_cast<int64_t>(rng() % 3);
    Shape xs(static_cast<size_t>(rank));
    for (auto& d : xs) d = 1 + static_cast<int64_t>(rng() % 4);
    Shape ys = xs;
    if (packed) ys.back() *= 8;
    const int64_t ax = (rank >= 2 && rng() % 2) ? rank - 2 : rank - 1;
    Shape ps;
    switch (rng() % 3) {
      case 0: ps = {ys[static_cast<size_t>(ax)]}; break;
      case 1: ps = {1}; break;
      default: ps = Shape(static_cast<size_t>(rank), 1); ps[static_cast<size_t>(ax)] = ys[static_cast<size_t>(ax)];
    }
    // a 1-D scale as long as the last dim is read along the last dim (also when dim -2 is as long)
    const int64_t eff_ax = (ps.size() == 1 && ps[0] == ys.back()) ? rank - 1 : ax;
    const bool has_offset = rng() % 2;
    const bool sqrt_mode = rng() % 3 == 0;
    TensorDesc xd = (!packed && rng() % 3 == 0) ? transposed_last2(ACL_INT8, xs) : TensorDesc(packed ? ACL_INT32 : ACL_INT8, xs);
    Tensor x(xd), sc(TensorDesc(st, ps)), off(TensorDesc(st, ps)), y(TensorDesc(yt, ys));
    const std::string r = std::string("AscendAntiQuant x=") + xd.str() + " scale=" + sc.desc().str() +
                          " offset=" + (has_offset ? "yes" : "none") + " dstType=" + dtype_name(yt) +
                          " sqrtMode=" + (sqrt_mode ? "1" : "0");
    x.fill_random(rng);
    FillOptions so;
    so.special = 0;
    sc.fill_random(rng, so);
    off.fill_random(rng, so);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnAscendAntiQuantGetWorkspaceSize(x.get(), sc.get(), has_offset ? off.get() : nullptr, yt,
                                                            sqrt_mode, y.get(), w, e);
              }, aclnnAscendAntiQuant),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    y.download();
    int bad = 0;
    for_each_index(ys, [&](const Shape& i) {
      if (bad > 3) return;
      float xv;
      if (packed) {
        Shape w = i;
        w.back() /= 8;
        const uint32_t word = static_cast<uint32_t>(x.at(w).i);
        const uint32_t nib = (word >> (4 * (i.back() % 8))) & 0xF;
        xv = static_cast<float>(nib >= 8 ? static_cast<int>(nib) - 16 : static_cast<int>(nib));
      } else {
        xv = fval(x, i);
      }
      const Shape pj = param_index(sc.desc(), i, eff_ax);
      if (has_offset) xv += fval(off, pj);
      const float s = fval(sc, pj);
      const double want = to_out(yt, sqrt_mode ? xv * s * s : xv * s);
      const double got = y.at(i).as_double();
      if (!(want == got || (std::isnan(want) && std::isnan(got)))) {
        ADD_FAILURE() << r << ": y at [" << shape_str(i) << "] is " << got << ", expected " << want;
        ++bad;
      }
    });
  }
}

TEST(QuantStatic, AscendAntiQuantBadInputs) {
  Tensor x(TensorDesc(ACL_INT8, {2, 3})), xf(TensorDesc(ACL_FLOAT, {2, 3})), s(TensorDesc(ACL_FLOAT, {3}));
  Tensor s5(TensorDesc(ACL_FLOAT, {5})), y(TensorDesc(ACL_FLOAT16, {2, 3})), yb(TensorDesc(ACL_BF16, {2, 3}));
  auto p1 = [&](aclTensor* xx, aclTensor* ss, int64_t dst, aclTensor* yy) {
    return [=](uint64_t* w, aclOpExecutor** e) {
      return aclnnAscendAntiQuantGetWorkspaceSize(xx, ss, nullptr, dst, false, yy, w, e);
    };
  };
  expect_phase1_error("AscendAntiQuant x=float", ACLNN_ERR_PARAM_INVALID, "x dtype", p1(xf.get(), s.get(), 1, y.get()));
  expect_phase1_error("AscendAntiQuant scale=[5]", ACLNN_ERR_PARAM_INVALID, "scale has shape", p1(x.get(), s5.get(), 1, y.get()));
  expect_phase1_error("AscendAntiQuant dstType=0", ACLNN_ERR_PARAM_INVALID, "dstType", p1(x.get(), s.get(), 0, y.get()));
  expect_phase1_error("AscendAntiQuant dstType=27 y=f16", ACLNN_ERR_PARAM_INVALID, "y has dtype", p1(x.get(), s.get(), 27, y.get()));
  EXPECT_EQ(run_two_phase(p1(x.get(), s.get(), 27, yb.get()), aclnnAscendAntiQuant), ACL_SUCCESS);
}

// ---- TransQuantParam -------------------------------------------------------------------------------

uint64_t ref_word(float s, bool has_off, float o, bool round19) {
  uint32_t u;
  std::memcpy(&u, &s, 4);
  uint64_t w;
  if (!round19) {
    w = (u & 0xFFFFE000u) | (uint64_t{1} << 46);
  } else {
    // round the float to 10 mantissa bits (nearest-even) via double arithmetic, zero/subnormal -> 0
    const int e = (u >> 23) & 0xFF;
    float r;
    if (e == 0) r = std::signbit(s) ? -0.0f : 0.0f;
    else {
      int ex;
      const double m = std::frexp(static_cast<double>(s), &ex);  // |m| in [0.5, 1)
      r = static_cast<float>(std::ldexp(std::nearbyint(std::ldexp(m, 11)), ex - 11));
    }
    uint32_t ru;
    std::memcpy(&ru, &r, 4);
    w = ru | (uint64_t{1} << 46);
  }
  if (has_off) {
    const double q = std::max(-256.0, std::min(255.0, std::nearbyint(static_cast<double>(o))));
    w |= (static_cast<uint64_t>(static_cast<int64_t>(q)) & 0x1FF) << 37;
  }
  return w;
}

TEST(QuantStatic, TransQuantParamV1) {
  const float scales[3] = {1.0f, 0.123456789f, -3.5f};
  const float offs[3] = {1.0f, 2.5f, -300.0f};
  uint64_t* out = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclnnTransQuantParam(scales, 3, offs, 3, &out, &n), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(n, 16u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[i], ref_word(scales[i], true, offs[i], false)) << "TransQuantParam i=" << i;
  for (int i = 3; i < 16; ++i) EXPECT_EQ(out[i], 0u);
  std::free(out);
  ASSERT_EQ(aclnnTransQuantParam(scales, 1, nullptr, 0, &out, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(out[0], ref_word(1.0f, false, 0, false));
  std::free(out);
  EXPECT_EQ(aclnnTransQuantParam(nullptr, 1, nullptr, 0, &out, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnTransQuantParam(scales, 0, nullptr, 0, &out, &n), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("scaleSize"), std::string::npos);
  EXPECT_EQ(aclnnTransQuantParam(scales, 1, nullptr, 2, &out, &n), ACLNN_ERR_PARAM_INVALID);
}

TEST(QuantStatic, TransQuantParamV2V3) {
  Rng rng(14);
  for (int it = 0; it < 30; ++it) {
    const int64_t n = 1 + static_cast<int64_t>(rng() % 40);
    const bool two_d = rng() % 2;
    const bool has_off = rng() % 2;
    const int64_t on = rng() % 3 == 0 ? 1 : n;
    const int64_t sn = (has_off && on == n && !two_d && rng() % 3 == 0) ? 1 : n;
    const int64_t round_mode = static_cast<int64_t>(rng() % 2);
    const bool v3 = it % 2;
    const Shape ss = two_d ? Shape{1, sn} : Shape{sn};
    const Shape os = two_d && on != 1 ? Shape{1, on} : Shape{on};
    const Shape outs = two_d ? ss : Shape{std::max(sn, has_off ? on : 0)};
    Tensor sc(TensorDesc(ACL_FLOAT, ss)), off(TensorDesc(ACL_FLOAT, os)),
        out(TensorDesc(rng() % 2 ? ACL_UINT64 : ACL_INT64, outs));
    const std::string r = std::string(v3 ? "TransQuantParamV3" : "TransQuantParamV2") + " scale=" + sc.desc().str() +
                          " offset=" + (has_off ? off.desc().str() : "none") + " out=" + out.desc().str() +
                          " roundMode=" + std::to_string(round_mode);
    std::uniform_real_distribution<float> u(-300.0f, 300.0f);
    for (int64_t i = 0; i < sn; ++i) sc.set(two_d ? Shape{0, i} : Shape{i}, Num::real(u(rng) / 64.0f));
    for (int64_t i = 0; i < on; ++i) off.set(os.size() == 2 ? Shape{0, i} : Shape{i}, Num::real(std::nearbyint(u(rng) * 4) / 4));
    sc.upload();
    off.upload();
    aclTensor* o = has_off ? off.get() : nullptr;
    const aclnnStatus st =
        v3 ? run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
               return aclnnTransQuantParamV3GetWorkspaceSize(sc.get(), o, round_mode, out.get(), w, e);
             }, aclnnTransQuantParamV3)
           : run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
               return aclnnTransQuantParamV2GetWorkspaceSize(sc.get(), o, out.get(), w, e);
             }, aclnnTransQuantParamV2);
    ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    out.download();
    const int64_t total = numel(outs);
    for (int64_t i = 0; i < total; ++i) {
      uint64_t got;
      std::memcpy(&got, out.host().data() + i * 8, 8);
      const float s = static_cast<float>(sc.at(two_d ? Shape{0, sn == 1 ? 0 : i} : Shape{sn == 1 ? 0 : i}).as_double());
      const float ov = has_off ? static_cast<float>(off.at(os.size() == 2 ? Shape{0, on == 1 ? 0 : i} : Shape{on == 1 ? 0 : i}).as_double()) : 0.0f;
      const uint64_t want = ref_word(s, has_off, ov, v3 && round_mode == 1);
      EXPECT_EQ(got, want) << r << ": element " << i;
    }
  }
  Tensor sc(TensorDesc(ACL_FLOAT, {4})), off(TensorDesc(ACL_FLOAT, {3})), out(TensorDesc(ACL_UINT64, {4}));
  Tensor outf(TensorDesc(ACL_FLOAT, {4}));
  expect_phase1_error("TransQuantParamV2 offset=[3] scale=[4]", ACLNN_ERR_PARAM_INVALID, "offset", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnTransQuantParamV2GetWorkspaceSize(sc.get(), off.get(), out.get(), w, e);
  });
  expect_phase1_error("TransQuantParamV2 out=float", ACLNN_ERR_PARAM_INVALID, "out dtype", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnTransQuantParamV2GetWorkspaceSize(sc.get(), nullptr, outf.get(), w, e);
  });
  expect_phase1_error("TransQuantParamV3 roundMode=2", ACLNN_ERR_PARAM_INVALID, "roundMode", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnTransQuantParamV3GetWorkspaceSize(sc.get(), nullptr, 2, out.get(), w, e);
  });
}

}  // namespace
