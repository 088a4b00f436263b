// Padding (ConstantPadNd, Reflection/Replication/CircularPad{1,2,3}d and their backward ops) and
// the triangles (Tril, Triu, in-place forms) through the public C API. The pad reference maps each
// out index to its source index per dim, straight from the definitions; the backward reference sums
// gradOutput in double over every out element that reads a given input element.
#include <gtest/gtest.h>

#include "aclnnop/aclnn_circular_pad2d.h"
#include "aclnnop/aclnn_circular_pad2d_backward.h"
#include "aclnnop/aclnn_circular_pad3d.h"
#include "aclnnop/aclnn_circular_pad3d_backward.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_pad2d_backward.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_reflection_pad1d_backward.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_reflection_pad3d.h"
#include "aclnnop/aclnn_reflection_pad3d_backward.h"
#include "aclnnop/aclnn_replication_pad1d.h"
#include "aclnnop/aclnn_replication_pad1d_backward.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "aclnnop/aclnn_replication_pad3d.h"
#include "aclnnop/aclnn_replication_pad3d_backward.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "movement_test_util.h"

namespace {

using namespace optest;

enum class Mode { kReflect, kReplicate, kCircular };

// Source index of out index i of a dim of size n padded by lo before (-1: outside, constant pad).
int64_t source_index(Mode m, bool constant, int64_t i, int64_t n, int64_t lo) {
  int64_t j = i - lo;
  if (j >= 0 && j < n) return j;
  if (constant) return -1;
  switch (m) {
    case Mode::kReflect: return j < 0 ? -j : 2 * n - 2 - j;
    case Mode::kReplicate: return j < 0 ? 0 : n - 1;
    case Mode::kCircular: return ((j % n) + n) % n;
  }
  return -1;
}

using PadFn = aclnnStatus (*)(const aclTensor*, const aclIntArray*, aclTensor*, uint64_t*, aclOpExecutor**);
using PadGradFn = aclnnStatus (*)(const aclTensor*, const aclTensor*, const aclIntArray*, aclTensor*, uint64_t*, aclOpExecutor**);

struct PadOp {
  const char* name;
  Mode mode;
  int dims;
  PadFn fwd;
  Phase2Fn fwd2;
  PadGradFn bwd;
  Phase2Fn bwd2;
  std::vector<aclDataType> types;
};

const std::vector<aclDataType> kCircularTypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8, ACL_INT32};

std::vector<PadOp> pad_ops() {
  return {
      {"ReflectionPad1d", Mode::kReflect, 1, aclnnReflectionPad1dGetWorkspaceSize, aclnnReflectionPad1d, aclnnReflectionPad1dBackwardGetWorkspaceSize, aclnnReflectionPad1dBackward, move_dtypes()},
      {"ReflectionPad2d", Mode::kReflect, 2, aclnnReflectionPad2dGetWorkspaceSize, aclnnReflectionPad2d, aclnnReflectionPad2dBackwardGetWorkspaceSize, aclnnReflectionPad2dBackward, move_dtypes()},
      {"ReflectionPad3d", Mode::kReflect, 3, aclnnReflectionPad3dGetWorkspaceSize, aclnnReflectionPad3d, aclnnReflectionPad3dBackwardGetWorkspaceSize, aclnnReflectionPad3dBackward, move_dtypes()},
      {"ReplicationPad1d", Mode::kReplicate, 1, aclnnReplicationPad1dGetWorkspaceSize, aclnnReplicationPad1d, aclnnReplicationPad1dBackwardGetWorkspaceSize, aclnnReplicationPad1dBackward, move_dtypes()},
      {"ReplicationPad2d", Mode::kReplicate, 2, aclnnReplicationPad2dGetWorkspaceSize, aclnnReplicationPad2d, aclnnReplicationPad2dBackwardGetWorkspaceSize, aclnnReplicationPad2dBackward, move_dtypes()},
      {"ReplicationPad3d", Mode::kReplicate, 3, aclnnReplicationPad3dGetWorkspaceSize, aclnnReplicationPad3d, aclnnReplicationPad3dBackwardGetWorkspaceSize, aclnnReplicationPad3dBackward, move_dtypes()},
      {"CircularPad2d", Mode::kCircular, 2, aclnnCircularPad2dGetWorkspaceSize, aclnnCircularPad2d, aclnnCircularPad2dBackwardGetWorkspaceSize, aclnnCircularPad2dBackward, kCircularTypes},
      {"CircularPad3d", Mode::kCircular, 3, aclnnCircularPad3dGetWorkspaceSize, aclnnCircularPad3d, aclnnCircularPad3dBackwardGetWorkspaceSize, aclnnCircularPad3dBackward, kCircularTypes},
  };
}

