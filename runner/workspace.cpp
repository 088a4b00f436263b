// Workspace strategies (per call, per stream, pool), memory-pressure relief, and the stream-level
// public functions (Synchronize, ForgetStream, ReleaseResources).
#include <cstring>
#include <map>

#include "internal.h"

namespace pacl::rn {

namespace {

WorkspaceStrategy StrategyFromEnv() {
  const char* v = std::getenv("PACL_RUNNER_WORKSPACE");
  if (!v) return WorkspaceStrategy::kPerStream;
  if (!std::strcmp(v, "per-call")) return WorkspaceStrategy::kPerCall;
  if (!std::strcmp(v, "pool")) return WorkspaceStrategy::kPool;
  return WorkspaceStrategy::kPerStream;
}

size_t AlignFromEnv() {
  const size_t a = EnvSize("PACL_RUNNER_WORKSPACE_ALIGN", 512);
  return (a >= 32 && (a & (a - 1)) == 0) ? a : 512;
}

std::atomic<int>& StrategyVar() {
  static std::atomic<int> v{static_cast<int>(StrategyFromEnv())};
  return v;
}
std::atomic<size_t>& AlignVar() {
  static std::atomic<size_t> v{AlignFromEnv()};
  return v;
}

std::atomic<uint64_t> g_per_call_mallocs{0}, g_per_stream_grows{0}, g_reliefs{0};

struct Pools {
  std::mutex mu;
  std::map<int, std::unique_ptr<WorkspacePool>> by_device;
  std::atomic<uint64_t> generation{1};
};
Pools& ThePools() {
  static Pools* p = new Pools;
  return *p;
}

struct LastPool {
  int device = -2;
  uint64_t generation = 0;
  WorkspacePool* pool = nullptr;
};
PACL_RUNNER_TLS LastPool t_pool;

uintptr_t AlignUp(uintptr_t p, size_t a) { return (p + a - 1) & ~static_cast<uintptr_t>(a - 1); }

[[noreturn]] void WorkspaceFail(int32_t code, std::string detail, std::string msg = {}) {
  throw Failure{Status(code ? code : kMemoryAllocation, Phase::kWorkspace, "", std::move(detail), {}, std::move(msg))};
}

}  // namespace

WorkspaceStrategy Resolve(WorkspaceStrategy s) {
  if (s != WorkspaceStrategy::kDefault) return s;
  return static_cast<WorkspaceStrategy>(StrategyVar().load(std::memory_order_relaxed));
}

void CountPerCallMalloc() { g_per_call_mallocs.fetch_add(1, std::memory_order_relaxed); }
void CountPerStreamGrow() { g_per_stream_grows.fetch_add(1, std::memory_order_relaxed); }
void CountRelief() { g_reliefs.fetch_add(1, std::memory_order_relaxed); }
uint64_t PerCallMallocs() { return g_per_call_mallocs.load(); }
uint64_t PerStreamGrows() { return g_per_stream_grows.load(); }
uint64_t Reliefs() { return g_reliefs.load(); }

WorkspacePool& PoolForDevice(int device) {
  Pools& p = ThePools();
  const uint64_t gen = p.generation.load(std::memory_order_acquire);
  if (t_pool.pool && t_pool.device == device && t_pool.generation == gen) return *t_pool.pool;
  std::lock_guard<std::mutex> lock(p.mu);
  auto& slot = p.by_device[device];
  if (!slot) slot = std::make_unique<WorkspacePool>();
  t_pool.device = device;
  t_pool.generation = gen;
  t_pool.pool = slot.get();
  return *slot;
}

void DropPools() {
  Pools& p = ThePools();
  std::map<int, std::unique_ptr<WorkspacePool>> dropped;
  {
    std::lock_guard<std::mutex> lock(p.mu);
    dropped.swap(p.by_device);
    p.generation.fetch_add(1, std::memory_order_release);
  }
  t_pool = LastPool{};
  // Each pool waits for what still uses its blocks and frees its segments.
}

void ForgetStreamInPools(aclrtStream stream) {
  Pools& p = ThePools();
  std::lock_guard<std::mutex> lock(p.mu);
  for (auto& kv : p.by_device) kv.second->ForgetStream(stream);
}

void RelieveMemoryPressure(StreamState* held) {
  CountRelief();
  std::vector<std::shared_ptr<StreamState>> states = AllStreamStates();
  // 1. Launches that have passed.
  for (auto& s : states) Poll(*s, false);
  // 2. The pools' cached blocks.
  std::vector<WorkspacePool*> pools;
  {
    Pools& p = ThePools();
    std::lock_guard<std::mutex> lock(p.mu);
    for (auto& kv : p.by_device) pools.push_back(kv.second.get());
  }
  for (WorkspacePool* pool : pools) pool->EmptyCache();
  // 3. Every launch still pending (per-call workspaces, outgrown blocks, evicted executors).
  for (auto& s : states) Poll(*s, true);
  // 4. Per-stream blocks of streams nobody is launching on right now: lock them, wait for the
  //    device, free them.
  std::vector<std::unique_lock<std::mutex>> locks;
  std::vector<StreamState*> idle;
  for (auto& s : states) {
    if (s.get() == held || !s->block_raw) continue;
    std::unique_lock<std::mutex> l(s->ws_mu, std::try_to_lock);
    if (!l.owns_lock() || !s->block_raw) continue;
    idle.push_back(s.get());
    locks.push_back(std::move(l));
  }
  if (!idle.empty() && aclrtSynchronizeDevice() == ACL_SUCCESS) {
    for (StreamState* s : idle) {
      aclrtFree(s->block_raw);
      s->block_raw = s->block = nullptr;
      s->block_size = 0;
    }
  }
}

void* DeviceMalloc(size_t bytes, size_t align, void** aligned, int32_t* status, StreamState* held) {
  const size_t total = bytes + align;
  void* raw = nullptr;
  aclError rc = aclrtMalloc(&raw, total, ACL_MEM_MALLOC_HUGE_FIRST);
  if (rc != ACL_SUCCESS) {
    RelieveMemoryPressure(held);
    raw = nullptr;
    rc = aclrtMalloc(&raw, total, ACL_MEM_MALLOC_HUGE_FIRST);
  }
  if (rc != ACL_SUCCESS) {
    *status = rc;
    return nullptr;
  }
  *aligned = reinterpret_cast<void*>(AlignUp(reinterpret_cast<uintptr_t>(raw), align));
  return raw;
}

Lease AcquireWorkspace(WorkspaceStrategy strategy, uint64_t bytes, StreamState& s) {
  Lease l;
  l.strategy = strategy;
  if (bytes == 0) return l;
  const size_t align = AlignVar().load(std::memory_order_relaxed);
  switch (strategy) {
    case WorkspaceStrategy::kPerCall:
    case WorkspaceStrategy::kDefault: {
      int32_t st = 0;
      l.raw = DeviceMalloc(bytes, align, &l.ptr, &st, nullptr);
      if (!l.raw)
        WorkspaceFail(st, "aclrtMalloc of a " + std::to_string(bytes) + "-byte workspace failed (per-call strategy), "
                          "even after the runner released its cached memory", RecentAclMessage());
      CountPerCallMalloc();
      return l;
    }
    case WorkspaceStrategy::kPerStream: {
      l.stream_lock = std::unique_lock<std::mutex>(s.ws_mu);
      const bool aligned = (reinterpret_cast<uintptr_t>(s.block) & (align - 1)) == 0;
      if (!s.block || s.block_size < bytes || !aligned) {
        // The old block's last users are already on this stream, ahead of anything enqueued now.
        if (s.block_raw) {
          Retained old;
          old.device_free = s.block_raw;
          s.block_raw = s.block = nullptr;
          s.block_size = 0;
          RetainUntilPassed(s, std::move(old));
        }
        const size_t grown = s.block_size + s.block_size / 2;
        size_t want = (std::max<size_t>(bytes, grown) + 4095) & ~size_t{4095};
        int32_t st = 0;
        void* ptr = nullptr;
        void* raw = DeviceMalloc(want, align, &ptr, &st, &s);
        if (!raw && want > bytes) {
          want = bytes;
          raw = DeviceMalloc(want, align, &ptr, &st, &s);
        }
        if (!raw)
          WorkspaceFail(st, "aclrtMalloc of a " + std::to_string(bytes) + "-byte workspace block failed (per-stream "
                            "strategy), even after the runner released its cached memory", RecentAclMessage());
        s.block_raw = raw;
        s.block = ptr;
        s.block_size = want;
        CountPerStreamGrow();
      }
      l.ptr = s.block;
      return l;
    }
    case WorkspaceStrategy::kPool: {
      WorkspacePool& pool = PoolForDevice(s.device);
      try {
        l.ptr = pool.Allocate(bytes, s.stream);
      } catch (const RunnerError&) {
        RelieveMemoryPressure(nullptr);
        try {
          l.ptr = pool.Allocate(bytes, s.stream);
        } catch (const RunnerError& e) {
          throw Failure{e.status()};
        }
      }
      l.pool = &pool;
      return l;
    }
  }
  return l;
}

void AfterLaunch(Lease& l, StreamState& s) {
  if (l.pool && l.ptr) {
    l.pool->Free(l.ptr, s.stream);
    l.pool = nullptr;
    l.ptr = nullptr;
  }
  if (l.stream_lock.owns_lock()) l.stream_lock.unlock();
}

}  // namespace pacl::rn

