// The executor cache: every key field changed alone misses (and debug mode names it), identical
// calls with fresh buffers hit and write into the new buffers, aliasing separates entries, parity
// mode, LRU eviction by count and bytes (also while the evicted executors' work is still queued),
// and threads x streams hammering it.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <random>
#include <thread>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_sub.h"
#include "test_runner_util.h"

namespace {

// A second device for the device field of the key (read when the runtime starts).
const bool kTwoDevices = (setenv("PACL_DEVICE_COUNT", "2", 0), true);

using rt::Floats;
using Cache = rt::RunnerTest;

pacl::RunInfo AddCall(aclrtStream s, const aclTensor* self, const aclTensor* other, pacl::Scalar alpha, aclTensor* out) {
  return pacl::Run(s, aclnnAddGetWorkspaceSize, aclnnAdd, self, other, alpha, out);
}

// Runs `call` expecting a miss whose diagnosis mentions every string of `mentions`, then again
// expecting a hit.
void ExpectMissThenHit(const char* what, const std::function<pacl::RunInfo()>& call,
                       const std::vector<std::string>& mentions) {
  SCOPED_TRACE(what);
  const pacl::RunInfo first = call();
  EXPECT_FALSE(first.cache_hit);
  const std::string why = pacl::LastCacheMiss();
  for (const std::string& m : mentions) EXPECT_NE(why.find(m), std::string::npos) << "'" << m << "' not in: " << why;
  EXPECT_TRUE(call().cache_hit);
}

TEST_F(Cache, EveryKeyFieldChangedAloneMisses) {
  ASSERT_TRUE(kTwoDevices);
  pacl::CacheConfig cfg;
  cfg.debug = true;
  pacl::SetCacheConfig(cfg);
  rt::RegisterFillOp();
  // The base call: self is a [2,3] view of an 8-element storage.
  rt::DeviceBuffer sbuf(8 * 4);
  sbuf.Fill({1, 2, 3, 4, 5, 6, 7, 8});
  Floats other({2, 3}, 10, 10), out({2, 3});
  auto base = [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {3, 1}, 0, ACL_FORMAT_ND, {8});
    return AddCall(stream, self, other, pacl::Scalar(1.0f), out);
  };
  EXPECT_FALSE(base().cache_hit);
  EXPECT_TRUE(base().cache_hit);
  // A fresh call with new tensor objects over new buffers hits as well.
  {
    rt::DeviceBuffer b2(8 * 4);
    rt::Tensor self({2, 3}, ACL_FLOAT, b2.ptr, {3, 1}, 0, ACL_FORMAT_ND, {8});
    Floats o2({2, 3}), out2({2, 3});
    EXPECT_TRUE(AddCall(stream, self, o2, pacl::Scalar(1.0f), out2).cache_hit);
  }

