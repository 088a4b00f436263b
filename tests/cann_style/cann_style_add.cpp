// A program written the way CANN's public aclnn examples are written (CHECK_RET/LOG_PRINT,
// a CreateAclTensor helper, unique_ptr deleters typed with the C signatures, qualified enum
// spellings), compiled with CANN's own g++ line against the installed pacl prefix. C++11 only.
#include <iostream>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnn_div.h"

#define CHECK_RET(cond, return_expr) \
  do {                               \
    if (!(cond)) {                   \
      return_expr;                   \
    }                                \
  } while (0)

#define LOG_PRINT(message, ...)     \
  do {                              \
    printf(message, ##__VA_ARGS__); \
  } while (0)

int64_t GetShapeSize(const std::vector<int64_t>& shape) {
  int64_t shapeSize = 1;
  for (auto i : shape) shapeSize *= i;
  return shapeSize;
}

int Init(int32_t deviceId, aclrtStream* stream) {
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
  ret = aclrtCreateStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
  return 0;
}

template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclTensor** tensor) {
  auto size = GetShapeSize(shape) * sizeof(T);
  auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) strides[i] = shape[i + 1] * strides[i + 1];
  *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                            shape.data(), shape.size(), *deviceAddr);
  return 0;
}

int main() {
  int32_t deviceId = 0;
  aclrtStream stream;
  auto ret = Init(deviceId, &stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

  std::vector<int64_t> selfShape = {4, 2};
  std::vector<int64_t> otherShape = {2};  // broadcast along dim 0
  std::vector<float> selfHost = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<float> otherHost = {10, 20};
  std::vector<float> outHost(8, 0);
  void* selfDev = nullptr;
  void* otherDev = nullptr;
  void* outDev = nullptr;
  aclTensor* self = nullptr;
  aclTensor* other = nullptr;
  aclTensor* out = nullptr;
  float alphaValue = 2.0f;
  aclScalar* alpha = aclCreateScalar(&alphaValue, aclDataType::ACL_FLOAT);
  CHECK_RET(alpha != nullptr, return -1);
  ret = CreateAclTensor(selfHost, selfShape, &selfDev, aclDataType::ACL_FLOAT, &self);
  std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> selfHolder(self, aclDestroyTensor);
  std::unique_ptr<void, decltype(&aclrtFree)> selfDevHolder(selfDev, aclrtFree);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(otherHost, otherShape, &otherDev, aclDataType::ACL_FLOAT, &other);
  std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> otherHolder(other, aclDestroyTensor);
  std::unique_ptr<void, decltype(&aclrtFree)> otherDevHolder(otherDev, aclrtFree);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outHost, selfShape, &outDev, aclDataType::ACL_FLOAT, &out);
  std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> outHolder(out, aclDestroyTensor);
  std::unique_ptr<void, decltype(&aclrtFree)> outDevHolder(outDev, aclrtFree);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // out = self + 2 * other
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor;
  ret = aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnAddGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  void* workspaceAddr = nullptr;
  std::unique_ptr<void, decltype(&aclrtFree)> workspaceHolder(nullptr, aclrtFree);
  if (workspaceSize > 0) {
    ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    workspaceHolder.reset(workspaceAddr);
  }
  ret = aclnnAdd(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnAdd failed. ERROR: %d\n", ret); return ret);

  // out = out * other (in place), then out = out / 4 (scalar)
  ret = aclnnInplaceMulGetWorkspaceSize(out, other, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceMulGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = aclnnInplaceMul(nullptr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceMul failed. ERROR: %d\n", ret); return ret);
  float four = 4.0f;
  aclScalar* divisor = aclCreateScalar(&four, aclDataType::ACL_FLOAT);
  ret = aclnnInplaceDivsGetWorkspaceSize(out, divisor, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceDivsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = aclnnInplaceDivs(nullptr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceDivs failed. ERROR: %d\n", ret); return ret);

  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

  auto size = GetShapeSize(selfShape);
  std::vector<float> resultData(size, 0);
  ret = aclrtMemcpy(resultData.data(), resultData.size() * sizeof(resultData[0]), outDev, size * sizeof(float),
                    ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
  int mismatches = 0;
  for (int64_t i = 0; i < size; i++) {
    float expected = (selfHost[i] + alphaValue * otherHost[i % 2]) * otherHost[i % 2] / four;
    if (resultData[i] != expected) mismatches++;
    LOG_PRINT("result[%ld] is: %f\n", i, resultData[i]);
  }
  LOG_PRINT(mismatches == 0 ? "cann_style: PASS\n" : "cann_style: FAIL\n");

  aclDestroyScalar(alpha);
  aclDestroyScalar(divisor);
  selfHolder.reset();
  otherHolder.reset();
  outHolder.reset();
  workspaceHolder.reset();
  selfDevHolder.reset();
  otherDevHolder.reset();
  outDevHolder.reset();
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return mismatches == 0 ? 0 : 1;
}
