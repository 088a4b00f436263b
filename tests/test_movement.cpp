// Layout, join and split ops of the movement family through the public C API: Cat, Stack,
// SplitTensor, SplitWithSize, ChunkCat, Slice, SliceV2, Flatten, Expand, Repeat, Flip, Roll, Diag,
// DiagFlat, RepeatInterleave*. Each reference says, for every out element, which source element it
// is (written directly from the op's definition), and the check compares bytes.
#include <gtest/gtest.h>

#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_chunk_cat.h"
#include "aclnnop/aclnn_diag.h"
#include "aclnnop/aclnn_diag_flat.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_flatten.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"
#include "movement_test_util.h"

namespace {

using namespace optest;

std::string descs(const std::vector<std::unique_ptr<Tensor>>& ts) {
  std::string r = "[";
  for (size_t i = 0; i < ts.size(); ++i) r += (i ? ", " : "") + ts[i]->desc().str();
  return r + "]";
}

std::vector<const Tensor*> ptrs(const std::vector<std::unique_ptr<Tensor>>& ts) {
  std::vector<const Tensor*> r;
  for (const auto& t : ts) r.push_back(t.get());
  return r;
}

int64_t wrap(int64_t d, int64_t rank) { return d < 0 ? d + rank : d; }

// ---- Cat / Stack ----------------------------------------------------------------------------------

const std::vector<aclDataType> kCatTypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE,    ACL_INT8,
                                            ACL_UINT8,  ACL_INT16,   ACL_INT32,  ACL_INT64,     ACL_BOOL,
                                            ACL_UINT16, ACL_UINT32,  ACL_UINT64, ACL_COMPLEX64};

TEST(Cat, RandomShapesDimsViewsAndDtypes) {
  Rng rng(11);
  for (int iter = 0; iter < 150; ++iter) {
    const aclDataType t = kCatTypes[static_cast<size_t>(iter) % kCatTypes.size()];
    const int rank = 1 + static_cast<int>(rng() % 4);
    const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) - (rng() % 2 ? rank : 0);
    const size_t d = static_cast<size_t>(wrap(dim, rank));
    const Shape base = random_shape(rng, rank, 1, 3);
    const size_t n = 1 + rng() % 4;
    std::vector<std::unique_ptr<Tensor>> ins;
    Shape out_shape = base;
    out_shape[d] = 0;
    for (size_t k = 0; k < n; ++k) {
      Shape s = base;
      s[d] = static_cast<int64_t>(rng() % 4);
      out_shape[d] += s[d];
      ins.push_back(std::make_unique<Tensor>(random_view(t, s, rng)));
      fill_bytes(*ins.back(), rng);
    }
    Tensor out(random_view(t, out_shape, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    TensorList list(ptrs(ins));
    const std::string r = "Cat tensors=" + descs(ins) + " dim=" + std::to_string(dim) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnCatGetWorkspaceSize(list.get(), dim, out.get(), w, e); }, aclnnCat))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      Shape j = i;
      size_t k = 0;
      for (; j[d] >= ins[k]->desc().shape[d]; ++k) j[d] -= ins[k]->desc().shape[d];
      return Source{ins[k].get(), j};
    });
    if (HasFailure()) return;
  }
}

TEST(Cat, MixedDtypesPromoteAndConvert) {
  Rng rng(12);
  struct Case {
    aclDataType a, b, out;
  };
  for (const Case& c : {Case{ACL_INT32, ACL_FLOAT, ACL_FLOAT}, Case{ACL_FLOAT16, ACL_BF16, ACL_FLOAT},
                        Case{ACL_INT8, ACL_UINT8, ACL_INT16}, Case{ACL_BOOL, ACL_INT64, ACL_DOUBLE},
                        Case{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT16}}) {
    Tensor a(random_view(c.a, {2, 3}, rng)), b(random_view(c.b, {2, 2}, rng)), out(TensorDesc(c.out, {2, 5}));
    a.fill_random(rng);
    b.fill_random(rng);
    TensorList list({&a, &b});
    const std::string r = "Cat tensors=[" + a.desc().str() + ", " + b.desc().str() + "] dim=-1 out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnCatGetWorkspaceSize(list.get(), -1, out.get(), w, e); }, aclnnCat))
      return;
    out.download();
    for_each_index({2, 5}, [&](const Shape& i) {
      const Num src = i[1] < 3 ? a.at(i) : b.at({i[0], i[1] - 3});
      const Num want = cast(src, c.out);
      if (want.undefined) return;
      EXPECT_TRUE(same_value(c.out, want, out.at(i))) << r << ": out" << shape_str(i) << " is " << num_str(out.at(i))
                                                      << ", expected " << num_str(want);
    });
  }
}

TEST(Cat, LegacyEmptyTensorsAreSkipped) {
  Rng rng(13);
  Tensor a(TensorDesc(ACL_FLOAT, {2, 3})), e(TensorDesc(ACL_FLOAT, {0})), b(TensorDesc(ACL_FLOAT, {1, 3}));
  Tensor out(TensorDesc(ACL_FLOAT, {3, 3}));
  fill_bytes(a, rng);
  fill_bytes(b, rng);
  TensorList list({&a, &e, &b});
  ASSERT_TRUE(run_ok("Cat [2,3],[0],[1,3] dim=0", [&](uint64_t* w, aclOpExecutor** x) { return aclnnCatGetWorkspaceSize(list.get(), 0, out.get(), w, x); }, aclnnCat));
  expect_moved("Cat legacy empty", out, out.host(), [&](const Shape& i) {
    return i[0] < 2 ? Source{&a, i} : Source{&b, {0, i[1]}};
  });
}