// A random padding for the last `dims` dims of s: each pad in (-n/2, n) (negative crops).
std::vector<int64_t> random_padding(Rng& rng, const Shape& s, int dims) {
  std::vector<int64_t> p;
  for (int k = 0; k < dims; ++k) {
    const int64_t n = s[s.size() - 1 - static_cast<size_t>(k)];
    for (int side = 0; side < 2; ++side)
      p.push_back(rng() % 4 == 0 ? -static_cast<int64_t>(rng() % static_cast<uint64_t>((n + 1) / 2)) / 2
                                 : static_cast<int64_t>(rng() % static_cast<uint64_t>(n)));
  }
  return p;
}

Shape padded_shape(const Shape& s, const std::vector<int64_t>& pad) {
  Shape o = s;
  for (size_t i = 0; i < pad.size() / 2; ++i) o[s.size() - 1 - i] += pad[2 * i] + pad[2 * i + 1];
  return o;
}

// Source index of out index i, per dim (-1 in a dim: the constant).
Shape pad_source(Mode m, bool constant, const Shape& s, const std::vector<int64_t>& pad, const Shape& i) {
  Shape j = i;
  for (size_t p = 0; p < pad.size() / 2; ++p) {
    const size_t k = s.size() - 1 - p;
    j[k] = source_index(m, constant, i[k], s[k], pad[2 * p]);
  }
  return j;
}

TEST(Pad, ModesForward) {
  Rng rng(101);
  for (const PadOp& op : pad_ops()) {
    for (int iter = 0; iter < 40; ++iter) {
      const aclDataType t = op.types[static_cast<size_t>(iter) % op.types.size()];
      const int rank = op.dims + 1 + static_cast<int>(rng() % 2);
      Shape s = random_shape(rng, rank, 1, 4);
      if (rank == op.dims + 2 && iter % 13 == 0) s[0] = 0;  // an empty batch
      const std::vector<int64_t> pad = random_padding(rng, s, op.dims);
      const Shape os = padded_shape(s, pad);
      Tensor self(random_view(t, s, rng));
      fill_bytes(self, rng);
      Tensor out(random_view(t, os, rng));
      fill_bytes(out, rng);
      const auto before = out.host();
      IntArray pd(pad);
      const std::string r = std::string(op.name) + " self=" + self.desc().str() + " padding=" + list_str(pad) + " out=" + out.desc().str();
      if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return op.fwd(self.get(), pd.a, out.get(), w, e); }, op.fwd2)) return;
      expect_moved(r, out, before, [&](const Shape& i) { return Source{&self, pad_source(op.mode, false, s, pad, i)}; });
      if (HasFailure()) return;
    }
  }
}

TEST(Pad, ModesBackward) {
  Rng rng(102);
  for (const PadOp& op : pad_ops()) {
    const std::vector<aclDataType> types =
        op.mode == Mode::kCircular ? std::vector<aclDataType>{ACL_FLOAT16, ACL_BF16, ACL_FLOAT}
                                   : std::vector<aclDataType>{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
    for (int iter = 0; iter < 16; ++iter) {
      const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
      const int rank = op.dims + 1 + static_cast<int>(rng() % 2);
      const Shape s = random_shape(rng, rank, 1, 4);
      const std::vector<int64_t> pad = random_padding(rng, s, op.dims);
      const Shape os = padded_shape(s, pad);
      Tensor self(TensorDesc(t, s)), grad_out(random_view(t, os, rng)), grad_in(random_view(t, s, rng));
      FillOptions fo;
      fo.special = 0;
      grad_out.fill_random(rng, fo);
      fill_bytes(grad_in, rng);
      const auto before = grad_in.host();
      IntArray pd(pad);
      const std::string r = std::string(op.name) + "Backward gradOutput=" + grad_out.desc().str() + " self=" + self.desc().str() +
                            " padding=" + list_str(pad) + " gradInput=" + grad_in.desc().str();
      if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return op.bwd(grad_out.get(), self.get(), pd.a, grad_in.get(), w, e); }, op.bwd2))
        return;
      grad_in.download();
      std::vector<double> want(static_cast<size_t>(numel(s)), 0.0);
      for_each_index(os, [&](const Shape& i) { want[static_cast<size_t>(ravel(pad_source(op.mode, false, s, pad, i), s))] += grad_out.at(i).f; });
      for_each_index(s, [&](const Shape& i) {
        const double w = want[static_cast<size_t>(ravel(i, s))];
        const double got = grad_in.at(i).f;
        const double expect = cast(Num::real(w), t).f;
        const bool ok = t == ACL_DOUBLE ? std::fabs(got - w) <= 1e-12 * std::max(1.0, std::fabs(w))
                        : t == ACL_FLOAT ? std::fabs(got - w) <= 1e-5 * std::max(1.0, std::fabs(w))
                                         : ulp_distance(t, expect, got) <= 1;
        EXPECT_TRUE(ok) << r << ": gradInput" << shape_str(i) << " is " << got << ", expected " << w;
      });
      const std::string outside = writes_outside_view(grad_in, before);
      EXPECT_TRUE(outside.empty()) << r << ": wrote outside the gradInput view:" << outside;
      if (HasFailure()) return;
    }
  }
}

