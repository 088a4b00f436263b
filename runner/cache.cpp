// The executor cache: hash shards, each with its own lock, hash map and LRU list. Eviction picks the
// least recently used entry across shards (the oldest of the shards' LRU tails) under a lock of its
// own, so hits never wait for a global lock. An entry is shared: a call (or a launch still on its
// stream) holds a reference, so an evicted executor is destroyed when the last of them lets go.
#include <cstdio>
#include <unordered_map>

#include "internal.h"

namespace pacl::rn {

Entry::~Entry() {
  if (executor) aclDestroyAclOpExecutor(executor);
}

class ExecutorCache {
 public:
  static constexpr size_t kShards = 32;

  ExecutorCache() {
    max_entries_ = EnvSize("PACL_RUNNER_CACHE_ENTRIES", 4096);
    max_bytes_ = EnvSize("PACL_RUNNER_CACHE_BYTES", size_t{64} << 20);
    debug_ = EnvFlag("PACL_RUNNER_CACHE_DEBUG");
    log_ = debug_.load();
    parity_ = EnvFlag("PACL_RUNNER_CACHE_PARITY");
  }

  bool Enabled() const { return max_entries_.load(std::memory_order_relaxed) > 0 && max_bytes_.load(std::memory_order_relaxed) > 0; }

  std::shared_ptr<Entry> Find(const CallState& cs) {
    Shard& s = ShardOf(cs.hash);
    std::lock_guard<std::mutex> lock(s.mu);
    auto range = s.map.equal_range(cs.hash);
    for (auto it = range.first; it != range.second; ++it) {
      Entry* e = it->second.get();
      if (e->key == cs.key) {
        e->last_use = clock_.fetch_add(1, std::memory_order_relaxed) + 1;
        Unlink(s, e);
        PushFront(s, e);
        ++s.hits;
        return it->second;
      }
    }
    return nullptr;
  }

  void Insert(const std::shared_ptr<Entry>& e) {
    e->bytes = sizeof(Entry) + e->key.size() * sizeof(uint64_t) + e->op.size() + e->rebinds.size() * sizeof(Rebind) +
               e->owned.count() * 256 + kExecutorBytesEstimate;
    for (const std::string& n : e->names) e->bytes += n.size() + sizeof(std::string);
    {
      Shard& s = ShardOf(e->hash);
      std::lock_guard<std::mutex> lock(s.mu);
      ++s.misses;
      auto range = s.map.equal_range(e->hash);
      for (auto it = range.first; it != range.second; ++it)
        if (it->second->key == e->key) return;  // another thread planned the same key first
      s.map.emplace(e->hash, e);
      e->in_cache = true;
      e->last_use = clock_.fetch_add(1, std::memory_order_relaxed) + 1;
      PushFront(s, e.get());
      entries_.fetch_add(1, std::memory_order_relaxed);
      bytes_.fetch_add(e->bytes, std::memory_order_relaxed);
    }
    EvictOverCapacity();
  }

  void Remove(const std::shared_ptr<Entry>& e) {
    std::shared_ptr<Entry> dropped;
    Shard& s = ShardOf(e->hash);
    std::lock_guard<std::mutex> lock(s.mu);
    dropped = Detach(s, e.get());
  }

  void EvictOverCapacity() {
    while (entries_.load(std::memory_order_relaxed) > max_entries_.load(std::memory_order_relaxed) ||
           bytes_.load(std::memory_order_relaxed) > max_bytes_.load(std::memory_order_relaxed)) {
      std::shared_ptr<Entry> victim;
      {
        std::lock_guard<std::mutex> evict(evict_mu_);
        if (entries_.load() <= max_entries_.load() && bytes_.load() <= max_bytes_.load()) break;
        size_t best = kShards;
        uint64_t oldest = UINT64_MAX;
        for (size_t i = 0; i < kShards; ++i) {
          std::lock_guard<std::mutex> lock(shards_[i].mu);
          if (shards_[i].tail && shards_[i].tail->last_use < oldest) {
            oldest = shards_[i].tail->last_use;
            best = i;
          }
        }
        if (best == kShards) break;
        Shard& s = shards_[best];
        std::lock_guard<std::mutex> lock(s.mu);
        if (!s.tail) continue;
        victim = Detach(s, s.tail);
        evictions_.fetch_add(1, std::memory_order_relaxed);
      }
      // `victim` is released here, outside every lock: its executor is destroyed now unless a call
      // or a pending launch still holds it.
    }
  }

  void Clear() {
    std::vector<std::shared_ptr<Entry>> dropped;
    for (Shard& s : shards_) {
      std::lock_guard<std::mutex> lock(s.mu);
      while (s.tail) dropped.push_back(Detach(s, s.tail));
    }
  }

  void SetConfig(const CacheConfig& c) {
    max_entries_ = c.max_entries;
    max_bytes_ = c.max_bytes;
    debug_ = c.debug;
    parity_ = c.parity;
    if (!Enabled()) Clear();
    else EvictOverCapacity();
  }
  CacheConfig Config() const {
    CacheConfig c;
    c.max_entries = max_entries_;
    c.max_bytes = max_bytes_;
    c.debug = debug_;
    c.parity = parity_;
    return c;
  }

  CacheStats Stats() {
    CacheStats st;
    for (Shard& s : shards_) {
      std::lock_guard<std::mutex> lock(s.mu);
      st.hits += s.hits;
      st.misses += s.misses;
    }
    st.bypasses = bypasses_;
    st.evictions = evictions_;
    st.parity_checks = parity_checks_;
    st.parity_failures = parity_failures_;
    st.entries = entries_;
    st.bytes = bytes_;
    return st;
  }
  void ResetStats() {
    for (Shard& s : shards_) {
      std::lock_guard<std::mutex> lock(s.mu);
      s.hits = s.misses = 0;
    }
    bypasses_ = evictions_ = parity_checks_ = parity_failures_ = 0;
  }

