// Random ops through the public C API. Exact values are the generator's business; these tests check
// what the contract fixes: determinism for a fixed (seed, offset), the offset as a stream position
// (element i draws at offset + 4i, so offset 4k shifts the output by k elements), different seeds
// giving different draws, seed/offset tensors matching host integers, the support of each
// distribution, and its mean / variance / frequencies within statistical bounds (5 sigma).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_dropout_backward.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "aclnnop/aclnn_multinomial.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_randperm.h"
#include "aclnnop/aclnn_sim_thread_exponential.h"
#include "aclnnop/aclnn_uniform.h"
#include "movement_test_util.h"

namespace {

using namespace optest;

// The view's values, in row-major order, as doubles.
std::vector<double> values(Tensor& t) {
  t.download();
  std::vector<double> v;
  for_each_index(t.desc().shape, [&](const Shape& i) {
    const Num n = t.at(i);
    v.push_back(n.is_float ? n.f : static_cast<double>(n.i));
  });
  return v;
}

struct Moments {
  double mean = 0, var = 0;
};
Moments moments(const std::vector<double>& v) {
  Moments m;
  for (double x : v) m.mean += x;
  m.mean /= static_cast<double>(v.size());
  for (double x : v) m.var += (x - m.mean) * (x - m.mean);
  m.var /= static_cast<double>(v.size() - 1);
  return m;
}

// |mean - mu| within 5 standard errors, variance within 10% (n >= 10^4).
void expect_moments(const std::string& r, const std::vector<double>& v, double mu, double var) {
  const Moments m = moments(v);
  const double se = std::sqrt(var / static_cast<double>(v.size()));
  EXPECT_LE(std::fabs(m.mean - mu), 5 * se + 1e-12) << r << ": mean " << m.mean << ", expected " << mu;
  EXPECT_LE(std::fabs(m.var - var), 0.1 * var + 1e-12) << r << ": variance " << m.var << ", expected " << var;
}

// Runs `fill(seed, offset, tensor)` into fresh tensors and checks determinism, the offset shift, a
// different seed; returns the values of (seed 7, offset 0).
std::vector<double> check_stream(const std::string& r, const TensorDesc& d,
                                 const std::function<aclnnStatus(int64_t, int64_t, Tensor&)>& fill,
                                 bool elementwise = true) {
  Tensor a(d), b(d), c(d), s(d);
  Rng rng(1);
  fill_bytes(a, rng);
  const std::vector<uint8_t> before = a.host();
  EXPECT_EQ(fill(7, 0, a), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  EXPECT_EQ(fill(7, 0, b), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  EXPECT_EQ(fill(8, 0, c), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  EXPECT_EQ(fill(7, 12, s), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  const std::vector<double> va = values(a), vb = values(b), vc = values(c), vs = values(s);
  const std::string outside = writes_outside_view(a, before);
  EXPECT_TRUE(outside.empty()) << r << ": wrote outside the view:" << outside;
  EXPECT_EQ(va, vb) << r << ": the same seed and offset must give the same values";
  if (va.size() >= 64) {
    EXPECT_NE(va, vc) << r << ": another seed must give other values";
  }
  for (size_t i = 0; elementwise && i + 3 < va.size(); ++i)
    if (va[i + 3] != vs[i] && !(std::isnan(va[i + 3]) && std::isnan(vs[i]))) {
      ADD_FAILURE() << r << ": offset 12 must shift the draws by 3 elements (element " << i << ")";
      break;
    }
  return va;
}

const std::vector<aclDataType> kFloatTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

TEST(Random, UniformSupportMomentsAndStream) {
  Rng rng(401);
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8, ACL_UINT8}) {
    const double from = is_floating(t) ? -1.5 : 2, to = is_floating(t) ? 2.5 : 12;
    const TensorDesc d = random_view(t, {100, 120}, rng);
    const std::string r = "InplaceUniform selfRef=" + d.str() + " from=" + std::to_string(from) + " to=" + std::to_string(to);
    const auto v = check_stream(r, d, [&](int64_t seed, int64_t offset, Tensor& x) {
      return run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceUniformGetWorkspaceSize(x.get(), from, to, static_cast<uint64_t>(seed), static_cast<uint64_t>(offset), w, e); },
                           aclnnInplaceUniform);
    });
    for (double x : v) {
      if (!(x >= from && x < to)) {
        ADD_FAILURE() << r << ": " << x << " outside [from, to)";
        break;
      }
    }
    if (is_floating(t)) expect_moments(r, v, (from + to) / 2, (to - from) * (to - from) / 12);
    else {  // truncation: integers from .. to-1, each 1/(to-from)
      const double n = to - from;
      expect_moments(r, v, (from + to - 1) / 2, (n * n - 1) / 12);
    }
    if (HasFailure()) return;
  }
}

TEST(Random, RandomIntegersAndWithoutFromTo) {
  Rng rng(402);
  for (aclDataType t : {ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_BOOL}) {
    const int64_t from = t == ACL_BOOL ? 0 : t == ACL_UINT8 ? 3 : -5, to = t == ACL_BOOL ? 2 : 17;
    const TensorDesc d = random_view(t, {150, 80}, rng);
    const std::string r = std::string("InplaceRandom selfRef=") + d.str() + " from=" + std::to_string(from) + " to=" + std::to_string(to);
    const auto v = check_stream(r, d, [&](int64_t seed, int64_t offset, Tensor& x) {
      return run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceRandomGetWorkspaceSize(x.get(), from, to, seed, offset, w, e); },
                           aclnnInplaceRandom);
    });
    std::map<double, int> hist;
    for (double x : v) {
      if (x != std::trunc(x) || x < static_cast<double>(from) || x >= static_cast<double>(to)) {
        ADD_FAILURE() << r << ": " << x << " is not an integer in [from, to)";
        break;
      }
      ++hist[x];
    }
    const double k = static_cast<double>(to - from), expect = static_cast<double>(v.size()) / k;
    EXPECT_EQ(hist.size(), static_cast<size_t>(k)) << r << ": every value must appear";
    for (const auto& [x, c] : hist)
      EXPECT_LE(std::fabs(c - expect), 5 * std::sqrt(expect)) << r << ": value " << x << " drawn " << c << " times, expected ~" << expect;
    if (HasFailure()) return;
  }
  // Without from / to: [0, the largest exact integer of the dtype].
  for (const auto& [t, hi] : std::vector<std::pair<aclDataType, double>>{{ACL_UINT8, 255}, {ACL_INT8, 127}, {ACL_FLOAT16, 2048}, {ACL_BF16, 256}, {ACL_BOOL, 1}}) {
    Tensor x(TensorDesc(t, {4000}));
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceRandomWithoutFromToGetWorkspaceSize(x.get(), 3, 0, w, e); }, aclnnInplaceRandomWithoutFromTo), ACL_SUCCESS);
    const auto v = values(x);
    double lo = 1e300, top = -1e300;
    for (double y : v) lo = std::min(lo, y), top = std::max(top, y);
    EXPECT_GE(lo, 0) << dtype_name(t);
    EXPECT_LE(top, hi) << dtype_name(t);
    EXPECT_GE(top, hi * 0.9) << dtype_name(t) << ": the range must reach near " << hi;
  }
}