TEST(Pad, ModesBadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {1, 2, 3})), out(TensorDesc(ACL_FLOAT, {1, 2, 5})), e(TensorDesc(ACL_FLOAT, {2, 0, 3}));
  Tensor c2(TensorDesc(ACL_FLOAT, {2, 3})), d(TensorDesc(ACL_DOUBLE, {1, 2, 3})), out_i(TensorDesc(ACL_INT32, {1, 2, 5}));
  IntArray good({1, 1}), big({3, 0}), short_pad({1}), two_d({1, 1, 1, 1});
  auto r1 = [](aclTensor* s, aclIntArray* p, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** x) { return aclnnReflectionPad1dGetWorkspaceSize(s, p, o, w, x); };
  };
  expect_phase1_error("null padding", ACLNN_ERR_PARAM_NULLPTR, "padding", r1(self.get(), nullptr, out.get()));
  expect_phase1_error("pad too big", ACLNN_ERR_PARAM_INVALID, "padding[0] is 3, expected a pad < 3", r1(self.get(), big.a, out.get()));
  expect_phase1_error("pad count", ACLNN_ERR_PARAM_INVALID, "padding [1] has 1 entries, expected 2", r1(self.get(), short_pad.a, out.get()));
  expect_phase1_error("rank", ACLNN_ERR_PARAM_INVALID, "self has 2 dims (float32[2, 3]), expected 3 to 4", [&](uint64_t* w, aclOpExecutor** x) { return aclnnReflectionPad2dGetWorkspaceSize(c2.get(), two_d.a, out.get(), w, x); });
  expect_phase1_error("empty", ACLNN_ERR_PARAM_INVALID, "is empty in dim 1", r1(e.get(), good.a, out.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "expected the padded shape [1, 2, 5]",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnReplicationPad1dGetWorkspaceSize(self.get(), good.a, c2.get(), w, x); });
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype int32", r1(self.get(), good.a, out_i.get()));
  expect_phase1_error("circular dtype", ACLNN_ERR_PARAM_INVALID, "self dtype float64",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnCircularPad2dGetWorkspaceSize(d.get(), two_d.a, out.get(), w, x); });
  Tensor go(TensorDesc(ACL_FLOAT, {1, 2, 4})), gi(TensorDesc(ACL_FLOAT, {1, 2, 3})), gi_bad(TensorDesc(ACL_FLOAT, {1, 3, 3}));
  expect_phase1_error("grad shape", ACLNN_ERR_PARAM_INVALID, "gradOutput has shape [1, 2, 4], expected the padded shape of self [1, 2, 5]",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnReflectionPad1dBackwardGetWorkspaceSize(go.get(), self.get(), good.a, gi.get(), w, x); });
  expect_phase1_error("gradInput shape", ACLNN_ERR_PARAM_INVALID, "gradInput has shape [1, 3, 3]",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnReplicationPad1dBackwardGetWorkspaceSize(out.get(), self.get(), good.a, gi_bad.get(), w, x); });
  Tensor ig(TensorDesc(ACL_INT32, {1, 2, 5})), is(TensorDesc(ACL_INT32, {1, 2, 3}));
  expect_phase1_error("grad dtype", ACLNN_ERR_PARAM_INVALID, "self dtype int32",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnReflectionPad1dBackwardGetWorkspaceSize(ig.get(), is.get(), good.a, is.get(), w, x); });
}

// ---- ConstantPadNd ------------------------------------------------------------------------------------