TEST(Cat, BadArguments) {
  Tensor a(TensorDesc(ACL_FLOAT, {2, 3})), b(TensorDesc(ACL_FLOAT, {2, 4})), c(TensorDesc(ACL_FLOAT, {2, 3, 1}));
  Tensor u(TensorDesc(ACL_UINT32, {2, 3})), z(TensorDesc(ACL_FLOAT, {}));
  Tensor out(TensorDesc(ACL_FLOAT, {4, 3})), out_int(TensorDesc(ACL_INT32, {4, 3}));
  TensorList ab({&a, &b}), aa({&a, &a}), ac({&a, &c}), au({&a, &u}), zz({&z, &z}), empty({});
  auto call = [](aclTensorList* l, int64_t dim, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnCatGetWorkspaceSize(l, dim, o, w, e); };
  };
  expect_phase1_error("null tensors", ACLNN_ERR_PARAM_NULLPTR, "tensors", call(nullptr, 0, out.get()));
  expect_phase1_error("null out", ACLNN_ERR_PARAM_NULLPTR, "out", call(aa.get(), 0, nullptr));
  expect_phase1_error("empty list", ACLNN_ERR_PARAM_INVALID, "empty", call(empty.get(), 0, out.get()));
  expect_phase1_error("shape mismatch", ACLNN_ERR_PARAM_INVALID, "tensors[1] has shape [2, 4]", call(ab.get(), 0, out.get()));
  expect_phase1_error("rank mismatch", ACLNN_ERR_PARAM_INVALID, "tensors[1] has 3 dims", call(ac.get(), 0, out.get()));
  expect_phase1_error("dim range", ACLNN_ERR_PARAM_INVALID, "dim is 2, expected a dim in [-2, 1]", call(aa.get(), 2, out.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [4, 3], expected the joined shape [2, 6]", call(aa.get(), 1, out.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "cannot be cast", call(aa.get(), 0, out_int.get()));
  expect_phase1_error("no common dtype", ACLNN_ERR_PARAM_INVALID, "tensors[1] has dtype uint32", call(au.get(), 0, out.get()));
  expect_phase1_error("0-d", ACLNN_ERR_PARAM_INVALID, "tensors[0] has 0 dims", call(zz.get(), 0, out.get()));
}

TEST(Stack, RandomShapesDimsViewsAndDtypes) {
  Rng rng(21);
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = move_dtypes()[static_cast<size_t>(iter) % move_dtypes().size()];
    const int rank = static_cast<int>(rng() % 4);
    const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank + 1)) - (rng() % 2 ? rank + 1 : 0);
    const size_t d = static_cast<size_t>(wrap(dim, rank + 1));
    const Shape s = random_shape(rng, rank, iter % 17 == 0 ? 0 : 1, 3);
    const size_t n = 1 + rng() % 4;
    std::vector<std::unique_ptr<Tensor>> ins;
    for (size_t k = 0; k < n; ++k) {
      ins.push_back(std::make_unique<Tensor>(random_view(t, s, rng)));
      fill_bytes(*ins.back(), rng);
    }
    Shape os = s;
    os.insert(os.begin() + static_cast<int64_t>(d), static_cast<int64_t>(n));
    Tensor out(random_view(t, os, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    TensorList list(ptrs(ins));
    const std::string r = "Stack tensors=" + descs(ins) + " dim=" + std::to_string(dim) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnStackGetWorkspaceSize(list.get(), dim, out.get(), w, e); }, aclnnStack))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      Shape j = i;
      j.erase(j.begin() + static_cast<int64_t>(d));
      return Source{ins[static_cast<size_t>(i[d])].get(), j};
    });
    if (HasFailure()) return;
  }
}

TEST(Stack, BadArguments) {
  Tensor a(TensorDesc(ACL_FLOAT, {2, 3})), b(TensorDesc(ACL_FLOAT, {3, 2})), out(TensorDesc(ACL_FLOAT, {2, 2, 3}));
  TensorList ab({&a, &b}), aa({&a, &a});
  auto call = [](aclTensorList* l, int64_t dim, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnStackGetWorkspaceSize(l, dim, o, w, e); };
  };
  expect_phase1_error("shape mismatch", ACLNN_ERR_PARAM_INVALID, "tensors[1] has shape [3, 2]", call(ab.get(), 0, out.get()));
  expect_phase1_error("dim range", ACLNN_ERR_PARAM_INVALID, "dim is 3, expected a dim in [-3, 2]", call(aa.get(), 3, out.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "expected the stacked shape [2, 3, 2]", call(aa.get(), -1, out.get()));
}

// ---- Split ------------------------------------------------------------------------------------------

// Runs a split into outs of `sizes` along d and checks each block.
void check_split(Rng& rng, const std::string& what, const Tensor& self, int64_t d, const std::vector<int64_t>& sizes,
                 const std::function<aclnnStatus(aclTensorList*, uint64_t*, aclOpExecutor**)>& p1, Phase2Fn p2) {
  std::vector<std::unique_ptr<Tensor>> outs;
  std::vector<std::vector<uint8_t>> before;
  for (int64_t s : sizes) {
    Shape os = self.desc().shape;
    os[static_cast<size_t>(d)] = s;
    outs.push_back(std::make_unique<Tensor>(random_view(self.desc().dtype, os, rng)));
    fill_bytes(*outs.back(), rng);
    before.push_back(outs.back()->host());
  }
  TensorList list(ptrs(outs));
  const std::string r = what + " self=" + self.desc().str() + " out=" + descs(outs);
  if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return p1(list.get(), w, e); }, p2)) return;
  int64_t at = 0;
  for (size_t k = 0; k < outs.size(); ++k) {
    expect_moved(r + " out[" + std::to_string(k) + "]", *outs[k], before[k], [&](const Shape& i) {
      Shape j = i;
      j[static_cast<size_t>(d)] += at;
      return Source{&self, j};
    });
    at += sizes[k];
  }
}