  ExpectMissThenHit("op", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {3, 1}, 0, ACL_FORMAT_ND, {8});
    return pacl::Run(stream, aclnnSubGetWorkspaceSize, aclnnSub, self.t, other.get(), pacl::Scalar(1.0f), out.get());
  }, {"op aclnnSub", "aclnnAdd"});

  ExpectMissThenHit("view shape", [&] {
    rt::Tensor self({3, 2}, ACL_FLOAT, sbuf.ptr, {2, 1}, 0, ACL_FORMAT_ND, {8});
    Floats o({3, 2}), r({3, 2});
    return AddCall(stream, self, o, pacl::Scalar(1.0f), r);
  }, {"argument 0", "view shape [3,2]", "[2,3]"});

  ExpectMissThenHit("strides", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {1, 2}, 0, ACL_FORMAT_ND, {8});
    return AddCall(stream, self, other, pacl::Scalar(1.0f), out);
  }, {"strides [1,2]", "[3,1]"});

  ExpectMissThenHit("offset", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {3, 1}, 2, ACL_FORMAT_ND, {8});
    return AddCall(stream, self, other, pacl::Scalar(1.0f), out);
  }, {"offset 2"});

  ExpectMissThenHit("storage shape", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {3, 1}, 0, ACL_FORMAT_ND, {6});
    return AddCall(stream, self, other, pacl::Scalar(1.0f), out);
  }, {"storage shape [6]", "[8]"});

  ExpectMissThenHit("dtype", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT16, sbuf.ptr, {3, 1}, 0, ACL_FORMAT_ND, {8});
    return AddCall(stream, self, other, pacl::Scalar(1.0f), out);
  }, {"dtype float16", "float32"});

  ExpectMissThenHit("format", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {3, 1}, 0, ACL_FORMAT_NCHW, {8});
    return AddCall(stream, self, other, pacl::Scalar(1.0f), out);
  }, {"format NCHW", "ND"});

  ExpectMissThenHit("scalar value", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {3, 1}, 0, ACL_FORMAT_ND, {8});
    return AddCall(stream, self, other, pacl::Scalar(2.0f), out);
  }, {"argument 2 'alpha'", "scalar value 2(float32)"});

  ExpectMissThenHit("scalar dtype", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {3, 1}, 0, ACL_FORMAT_ND, {8});
    return AddCall(stream, self, other, pacl::Scalar(1.0), out);
  }, {"scalar dtype 1(float64)"});

  ExpectMissThenHit("aliasing: same tensor", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {3, 1}, 0, ACL_FORMAT_ND, {8});
    Floats o({2, 3}, 10, 10);
    return AddCall(stream, self, o, pacl::Scalar(1.0f), o);
  }, {"argument 3 'out'", "aliasing", "is the same tensor as argument 1 'other'"});

  ExpectMissThenHit("aliasing: overlapping memory", [&] {
    rt::Tensor self({2, 3}, ACL_FLOAT, sbuf.ptr, {3, 1}, 0, ACL_FORMAT_ND, {8});
    Floats o({2, 3}, 10, 10);
    rt::Tensor over({2, 3}, ACL_FLOAT, o.buf.ptr);  // another tensor object over other's memory
    return AddCall(stream, self, o, pacl::Scalar(1.0f), over);
  }, {"aliasing", "overlaps argument 1 'other' at byte offset +0"});

  ExpectMissThenHit("array contents", [&] {
    Floats x({2, 2}), y({2, 2});
    return pacl::Run(stream, aclnnPermuteGetWorkspaceSize, aclnnPermute, x.get(), std::vector<int64_t>{1, 0}, y.get());
  }, {});
  ExpectMissThenHit("array contents", [&] {
    Floats x({2, 2}), y({2, 2});
    return pacl::Run(stream, aclnnPermuteGetWorkspaceSize, aclnnPermute, x.get(), std::vector<int64_t>{0, 1}, y.get());
  }, {"argument 1 'dims'", "array contents [0,1]", "[1,0]"});

  ExpectMissThenHit("int attribute", [&] {
    Floats x({4}), y({4});
    return pacl::Run(stream, aclnnGeluV2GetWorkspaceSize, aclnnGeluV2, x.get(), int64_t{0}, y.get());
  }, {});
  ExpectMissThenHit("int attribute", [&] {
    Floats x({4}), y({4});
    return pacl::Run(stream, aclnnGeluV2GetWorkspaceSize, aclnnGeluV2, x.get(), int64_t{1}, y.get());
  }, {"argument 1 'approximate'", "attribute 1", "(0)"});
  ExpectMissThenHit("bool attribute", [&] {
    Floats g({4}), x({4}), y({4});
    return pacl::Run(stream, aclnnLeakyReluBackwardGetWorkspaceSize, aclnnLeakyReluBackward, g.get(), x.get(), 0.5f, false,
                     y.get());
  }, {});
  ExpectMissThenHit("bool attribute", [&] {
    Floats g({4}), x({4}), y({4});
    return pacl::Run(stream, aclnnLeakyReluBackwardGetWorkspaceSize, aclnnLeakyReluBackward, g.get(), x.get(), 0.5f, true,
                     y.get());
  }, {"'selfIsResult'", "attribute true", "(false)"});

  Floats x0({2}), x1({3}), x2({4}), f({4});
  ExpectMissThenHit("list", [&] {
    return pacl::OpRunner("RunnerTestFill", stream).AddTensorList({x0.get(), x1.get()}).AddScalar(1.0f).AddAttr(0).AddOutput(f).Run();
  }, {});
  ExpectMissThenHit("list length", [&] {
    return pacl::OpRunner("RunnerTestFill", stream)
        .AddTensorList({x0.get(), x1.get(), x2.get()})
        .AddScalar(1.0f)
        .AddAttr(0)
        .AddOutput(f)
        .Run();
  }, {"argument 0 'xs'", "list length 3", "(2)"});
  ExpectMissThenHit("list element", [&] {
    return pacl::OpRunner("RunnerTestFill", stream).AddTensorList({x0.get(), x2.get()}).AddScalar(1.0f).AddAttr(0).AddOutput(f).Run();
  }, {"argument 0 'xs'[1]: view shape [4]", "[3]"});

  // The device: the same Add on device 1.
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS) << aclGetRecentErrMsg();
  {
    rt::DeviceBuffer b1(8 * 4);
    Floats o1({2, 3}), r1({2, 3});
    ExpectMissThenHit("device", [&] {
      rt::Tensor self({2, 3}, ACL_FLOAT, b1.ptr, {3, 1}, 0, ACL_FORMAT_ND, {8});
      return AddCall(nullptr, self, o1, pacl::Scalar(1.0f), r1);
    }, {"device 1", "(0)"});
    pacl::ForgetStream(nullptr);
  }
  ASSERT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);

  const pacl::CacheStats st = pacl::GetCacheStats();
  EXPECT_EQ(st.misses, 22u);
  EXPECT_EQ(st.entries, 22u);
}

