// Reductions through the public C API, part 1: ReduceSum, Mean, MeanV2, Amax, Amin, MaxDim,
// MinDim, ArgMax, ArgMin, and the engine they share (strided and transposed views, interleaved
// reduced dims, empty reductions, split reductions, workspace).
//
// References are computed here from the host copies: each output element's slice is gathered in
// reduction order, converted to the compute dtype with PyTorch's cast semantics, and folded in
// double (floating) or wrapping 64-bit integers (integral). Sums may differ from the exact double
// result by the rounding into the output dtype plus 1e-5 of the sum of magnitudes (float32
// accumulation: blocks of 32 terms per lane; 1e-12 for float64). Extremes and indices are exact;
// the index is that of the first extreme, NaN counting as the extreme.
#include <gtest/gtest.h>

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "reduce_test_util.h"

namespace {

using namespace rtest;

void run_reduce_sum(Rng& rng, aclDataType st, aclDataType dtype) {
  Problem p = random_problem(rng, st, false, true);
  const TensorDesc od = out_view(rng, dtype, p.out_shape);
  const std::string r = repro("ReduceSum", p, std::string(" dtype=") + dtype_name(dtype), od);
  Tensor self(p.self), out(od);
  fill(self, rng, 0.05);
  fill(out, rng, 0);
  const auto before = out.host();
  IntArray dims(p.dims);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnReduceSumGetWorkspaceSize(self.get(), dims.a, p.keepdim, dtype, out.get(), w, e);
            }, aclnnReduceSum), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  out.download();
  check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
    return check_sum(dtype, vals, out.at(out_index(full, p.mask, p.keepdim)), false);
  });
  const std::string outside = writes_outside_view(out, before);
  EXPECT_TRUE(outside.empty()) << r << ": wrote outside the out view:" << outside;
}

TEST(ReduceSum, RandomShapesDimsAndDtypes) {
  Rng rng(11);
  for (int iter = 0; iter < 160; ++iter) {
    const aclDataType st = kAll[static_cast<size_t>(iter) % kAll.size()];
    const aclDataType dtype = rng() % 2 ? st : kAll[rng() % kAll.size()];
    run_reduce_sum(rng, st, dtype);
    if (HasFailure()) return;
  }
}

TEST(ReduceSum, IntegerSumsWrapAndCastFirst) {
  // int8 100 + 100 wraps to -56; float 1.5 + 1.5 with dtype int32 is 1 + 1 (cast first).
  Tensor a(TensorDesc(ACL_INT8, {2})), ao(TensorDesc(ACL_INT8, {}));
  a.set({0}, Num::integer(100));
  a.set({1}, Num::integer(100));
  a.upload();
  IntArray all({});
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnReduceSumGetWorkspaceSize(a.get(), all.a, false, ACL_INT8, ao.get(), w, e);
            }, aclnnReduceSum), ACL_SUCCESS) << aclGetRecentErrMsg();
  ao.download();
  EXPECT_EQ(ao.at({}).i, -56);
  Tensor f(TensorDesc(ACL_FLOAT, {2})), fo(TensorDesc(ACL_INT32, {1}));
  f.set({0}, Num::real(1.5));
  f.set({1}, Num::real(1.5));
  f.upload();
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnReduceSumGetWorkspaceSize(f.get(), all.a, true, ACL_INT32, fo.get(), w, e);
            }, aclnnReduceSum), ACL_SUCCESS) << aclGetRecentErrMsg();
  fo.download();
  EXPECT_EQ(fo.at({0}).i, 2);
}