TEST(Random, NormalInplaceAndOut) {
  Rng rng(403);
  for (aclDataType t : kFloatTypes) {
    const TensorDesc d = random_view(t, {120, 100}, rng);
    const std::string r = std::string("InplaceNormal selfRef=") + d.str() + " mean=1.5 std=0.5";
    const auto v = check_stream(r, d, [&](int64_t seed, int64_t offset, Tensor& x) {
      return run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceNormalGetWorkspaceSize(x.get(), 1.5f, 0.5f, seed, offset, w, e); },
                           aclnnInplaceNormal);
    });
    expect_moments(r, v, 1.5, 0.25);
    const auto v2 = check_stream("NormalFloatFloat out=" + d.str(), d, [&](int64_t seed, int64_t offset, Tensor& x) {
      return run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnNormalFloatFloatGetWorkspaceSize(-2.0f, 3.0f, seed, offset, x.get(), w, e); },
                           aclnnNormalFloatFloat);
    });
    expect_moments("NormalFloatFloat " + d.str(), v2, -2.0, 9.0);
    if (HasFailure()) return;
  }
  // Tensor means and stds, broadcast: column j has mean j and std (j + 1) / 4.
  for (aclDataType t : kFloatTypes) {
    Tensor mean(TensorDesc(t, {8})), sd(TensorDesc(t, {4000, 8})), out(TensorDesc(t, {4000, 8}));
    for (int64_t j = 0; j < 8; ++j) {
      mean.set({j}, Num::real(static_cast<double>(j)));
      for (int64_t i = 0; i < 4000; ++i) sd.set({i, j}, Num::real(static_cast<double>(j + 1) / 4));
    }
    mean.upload();
    sd.upload();
    const std::string r = std::string("NormalTensorTensor ") + dtype_name(t);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnNormalTensorTensorGetWorkspaceSize(mean.get(), sd.get(), 5, 0, out.get(), w, e); }, aclnnNormalTensorTensor), ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    for (int64_t j = 0; j < 8; ++j) {
      std::vector<double> col;
      for (int64_t i = 0; i < 4000; ++i) col.push_back(out.at({i, j}).f);
      const double s = static_cast<double>(j + 1) / 4;
      expect_moments(r + " column " + std::to_string(j), col, static_cast<double>(j), s * s);
    }
    // Tensor-float and float-tensor forms.
    Tensor out2(TensorDesc(t, {8})), out3(TensorDesc(t, {4000, 8}));
    EXPECT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnNormalTensorFloatGetWorkspaceSize(mean.get(), 0.0f, 5, 0, out2.get(), w, e); }, aclnnNormalTensorFloat), ACL_SUCCESS);
    EXPECT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnNormalFloatTensorGetWorkspaceSize(4.0f, sd.get(), 5, 0, out3.get(), w, e); }, aclnnNormalFloatTensor), ACL_SUCCESS);
    out2.download();
    for (int64_t j = 0; j < 8; ++j) EXPECT_EQ(out2.at({j}).f, static_cast<double>(j)) << r << ": std 0 gives the mean";
    if (HasFailure()) return;
  }
}