namespace pacl {

void SetDefaultWorkspaceStrategy(WorkspaceStrategy s) {
  if (s == WorkspaceStrategy::kDefault) s = WorkspaceStrategy::kPerStream;
  rn::StrategyVar().store(static_cast<int>(s), std::memory_order_relaxed);
}
WorkspaceStrategy DefaultWorkspaceStrategy() {
  return static_cast<WorkspaceStrategy>(rn::StrategyVar().load(std::memory_order_relaxed));
}

void SetWorkspaceAlignment(size_t bytes) {
  if (bytes < 32 || (bytes & (bytes - 1)) != 0)
    throw RunnerError(Status(rn::kParamInvalid, Phase::kWorkspace, "",
                             "SetWorkspaceAlignment(" + std::to_string(bytes) + "): the alignment must be a power of two >= 32"));
  rn::AlignVar().store(bytes, std::memory_order_relaxed);
}
size_t WorkspaceAlignment() { return rn::AlignVar().load(std::memory_order_relaxed); }

WorkspacePool& DefaultPool() { return rn::PoolForDevice(rn::CurrentDevice()); }

WorkspaceStats GetWorkspaceStats() {
  WorkspaceStats st;
  st.per_call_mallocs = rn::PerCallMallocs();
  st.per_stream_grows = rn::PerStreamGrows();
  st.pressure_relief = rn::Reliefs();
  for (auto& s : rn::AllStreamStates()) {
    ++st.streams;
    {
      std::lock_guard<std::mutex> lock(s->ws_mu);
      st.per_stream_bytes += s->block_size;
    }
    st.pending += s->retained.load();
  }
  return st;
}

void Synchronize(aclrtStream stream) {
  const int device = rn::CurrentDevice();
  std::shared_ptr<rn::StreamState> s = rn::GetStreamState(stream, device);
  const uint64_t ticket = rn::Ticket(*s);
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
    const std::string msg = rn::RecentAclMessage();
    throw RunnerError(Status(rn::kParamInvalid, Phase::kSynchronize, "", "pacl::Synchronize: aclrtSynchronizeStream failed",
                             {}, msg));
  }
  rn::Poll(*s, true);
  rn::ReleaseSynchronized(*s, ticket);
}