// Workspace: none when self is read in place (any dtype) and out is dense of the compute dtype; a
// buffer for float16 results, a copy for interleaved reduced dims, partial results for a long split
// reduction.
TEST(ReduceSum, WorkspaceFollowsTheLayout) {
  auto ws_of = [](const TensorDesc& sd, const std::vector<int64_t>& d, const Shape& os, aclDataType ot = ACL_DT_UNDEFINED) {
    if (ot == ACL_DT_UNDEFINED) ot = sd.dtype;
    Tensor self(sd), out(TensorDesc(ot, os));
    IntArray dims(d);
    uint64_t ws = 0;
    EXPECT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnReduceSumGetWorkspaceSize(self.get(), dims.a, false, ot, out.get(), w, e);
              }, aclnnReduceSum, &ws), ACL_SUCCESS) << aclGetRecentErrMsg();
    return ws;
  };
  EXPECT_EQ(ws_of(TensorDesc(ACL_FLOAT, {8, 300}), {-1}, {8}), 0u);
  EXPECT_EQ(ws_of(TensorDesc(ACL_FLOAT, {8, 300}), {0}, {300}), 0u);
  EXPECT_EQ(ws_of(TensorDesc(ACL_FLOAT16, {4, 5, 6}), {1}, {4, 6}, ACL_FLOAT), 0u);  // converted as it is read
  EXPECT_GT(ws_of(TensorDesc(ACL_FLOAT16, {4, 5, 6}), {1}, {4, 6}), 0u);  // float results rounded into float16
  EXPECT_EQ(ws_of(TensorDesc(ACL_FLOAT, {4, 300}, {1, 4}), {0}, {300}), 0u);  // transposed: still one strided view
  EXPECT_GT(ws_of(TensorDesc(ACL_FLOAT, {4, 5, 6}), {0, 2}, {5}), 0u);          // interleaved: copied
  EXPECT_GT(ws_of(TensorDesc(ACL_FLOAT, {1 << 18}), {0}, {}), 0u);              // split: partial sums
}

// Long reductions split into chunks (rows and columns), against a double reference.
TEST(ReduceSum, SplitReductions) {
  Rng rng(12);
  struct Shp {
    Shape shape;
    std::vector<int64_t> dims;
  };
  const aclDataType types[] = {ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_FLOAT};
  int k = 0;
  for (const Shp& c : {Shp{{140001}, {0}}, Shp{{3, 70000}, {1}}, Shp{{33001, 5}, {0}}, Shp{{2, 35000, 3}, {0, 1}}}) {
    {
      const aclDataType t = types[k++];
      Problem p;
      p.self = TensorDesc(t, c.shape);
      p.dims = c.dims;
      p.mask = mask_of(c.dims, c.shape.size(), true);
      p.out_shape = reduced(c.shape, p.mask, false);
      const aclDataType dt = t == ACL_FLOAT16 ? ACL_FLOAT : t;
      const TensorDesc od(dt, p.out_shape);
      const std::string r = repro("ReduceSum", p, std::string(" dtype=") + dtype_name(dt), od);
      Tensor self(p.self), out(od);
      fill(self, rng, 0);
      IntArray dims(p.dims);
      ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnReduceSumGetWorkspaceSize(self.get(), dims.a, false, dt, out.get(), w, e);
                }, aclnnReduceSum), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
      out.download();
      check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
        return check_sum(dt, vals, out.at(out_index(full, p.mask, false)), false);
      });
    }
  }
}

TEST(ReduceSum, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {2}));
  Tensor out_i(TensorDesc(ACL_INT32, {2})), out_shape(TensorDesc(ACL_FLOAT, {3}));
  Tensor cplx(TensorDesc(ACL_COMPLEX64, {2, 3})), big(TensorDesc(ACL_FLOAT, {1, 1, 1, 1, 1, 1, 1, 1, 1}));
  IntArray d1({1}), bad({2}), rep({1, -1});
  auto call = [](aclTensor* s, aclIntArray* d, aclDataType t, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnReduceSumGetWorkspaceSize(s, d, false, t, o, w, e); };
  };
  expect_phase1_error("null self", ACLNN_ERR_PARAM_NULLPTR, "self", call(nullptr, d1.a, ACL_FLOAT, out.get()));
  expect_phase1_error("null dims", ACLNN_ERR_PARAM_NULLPTR, "dims", call(self.get(), nullptr, ACL_FLOAT, out.get()));
  expect_phase1_error("null out", ACLNN_ERR_PARAM_NULLPTR, "out", call(self.get(), d1.a, ACL_FLOAT, nullptr));
  expect_phase1_error("dim range", ACLNN_ERR_PARAM_INVALID, "[-2, 1]", call(self.get(), bad.a, ACL_FLOAT, out.get()));
  expect_phase1_error("dim repeated", ACLNN_ERR_PARAM_INVALID, "more than once", call(self.get(), rep.a, ACL_FLOAT, out.get()));
  expect_phase1_error("dtype vs out", ACLNN_ERR_PARAM_INVALID, "dtype argument", call(self.get(), d1.a, ACL_FLOAT, out_i.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "[2]", call(self.get(), d1.a, ACL_FLOAT, out_shape.get()));
  expect_phase1_error("bad dtype", ACLNN_ERR_PARAM_INVALID, "dtype", call(self.get(), d1.a, ACL_UINT32, out.get()));
  expect_phase1_error("complex", ACLNN_ERR_PARAM_INVALID, "complex64", call(cplx.get(), d1.a, ACL_FLOAT, out.get()));
  expect_phase1_error("rank 9", ACLNN_ERR_PARAM_INVALID, "at most 8", call(big.get(), d1.a, ACL_FLOAT, out.get()));
}

