// WorkspacePool: a stream-ordered caching allocator of device memory.
//
// Segments come from aclrtMalloc: small requests share small segments, large ones get segments
// rounded to a granularity. A segment is a doubly linked list of blocks by address; free blocks
// sit in a set ordered by (size, address) per segment class, so Allocate is a best fit. Blocks are
// split on allocation and coalesced with free neighbours on free.
//
// Stream order. A freed block is tagged with the stream whose work last uses it. That stream may
// reuse it at once (its work runs in order). Another stream may take it only after an event
// recorded on the tagging stream at the free has completed. While the pool has seen a single
// stream no event is recorded at all (nobody else could take the block); when a second stream
// appears, the blocks freed until then get one shared event at the next call on their stream.
#include <algorithm>
#include <set>
#include <unordered_map>

#include "internal.h"

namespace pacl {

namespace {

uintptr_t AlignUp(uintptr_t p, size_t a) { return (p + a - 1) & ~static_cast<uintptr_t>(a - 1); }
size_t RoundUp(size_t n, size_t a) { return (n + a - 1) / a * a; }

// Address -> block of the allocated blocks: open addressing, so that the steady state of Allocate +
// Free allocates no node.
template <class V>
class AddrMap {
 public:
  void Put(uintptr_t key, V* value) {
    if ((used_ + 1) * 10 > table_.size() * 6) Rehash(live_ * 2 + 1 > table_.size() / 2 ? table_.size() * 2 : table_.size());
    size_t i = Hash(key);
    while (table_[i].first != kEmpty && table_[i].first != kTomb) i = (i + 1) & mask_;
    if (table_[i].first == kEmpty) ++used_;
    table_[i] = {key, value};
    ++live_;
  }
  // Removes and returns the value of `key`; nullptr if absent.
  V* Take(uintptr_t key) {
    if (table_.empty()) return nullptr;
    for (size_t i = Hash(key);; i = (i + 1) & mask_) {
      if (table_[i].first == kEmpty) return nullptr;
      if (table_[i].first == key) {
        table_[i].first = kTomb;
        --live_;
        return table_[i].second;
      }
    }
  }
  void Clear() {
    table_.clear();
    used_ = live_ = 0;
    mask_ = 0;
  }

 private:
  static constexpr uintptr_t kEmpty = 0, kTomb = 1;  // never block addresses (aligned to >= 32)
  size_t Hash(uintptr_t k) const { return static_cast<size_t>(((k >> 5) * 0x9E3779B97F4A7C15ull) >> 20) & mask_; }
  void Rehash(size_t cap) {
    if (cap < 64) cap = 64;
    std::vector<std::pair<uintptr_t, V*>> old(cap, {kEmpty, nullptr});
    old.swap(table_);
    mask_ = cap - 1;
    used_ = live_ = 0;
    for (const auto& e : old)
      if (e.first != kEmpty && e.first != kTomb) Put(e.first, e.second);
  }
  std::vector<std::pair<uintptr_t, V*>> table_;
  size_t mask_ = 0, used_ = 0, live_ = 0;
};

}  // namespace

class WorkspacePool::Impl {
 public:
  explicit Impl(const PoolConfig& c) : config_(Sanitize(c)), device_(rn::CurrentDevice()), align_(WorkspaceAlignment()) {}

  ~Impl() {
    std::lock_guard<std::mutex> lock(mu_);
    ReleaseAll();
  }

  void* Allocate(size_t bytes, aclrtStream stream) {
    const size_t size = RoundUp(std::max<size_t>(bytes, 1), align_);
    std::lock_guard<std::mutex> lock(mu_);
    Observe(stream);
    if (stats_.reserved > config_.release_threshold) ReleaseCached(false, config_.release_threshold);
    Block* b = TakeHot(size, stream);
    if (b) {
      ++stats_.cache_hits;
    } else {
      FlushHot();
      const bool small = size <= config_.small_request;
      BlockSet& set = small ? free_small_ : free_large_;
      b = FindFree(set, size, stream);
      if (b) {
        set.erase(b);
        ++stats_.cache_hits;
      } else {
        b = NewSegment(size, small);
      }
      Split(b, size);
    }
    b->allocated = true;
    Untag(b);
    allocated_.Put(b->addr, b);
    stats_.live += b->size;
    stats_.peak_live = std::max(stats_.peak_live, stats_.live);
    ++stats_.allocations;
    return reinterpret_cast<void*>(b->addr);
  }