  std::string DiagnoseMiss(const CallState& cs, const std::vector<std::string>& names) {
    std::string best;
    size_t best_diff = SIZE_MAX;
    uint64_t best_use = 0;
    bool best_same_op = false;
    for (Shard& s : shards_) {
      std::lock_guard<std::mutex> lock(s.mu);
      for (const auto& kv : s.map) {
        const Entry& e = *kv.second;
        const bool same_op = SameOp(e.key, cs.key);
        if (best_same_op && !same_op) continue;
        size_t d = 0;
        std::string why = DescribeDifference(cs.key, e.key, same_op ? names : std::vector<std::string>{}, &d);
        const bool better = (same_op && !best_same_op) || d < best_diff || (d == best_diff && e.last_use > best_use);
        if (better) {
          best = std::move(why);
          best_diff = d;
          best_use = e.last_use;
          best_same_op = same_op;
        }
      }
    }
    return best;
  }

  bool debug() const { return debug_.load(std::memory_order_relaxed); }
  bool log() const { return log_; }
  bool parity() const { return parity_.load(std::memory_order_relaxed); }
  void CountBypass() { bypasses_.fetch_add(1, std::memory_order_relaxed); }
  void CountParity(bool failed) {
    parity_checks_.fetch_add(1, std::memory_order_relaxed);
    if (failed) parity_failures_.fetch_add(1, std::memory_order_relaxed);
  }

 private:
  struct Shard {
    std::mutex mu;
    std::unordered_multimap<uint64_t, std::shared_ptr<Entry>> map;
    Entry* head = nullptr;  // most recently used
    Entry* tail = nullptr;
    uint64_t hits = 0, misses = 0;
  };

  Shard& ShardOf(uint64_t hash) { return shards_[(hash >> 40) % kShards]; }

  static void Unlink(Shard& s, Entry* e) {
    if (e->lru_prev) e->lru_prev->lru_next = e->lru_next;
    else s.head = e->lru_next;
    if (e->lru_next) e->lru_next->lru_prev = e->lru_prev;
    else s.tail = e->lru_prev;
    e->lru_prev = e->lru_next = nullptr;
  }
  static void PushFront(Shard& s, Entry* e) {
    e->lru_prev = nullptr;
    e->lru_next = s.head;
    if (s.head) s.head->lru_prev = e;
    s.head = e;
    if (!s.tail) s.tail = e;
  }
  // Removes `e` from the shard (lock held); returns the map's reference.
  std::shared_ptr<Entry> Detach(Shard& s, Entry* e) {
    if (!e->in_cache) return nullptr;
    Unlink(s, e);
    e->in_cache = false;
    std::shared_ptr<Entry> ref;
    auto range = s.map.equal_range(e->hash);
    for (auto it = range.first; it != range.second; ++it) {
      if (it->second.get() == e) {
        ref = std::move(it->second);
        s.map.erase(it);
        break;
      }
    }
    entries_.fetch_sub(1, std::memory_order_relaxed);
    bytes_.fetch_sub(e->bytes, std::memory_order_relaxed);
    return ref;
  }

  Shard shards_[kShards];
  std::atomic<size_t> entries_{0}, bytes_{0};
  std::atomic<uint64_t> evictions_{0}, bypasses_{0}, parity_checks_{0}, parity_failures_{0}, clock_{0};
  std::mutex evict_mu_;
  std::atomic<size_t> max_entries_{0}, max_bytes_{0};
  std::atomic<bool> debug_{false}, parity_{false};
  bool log_ = false;
};

ExecutorCache& Cache() {
  static ExecutorCache* c = new ExecutorCache;  // never destroyed: ReleaseResources() empties it
  return *c;
}

bool CacheEnabled() { return Cache().Enabled(); }
bool CacheDebug() { return Cache().debug(); }
bool CacheParity() { return Cache().parity(); }
std::shared_ptr<Entry> CacheFind(const CallState& cs) { return Cache().Find(cs); }
void CacheInsert(const std::shared_ptr<Entry>& e) { Cache().Insert(e); }
void CacheRemove(const std::shared_ptr<Entry>& e) { Cache().Remove(e); }
void CacheCountBypass() { Cache().CountBypass(); }
void CacheCountParity(bool failed) { Cache().CountParity(failed); }

namespace {
PACL_RUNNER_TLS std::string t_last_miss;
}

std::string CacheDiagnoseMiss(const CallState& cs, const std::string& op, const std::vector<std::string>& names) {
  std::string why = Cache().DiagnoseMiss(cs, names);
  if (why.empty()) why = "the cache holds no entry yet";
  why = "aclnn" + op + ": cache miss: " + why;
  if (Cache().log()) std::fprintf(stderr, "[pacl runner] %s\n", why.c_str());
  return why;
}

void SetLastMiss(std::string why) { t_last_miss = std::move(why); }

}  // namespace pacl::rn

namespace pacl {

void SetCacheConfig(const CacheConfig& config) { rn::Cache().SetConfig(config); }
CacheConfig GetCacheConfig() { return rn::Cache().Config(); }
CacheStats GetCacheStats() { return rn::Cache().Stats(); }
void ResetCacheStats() { rn::Cache().ResetStats(); }
void ClearCache() { rn::Cache().Clear(); }
std::string LastCacheMiss() { return rn::t_last_miss; }

}  // namespace pacl