TEST(Split, TensorAndWithSizeRandom) {
  Rng rng(31);
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = move_dtypes()[static_cast<size_t>(iter) % move_dtypes().size()];
    const int rank = 1 + static_cast<int>(rng() % 4);
    const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) - (rng() % 2 ? rank : 0);
    const int64_t d = wrap(dim, rank);
    Shape s = random_shape(rng, rank, 1, 3);
    s[static_cast<size_t>(d)] = static_cast<int64_t>(rng() % 7) + (iter % 11 == 0 ? 0 : 1);
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    const int64_t n = s[static_cast<size_t>(d)];
    if (iter % 2 == 0) {
      const uint64_t sections = n == 0 ? 0 : 1 + rng() % static_cast<uint64_t>(n + 1);
      std::vector<int64_t> sizes;
      if (n == 0) sizes.push_back(0);
      for (int64_t at = 0; at < n; at += static_cast<int64_t>(sections)) sizes.push_back(std::min<int64_t>(static_cast<int64_t>(sections), n - at));
      check_split(rng, "SplitTensor sections=" + std::to_string(sections) + " dim=" + std::to_string(dim), self, d, sizes,
                  [&](aclTensorList* o, uint64_t* w, aclOpExecutor** e) { return aclnnSplitTensorGetWorkspaceSize(self.get(), sections, dim, o, w, e); },
                  aclnnSplitTensor);
    } else {
      std::vector<int64_t> sizes;
      for (int64_t left = n; left > 0;) {
        sizes.push_back(std::min<int64_t>(left, static_cast<int64_t>(rng() % 4)));
        left -= sizes.back();
      }
      if (sizes.empty() || rng() % 3 == 0) sizes.push_back(0);
      IntArray sz(sizes);
      check_split(rng, "SplitWithSize splitSize=" + list_str(sizes) + " dim=" + std::to_string(dim), self, d, sizes,
                  [&](aclTensorList* o, uint64_t* w, aclOpExecutor** e) { return aclnnSplitWithSizeGetWorkspaceSize(self.get(), sz.a, dim, o, w, e); },
                  aclnnSplitWithSize);
    }
    if (HasFailure()) return;
  }
}

TEST(Split, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {5, 2})), a(TensorDesc(ACL_FLOAT, {2, 2})), b(TensorDesc(ACL_FLOAT, {3, 2}));
  Tensor c(TensorDesc(ACL_INT32, {3, 2})), z(TensorDesc(ACL_FLOAT, {}));
  TensorList ab({&a, &b}), aa({&a, &a}), ac({&a, &c});
  IntArray good({2, 3}), bad_sum({2, 2}), negative({6, -1});
  auto split_size = [&](aclTensor* s, aclIntArray* sz, int64_t dim, aclTensorList* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnSplitWithSizeGetWorkspaceSize(s, sz, dim, o, w, e); };
  };
  auto split_tensor = [&](aclTensor* s, uint64_t sec, int64_t dim, aclTensorList* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnSplitTensorGetWorkspaceSize(s, sec, dim, o, w, e); };
  };
  expect_phase1_error("null self", ACLNN_ERR_PARAM_NULLPTR, "self", split_size(nullptr, good.a, 0, ab.get()));
  expect_phase1_error("null splitSize", ACLNN_ERR_PARAM_NULLPTR, "splitSize", split_size(self.get(), nullptr, 0, ab.get()));
  expect_phase1_error("null out", ACLNN_ERR_PARAM_NULLPTR, "out", split_size(self.get(), good.a, 0, nullptr));
  expect_phase1_error("sum", ACLNN_ERR_PARAM_INVALID, "sums to 4, expected the size 5", split_size(self.get(), bad_sum.a, 0, ab.get()));
  expect_phase1_error("negative", ACLNN_ERR_PARAM_INVALID, "splitSize[1] is -1", split_size(self.get(), negative.a, 0, ab.get()));
  expect_phase1_error("dim", ACLNN_ERR_PARAM_INVALID, "dim is 2, expected a dim in [-2, 1]", split_size(self.get(), good.a, 2, ab.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "out[1] has shape [2, 2]", split_size(self.get(), good.a, 0, aa.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out[1] has dtype int32", split_size(self.get(), good.a, 0, ac.get()));
  expect_phase1_error("0-d", ACLNN_ERR_PARAM_INVALID, "self has 0 dims", split_size(z.get(), good.a, 0, ab.get()));
  expect_phase1_error("sections 0", ACLNN_ERR_PARAM_INVALID, "splitSections is 0", split_tensor(self.get(), 0, 0, ab.get()));
  expect_phase1_error("count", ACLNN_ERR_PARAM_INVALID, "out has 2 tensors, expected 3", split_tensor(self.get(), 2, 0, ab.get()));
}

// ---- ChunkCat -----------------------------------------------------------------------------------------

TEST(ChunkCat, RandomShapesAndDtypes) {
  Rng rng(41);
  const std::vector<std::pair<aclDataType, aclDataType>> types = {
      {ACL_FLOAT, ACL_FLOAT}, {ACL_FLOAT16, ACL_FLOAT16}, {ACL_BF16, ACL_BF16}, {ACL_FLOAT16, ACL_FLOAT}, {ACL_BF16, ACL_FLOAT}};
  for (int iter = 0; iter < 60; ++iter) {
    const auto [ti, to] = types[static_cast<size_t>(iter) % types.size()];
    const int64_t chunks = 1 + static_cast<int64_t>(rng() % 4);
    const size_t n = 1 + rng() % 3;
    std::vector<std::unique_ptr<Tensor>> ins;
    std::vector<int64_t> rows, inner;
    int64_t cols = 0;
    for (size_t k = 0; k < n; ++k) {
      const Shape s = random_shape(rng, 1 + static_cast<int>(rng() % 3), 1, 4);
      ins.push_back(std::make_unique<Tensor>(random_view(ti, s, rng)));
      ins.back()->fill_random(rng);
      rows.push_back((s[0] + chunks - 1) / chunks);
      inner.push_back(numel(s) / s[0]);
      cols += rows.back() * inner.back();
    }
    Tensor out(TensorDesc(to, {chunks, cols}));
    TensorList list(ptrs(ins));
    const std::string r = "ChunkCat tensors=" + descs(ins) + " numChunks=" + std::to_string(chunks) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnChunkCatGetWorkspaceSize(list.get(), 0, chunks, out.get(), w, e); }, aclnnChunkCat))
      return;
    out.download();
    for_each_index({chunks, cols}, [&](const Shape& i) {
      int64_t col = i[1];
      size_t k = 0;
      for (; col >= rows[k] * inner[k]; ++k) col -= rows[k] * inner[k];
      const int64_t row = i[0] * rows[k] + col / inner[k];
      Num want = Num::real(0.0);
      if (row < ins[k]->desc().shape[0]) {
        Shape j = unravel(col % inner[k], ins[k]->desc().shape);
        j[0] = row;
        want = cast(ins[k]->at(j), to);
      }
      EXPECT_TRUE(same_value(to, want, out.at(i))) << r << ": out" << shape_str(i) << " is " << num_str(out.at(i)) << ", expected " << num_str(want);
    });
    if (HasFailure()) return;
  }
}