  void Free(void* p, aclrtStream stream) {
    std::lock_guard<std::mutex> lock(mu_);
    Block* b = allocated_.Take(reinterpret_cast<uintptr_t>(p));
    if (!b)
      throw RunnerError(Status(rn::kParamInvalid, Phase::kWorkspace, "",
                               "WorkspacePool::Free: the pointer was not allocated by this pool, or was freed twice"));
    if (hot_.size() >= kHot) FlushHot();  // while `b` is still allocated: nothing merges it away
    Observe(stream);
    b->allocated = false;
    stats_.live -= b->size;
    ++stats_.frees;
    b->tagged = true;
    b->stream = stream;
    // An event is needed for another stream to take the block, or to release it to the device.
    const bool releasing = stats_.reserved > config_.release_threshold;
    b->fence = (multi_ || releasing) ? rn::Fence::Record(stream, device_) : nullptr;
    // Recently freed blocks wait in a short list, uncoalesced, for the next request of their size.
    b->hot = true;
    hot_.push_back(b);
    if (releasing) ReleaseCached(false, config_.release_threshold);
  }

  void EmptyCache() {
    std::lock_guard<std::mutex> lock(mu_);
    ReleaseCached(true);
  }

  void ForgetStream(aclrtStream stream) {
    std::lock_guard<std::mutex> lock(mu_);
    FlushHot();
    for (BlockSet* set : {&free_small_, &free_large_})
      for (Block* b : *set)
        if (b->tagged && b->stream == stream) Untag(b);
    if (seen_ && first_ == stream) fence_first_pending_ = false;
  }

  PoolStats Stats() {
    std::lock_guard<std::mutex> lock(mu_);
    FlushHot();
    PoolStats s = stats_;
    s.cached = s.reserved - s.live;
    s.segments = segments_.size();
    size_t largest = 0;
    if (!free_small_.empty()) largest = std::max(largest, (*free_small_.rbegin())->size);
    if (!free_large_.empty()) largest = std::max(largest, (*free_large_.rbegin())->size);
    s.largest_free = largest;
    s.fragmentation = s.cached ? 1.0 - static_cast<double>(largest) / static_cast<double>(s.cached) : 0.0;
    return s;
  }

  void ResetPeakStats() {
    std::lock_guard<std::mutex> lock(mu_);
    stats_.peak_live = stats_.live;
    stats_.peak_reserved = stats_.reserved;
  }

  void SetConfig(const PoolConfig& c) {
    std::lock_guard<std::mutex> lock(mu_);
    config_ = Sanitize(c);
    if (stats_.reserved > config_.release_threshold) ReleaseCached(false, config_.release_threshold);
    if (OverLimit(0)) ReleaseCached(false, config_.limit_bytes);
  }
  PoolConfig Config() {
    std::lock_guard<std::mutex> lock(mu_);
    return config_;
  }
  int device() const { return device_; }

 private:
  struct Block;
  struct Segment {
    void* raw = nullptr;
    uintptr_t base = 0;
    size_t size = 0;
    bool small = false;
    Block* first = nullptr;
  };
  struct Block {
    Segment* seg = nullptr;
    uintptr_t addr = 0;
    size_t size = 0;
    bool allocated = false;
    Block* prev = nullptr;  // neighbours in the segment, by address
    Block* next = nullptr;
    bool hot = false;       // in hot_ (free, in no set, not coalesced yet)
    bool tagged = false;    // `stream`'s work may still use the block
    aclrtStream stream = nullptr;
    std::shared_ptr<rn::Fence> fence;  // recorded on `stream` after that use; null: none yet
  };
  struct BySize {
    bool operator()(const Block* a, const Block* b) const {
      return a->size != b->size ? a->size < b->size : a->addr < b->addr;
    }
  };
  using BlockSet = std::set<Block*, BySize>;