TEST_F(Cache, FreshBuffersHitAndWriteIntoThem) {
  std::vector<std::unique_ptr<Floats>> outs;
  for (int i = 0; i < 6; ++i) {
    Floats a({3, 5}, static_cast<float>(i), 1), b({3, 5}, 100, -1);
    outs.push_back(std::make_unique<Floats>(std::vector<int64_t>{3, 5}, -1, 0));
    const pacl::RunInfo info = i % 2 ? AddCall(stream, a, b, pacl::Scalar(2.0f), *outs.back())
                                     : pacl::OpRunner("Add", stream).AddInput(a).AddInput(b).AddScalar(2.0f).AddOutput(*outs.back()).Run();
    EXPECT_EQ(info.cache_hit, i > 0);
  }
  // Every call wrote its own output buffer, with its own inputs.
  for (int i = 0; i < 6; ++i) {
    const std::vector<float> v = outs[static_cast<size_t>(i)]->Read();
    for (int k = 0; k < 15; ++k)
      ASSERT_FLOAT_EQ(v[static_cast<size_t>(k)], static_cast<float>(i + k) + 2.0f * static_cast<float>(100 - k)) << i << "," << k;
  }
  EXPECT_EQ(pacl::GetCacheStats().entries, 1u);
}

TEST_F(Cache, InPlaceAndOutOfPlaceDoNotShareAnEntry) {
  Floats a({8}, 1, 1), b({8}, 10, 0), c({8}, 1, 1), out({8});
  EXPECT_FALSE(AddCall(stream, c, b, pacl::Scalar(1.0f), out).cache_hit);  // out of place
  EXPECT_FALSE(AddCall(stream, a, b, pacl::Scalar(1.0f), a).cache_hit);    // in place: a += b
  EXPECT_EQ(pacl::GetCacheStats().entries, 2u);
  for (int k = 0; k < 8; ++k) {
    EXPECT_FLOAT_EQ(a.Read()[static_cast<size_t>(k)], static_cast<float>(k + 11));
    EXPECT_FLOAT_EQ(out.Read()[static_cast<size_t>(k)], static_cast<float>(k + 11));
  }
  // Each pattern hits its own entry with fresh buffers.
  Floats a2({8}, 0, 2), b2({8}, 1, 0), out2({8});
  EXPECT_TRUE(AddCall(stream, a2, b2, pacl::Scalar(1.0f), a2).cache_hit);
  EXPECT_TRUE(AddCall(stream, a2, b2, pacl::Scalar(1.0f), out2).cache_hit);
  for (int k = 0; k < 8; ++k) {
    EXPECT_FLOAT_EQ(a2.Read()[static_cast<size_t>(k)], static_cast<float>(2 * k + 1));
    EXPECT_FLOAT_EQ(out2.Read()[static_cast<size_t>(k)], static_cast<float>(2 * k + 2));
  }
  // Two tensor objects over one buffer are not the same tensor: another entry again.
  rt::Tensor alias({8}, ACL_FLOAT, a2.buf.ptr);
  EXPECT_FALSE(AddCall(stream, a2, b2, pacl::Scalar(1.0f), alias).cache_hit);
  EXPECT_EQ(pacl::GetCacheStats().entries, 3u);
}