TEST(ChunkCat, BadArguments) {
  Tensor a(TensorDesc(ACL_FLOAT, {2, 3})), h(TensorDesc(ACL_FLOAT16, {2, 3})), i(TensorDesc(ACL_INT32, {2, 3}));
  Tensor out(TensorDesc(ACL_FLOAT, {2, 3})), out_half(TensorDesc(ACL_FLOAT16, {2, 3}));
  TensorList aa({&a}), ah({&a, &h}), ii({&i});
  auto call = [](aclTensorList* l, int64_t dim, int64_t chunks, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnChunkCatGetWorkspaceSize(l, dim, chunks, o, w, e); };
  };
  expect_phase1_error("dim", ACLNN_ERR_PARAM_INVALID, "dim is 1, expected 0", call(aa.get(), 1, 2, out.get()));
  expect_phase1_error("chunks", ACLNN_ERR_PARAM_INVALID, "numChunks is 0", call(aa.get(), 0, 0, out.get()));
  expect_phase1_error("mixed", ACLNN_ERR_PARAM_INVALID, "tensors[1] has dtype float16", call(ah.get(), 0, 2, out.get()));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "tensors[0] dtype int32", call(ii.get(), 0, 2, out.get()));
  expect_phase1_error("narrow out", ACLNN_ERR_PARAM_INVALID, "at least as wide", call(aa.get(), 0, 2, out_half.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "expected the chunked shape [1, 6]", call(aa.get(), 0, 1, out.get()));
}

// ---- Slice / SliceV2 ------------------------------------------------------------------------------------

const std::vector<aclDataType> kSliceTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8, ACL_BOOL};

// Python's slice bounds: negative counts from the end, then clamped to [0, n], end >= start.
void python_bounds(int64_t n, int64_t* start, int64_t* end) {
  auto fix = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
  *start = fix(*start);
  *end = std::max(*start, fix(*end));
}

TEST(Slice, RandomBoundsStepsAndViews) {
  Rng rng(51);
  for (int iter = 0; iter < 200; ++iter) {
    const aclDataType t = kSliceTypes[static_cast<size_t>(iter) % kSliceTypes.size()];
    const int rank = 1 + static_cast<int>(rng() % 4);
    const Shape s = random_shape(rng, rank, iter % 19 == 0 ? 0 : 1, 5);
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    const bool v2 = iter % 2;
    std::vector<int64_t> axes, starts, ends, steps;
    for (int64_t k = 0; k < rank; ++k) {
      if (v2 ? rng() % 2 == 0 : k != static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) || !axes.empty()) continue;
      const int64_t n = s[static_cast<size_t>(k)];
      axes.push_back(rng() % 2 ? k : k - rank);
      starts.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * n + 5)) - n - 2);
      ends.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * n + 5)) - n - 2);
      steps.push_back(1 + static_cast<int64_t>(rng() % 3));
    }
    if (!v2 && axes.empty()) {
      axes = {0};
      starts = {0};
      ends = {s[0]};
      steps = {1};
    }
    Shape os = s;
    std::vector<int64_t> first(static_cast<size_t>(rank), 0), step(static_cast<size_t>(rank), 1);
    for (size_t i = 0; i < axes.size(); ++i) {
      const size_t k = static_cast<size_t>(wrap(axes[i], rank));
      int64_t b = starts[i], e = ends[i];
      python_bounds(s[k], &b, &e);
      os[k] = (e - b + steps[i] - 1) / steps[i];
      first[k] = b;
      step[k] = steps[i];
    }
    Tensor out(random_view(t, os, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    std::string r;
    bool ok;
    if (v2) {
      IntArray a(axes), st(starts), en(ends), sp(steps);
      r = "SliceV2 self=" + self.desc().str() + " starts=" + list_str(starts) + " ends=" + list_str(ends) + " axes=" + list_str(axes) +
          " steps=" + list_str(steps) + " out=" + out.desc().str();
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnSliceV2GetWorkspaceSize(self.get(), st.a, en.a, a.a, sp.a, out.get(), w, e); }, aclnnSliceV2);
    } else {
      r = "Slice self=" + self.desc().str() + " dim=" + std::to_string(axes[0]) + " start=" + std::to_string(starts[0]) +
          " end=" + std::to_string(ends[0]) + " step=" + std::to_string(steps[0]) + " out=" + out.desc().str();
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnSliceGetWorkspaceSize(self.get(), axes[0], starts[0], ends[0], steps[0], out.get(), w, e); }, aclnnSlice);
    }
    if (!ok) return;
    expect_moved(r, out, before, [&](const Shape& i) {
      Shape j = i;
      for (size_t k = 0; k < j.size(); ++k) j[k] = first[k] + i[k] * step[k];
      return Source{&self, j};
    });
    if (HasFailure()) return;
  }
}