TEST(Random, TensorSeedsMatchHostSeeds) {
  Tensor seed(TensorDesc(ACL_INT64, {1})), off(TensorDesc(ACL_INT64, {1}));
  seed.set({0}, Num::integer(11));
  off.set({0}, Num::integer(8));
  seed.upload();
  off.upload();
  Tensor a(TensorDesc(ACL_FLOAT, {300})), b(TensorDesc(ACL_FLOAT, {300}));
  // offsetTensor 8 + offset 4 == host offset 12.
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceUniformGetWorkspaceSize(a.get(), 0, 1, 11, 12, w, e); }, aclnnInplaceUniform), ACL_SUCCESS);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceUniformTensorGetWorkspaceSize(b.get(), 0, 1, seed.get(), off.get(), 4, w, e); }, aclnnInplaceUniformTensor), ACL_SUCCESS);
  EXPECT_EQ(values(a), values(b)) << "InplaceUniformTensor";
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceNormalGetWorkspaceSize(a.get(), 0, 1, 11, 12, w, e); }, aclnnInplaceNormal), ACL_SUCCESS);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceNormalTensorGetWorkspaceSize(b.get(), 0, 1, seed.get(), off.get(), 4, w, e); }, aclnnInplaceNormalTensor), ACL_SUCCESS);
  EXPECT_EQ(values(a), values(b)) << "InplaceNormalTensor";
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceRandomGetWorkspaceSize(a.get(), 0, 100, 11, 12, w, e); }, aclnnInplaceRandom), ACL_SUCCESS);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceRandomTensorGetWorkspaceSize(b.get(), 0, 100, seed.get(), off.get(), 4, w, e); }, aclnnInplaceRandomTensor), ACL_SUCCESS);
  EXPECT_EQ(values(a), values(b)) << "InplaceRandomTensor";
  Tensor w1(TensorDesc(ACL_FLOAT, {3, 50})), m1(TensorDesc(ACL_INT64, {3, 20})), m2(TensorDesc(ACL_INT64, {3, 20}));
  w1.fill(Num::real(1.0));
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnMultinomialGetWorkspaceSize(w1.get(), 20, false, 11, 12, m1.get(), w, e); }, aclnnMultinomial), ACL_SUCCESS);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnMultinomialTensorGetWorkspaceSize(w1.get(), 20, false, seed.get(), off.get(), 4, m2.get(), w, e); }, aclnnMultinomialTensor), ACL_SUCCESS);
  EXPECT_EQ(values(m1), values(m2)) << "MultinomialTensor";
  IntArray shape({40, 5});
  Tensor g1(TensorDesc(ACL_UINT8, {32})), g2(TensorDesc(ACL_UINT8, {32}));
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutGenMaskV2GetWorkspaceSize(shape.a, 0.3, 11, 12, ACL_FLOAT, g1.get(), w, e); }, aclnnDropoutGenMaskV2), ACL_SUCCESS);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutGenMaskV2TensorGetWorkspaceSize(shape.a, 0.3, seed.get(), off.get(), 4, ACL_FLOAT, g2.get(), w, e); }, aclnnDropoutGenMaskV2Tensor), ACL_SUCCESS);
  EXPECT_EQ(values(g1), values(g2)) << "DropoutGenMaskV2Tensor";
}

