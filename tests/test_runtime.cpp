// The ACL runtime through its public C API: init/finalize, devices, contexts, streams, events,
// device and host memory, copies, memset, the base helpers (data type sizes, fp16) and the
// thread-local error message. Every failure is checked for its exact status code and for a
// message that names the API and the problem.
//
// The runtime is process-global. A global environment keeps it initialized for the whole binary;
// each test starts with device 0 set (RuntimeTest) and restores the current context it found.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "acl/acl.h"

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

// EXPECT_ACL_FAILS(call, code, matchers...): the call returns exactly `code` and sets a message
// matching all of the matchers.
#define EXPECT_ACL_FAILS(call, code, ...)                                           \
  do {                                                                              \
    PoisonErrMsg();                                                                 \
    EXPECT_EQ(static_cast<int>(call), static_cast<int>(code)) << LastError();       \
    EXPECT_THAT(LastError(), AllOf(Not(HasSubstr("aclrtGetRunMode")), __VA_ARGS__)); \
  } while (0)

#define ASSERT_OK(call) ASSERT_EQ(static_cast<int>(call), ACL_SUCCESS) << LastError()
#define EXPECT_OK(call) EXPECT_EQ(static_cast<int>(call), ACL_SUCCESS) << LastError()

class AclEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << LastError(); }
  void TearDown() override { EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << LastError(); }
};
const ::testing::Environment* const kEnv = ::testing::AddGlobalTestEnvironment(new AclEnvironment);

class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetCurrentContext(&ctx0_));
  }
  void TearDown() override {
    EXPECT_OK(aclrtSetCurrentContext(ctx0_));
    EXPECT_OK(aclrtResetDevice(0));
  }
  aclrtContext ctx0_ = nullptr;
};

// Holds a stream's worker inside a callback until Open(); opens itself on destruction so that a
// failed assertion cannot leave a stream blocked.
class Gate {
 public:
  ~Gate() {
    Open();
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return !entered_ || exited_; });
  }
  // Enqueues the blocking callback on `stream` and waits until the stream's worker is inside it.
  void Block(aclrtStream stream) {
    ASSERT_OK(aclrtLaunchCallback(&Gate::Run, this, ACL_CALLBACK_BLOCK, stream));
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return entered_; });
  }
  void Open() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }

 private:
  static void Run(void* p) {
    auto* g = static_cast<Gate*>(p);
    std::unique_lock<std::mutex> lock(g->mu_);
    g->entered_ = true;
    g->cv_.notify_all();
    g->cv_.wait(lock, [g] { return g->open_; });
    g->exited_ = true;
    g->cv_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  bool entered_ = false;
  bool open_ = false;
  bool exited_ = false;
};

// Device memory that is freed when the test ends.
class DevBuf {
 public:
  explicit DevBuf(size_t n) : size_(n) { EXPECT_OK(aclrtMalloc(&p_, n, ACL_MEM_MALLOC_HUGE_FIRST)); }
  ~DevBuf() {
    if (p_) { EXPECT_OK(aclrtFree(p_)); }
  }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  void* get() const { return p_; }
  char* bytes() const { return static_cast<char*>(p_); }
  size_t size() const { return size_; }

 private:
  void* p_ = nullptr;
  size_t size_;
};

std::vector<unsigned char> ReadBack(const void* dev, size_t n) {
  std::vector<unsigned char> host(n, 0xEE);
  EXPECT_OK(aclrtMemcpy(host.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST));
  return host;
}

// Runs `fn` on a fresh thread (which has no current context and no error message) and joins it.
template <typename Fn>
void OnNewThread(Fn fn) {
  std::thread t(fn);
  t.join();
}

// ---- aclInit / aclFinalize -----------------------------------------------------------------------

TEST(AclInitTest, RepeatCodesAndConfigFile) {
  // Leave the initialized state the environment established, whatever the order of tests.
  ASSERT_OK(aclFinalize());
  EXPECT_ACL_FAILS(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, HasSubstr("aclFinalize"), HasSubstr("aclInit"));
  uint64_t refs = 99;
  EXPECT_ACL_FAILS(aclFinalizeReference(&refs), ACL_ERROR_REPEAT_FINALIZE, HasSubstr("aclFinalize"));

  // A missing config file is ACL_ERROR_INVALID_FILE and leaves the runtime uninitialized.
  EXPECT_ACL_FAILS(aclInit("/nonexistent/pacl/acl.json"), ACL_ERROR_INVALID_FILE, HasSubstr("aclInit"),
                   HasSubstr("/nonexistent/pacl/acl.json"));
  EXPECT_ACL_FAILS(aclInit("/"), ACL_ERROR_INVALID_FILE, HasSubstr("not a regular file"));
  EXPECT_ACL_FAILS(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, HasSubstr("aclFinalize"));

  // An existing config file is accepted.
  char path[] = "/tmp/pacl_acl_json_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "{}\n", 3), 3);
  close(fd);
  EXPECT_OK(aclInit(path));
  std::remove(path);

  EXPECT_ACL_FAILS(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE, HasSubstr("aclInit"), HasSubstr("already"));
  EXPECT_ACL_FAILS(aclInit(""), ACL_ERROR_REPEAT_INITIALIZE, HasSubstr("aclInit"));
  EXPECT_OK(aclFinalize());
  EXPECT_ACL_FAILS(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, HasSubstr("aclFinalize"));

  EXPECT_OK(aclInit(""));  // an empty path means no config file
  EXPECT_OK(aclFinalizeReference(&refs));
  EXPECT_EQ(refs, 0u);
  EXPECT_OK(aclInit(nullptr));  // restore what the environment expects
}

TEST(AclInitTest, FinalizeWaitsForQueuedWork) {
  ASSERT_OK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_OK(aclrtCreateStream(&s));
  {
    DevBuf buf(4096);
    Gate gate;
    gate.Block(s);
    ASSERT_OK(aclrtMemsetAsync(buf.get(), buf.size(), 0x5c, buf.size(), s));
    std::thread opener([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      gate.Open();
    });
    EXPECT_OK(aclFinalize());  // returns only once the queued memset has run
    opener.join();
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
    EXPECT_OK(aclrtStreamQuery(s, &st));
    EXPECT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    EXPECT_EQ(ReadBack(buf.get(), 1)[0], 0x5c);
    EXPECT_OK(aclInit(nullptr));
  }
  EXPECT_OK(aclrtDestroyStream(s));
  EXPECT_OK(aclrtResetDevice(0));
}

// ---- version, run mode, SoC name, error message -----------------------------------------------------

