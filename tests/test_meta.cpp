// The aclnn meta API through its public C header: tensors (view, strides, element offset,
// storage), scalars, arrays, lists and their ownership rules, and what happens with null,
// destroyed or foreign handles. Every failure is checked for its exact status code and for a
// message that names the API and the argument.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_add.h"
#include "pacl/info.h"

namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string LastError() {
  const char* m = aclGetRecentErrMsg();
  return m ? std::string(m) : std::string("<NULL>");
}

// Replaces the calling thread's error message with a known one, so that a check after the next
// call proves that call set its own message.
void PoisonErrMsg() {
  EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_THAT(LastError(), HasSubstr("aclrtGetRunMode"));
}

// The call returns exactly `code` and sets a fresh message matching all the matchers.
#define EXPECT_NN_FAILS(call, code, ...)                                            \
  do {                                                                              \
    PoisonErrMsg();                                                                 \
    EXPECT_EQ(static_cast<int>(call), static_cast<int>(code)) << LastError();       \
    EXPECT_THAT(LastError(), AllOf(Not(HasSubstr("aclrtGetRunMode")), __VA_ARGS__)); \
  } while (0)

// The pointer-returning call returns nullptr and sets a fresh message matching the matchers.
#define EXPECT_NULL_WITH(call, ...)                                                 \
  do {                                                                              \
    PoisonErrMsg();                                                                 \
    EXPECT_EQ((call), nullptr);                                                     \
    EXPECT_THAT(LastError(), AllOf(Not(HasSubstr("aclrtGetRunMode")), __VA_ARGS__)); \
  } while (0)

#define EXPECT_OK(call) EXPECT_EQ(static_cast<int>(call), 0) << LastError()
#define ASSERT_OK(call) ASSERT_EQ(static_cast<int>(call), 0) << LastError()

using Dims = std::vector<int64_t>;

aclTensor* MakeTensor(const Dims& view, aclDataType dt = ACL_FLOAT, void* data = nullptr, const Dims* strides = nullptr,
                      int64_t offset = 0, const Dims* storage = nullptr, aclFormat fmt = ACL_FORMAT_ND) {
  const Dims& st = storage ? *storage : view;
  return aclCreateTensor(view.data(), view.size(), dt, strides ? strides->data() : nullptr, offset, fmt, st.data(),
                         st.size(), data);
}

Dims ViewShape(const aclTensor* t) {
  int64_t* dims = nullptr;
  uint64_t n = 99;
  EXPECT_OK(aclGetViewShape(t, &dims, &n));
  Dims out(dims, dims + n);
  delete[] dims;
  return out;
}
Dims StorageShape(const aclTensor* t) {
  int64_t* dims = nullptr;
  uint64_t n = 99;
  EXPECT_OK(aclGetStorageShape(t, &dims, &n));
  Dims out(dims, dims + n);
  delete[] dims;
  return out;
}
Dims Strides(const aclTensor* t) {
  int64_t* s = nullptr;
  uint64_t n = 99;
  EXPECT_OK(aclGetViewStrides(t, &s, &n));
  Dims out(s, s + n);
  delete[] s;
  return out;
}
int64_t Offset(const aclTensor* t) {
  int64_t off = -1;
  EXPECT_OK(aclGetViewOffset(t, &off));
  return off;
}

class AclEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), 0) << LastError();
    ASSERT_EQ(aclrtSetDevice(0), 0) << LastError();
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), 0) << LastError();
    EXPECT_EQ(aclFinalize(), 0) << LastError();
  }
};
const ::testing::Environment* const kEnv = ::testing::AddGlobalTestEnvironment(new AclEnvironment);

// ---- aclCreateTensor and the getters --------------------------------------------------------------

TEST(TensorTest, CreateContiguousAndGetters) {
  int dummy = 0;
  const Dims view{2, 3, 4};
  aclTensor* t = MakeTensor(view, ACL_FLOAT16, &dummy, nullptr, 0, nullptr, ACL_FORMAT_NCHW);
  ASSERT_NE(t, nullptr) << LastError();
  EXPECT_EQ(ViewShape(t), view);
  EXPECT_EQ(StorageShape(t), view);
  EXPECT_EQ(Strides(t), (Dims{12, 4, 1}));  // stride NULL = contiguous
  EXPECT_EQ(Offset(t), 0);
  aclFormat fmt = ACL_FORMAT_UNDEFINED;
  EXPECT_OK(aclGetFormat(t, &fmt));
  EXPECT_EQ(fmt, ACL_FORMAT_NCHW);
  aclDataType dt = ACL_DT_UNDEFINED;
  EXPECT_OK(aclGetDataType(t, &dt));
  EXPECT_EQ(dt, ACL_FLOAT16);
  void* addr = nullptr;
  EXPECT_OK(aclGetRawTensorAddr(t, &addr));
  EXPECT_EQ(addr, &dummy);
  EXPECT_OK(aclDestroyTensor(t));
}

TEST(TensorTest, QualifiedEnumSpellingsAndExplicitStrides) {
  const Dims view{3, 2}, strides{1, 3}, storage{6};
  aclTensor* t = aclCreateTensor(view.data(), view.size(), aclDataType::ACL_FLOAT, strides.data(), 0,
                                 aclFormat::ACL_FORMAT_ND, storage.data(), storage.size(), nullptr);
  ASSERT_NE(t, nullptr) << LastError();
  EXPECT_EQ(Strides(t), strides);  // a transposed view keeps its strides
  EXPECT_EQ(StorageShape(t), storage);
  aclFormat fmt = aclFormat::ACL_FORMAT_UNDEFINED;
  EXPECT_OK(aclGetFormat(t, &fmt));
  EXPECT_EQ(fmt, aclFormat::ACL_FORMAT_ND);
  EXPECT_OK(aclDestroyTensor(t));
}