TEST(Random, BernoulliScalarAndTensor) {
  Rng rng(404);
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_BOOL}) {
    const double p = 0.3;
    const TensorDesc d = random_view(t, {100, 100}, rng);
    Tensor self(TensorDesc(t, {100, 100}));
    Scalar prob(ScalarDesc(ACL_FLOAT, p));
    const std::string r = std::string("Bernoulli out=") + d.str() + " prob=0.3";
    const auto v = check_stream(r, d, [&](int64_t seed, int64_t offset, Tensor& x) {
      return run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnBernoulliGetWorkspaceSize(self.get(), prob.get(), seed, offset, x.get(), w, e); },
                           aclnnBernoulli);
    });
    for (double x : v)
      if (x != 0 && x != 1) {
        ADD_FAILURE() << r << ": " << x << " is not 0 or 1";
        break;
      }
    expect_moments(r, v, p, p * (1 - p));
    // In place, the same draws.
    Tensor in(d);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceBernoulliGetWorkspaceSize(in.get(), prob.get(), 7, 0, w, e); }, aclnnInplaceBernoulli), ACL_SUCCESS);
    EXPECT_EQ(values(in), v) << r << ": InplaceBernoulli";
    if (HasFailure()) return;
  }
  // A probability tensor broadcast over rows: column j has p = j / 7.
  for (aclDataType pt : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE}) {
    Tensor self(TensorDesc(ACL_FLOAT, {6000, 8})), out(TensorDesc(ACL_FLOAT, {6000, 8})), prob(TensorDesc(pt, {8}));
    for (int64_t j = 0; j < 8; ++j) prob.set({j}, Num::real(static_cast<double>(j) / 7));
    prob.upload();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnBernoulliTensorGetWorkspaceSize(self.get(), prob.get(), 3, 0, out.get(), w, e); }, aclnnBernoulliTensor), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    out.download();
    for (int64_t j = 0; j < 8; ++j) {
      std::vector<double> col;
      for (int64_t i = 0; i < 6000; ++i) col.push_back(out.at({i, j}).f);
      const double p = cast(Num::real(static_cast<double>(j) / 7), pt).f;
      expect_moments(std::string("BernoulliTensor prob ") + dtype_name(pt) + " column " + std::to_string(j), col, p, p * (1 - p));
    }
    Tensor in(TensorDesc(ACL_FLOAT, {6000, 8}));
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceBernoulliTensorGetWorkspaceSize(in.get(), prob.get(), 3, 0, w, e); }, aclnnInplaceBernoulliTensor), ACL_SUCCESS);
    EXPECT_EQ(values(in), values(out)) << "InplaceBernoulliTensor";
  }
}