TEST(AclInfoTest, VersionRunModeSocName) {
  int32_t major = -1, minor = -1, patch = -1;
  EXPECT_OK(aclrtGetVersion(&major, &minor, &patch));
  EXPECT_EQ(major, ACL_MAJOR_VERSION);
  EXPECT_EQ(minor, ACL_MINOR_VERSION);
  EXPECT_EQ(patch, ACL_PATCH_VERSION);
  EXPECT_ACL_FAILS(aclrtGetVersion(nullptr, &minor, &patch), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtGetVersion"),
                   HasSubstr("majorVersion"));
  EXPECT_ACL_FAILS(aclrtGetVersion(&major, nullptr, &patch), ACL_ERROR_INVALID_PARAM, HasSubstr("minorVersion"));
  EXPECT_ACL_FAILS(aclrtGetVersion(&major, &minor, nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("patchVersion"));

  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_OK(aclrtGetRunMode(&mode));
  EXPECT_EQ(mode, ACL_HOST);

  const char* soc = aclrtGetSocName();
  ASSERT_NE(soc, nullptr);
  EXPECT_GT(std::strlen(soc), 0u);
  if (!std::getenv("PACL_SOC_NAME")) { EXPECT_STREQ(soc, "Ascend910B4"); }
  EXPECT_EQ(aclrtGetSocName(), soc);  // stable
}

TEST(AclErrMsgTest, NeverNullAndThreadLocal) {
  OnNewThread([] {
    const char* m = aclGetRecentErrMsg();
    ASSERT_NE(m, nullptr);
    EXPECT_STREQ(m, "");
  });

  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  const std::string mine = LastError();
  EXPECT_THAT(mine, AllOf(HasSubstr("aclrtMalloc"), HasSubstr("size is 0")));

  std::string seen_there, set_there;
  OnNewThread([&] {
    seen_there = LastError();  // the main thread's error is not visible here
    EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
    set_there = LastError();
  });
  EXPECT_EQ(seen_there, "");
  EXPECT_THAT(set_there, HasSubstr("aclrtGetDeviceCount"));
  EXPECT_EQ(LastError(), mine);  // and the other thread's error is not visible here

  // The pointer stays valid and the text stays put across successful calls.
  const char* before = aclGetRecentErrMsg();
  uint32_t n = 0;
  EXPECT_OK(aclrtGetDeviceCount(&n));
  EXPECT_STREQ(aclGetRecentErrMsg(), before);
}

// ---- data types and fp16 ----------------------------------------------------------------------------

TEST(AclBaseTest, DataTypeSizeOfEveryEnumerator) {
  struct Case {
    aclDataType t;
    size_t size;
  };
  const Case cases[] = {
      {ACL_DT_UNDEFINED, 0}, {ACL_FLOAT, 4},         {ACL_FLOAT16, 2},       {ACL_INT8, 1},
      {ACL_INT32, 4},        {ACL_UINT8, 1},         {ACL_INT16, 2},         {ACL_UINT16, 2},
      {ACL_UINT32, 4},       {ACL_INT64, 8},         {ACL_UINT64, 8},        {ACL_DOUBLE, 8},
      {ACL_BOOL, 1},         {ACL_STRING, 0},        {ACL_COMPLEX64, 8},     {ACL_COMPLEX128, 16},
      {ACL_BF16, 2},         {ACL_INT4, 1},          {ACL_UINT1, 1},         {ACL_COMPLEX32, 4},
      {ACL_HIFLOAT8, 1},     {ACL_FLOAT8_E5M2, 1},   {ACL_FLOAT8_E4M3FN, 1}, {ACL_FLOAT8_E8M0, 1},
      {ACL_FLOAT6_E3M2, 1},  {ACL_FLOAT6_E2M3, 1},   {ACL_FLOAT4_E2M1, 1},   {ACL_FLOAT4_E1M2, 1},
  };
  for (const Case& c : cases) EXPECT_EQ(aclDataTypeSize(c.t), c.size) << "aclDataType " << static_cast<int>(c.t);
  // Values that name no data type.
  for (int v : {5, 14, 15, 18, 26, 28, 31, 32, 42, 1000, -2})
    EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(v)), 0u) << "aclDataType " << v;
  // The enumerator values themselves are interface facts.
  EXPECT_EQ(ACL_BF16, 27);
  EXPECT_EQ(ACL_FLOAT4_E1M2, 41);
  EXPECT_EQ(ACL_FRACTAL_Z_3D, 33);
  EXPECT_EQ(ACL_FORMAT_FRACTAL_NZ_C0_8, 54);
}

TEST(AclBaseTest, Float16ExactValues) {
  struct Case {
    float f;
    aclFloat16 h;
  };
  const Case exact[] = {
      {0.0f, 0x0000},      {1.0f, 0x3c00},     {-2.0f, 0xc000},         {0.5f, 0x3800},
      {3.0f, 0x4200},      {65504.0f, 0x7bff}, {-65504.0f, 0xfbff},     {6.103515625e-05f, 0x0400},
      {std::ldexp(1.0f, -24), 0x0001} /* smallest subnormal */, {0.333251953125f, 0x3555}, {1025.0f, 0x6401},
  };
  for (const Case& c : exact) {
    EXPECT_EQ(aclFloatToFloat16(c.f), c.h) << c.f;
    EXPECT_EQ(aclFloat16ToFloat(c.h), c.f) << std::hex << c.h;
  }
  EXPECT_EQ(aclFloatToFloat16(-0.0f), 0x8000);
  EXPECT_TRUE(std::signbit(aclFloat16ToFloat(0x8000)));
  // Round to nearest, ties to even.
  EXPECT_EQ(aclFloatToFloat16(1.0f + 1.0f / 2048), 0x3c00);      // tie -> even (down)
  EXPECT_EQ(aclFloatToFloat16(1.0f + 3.0f / 2048), 0x3c02);      // tie -> even (up)
  EXPECT_EQ(aclFloatToFloat16(1.0f + 1.5f / 2048), 0x3c01);      // above the tie
  EXPECT_EQ(aclFloatToFloat16(1e-9f), 0x0000);                   // underflow to zero

  // Every finite fp16 value survives fp16 -> fp32 -> fp16 exactly.
  int mismatches = 0;
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    if ((h & 0x7c00u) == 0x7c00u) continue;  // Inf and NaN
    const auto bits = static_cast<aclFloat16>(h);
    if (aclFloatToFloat16(aclFloat16ToFloat(bits)) != bits) ++mismatches;
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(AclBaseTest, Float16Saturates) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(aclFloatToFloat16(inf), 0x7bff);
  EXPECT_EQ(aclFloatToFloat16(-inf), 0xfbff);
  EXPECT_EQ(aclFloatToFloat16(nan), 0x7bff);
  EXPECT_EQ(aclFloatToFloat16(1e6f), 0x7bff);
  EXPECT_EQ(aclFloatToFloat16(-1e6f), 0xfbff);
  EXPECT_EQ(aclFloatToFloat16(65519.0f), 0x7bff);
  EXPECT_EQ(aclFloatToFloat16(65536.0f), 0x7bff);
  EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::max()), 0x7bff);
  EXPECT_EQ(aclFloat16ToFloat(aclFloatToFloat16(inf)), 65504.0f);
  // fp16 Inf widens to +-65536.0f; fp16 NaN stays NaN.
  EXPECT_EQ(aclFloat16ToFloat(0x7c00), 65536.0f);
  EXPECT_EQ(aclFloat16ToFloat(0xfc00), -65536.0f);
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(0x7e00)));
}

TEST(AclBaseTest, DataBuffer) {
  char storage[16];
  aclDataBuffer* b = aclCreateDataBuffer(storage, sizeof storage);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(b), storage);
  EXPECT_EQ(aclGetDataBufferSizeV2(b), sizeof storage);
  EXPECT_OK(aclUpdateDataBuffer(b, storage + 8, 8));
  EXPECT_EQ(aclGetDataBufferAddr(b), storage + 8);
  EXPECT_EQ(aclGetDataBufferSizeV2(b), 8u);
  EXPECT_OK(aclDestroyDataBuffer(b));
  EXPECT_ACL_FAILS(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclDestroyDataBuffer"),
                   HasSubstr("dataBuffer"));
  EXPECT_ACL_FAILS(aclUpdateDataBuffer(nullptr, storage, 1), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclUpdateDataBuffer"));
  EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 0u);
}

// ---- devices ----------------------------------------------------------------------------------------

TEST_F(RuntimeTest, DeviceCountAndInvalidIds) {
  uint32_t count = 0;
  EXPECT_OK(aclrtGetDeviceCount(&count));
  if (!std::getenv("PACL_DEVICE_COUNT")) { EXPECT_EQ(count, 8u); }
  ASSERT_GE(count, 2u);
  EXPECT_ACL_FAILS(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtGetDeviceCount"),
                   HasSubstr("count"));

  EXPECT_ACL_FAILS(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, HasSubstr("aclrtSetDevice"),
                   HasSubstr("device id -1"));
  EXPECT_ACL_FAILS(aclrtSetDevice(static_cast<int32_t>(count)), ACL_ERROR_RT_INVALID_DEVICEID,
                   HasSubstr("device id " + std::to_string(count)), HasSubstr("out of range"));
  EXPECT_ACL_FAILS(aclrtResetDevice(static_cast<int32_t>(count) + 5), ACL_ERROR_RT_INVALID_DEVICEID,
                   HasSubstr("aclrtResetDevice"));
  EXPECT_ACL_FAILS(aclrtResetDeviceForce(-3), ACL_ERROR_RT_INVALID_DEVICEID, HasSubstr("aclrtResetDeviceForce"));

  int32_t dev = -1;
  EXPECT_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev, 0);
  EXPECT_ACL_FAILS(aclrtGetDevice(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtGetDevice"),
                   HasSubstr("deviceId"));
}

