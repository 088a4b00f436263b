// Out of device memory with a small device (PACL_DEVICE_MEMORY=24M, set before the runtime
// starts): the pool and the runner free what they cache and retry; what cannot fit fails with an
// explanation. Also the runner's environment variables (read when it starts).
#include <gtest/gtest.h>

#include <cstdlib>

#include "test_runner_util.h"

namespace {

const bool kSmallDevice = (setenv("PACL_DEVICE_MEMORY", "24M", 1), setenv("PACL_RUNNER_CACHE_ENTRIES", "7", 1),
                           setenv("PACL_RUNNER_CACHE_BYTES", "1M", 1), setenv("PACL_RUNNER_CACHE_DEBUG", "1", 1),
                           setenv("PACL_RUNNER_WORKSPACE", "pool", 1), setenv("PACL_RUNNER_WORKSPACE_ALIGN", "1024", 1),
                           true);
constexpr size_t kMiB = size_t{1} << 20;

using rt::Floats;
using Oom = rt::RunnerTest;

pacl::Status Fill(aclrtStream s, pacl::WorkspaceStrategy strategy, int64_t ws_bytes, const aclTensor* x, aclTensor* out,
                  float value) {
  pacl::RunOptions o;
  o.stream = s;
  o.workspace = strategy;
  return pacl::TryRun(o, aclnnRunnerTestFillGetWorkspaceSize, aclnnRunnerTestFill, pacl::TensorList{x},
                      pacl::Scalar(value), ws_bytes, out);
}

// Before any fixture changes the configuration.
TEST(RunnerEnvironment, SettingsComeFromTheEnvironment) {
  ASSERT_TRUE(kSmallDevice);
  const pacl::CacheConfig c = pacl::GetCacheConfig();
  EXPECT_EQ(c.max_entries, 7u);
  EXPECT_EQ(c.max_bytes, size_t{1} << 20);
  EXPECT_TRUE(c.debug);
  EXPECT_FALSE(c.parity);
  EXPECT_EQ(pacl::DefaultWorkspaceStrategy(), pacl::WorkspaceStrategy::kPool);
  EXPECT_EQ(pacl::WorkspaceAlignment(), 1024u);
  // Debug mode from the environment also prints each miss's diagnosis.
  Floats a({3}), out({3});
  testing::internal::CaptureStderr();
  pacl::OpRunner("Add", optest::stream()).AddInput(a).AddInput(a).AddScalar(1.0f).AddOutput(out).Run();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("[pacl runner] aclnnAdd: cache miss"), std::string::npos) << err;
  pacl::Synchronize(optest::stream());
}

TEST_F(Oom, PoolFreesItsCacheAndRetries) {
  ASSERT_TRUE(kSmallDevice);
  size_t free_bytes = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
  ASSERT_EQ(total, 24 * kMiB);
  pacl::WorkspacePool pool;
  void* a = pool.Allocate(6 * kMiB, stream);
  void* b = pool.Allocate(6 * kMiB, stream);
  void* c = pool.Allocate(6 * kMiB, stream);
  pool.Free(a, stream);
  pool.Free(b, stream);
  pool.Free(c, stream);
  EXPECT_EQ(pool.Stats().reserved, 18 * kMiB);
  // 10 MiB fits in none of the cached 6 MiB segments, and not next to them on the device.
  void* big = pool.Allocate(10 * kMiB, stream);
  const pacl::PoolStats st = pool.Stats();
  EXPECT_EQ(st.oom_recoveries, 1u);
  EXPECT_EQ(st.reserved, 10 * kMiB);
  EXPECT_EQ(st.live, 10 * kMiB);
  pool.Free(big, stream);
  // Beyond the device even with an empty cache: an explained failure.
  try {
    pool.Allocate(30 * kMiB, stream);
    ADD_FAILURE();
  } catch (const pacl::RunnerError& e) {
    EXPECT_EQ(e.status().phase(), pacl::Phase::kWorkspace);
    EXPECT_STREQ(pacl::StatusName(e.status().code()), "ACL_ERROR_RT_MEMORY_ALLOCATION");
    EXPECT_NE(e.status().acl_message().find("out of memory"), std::string::npos) << e.what();
  }
}

TEST_F(Oom, RunnerReleasesCachedWorkspaceAndRetries) {
  Floats x({4}), out({4});
  aclrtStream s2 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  // 8 MiB held as the per-stream block of s2, 8 MiB cached in the default pool.
  ASSERT_TRUE(Fill(s2, pacl::WorkspaceStrategy::kPerStream, 8 * kMiB, x, out, 1).ok());
  ASSERT_TRUE(Fill(stream, pacl::WorkspaceStrategy::kPool, 8 * kMiB, x, out, 2).ok());
  EXPECT_GE(rt::DeviceBytesInUse(), 16 * kMiB);
  const uint64_t relief = pacl::GetWorkspaceStats().pressure_relief;
  // 12 MiB per call only fits once both are released.
  const pacl::Status s = Fill(stream, pacl::WorkspaceStrategy::kPerCall, 12 * kMiB, x, out, 3);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_FLOAT_EQ(out.Read()[0], 3.0f);
  EXPECT_EQ(pacl::GetWorkspaceStats().pressure_relief, relief + 1);
  EXPECT_EQ(pacl::DefaultPool().Stats().reserved, 0u);
  EXPECT_EQ(pacl::GetWorkspaceStats().per_stream_bytes, 0u);
  // The per-stream strategy recovers the same way, from the pool's cache.
  ASSERT_TRUE(Fill(stream, pacl::WorkspaceStrategy::kPool, 8 * kMiB, x, out, 4).ok());
  const pacl::Status p = Fill(s2, pacl::WorkspaceStrategy::kPerStream, 16 * kMiB, x, out, 5);
  ASSERT_TRUE(p.ok()) << p.ToString();
  EXPECT_FLOAT_EQ(out.Read()[0], 5.0f);
  pacl::ForgetStream(s2);
  ASSERT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

TEST_F(Oom, WhatCannotFitFailsWithAnExplanation) {
  rt::RegisterFillOp();  // parameter names for the summary
  Floats x({4}), out({4});
  for (pacl::WorkspaceStrategy strategy :
       {pacl::WorkspaceStrategy::kPerCall, pacl::WorkspaceStrategy::kPerStream, pacl::WorkspaceStrategy::kPool}) {
    const pacl::Status s = Fill(stream, strategy, 64 * kMiB, x, out, 1);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.phase(), pacl::Phase::kWorkspace) << s.ToString();
    EXPECT_EQ(s.op(), "RunnerTestFill");
    EXPECT_STREQ(pacl::StatusName(s.code()), "ACL_ERROR_RT_MEMORY_ALLOCATION") << s.ToString();
    EXPECT_NE(s.ToString().find("67108864"), std::string::npos) << s.ToString();
    EXPECT_NE(s.args().find("workspaceBytes=67108864"), std::string::npos) << s.ToString();
  }
  // The runner still works afterwards.
  ASSERT_TRUE(Fill(stream, pacl::WorkspaceStrategy::kPool, 1024, x, out, 9).ok());
  EXPECT_FLOAT_EQ(out.Read()[0], 9.0f);
}

}  // namespace