TEST(Slice, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {4, 3})), out(TensorDesc(ACL_FLOAT, {2, 3})), out_i(TensorDesc(ACL_INT32, {2, 3}));
  Tensor d(TensorDesc(ACL_DOUBLE, {4, 3})), z(TensorDesc(ACL_FLOAT, {}));
  auto call = [](aclTensor* s, int64_t dim, int64_t b, int64_t e, int64_t st, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** x) { return aclnnSliceGetWorkspaceSize(s, dim, b, e, st, o, w, x); };
  };
  expect_phase1_error("null self", ACLNN_ERR_PARAM_NULLPTR, "self", call(nullptr, 0, 0, 2, 1, out.get()));
  expect_phase1_error("step 0", ACLNN_ERR_PARAM_INVALID, "step is 0, expected a step > 0", call(self.get(), 0, 0, 2, 0, out.get()));
  expect_phase1_error("dim", ACLNN_ERR_PARAM_INVALID, "dim is -3, expected a dim in [-2, 1]", call(self.get(), -3, 0, 2, 1, out.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "expected the sliced shape [3, 3]", call(self.get(), 0, 1, 9, 1, out.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype int32", call(self.get(), 0, 0, 2, 1, out_i.get()));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "self dtype float64 is not supported", call(d.get(), 0, 0, 2, 1, out.get()));
  expect_phase1_error("0-d", ACLNN_ERR_PARAM_INVALID, "self has 0 dims", call(z.get(), 0, 0, 2, 1, out.get()));
  IntArray two({0, 0}), one({0}), rep({1, -1}), neg_step({1, -1});
  auto v2 = [&](aclIntArray* st, aclIntArray* en, aclIntArray* ax, aclIntArray* sp) {
    return [=, &self, &out](uint64_t* w, aclOpExecutor** x) { return aclnnSliceV2GetWorkspaceSize(self.get(), st, en, ax, sp, out.get(), w, x); };
  };
  expect_phase1_error("v2 counts", ACLNN_ERR_PARAM_INVALID, "the same number", v2(two.a, one.a, two.a, two.a));
  expect_phase1_error("v2 repeated axis", ACLNN_ERR_PARAM_INVALID, "more than once", v2(two.a, two.a, rep.a, rep.a));
  expect_phase1_error("v2 null", ACLNN_ERR_PARAM_NULLPTR, "axes", v2(one.a, one.a, nullptr, one.a));
  IntArray ax01({0, 1});
  expect_phase1_error("v2 step", ACLNN_ERR_PARAM_INVALID, "steps[1] is -1", v2(two.a, two.a, ax01.a, neg_step.a));
}

// ---- Flatten / Expand / Repeat / Flip ---------------------------------------------------------------------

TEST(Flatten, RandomAxesAndViews) {
  Rng rng(61);
  const std::vector<aclDataType> types = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_UINT16,
                                          ACL_UINT32, ACL_UINT64, ACL_BOOL, ACL_BF16, ACL_FLOAT, ACL_FLOAT16};
  for (int iter = 0; iter < 100; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int rank = static_cast<int>(rng() % 5);
    const Shape s = random_shape(rng, rank, iter % 13 == 0 ? 0 : 1, 3);
    const int64_t r1 = std::max(rank, 1);
    const int64_t axis = static_cast<int64_t>(rng() % static_cast<uint64_t>(r1)) - (rng() % 2 ? r1 : 0);
    const int64_t a = wrap(axis, r1);
    int64_t rows = 1, cols = 1;
    for (int64_t k = 0; k < rank; ++k) (k < a ? rows : cols) *= s[static_cast<size_t>(k)];
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    Tensor out(random_view(t, {rows, cols}, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    const std::string r = "Flatten self=" + self.desc().str() + " axis=" + std::to_string(axis) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnFlattenGetWorkspaceSize(self.get(), axis, out.get(), w, e); }, aclnnFlatten))
      return;
    expect_moved(r, out, before, [&](const Shape& i) { return Source{&self, unravel(i[0] * cols + i[1], s)}; });
    if (HasFailure()) return;
  }
}

TEST(Expand, RandomBroadcasts) {
  Rng rng(62);
  const std::vector<aclDataType> types = {ACL_FLOAT16, ACL_FLOAT, ACL_UINT8, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_BF16};
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int rank = static_cast<int>(rng() % 4);
    const int extra = static_cast<int>(rng() % 3);
    Shape s = random_shape(rng, rank, 1, 3);
    for (auto& d : s)
      if (rng() % 3 == 0) d = 1;
    std::vector<int64_t> size;
    Shape os;
    for (int k = 0; k < extra; ++k) {
      size.push_back(static_cast<int64_t>(rng() % 3) + (iter % 23 == 0 ? 0 : 1));
      os.push_back(size.back());
    }
    for (int64_t d : s) {
      const int64_t target = d == 1 && rng() % 2 ? static_cast<int64_t>(rng() % 4) : d;
      size.push_back(rng() % 3 == 0 && target == d ? -1 : target);
      os.push_back(target);
    }
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    Tensor out(random_view(t, os, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    IntArray sz(size);
    const std::string r = "Expand self=" + self.desc().str() + " size=" + list_str(size) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnExpandGetWorkspaceSize(self.get(), sz.a, out.get(), w, e); }, aclnnExpand))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      Shape j(s.size());
      for (size_t k = 0; k < s.size(); ++k) j[k] = s[k] == 1 ? 0 : i[k + static_cast<size_t>(extra)];
      return Source{&self, j};
    });
    if (HasFailure()) return;
  }
}

TEST(Repeat, RandomRepeats) {
  Rng rng(63);
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = move_dtypes()[static_cast<size_t>(iter) % move_dtypes().size()];
    const int rank = static_cast<int>(rng() % 4);
    const int extra = static_cast<int>(rng() % 3);
    const Shape s = random_shape(rng, rank, 1, 3);
    std::vector<int64_t> reps;
    Shape os, padded(static_cast<size_t>(extra), 1);
    padded.insert(padded.end(), s.begin(), s.end());
    for (size_t k = 0; k < padded.size(); ++k) {
      reps.push_back(static_cast<int64_t>(rng() % 3) + (iter % 17 == 0 ? 0 : 1));
      os.push_back(reps.back() * padded[k]);
    }
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    Tensor out(random_view(t, os, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    IntArray rp(reps);
    const std::string r = "Repeat self=" + self.desc().str() + " repeats=" + list_str(reps) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatGetWorkspaceSize(self.get(), rp.a, out.get(), w, e); }, aclnnRepeat))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      Shape j(s.size());
      for (size_t k = 0; k < s.size(); ++k) j[k] = i[k + static_cast<size_t>(extra)] % s[k];
      return Source{&self, j};
    });
    if (HasFailure()) return;
  }
}