TEST_F(RuntimeTest, SetAndResetDevice) {
  const int32_t last = [] {
    uint32_t n = 0;
    aclrtGetDeviceCount(&n);
    return static_cast<int32_t>(n) - 1;
  }();
  // A device never set cannot be reset.
  EXPECT_ACL_FAILS(aclrtResetDevice(last), ACL_ERROR_RT_INVALID_DEVICEID, HasSubstr("aclrtResetDevice"),
                   HasSubstr("device " + std::to_string(last)), HasSubstr("not set"));

  ASSERT_OK(aclrtSetDevice(last));
  int32_t dev = -1;
  EXPECT_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev, last);
  ASSERT_OK(aclrtSetDevice(last));  // set twice: two resets are needed
  EXPECT_OK(aclrtResetDevice(last));
  EXPECT_OK(aclrtResetDevice(last));
  EXPECT_ACL_FAILS(aclrtResetDevice(last), ACL_ERROR_RT_INVALID_DEVICEID, HasSubstr("not set"));

  // Force resets whatever the count.
  ASSERT_OK(aclrtSetDevice(last));
  ASSERT_OK(aclrtSetDevice(last));
  EXPECT_OK(aclrtResetDeviceForce(last));
  EXPECT_ACL_FAILS(aclrtResetDevice(last), ACL_ERROR_RT_INVALID_DEVICEID, HasSubstr("not set"));

  // Setting a device makes its primary context current; it is the same context every time.
  aclrtContext a = nullptr, b = nullptr;
  ASSERT_OK(aclrtSetDevice(1));
  EXPECT_OK(aclrtGetCurrentContext(&a));
  EXPECT_NE(a, ctx0_);
  ASSERT_OK(aclrtSetDevice(1));
  EXPECT_OK(aclrtGetCurrentContext(&b));
  EXPECT_EQ(a, b);
  EXPECT_OK(aclrtResetDevice(1));
  EXPECT_OK(aclrtResetDevice(1));
}

TEST_F(RuntimeTest, ThreadWithoutContext) {
  OnNewThread([] {
    int32_t dev = -1;
    EXPECT_ACL_FAILS(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, HasSubstr("aclrtGetDevice"),
                     HasSubstr("no current context"));
    aclrtContext ctx = nullptr;
    EXPECT_ACL_FAILS(aclrtGetCurrentContext(&ctx), ACL_ERROR_RT_CONTEXT_NULL, HasSubstr("aclrtGetCurrentContext"));
    aclrtStream s = nullptr;
    EXPECT_ACL_FAILS(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, HasSubstr("aclrtCreateStream"));
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_CONTEXT_NULL, HasSubstr("aclrtSynchronizeStream"));
    void* p = nullptr;
    EXPECT_ACL_FAILS(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL,
                     HasSubstr("aclrtMalloc"), HasSubstr("aclrtSetDevice"));
    size_t free_bytes = 0, total = 0;
    EXPECT_ACL_FAILS(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_ERROR_RT_CONTEXT_NULL,
                     HasSubstr("aclrtGetMemInfo"));
  });
}

// ---- contexts ---------------------------------------------------------------------------------------

TEST_F(RuntimeTest, ContextLifecycle) {
  aclrtContext ctx = nullptr;
  ASSERT_OK(aclrtCreateContext(&ctx, 1));
  ASSERT_NE(ctx, nullptr);
  aclrtContext cur = nullptr;
  EXPECT_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(cur, ctx);  // creating a context makes it current
  int32_t dev = -1;
  EXPECT_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev, 1);

  // Work in the new context lands on its device.
  {
    DevBuf buf(256);
    ASSERT_NE(buf.get(), nullptr);
    EXPECT_OK(aclrtMemset(buf.get(), buf.size(), 7, buf.size()));
    EXPECT_EQ(ReadBack(buf.get(), 1)[0], 7);
    aclrtStream s = nullptr;
    ASSERT_OK(aclrtCreateStream(&s));
    EXPECT_OK(aclrtMemsetAsync(buf.get(), buf.size(), 9, buf.size(), s));
    EXPECT_OK(aclrtSynchronizeStream(s));
    EXPECT_OK(aclrtDestroyStream(s));
    EXPECT_EQ(ReadBack(buf.get(), 1)[0], 9);
  }

  EXPECT_OK(aclrtSetCurrentContext(ctx0_));
  EXPECT_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(cur, ctx0_);
  EXPECT_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev, 0);

  // A context can be made current on another thread.
  OnNewThread([ctx] {
    EXPECT_OK(aclrtSetCurrentContext(ctx));
    int32_t d = -1;
    EXPECT_OK(aclrtGetDevice(&d));
    EXPECT_EQ(d, 1);
  });

  // The default stream of a context is created on demand and dies with it.
  EXPECT_OK(aclrtSetCurrentContext(ctx));
  aclrtStream def = nullptr;
  EXPECT_OK(aclrtCtxGetCurrentDefaultStream(&def));
  EXPECT_NE(def, nullptr);
  EXPECT_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_OK(aclrtSetCurrentContext(ctx0_));

  EXPECT_OK(aclrtDestroyContext(ctx));
  EXPECT_ACL_FAILS(aclrtDestroyContext(ctx), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtDestroyContext"),
                   HasSubstr("not a live context"));
  EXPECT_ACL_FAILS(aclrtSetCurrentContext(ctx), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtSetCurrentContext"),
                   HasSubstr("not a live context"));
  EXPECT_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(cur, ctx0_);  // a failed set leaves the current context alone
}