TEST(TensorTest, OffsetCountsElements) {
  // A [2, 3] view at element offset 2 of a 10-element storage reaches element 2 + 5 = 7.
  const Dims view{2, 3}, storage{10};
  aclTensor* t = MakeTensor(view, ACL_INT64, nullptr, nullptr, 2, &storage);
  ASSERT_NE(t, nullptr) << LastError();
  EXPECT_EQ(Offset(t), 2);
  EXPECT_EQ(Strides(t), (Dims{3, 1}));
  EXPECT_OK(aclDestroyTensor(t));
  // Offset 4 still fits (last element 9), offset 5 does not.
  t = MakeTensor(view, ACL_INT64, nullptr, nullptr, 4, &storage);
  ASSERT_NE(t, nullptr) << LastError();
  EXPECT_OK(aclDestroyTensor(t));
  EXPECT_NULL_WITH(MakeTensor(view, ACL_INT64, nullptr, nullptr, 5, &storage), HasSubstr("aclCreateTensor"),
                   HasSubstr("[2, 3]"), HasSubstr("outside its storage [10]"));
  EXPECT_NULL_WITH(MakeTensor(view, ACL_INT64, nullptr, nullptr, -1, &storage), HasSubstr("aclCreateTensor"),
                   HasSubstr("offset -1"));
}

TEST(TensorTest, ScalarEmptyAndUndescribedStorage) {
  // A 0-d tensor: no dims at all.
  aclTensor* s = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr);
  ASSERT_NE(s, nullptr) << LastError();
  EXPECT_TRUE(ViewShape(s).empty());
  EXPECT_TRUE(Strides(s).empty());
  EXPECT_TRUE(StorageShape(s).empty());
  EXPECT_OK(aclDestroyTensor(s));

  // Empty tensors.
  aclTensor* e = MakeTensor({0, 3});
  ASSERT_NE(e, nullptr) << LastError();
  EXPECT_EQ(ViewShape(e), (Dims{0, 3}));
  EXPECT_OK(aclDestroyTensor(e));

  // No storage shape for a non-scalar view: only the device allocation bounds it (at phase 2).
  const Dims view{4, 4};
  aclTensor* u = aclCreateTensor(view.data(), view.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr);
  ASSERT_NE(u, nullptr) << LastError();
  EXPECT_TRUE(StorageShape(u).empty());
  EXPECT_OK(aclDestroyTensor(u));
}

TEST(TensorTest, CreateRejectsBadDescriptions) {
  const Dims view{2, 3};
  EXPECT_NULL_WITH(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view.data(), 2, nullptr),
                   HasSubstr("aclCreateTensor"), HasSubstr("viewDims is null"), HasSubstr("2"));
  EXPECT_NULL_WITH(aclCreateTensor(view.data(), 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 2, nullptr),
                   HasSubstr("aclCreateTensor"), HasSubstr("storageDims is null"));
  EXPECT_NULL_WITH(MakeTensor({2, -3}), HasSubstr("aclCreateTensor"), HasSubstr("negative dimension -3"),
                   HasSubstr("viewDims"));
  const Dims bad_storage{-6};
  EXPECT_NULL_WITH(MakeTensor({0}, ACL_FLOAT, nullptr, nullptr, 0, &bad_storage), HasSubstr("storageDims"),
                   HasSubstr("negative dimension"));
  // A view that reaches outside its storage is named in the message.
  const Dims small{5};
  EXPECT_NULL_WITH(MakeTensor(view, ACL_FLOAT, nullptr, nullptr, 0, &small), HasSubstr("aclCreateTensor"),
                   HasSubstr("the view [2, 3]"), HasSubstr("outside its storage [5]"));
  const Dims wide{3, 1}, storage6{6};
  EXPECT_NULL_WITH(MakeTensor(view, ACL_FLOAT, nullptr, &wide, 1, &storage6), HasSubstr("the view [2, 3]"),
                   HasSubstr("strides [3, 1]"), HasSubstr("offset 1"));
  const Dims negative{-1, 1}, storage12{12};
  EXPECT_NULL_WITH(MakeTensor(view, ACL_FLOAT, nullptr, &negative, 6, &storage12), HasSubstr("aclCreateTensor"),
                   HasSubstr("stride"), HasSubstr("-1"));
  EXPECT_NULL_WITH(MakeTensor(view, static_cast<aclDataType>(5)), HasSubstr("dataType 5"));
  EXPECT_NULL_WITH(MakeTensor(view, ACL_STRING), HasSubstr("dataType 13"));
  EXPECT_NULL_WITH(MakeTensor(view, ACL_DT_UNDEFINED), HasSubstr("dataType -1"));
  EXPECT_NULL_WITH(MakeTensor(view, ACL_FLOAT, nullptr, nullptr, 0, nullptr, static_cast<aclFormat>(7)),
                   HasSubstr("format 7"));
  const Dims too_many(26, 1);
  EXPECT_NULL_WITH(MakeTensor(too_many), HasSubstr("viewDimsNum 26"));
  // A view whose element count overflows int64.
  const Dims huge{int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_NULL_WITH(MakeTensor(huge), HasSubstr("more elements than int64"));
}