// ---- mean ---------------------------------------------------------------------------------------------

TEST(Mean, RandomShapesDimsAndDtypes) {
  Rng rng(13);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                          ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8};
  const std::vector<aclDataType> floats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType st = types[static_cast<size_t>(iter) % types.size()];
    aclDataType dtype = is_floating(st) ? floats[rng() % floats.size()] : (rng() % 3 ? ACL_FLOAT : st);
    if (rng() % 3 == 0) dtype = st;
    const aclDataType ot = rng() % 4 == 0 && is_floating(dtype) ? ACL_DOUBLE : dtype;
    Problem p = random_problem(rng, st, false, true);
    const TensorDesc od = out_view(rng, ot, p.out_shape);
    const std::string r = repro("Mean", p, std::string(" dtype=") + dtype_name(dtype), od);
    Tensor self(p.self), out(od);
    fill(self, rng, 0.05);
    IntArray dims(p.dims);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnMeanGetWorkspaceSize(self.get(), dims.a, p.keepdim, dtype, out.get(), w, e);
              }, aclnnMean), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    out.download();
    check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
      Num got = out.at(out_index(full, p.mask, p.keepdim));
      if (ot != dtype && !std::isnan(got.f)) got = cast(got, dtype);  // float64 out holds the dtype's result
      if (vals.empty()) return std::isnan(got.f) || !is_floating(dtype) ? std::string() : "empty mean is not NaN";
      return check_sum(dtype, vals, got, true);
    });
    if (HasFailure()) return;
  }
}

TEST(Mean, V2NoopWithEmptyAxesCopies) {
  Rng rng(14);
  Tensor self(TensorDesc(ACL_FLOAT16, {3, 4}, {1, 3})), out(TensorDesc(ACL_FLOAT16, {3, 4})), all(TensorDesc(ACL_FLOAT16, {1, 1}));
  fill(self, rng, 0);
  IntArray none({});
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnMeanV2GetWorkspaceSize(self.get(), none.a, false, true, out.get(), w, e);
            }, aclnnMeanV2), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  for_each_index({3, 4}, [&](const Shape& i) { EXPECT_TRUE(same_number(self.at(i), out.at(i))) << shape_str(i); });
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnMeanV2GetWorkspaceSize(self.get(), none.a, true, false, all.get(), w, e);
            }, aclnnMeanV2), ACL_SUCCESS) << aclGetRecentErrMsg();
  all.download();
  double s = 0;
  for_each_index({3, 4}, [&](const Shape& i) { s += self.at(i).f; });
  EXPECT_TRUE(close(ACL_FLOAT16, s / 12, all.at({0, 0}).f, 1e-5 * 12)) << all.at({0, 0}).f << " vs " << s / 12;
}

TEST(Mean, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {2})), out_i(TensorDesc(ACL_INT32, {2}));
  Tensor bself(TensorDesc(ACL_BOOL, {2, 3}));
  IntArray d1({1});
  auto call = [](aclTensor* s, aclIntArray* d, aclDataType t, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnMeanGetWorkspaceSize(s, d, false, t, o, w, e); };
  };
  expect_phase1_error("null dim", ACLNN_ERR_PARAM_NULLPTR, "dim", call(self.get(), nullptr, ACL_FLOAT, out.get()));
  expect_phase1_error("float to int dtype", ACLNN_ERR_PARAM_INVALID, "cannot be cast", call(self.get(), d1.a, ACL_INT32, out_i.get()));
  expect_phase1_error("dtype to out", ACLNN_ERR_PARAM_INVALID, "cannot be cast", call(self.get(), d1.a, ACL_FLOAT, out_i.get()));
  expect_phase1_error("bool self", ACLNN_ERR_PARAM_INVALID, "bool", call(bself.get(), d1.a, ACL_FLOAT, out.get()));
  expect_phase1_error("v2 out dtype", ACLNN_ERR_PARAM_INVALID, "dtype of self", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMeanV2GetWorkspaceSize(self.get(), d1.a, false, false, out_i.get(), w, e);
  });
}

// ---- extremes -----------------------------------------------------------------------------------------