// Bit i of a mask, LSB first.
bool bit(const std::vector<double>& mask, int64_t i) { return (static_cast<int64_t>(mask[static_cast<size_t>(i / 8)]) >> (i % 8)) & 1; }

TEST(Random, DropoutMaskAndScale) {
  Rng rng(405);
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const int64_t n = 5000;
    const double p = 0.25;
    Tensor input(random_view(t, {50, 100}, rng)), out(TensorDesc(t, {50, 100})), mask(TensorDesc(ACL_UINT8, {(n + 127) / 128 * 16}));
    FillOptions fo;
    fo.special = 0;
    input.fill_random(rng, fo);
    fill_bytes(mask, rng);
    const std::string r = std::string("Dropout input=") + input.desc().str() + " p=0.25";
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutGetWorkspaceSize(input.get(), p, true, 9, 0, out.get(), mask.get(), w, e); }, aclnnDropout), ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    const auto mv = values(mask), xv = values(input), ov = values(out);
    std::vector<double> kept;
    for (int64_t i = 0; i < n; ++i) {
      const double want = bit(mv, i) ? cast(Num::real(static_cast<double>(static_cast<float>(xv[static_cast<size_t>(i)]) * static_cast<float>(1 / (1 - p)))), t).f : 0.0;
      if (ov[static_cast<size_t>(i)] != want) {
        ADD_FAILURE() << r << ": out[" << i << "] is " << ov[static_cast<size_t>(i)] << ", expected " << want;
        break;
      }
      kept.push_back(bit(mv, i));
    }
    for (int64_t i = n; i < static_cast<int64_t>(mv.size()) * 8; ++i) EXPECT_FALSE(bit(mv, i)) << r << ": padding bit " << i;
    expect_moments(r, kept, 1 - p, p * (1 - p));
    // DoMask with that mask reproduces out; Backward with scale 1/(1-p) too.
    Tensor o2(TensorDesc(t, {50, 100})), o3(TensorDesc(t, {50, 100}));
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutDoMaskGetWorkspaceSize(input.get(), mask.get(), p, o2.get(), w, e); }, aclnnDropoutDoMask), ACL_SUCCESS);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutBackwardGetWorkspaceSize(input.get(), mask.get(), 1 / (1 - p), o3.get(), w, e); }, aclnnDropoutBackward), ACL_SUCCESS);
    EXPECT_EQ(values(o2), ov) << r << ": DropoutDoMask";
    EXPECT_EQ(values(o3), ov) << r << ": DropoutBackward";
    // train = false, p = 0: out = input, mask untouched; p = 1: zeros.
    fill_bytes(mask, rng);
    const auto before = values(mask);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutGetWorkspaceSize(input.get(), p, false, 9, 0, out.get(), mask.get(), w, e); }, aclnnDropout), ACL_SUCCESS);
    EXPECT_EQ(values(out), xv) << r << ": train=false";
    EXPECT_EQ(values(mask), before) << r << ": train=false leaves maskOut";
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutGetWorkspaceSize(input.get(), 1.0, true, 9, 0, out.get(), mask.get(), w, e); }, aclnnDropout), ACL_SUCCESS);
    for (double x : values(out)) EXPECT_EQ(x, 0.0) << r << ": p=1";
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutDoMaskGetWorkspaceSize(input.get(), mask.get(), 0.0, o2.get(), w, e); }, aclnnDropoutDoMask), ACL_SUCCESS);
    EXPECT_EQ(values(o2), xv) << r << ": DoMask prob 0 leaves self";
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutBackwardGetWorkspaceSize(input.get(), mask.get(), 0.0, o3.get(), w, e); }, aclnnDropoutBackward), ACL_SUCCESS);
    for (double x : values(o3)) EXPECT_EQ(x, 0.0) << r << ": Backward scale 0";
    if (HasFailure()) return;
  }
  // GenMask: bit frequency 1 - prob, zero padding; the stream rules.
  IntArray shape({3, 1000});
  const auto gm = check_stream("DropoutGenMask shape=[3,1000] prob=0.6", TensorDesc(ACL_UINT8, {384}), [&](int64_t seed, int64_t offset, Tensor& x) {
    return run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutGenMaskGetWorkspaceSize(shape.a, 0.6, seed, offset, x.get(), w, e); }, aclnnDropoutGenMask);
  }, false);
  std::vector<double> bits;
  for (int64_t i = 0; i < 3000; ++i) bits.push_back(bit(gm, i));
  for (int64_t i = 3000; i < 384 * 8; ++i) EXPECT_FALSE(bit(gm, i)) << "padding bit " << i;
  expect_moments("DropoutGenMask bits", bits, 0.4, 0.24);
}

