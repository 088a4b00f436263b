// Per-stream state, pooled events and fences: what keeps a launch's resources alive until its
// stream has passed it.
#include <algorithm>
#include <unordered_map>

#include "internal.h"

namespace pacl::rn {

namespace {

// Events are reused: creating one per launch would cost more than the launch.
class EventPool {
 public:
  aclrtEvent Acquire(int device) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto& v = free_[device];
      if (!v.empty()) {
        aclrtEvent e = v.back();
        v.pop_back();
        return e;
      }
    }
    aclrtEvent e = nullptr;
    if (aclrtCreateEvent(&e) != ACL_SUCCESS) return nullptr;
    return e;
  }
  void Release(aclrtEvent e, int device) {
    std::lock_guard<std::mutex> lock(mu_);
    free_[device].push_back(e);
  }
  void DestroyAll() {
    std::unordered_map<int, std::vector<aclrtEvent>> all;
    {
      std::lock_guard<std::mutex> lock(mu_);
      all.swap(free_);
    }
    for (auto& kv : all)
      for (aclrtEvent e : kv.second) aclrtDestroyEvent(e);
  }

 private:
  std::mutex mu_;
  std::unordered_map<int, std::vector<aclrtEvent>> free_;
};

EventPool& Events() {
  static EventPool* p = new EventPool;
  return *p;
}

std::atomic<uint64_t> g_fence_seq{0};

struct StreamKey {
  aclrtStream stream;
  int device;
  bool operator==(const StreamKey& o) const { return stream == o.stream && device == o.device; }
};
struct StreamKeyHash {
  size_t operator()(const StreamKey& k) const {
    return std::hash<const void*>()(k.stream) ^ (static_cast<size_t>(k.device) * 0x9E3779B97F4A7C15ull);
  }
};

class Registry {
 public:
  static constexpr size_t kShards = 16;
  std::shared_ptr<StreamState> Get(aclrtStream stream, int device) {
    Shard& s = shards_[ShardIndex(stream)];
    std::lock_guard<std::mutex> lock(s.mu);
    auto& slot = s.map[StreamKey{stream, device}];
    if (!slot) {
      slot = std::make_shared<StreamState>();
      slot->stream = stream;
      slot->device = device;
    }
    return slot;
  }
  std::shared_ptr<StreamState> Remove(aclrtStream stream, int device) {
    Shard& s = shards_[ShardIndex(stream)];
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.map.find(StreamKey{stream, device});
    if (it == s.map.end()) return nullptr;
    auto st = std::move(it->second);
    s.map.erase(it);
    generation_.fetch_add(1, std::memory_order_release);
    return st;
  }
  std::vector<std::shared_ptr<StreamState>> All() {
    std::vector<std::shared_ptr<StreamState>> out;
    for (Shard& s : shards_) {
      std::lock_guard<std::mutex> lock(s.mu);
      for (auto& kv : s.map) out.push_back(kv.second);
    }
    return out;
  }
  std::vector<std::shared_ptr<StreamState>> TakeAll() {
    std::vector<std::shared_ptr<StreamState>> out;
    for (Shard& s : shards_) {
      std::lock_guard<std::mutex> lock(s.mu);
      for (auto& kv : s.map) out.push_back(std::move(kv.second));
      s.map.clear();
    }
    generation_.fetch_add(1, std::memory_order_release);
    return out;
  }
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

 private:
  static size_t ShardIndex(aclrtStream s) { return (reinterpret_cast<uintptr_t>(s) >> 6) % kShards; }
  struct Shard {
    std::mutex mu;
    std::unordered_map<StreamKey, std::shared_ptr<StreamState>, StreamKeyHash> map;
  };
  Shard shards_[kShards];
  std::atomic<uint64_t> generation_{1};
};

Registry& Streams() {
  static Registry* r = new Registry;
  return *r;
}

// The calling thread's last stream state (skips the registry lock while a thread keeps using one
// stream); invalid once the registry's generation moves on.
struct LastStream {
  aclrtStream stream = nullptr;
  int device = -2;
  uint64_t generation = 0;
  std::shared_ptr<StreamState> state;
};
PACL_RUNNER_TLS LastStream t_last;
PACL_RUNNER_TLS unsigned t_calls = 0;

}  // namespace

std::shared_ptr<Fence> Fence::Record(aclrtStream stream, int device) {
  aclrtEvent e = Events().Acquire(device);
  if (!e) return nullptr;
  if (aclrtRecordEvent(e, stream) != ACL_SUCCESS) {
    Events().Release(e, device);
    return nullptr;
  }
  return std::shared_ptr<Fence>(new Fence(e, device, g_fence_seq.fetch_add(1, std::memory_order_relaxed) + 1));
}

Fence::~Fence() { Events().Release(event_, device_); }

bool Fence::OrderBefore(aclrtStream stream) const { return aclrtStreamWaitEvent(stream, event_) == ACL_SUCCESS; }