TEST_F(Cache, ParityModeComparesAFreshPhase1) {
  pacl::CacheConfig cfg;
  cfg.parity = true;
  pacl::SetCacheConfig(cfg);
  Floats a({4}), b({4}), out({4});
  AddCall(stream, a, b, pacl::Scalar(1.0f), out);
  EXPECT_TRUE(AddCall(stream, a, b, pacl::Scalar(1.0f), out).cache_hit);
  EXPECT_EQ(pacl::GetCacheStats().parity_checks, 1u);
  EXPECT_EQ(pacl::GetCacheStats().parity_failures, 0u);
  // An op whose phase 1 answers differently for the same key is caught and its entry dropped.
  rt::RegisterFillOp();
  rt::Probe().jitter = 512;
  auto fill = [&] { return pacl::OpRunner("RunnerTestFill", stream).AddTensorList({a.get()}).AddScalar(1.0f).AddAttr(0).AddOutput(out).TryRun(); };
  EXPECT_TRUE(fill().ok());
  const size_t entries = pacl::GetCacheStats().entries;
  const pacl::Status s = fill();
  rt::Probe().jitter = 0;
  EXPECT_EQ(s.phase(), pacl::Phase::kParity) << s.ToString();
  EXPECT_NE(s.detail().find("workspace"), std::string::npos) << s.ToString();
  EXPECT_EQ(pacl::GetCacheStats().parity_failures, 1u);
  EXPECT_EQ(pacl::GetCacheStats().entries, entries - 1);
}

TEST_F(Cache, LruEvictionByCount) {
  pacl::CacheConfig cfg;
  cfg.max_entries = 3;
  pacl::SetCacheConfig(cfg);
  auto call = [&](int n) {
    Floats a({n}), b({n}), out({n});
    return AddCall(stream, a, b, pacl::Scalar(1.0f), out).cache_hit;
  };
  EXPECT_FALSE(call(1));
  EXPECT_FALSE(call(2));
  EXPECT_FALSE(call(3));
  EXPECT_TRUE(call(1));   // 1 is now the most recent
  EXPECT_FALSE(call(4));  // evicts 2, the least recent
  EXPECT_TRUE(call(1));
  EXPECT_TRUE(call(3));
  EXPECT_TRUE(call(4));
  EXPECT_FALSE(call(2));
  const pacl::CacheStats st = pacl::GetCacheStats();
  EXPECT_EQ(st.entries, 3u);
  EXPECT_EQ(st.evictions, 2u);
  for (int n = 10; n < 30; ++n) call(n);
  EXPECT_EQ(pacl::GetCacheStats().entries, 3u);
  // Shrinking evicts at once; 0 disables the cache (calls bypass it).
  cfg.max_entries = 1;
  pacl::SetCacheConfig(cfg);
  EXPECT_EQ(pacl::GetCacheStats().entries, 1u);
  cfg.max_entries = 0;
  pacl::SetCacheConfig(cfg);
  EXPECT_EQ(pacl::GetCacheStats().entries, 0u);
  const uint64_t bypasses = pacl::GetCacheStats().bypasses;
  Floats a({5}, 1, 1), b({5}, 1, 1), out({5});
  const pacl::RunInfo info = AddCall(stream, a, b, pacl::Scalar(1.0f), out);
  EXPECT_FALSE(info.cached);
  EXPECT_EQ(pacl::GetCacheStats().bypasses, bypasses + 1);
  EXPECT_FLOAT_EQ(out.Read()[4], 10.0f);
}

TEST_F(Cache, EvictionByBytesBoundsMemory) {
  Floats a({1}), b({1}), out({1});
  AddCall(stream, a, b, pacl::Scalar(1.0f), out);
  const size_t one = pacl::GetCacheStats().bytes;
  ASSERT_GT(one, pacl::kExecutorBytesEstimate);
  pacl::CacheConfig cfg;
  cfg.max_bytes = 3 * one + one / 2;
  pacl::SetCacheConfig(cfg);
  for (int n = 2; n < 300; ++n) {
    Floats x({n % 17 + 1, n}), y({n % 17 + 1, n}), z({n % 17 + 1, n});
    AddCall(stream, x, y, pacl::Scalar(1.0f), z);
    ASSERT_LE(pacl::GetCacheStats().bytes, cfg.max_bytes);
  }
  EXPECT_LE(pacl::GetCacheStats().entries, 3u);
  EXPECT_GT(pacl::GetCacheStats().evictions, 290u);
}