  static PoolConfig Sanitize(PoolConfig c) {
    if (c.small_segment < c.small_request) c.small_segment = c.small_request;
    if (c.small_segment == 0) c.small_segment = size_t{2} << 20;
    if (c.large_granularity == 0) c.large_granularity = size_t{2} << 20;
    return c;
  }

  BlockSet& SetOf(const Block* b) { return b->seg->small ? free_small_ : free_large_; }

  static void Untag(Block* b) {
    b->tagged = false;
    b->stream = nullptr;
    b->fence.reset();
  }
  // A tagged block whose event has completed is free for every stream.
  static void Clean(Block* b) {
    if (b->tagged && b->fence && b->fence->Done()) Untag(b);
  }

  void Observe(aclrtStream stream) {
    if (!seen_) {
      seen_ = true;
      first_ = stream;
      return;
    }
    if (!multi_ && stream != first_) {
      multi_ = true;
      fence_first_pending_ = true;
    }
    if (fence_first_pending_ && stream == first_) {
      std::shared_ptr<rn::Fence> f = rn::Fence::Record(stream, device_);
      if (f) {
        for (BlockSet* set : {&free_small_, &free_large_})
          for (Block* b : *set)
            if (b->tagged && b->stream == first_ && !b->fence) b->fence = f;
        for (Block* b : hot_)
          if (b->tagged && b->stream == first_ && !b->fence) b->fence = f;
        fence_first_pending_ = false;
      }
    }
  }

  Block* FindFree(BlockSet& set, size_t size, aclrtStream stream) {
    Block probe;
    probe.size = size;
    probe.addr = 0;
    int scanned = 0;
    for (auto it = set.lower_bound(&probe); it != set.end() && scanned < 64; ++it, ++scanned) {
      Block* b = *it;
      if (!b->tagged || b->stream == stream) return b;
      if (b->fence && b->fence->Done()) {
        ++stats_.cross_stream_reuses;
        return b;
      }
    }
    return nullptr;
  }

  void Split(Block* b, size_t size) {
    const size_t rem = b->size - size;
    const size_t min_split = b->seg->small ? align_ : config_.small_request;
    if (rem == 0 || rem < min_split) return;
    Block* r = new Block;
    r->seg = b->seg;
    r->addr = b->addr + size;
    r->size = rem;
    r->prev = b;
    r->next = b->next;
    if (b->next) b->next->prev = r;
    b->next = r;
    r->tagged = b->tagged;
    r->stream = b->stream;
    r->fence = b->fence;
    b->size = size;
    SetOf(r).insert(r);
  }

  bool Compatible(Block* a, Block* c) {
    Clean(a);
    Clean(c);
    if (!a->tagged || !c->tagged) return true;
    return a->stream == c->stream;
  }
  // `into` takes over the tag that keeps the merged block safe.
  static void MergeTags(Block* into, Block* from) {
    if (!from->tagged) return;
    if (!into->tagged) {
      into->tagged = true;
      into->stream = from->stream;
      into->fence = from->fence;
      return;
    }
    // Same stream: the later event covers both; no event on one side means none for the merge.
    if (!into->fence || !from->fence) into->fence.reset();
    else if (from->fence->seq() > into->fence->seq()) into->fence = from->fence;
  }
  // Absorbs `n` (the next block, free and out of its set) into `b`.
  static void Absorb(Block* b, Block* n) {
    MergeTags(b, n);
    b->size += n->size;
    b->next = n->next;
    if (n->next) n->next->prev = b;
    delete n;
  }