bool Fence::Done() {
  if (done_.load(std::memory_order_acquire)) return true;
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  if (aclrtQueryEventStatus(event_, &st) == ACL_SUCCESS && st == ACL_EVENT_RECORDED_STATUS_COMPLETE) {
    done_.store(true, std::memory_order_release);
    return true;
  }
  return false;
}

void Fence::Wait() {
  if (done_.load(std::memory_order_acquire)) return;
  aclrtSynchronizeEvent(event_);
  done_.store(true, std::memory_order_release);
}

Retained::~Retained() {
  owned.reset();
  keep.clear();
  if (device_free) aclrtFree(device_free);
}

int CurrentDevice() {
  int32_t d = -1;
  if (aclrtGetDevice(&d) != ACL_SUCCESS) return -1;
  return d;
}

std::shared_ptr<StreamState> GetStreamState(aclrtStream stream, int device) {
  Registry& r = Streams();
  const uint64_t gen = r.generation();
  if (t_last.state && t_last.stream == stream && t_last.device == device && t_last.generation == gen) return t_last.state;
  t_last.state = r.Get(stream, device);
  t_last.stream = stream;
  t_last.device = device;
  t_last.generation = gen;
  return t_last.state;
}

void Poll(StreamState& s, bool wait) {
  if (s.pending_count.load(std::memory_order_acquire) == 0) return;
  std::vector<std::pair<std::shared_ptr<Fence>, Retained>> done;
  {
    std::lock_guard<std::mutex> lock(s.pending_mu);
    while (!s.pending.empty()) {
      auto& front = s.pending.front();
      if (wait) front.first->Wait();
      else if (!front.first->Done()) break;
      s.retained.fetch_sub(front.second.launches, std::memory_order_relaxed);
      done.push_back(std::move(front));
      s.pending.pop_front();
    }
    s.pending_count.store(s.pending.size(), std::memory_order_release);
  }
  // `done` is released here, outside the lock.
}

void MaybePoll(StreamState& s) {
  // Querying an event makes pacl's stream worker run what it holds back, so it is not done on
  // every call.
  const unsigned n = ++t_calls;
  if (n % 256 == 0) {
    for (auto& st : Streams().All()) Poll(*st, false);
  } else if (n % 16 == 0 || s.pending_count.load(std::memory_order_relaxed) > 32) {
    Poll(s, false);
  }
}

namespace {

// Records a fence now and queues `r` with the open entries behind it (pending_mu held). False if
// no fence could be recorded (`r` is left as it was).
bool FenceLocked(StreamState& s, Retained& r) {
  std::shared_ptr<Fence> f = Fence::Record(s.stream, s.device);
  if (!f) return false;
  for (auto& e : s.open) r.keep.push_back(std::move(e.second));
  r.launches += s.open.size();
  s.open.clear();
  s.pending.emplace_back(std::move(f), std::move(r));
  s.pending_count.store(s.pending.size(), std::memory_order_release);
  return true;
}

}  // namespace

bool RetainUntilPassed(StreamState& s, Retained r) {
  if (r.empty()) return true;
  r.launches = 1;
  s.retained.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(s.pending_mu);
    if (FenceLocked(s, r)) return true;
  }
  // No fence: wait for the stream instead, then release.
  s.retained.fetch_sub(1, std::memory_order_relaxed);
  return aclrtSynchronizeStream(s.stream) == ACL_SUCCESS;
}

void RetainEntry(StreamState& s, std::shared_ptr<void> entry) {
  const uint64_t ticket = s.tickets.fetch_add(1, std::memory_order_acq_rel) + 1;  // after the enqueue
  s.retained.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(s.pending_mu);
  s.open.emplace_back(ticket, std::move(entry));
  if (s.open.size() >= 64) {
    Retained r;
    FenceLocked(s, r);  // if no fence can be recorded, the entries wait for a synchronize
  }
}

uint64_t Ticket(const StreamState& s) { return s.tickets.load(std::memory_order_acquire); }

void ReleaseSynchronized(StreamState& s, uint64_t ticket) {
  std::vector<std::shared_ptr<void>> done;
  {
    std::lock_guard<std::mutex> lock(s.pending_mu);
    if (s.open.empty()) return;
    auto keep_end = std::partition(s.open.begin(), s.open.end(), [&](const auto& e) { return e.first > ticket; });
    for (auto it = keep_end; it != s.open.end(); ++it) done.push_back(std::move(it->second));
    s.open.erase(keep_end, s.open.end());
    s.retained.fetch_sub(done.size(), std::memory_order_relaxed);
  }
}

// ---- used by workspace.cpp ------------------------------------------------------------------------

std::vector<std::shared_ptr<StreamState>> AllStreamStates() { return Streams().All(); }
std::vector<std::shared_ptr<StreamState>> TakeAllStreamStates() { return Streams().TakeAll(); }
std::shared_ptr<StreamState> RemoveStreamState(aclrtStream stream, int device) {
  return Streams().Remove(stream, device);
}
void DestroyPooledEvents() { Events().DestroyAll(); }
void ForgetThreadStream() { t_last = LastStream{}; }

}  // namespace pacl::rn