TEST_F(Cache, EvictionWhileTheWorkIsStillQueued) {
  pacl::CacheConfig cfg;
  cfg.max_entries = 2;
  pacl::SetCacheConfig(cfg);
  std::vector<std::unique_ptr<Floats>> ins, outs;
  for (int n = 1; n <= 40; ++n) {
    ins.push_back(std::make_unique<Floats>(std::vector<int64_t>{n}, static_cast<float>(n), 1));
    outs.push_back(std::make_unique<Floats>(std::vector<int64_t>{n}, -1, 0));
  }
  {
    rt::StreamGate gate(stream);
    for (int i = 0; i < 40; ++i)
      pacl::Launch(stream, aclnnAddGetWorkspaceSize, aclnnAdd, ins[static_cast<size_t>(i)]->get(),
                   ins[static_cast<size_t>(i)]->get(), pacl::Scalar(1.0f), outs[static_cast<size_t>(i)]->get());
    EXPECT_EQ(pacl::GetCacheStats().evictions, 38u);
    EXPECT_EQ(pacl::GetWorkspaceStats().pending, 40u);  // every executor is kept until its launch passed
    gate.Open();
  }
  pacl::Synchronize(stream);
  EXPECT_EQ(pacl::GetWorkspaceStats().pending, 0u);
  for (int i = 0; i < 40; ++i) {
    const std::vector<float> v = outs[static_cast<size_t>(i)]->Read();
    for (int k = 0; k <= i; ++k) ASSERT_FLOAT_EQ(v[static_cast<size_t>(k)], 2.0f * static_cast<float>(i + 1 + k)) << i;
  }
}

TEST_F(Cache, LaunchedExecutorsAreReleasedOnceTheStreamPassed) {
  pacl::CacheConfig cfg;
  cfg.max_entries = 1;
  pacl::SetCacheConfig(cfg);
  std::vector<std::unique_ptr<Floats>> t;
  for (int n = 1; n <= 10; ++n) t.push_back(std::make_unique<Floats>(std::vector<int64_t>{n}, 1, 1));
  {
    rt::StreamGate gate(stream);
    for (auto& x : t) pacl::Launch(stream, aclnnAddGetWorkspaceSize, aclnnAdd, x->get(), x->get(), 1.0f, x->get());
    EXPECT_EQ(pacl::GetWorkspaceStats().pending, 10u);  // nine evicted executors among them
    gate.Open();
  }
  // A synchronous call on the stream passes every earlier launch: their executors go with it.
  Floats a({3}), out({3});
  AddCall(stream, a, a, pacl::Scalar(1.0f), out);
  EXPECT_EQ(pacl::GetWorkspaceStats().pending, 0u);
  for (size_t i = 0; i < t.size(); ++i) EXPECT_FLOAT_EQ(t[i]->Read()[i], 2.0f * static_cast<float>(i + 1));
  // Many launches of one cached executor keep it with one event per 64 launches at most.
  for (int i = 0; i < 200; ++i) pacl::Launch(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a.get(), a.get(), 0.0f, out.get());
  EXPECT_LE(pacl::GetWorkspaceStats().pending, 200u);
  pacl::Synchronize(stream);
  EXPECT_EQ(pacl::GetWorkspaceStats().pending, 0u);
}