void run_amax_amin(Rng& rng, aclDataType t, bool is_max) {
  Problem p = random_problem(rng, t, false, true);
  const TensorDesc od = out_view(rng, t, p.out_shape);
  const char* name = is_max ? "Amax" : "Amin";
  const std::string r = repro(name, p, "", od);
  Tensor self(p.self), out(od);
  fill(self, rng, 0.05);
  IntArray dims(p.dims);
  auto p1 = [&](uint64_t* w, aclOpExecutor** e) {
    return is_max ? aclnnAmaxGetWorkspaceSize(self.get(), dims.a, p.keepdim, out.get(), w, e)
                  : aclnnAminGetWorkspaceSize(self.get(), dims.a, p.keepdim, out.get(), w, e);
  };
  const bool empty = numel(p.out_shape) > 0 && reduced(p.self.shape, p.mask, false) != p.self.shape &&
                     numel(p.self.shape) == 0;
  if (empty) {
    expect_phase1_error(r, ACLNN_ERR_PARAM_INVALID, "no identity", p1);
    return;
  }
  ASSERT_EQ(run_two_phase(p1, is_max ? aclnnAmax : aclnnAmin), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  out.download();
  check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
    const Num want = extreme(vals, is_max), got = out.at(out_index(full, p.mask, p.keepdim));
    return same_number(want, got) ? std::string() : "got " + num_str(got) + ", expected " + num_str(want);
  });
}

TEST(Amax, RandomShapesDimsAndDtypes) {
  Rng rng(15);
  for (int iter = 0; iter < 120; ++iter) {
    run_amax_amin(rng, kAll[static_cast<size_t>(iter) % kAll.size()], true);
    if (HasFailure()) return;
  }
}

TEST(Amin, RandomShapesDimsAndDtypes) {
  Rng rng(16);
  for (int iter = 0; iter < 120; ++iter) {
    run_amax_amin(rng, kAll[static_cast<size_t>(iter) % kAll.size()], false);
    if (HasFailure()) return;
  }
}

TEST(Amax, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {2})), out_h(TensorDesc(ACL_FLOAT16, {2}));
  Tensor empty(TensorDesc(ACL_FLOAT, {2, 0})), eout(TensorDesc(ACL_FLOAT, {2}));
  IntArray d1({1}), bad({-3});
  auto call = [](aclTensor* s, aclIntArray* d, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnAmaxGetWorkspaceSize(s, d, false, o, w, e); };
  };
  expect_phase1_error("null dim", ACLNN_ERR_PARAM_NULLPTR, "dim", call(self.get(), nullptr, out.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "dtype of self", call(self.get(), d1.a, out_h.get()));
  expect_phase1_error("dim range", ACLNN_ERR_PARAM_INVALID, "[-2, 1]", call(self.get(), bad.a, out.get()));
  expect_phase1_error("empty reduction", ACLNN_ERR_PARAM_INVALID, "no identity", call(empty.get(), d1.a, eout.get()));
}

// ---- arg reductions -------------------------------------------------------------------------------------