TEST(Flip, RandomDims) {
  Rng rng(64);
  const std::vector<aclDataType> types = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_INT64, ACL_BOOL,
                                          ACL_INT8, ACL_UINT8, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int rank = 1 + static_cast<int>(rng() % 4);
    const Shape s = random_shape(rng, rank, iter % 19 == 0 ? 0 : 1, 4);
    std::vector<int64_t> dims;
    std::vector<bool> flipped(static_cast<size_t>(rank), false);
    for (int k = 0; k < rank; ++k)
      if (rng() % 2) {
        dims.push_back(rng() % 2 ? k : k - rank);
        flipped[static_cast<size_t>(k)] = true;
      }
    std::shuffle(dims.begin(), dims.end(), rng);
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    Tensor out(random_view(t, s, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    IntArray dd(dims);
    const std::string r = "Flip self=" + self.desc().str() + " dims=" + list_str(dims) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnFlipGetWorkspaceSize(self.get(), dd.a, out.get(), w, e); }, aclnnFlip))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      Shape j = i;
      for (size_t k = 0; k < j.size(); ++k)
        if (flipped[k]) j[k] = s[k] - 1 - i[k];
      return Source{&self, j};
    });
    if (HasFailure()) return;
  }
}

TEST(Layout, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out6(TensorDesc(ACL_FLOAT, {1, 6})), out23(TensorDesc(ACL_FLOAT, {2, 3}));
  Tensor d(TensorDesc(ACL_DOUBLE, {2, 3})), out_i(TensorDesc(ACL_INT32, {2, 3}));
  expect_phase1_error("Flatten axis", ACLNN_ERR_PARAM_INVALID, "axis is 2, expected a dim in [-2, 1]",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnFlattenGetWorkspaceSize(self.get(), 2, out6.get(), w, e); });
  expect_phase1_error("Flatten out", ACLNN_ERR_PARAM_INVALID, "expected the flattened shape [2, 3]",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnFlattenGetWorkspaceSize(self.get(), 1, out6.get(), w, e); });
  expect_phase1_error("Flatten dtype", ACLNN_ERR_PARAM_INVALID, "self dtype float64",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnFlattenGetWorkspaceSize(d.get(), 1, out23.get(), w, e); });
  IntArray short_size({3}), bad_size({2, 4}), neg_new({-1, 2, 3});
  expect_phase1_error("Expand short", ACLNN_ERR_PARAM_INVALID, "expected at least the 2 dims",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnExpandGetWorkspaceSize(self.get(), short_size.a, out23.get(), w, e); });
  expect_phase1_error("Expand mismatch", ACLNN_ERR_PARAM_INVALID, "size[1] is 4 but self [2, 3] has size 3",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnExpandGetWorkspaceSize(self.get(), bad_size.a, out23.get(), w, e); });
  expect_phase1_error("Expand new -1", ACLNN_ERR_PARAM_INVALID, "size[0] is -1",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnExpandGetWorkspaceSize(self.get(), neg_new.a, out23.get(), w, e); });
  expect_phase1_error("Expand null size", ACLNN_ERR_PARAM_NULLPTR, "size",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnExpandGetWorkspaceSize(self.get(), nullptr, out23.get(), w, e); });
  IntArray rep_short({2}), rep_neg({1, -1});
  expect_phase1_error("Repeat short", ACLNN_ERR_PARAM_INVALID, "expected at least the 2 dims of self",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatGetWorkspaceSize(self.get(), rep_short.a, out23.get(), w, e); });
  expect_phase1_error("Repeat negative", ACLNN_ERR_PARAM_INVALID, "repeats[1] is -1",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatGetWorkspaceSize(self.get(), rep_neg.a, out23.get(), w, e); });
  IntArray flip_rep({0, -2}), flip_range({2});
  expect_phase1_error("Flip repeated", ACLNN_ERR_PARAM_INVALID, "more than once",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnFlipGetWorkspaceSize(self.get(), flip_rep.a, out23.get(), w, e); });
  expect_phase1_error("Flip range", ACLNN_ERR_PARAM_INVALID, "dims is 2, expected a dim in [-2, 1]",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnFlipGetWorkspaceSize(self.get(), flip_range.a, out23.get(), w, e); });
  expect_phase1_error("Flip dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype int32",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnFlipGetWorkspaceSize(self.get(), flip_range.a, out_i.get(), w, e); });
}

// ---- Roll ----------------------------------------------------------------------------------------------

TEST(Roll, RandomShiftsAndDims) {
  Rng rng(71);
  const std::vector<aclDataType> types = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_UINT8, ACL_INT32,
                                          ACL_INT64, ACL_UINT32, ACL_BOOL, ACL_INT16, ACL_COMPLEX64};
  for (int iter = 0; iter < 150; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int rank = static_cast<int>(rng() % 4);
    const Shape s = random_shape(rng, rank, iter % 23 == 0 ? 0 : 1, 4);
    std::vector<int64_t> dims, shifts;
    const bool flat = rank == 0 || rng() % 4 == 0;
    if (flat) {
      shifts.push_back(static_cast<int64_t>(rng() % 21) - 10);
    } else {
      for (size_t n = 1 + rng() % 3; n > 0; --n) {  // a dim may appear twice
        dims.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) - (rng() % 2 ? rank : 0));
        shifts.push_back(static_cast<int64_t>(rng() % 21) - 10);
      }
    }
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    Tensor out(random_view(t, s, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    IntArray sh(shifts), dd(dims);
    const std::string r = "Roll x=" + self.desc().str() + " shifts=" + list_str(shifts) + " dims=" + list_str(dims) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnRollGetWorkspaceSize(self.get(), sh.a, dd.a, out.get(), w, e); }, aclnnRoll))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      auto mod = [](int64_t a, int64_t n) { return ((a % n) + n) % n; };
      if (flat) {
        const int64_t n = numel(s);
        return Source{&self, unravel(mod(ravel(i, s) - shifts[0], n), s)};
      }
      Shape j = i;
      for (size_t k = 0; k < dims.size(); ++k) {
        const size_t d = static_cast<size_t>(wrap(dims[k], rank));
        j[d] = mod(j[d] - shifts[k], s[d]);
      }
      return Source{&self, j};
    });
    if (HasFailure()) return;
  }
}