TEST(ConstantPadNd, RandomPadsValuesAndDtypes) {
  Rng rng(111);
  for (int iter = 0; iter < 150; ++iter) {
    const aclDataType t = move_dtypes()[static_cast<size_t>(iter) % move_dtypes().size()];
    const int rank = static_cast<int>(rng() % 5);
    const Shape s = random_shape(rng, rank, iter % 17 == 0 ? 0 : 1, 3);
    std::vector<int64_t> pad;
    for (size_t k = 0; k < rng() % static_cast<uint64_t>(rank + 1); ++k) {
      const int64_t n = s[s.size() - 1 - k];
      pad.push_back(static_cast<int64_t>(rng() % 4) - static_cast<int64_t>(rng() % static_cast<uint64_t>(n + 1)) / 2);
      pad.push_back(static_cast<int64_t>(rng() % 4) - static_cast<int64_t>(rng() % static_cast<uint64_t>(n + 1)) / 2);
    }
    Shape os = s;
    bool negative = false;
    for (size_t i = 0; i < pad.size() / 2; ++i) {
      os[s.size() - 1 - i] += pad[2 * i] + pad[2 * i + 1];
      negative |= os[s.size() - 1 - i] < 0;
    }
    if (negative) continue;
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    Tensor out(random_view(t, os, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    // The fill value as a scalar of a related dtype, and its expected bytes in t.
    uint8_t fill[16] = {};
    ScalarDesc vd;
    if (is_compute_dtype(t)) {
      vd = is_floating(t) ? ScalarDesc(rng() % 2 ? ACL_DOUBLE : ACL_FLOAT, rng() % 2 ? -2.5 : 7.0)
                          : ScalarDesc(rng() % 2 ? ACL_INT64 : ACL_INT32, static_cast<double>(static_cast<int64_t>(rng() % 7) - 3));
      if (t == ACL_BOOL) vd = ScalarDesc(ACL_BOOL, 1.0);
      store(t, fill, cast(vd.value, t));
    } else {
      const int64_t v = static_cast<int64_t>(rng() % 100);
      vd = ScalarDesc(ACL_INT64, static_cast<double>(v));
      if (t == ACL_COMPLEX64) {
        const float f = static_cast<float>(v);
        std::memcpy(fill, &f, 4);
      } else if (t == ACL_COMPLEX128) {
        const double f = static_cast<double>(v);
        std::memcpy(fill, &f, 8);
      } else {
        std::memcpy(fill, &v, dtype_size(t));
      }
    }
    Scalar value(vd);
    IntArray pd(pad);
    const std::string r = "ConstantPadNd self=" + self.desc().str() + " pad=" + list_str(pad) + " value=" + vd.str() + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnConstantPadNdGetWorkspaceSize(self.get(), pd.a, value.get(), out.get(), w, e); }, aclnnConstantPadNd))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      const Shape j = pad_source(Mode::kReflect, true, s, pad, i);
      for (int64_t x : j)
        if (x < 0) return Source{nullptr, {}, fill};
      return Source{&self, j};
    });
    if (HasFailure()) return;
  }
}