void run_arg(Rng& rng, aclDataType t, bool is_max, bool with_values) {
  Problem p = random_problem(rng, t, true, false);
  const aclDataType it = rng() % 2 ? ACL_INT64 : ACL_INT32;
  const TensorDesc od = out_view(rng, with_values ? t : it, p.out_shape);
  const TensorDesc id = out_view(rng, it, p.out_shape);
  const char* name = with_values ? (is_max ? "MaxDim" : "MinDim") : (is_max ? "ArgMax" : "ArgMin");
  const std::string r = repro(name, p, with_values ? " indices=" + id.str() : "", od);
  Tensor self(p.self), out(od), idx(id);
  // Few distinct values so that ties (first index wins) are common.
  const size_t es = dtype_size(t);
  for (int64_t k = 0; k < p.self.storage_elems(); ++k)
    store(t, self.host().data() + k * es, rng() % 4 ? Num::integer(static_cast<int64_t>(rng() % 3)) : value(t, rng, 0.1));
  self.upload();
  const int64_t dim = p.dims[0];
  auto p1 = [&](uint64_t* w, aclOpExecutor** e) {
    if (with_values)
      return is_max ? aclnnMaxDimGetWorkspaceSize(self.get(), dim, p.keepdim, out.get(), idx.get(), w, e)
                    : aclnnMinDimGetWorkspaceSize(self.get(), dim, p.keepdim, out.get(), idx.get(), w, e);
    return is_max ? aclnnArgMaxGetWorkspaceSize(self.get(), dim, p.keepdim, out.get(), w, e)
                  : aclnnArgMinGetWorkspaceSize(self.get(), dim, p.keepdim, out.get(), w, e);
  };
  if (numel(p.out_shape) > 0 && numel(p.self.shape) == 0) {
    expect_phase1_error(r, ACLNN_ERR_PARAM_INVALID, "no identity", p1);
    return;
  }
  ASSERT_EQ(run_two_phase(p1, with_values ? (is_max ? aclnnMaxDim : aclnnMinDim) : (is_max ? aclnnArgMax : aclnnArgMin)),
            ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  out.download();
  idx.download();
  check_slices(r, self, p, [&](const Shape& full, const std::vector<Num>& vals) {
    const Shape o = out_index(full, p.mask, p.keepdim);
    const int64_t want = arg_extreme(vals, is_max);
    const int64_t got = with_values ? idx.at(o).i : out.at(o).i;
    if (got != want) return "index " + std::to_string(got) + ", expected " + std::to_string(want);
    if (with_values && !same_number(extreme(vals, is_max), out.at(o)))
      return "value " + num_str(out.at(o)) + ", expected " + num_str(extreme(vals, is_max));
    return std::string();
  });
}

TEST(ArgMax, RandomShapesDimsAndDtypes) {
  Rng rng(17);
  for (int iter = 0; iter < 100; ++iter) {
    run_arg(rng, kAll[static_cast<size_t>(iter) % 9], iter % 2 == 0, false);  // no bool
    if (HasFailure()) return;
  }
}

TEST(MaxDim, RandomShapesDimsAndDtypes) {
  Rng rng(18);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_BOOL, ACL_BF16, ACL_INT32};
  for (int iter = 0; iter < 100; ++iter) {
    run_arg(rng, types[static_cast<size_t>(iter) % types.size()], iter % 2 == 0, true);
    if (HasFailure()) return;
  }
}

// A split reduction: the extreme sits in a late chunk, ties with earlier chunks must keep the first.
TEST(ArgMax, SplitReductionKeepsFirstIndex) {
  const int64_t n = 400000;
  Tensor self(TensorDesc(ACL_FLOAT, {n})), out(TensorDesc(ACL_INT64, {})), vals(TensorDesc(ACL_FLOAT, {}));
  for (int64_t k = 0; k < n; ++k) self.set({k}, Num::real(static_cast<double>(k % 1000)));
  self.set({350001}, Num::real(5000));
  self.set({380000}, Num::real(5000));
  self.upload();
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnMaxDimGetWorkspaceSize(self.get(), 0, false, vals.get(), out.get(), w, e);
            }, aclnnMaxDim), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  vals.download();
  EXPECT_EQ(out.at({}).i, 350001);
  EXPECT_EQ(vals.at({}).f, 5000);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnArgMinGetWorkspaceSize(self.get(), 0, false, out.get(), w, e);
            }, aclnnArgMin), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  EXPECT_EQ(out.at({}).i, 0);
}

TEST(ArgMax, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_INT64, {2})), out_f(TensorDesc(ACL_FLOAT, {2}));
  Tensor bself(TensorDesc(ACL_BOOL, {2, 3})), out_shape(TensorDesc(ACL_INT64, {3}));
  auto call = [](aclTensor* s, int64_t d, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnArgMaxGetWorkspaceSize(s, d, false, o, w, e); };
  };
  expect_phase1_error("null self", ACLNN_ERR_PARAM_NULLPTR, "self", call(nullptr, 1, out.get()));
  expect_phase1_error("null out", ACLNN_ERR_PARAM_NULLPTR, "out", call(self.get(), 1, nullptr));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out dtype float32", call(self.get(), 1, out_f.get()));
  expect_phase1_error("bool self", ACLNN_ERR_PARAM_INVALID, "self dtype bool", call(bself.get(), 1, out.get()));
  expect_phase1_error("dim", ACLNN_ERR_PARAM_INVALID, "dim is 2", call(self.get(), 2, out.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "[2]", call(self.get(), 1, out_shape.get()));
  Tensor v(TensorDesc(ACL_FLOAT, {2})), vi(TensorDesc(ACL_FLOAT, {2}));
  expect_phase1_error("indices dtype", ACLNN_ERR_PARAM_INVALID, "indices", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMaxDimGetWorkspaceSize(self.get(), 1, false, v.get(), vi.get(), w, e);
  });
  expect_phase1_error("null indices", ACLNN_ERR_PARAM_NULLPTR, "indices", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMaxDimGetWorkspaceSize(self.get(), 1, false, v.get(), nullptr, w, e);
  });
}

}  // namespace