TEST(Roll, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {2, 3})), out_bad(TensorDesc(ACL_FLOAT, {3, 2}));
  IntArray one({1}), two({1, 1}), none({}), range({2});
  auto call = [&](aclIntArray* s, aclIntArray* d, aclTensor* o) {
    return [=, &x](uint64_t* w, aclOpExecutor** e) { return aclnnRollGetWorkspaceSize(x.get(), s, d, o, w, e); };
  };
  expect_phase1_error("count", ACLNN_ERR_PARAM_INVALID, "shifts has 1 entries and dims 2", call(one.a, two.a, out.get()));
  expect_phase1_error("flat count", ACLNN_ERR_PARAM_INVALID, "expected 1 when dims is empty", call(two.a, none.a, out.get()));
  expect_phase1_error("range", ACLNN_ERR_PARAM_INVALID, "dims is 2, expected a dim in [-2, 1]", call(one.a, range.a, out.get()));
  expect_phase1_error("out", ACLNN_ERR_PARAM_INVALID, "out has shape [3, 2]", call(one.a, one.a, out_bad.get()));
  expect_phase1_error("null shifts", ACLNN_ERR_PARAM_NULLPTR, "shifts", call(nullptr, one.a, out.get()));
}

// ---- Diag / DiagFlat ---------------------------------------------------------------------------------------

const std::vector<aclDataType> kDiagTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16,
                                             ACL_INT8,  ACL_UINT8,   ACL_BOOL,   ACL_COMPLEX64, ACL_BF16};

TEST(Diag, VectorsAndMatrices) {
  Rng rng(81);
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = kDiagTypes[static_cast<size_t>(iter) % kDiagTypes.size()];
    const bool flat = iter % 3 == 2;
    const int rank = flat ? static_cast<int>(rng() % 4) : 1 + static_cast<int>(rng() % 2);
    const Shape s = random_shape(rng, rank, 1, 4);
    int64_t k = static_cast<int64_t>(rng() % 7) - 3;
    Shape os;
    if (rank == 2 && !flat) {
      k = std::clamp<int64_t>(k, -(s[0] - 1), s[1] - 1);
      os = {std::max<int64_t>(0, k >= 0 ? std::min(s[0], s[1] - k) : std::min(s[0] + k, s[1]))};
    } else {
      const int64_t m = numel(s) + std::abs(k);
      os = {m, m};
    }
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    Tensor out(random_view(t, os, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    const std::string r = std::string(flat ? "DiagFlat" : "Diag") + " self=" + self.desc().str() + " diagonal=" + std::to_string(k) + " out=" + out.desc().str();
    const bool ok = flat ? run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnDiagFlatGetWorkspaceSize(self.get(), k, out.get(), w, e); }, aclnnDiagFlat)
                         : run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnDiagGetWorkspaceSize(self.get(), k, out.get(), w, e); }, aclnnDiag);
    if (!ok) return;
    expect_moved(r, out, before, [&](const Shape& i) {
      if (os.size() == 1) return Source{&self, {k >= 0 ? i[0] : i[0] - k, k >= 0 ? i[0] + k : i[0]}};
      const int64_t pos = k >= 0 ? i[0] : i[1];  // position along the diagonal
      if (i[1] - i[0] != k) return Source{};
      return Source{&self, unravel(pos, s)};
    });
    if (HasFailure()) return;
  }
}

TEST(Diag, BadArguments) {
  Tensor m(TensorDesc(ACL_FLOAT, {2, 3})), c(TensorDesc(ACL_FLOAT, {2, 2, 2})), out(TensorDesc(ACL_FLOAT, {2}));
  expect_phase1_error("rank", ACLNN_ERR_PARAM_INVALID, "self has 3 dims",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnDiagGetWorkspaceSize(c.get(), 0, out.get(), w, e); });
  expect_phase1_error("diagonal", ACLNN_ERR_PARAM_INVALID, "diagonal is 3, expected a diagonal in [-1, 2]",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnDiagGetWorkspaceSize(m.get(), 3, out.get(), w, e); });
  expect_phase1_error("out", ACLNN_ERR_PARAM_INVALID, "expected the diagonal matrix's shape [9, 9]",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnDiagFlatGetWorkspaceSize(c.get(), 1, out.get(), w, e); });
}

// ---- RepeatInterleave ------------------------------------------------------------------------------------

TEST(RepeatInterleave, IntAndTensorCounts) {
  Rng rng(91);
  const std::vector<aclDataType> types = {ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int variant = iter % 4;  // Int, IntWithDim, Tensor, WithDim
    const bool with_dim = variant % 2 == 1;
    const int rank = (with_dim ? 1 : 0) + static_cast<int>(rng() % 3);
    const Shape s = random_shape(rng, rank, iter % 29 == 0 ? 0 : 1, 3);
    const int64_t dim = with_dim ? static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) - (rng() % 2 ? rank : 0) : 0;
    const size_t d = static_cast<size_t>(wrap(dim, rank));
    const int64_t n = with_dim ? s[d] : numel(s);
    std::vector<int64_t> counts;
    if (variant < 2 || rng() % 3 == 0) counts.push_back(static_cast<int64_t>(rng() % 4));
    else
      for (int64_t j = 0; j < n; ++j) counts.push_back(static_cast<int64_t>(rng() % 4));
    auto count = [&](int64_t j) { return counts.size() == 1 ? counts[0] : counts[static_cast<size_t>(j)]; };
    int64_t total = 0;
    std::vector<int64_t> src_of;  // source position of each out position along the repeated dim
    for (int64_t j = 0; j < n; ++j)
      for (int64_t c = 0; c < count(j); ++c) src_of.push_back(j), ++total;
    const Shape os = with_dim ? [&] { Shape x = s; x[d] = total; return x; }() : Shape{total};
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    Tensor out(random_view(t, os, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    const aclDataType rt = rng() % 2 ? ACL_INT64 : ACL_INT32;
    Tensor reps(TensorDesc(rt, counts.size() == 1 && rng() % 2 ? Shape{} : Shape{static_cast<int64_t>(counts.size())}));
    for (size_t j = 0; j < counts.size(); ++j) store(rt, reps.host().data() + j * dtype_size(rt), Num::integer(counts[j]));
    reps.upload();
    std::string r = "RepeatInterleave";
    bool ok;
    if (variant == 0) {
      r += "Int self=" + self.desc().str() + " repeats=" + std::to_string(counts[0]) + " outputSize=" + std::to_string(total) + " out=" + out.desc().str();
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveIntGetWorkspaceSize(self.get(), counts[0], total, out.get(), w, e); }, aclnnRepeatInterleaveInt);
    } else if (variant == 1) {
      r += "IntWithDim self=" + self.desc().str() + " repeats=" + std::to_string(counts[0]) + " dim=" + std::to_string(dim) + " out=" + out.desc().str();
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(self.get(), counts[0], dim, total, out.get(), w, e); }, aclnnRepeatInterleaveIntWithDim);
    } else if (variant == 2) {
      r += " self=" + self.desc().str() + " repeats=" + reps.desc().str() + list_str(counts) + " out=" + out.desc().str();
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveGetWorkspaceSize(self.get(), reps.get(), total, out.get(), w, e); }, aclnnRepeatInterleave);
    } else {
      r += "WithDim self=" + self.desc().str() + " repeats=" + reps.desc().str() + list_str(counts) + " dim=" + std::to_string(dim) + " out=" + out.desc().str();
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveWithDimGetWorkspaceSize(self.get(), reps.get(), dim, total, out.get(), w, e); }, aclnnRepeatInterleaveWithDim);
    }
    if (!ok) return;
    expect_moved(r, out, before, [&](const Shape& i) {
      if (!with_dim) return Source{&self, unravel(src_of[static_cast<size_t>(i[0])], s)};
      Shape j = i;
      j[d] = src_of[static_cast<size_t>(i[d])];
      return Source{&self, j};
    });
    if (HasFailure()) return;
  }
}

