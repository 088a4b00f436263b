// Phase 2's workspace contract, exercised with an op that books workspace: Add of float16 and
// float32 (the engine books conversion buffers for operands not in the compute type).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_add.h"

namespace {

class Workspace : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    const std::vector<int64_t> shape{n_};
    ASSERT_EQ(aclrtMalloc(&a_, n_ * 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&b_, n_ * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&out_, n_ * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<aclFloat16> ha(n_);
    std::vector<float> hb(n_);
    for (int64_t i = 0; i < n_; ++i) {
      ha[i] = aclFloatToFloat16(static_cast<float>(i % 100) * 0.5f);
      hb[i] = static_cast<float>(i);
    }
    ASSERT_EQ(aclrtMemcpy(a_, n_ * 2, ha.data(), n_ * 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(b_, n_ * 4, hb.data(), n_ * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ta_ = aclCreateTensor(shape.data(), 1, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, shape.data(), 1, a_);
    tb_ = aclCreateTensor(shape.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape.data(), 1, b_);
    tout_ = aclCreateTensor(shape.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape.data(), 1, out_);
    float one = 1.0f;
    alpha_ = aclCreateScalar(&one, ACL_FLOAT);
  }
  void TearDown() override {
    aclDestroyTensor(ta_);
    aclDestroyTensor(tb_);
    aclDestroyTensor(tout_);
    aclDestroyScalar(alpha_);
    aclrtFree(a_);
    aclrtFree(b_);
    aclrtFree(out_);
    aclrtDestroyStream(stream_);
    aclrtResetDevice(0);
  }
  aclOpExecutor* plan(uint64_t* ws) {
    aclOpExecutor* e = nullptr;
    EXPECT_EQ(aclnnAddGetWorkspaceSize(ta_, tb_, alpha_, tout_, ws, &e), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    return e;
  }
  void expect_result() {
    std::vector<float> h(n_);
    ASSERT_EQ(aclrtMemcpy(h.data(), n_ * 4, out_, n_ * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int64_t i = 0; i < n_; ++i) ASSERT_EQ(h[i], static_cast<float>(i % 100) * 0.5f + static_cast<float>(i)) << i;
  }
  static std::string msg() { return aclGetRecentErrMsg(); }

  const int64_t n_ = 5000;  // several chunks
  aclrtStream stream_ = nullptr;
  void *a_ = nullptr, *b_ = nullptr, *out_ = nullptr;
  aclTensor *ta_ = nullptr, *tb_ = nullptr, *tout_ = nullptr;
  aclScalar* alpha_ = nullptr;
};

TEST_F(Workspace, MixedDtypeAddBooksWorkspaceAndRunsWithExactlyThatMuch) {
  uint64_t ws = 0;
  aclOpExecutor* e = plan(&ws);
  ASSERT_GT(ws, 0u);
  void* w = nullptr;
  ASSERT_EQ(aclrtMallocAlign32(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclnnAdd(w, ws, e, stream_), ACLNN_SUCCESS) << msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  expect_result();
  aclrtFree(w);
}

TEST_F(Workspace, NullWorkspaceIsRejected) {
  uint64_t ws = 0;
  aclOpExecutor* e = plan(&ws);
  EXPECT_EQ(aclnnAdd(nullptr, ws, e, stream_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(msg().find("workspace is null"), std::string::npos) << msg();
}

TEST_F(Workspace, TooSmallWorkspaceIsRejected) {
  uint64_t ws = 0;
  aclOpExecutor* e = plan(&ws);
  void* w = nullptr;
  ASSERT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclnnAdd(w, ws - 1, e, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(msg().find("smaller than"), std::string::npos) << msg();
  aclrtFree(w);
}

TEST_F(Workspace, WorkspaceAllocationTooShortIsRejected) {
  uint64_t ws = 0;
  aclOpExecutor* e = plan(&ws);
  void* w = nullptr;
  ASSERT_EQ(aclrtMallocAlign32(&w, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclnnAdd(w, ws, e, stream_), ACLNN_ERR_PARAM_INVALID);  // claims ws bytes, holds 64
  EXPECT_NE(msg().find("holds only"), std::string::npos) << msg();
  aclrtFree(w);
}

TEST_F(Workspace, HostWorkspaceIsRejected) {
  uint64_t ws = 0;
  aclOpExecutor* e = plan(&ws);
  void* host = std::malloc(ws);
  EXPECT_EQ(aclnnAdd(host, ws, e, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(msg().find("not device memory"), std::string::npos) << msg();
  std::free(host);
}

TEST_F(Workspace, FreedWorkspaceIsRejected) {
  uint64_t ws = 0;
  aclOpExecutor* e = plan(&ws);
  void* w = nullptr;
  ASSERT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(w), ACL_SUCCESS);
  EXPECT_EQ(aclnnAdd(w, ws, e, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(msg().find("already freed"), std::string::npos) << msg();
}

TEST_F(Workspace, SameDtypeContiguousAddNeedsNone) {
  const std::vector<int64_t> shape{n_};
  aclTensor* t = aclCreateTensor(shape.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape.data(), 1, b_);
  uint64_t ws = 1;
  aclOpExecutor* e = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(t, t, alpha_, tout_, &ws, &e), ACLNN_SUCCESS);
  EXPECT_EQ(ws, 0u);
  EXPECT_EQ(aclnnAdd(nullptr, 0, e, stream_), ACLNN_SUCCESS) << msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  aclDestroyTensor(t);
}

}  // namespace
