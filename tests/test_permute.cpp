// Permute through the public C API, and with it the dense-kernel machinery every non-elementwise
// op shares (strided operands, buffered outputs, same-dtype copies of any storable dtype).
// Reference: out[i] = self[j] with j[dims[k]] = i[k], computed on the host copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "aclnnop/aclnn_permute.h"
#include "op_test_util.h"

namespace {

using namespace optest;

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  aclIntArray* a;
};

std::string repro(const TensorDesc& self, const std::vector<int64_t>& dims, const TensorDesc& out) {
  std::string d;
  for (size_t i = 0; i < dims.size(); ++i) d += (i ? "," : "") + std::to_string(dims[i]);
  return "Permute self=" + self.str() + " dims=[" + d + "] out=" + out.str();
}

// Random bytes in every storage element (any dtype: the op moves elements, it does not compute).
void fill_bytes(Tensor& t, Rng& rng) {
  for (auto& b : t.host()) b = static_cast<uint8_t>(rng());
  t.upload();
}

void check_permute(Rng& rng, const TensorDesc& sd, const std::vector<int64_t>& dims, const TensorDesc& od) {
  const std::string r = repro(sd, dims, od);
  Tensor self(sd), out(od);
  fill_bytes(self, rng);
  fill_bytes(out, rng);
  const std::vector<uint8_t> before = out.host();
  IntArray d(dims);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnPermuteGetWorkspaceSize(self.get(), d.a, out.get(), w, e); },
                          aclnnPermute),
            ACL_SUCCESS)
      << r << ": " << aclGetRecentErrMsg();
  out.download();
  const size_t es = dtype_size(sd.dtype);
  const int64_t rank = static_cast<int64_t>(sd.shape.size());
  bool ok = true;
  for_each_index(od.shape, [&](const Shape& i) {
    if (!ok) return;
    Shape j(sd.shape.size());
    for (int64_t k = 0; k < rank; ++k) j[static_cast<size_t>((dims[k] + rank) % rank)] = i[k];
    const uint8_t* want = self.host().data() + sd.storage_index(j) * es;
    const uint8_t* got = out.host().data() + od.storage_index(i) * es;
    if (std::memcmp(want, got, es) != 0) {
      ADD_FAILURE() << r << ": element " << shape_str(i) << " differs";
      ok = false;
    }
  });
  const std::string outside = writes_outside_view(out, before);
  EXPECT_TRUE(outside.empty()) << r << ": wrote outside the out view:" << outside;
}

TEST(Permute, RandomShapesDimsStridesAndDtypes) {
  Rng rng(7);
  const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,   ACL_UINT8,
                                           ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_BOOL,   ACL_UINT16, ACL_UINT32,
                                           ACL_UINT64, ACL_COMPLEX64, ACL_COMPLEX128};
  for (int iter = 0; iter < 300; ++iter) {
    const aclDataType t = dtypes[static_cast<size_t>(iter) % dtypes.size()];
    const int rank = static_cast<int>(rng() % 6);
    Shape shape(static_cast<size_t>(rank));
    for (auto& s : shape) s = static_cast<int64_t>(rng() % 5) + (iter % 13 == 0 ? 0 : 1);
    std::vector<int64_t> dims(static_cast<size_t>(rank));
    std::iota(dims.begin(), dims.end(), 0);
    std::shuffle(dims.begin(), dims.end(), rng);
    for (auto& d : dims)
      if (rng() % 2) d -= rank;  // negative dims wrap
    TensorDesc sd(t, shape);
    if (rank > 0 && rng() % 2) {  // a strided, offset view of a larger storage
      Shape st = contiguous_strides(shape);
      for (auto& x : st) x *= 2;
      sd = TensorDesc(t, shape, st, 3);
    }
    Shape oshape(static_cast<size_t>(rank));
    for (int k = 0; k < rank; ++k) oshape[static_cast<size_t>(k)] = shape[static_cast<size_t>((dims[static_cast<size_t>(k)] + rank) % rank)];
    TensorDesc od(t, oshape);
    if (rank >= 2 && rng() % 3 == 0) {  // a transposed out view
      Shape sw = oshape;
      std::swap(sw[0], sw[1]);
      Shape st = contiguous_strides(sw);
      std::swap(st[0], st[1]);
      od = TensorDesc(t, oshape, st);
    }
    check_permute(rng, sd, dims, od);
    if (HasFailure()) return;
  }
}

TEST(Permute, LargeTransposeUsesThreads) {
  Rng rng(8);
  check_permute(rng, TensorDesc(ACL_FLOAT, {300, 517}), {1, 0}, TensorDesc(ACL_FLOAT, {517, 300}));
}