  // A hot block that serves `size` as the sets would (same stream, or its event passed).
  Block* TakeHot(size_t size, aclrtStream stream) {
    for (size_t i = hot_.size(); i-- > 0;) {
      Block* h = hot_[i];
      if (h->size < size || h->size - size >= (h->seg->small ? align_ : config_.small_request)) continue;
      const bool same = !h->tagged || h->stream == stream;
      if (!same && !(h->fence && h->fence->Done())) continue;
      if (!same) ++stats_.cross_stream_reuses;
      hot_.erase(hot_.begin() + static_cast<long>(i));
      h->hot = false;
      return h;
    }
    return nullptr;
  }
  // Coalesces the hot blocks into the free sets.
  void FlushHot() {
    if (hot_.empty()) return;
    std::vector<Block*> blocks;
    blocks.swap(hot_);
    for (Block* b : blocks) {
      b->hot = false;
      b = Coalesce(b);
      SetOf(b).insert(b);
    }
    blocks.clear();
    blocks.swap(hot_);  // keep the capacity
  }

  // `b` is free and in no set; returns the merged block (in no set). Hot neighbours stay apart.
  Block* Coalesce(Block* b) {
    if (b->prev && !b->prev->allocated && !b->prev->hot && Compatible(b->prev, b)) {
      Block* p = b->prev;
      SetOf(p).erase(p);
      Absorb(p, b);
      b = p;
    }
    if (b->next && !b->next->allocated && !b->next->hot && Compatible(b, b->next)) {
      Block* n = b->next;
      SetOf(n).erase(n);
      Absorb(b, n);
    }
    return b;
  }

  void CoalesceAll() {
    for (auto& seg : segments_) {
      Block* b = seg->first;
      while (b) {
        Block* n = b->next;
        if (!b->allocated && n && !n->allocated && Compatible(b, n)) {
          SetOf(b).erase(b);
          SetOf(n).erase(n);
          Absorb(b, n);
          SetOf(b).insert(b);
          continue;
        }
        b = n;
      }
    }
  }

  bool OverLimit(size_t extra) const {
    return config_.limit_bytes && stats_.reserved + extra > config_.limit_bytes;
  }

  // Returns fully free segments to the device while more than `target` bytes are reserved. wait:
  // first wait for every event guarding a free block (and for the device when a block has none),
  // so that every free segment can go.
  void ReleaseCached(bool wait, size_t target = 0) {
    FlushHot();
    if (wait) {
      bool device_sync = false;
      for (BlockSet* set : {&free_small_, &free_large_}) {
        for (Block* b : *set) {
          if (!b->tagged) continue;
          if (b->fence) {
            b->fence->Wait();
            Untag(b);
          } else {
            device_sync = true;
          }
        }
      }
      if (device_sync && aclrtSynchronizeDevice() == ACL_SUCCESS)
        for (BlockSet* set : {&free_small_, &free_large_})
          for (Block* b : *set) Untag(b);
      CoalesceAll();
    }
    for (size_t i = 0; i < segments_.size() && stats_.reserved > target;) {
      Segment* seg = segments_[i].get();
      Block* b = seg->first;
      bool whole = b && !b->allocated && !b->next;
      if (whole) {
        Clean(b);
        whole = !b->tagged;
      }
      if (!whole) {
        ++i;
        continue;
      }
      SetOf(b).erase(b);
      delete b;
      aclrtFree(seg->raw);
      stats_.reserved -= seg->size;
      ++stats_.device_frees;
      segments_[i] = std::move(segments_.back());
      segments_.pop_back();
    }
  }

  void ReleaseAll() {
    bool device_sync = false;
    for (auto& seg : segments_)
      for (Block* b = seg->first; b; b = b->next)
        if (b->tagged) {
          if (b->fence) b->fence->Wait();
          else device_sync = true;
        }
    if (device_sync) aclrtSynchronizeDevice();
    for (auto& seg : segments_) {
      Block* b = seg->first;
      while (b) {
        Block* n = b->next;
        delete b;
        b = n;
      }
      aclrtFree(seg->raw);
    }
    segments_.clear();
    free_small_.clear();
    free_large_.clear();
    allocated_.Clear();
    hot_.clear();
    stats_.reserved = stats_.live = 0;
  }