TEST(Random, RandpermMultinomialExponential) {
  for (aclDataType t : {ACL_INT64, ACL_INT32, ACL_INT16, ACL_UINT8, ACL_INT8, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16}) {
    const int64_t n = t == ACL_INT8 ? 128 : t == ACL_UINT8 || t == ACL_BF16 ? 256 : 1000;
    const auto v = check_stream(std::string("Randperm ") + dtype_name(t), TensorDesc(t, {n}), [&](int64_t seed, int64_t offset, Tensor& x) {
      return run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnRandpermGetWorkspaceSize(n, seed, offset, x.get(), w, e); }, aclnnRandperm);
    }, false);
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(sorted[static_cast<size_t>(i)], static_cast<double>(i)) << "Randperm " << dtype_name(t) << " is not a permutation";
    int64_t fixed = 0;
    for (int64_t i = 0; i < n; ++i) fixed += v[static_cast<size_t>(i)] == static_cast<double>(i);
    EXPECT_LE(fixed, 8) << "Randperm " << dtype_name(t) << ": " << fixed << " fixed points (about 1 expected)";
  }
  // Multinomial with replacement: frequencies follow the weights; without: distinct, never weight 0.
  for (aclDataType t : kFloatTypes) {
    Tensor w(TensorDesc(t, {2, 5})), out(TensorDesc(ACL_INT64, {2, 6000}));
    const double wt[2][5] = {{1, 0, 2, 3, 4}, {0, 0, 5, 0, 5}};
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t j = 0; j < 5; ++j) w.set({r, j}, Num::real(wt[r][j]));
    w.upload();
    ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) { return aclnnMultinomialGetWorkspaceSize(w.get(), 6000, true, 1, 0, out.get(), ws, e); }, aclnnMultinomial), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    out.download();
    for (int64_t r = 0; r < 2; ++r) {
      const double total = wt[r][0] + wt[r][1] + wt[r][2] + wt[r][3] + wt[r][4];
      for (int64_t j = 0; j < 5; ++j) {
        std::vector<double> hit;
        for (int64_t k = 0; k < 6000; ++k) hit.push_back(out.at({r, k}).i == j);
        const double p = wt[r][j] / total;
        expect_moments(std::string("Multinomial ") + dtype_name(t) + " row " + std::to_string(r) + " category " + std::to_string(j), hit, p, p * (1 - p));
      }
    }
    Tensor out2(TensorDesc(ACL_INT64, {4}));
    Tensor w1(TensorDesc(t, {5}));
    for (int64_t j = 0; j < 5; ++j) w1.set({j}, Num::real(wt[0][j]));
    w1.upload();
    for (int64_t seed = 0; seed < 20; ++seed) {
      ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) { return aclnnMultinomialGetWorkspaceSize(w1.get(), 4, false, seed, 0, out2.get(), ws, e); }, aclnnMultinomial), ACL_SUCCESS);
      std::set<double> seen;
      for (double x : values(out2)) {
        EXPECT_NE(x, 1.0) << "weight 0 drawn without replacement";
        EXPECT_TRUE(seen.insert(x).second) << "repeated draw without replacement";
      }
    }
  }
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const auto v = check_stream(std::string("SimThreadExponential ") + dtype_name(t), TensorDesc(t, {100, 100}), [&](int64_t seed, int64_t offset, Tensor& x) {
      return run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnSimThreadExponentialGetWorkspaceSize(x.get(), 10000, 2.0, seed, offset, w, e); }, aclnnSimThreadExponential);
    });
    for (double x : v)
      if (!(x > 0) || std::isinf(x)) {
        ADD_FAILURE() << "exponential sample " << x;
        break;
      }
    expect_moments(std::string("SimThreadExponential ") + dtype_name(t), v, 0.5, 0.25);
  }
}