TEST_F(RuntimeTest, ContextBadArguments) {
  aclrtContext ctx = nullptr;
  EXPECT_ACL_FAILS(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtCreateContext"),
                   HasSubstr("context"));
  EXPECT_ACL_FAILS(aclrtCreateContext(&ctx, 64), ACL_ERROR_RT_INVALID_DEVICEID, HasSubstr("aclrtCreateContext"),
                   HasSubstr("device id 64"));
  EXPECT_ACL_FAILS(aclrtCreateContext(&ctx, -1), ACL_ERROR_RT_INVALID_DEVICEID, HasSubstr("device id -1"));
  EXPECT_EQ(ctx, nullptr);
  EXPECT_ACL_FAILS(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtDestroyContext"),
                   HasSubstr("context"));
  int not_a_context = 0;
  EXPECT_ACL_FAILS(aclrtDestroyContext(&not_a_context), ACL_ERROR_INVALID_PARAM, HasSubstr("not a live context"));
  EXPECT_ACL_FAILS(aclrtSetCurrentContext(&not_a_context), ACL_ERROR_INVALID_PARAM, HasSubstr("not a live context"));
  EXPECT_ACL_FAILS(aclrtSetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtSetCurrentContext"),
                   HasSubstr("context"));
  EXPECT_ACL_FAILS(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtGetCurrentContext"));
  EXPECT_ACL_FAILS(aclrtCtxGetCurrentDefaultStream(nullptr), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtCtxGetCurrentDefaultStream"));
  // The primary context is released by aclrtResetDevice, never destroyed.
  EXPECT_ACL_FAILS(aclrtDestroyContext(ctx0_), ACL_ERROR_INVALID_PARAM, HasSubstr("primary context"));
  aclrtContext cur = nullptr;
  EXPECT_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(cur, ctx0_);
}

// ---- streams ----------------------------------------------------------------------------------------

TEST_F(RuntimeTest, StreamLifecycleAndBadHandles) {
  EXPECT_ACL_FAILS(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtCreateStream"),
                   HasSubstr("stream"));
  aclrtStream s = nullptr;
  EXPECT_ACL_FAILS(aclrtCreateStreamWithConfig(&s, 8, 0), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtCreateStreamWithConfig"), HasSubstr("priority 8"));
  EXPECT_ACL_FAILS(aclrtCreateStreamWithConfig(nullptr, 0, 0), ACL_ERROR_INVALID_PARAM, HasSubstr("stream"));
  ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_FAST_LAUNCH));
  EXPECT_OK(aclrtDestroyStreamForce(s));

  ASSERT_OK(aclrtCreateStream(&s));
  ASSERT_NE(s, nullptr);
  aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
  EXPECT_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
  EXPECT_ACL_FAILS(aclrtStreamQuery(s, nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtStreamQuery"),
                   HasSubstr("status"));
  EXPECT_OK(aclrtSynchronizeStream(s));
  EXPECT_OK(aclrtDestroyStream(s));

  // The destroyed handle is reported, never used.
  DevBuf buf(64);
  char host[64] = {};
  EXPECT_ACL_FAILS(aclrtDestroyStream(s), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtDestroyStream"),
                   HasSubstr("not a live stream"));
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtSynchronizeStream"),
                   HasSubstr("not a live stream"));
  EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(s, 10), ACL_ERROR_INVALID_PARAM, HasSubstr("not a live stream"));
  EXPECT_ACL_FAILS(aclrtStreamQuery(s, &st), ACL_ERROR_INVALID_PARAM, HasSubstr("not a live stream"));
  EXPECT_ACL_FAILS(aclrtMemcpyAsync(buf.get(), 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtMemcpyAsync"), HasSubstr("not a live stream"));
  EXPECT_ACL_FAILS(aclrtMemsetAsync(buf.get(), 64, 0, 64, s), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtMemsetAsync"),
                   HasSubstr("not a live stream"));
  EXPECT_ACL_FAILS(aclrtLaunchCallback([](void*) {}, nullptr, ACL_CALLBACK_BLOCK, s), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("not a live stream"));
  aclrtEvent e = nullptr;
  ASSERT_OK(aclrtCreateEvent(&e));
  EXPECT_ACL_FAILS(aclrtRecordEvent(e, s), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtRecordEvent"),
                   HasSubstr("not a live stream"));
  EXPECT_ACL_FAILS(aclrtStreamWaitEvent(s, e), ACL_ERROR_INVALID_PARAM, HasSubstr("not a live stream"));
  EXPECT_OK(aclrtDestroyEvent(e));

  int not_a_stream = 0;
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(&not_a_stream), ACL_ERROR_INVALID_PARAM, HasSubstr("not a live stream"));
  EXPECT_ACL_FAILS(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtDestroyStream"),
                   HasSubstr("stream"));
}

TEST_F(RuntimeTest, DefaultStream) {
  aclrtStream def = nullptr;
  ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&def));
  ASSERT_NE(def, nullptr);
  aclrtStream again = nullptr;
  EXPECT_OK(aclrtCtxGetCurrentDefaultStream(&again));
  EXPECT_EQ(def, again);
  EXPECT_ACL_FAILS(aclrtDestroyStream(def), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtDestroyStream"),
                   HasSubstr("default stream"));

  // The NULL stream is the default stream.
  DevBuf buf(128);
  std::vector<unsigned char> src(128);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 3);
  EXPECT_OK(aclrtMemcpyAsync(buf.get(), 128, src.data(), 128, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
  EXPECT_OK(aclrtMemsetAsync(buf.bytes() + 64, 64, 0x5a, 64, nullptr));
  EXPECT_OK(aclrtSynchronizeStream(nullptr));
  const auto got = ReadBack(buf.get(), 128);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(got[i], src[i]) << i;
  for (size_t i = 64; i < 128; ++i) EXPECT_EQ(got[i], 0x5a) << i;
  aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
  EXPECT_OK(aclrtStreamQuery(nullptr, &st));
  EXPECT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(RuntimeTest, StreamRunsInOrder) {
  aclrtStream s = nullptr;
  ASSERT_OK(aclrtCreateStream(&s));
  constexpr size_t kN = 256;
  DevBuf scratch(kN), result(kN), staged(kN);
  std::vector<unsigned char> host(kN);
  for (size_t i = 0; i < kN; ++i) host[i] = static_cast<unsigned char>(255 - i);

  // Each round overwrites `scratch` with i, then copies one byte of it into result[i]: any
  // reordering of the 2*kN tasks leaves a wrong byte somewhere.
  for (size_t i = 0; i < kN; ++i) {
    ASSERT_OK(aclrtMemsetAsync(scratch.get(), kN, static_cast<int32_t>(i), kN, s));
    ASSERT_OK(aclrtMemcpyAsync(result.bytes() + i, 1, scratch.bytes() + (i * 7) % kN, 1,
                               ACL_MEMCPY_DEVICE_TO_DEVICE, s));
  }
  // Host -> device, device -> device and memset chained on the same buffer.
  ASSERT_OK(aclrtMemcpyAsync(staged.get(), kN, host.data(), kN, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_OK(aclrtMemsetAsync(staged.get(), kN, 0, kN / 2, s));
  ASSERT_OK(aclrtMemcpyAsync(scratch.get(), kN, staged.get(), kN, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
  std::vector<unsigned char> back(kN, 0xEE);
  ASSERT_OK(aclrtMemcpyAsync(back.data(), kN, scratch.get(), kN, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_OK(aclrtSynchronizeStream(s));

  const auto got = ReadBack(result.get(), kN);
  for (size_t i = 0; i < kN; ++i) ASSERT_EQ(got[i], static_cast<unsigned char>(i)) << "round " << i;
  for (size_t i = 0; i < kN; ++i) ASSERT_EQ(back[i], i < kN / 2 ? 0 : host[i]) << i;
  EXPECT_OK(aclrtDestroyStream(s));
}

TEST_F(RuntimeTest, DestroyStreamDrainsQueuedWork) {
  aclrtStream s = nullptr;
  ASSERT_OK(aclrtCreateStream(&s));
  DevBuf buf(4096);
  Gate gate;
  gate.Block(s);
  ASSERT_OK(aclrtMemsetAsync(buf.get(), buf.size(), 0x33, buf.size(), s));
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate.Open();
  });
  EXPECT_OK(aclrtDestroyStream(s));  // waits for the gate and the memset
  opener.join();
  const auto got = ReadBack(buf.get(), buf.size());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], 0x33) << i;
}

TEST_F(RuntimeTest, SynchronizeWithTimeoutAndQuery) {
  aclrtStream s = nullptr;
  ASSERT_OK(aclrtCreateStream(&s));
  Gate gate;
  gate.Block(s);
  aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
  EXPECT_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
  EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(s, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   HasSubstr("aclrtSynchronizeStreamWithTimeout"), HasSubstr("10 ms"));
  EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, HasSubstr("0 ms"));
  EXPECT_ACL_FAILS(aclrtSynchronizeDeviceWithTimeout(10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   HasSubstr("aclrtSynchronizeDevice"), HasSubstr("10 ms"));
  EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(s, -2), ACL_ERROR_INVALID_PARAM, HasSubstr("timeout -2"));
  EXPECT_ACL_FAILS(aclrtSynchronizeDeviceWithTimeout(-5), ACL_ERROR_INVALID_PARAM, HasSubstr("timeout -5"));
  gate.Open();
  EXPECT_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
  EXPECT_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
  EXPECT_OK(aclrtSynchronizeStreamWithTimeout(s, 1000));
  EXPECT_OK(aclrtDestroyStream(s));
}

TEST_F(RuntimeTest, SynchronizeDeviceWaitsForEveryStream) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_OK(aclrtCreateStream(&a));
  ASSERT_OK(aclrtCreateStream(&b));
  DevBuf x(1 << 16), y(1 << 16);
  for (int i = 1; i <= 16; ++i) {
    ASSERT_OK(aclrtMemsetAsync(x.get(), x.size(), i, x.size(), a));
    ASSERT_OK(aclrtMemsetAsync(y.get(), y.size(), 100 + i, y.size(), b));
  }
  EXPECT_OK(aclrtSynchronizeDevice());
  aclrtStreamStatus sa = ACL_STREAM_STATUS_RESERVED, sb = ACL_STREAM_STATUS_RESERVED;
  EXPECT_OK(aclrtStreamQuery(a, &sa));
  EXPECT_OK(aclrtStreamQuery(b, &sb));
  EXPECT_EQ(sa, ACL_STREAM_STATUS_COMPLETE);
  EXPECT_EQ(sb, ACL_STREAM_STATUS_COMPLETE);
  EXPECT_EQ(ReadBack(x.bytes() + x.size() - 1, 1)[0], 16);
  EXPECT_EQ(ReadBack(y.bytes() + y.size() - 1, 1)[0], 116);
  EXPECT_OK(aclrtDestroyStream(a));
  EXPECT_OK(aclrtDestroyStream(b));
}

struct CallbackLog {
  std::mutex mu;
  std::vector<int> order;
  std::vector<int> seen;  // the first byte of the device buffer, read inside each callback
  void* dev = nullptr;
};
struct CallbackItem {
  CallbackLog* log;
  int id;
};

void RecordCallback(void* user) {
  auto* item = static_cast<CallbackItem*>(user);
  unsigned char b = 0xEE;
  const aclError rc = aclrtMemcpy(&b, 1, item->log->dev, 1, ACL_MEMCPY_DEVICE_TO_HOST);
  std::lock_guard<std::mutex> lock(item->log->mu);
  item->log->order.push_back(item->id);
  item->log->seen.push_back(rc == ACL_SUCCESS ? b : -1);
}

TEST_F(RuntimeTest, LaunchCallbackRunsInStreamOrder) {
  aclrtStream s = nullptr;
  ASSERT_OK(aclrtCreateStream(&s));
  DevBuf buf(64);
  CallbackLog log;
  log.dev = buf.get();
  constexpr int kN = 100;
  std::vector<CallbackItem> items;
  items.reserve(kN);
  for (int i = 0; i < kN; ++i) items.push_back(CallbackItem{&log, i});
  for (int i = 0; i < kN; ++i) {
    ASSERT_OK(aclrtMemsetAsync(buf.get(), buf.size(), i, buf.size(), s));
    ASSERT_OK(aclrtLaunchCallback(&RecordCallback, &items[static_cast<size_t>(i)],
                                  i % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, s));
  }
  ASSERT_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(log.order.size(), static_cast<size_t>(kN));
  for (int i = 0; i < kN; ++i) {
    EXPECT_EQ(log.order[static_cast<size_t>(i)], i);
    EXPECT_EQ(log.seen[static_cast<size_t>(i)], i);  // the memset before it had run, the next one had not
  }

  EXPECT_ACL_FAILS(aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, s), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtLaunchCallback"), HasSubstr("'fn'"));
  EXPECT_ACL_FAILS(aclrtLaunchCallback(&RecordCallback, &items[0], static_cast<aclrtCallbackBlockType>(7), s),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("blockType 7"));
  EXPECT_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(log.order.size(), static_cast<size_t>(kN));  // the rejected callbacks never ran
  EXPECT_OK(aclrtDestroyStream(s));
}

// ---- events -----------------------------------------------------------------------------------------

TEST_F(RuntimeTest, EventRecordSynchronizeQuery) {
  aclrtStream s = nullptr;
  ASSERT_OK(aclrtCreateStream(&s));
  aclrtEvent e = nullptr;
  ASSERT_OK(aclrtCreateEvent(&e));
  ASSERT_NE(e, nullptr);

  Gate gate;
  gate.Block(s);
  ASSERT_OK(aclrtRecordEvent(e, s));
  aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  EXPECT_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  aclrtEventStatus es = ACL_EVENT_STATUS_RESERVED;
  EXPECT_OK(aclrtQueryEvent(e, &es));
  EXPECT_EQ(es, ACL_EVENT_STATUS_NOT_READY);
  EXPECT_ACL_FAILS(aclrtSynchronizeEventWithTimeout(e, 10), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                   HasSubstr("aclrtSynchronizeEvent"), HasSubstr("10 ms"));
  EXPECT_ACL_FAILS(aclrtSynchronizeEventWithTimeout(e, -7), ACL_ERROR_INVALID_PARAM, HasSubstr("timeout -7"));
  gate.Open();
  EXPECT_OK(aclrtSynchronizeEvent(e));
  EXPECT_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_OK(aclrtQueryEvent(e, &es));
  EXPECT_EQ(es, ACL_EVENT_STATUS_COMPLETE);
  EXPECT_OK(aclrtSynchronizeEventWithTimeout(e, 100));

  // Recording again makes it pending again until the stream gets there.
  Gate gate2;
  gate2.Block(s);
  ASSERT_OK(aclrtRecordEvent(e, s));
  EXPECT_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  gate2.Open();
  EXPECT_OK(aclrtSynchronizeEvent(e));
  EXPECT_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_OK(aclrtResetEvent(e, s));
  EXPECT_OK(aclrtSynchronizeStream(s));

  EXPECT_ACL_FAILS(aclrtQueryEventStatus(e, nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtQueryEventStatus"),
                   HasSubstr("status"));
  EXPECT_OK(aclrtDestroyEvent(e));
  EXPECT_OK(aclrtDestroyStream(s));
}

TEST_F(RuntimeTest, EventBadHandles) {
  EXPECT_ACL_FAILS(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("event"));
  EXPECT_ACL_FAILS(aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtCreateEventWithFlag"), HasSubstr("event"));
  EXPECT_ACL_FAILS(aclrtRecordEvent(nullptr, nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtRecordEvent"),
                   HasSubstr("event is null"));
  EXPECT_ACL_FAILS(aclrtSynchronizeEvent(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("event is null"));
  EXPECT_ACL_FAILS(aclrtDestroyEvent(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtDestroyEvent"));

  aclrtEvent e = nullptr;
  ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_TIME_LINE));
  EXPECT_OK(aclrtDestroyEvent(e));
  aclrtEventRecordedStatus rs;
  EXPECT_ACL_FAILS(aclrtDestroyEvent(e), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtDestroyEvent"),
                   HasSubstr("not a live event"));
  EXPECT_ACL_FAILS(aclrtRecordEvent(e, nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("not a live event"));
  EXPECT_ACL_FAILS(aclrtQueryEventStatus(e, &rs), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtQueryEventStatus"),
                   HasSubstr("not a live event"));
  EXPECT_ACL_FAILS(aclrtSynchronizeEvent(e), ACL_ERROR_INVALID_PARAM, HasSubstr("not a live event"));
  EXPECT_ACL_FAILS(aclrtStreamWaitEvent(nullptr, e), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtStreamWaitEvent"),
                   HasSubstr("not a live event"));
  EXPECT_ACL_FAILS(aclrtResetEvent(e, nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtResetEvent"));
  float ms = 0;
  EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, e, e), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtEventElapsedTime"),
                   HasSubstr("not a live event"));
}

TEST_F(RuntimeTest, EventElapsedTime) {
  aclrtStream s = nullptr;
  ASSERT_OK(aclrtCreateStream(&s));
  aclrtEvent start = nullptr, end = nullptr;
  ASSERT_OK(aclrtCreateEvent(&start));
  ASSERT_OK(aclrtCreateEvent(&end));
  float ms = -1;
  EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtEventElapsedTime"), HasSubstr("startEvent has not completed"));

  DevBuf buf(1 << 20);
  ASSERT_OK(aclrtRecordEvent(start, s));
  for (int i = 0; i < 8; ++i) ASSERT_OK(aclrtMemsetAsync(buf.get(), buf.size(), i, buf.size(), s));
  ASSERT_OK(aclrtRecordEvent(end, s));
  ASSERT_OK(aclrtSynchronizeEvent(end));
  EXPECT_OK(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 0.0f);
  EXPECT_ACL_FAILS(aclrtEventElapsedTime(nullptr, start, end), ACL_ERROR_INVALID_PARAM, HasSubstr("'ms'"));

  // An end event recorded but not reached yet is reported.
  Gate gate;
  gate.Block(s);
  ASSERT_OK(aclrtRecordEvent(end, s));
  EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("endEvent has not completed"));
  gate.Open();
  EXPECT_OK(aclrtSynchronizeStream(s));
  EXPECT_OK(aclrtDestroyEvent(start));
  EXPECT_OK(aclrtDestroyEvent(end));
  EXPECT_OK(aclrtDestroyStream(s));
}

TEST_F(RuntimeTest, StreamWaitEventOrdersTwoStreams) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_OK(aclrtCreateStream(&a));
  ASSERT_OK(aclrtCreateStream(&b));
  aclrtEvent e = nullptr;
  ASSERT_OK(aclrtCreateEvent(&e));
  constexpr size_t kN = 1 << 12;
  DevBuf src(kN), dst(kN);
  ASSERT_OK(aclrtMemset(src.get(), kN, 0x11, kN));
  ASSERT_OK(aclrtMemset(dst.get(), kN, 0x00, kN));

  // Stream A is held, so its memset cannot have run when B is ready to copy; only the wait on the
  // event keeps B's copy behind it.
  Gate gate;
  gate.Block(a);
  ASSERT_OK(aclrtMemsetAsync(src.get(), kN, 0xAB, kN, a));
  ASSERT_OK(aclrtRecordEvent(e, a));
  ASSERT_OK(aclrtStreamWaitEvent(b, e));
  ASSERT_OK(aclrtMemcpyAsync(dst.get(), kN, src.get(), kN, ACL_MEMCPY_DEVICE_TO_DEVICE, b));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
  EXPECT_OK(aclrtStreamQuery(b, &st));
  EXPECT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
  EXPECT_EQ(ReadBack(dst.get(), 1)[0], 0x00);
  EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(b, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, HasSubstr("10 ms"));
  gate.Open();
  ASSERT_OK(aclrtSynchronizeStream(b));
  const auto got = ReadBack(dst.get(), kN);
  for (size_t i = 0; i < kN; ++i) ASSERT_EQ(got[i], 0xAB) << i;

  // Waiting on an event that was never recorded does not block.
  aclrtEvent fresh = nullptr;
  ASSERT_OK(aclrtCreateEvent(&fresh));
  EXPECT_OK(aclrtStreamWaitEvent(b, fresh));
  EXPECT_OK(aclrtSynchronizeStreamWithTimeout(b, 5000));

  EXPECT_OK(aclrtSynchronizeStream(a));
  EXPECT_OK(aclrtDestroyEvent(fresh));
  EXPECT_OK(aclrtDestroyEvent(e));
  EXPECT_OK(aclrtDestroyStream(a));
  EXPECT_OK(aclrtDestroyStream(b));
}

TEST_F(RuntimeTest, EventDestroyedWhileQueued) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_OK(aclrtCreateStream(&a));
  ASSERT_OK(aclrtCreateStream(&b));
  aclrtEvent e = nullptr;
  ASSERT_OK(aclrtCreateEvent(&e));
  DevBuf buf(64);
  Gate gate;
  gate.Block(a);
  ASSERT_OK(aclrtRecordEvent(e, a));
  ASSERT_OK(aclrtStreamWaitEvent(b, e));
  ASSERT_OK(aclrtMemsetAsync(buf.get(), 64, 0x42, 64, b));
  EXPECT_OK(aclrtDestroyEvent(e));  // the queued record and wait keep what they need alive
  gate.Open();
  EXPECT_OK(aclrtSynchronizeStream(a));
  EXPECT_OK(aclrtSynchronizeStream(b));
  EXPECT_EQ(ReadBack(buf.get(), 1)[0], 0x42);
  EXPECT_OK(aclrtDestroyStream(a));
  EXPECT_OK(aclrtDestroyStream(b));
}

// ---- device memory ----------------------------------------------------------------------------------

TEST_F(RuntimeTest, MallocBadArguments) {
  void* p = nullptr;
  EXPECT_ACL_FAILS(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtMalloc"),
                   HasSubstr("size is 0"));
  EXPECT_EQ(p, nullptr);
  EXPECT_ACL_FAILS(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtMalloc"), HasSubstr("devPtr"));
  EXPECT_ACL_FAILS(aclrtMallocAlign32(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtMallocAlign32"), HasSubstr("size is 0"));
  EXPECT_ACL_FAILS(aclrtMallocCached(nullptr, 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtMallocCached"), HasSubstr("devPtr"));
  EXPECT_ACL_FAILS(aclrtMallocWithCfg(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, nullptr), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtMallocWithCfg"));
  EXPECT_EQ(p, nullptr);
}

TEST_F(RuntimeTest, MallocAlignmentAndDistinctBlocks) {
  const size_t sizes[] = {1, 3, 31, 32, 33, 64, 100, 4095, 4096, 4097, 1 << 20, 12345};
  std::vector<std::pair<char*, size_t>> blocks;
  for (size_t n : sizes) {
    for (int variant = 0; variant < 4; ++variant) {
      void* p = nullptr;
      aclError rc = ACL_SUCCESS;
      switch (variant) {
        case 0: rc = aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST); break;
        case 1: rc = aclrtMallocAlign32(&p, n, ACL_MEM_MALLOC_NORMAL_ONLY); break;
        case 2: rc = aclrtMallocCached(&p, n, ACL_MEM_MALLOC_HUGE_ONLY); break;
        default: rc = aclrtMallocWithCfg(&p, n, ACL_MEM_MALLOC_HUGE_FIRST, nullptr); break;
      }
      ASSERT_EQ(rc, ACL_SUCCESS) << LastError();
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << "size " << n << " variant " << variant;
      blocks.emplace_back(static_cast<char*>(p), n);
    }
  }
  // Distinct and non-overlapping; each block is writable over its whole size.
  for (size_t i = 0; i < blocks.size(); ++i) {
    for (size_t j = i + 1; j < blocks.size(); ++j) {
      const bool disjoint =
          blocks[i].first + blocks[i].second <= blocks[j].first || blocks[j].first + blocks[j].second <= blocks[i].first;
      EXPECT_TRUE(disjoint) << i << " and " << j;
    }
    EXPECT_OK(aclrtMemset(blocks[i].first, blocks[i].second, static_cast<int32_t>(i), blocks[i].second));
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const auto got = ReadBack(blocks[i].first + blocks[i].second - 1, 1);
    EXPECT_EQ(got[0], static_cast<unsigned char>(i));
  }
  for (auto& b : blocks) EXPECT_OK(aclrtFree(b.first));
}

TEST_F(RuntimeTest, MemInfoTracksAllocations) {
  size_t free0 = 0, total0 = 0;
  ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total0));
  EXPECT_GT(total0, 0u);
  EXPECT_LE(free0, total0);
  if (!std::getenv("PACL_DEVICE_MEMORY")) { EXPECT_EQ(total0, size_t{16} << 30); }

  void* p = nullptr;
  ASSERT_OK(aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free1 = 0, total1 = 0;
  ASSERT_OK(aclrtGetMemInfo(ACL_DDR_MEM, &free1, &total1));
  EXPECT_EQ(total1, total0);
  EXPECT_LE(free1 + (1 << 20), free0);
  EXPECT_GE(free1 + (1 << 20) + 256, free0);  // the rounding and pad are small
  ASSERT_OK(aclrtFree(p));
  size_t free2 = 0;
  ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total1));
  EXPECT_EQ(free2, free0);

  EXPECT_ACL_FAILS(aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total1), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtGetMemInfo"), HasSubstr("free"));
  EXPECT_ACL_FAILS(aclrtGetMemInfo(ACL_HBM_MEM, &free2, nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("total"));
  EXPECT_ACL_FAILS(aclrtGetMemInfo(static_cast<aclrtMemAttr>(99), &free2, &total1), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("attr 99"));
}

TEST_F(RuntimeTest, MallocExhaustion) {
  size_t free0 = 0, total = 0;
  ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  void* p = nullptr;
  EXPECT_ACL_FAILS(aclrtMalloc(&p, total + 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
                   HasSubstr("aclrtMalloc"), HasSubstr("out of memory"));
  EXPECT_EQ(p, nullptr);
  // Sizes so large that rounding them up would wrap around must fail too, not succeed small.
  EXPECT_ACL_FAILS(aclrtMalloc(&p, std::numeric_limits<size_t>::max(), ACL_MEM_MALLOC_HUGE_FIRST),
                   ACL_ERROR_RT_MEMORY_ALLOCATION, HasSubstr("aclrtMalloc"));
  EXPECT_ACL_FAILS(aclrtMalloc(&p, std::numeric_limits<size_t>::max() - 40, ACL_MEM_MALLOC_HUGE_FIRST),
                   ACL_ERROR_RT_MEMORY_ALLOCATION, HasSubstr("aclrtMalloc"));
  EXPECT_ACL_FAILS(aclrtMallocAlign32(&p, std::numeric_limits<size_t>::max() - 20, ACL_MEM_MALLOC_HUGE_FIRST),
                   ACL_ERROR_RT_MEMORY_ALLOCATION, HasSubstr("aclrtMallocAlign32"));
  EXPECT_EQ(p, nullptr);

  // Fill most of the device (untouched, so no real memory is used), then ask for too much.
  void* big = nullptr;
  ASSERT_OK(aclrtMalloc(&big, total / 2, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_FAILS(aclrtMalloc(&p, total / 2 + (1 << 20), ACL_MEM_MALLOC_HUGE_FIRST),
                   ACL_ERROR_RT_MEMORY_ALLOCATION, HasSubstr("out of memory"));
  ASSERT_OK(aclrtFree(big));
  ASSERT_OK(aclrtMalloc(&p, total / 2 + (1 << 20), ACL_MEM_MALLOC_HUGE_FIRST));  // fits again
  ASSERT_OK(aclrtFree(p));
  size_t free1 = 0;
  ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  EXPECT_EQ(free1, free0);
}

TEST_F(RuntimeTest, FreeBadPointers) {
  EXPECT_ACL_FAILS(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtFree"), HasSubstr("devPtr"));
  void* p = nullptr;
  ASSERT_OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_FAILS(aclrtFree(static_cast<char*>(p) + 64), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtFree"),
                   HasSubstr("interior pointer"));
  ASSERT_OK(aclrtFree(p));
  EXPECT_ACL_FAILS(aclrtFree(p), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtFree"), HasSubstr("double free"));

  int on_stack = 0;
  EXPECT_ACL_FAILS(aclrtFree(&on_stack), ACL_ERROR_INVALID_PARAM, HasSubstr("not device memory"));
  void* heap = std::malloc(64);
  EXPECT_ACL_FAILS(aclrtFree(heap), ACL_ERROR_INVALID_PARAM, HasSubstr("not device memory"));
  std::free(heap);
  void* host = nullptr;
  ASSERT_OK(aclrtMallocHost(&host, 64));
  EXPECT_ACL_FAILS(aclrtFree(host), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtFreeHost"));
  EXPECT_OK(aclrtFreeHost(host));
}

TEST_F(RuntimeTest, HostMemory) {
  void* host = nullptr;
  EXPECT_ACL_FAILS(aclrtMallocHost(nullptr, 64), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtMallocHost"),
                   HasSubstr("hostPtr"));
  EXPECT_ACL_FAILS(aclrtMallocHost(&host, 0), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtMallocHost"),
                   HasSubstr("size is 0"));
  EXPECT_ACL_FAILS(aclrtMallocHost(&host, std::numeric_limits<size_t>::max()), ACL_ERROR_RT_MEMORY_ALLOCATION,
                   HasSubstr("aclrtMallocHost"));
  EXPECT_EQ(host, nullptr);

  ASSERT_OK(aclrtMallocHost(&host, 1000));
  ASSERT_NE(host, nullptr);
  std::memset(host, 0x3c, 1000);  // host memory is directly usable
  DevBuf dev(1000);
  EXPECT_OK(aclrtMemcpy(dev.get(), 1000, host, 1000, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_FAILS(aclrtMemcpy(dev.get(), 1000, host, 1000, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("contradicts"));
  EXPECT_EQ(ReadBack(dev.bytes() + 999, 1)[0], 0x3c);

  EXPECT_ACL_FAILS(aclrtFreeHost(dev.get()), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtFreeHost"),
                   HasSubstr("is device memory"));
  EXPECT_ACL_FAILS(aclrtFreeHost(static_cast<char*>(host) + 8), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("not host memory from aclrtMallocHost"));
  EXPECT_OK(aclrtFreeHost(host));
  EXPECT_ACL_FAILS(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM, HasSubstr("already freed"));
  EXPECT_ACL_FAILS(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM, HasSubstr("hostPtr"));
}

// ---- copies -----------------------------------------------------------------------------------------

std::vector<unsigned char> Pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 131 + seed * 17 + 1) & 0xff);
  return v;
}

TEST_F(RuntimeTest, MemcpyEveryKind) {
  constexpr size_t kN = 300;
  const auto a = Pattern(kN, 1), b = Pattern(kN, 2), c = Pattern(kN, 3);
  DevBuf d1(kN), d2(kN);
  std::vector<unsigned char> h(kN, 0);

  EXPECT_OK(aclrtMemcpy(h.data(), kN, a.data(), kN, ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_EQ(h, a);
  EXPECT_OK(aclrtMemcpy(d1.get(), kN, b.data(), kN, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(ReadBack(d1.get(), kN), b);
  EXPECT_OK(aclrtMemcpy(d2.get(), kN, d1.get(), kN, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_OK(aclrtMemcpy(h.data(), kN, d2.get(), kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(h, b);
  EXPECT_OK(aclrtMemcpy(d1.get(), kN, c.data(), kN, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
  EXPECT_EQ(ReadBack(d1.get(), kN), c);
  EXPECT_OK(aclrtMemcpy(d2.get(), kN, d1.get(), kN, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
  EXPECT_EQ(ReadBack(d2.get(), kN), c);

  // ACL_MEMCPY_DEFAULT infers the direction from the pointers, in all four cases.
  EXPECT_OK(aclrtMemcpy(d1.get(), kN, a.data(), kN, ACL_MEMCPY_DEFAULT));
  EXPECT_EQ(ReadBack(d1.get(), kN), a);
  EXPECT_OK(aclrtMemcpy(d2.get(), kN, d1.get(), kN, ACL_MEMCPY_DEFAULT));
  std::fill(h.begin(), h.end(), 0);
  EXPECT_OK(aclrtMemcpy(h.data(), kN, d2.get(), kN, ACL_MEMCPY_DEFAULT));
  EXPECT_EQ(h, a);
  EXPECT_OK(aclrtMemcpy(h.data(), kN, b.data(), kN, ACL_MEMCPY_DEFAULT));
  EXPECT_EQ(h, b);

  // Partial copies touch only `count` bytes; destMax may exceed count.
  EXPECT_OK(aclrtMemcpy(d1.get(), kN, b.data(), 10, ACL_MEMCPY_HOST_TO_DEVICE));
  const auto part = ReadBack(d1.get(), kN);
  for (size_t i = 0; i < kN; ++i) EXPECT_EQ(part[i], i < 10 ? b[i] : a[i]) << i;

  // Between devices.
  void* other = nullptr;
  ASSERT_OK(aclrtSetDevice(1));
  ASSERT_OK(aclrtMalloc(&other, kN, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK(aclrtSetCurrentContext(ctx0_));
  EXPECT_OK(aclrtMemcpy(other, kN, d2.get(), kN, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE));
  EXPECT_EQ(ReadBack(other, kN), a);
  EXPECT_OK(aclrtFree(other));
  EXPECT_OK(aclrtResetDevice(1));
}

TEST_F(RuntimeTest, MemcpyBadArguments) {
  DevBuf dev(64);
  DevBuf dev2(64);
  std::vector<unsigned char> host(4096, 1), host2(4096, 2);

  EXPECT_ACL_FAILS(aclrtMemcpy(dev.get(), 32, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtMemcpy"), HasSubstr("count (64 bytes) exceeds destMax (32 bytes)"));
  // A kind that contradicts where the pointers live.
  EXPECT_ACL_FAILS(aclrtMemcpy(dev.get(), 64, dev2.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("ACL_MEMCPY_HOST_TO_DEVICE contradicts"), HasSubstr("src"));
  EXPECT_ACL_FAILS(aclrtMemcpy(host.data(), 64, host2.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("ACL_MEMCPY_HOST_TO_DEVICE contradicts"));
  EXPECT_ACL_FAILS(aclrtMemcpy(dev.get(), 64, host.data(), 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("ACL_MEMCPY_DEVICE_TO_HOST contradicts"));
  EXPECT_ACL_FAILS(aclrtMemcpy(host.data(), 64, dev.get(), 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("ACL_MEMCPY_HOST_TO_HOST contradicts"));
  EXPECT_ACL_FAILS(aclrtMemcpy(host.data(), 64, dev.get(), 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("ACL_MEMCPY_DEVICE_TO_DEVICE contradicts"));
  EXPECT_ACL_FAILS(aclrtMemcpy(dev.get(), 64, host.data(), 64, static_cast<aclrtMemcpyKind>(42)),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("kind 42"));
  EXPECT_ACL_FAILS(aclrtMemcpy(nullptr, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("'dst'"));
  EXPECT_ACL_FAILS(aclrtMemcpy(host.data(), 64, nullptr, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("'src'"));

  // count == 0 succeeds and copies nothing, whatever the pointers.
  EXPECT_OK(aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_OK(aclrtMemcpy(dev.get(), 64, host.data(), 0, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_OK(aclrtMemcpyAsync(dev.get(), 64, host.data(), 0, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));

  // Copies that run past the end of a device allocation.
  EXPECT_ACL_FAILS(aclrtMemcpy(dev.get(), 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("dst range"), HasSubstr("overruns"));
  EXPECT_ACL_FAILS(aclrtMemcpy(host.data(), 4096, dev.get(), 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("src range"), HasSubstr("overruns"));
  EXPECT_ACL_FAILS(aclrtMemcpy(dev.bytes() + 32, 128, dev2.get(), 128, ACL_MEMCPY_DEVICE_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("overruns"));
  // A count so large that the end address wraps around is still an overrun.
  const size_t huge = std::numeric_limits<size_t>::max() - 16;
  EXPECT_ACL_FAILS(aclrtMemcpy(dev.get(), huge, host.data(), huge, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("overruns"));
  EXPECT_ACL_FAILS(aclrtMemcpy(host.data(), huge, dev.get(), huge, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("overruns"));

  // Freed device memory is named as such.
  void* gone = nullptr;
  ASSERT_OK(aclrtMalloc(&gone, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK(aclrtFree(gone));
  EXPECT_ACL_FAILS(aclrtMemcpy(gone, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("already freed"));

  // The async form validates at enqueue time with the same codes.
  EXPECT_ACL_FAILS(aclrtMemcpyAsync(dev.get(), 32, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtMemcpyAsync"), HasSubstr("exceeds destMax"));
  EXPECT_ACL_FAILS(aclrtMemcpyAsync(dev.get(), 64, dev2.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("contradicts"));
  EXPECT_ACL_FAILS(aclrtMemcpyAsync(dev.get(), 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("overruns"));
  EXPECT_OK(aclrtSynchronizeStream(nullptr));
}

TEST_F(RuntimeTest, DeviceAllocationBoundsFollowTheDocumentedPadding) {
  // aclrtMalloc rounds up to a multiple of 32 and adds 32 bytes; aclrtMallocAlign32 does not pad.
  std::vector<unsigned char> host(512, 9);
  void* padded = nullptr;
  void* aligned = nullptr;
  ASSERT_OK(aclrtMalloc(&padded, 100, ACL_MEM_MALLOC_HUGE_FIRST));       // 128 + 32 = 160 usable
  ASSERT_OK(aclrtMallocAlign32(&aligned, 100, ACL_MEM_MALLOC_HUGE_FIRST));  // 128 usable
  EXPECT_OK(aclrtMemcpy(padded, 160, host.data(), 160, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_FAILS(aclrtMemcpy(padded, 161, host.data(), 161, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("overruns"), HasSubstr("100 bytes"));
  EXPECT_OK(aclrtMemcpy(aligned, 128, host.data(), 128, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_FAILS(aclrtMemcpy(aligned, 129, host.data(), 129, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("overruns"));
  EXPECT_OK(aclrtMemset(padded, 160, 0, 160));
  EXPECT_ACL_FAILS(aclrtMemset(padded, 161, 0, 161), ACL_ERROR_INVALID_PARAM, HasSubstr("overruns"));
  EXPECT_OK(aclrtFree(padded));
  EXPECT_OK(aclrtFree(aligned));
}

TEST_F(RuntimeTest, Memset) {
  DevBuf dev(256);
  EXPECT_OK(aclrtMemset(dev.get(), 256, 0x7f, 256));
  EXPECT_OK(aclrtMemset(dev.bytes() + 16, 240, 0x01, 16));
  EXPECT_OK(aclrtMemset(dev.get(), 256, 0x11, 0));  // count 0: nothing
  const auto got = ReadBack(dev.get(), 256);
  for (size_t i = 0; i < 256; ++i) EXPECT_EQ(got[i], (i >= 16 && i < 32) ? 0x01 : 0x7f) << i;
  EXPECT_OK(aclrtMemset(dev.get(), 256, 0x1ab, 1));  // value is taken as a byte
  EXPECT_EQ(ReadBack(dev.get(), 1)[0], 0xab);

  EXPECT_ACL_FAILS(aclrtMemset(dev.get(), 16, 0, 32), ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtMemset"),
                   HasSubstr("count (32 bytes) exceeds maxCount (16 bytes)"));
  EXPECT_ACL_FAILS(aclrtMemset(nullptr, 16, 0, 16), ACL_ERROR_INVALID_PARAM, HasSubstr("devPtr"));
  std::vector<unsigned char> host(64);
  EXPECT_ACL_FAILS(aclrtMemset(host.data(), 64, 0, 64), ACL_ERROR_INVALID_PARAM, HasSubstr("not device memory"));
  EXPECT_ACL_FAILS(aclrtMemset(dev.get(), 8192, 0, 8192), ACL_ERROR_INVALID_PARAM, HasSubstr("overruns"));
  EXPECT_ACL_FAILS(aclrtMemsetAsync(dev.get(), 16, 0, 32, nullptr), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("aclrtMemsetAsync"), HasSubstr("exceeds maxCount"));
  EXPECT_ACL_FAILS(aclrtMemsetAsync(host.data(), 64, 0, 64, nullptr), ACL_ERROR_INVALID_PARAM,
                   HasSubstr("not device memory"));
  EXPECT_EQ(ReadBack(dev.get(), 1)[0], 0xab);  // failed calls changed nothing
}

TEST_F(RuntimeTest, Memcpy2d) {
  // A 6 x 10 byte block between pitched host and device buffers, in both directions and with
  // source and destination pitches of different size.
  constexpr size_t kW = 10, kH = 6, kHostPitch = 64, kDevPitch = 16;
  std::vector<unsigned char> host(kHostPitch * kH, 0);
  for (size_t r = 0; r < kH; ++r)
    for (size_t c = 0; c < kW; ++c) host[r * kHostPitch + c] = static_cast<unsigned char>(r * 16 + c);
  DevBuf dev(kDevPitch * kH);
  ASSERT_OK(aclrtMemset(dev.get(), dev.size(), 0xff, dev.size()));
  EXPECT_OK(aclrtMemcpy2d(dev.get(), kDevPitch, host.data(), kHostPitch, kW, kH, ACL_MEMCPY_HOST_TO_DEVICE));
  const auto packed = ReadBack(dev.get(), kDevPitch * kH);
  for (size_t r = 0; r < kH; ++r)
    for (size_t c = 0; c < kDevPitch; ++c)
      EXPECT_EQ(packed[r * kDevPitch + c], c < kW ? r * 16 + c : 0xff) << r << "," << c;

  std::vector<unsigned char> back(kHostPitch * kH, 0);
  EXPECT_OK(aclrtMemcpy2d(back.data(), kHostPitch, dev.get(), kDevPitch, kW, kH, ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t r = 0; r < kH; ++r)
    for (size_t c = 0; c < kHostPitch; ++c) EXPECT_EQ(back[r * kHostPitch + c], host[r * kHostPitch + c]);

  std::vector<unsigned char> back2(kHostPitch * kH, 0);
  EXPECT_OK(aclrtMemcpy2dAsync(back2.data(), kHostPitch, dev.get(), kDevPitch, kW, kH, ACL_MEMCPY_DEFAULT, nullptr));
  EXPECT_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(back2, back);
  EXPECT_OK(aclrtMemcpy2d(dev.get(), kDevPitch, host.data(), kHostPitch, kW, 0, ACL_MEMCPY_HOST_TO_DEVICE));

  EXPECT_ACL_FAILS(aclrtMemcpy2d(dev.get(), 8, host.data(), kHostPitch, kW, kH, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtMemcpy2d"), HasSubstr("width (10) exceeds dpitch (8)"));
  EXPECT_ACL_FAILS(aclrtMemcpy2d(dev.get(), kDevPitch, host.data(), 4, kW, kH, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("width (10) exceeds spitch (4)"));
  EXPECT_ACL_FAILS(aclrtMemcpy2d(dev.get(), kDevPitch, host.data(), kHostPitch, kW, 100, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("overruns"));
  EXPECT_ACL_FAILS(aclrtMemcpy2d(back.data(), kHostPitch, dev.get(), kDevPitch, kW, 100, ACL_MEMCPY_DEVICE_TO_HOST),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("src range"), HasSubstr("overruns"));
  EXPECT_ACL_FAILS(aclrtMemcpy2d(dev.get(), kDevPitch, host.data(), kHostPitch, kW, kH, ACL_MEMCPY_DEVICE_TO_HOST),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("contradicts"));
  // Pitch times height beyond the address space must not wrap around into a small span.
  const size_t pitch = size_t{1} << 32;
  EXPECT_ACL_FAILS(aclrtMemcpy2d(dev.get(), pitch, host.data(), pitch, kW, pitch + 1, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtMemcpy2d"));
  EXPECT_ACL_FAILS(aclrtMemcpy2dAsync(dev.get(), 8, host.data(), kHostPitch, kW, kH, ACL_MEMCPY_HOST_TO_DEVICE,
                                      nullptr),
                   ACL_ERROR_INVALID_PARAM, HasSubstr("aclrtMemcpy2dAsync"), HasSubstr("exceeds dpitch"));
}

}  // namespace