TEST_F(Cache, ThreadsAndStreamsHammerIt) {
  constexpr int kThreads = 4, kIters = 60;
  std::atomic<int> errors{0};
  std::atomic<bool> stop{false};
  // Another thread keeps shrinking and growing the cache: evictions race with hits.
  std::thread resizer([&] {
    int k = 0;
    while (!stop.load()) {
      pacl::CacheConfig cfg;
      cfg.max_entries = (k++ % 2) ? 2 : 4096;
      pacl::SetCacheConfig(cfg);
      std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      aclrtStream streams[2] = {nullptr, nullptr};
      if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&streams[0]) != ACL_SUCCESS ||
          aclrtCreateStream(&streams[1]) != ACL_SUCCESS) {
        ++errors;
        return;
      }
      {
        std::mt19937 rng(static_cast<unsigned>(t));
        const int64_t shapes[3] = {7, 64, 300};
        std::vector<std::unique_ptr<Floats>> a, b, out;
        std::vector<std::unique_ptr<rt::DeviceBuffer>> hbuf;
        std::vector<std::unique_ptr<rt::Tensor>> h;
        for (int64_t n : shapes) {
          a.push_back(std::make_unique<Floats>(std::vector<int64_t>{n}, static_cast<float>(t), 1));
          b.push_back(std::make_unique<Floats>(std::vector<int64_t>{n}, 1, 0));
          out.push_back(std::make_unique<Floats>(std::vector<int64_t>{n}));
          hbuf.push_back(std::make_unique<rt::DeviceBuffer>(static_cast<size_t>(n) * 2));
          std::vector<aclFloat16> hv(static_cast<size_t>(n), aclFloatToFloat16(0.5f));
          EXPECT_EQ(aclrtMemcpy(hbuf.back()->ptr, hv.size() * 2, hv.data(), hv.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE), 0);
          h.push_back(std::make_unique<rt::Tensor>(std::vector<int64_t>{n}, ACL_FLOAT16, hbuf.back()->ptr));
        }
        for (int it = 0; it < kIters; ++it) {
          const size_t s = rng() % 3;
          aclrtStream st = streams[rng() % 2];
          pacl::RunOptions o;
          o.stream = st;
          o.workspace = static_cast<pacl::WorkspaceStrategy>(1 + rng() % 3);
          const int mode = static_cast<int>(rng() % 4);
          pacl::Status status;
          float want;
          if (mode == 0) {
            status = pacl::OpRunner("Add", st).Workspace(o.workspace).AddInput(*a[s]).AddInput(*b[s]).AddScalar(2.0f).AddOutput(*out[s]).TryRun();
            want = 2.0f;
          } else if (mode == 1) {
            status = pacl::TryRun(o, aclnnAddGetWorkspaceSize, aclnnAdd, a[s]->get(), b[s]->get(), pacl::Scalar(3.0f), out[s]->get());
            want = 3.0f;
          } else if (mode == 2) {  // needs workspace: float16 + float32
            status = pacl::TryRun(o, aclnnAddGetWorkspaceSize, aclnnAdd, h[s]->t, b[s]->get(), pacl::Scalar(1.0f), out[s]->get());
            want = -1.0f;
          } else {
            status = pacl::TryLaunch(o, aclnnAddGetWorkspaceSize, aclnnAdd, a[s]->get(), b[s]->get(), pacl::Scalar(4.0f), out[s]->get());
            if (status.ok()) pacl::Synchronize(st);
            want = 4.0f;
          }
          if (!status.ok()) {
            ADD_FAILURE() << status.ToString();
            ++errors;
            continue;
          }
          const std::vector<float> v = out[s]->Read();
          for (size_t k = 0; k < v.size(); ++k) {
            const float expect = want < 0 ? 1.5f : static_cast<float>(t) + static_cast<float>(k) + want;
            if (v[k] != expect) {
              ADD_FAILURE() << "thread " << t << " mode " << mode << " element " << k << ": " << v[k] << " != " << expect;
              ++errors;
              break;
            }
          }
        }
      }
      for (aclrtStream st : streams) {
        pacl::ForgetStream(st);
        aclrtDestroyStream(st);
      }
    });
  }
  for (auto& th : threads) th.join();
  stop = true;
  resizer.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_GT(pacl::GetCacheStats().hits, 0u);
}

TEST_F(Cache, StatsAndClear) {
  Floats a({4}), b({4}), out({4});
  AddCall(stream, a, b, pacl::Scalar(1.0f), out);
  AddCall(stream, a, b, pacl::Scalar(1.0f), out);
  pacl::CacheStats st = pacl::GetCacheStats();
  EXPECT_EQ(st.hits, 1u);
  EXPECT_EQ(st.misses, 1u);
  EXPECT_EQ(st.entries, 1u);
  EXPECT_GT(st.bytes, 0u);
  pacl::ClearCache();
  st = pacl::GetCacheStats();
  EXPECT_EQ(st.entries, 0u);
  EXPECT_EQ(st.bytes, 0u);
  pacl::ResetCacheStats();
  EXPECT_EQ(pacl::GetCacheStats().hits, 0u);
  // Per-call opt-out and raw handles bypass the cache.
  pacl::RunOptions o;
  o.stream = stream;
  o.cache = false;
  EXPECT_FALSE(pacl::Run(o, aclnnAddGetWorkspaceSize, aclnnAdd, a.get(), b.get(), 1.0f, out.get()).cached);
  float one = 1.0f;
  aclScalar* raw = aclCreateScalar(&one, ACL_FLOAT);
  EXPECT_FALSE(pacl::Run(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a.get(), b.get(), raw, out.get()).cached);
  aclDestroyScalar(raw);
  EXPECT_EQ(pacl::GetCacheStats().bypasses, 2u);
  EXPECT_EQ(pacl::GetCacheStats().entries, 0u);
}

}  // namespace