TEST(RepeatInterleave, TensorOfCounts) {
  for (aclDataType t : {ACL_INT32, ACL_INT64}) {
    const std::vector<int64_t> counts = {2, 0, 3, 1};
    Tensor reps(TensorDesc(t, {4})), out(TensorDesc(t, {6}));
    for (size_t j = 0; j < counts.size(); ++j) reps.set({static_cast<int64_t>(j)}, Num::integer(counts[j]));
    reps.upload();
    ASSERT_TRUE(run_ok("RepeatInterleaveTensor", [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveTensorGetWorkspaceSize(reps.get(), 6, out.get(), w, e); }, aclnnRepeatInterleaveTensor));
    out.download();
    const std::vector<int64_t> want = {0, 0, 2, 2, 2, 3};
    for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(out.at({i}).i, want[static_cast<size_t>(i)]) << dtype_name(t) << " out[" << i << "]";
  }
}

TEST(RepeatInterleave, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {12})), reps(TensorDesc(ACL_INT64, {4}));
  Tensor reps_f(TensorDesc(ACL_FLOAT, {1})), reps2(TensorDesc(ACL_INT64, {2, 3}));
  expect_phase1_error("negative", ACLNN_ERR_PARAM_INVALID, "repeats is -1",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveIntGetWorkspaceSize(self.get(), -1, 12, out.get(), w, e); });
  expect_phase1_error("outputSize", ACLNN_ERR_PARAM_INVALID, "outputSize is 11, expected self's 6 elements times repeats 2 = 12",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveIntGetWorkspaceSize(self.get(), 2, 11, out.get(), w, e); });
  expect_phase1_error("dim", ACLNN_ERR_PARAM_INVALID, "dim is 2, expected a dim in [-2, 1]",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(self.get(), 2, 2, 4, out.get(), w, e); });
  expect_phase1_error("repeats size", ACLNN_ERR_PARAM_INVALID, "repeats has 4 elements, expected 1 or 6",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveGetWorkspaceSize(self.get(), reps.get(), 12, out.get(), w, e); });
  expect_phase1_error("repeats dtype", ACLNN_ERR_PARAM_INVALID, "repeats dtype float32",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveGetWorkspaceSize(self.get(), reps_f.get(), 12, out.get(), w, e); });
  expect_phase1_error("repeats rank", ACLNN_ERR_PARAM_INVALID, "repeats has 2 dims",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveGetWorkspaceSize(self.get(), reps2.get(), 12, out.get(), w, e); });
  // Counts read at run time: a sum other than outputSize fails the stream.
  Tensor one(TensorDesc(ACL_INT64, {1}));
  one.set({0}, Num::integer(3));
  one.upload();
  const aclnnStatus st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveGetWorkspaceSize(self.get(), one.get(), 12, out.get(), w, e); },
                                       aclnnRepeatInterleave);
  EXPECT_NE(st, ACL_SUCCESS) << "counts summing to 18 into outputSize 12";
}

}  // namespace

namespace {

using namespace optest;

// Large joins and splits run as one parallel region of similar-size units (pieces cut along a dim).
TEST(Cat, LargeJoinsAndSplitsUseThreads) {
  Rng rng(14);
  for (int64_t dim : {0, 1}) {
    std::vector<std::unique_ptr<Tensor>> ins;
    Shape os = {dim == 0 ? 0 : 201, dim == 1 ? 0 : 201};
    for (int64_t rows : {97, 250, 3}) {
      Shape s = {dim == 0 ? rows : 201, dim == 1 ? rows : 201};
      os[static_cast<size_t>(dim)] += rows;
      ins.push_back(std::make_unique<Tensor>(random_view(ACL_FLOAT, s, rng)));
      fill_bytes(*ins.back(), rng);
    }
    Tensor out(TensorDesc(ACL_FLOAT, os));
    TensorList list(ptrs(ins));
    const std::string r = "Cat tensors=" + descs(ins) + " dim=" + std::to_string(dim);
    ASSERT_TRUE(run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnCatGetWorkspaceSize(list.get(), dim, out.get(), w, e); }, aclnnCat));
    expect_moved(r, out, out.host(), [&](const Shape& i) {
      Shape j = i;
      size_t k = 0;
      for (; j[static_cast<size_t>(dim)] >= ins[k]->desc().shape[static_cast<size_t>(dim)]; ++k) j[static_cast<size_t>(dim)] -= ins[k]->desc().shape[static_cast<size_t>(dim)];
      return Source{ins[k].get(), j};
    });
    Tensor self(random_view(ACL_INT16, {700, 100}, rng));
    fill_bytes(self, rng);
    check_split(rng, "SplitTensor large", self, 0, {300, 300, 100},
                [&](aclTensorList* o, uint64_t* w, aclOpExecutor** e) { return aclnnSplitTensorGetWorkspaceSize(self.get(), 300, 0, o, w, e); },
                aclnnSplitTensor);
  }
}

}  // namespace