  Block* NewSegment(size_t size, bool small) {
    size_t seg = small ? std::max(config_.small_segment, size) : RoundUp(size, config_.large_granularity);
    seg = RoundUp(seg, align_);
    if (OverLimit(seg)) {
      ReleaseCached(false);
      if (OverLimit(seg)) ReleaseCached(true);
      if (OverLimit(seg))
        throw RunnerError(Status(rn::kMemoryAllocation, Phase::kWorkspace, "",
                                 "the workspace pool's byte limit (" + std::to_string(config_.limit_bytes) +
                                     ") leaves no room for a " + std::to_string(seg) + "-byte segment (" +
                                     std::to_string(stats_.live) + " bytes live)"));
      ++stats_.limit_recoveries;
    }
    void* raw = nullptr;
    aclError rc = aclrtMalloc(&raw, seg + align_, ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc != ACL_SUCCESS) {
      ReleaseCached(false);
      raw = nullptr;
      rc = aclrtMalloc(&raw, seg + align_, ACL_MEM_MALLOC_HUGE_FIRST);
      if (rc != ACL_SUCCESS) {
        ReleaseCached(true);
        raw = nullptr;
        rc = aclrtMalloc(&raw, seg + align_, ACL_MEM_MALLOC_HUGE_FIRST);
      }
      if (rc != ACL_SUCCESS) {
        const std::string msg = rn::RecentAclMessage();
        throw RunnerError(Status(rc, Phase::kWorkspace, "",
                                 "the workspace pool could not get a " + std::to_string(seg) +
                                     "-byte segment from the device even after freeing its cache (" +
                                     std::to_string(stats_.live) + " bytes live)",
                                 {}, msg));
      }
      ++stats_.oom_recoveries;
    }
    auto s = std::make_unique<Segment>();
    s->raw = raw;
    s->base = AlignUp(reinterpret_cast<uintptr_t>(raw), align_);
    s->size = seg;
    s->small = small;
    Block* b = new Block;
    b->seg = s.get();
    b->addr = s->base;
    b->size = seg;
    s->first = b;
    segments_.push_back(std::move(s));
    stats_.reserved += seg;
    stats_.peak_reserved = std::max(stats_.peak_reserved, stats_.reserved);
    ++stats_.device_mallocs;
    return b;
  }

  std::mutex mu_;
  PoolConfig config_;
  int device_;
  size_t align_;
  BlockSet free_small_, free_large_;
  AddrMap<Block> allocated_;
  static constexpr size_t kHot = 8;
  std::vector<Block*> hot_;
  std::vector<std::unique_ptr<Segment>> segments_;
  PoolStats stats_;
  bool seen_ = false, multi_ = false, fence_first_pending_ = false;
  aclrtStream first_ = nullptr;
};

WorkspacePool::WorkspacePool(PoolConfig config) : impl_(std::make_unique<Impl>(config)) {}
WorkspacePool::~WorkspacePool() = default;
void* WorkspacePool::Allocate(size_t bytes, aclrtStream stream) { return impl_->Allocate(bytes, stream); }
void WorkspacePool::Free(void* ptr, aclrtStream stream) { impl_->Free(ptr, stream); }
void WorkspacePool::EmptyCache() { impl_->EmptyCache(); }
void WorkspacePool::ForgetStream(aclrtStream stream) { impl_->ForgetStream(stream); }
PoolStats WorkspacePool::Stats() const { return impl_->Stats(); }
void WorkspacePool::ResetPeakStats() { impl_->ResetPeakStats(); }
void WorkspacePool::SetConfig(const PoolConfig& config) { impl_->SetConfig(config); }
PoolConfig WorkspacePool::Config() const { return impl_->Config(); }
int WorkspacePool::Device() const { return impl_->device(); }

}  // namespace pacl