TEST(Permute, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3, 4}));
  Tensor out(TensorDesc(ACL_FLOAT, {4, 2, 3}));
  Tensor out_wrong_shape(TensorDesc(ACL_FLOAT, {4, 3, 2}));
  Tensor out_wrong_dtype(TensorDesc(ACL_INT32, {4, 2, 3}));
  IntArray good({2, 0, 1}), short_dims({1, 0}), repeated({0, 0, 1}), out_of_range({0, 1, 3});
  auto call = [&](aclTensor* s, aclIntArray* d, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnPermuteGetWorkspaceSize(s, d, o, w, e); };
  };
  expect_phase1_error("null self", ACLNN_ERR_PARAM_NULLPTR, "self", call(nullptr, good.a, out.get()));
  expect_phase1_error("null dims", ACLNN_ERR_PARAM_NULLPTR, "dims", call(self.get(), nullptr, out.get()));
  expect_phase1_error("null out", ACLNN_ERR_PARAM_NULLPTR, "out", call(self.get(), good.a, nullptr));
  expect_phase1_error("dims too short", ACLNN_ERR_PARAM_INVALID, "dims has 2 entries", call(self.get(), short_dims.a, out.get()));
  expect_phase1_error("dims repeated", ACLNN_ERR_PARAM_INVALID, "more than once", call(self.get(), repeated.a, out.get()));
  expect_phase1_error("dim out of range", ACLNN_ERR_PARAM_INVALID, "[-3, 2]", call(self.get(), out_of_range.a, out.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "[4, 2, 3]", call(self.get(), good.a, out_wrong_shape.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "dtype of self", call(self.get(), good.a, out_wrong_dtype.get()));
}

}  // namespace

namespace {

using namespace optest;

// The cache-blocked transposing copy (register transposes of 8 x 8 / 4 x 4 blocks plus scalar
// edges): every element size, sizes that are not multiples of the block or the tile, strided and
// offset views on both sides, a batch dim outside the transposed plane.
TEST(Permute, TiledTransposesEveryElementSize) {
  Rng rng(9);
  const std::vector<aclDataType> dtypes = {ACL_INT8, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX128};
  const std::vector<std::pair<Shape, std::vector<int64_t>>> cases = {
      {{67, 133}, {1, 0}}, {{8, 8}, {1, 0}}, {{129, 9}, {-1, 0}}, {{3, 70, 41}, {0, 2, 1}}, {{33, 2, 65}, {2, 1, 0}}};
  for (aclDataType t : dtypes)
    for (const auto& [shape, dims] : cases) {
      TensorDesc sd(t, shape);
      if (rng() % 2) {
        Shape st = contiguous_strides(shape);
        for (auto& x : st) x *= 2;
        sd = TensorDesc(t, shape, st, 5);
      }
      Shape oshape;
      for (int64_t d : dims) oshape.push_back(shape[static_cast<size_t>((d + static_cast<int64_t>(shape.size())) % static_cast<int64_t>(shape.size()))]);
      check_permute(rng, sd, dims, TensorDesc(t, oshape));
      if (HasFailure()) return;
    }
}

}  // namespace

namespace {

using namespace optest;

// Copies of 8 MiB and more write with non-temporal stores: a transposed one (two 8 x 8 blocks per
// destination line) and contiguous ones with a misaligned head and tail.
TEST(Permute, LargeStreamingCopies) {
  // Values are their own flat index: the check is a plain loop over the host copies.
  auto run = [](const TensorDesc& sd, const std::vector<int64_t>& dims, const TensorDesc& od) {
    Tensor self(sd), out(od);
    auto* sp = reinterpret_cast<int32_t*>(self.host().data());
    for (int64_t k = 0; k < sd.storage_elems(); ++k) sp[k] = static_cast<int32_t>(k);
    self.upload();
    IntArray d(dims);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnPermuteGetWorkspaceSize(self.get(), d.a, out.get(), w, e); }, aclnnPermute), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    out.download();
    const auto* op = reinterpret_cast<const int32_t*>(out.host().data());
    const Shape ss = sd.view_strides();
    const bool transposed = dims[0] == 1;
    int64_t bad = 0;
    for (int64_t i = 0; i < od.shape[0]; ++i)
      for (int64_t j = 0; j < od.shape[1]; ++j) {
        const int64_t want = sd.offset + (transposed ? j * ss[0] + i * ss[1] : i * ss[0] + j * ss[1]);
        bad += op[od.offset + i * od.shape[1] + j] != want;
      }
    EXPECT_EQ(bad, 0) << "Permute self=" << sd.str() << " out=" << od.str();
  };
  run(TensorDesc(ACL_FLOAT, {1032, 2048}), {1, 0}, TensorDesc(ACL_FLOAT, {2048, 1032}));
  run(TensorDesc(ACL_INT32, {2100, 1030}, {}, 3), {0, 1}, TensorDesc(ACL_INT32, {2100, 1030}, {}, 1));
}

}  // namespace