TEST(Random, BadArguments) {
  Tensor f(TensorDesc(ACL_FLOAT, {4})), i8(TensorDesc(ACL_INT8, {4})), c(TensorDesc(ACL_COMPLEX64, {4})), i64(TensorDesc(ACL_INT64, {4}));
  Tensor mask(TensorDesc(ACL_UINT8, {16})), bad_mask(TensorDesc(ACL_UINT8, {8})), seed2(TensorDesc(ACL_INT64, {2})), s32(TensorDesc(ACL_INT32, {1}));
  Tensor s64(TensorDesc(ACL_INT64, {1}));
  Scalar half(ScalarDesc(ACL_FLOAT, 0.5)), big(ScalarDesc(ACL_FLOAT, 1.5)), ip(ScalarDesc(ACL_INT32, 1.0));
  auto p1 = [](auto fn) { return Phase1Fn(fn); };
  expect_phase1_error("uniform from > to", ACLNN_ERR_PARAM_INVALID, "expected from <= to",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceUniformGetWorkspaceSize(f.get(), 2, 1, 0, 0, w, e); }));
  expect_phase1_error("uniform range", ACLNN_ERR_PARAM_INVALID, "range [-128, 127]",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceUniformGetWorkspaceSize(i8.get(), 0, 300, 0, 0, w, e); }));
  expect_phase1_error("random from >= to", ACLNN_ERR_PARAM_INVALID, "expected from < to",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceRandomGetWorkspaceSize(f.get(), 3, 3, 0, 0, w, e); }));
  expect_phase1_error("random range", ACLNN_ERR_PARAM_INVALID, "to - 1 = 199",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceRandomGetWorkspaceSize(i8.get(), 0, 200, 0, 0, w, e); }));
  expect_phase1_error("normal std", ACLNN_ERR_PARAM_INVALID, "expected std >= 0",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceNormalGetWorkspaceSize(f.get(), 0, -1, 0, 0, w, e); }));
  expect_phase1_error("normal dtype", ACLNN_ERR_PARAM_INVALID, "complex64",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceNormalGetWorkspaceSize(c.get(), 0, 1, 0, 0, w, e); }));
  expect_phase1_error("seed tensor shape", ACLNN_ERR_PARAM_INVALID, "seedTensor has shape [2], expected [1]",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceNormalTensorGetWorkspaceSize(f.get(), 0, 1, seed2.get(), i64.get(), 0, w, e); }));
  expect_phase1_error("offset tensor dtype", ACLNN_ERR_PARAM_INVALID, "offsetTensor has dtype int32",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceUniformTensorGetWorkspaceSize(f.get(), 0, 1, s64.get(), s32.get(), 0, w, e); }));
  expect_phase1_error("null seed tensor", ACLNN_ERR_PARAM_NULLPTR, "seedTensor",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceRandomTensorGetWorkspaceSize(f.get(), 0, 2, nullptr, i64.get(), 0, w, e); }));
  expect_phase1_error("bernoulli prob", ACLNN_ERR_PARAM_INVALID, "expected 0 <= prob <= 1",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnBernoulliGetWorkspaceSize(f.get(), big.get(), 0, 0, f.get(), w, e); }));
  expect_phase1_error("bernoulli offset", ACLNN_ERR_PARAM_INVALID, "offset is 2, expected a multiple of 4",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnBernoulliGetWorkspaceSize(f.get(), half.get(), 0, 2, f.get(), w, e); }));
  expect_phase1_error("bernoulli prob dtype", ACLNN_ERR_PARAM_INVALID, "prob dtype int32",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceBernoulliGetWorkspaceSize(f.get(), ip.get(), 0, 0, w, e); }));
  expect_phase1_error("dropout p", ACLNN_ERR_PARAM_INVALID, "p is 1.5",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutGetWorkspaceSize(f.get(), 1.5, true, 0, 0, f.get(), mask.get(), w, e); }));
  expect_phase1_error("dropout mask", ACLNN_ERR_PARAM_INVALID, "maskOut has 8 elements",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutGetWorkspaceSize(f.get(), 0.5, true, 0, 0, f.get(), bad_mask.get(), w, e); }));
  expect_phase1_error("backward scale", ACLNN_ERR_PARAM_INVALID, "scale is 0.5",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutBackwardGetWorkspaceSize(f.get(), mask.get(), 0.5, f.get(), w, e); }));
  expect_phase1_error("do mask dtype", ACLNN_ERR_PARAM_INVALID, "self dtype int8",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutDoMaskGetWorkspaceSize(i8.get(), mask.get(), 0.5, f.get(), w, e); }));
  IntArray shape({4});
  expect_phase1_error("gen mask prob dtype", ACLNN_ERR_PARAM_INVALID, "probDataType is int32",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnDropoutGenMaskV2GetWorkspaceSize(shape.a, 0.5, 0, 0, ACL_INT32, mask.get(), w, e); }));
  expect_phase1_error("randperm n", ACLNN_ERR_PARAM_INVALID, "n is -1",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnRandpermGetWorkspaceSize(-1, 0, 0, f.get(), w, e); }));
  Tensor big_u8(TensorDesc(ACL_UINT8, {300}));
  expect_phase1_error("randperm dtype range", ACLNN_ERR_PARAM_INVALID, "too large for out's dtype uint8",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnRandpermGetWorkspaceSize(300, 0, 0, big_u8.get(), w, e); }));
  Tensor w2(TensorDesc(ACL_FLOAT, {2, 3})), o2(TensorDesc(ACL_INT64, {2, 4}));
  expect_phase1_error("multinomial samples", ACLNN_ERR_PARAM_INVALID, "numsamples is 4, expected at most the 3 categories",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnMultinomialGetWorkspaceSize(w2.get(), 4, false, 0, 0, o2.get(), w, e); }));
  expect_phase1_error("multinomial out dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype float32, expected int64",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnMultinomialGetWorkspaceSize(w2.get(), 2, true, 0, 0, w2.get(), w, e); }));
  expect_phase1_error("exponential lambda", ACLNN_ERR_PARAM_INVALID, "lambda is 0",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnSimThreadExponentialGetWorkspaceSize(f.get(), 4, 0.0, 0, 0, w, e); }));
  expect_phase1_error("exponential count", ACLNN_ERR_PARAM_INVALID, "count is 5",
                      p1([&](uint64_t* w, aclOpExecutor** e) { return aclnnSimThreadExponentialGetWorkspaceSize(f.get(), 5, 1.0, 0, 0, w, e); }));
  // Data-dependent errors fail the stream: negative weights, a probability tensor outside [0, 1].
  Tensor neg(TensorDesc(ACL_FLOAT, {3})), o3(TensorDesc(ACL_INT64, {2}));
  neg.set({0}, Num::real(-1.0));
  neg.upload();
  EXPECT_NE(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnMultinomialGetWorkspaceSize(neg.get(), 2, true, 0, 0, o3.get(), w, e); }, aclnnMultinomial), ACL_SUCCESS);
  Tensor pbad(TensorDesc(ACL_FLOAT, {4}));
  pbad.fill(Num::real(2.0));
  EXPECT_NE(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnBernoulliTensorGetWorkspaceSize(f.get(), pbad.get(), 0, 0, f.get(), w, e); }, aclnnBernoulliTensor), ACL_SUCCESS);
  Tensor zero_w(TensorDesc(ACL_FLOAT, {3}));
  zero_w.fill(Num::real(0.0));
  EXPECT_NE(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnMultinomialGetWorkspaceSize(zero_w.get(), 2, true, 0, 0, o3.get(), w, e); }, aclnnMultinomial), ACL_SUCCESS);
}

}  // namespace
