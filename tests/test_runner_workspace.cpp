// Workspace strategies: per call, per stream (grows, reused in stream order), and the caching pool
// (size classes, split/coalesce, stream-ordered reuse through events, byte limit, release threshold,
// statistics, thread safety); alignment.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <thread>

#include "aclnnop/aclnn_add.h"
#include "test_runner_util.h"

namespace {

using rt::Floats;
using Workspace = rt::RunnerTest;
constexpr size_t kMiB = size_t{1} << 20;

pacl::Status Fill(aclrtStream s, pacl::WorkspaceStrategy strategy, int64_t ws_bytes, const aclTensor* x, aclTensor* out,
                  float value, bool launch = false) {
  pacl::RunOptions o;
  o.stream = s;
  o.workspace = strategy;
  return launch ? pacl::TryLaunch(o, aclnnRunnerTestFillGetWorkspaceSize, aclnnRunnerTestFill, pacl::TensorList{x},
                                  pacl::Scalar(value), ws_bytes, out)
                : pacl::TryRun(o, aclnnRunnerTestFillGetWorkspaceSize, aclnnRunnerTestFill, pacl::TensorList{x},
                               pacl::Scalar(value), ws_bytes, out);
}

const pacl::WorkspaceStrategy kStrategies[] = {pacl::WorkspaceStrategy::kPerCall, pacl::WorkspaceStrategy::kPerStream,
                                               pacl::WorkspaceStrategy::kPool};

TEST_F(Workspace, EveryStrategyGivesAlignedLiveWorkspace) {
  Floats x({4}), out({4});
  for (size_t align : {size_t{512}, size_t{4096}}) {
    pacl::SetWorkspaceAlignment(align);
    pacl::ReleaseResources();  // pools take the alignment when they are created
    for (pacl::WorkspaceStrategy s : kStrategies) {
      for (int64_t bytes : {1, 1000, 70000}) {
        const pacl::Status st = Fill(stream, s, bytes, x, out, static_cast<float>(bytes));
        ASSERT_TRUE(st.ok()) << st.ToString();
        // Phase 2 wrote every byte of the workspace with aclrtMemsetAsync, which checks the range.
        EXPECT_EQ(rt::Probe().last_workspace_size, static_cast<uint64_t>(bytes));
        EXPECT_EQ(reinterpret_cast<uintptr_t>(rt::Probe().last_workspace) % align, 0u)
            << pacl::WorkspaceStrategyName(s) << " " << bytes;
        EXPECT_FLOAT_EQ(out.Read()[3], static_cast<float>(bytes));
      }
    }
  }
  EXPECT_THROW(pacl::SetWorkspaceAlignment(100), pacl::RunnerError);
  EXPECT_THROW(pacl::SetWorkspaceAlignment(16), pacl::RunnerError);
  // No workspace: phase 2 gets none.
  ASSERT_TRUE(Fill(stream, pacl::WorkspaceStrategy::kPool, 0, x, out, 1).ok());
  EXPECT_EQ(rt::Probe().last_workspace, nullptr);
}

TEST_F(Workspace, PerCallMallocsAndFreesEachCall) {
  Floats x({4}), out({4});
  const size_t before = rt::DeviceBytesInUse();
  const uint64_t mallocs = pacl::GetWorkspaceStats().per_call_mallocs;
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(Fill(stream, pacl::WorkspaceStrategy::kPerCall, 10000, x, out, 1).ok());
  EXPECT_EQ(pacl::GetWorkspaceStats().per_call_mallocs, mallocs + 5);
  EXPECT_EQ(rt::DeviceBytesInUse(), before);
}

TEST_F(Workspace, PerStreamBlockGrowsOnlyWhenLarger) {
  Floats x({4}), out({4});
  pacl::ForgetStream(stream);  // start without a block
  const uint64_t grows = pacl::GetWorkspaceStats().per_stream_grows;
  const auto per_stream = pacl::WorkspaceStrategy::kPerStream;
  ASSERT_TRUE(Fill(stream, per_stream, 10000, x, out, 1).ok());
  void* first = rt::Probe().last_workspace;
  ASSERT_TRUE(Fill(stream, per_stream, 5000, x, out, 1).ok());
  EXPECT_EQ(rt::Probe().last_workspace, first);
  ASSERT_TRUE(Fill(stream, per_stream, 10000, x, out, 1).ok());
  EXPECT_EQ(rt::Probe().last_workspace, first);
  EXPECT_EQ(pacl::GetWorkspaceStats().per_stream_grows, grows + 1);
  ASSERT_TRUE(Fill(stream, per_stream, 20000, x, out, 1).ok());
  ASSERT_TRUE(Fill(stream, per_stream, 15000, x, out, 1).ok());
  EXPECT_EQ(pacl::GetWorkspaceStats().per_stream_grows, grows + 2);
  void* current = rt::Probe().last_workspace;
  // Another stream has its own block.
  aclrtStream s2 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  ASSERT_TRUE(Fill(s2, per_stream, 5000, x, out, 1).ok());
  EXPECT_NE(rt::Probe().last_workspace, current);
  const size_t held = pacl::GetWorkspaceStats().per_stream_bytes;
  pacl::ForgetStream(s2);
  EXPECT_LT(pacl::GetWorkspaceStats().per_stream_bytes, held);
  ASSERT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

TEST_F(Workspace, OutgrownBlockLivesUntilItsLastUserRan) {
  Floats x({4});
  std::vector<std::unique_ptr<Floats>> outs;
  for (int i = 0; i < 4; ++i) outs.push_back(std::make_unique<Floats>(std::vector<int64_t>{4}));
  const auto per_stream = pacl::WorkspaceStrategy::kPerStream;
  ASSERT_TRUE(Fill(stream, per_stream, 4096, x, *outs[0], 0).ok());
  const size_t base = rt::DeviceBytesInUse();
  {
    rt::StreamGate gate(stream);
    for (int i = 0; i < 4; ++i)  // each launch outgrows the block of the one before
      ASSERT_TRUE(Fill(stream, per_stream, int64_t{8192} << (2 * i), x, *outs[static_cast<size_t>(i)], static_cast<float>(i), true).ok());
    EXPECT_GT(rt::DeviceBytesInUse(), base + (size_t{8192} << 6)) << "outgrown blocks were freed before their op ran";
    gate.Open();
  }
  pacl::Synchronize(stream);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(outs[static_cast<size_t>(i)]->Read()[0], static_cast<float>(i));
}

TEST_F(Workspace, DefaultStrategyIsUsedUnlessOverridden) {
  rt::RegisterFillOp();
  Floats x({4}), out({4});
  auto by_name = [&]() -> pacl::OpRunner {
    pacl::OpRunner r("RunnerTestFill", stream);
    r.AddTensorList({x.get()}).AddScalar(1.0f).AddAttr(1000).AddOutput(out);
    return r;
  };
  pacl::SetDefaultWorkspaceStrategy(pacl::WorkspaceStrategy::kPool);
  EXPECT_EQ(pacl::DefaultWorkspaceStrategy(), pacl::WorkspaceStrategy::kPool);
  const uint64_t pool_allocs = pacl::DefaultPool().Stats().allocations;
  ASSERT_TRUE(Fill(stream, pacl::WorkspaceStrategy::kDefault, 1000, x, out, 1).ok());
  EXPECT_EQ(pacl::DefaultPool().Stats().allocations, pool_allocs + 1);
  pacl::SetDefaultWorkspaceStrategy(pacl::WorkspaceStrategy::kPerCall);
  const uint64_t mallocs = pacl::GetWorkspaceStats().per_call_mallocs;
  ASSERT_TRUE(by_name().TryRun().ok());
  EXPECT_EQ(pacl::GetWorkspaceStats().per_call_mallocs, mallocs + 1);
  ASSERT_TRUE(by_name().Workspace(pacl::WorkspaceStrategy::kPool).TryRun().ok());
  EXPECT_EQ(pacl::DefaultPool().Stats().allocations, pool_allocs + 2);
  EXPECT_EQ(pacl::GetWorkspaceStats().per_call_mallocs, mallocs + 1);
}

// ---- the pool on its own ---------------------------------------------------------------------------

TEST_F(Workspace, PoolReusesOnTheSameStreamAtOnce) {
  pacl::WorkspacePool pool;
  void* p = pool.Allocate(1000, stream);
  pool.Free(p, stream);
  EXPECT_EQ(pool.Allocate(1000, stream), p);
  pool.Free(p, stream);
  const pacl::PoolStats st = pool.Stats();
  EXPECT_EQ(st.device_mallocs, 1u);
  EXPECT_EQ(st.cache_hits, 1u);
  EXPECT_EQ(st.allocations, 2u);
  EXPECT_EQ(st.frees, 2u);
  EXPECT_EQ(st.reserved, 2 * kMiB);
  EXPECT_EQ(st.live, 0u);
  EXPECT_EQ(st.peak_live, 1024u);
  EXPECT_THROW(pool.Free(p, stream), pacl::RunnerError);  // freed twice
}

TEST_F(Workspace, PoolSplitsAndCoalesces) {
  pacl::WorkspacePool pool;
  const size_t half = 512 * 1024;
  auto* a = static_cast<char*>(pool.Allocate(half, stream));
  auto* b = static_cast<char*>(pool.Allocate(half, stream));
  auto* c = static_cast<char*>(pool.Allocate(half, stream));
  EXPECT_EQ(b, a + half);
  EXPECT_EQ(c, b + half);
  pool.Free(b, stream);
  pacl::PoolStats st = pool.Stats();
  EXPECT_EQ(st.segments, 1u);
  EXPECT_EQ(st.cached, 2 * kMiB - 2 * half);
  EXPECT_EQ(st.largest_free, half);
  EXPECT_DOUBLE_EQ(st.fragmentation, 0.5);
  pool.Free(a, stream);
  pool.Free(c, stream);
  st = pool.Stats();
  EXPECT_EQ(st.largest_free, 2 * kMiB);  // one block again
  EXPECT_DOUBLE_EQ(st.fragmentation, 0.0);
  // Large requests get segments rounded to 2 MiB, split when at least 1 MiB remains.
  void* big = pool.Allocate(3 * kMiB, stream);
  EXPECT_EQ(pool.Stats().reserved, 2 * kMiB + 4 * kMiB);
  EXPECT_EQ(pool.Stats().live, 3 * kMiB);
  void* big2 = pool.Allocate(3 * kMiB / 2, stream);  // a 0.5 MiB remainder stays with the block
  EXPECT_EQ(pool.Stats().reserved, 2 * kMiB + 4 * kMiB + 2 * kMiB);
  EXPECT_EQ(pool.Stats().live, 5 * kMiB);
  pool.Free(big, stream);
  pool.Free(big2, stream);
  pool.EmptyCache();
  EXPECT_EQ(pool.Stats().reserved, 0u);
  EXPECT_EQ(pool.Stats().device_frees, 3u);
}

TEST_F(Workspace, PoolReusesAcrossStreamsOnlyAfterTheEvent) {
  aclrtStream b = nullptr;
  ASSERT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  {
    pacl::WorkspacePool pool;
    pool.Free(pool.Allocate(100, b), b);  // two streams seen from now on: frees record events
    void* p = nullptr;
    {
      rt::StreamGate gate(stream);  // work on `stream` cannot pass the gate yet
      p = pool.Allocate(3 * kMiB, stream);
      pool.Free(p, stream);
      void* q = pool.Allocate(3 * kMiB, b);
      EXPECT_NE(q, p) << "stream b got a block `stream` may still be using";
      EXPECT_EQ(pool.Allocate(3 * kMiB, stream), p) << "a stream reuses its own block at once";
      pool.Free(p, stream);
      gate.Open();
    }
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(pool.Allocate(3 * kMiB, b), p);
    EXPECT_EQ(pool.Stats().cross_stream_reuses, 1u);
  }
  ASSERT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
}

TEST_F(Workspace, PoolFencesBlocksFreedBeforeASecondStreamAppeared) {
  aclrtStream b = nullptr;
  ASSERT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  {
    pacl::WorkspacePool pool;
    void* p = pool.Allocate(3 * kMiB, stream);
    pool.Free(p, stream);  // one stream so far: no event
    EXPECT_NE(pool.Allocate(3 * kMiB, b), p);
    pool.Free(pool.Allocate(64, stream), stream);  // the next call on `stream` records the event
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(pool.Allocate(3 * kMiB, b), p);
  }
  {
    // ForgetStream: once a stream is synchronized, the blocks last used on it are free for all.
    pacl::WorkspacePool pool;
    void* r = pool.Allocate(8192, b);
    pool.Free(r, b);
    ASSERT_EQ(aclrtSynchronizeStream(b), ACL_SUCCESS);
    pool.ForgetStream(b);
    EXPECT_EQ(pool.Allocate(8192, stream), r);
  }
  ASSERT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
}

TEST_F(Workspace, PoolByteLimitAndReleaseThreshold) {
  pacl::PoolConfig cfg;
  cfg.limit_bytes = 4 * kMiB;
  pacl::WorkspacePool pool(cfg);
  void* big = pool.Allocate(3 * kMiB, stream);
  try {
    pool.Allocate(kMiB, stream);  // a small segment (2 MiB) does not fit next to the live 4 MiB
    ADD_FAILURE();
  } catch (const pacl::RunnerError& e) {
    EXPECT_EQ(e.status().phase(), pacl::Phase::kWorkspace);
    EXPECT_EQ(e.status().code(), 207001);
    EXPECT_NE(std::string(e.what()).find("byte limit"), std::string::npos) << e.what();
  }
  pool.Free(big, stream);
  void* small = pool.Allocate(kMiB, stream);  // frees the cached large segment first
  EXPECT_EQ(pool.Stats().limit_recoveries, 1u);
  EXPECT_EQ(pool.Stats().reserved, 2 * kMiB);
  pool.Free(small, stream);

  pacl::PoolConfig keep_none;
  keep_none.release_threshold = 0;
  pacl::WorkspacePool lean(keep_none);
  void* p = lean.Allocate(3 * kMiB, stream);
  lean.Free(p, stream);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  void* t = lean.Allocate(100, stream);  // the free large segment goes back before this allocation
  EXPECT_EQ(lean.Stats().reserved, 2 * kMiB);
  EXPECT_EQ(lean.Stats().device_frees, 1u);
  lean.Free(t, stream);
}

TEST_F(Workspace, PoolMixedTraceKeepsItsInvariants) {
  // Workspaces of a model: 40 distinct sizes from 1 KiB to 4 MiB, up to 12 live, freed in any order.
  pacl::WorkspacePool pool;
  std::mt19937 rng(3);
  std::vector<size_t> sizes;
  for (int i = 0; i < 40; ++i) sizes.push_back((size_t{1} << (10 + rng() % 13)) - rng() % 512);
  std::map<uintptr_t, uintptr_t> live;
  size_t live_bytes = 0;
  for (int i = 0; i < 6000; ++i) {
    if (live.size() < 12 && (live.empty() || rng() % 2)) {
      const size_t n = sizes[rng() % sizes.size()];
      const auto a = reinterpret_cast<uintptr_t>(pool.Allocate(n, stream));
      auto it = live.upper_bound(a);
      ASSERT_FALSE(it != live.end() && it->first < a + n) << "overlaps the next live block";
      ASSERT_FALSE(it != live.begin() && std::prev(it)->second > a) << "overlaps the previous live block";
      ASSERT_EQ(a % 512, 0u);
      live.emplace(a, a + n);
      live_bytes += n;
    } else {
      auto it = live.begin();
      std::advance(it, static_cast<long>(rng() % live.size()));
      live_bytes -= it->second - it->first;
      pool.Free(reinterpret_cast<void*>(it->first), stream);
      live.erase(it);
    }
    if (i % 97 == 0) {
      ASSERT_GE(pool.Stats().live, live_bytes);  // (Stats() also coalesces the hot list)
    }
  }
  for (auto& kv : live) pool.Free(reinterpret_cast<void*>(kv.first), stream);
  const pacl::PoolStats st = pool.Stats();
  EXPECT_EQ(st.live, 0u);
  EXPECT_EQ(st.allocations, st.frees);
  EXPECT_GT(st.cache_hits, st.allocations / 2);
  std::printf("mixed trace: peak reserved %zu, peak live %zu (%.2fx), %llu device mallocs for %llu allocations\n",
              st.peak_reserved, st.peak_live, static_cast<double>(st.peak_reserved) / static_cast<double>(st.peak_live),
              static_cast<unsigned long long>(st.device_mallocs), static_cast<unsigned long long>(st.allocations));
  pool.EmptyCache();
  EXPECT_EQ(pool.Stats().reserved, 0u);
}

TEST_F(Workspace, PoolThreadsNeverShareALiveBlock) {
  pacl::WorkspacePool pool;
  std::mutex mu;
  std::map<uintptr_t, uintptr_t> live;  // start -> end
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      aclrtStream s = nullptr;
      if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS) {
        ++errors;
        return;
      }
      std::mt19937 rng(static_cast<unsigned>(t) + 7);
      std::vector<std::pair<void*, size_t>> mine;
      for (int i = 0; i < 400; ++i) {
        if (mine.size() < 8 && (mine.empty() || rng() % 2)) {
          const size_t n = rng() % 3 == 0 ? 1 + rng() % (3 * kMiB) : 1 + rng() % 4096;
          void* p = pool.Allocate(n, s);
          const auto a = reinterpret_cast<uintptr_t>(p);
          std::lock_guard<std::mutex> lock(mu);
          auto it = live.upper_bound(a);
          const bool overlaps = (it != live.end() && it->first < a + n) ||
                                (it != live.begin() && std::prev(it)->second > a);
          if (overlaps || a % 512) ++errors;
          live.emplace(a, a + n);
          mine.emplace_back(p, n);
        } else {
          const size_t k = rng() % mine.size();
          {
            std::lock_guard<std::mutex> lock(mu);
            live.erase(reinterpret_cast<uintptr_t>(mine[k].first));
          }
          pool.Free(mine[k].first, s);
          mine.erase(mine.begin() + static_cast<long>(k));
        }
      }
      for (auto& m : mine) {
        {
          std::lock_guard<std::mutex> lock(mu);
          live.erase(reinterpret_cast<uintptr_t>(m.first));
        }
        pool.Free(m.first, s);
      }
      aclrtSynchronizeStream(s);
      pool.ForgetStream(s);
      aclrtDestroyStream(s);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(errors.load(), 0);
  const pacl::PoolStats st = pool.Stats();
  EXPECT_EQ(st.live, 0u);
  EXPECT_EQ(st.allocations, st.frees);
  EXPECT_LE(st.peak_live, st.peak_reserved);
}

}  // namespace