void ForgetStream(aclrtStream stream) {
  const int device = rn::CurrentDevice();
  std::shared_ptr<rn::StreamState> s = rn::RemoveStreamState(stream, device);
  rn::ForgetThreadStream();
  const bool synced = aclrtSynchronizeStream(stream) == ACL_SUCCESS;
  if (s) {
    rn::Poll(*s, true);
    if (synced) rn::ReleaseSynchronized(*s, UINT64_MAX);
    std::lock_guard<std::mutex> lock(s->ws_mu);
    if (s->block_raw && synced) aclrtFree(s->block_raw);
    s->block_raw = s->block = nullptr;
    s->block_size = 0;
  }
  if (synced) rn::ForgetStreamInPools(stream);
}

void ReleaseResources() {
  aclrtSynchronizeDevice();
  std::vector<std::shared_ptr<rn::StreamState>> states = rn::TakeAllStreamStates();
  rn::ForgetThreadStream();
  for (auto& s : states) {
    rn::Poll(*s, true);
    rn::ReleaseSynchronized(*s, UINT64_MAX);
  }
  ClearCache();
  for (auto& s : states) {
    std::lock_guard<std::mutex> lock(s->ws_mu);
    if (s->block_raw) aclrtFree(s->block_raw);
    s->block_raw = s->block = nullptr;
    s->block_size = 0;
  }
  rn::DropPools();
  rn::DestroyPooledEvents();
}

}  // namespace pacl