TEST(TensorTest, GettersRejectNullArguments) {
  aclTensor* t = MakeTensor({2});
  ASSERT_NE(t, nullptr);
  int64_t* dims = nullptr;
  uint64_t n = 0;
  int64_t off = 0;
  aclFormat fmt;
  aclDataType dt;
  void* addr = nullptr;
  EXPECT_NN_FAILS(aclGetViewShape(nullptr, &dims, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetViewShape"),
                  HasSubstr("'tensor'"));
  EXPECT_NN_FAILS(aclGetViewShape(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'viewDims'"));
  EXPECT_NN_FAILS(aclGetViewShape(t, &dims, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'viewDimsNum'"));
  EXPECT_NN_FAILS(aclGetStorageShape(nullptr, &dims, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetStorageShape"),
                  HasSubstr("'tensor'"));
  EXPECT_NN_FAILS(aclGetStorageShape(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'storageDims'"));
  EXPECT_NN_FAILS(aclGetStorageShape(t, &dims, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'storageDimsNum'"));
  EXPECT_NN_FAILS(aclGetViewStrides(nullptr, &dims, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetViewStrides"),
                  HasSubstr("'tensor'"));
  EXPECT_NN_FAILS(aclGetViewStrides(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'stridesValue'"));
  EXPECT_NN_FAILS(aclGetViewStrides(t, &dims, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'stridesNum'"));
  EXPECT_NN_FAILS(aclGetViewOffset(nullptr, &off), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetViewOffset"),
                  HasSubstr("'tensor'"));
  EXPECT_NN_FAILS(aclGetViewOffset(t, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'offset'"));
  EXPECT_NN_FAILS(aclGetFormat(nullptr, &fmt), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetFormat"),
                  HasSubstr("'tensor'"));
  EXPECT_NN_FAILS(aclGetFormat(t, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'format'"));
  EXPECT_NN_FAILS(aclGetDataType(nullptr, &dt), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetDataType"),
                  HasSubstr("'tensor'"));
  EXPECT_NN_FAILS(aclGetDataType(t, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'dataType'"));
  EXPECT_NN_FAILS(aclGetRawTensorAddr(nullptr, &addr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetRawTensorAddr"),
                  HasSubstr("'tensor'"));
  EXPECT_NN_FAILS(aclGetRawTensorAddr(t, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'addr'"));
  EXPECT_NN_FAILS(aclSetRawTensorAddr(nullptr, &off), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclSetRawTensorAddr"),
                  HasSubstr("'tensor'"));
  EXPECT_EQ(dims, nullptr);  // nothing was allocated by the failed calls
  EXPECT_OK(aclDestroyTensor(t));
}

TEST(TensorTest, RawTensorAddr) {
  aclTensor* t = MakeTensor({4});  // tensorData may be NULL and set later
  ASSERT_NE(t, nullptr);
  void* addr = &addr;
  EXPECT_OK(aclGetRawTensorAddr(t, &addr));
  EXPECT_EQ(addr, nullptr);
  int storage[4] = {};
  EXPECT_OK(aclSetRawTensorAddr(t, storage));
  EXPECT_OK(aclGetRawTensorAddr(t, &addr));
  EXPECT_EQ(addr, storage);
  EXPECT_OK(aclSetRawTensorAddr(t, nullptr));
  EXPECT_OK(aclGetRawTensorAddr(t, &addr));
  EXPECT_EQ(addr, nullptr);
  EXPECT_OK(aclDestroyTensor(t));
  EXPECT_NN_FAILS(aclSetRawTensorAddr(t, storage), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclSetRawTensorAddr"),
                  HasSubstr("not live"));
  EXPECT_NN_FAILS(aclGetRawTensorAddr(t, &addr), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclGetRawTensorAddr"),
                  HasSubstr("not live"));
}

TEST(TensorTest, InitTensorRedescribes) {
  int a = 0, b = 0;
  aclTensor* t = MakeTensor({2, 3}, ACL_FLOAT, &a);
  ASSERT_NE(t, nullptr);
  const Dims view{4}, strides{2}, storage{9};
  EXPECT_OK(aclInitTensor(t, view.data(), view.size(), ACL_INT32, strides.data(), 1, ACL_FORMAT_NHWC, storage.data(),
                          storage.size(), &b));
  EXPECT_EQ(ViewShape(t), view);
  EXPECT_EQ(Strides(t), strides);
  EXPECT_EQ(StorageShape(t), storage);
  EXPECT_EQ(Offset(t), 1);
  aclDataType dt = ACL_DT_UNDEFINED;
  EXPECT_OK(aclGetDataType(t, &dt));
  EXPECT_EQ(dt, ACL_INT32);
  aclFormat fmt = ACL_FORMAT_UNDEFINED;
  EXPECT_OK(aclGetFormat(t, &fmt));
  EXPECT_EQ(fmt, ACL_FORMAT_NHWC);
  void* addr = nullptr;
  EXPECT_OK(aclGetRawTensorAddr(t, &addr));
  EXPECT_EQ(addr, &b);

  // A rejected description leaves the tensor as it was.
  const Dims neg{-1};
  EXPECT_NN_FAILS(aclInitTensor(t, neg.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr),
                  ACLNN_ERR_PARAM_INVALID, HasSubstr("aclInitTensor"), HasSubstr("negative dimension"));
  EXPECT_NN_FAILS(aclInitTensor(t, nullptr, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr),
                  ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclInitTensor"), HasSubstr("viewDims is null"));
  const Dims small{3};
  EXPECT_NN_FAILS(aclInitTensor(t, view.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, small.data(), 1, nullptr),
                  ACLNN_ERR_PARAM_INVALID, HasSubstr("the view [4]"), HasSubstr("outside its storage [3]"));
  EXPECT_EQ(ViewShape(t), view);
  EXPECT_EQ(Offset(t), 1);
  EXPECT_OK(aclGetDataType(t, &dt));
  EXPECT_EQ(dt, ACL_INT32);

  EXPECT_NN_FAILS(aclInitTensor(nullptr, view.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr),
                  ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclInitTensor"), HasSubstr("'tensor'"));
  EXPECT_OK(aclDestroyTensor(t));
  EXPECT_NN_FAILS(aclInitTensor(t, view.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr),
                  ACLNN_ERR_PARAM_INVALID, HasSubstr("aclInitTensor"), HasSubstr("not live"));
}

// ---- destroying -------------------------------------------------------------------------------------

TEST(DestroyTest, NullIsFine) {
  EXPECT_EQ(aclDestroyTensor(nullptr), 0);
  EXPECT_EQ(aclDestroyScalar(nullptr), 0);
  EXPECT_EQ(aclDestroyIntArray(nullptr), 0);
  EXPECT_EQ(aclDestroyFloatArray(nullptr), 0);
  EXPECT_EQ(aclDestroyBoolArray(nullptr), 0);
  EXPECT_EQ(aclDestroyTensorList(nullptr), 0);
  EXPECT_EQ(aclDestroyScalarList(nullptr), 0);
  EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), 0);
}

TEST(DestroyTest, DoubleDestroyIsAnError) {
  aclTensor* t = MakeTensor({2});
  float v = 1.0f;
  aclScalar* s = aclCreateScalar(&v, ACL_FLOAT);
  const int64_t iv[] = {1, 2};
  const float fv[] = {1.0f};
  const bool bv[] = {true, false, true};
  aclIntArray* ia = aclCreateIntArray(iv, 2);
  aclFloatArray* fa = aclCreateFloatArray(fv, 1);
  aclBoolArray* ba = aclCreateBoolArray(bv, 3);
  aclTensorList* tl = aclCreateTensorList(nullptr, 0);
  aclScalarList* sl = aclCreateScalarList(nullptr, 0);
  ASSERT_TRUE(t && s && ia && fa && ba && tl && sl) << LastError();

  EXPECT_OK(aclDestroyTensor(t));
  EXPECT_NN_FAILS(aclDestroyTensor(t), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyTensor"),
                  HasSubstr("not a live aclTensor"));
  EXPECT_OK(aclDestroyScalar(s));
  EXPECT_NN_FAILS(aclDestroyScalar(s), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyScalar"),
                  HasSubstr("not a live aclScalar"));
  EXPECT_OK(aclDestroyIntArray(ia));
  EXPECT_NN_FAILS(aclDestroyIntArray(ia), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyIntArray"),
                  HasSubstr("not a live aclIntArray"));
  EXPECT_OK(aclDestroyFloatArray(fa));
  EXPECT_NN_FAILS(aclDestroyFloatArray(fa), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyFloatArray"),
                  HasSubstr("not a live aclFloatArray"));
  EXPECT_OK(aclDestroyBoolArray(ba));
  EXPECT_NN_FAILS(aclDestroyBoolArray(ba), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyBoolArray"),
                  HasSubstr("not a live aclBoolArray"));
  EXPECT_OK(aclDestroyTensorList(tl));
  EXPECT_NN_FAILS(aclDestroyTensorList(tl), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyTensorList"),
                  HasSubstr("not a live aclTensorList"));
  EXPECT_OK(aclDestroyScalarList(sl));
  EXPECT_NN_FAILS(aclDestroyScalarList(sl), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyScalarList"),
                  HasSubstr("not a live aclScalarList"));
}

TEST(DestroyTest, WrongKindIsAnErrorAndKeepsTheObject) {
  aclTensor* t = MakeTensor({2});
  ASSERT_NE(t, nullptr);
  const auto* as_scalar = reinterpret_cast<const aclScalar*>(t);
  const auto* as_array = reinterpret_cast<const aclIntArray*>(t);
  EXPECT_NN_FAILS(aclDestroyScalar(as_scalar), ACLNN_ERR_PARAM_INVALID, HasSubstr("not a live aclScalar"));
  EXPECT_NN_FAILS(aclDestroyIntArray(as_array), ACLNN_ERR_PARAM_INVALID, HasSubstr("not a live aclIntArray"));
  uint64_t n = 0;
  EXPECT_NN_FAILS(aclGetIntArraySize(as_array, &n), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclGetIntArraySize"),
                  HasSubstr("should be an aclIntArray"), HasSubstr("is an aclTensor"));
  EXPECT_NN_FAILS(aclGetTensorListSize(reinterpret_cast<const aclTensorList*>(t), &n), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("aclGetTensorListSize"), HasSubstr("is an aclTensor"));
  aclDataType dt = ACL_DT_UNDEFINED;
  EXPECT_OK(aclGetDataType(t, &dt));  // still alive
  EXPECT_EQ(dt, ACL_FLOAT);
  int on_stack = 0;
  EXPECT_NN_FAILS(aclDestroyTensor(reinterpret_cast<const aclTensor*>(&on_stack)), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("not a live aclTensor"));
  EXPECT_NN_FAILS(aclGetDataType(reinterpret_cast<const aclTensor*>(&on_stack), &dt), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("aclGetDataType"), HasSubstr("not live"));
  EXPECT_OK(aclDestroyTensor(t));
}

// ---- scalars ----------------------------------------------------------------------------------------

// Device-side helper: out = self + alpha * other for a float tensor `self` of zeros and the scalar
// `other`, through aclnnAdds; returns out[0] (the scalar's value as float32).
float AddsToZeros(const aclScalar* other) {
  constexpr int64_t kN = 4;
  const size_t bytes = kN * sizeof(float);
  void* dself = nullptr;
  void* dout = nullptr;
  EXPECT_OK(aclrtMalloc(&dself, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_OK(aclrtMalloc(&dout, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_OK(aclrtMemset(dself, bytes, 0, bytes));
  EXPECT_OK(aclrtMemset(dout, bytes, 0xff, bytes));
  aclTensor* self = MakeTensor({kN}, ACL_FLOAT, dself);
  aclTensor* out = MakeTensor({kN}, ACL_FLOAT, dout);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  float result = -12345.0f;
  if (aclnnAddsGetWorkspaceSize(self, other, alpha, out, &ws, &ex) == 0) {
    EXPECT_EQ(ws, 0u);
    EXPECT_OK(aclnnAdds(nullptr, 0, ex, nullptr));
    EXPECT_OK(aclrtSynchronizeStream(nullptr));
    float host[kN] = {};
    EXPECT_OK(aclrtMemcpy(host, bytes, dout, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int64_t i = 1; i < kN; ++i) EXPECT_EQ(host[i], host[0]);
    result = host[0];
  } else {
    ADD_FAILURE() << "aclnnAddsGetWorkspaceSize: " << LastError();
  }
  EXPECT_OK(aclDestroyTensor(self));
  EXPECT_OK(aclDestroyTensor(out));
  EXPECT_OK(aclDestroyScalar(alpha));
  EXPECT_OK(aclrtFree(dself));
  EXPECT_OK(aclrtFree(dout));
  return result;
}

// A scalar of `dt` holding 3 (or true), built from `bytes`; the source is overwritten right after
// creation, so the op must see the copied value.
template <typename T>
void CheckScalarCopiesValue(aclDataType dt, T three, T other, float expected) {
  T source = three;
  aclScalar* s = aclCreateScalar(&source, dt);
  ASSERT_NE(s, nullptr) << LastError();
  source = other;
  EXPECT_EQ(AddsToZeros(s), expected) << "aclDataType " << static_cast<int>(dt);
  EXPECT_OK(aclDestroyScalar(s));
}

TEST(ScalarTest, EveryComputeDtypeCopiesItsValue) {
  CheckScalarCopiesValue<float>(ACL_FLOAT, 3.0f, 100.0f, 3.0f);
  CheckScalarCopiesValue<double>(ACL_DOUBLE, 3.0, 100.0, 3.0f);
  CheckScalarCopiesValue<uint16_t>(ACL_FLOAT16, 0x4200, 0x5640, 3.0f);
  CheckScalarCopiesValue<uint16_t>(ACL_BF16, 0x4040, 0x42c8, 3.0f);
  CheckScalarCopiesValue<int8_t>(ACL_INT8, 3, 100, 3.0f);
  CheckScalarCopiesValue<int16_t>(ACL_INT16, 3, 100, 3.0f);
  CheckScalarCopiesValue<int32_t>(ACL_INT32, 3, 100, 3.0f);
  CheckScalarCopiesValue<int64_t>(ACL_INT64, 3, 100, 3.0f);
  CheckScalarCopiesValue<uint8_t>(ACL_UINT8, 3, 100, 3.0f);
  CheckScalarCopiesValue<bool>(ACL_BOOL, true, false, 1.0f);
  CheckScalarCopiesValue<int8_t>(ACL_INT8, -7, 100, -7.0f);
}

TEST(ScalarTest, EveryStorableDtypeCanBeCreated) {
  const aclDataType all[] = {ACL_FLOAT,      ACL_FLOAT16,       ACL_INT8,          ACL_INT32,        ACL_UINT8,
                             ACL_INT16,      ACL_UINT16,        ACL_UINT32,        ACL_INT64,        ACL_UINT64,
                             ACL_DOUBLE,     ACL_BOOL,          ACL_COMPLEX64,     ACL_COMPLEX128,   ACL_BF16,
                             ACL_INT4,       ACL_UINT1,         ACL_COMPLEX32,     ACL_HIFLOAT8,     ACL_FLOAT8_E5M2,
                             ACL_FLOAT8_E4M3FN, ACL_FLOAT8_E8M0, ACL_FLOAT6_E3M2,  ACL_FLOAT6_E2M3,  ACL_FLOAT4_E2M1,
                             ACL_FLOAT4_E1M2};
  alignas(16) unsigned char value[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  for (aclDataType dt : all) {
    aclScalar* s = aclCreateScalar(value, dt);
    EXPECT_NE(s, nullptr) << "aclDataType " << static_cast<int>(dt) << ": " << LastError();
    EXPECT_OK(aclDestroyScalar(s));
  }
  EXPECT_NULL_WITH(aclCreateScalar(nullptr, ACL_FLOAT), HasSubstr("aclCreateScalar"), HasSubstr("'value'"));
  EXPECT_NULL_WITH(aclCreateScalar(value, ACL_STRING), HasSubstr("aclCreateScalar"), HasSubstr("dataType 13"));
  EXPECT_NULL_WITH(aclCreateScalar(value, ACL_DT_UNDEFINED), HasSubstr("dataType -1"));
  EXPECT_NULL_WITH(aclCreateScalar(value, static_cast<aclDataType>(20)), HasSubstr("dataType 20"));
}

TEST(ScalarTest, UnsupportedDtypeIsReportedByTheOp) {
  // An unsigned 32-bit scalar is a valid aclScalar but not an operand aclnnAdds accepts.
  uint32_t v = 3;
  aclScalar* s = aclCreateScalar(&v, ACL_UINT32);
  ASSERT_NE(s, nullptr);
  void* d = nullptr;
  ASSERT_OK(aclrtMalloc(&d, 16, ACL_MEM_MALLOC_HUGE_FIRST));
  aclTensor* self = MakeTensor({4}, ACL_FLOAT, d);
  aclTensor* out = MakeTensor({4}, ACL_FLOAT, d);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_NN_FAILS(aclnnAddsGetWorkspaceSize(self, s, alpha, out, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("aclnnAddsGetWorkspaceSize"), HasSubstr("other"), HasSubstr("uint32"));
  EXPECT_EQ(ex, nullptr);
  EXPECT_OK(aclDestroyTensor(self));
  EXPECT_OK(aclDestroyTensor(out));
  EXPECT_OK(aclDestroyScalar(alpha));
  EXPECT_OK(aclDestroyScalar(s));
  EXPECT_OK(aclrtFree(d));
}

// ---- arrays -----------------------------------------------------------------------------------------

TEST(ArrayTest, ArraysCopyTheirInput) {
  uint64_t n = 0;
  {
    std::vector<int64_t> src{4, 5, 6};
    aclIntArray* a = aclCreateIntArray(src.data(), src.size());
    ASSERT_NE(a, nullptr);
    src.assign(100, 0);  // reallocate the source: the array holds its own copy
    src.shrink_to_fit();
    EXPECT_OK(aclGetIntArraySize(a, &n));
    EXPECT_EQ(n, 3u);
    EXPECT_OK(aclDestroyIntArray(a));
  }
  {
    auto* src = new float[2]{1.5f, 2.5f};
    aclFloatArray* a = aclCreateFloatArray(src, 2);
    delete[] src;
    ASSERT_NE(a, nullptr);
    EXPECT_OK(aclGetFloatArraySize(a, &n));
    EXPECT_EQ(n, 2u);
    EXPECT_OK(aclDestroyFloatArray(a));
  }
  {
    auto* src = new bool[5]{true, false, true, true, false};
    aclBoolArray* a = aclCreateBoolArray(src, 5);
    delete[] src;
    ASSERT_NE(a, nullptr);
    EXPECT_OK(aclGetBoolArraySize(a, &n));
    EXPECT_EQ(n, 5u);
    EXPECT_OK(aclDestroyBoolArray(a));
  }
  // Empty arrays, with or without a pointer.
  aclIntArray* e = aclCreateIntArray(nullptr, 0);
  ASSERT_NE(e, nullptr);
  EXPECT_OK(aclGetIntArraySize(e, &n));
  EXPECT_EQ(n, 0u);
  EXPECT_OK(aclDestroyIntArray(e));
  const float f = 0;
  aclFloatArray* fe = aclCreateFloatArray(&f, 0);
  ASSERT_NE(fe, nullptr);
  EXPECT_OK(aclGetFloatArraySize(fe, &n));
  EXPECT_EQ(n, 0u);
  EXPECT_OK(aclDestroyFloatArray(fe));
}

TEST(ArrayTest, BadArguments) {
  EXPECT_NULL_WITH(aclCreateIntArray(nullptr, 3), HasSubstr("aclCreateIntArray"), HasSubstr("value is null"),
                   HasSubstr("3"));
  EXPECT_NULL_WITH(aclCreateFloatArray(nullptr, 2), HasSubstr("aclCreateFloatArray"), HasSubstr("value is null"));
  EXPECT_NULL_WITH(aclCreateBoolArray(nullptr, 1), HasSubstr("aclCreateBoolArray"), HasSubstr("value is null"));

  uint64_t n = 0;
  const int64_t iv[] = {1};
  const float fv[] = {1};
  const bool bv[] = {true};
  aclIntArray* ia = aclCreateIntArray(iv, 1);
  aclFloatArray* fa = aclCreateFloatArray(fv, 1);
  aclBoolArray* ba = aclCreateBoolArray(bv, 1);
  ASSERT_TRUE(ia && fa && ba);
  EXPECT_NN_FAILS(aclGetIntArraySize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetIntArraySize"),
                  HasSubstr("'array'"));
  EXPECT_NN_FAILS(aclGetIntArraySize(ia, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'size'"));
  EXPECT_NN_FAILS(aclGetFloatArraySize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetFloatArraySize"),
                  HasSubstr("'array'"));
  EXPECT_NN_FAILS(aclGetFloatArraySize(fa, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'size'"));
  EXPECT_NN_FAILS(aclGetBoolArraySize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetBoolArraySize"),
                  HasSubstr("'array'"));
  EXPECT_NN_FAILS(aclGetBoolArraySize(ba, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'size'"));
  // A handle of another kind.
  EXPECT_NN_FAILS(aclGetFloatArraySize(reinterpret_cast<const aclFloatArray*>(ia), &n), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("aclGetFloatArraySize"), HasSubstr("not a live aclFloatArray"));
  EXPECT_NN_FAILS(aclGetBoolArraySize(reinterpret_cast<const aclBoolArray*>(fa), &n), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("not a live aclBoolArray"));
  EXPECT_OK(aclDestroyIntArray(ia));
  EXPECT_OK(aclDestroyFloatArray(fa));
  EXPECT_OK(aclDestroyBoolArray(ba));
  // Destroyed handles.
  EXPECT_NN_FAILS(aclGetIntArraySize(ia, &n), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclGetIntArraySize"),
                  HasSubstr("not live"));
  EXPECT_NN_FAILS(aclGetFloatArraySize(fa, &n), ACLNN_ERR_PARAM_INVALID, HasSubstr("not a live aclFloatArray"));
  EXPECT_NN_FAILS(aclGetBoolArraySize(ba, &n), ACLNN_ERR_PARAM_INVALID, HasSubstr("not a live aclBoolArray"));
}

// ---- lists ------------------------------------------------------------------------------------------

TEST(ListTest, TensorListOwnsItsElements) {
  aclTensor* a = MakeTensor({1});
  aclTensor* b = MakeTensor({2, 2}, ACL_INT32);
  aclTensor* c = MakeTensor({3}, ACL_FLOAT16);
  ASSERT_TRUE(a && b && c);
  std::vector<const aclTensor*> items{a, b, c};
  aclTensorList* list = aclCreateTensorList(items.data(), items.size());
  ASSERT_NE(list, nullptr) << LastError();
  items.assign(8, nullptr);  // the list copied the pointer array
  uint64_t n = 0;
  EXPECT_OK(aclGetTensorListSize(list, &n));
  EXPECT_EQ(n, 3u);
  aclDataType dt = ACL_DT_UNDEFINED;
  EXPECT_OK(aclGetDataType(b, &dt));  // elements stay usable while the list lives
  EXPECT_EQ(dt, ACL_INT32);

  EXPECT_OK(aclDestroyTensorList(list));
  // The elements went with the list: using them is an error, not a crash.
  EXPECT_NN_FAILS(aclGetDataType(a, &dt), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclGetDataType"), HasSubstr("not live"));
  EXPECT_NN_FAILS(aclGetDataType(b, &dt), ACLNN_ERR_PARAM_INVALID, HasSubstr("not live"));
  EXPECT_NN_FAILS(aclDestroyTensor(c), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyTensor"),
                  HasSubstr("already destroyed"));
  EXPECT_NN_FAILS(aclGetTensorListSize(list, &n), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclGetTensorListSize"),
                  HasSubstr("not live"));
}

TEST(ListTest, TensorListEdgeCases) {
  // An element destroyed before the list is skipped when the list goes.
  aclTensor* a = MakeTensor({1});
  aclTensor* b = MakeTensor({1});
  const aclTensor* items[] = {a, nullptr, b};
  aclTensorList* list = aclCreateTensorList(items, 3);
  ASSERT_NE(list, nullptr) << LastError();
  uint64_t n = 0;
  EXPECT_OK(aclGetTensorListSize(list, &n));
  EXPECT_EQ(n, 3u);  // null elements count
  EXPECT_OK(aclDestroyTensor(a));
  EXPECT_OK(aclDestroyTensorList(list));
  aclDataType dt;
  EXPECT_NN_FAILS(aclGetDataType(b, &dt), ACLNN_ERR_PARAM_INVALID, HasSubstr("not live"));

  // A list cannot be built from a dead tensor, nor from a null array with a size.
  aclTensor* c = MakeTensor({1});
  ASSERT_OK(aclDestroyTensor(c));
  const aclTensor* dead[] = {c};
  EXPECT_NULL_WITH(aclCreateTensorList(dead, 1), HasSubstr("aclCreateTensorList"), HasSubstr("not live"));
  EXPECT_NULL_WITH(aclCreateTensorList(nullptr, 2), HasSubstr("aclCreateTensorList"), HasSubstr("value is null"));
  EXPECT_NN_FAILS(aclGetTensorListSize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetTensorListSize"),
                  HasSubstr("'tensorList'"));
  aclTensorList* empty = aclCreateTensorList(nullptr, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_NN_FAILS(aclGetTensorListSize(empty, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'size'"));
  EXPECT_OK(aclGetTensorListSize(empty, &n));
  EXPECT_EQ(n, 0u);
  EXPECT_OK(aclDestroyTensorList(empty));
}

TEST(ListTest, SharedElementsAreDestroyedOnce) {
  // The same tensor twice in one list, and in two lists: each is destroyed exactly once.
  aclTensor* a = MakeTensor({1});
  aclTensor* b = MakeTensor({2});
  ASSERT_TRUE(a && b);
  const aclTensor* twice[] = {a, a, b};
  const aclTensor* again[] = {b};
  aclTensorList* l1 = aclCreateTensorList(twice, 3);
  aclTensorList* l2 = aclCreateTensorList(again, 1);
  ASSERT_TRUE(l1 && l2) << LastError();
  EXPECT_OK(aclDestroyTensorList(l1));
  EXPECT_OK(aclDestroyTensorList(l2));
  aclDataType dt;
  EXPECT_NN_FAILS(aclGetDataType(b, &dt), ACLNN_ERR_PARAM_INVALID, HasSubstr("not live"));

  float f = 1.0f;
  aclScalar* s = aclCreateScalar(&f, ACL_FLOAT);
  ASSERT_NE(s, nullptr);
  const aclScalar* stwice[] = {s, nullptr, s};
  aclScalarList* sl = aclCreateScalarList(stwice, 3);
  ASSERT_NE(sl, nullptr) << LastError();
  uint64_t n = 0;
  EXPECT_OK(aclGetScalarListSize(sl, &n));
  EXPECT_EQ(n, 3u);
  EXPECT_OK(aclDestroyScalarList(sl));
  EXPECT_NN_FAILS(aclDestroyScalar(s), ACLNN_ERR_PARAM_INVALID, HasSubstr("not a live aclScalar"));
}

TEST(ListTest, ScalarListOwnsItsElements) {
  float f = 2.0f;
  int64_t i = 7;
  aclScalar* a = aclCreateScalar(&f, ACL_FLOAT);
  aclScalar* b = aclCreateScalar(&i, ACL_INT64);
  ASSERT_TRUE(a && b);
  const aclScalar* items[] = {a, b};
  aclScalarList* list = aclCreateScalarList(items, 2);
  ASSERT_NE(list, nullptr) << LastError();
  uint64_t n = 0;
  EXPECT_OK(aclGetScalarListSize(list, &n));
  EXPECT_EQ(n, 2u);
  EXPECT_OK(aclDestroyScalarList(list));
  EXPECT_NN_FAILS(aclDestroyScalar(a), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyScalar"),
                  HasSubstr("already destroyed"));
  EXPECT_NN_FAILS(aclDestroyScalar(b), ACLNN_ERR_PARAM_INVALID, HasSubstr("not a live aclScalar"));
  EXPECT_NN_FAILS(aclGetScalarListSize(list, &n), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclGetScalarListSize"),
                  HasSubstr("not a live aclScalarList"));

  EXPECT_NN_FAILS(aclGetScalarListSize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclGetScalarListSize"),
                  HasSubstr("'scalarList'"));
  EXPECT_NULL_WITH(aclCreateScalarList(nullptr, 1), HasSubstr("aclCreateScalarList"), HasSubstr("value is null"));
  aclScalar* c = aclCreateScalar(&f, ACL_FLOAT);
  ASSERT_OK(aclDestroyScalar(c));
  const aclScalar* dead[] = {c};
  EXPECT_NULL_WITH(aclCreateScalarList(dead, 1), HasSubstr("aclCreateScalarList"), HasSubstr("not live"));
  aclScalarList* empty = aclCreateScalarList(nullptr, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_NN_FAILS(aclGetScalarListSize(empty, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("'size'"));
  EXPECT_OK(aclDestroyScalarList(empty));
}

TEST(MetaTest, AclnnInitFinalize) {
  EXPECT_EQ(aclnnInit(nullptr), 0);
  EXPECT_EQ(aclnnFinalize(), 0);
}

}  // namespace

// ---- the live-object registry and paclGetTensorView -----------------------------------------------

namespace {

// Many handles at once (the registry grows several times), destroyed in a scrambled order: every
// survivor stays usable and every destroyed one is reported, whatever probe runs the removals left.
TEST(RegistryTest, ManyHandlesDestroyedInScrambledOrder) {
  constexpr int kCount = 20000;
  std::vector<aclTensor*> ts;
  for (int i = 0; i < kCount; ++i) {
    ts.push_back(MakeTensor({i % 7 + 1}));
    ASSERT_NE(ts.back(), nullptr) << LastError();
  }
  std::vector<bool> alive(kCount, true);
  uint64_t x = 12345;
  for (int k = 0; k < kCount / 2; ++k) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const int i = static_cast<int>((x >> 33) % kCount);
    if (!alive[i]) continue;
    ASSERT_OK(aclDestroyTensor(ts[i]));
    alive[i] = false;
  }
  for (int i = 0; i < kCount; ++i) {
    int64_t off = -1;
    if (alive[i]) {
      ASSERT_OK(aclGetViewOffset(ts[i], &off)) << "tensor " << i;
      ASSERT_EQ(ViewShape(ts[i]), Dims{i % 7 + 1});
    } else {
      ASSERT_EQ(static_cast<int>(aclGetViewOffset(ts[i], &off)), ACLNN_ERR_PARAM_INVALID) << "tensor " << i;
    }
  }
  for (int i = 0; i < kCount; ++i)
    if (alive[i]) {
      ASSERT_OK(aclDestroyTensor(ts[i]));
    }
}

TEST(TensorViewTest, OneCallReportsWhatTheGettersReport) {
  float storage[64] = {};
  const Dims view{2, 3}, strides{1, 4}, st{40};
  aclTensor* t = MakeTensor(view, ACL_FLOAT16, storage, &strides, 5, &st, ACL_FORMAT_NCHW);
  ASSERT_NE(t, nullptr) << LastError();
  paclTensorView v;
  ASSERT_OK(paclGetTensorView(t, &v));
  EXPECT_EQ(v.dataType, ACL_FLOAT16);
  EXPECT_EQ(v.format, ACL_FORMAT_NCHW);
  EXPECT_EQ(Dims(v.viewDims, v.viewDims + v.viewDimsNum), ViewShape(t));
  EXPECT_EQ(Dims(v.strides, v.strides + v.viewDimsNum), Strides(t));
  EXPECT_EQ(Dims(v.storageDims, v.storageDims + v.storageDimsNum), StorageShape(t));
  EXPECT_EQ(v.offset, Offset(t));
  EXPECT_EQ(v.data, static_cast<void*>(storage));
  EXPECT_NN_FAILS(paclGetTensorView(t, nullptr), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("paclGetTensorView"),
                  HasSubstr("view"));
  EXPECT_NN_FAILS(paclGetTensorView(nullptr, &v), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("tensor"));
  ASSERT_OK(aclDestroyTensor(t));
  EXPECT_NN_FAILS(paclGetTensorView(t, &v), ACLNN_ERR_PARAM_INVALID, HasSubstr("not live"));
}

}  // namespace