TEST(ConstantPadNd, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {2, 5})), out_i(TensorDesc(ACL_INT32, {2, 5}));
  Tensor i32(TensorDesc(ACL_INT32, {2, 3}));
  Scalar v(ScalarDesc(ACL_FLOAT, 1.0)), frac(ScalarDesc(ACL_FLOAT, 1.5));
  IntArray good({1, 1}), odd({1}), many({1, 1, 1, 1, 1, 1}), crop({-2, -2});
  auto call = [&](aclTensor* s, aclIntArray* p, aclScalar* val, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** x) { return aclnnConstantPadNdGetWorkspaceSize(s, p, val, o, w, x); };
  };
  expect_phase1_error("null value", ACLNN_ERR_PARAM_NULLPTR, "value", call(self.get(), good.a, nullptr, out.get()));
  expect_phase1_error("odd", ACLNN_ERR_PARAM_INVALID, "pad [1] has 1 entries, expected an even number of at most 4", call(self.get(), odd.a, v.get(), out.get()));
  expect_phase1_error("too many", ACLNN_ERR_PARAM_INVALID, "has 6 entries", call(self.get(), many.a, v.get(), out.get()));
  expect_phase1_error("negative size", ACLNN_ERR_PARAM_INVALID, "gives a negative size -1", call(self.get(), crop.a, v.get(), out.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype int32", call(self.get(), good.a, v.get(), out_i.get()));
  expect_phase1_error("fractional value", ACLNN_ERR_PARAM_INVALID, "is not an integer", call(i32.get(), good.a, frac.get(), out_i.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "expected the padded shape [2, 5]", call(self.get(), good.a, v.get(), self.get()));
}

// ---- Tril / Triu -----------------------------------------------------------------------------------------

TEST(Triangle, TrilTriuAndInplace) {
  Rng rng(121);
  std::vector<aclDataType> types = move_dtypes();
  types.pop_back();  // complex128 is not a Tril/Triu dtype
  for (int iter = 0; iter < 160; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const bool lower = iter % 2, inplace = iter % 4 >= 2;
    const int rank = 2 + static_cast<int>(rng() % 3);
    const Shape s = random_shape(rng, rank, iter % 19 == 0 ? 0 : 1, 5);
    int64_t k = static_cast<int64_t>(rng() % 11) - 5;
    if (iter % 31 == 0) k = rng() % 2 ? INT64_MAX : INT64_MIN;
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    const auto original = self.host();
    Tensor out(random_view(t, s, rng));
    fill_bytes(out, rng);
    Tensor& target = inplace ? self : out;
    const auto before = target.host();
    const std::string r = std::string(inplace ? "Inplace" : "") + (lower ? "Tril" : "Triu") + " self=" + self.desc().str() +
                          " diagonal=" + std::to_string(k) + (inplace ? "" : " out=" + out.desc().str());
    Phase1Fn p1;
    Phase2Fn p2;
    if (lower && inplace) p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceTrilGetWorkspaceSize(self.get(), k, w, e); }, p2 = aclnnInplaceTril;
    if (lower && !inplace) p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnTrilGetWorkspaceSize(self.get(), k, out.get(), w, e); }, p2 = aclnnTril;
    if (!lower && inplace) p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceTriuGetWorkspaceSize(self.get(), k, w, e); }, p2 = aclnnInplaceTriu;
    if (!lower && !inplace) p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnTriuGetWorkspaceSize(self.get(), k, out.get(), w, e); }, p2 = aclnnTriu;
    if (!run_ok(r, p1, p2)) return;
    // Sources read from the untouched copy of self (in-place overwrites it).
    Tensor ref(self.desc());
    ref.host() = original;
    expect_moved(r, target, before, [&](const Shape& i) {
      const int64_t row = i[i.size() - 2], col = i[i.size() - 1];
      const bool keep = lower ? static_cast<long double>(col) <= static_cast<long double>(row) + k
                              : static_cast<long double>(col) >= static_cast<long double>(row) + k;
      return keep ? Source{&ref, i} : Source{};
    });
    if (HasFailure()) return;
  }
}

TEST(Triangle, BadArguments) {
  Tensor v(TensorDesc(ACL_FLOAT, {3})), m(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {3, 2})), out_i(TensorDesc(ACL_INT32, {2, 3}));
  expect_phase1_error("rank", ACLNN_ERR_PARAM_INVALID, "self has 1 dims", [&](uint64_t* w, aclOpExecutor** e) { return aclnnTrilGetWorkspaceSize(v.get(), 0, v.get(), w, e); });
  expect_phase1_error("shape", ACLNN_ERR_PARAM_INVALID, "out has shape [3, 2]", [&](uint64_t* w, aclOpExecutor** e) { return aclnnTriuGetWorkspaceSize(m.get(), 0, out.get(), w, e); });
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype int32", [&](uint64_t* w, aclOpExecutor** e) { return aclnnTrilGetWorkspaceSize(m.get(), 0, out_i.get(), w, e); });
  expect_phase1_error("null", ACLNN_ERR_PARAM_NULLPTR, "selfRef", [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceTriuGetWorkspaceSize(nullptr, 0, w, e); });
}

}  // namespace

namespace {

using namespace optest;

TEST(Pad, LargePadsUseThreads) {
  Rng rng(103);
  const Shape s = {2, 100, 150};
  const std::vector<int64_t> pad = {5, 17, 99, 3};
  Tensor self(random_view(ACL_FLOAT, s, rng));
  fill_bytes(self, rng);
  const Shape os = padded_shape(s, pad);
  for (Mode m : {Mode::kReflect, Mode::kCircular}) {
    Tensor out(TensorDesc(ACL_FLOAT, os));
    IntArray pd(pad);
    const std::string r = "pad2d mode " + std::to_string(static_cast<int>(m)) + " self=" + self.desc().str() + " padding=" + list_str(pad);
    const PadFn fn = m == Mode::kReflect ? aclnnReflectionPad2dGetWorkspaceSize : m == Mode::kReplicate ? aclnnReplicationPad2dGetWorkspaceSize : aclnnCircularPad2dGetWorkspaceSize;
    const Phase2Fn fn2 = m == Mode::kReflect ? aclnnReflectionPad2d : m == Mode::kReplicate ? aclnnReplicationPad2d : aclnnCircularPad2d;
    ASSERT_TRUE(run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return fn(self.get(), pd.a, out.get(), w, e); }, fn2));
    expect_moved(r, out, out.host(), [&](const Shape& i) { return Source{&self, pad_source(m, false, s, pad, i)}; });
  }
}

}  // namespace
