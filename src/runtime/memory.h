// Device memory. Each virtual device owns one reserved address range (mmap, MAP_NORESERVE), so
// "is this a device pointer, and of which allocation?" is a range check plus one ordered-map
// lookup. Blocks are carved best-fit from the range and coalesced on free; the capacity is what
// aclrtGetMemInfo reports and exhaustion is ACL_ERROR_RT_MEMORY_ALLOCATION.
// Host memory from aclrtMallocHost is tracked too, so a copy's direction can be checked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

namespace pacl {

struct Allocation {
  uintptr_t base = 0;
  size_t requested = 0;  // bytes the caller asked for
  size_t usable = 0;     // bytes the caller may touch (requested rounded up + CANN's pad)
  int device = -1;       // -1 for host memory from aclrtMallocHost
  size_t guard = 0;      // bytes reserved after `usable` (the checker's guard region)
};

class DeviceArena {
 public:
  DeviceArena(int device, size_t capacity);
  ~DeviceArena();
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;

  // Returns nullptr when the arena cannot hold `usable` + `guard` more bytes.
  void* allocate(size_t requested, size_t usable, size_t guard = 0);
  // False when p is not the base of a live allocation of this arena. With quarantine > 0 the
  // block is filled with `poison` and kept out of reuse until more than `quarantine` bytes of
  // later frees push it out (FIFO), so stale pointers keep pointing at freed, poisoned memory.
  bool free(void* p, size_t quarantine = 0, int poison = 0xff);
  bool contains(const void* p) const {
    auto u = reinterpret_cast<uintptr_t>(p);
    return u >= begin_ && u < begin_ + reserved_;
  }
  // The live allocation containing p (usable range), if any.
  bool find(const void* p, Allocation* out) const;
  size_t capacity() const { return capacity_; }
  size_t used() const;
  size_t live_count() const;

 private:
  static constexpr size_t kAlign = 64;
  int device_;
  size_t capacity_;
  size_t reserved_;  // capacity rounded up to whole pages
  uintptr_t begin_ = 0;
  mutable std::mutex mu_;
  std::map<uintptr_t, size_t> free_by_addr_;          // start -> length
  std::set<std::pair<size_t, uintptr_t>> free_by_size_;  // (length, start)
  std::map<uintptr_t, Allocation> live_;              // start -> allocation
  size_t used_ = 0;                                   // bytes of live blocks

  std::deque<std::pair<uintptr_t, size_t>> quarantine_;  // (start, length), oldest first
  size_t quarantined_ = 0;

  void insert_free(uintptr_t start, size_t len);
  void erase_free(std::map<uintptr_t, size_t>::iterator it);
  void release_block(uintptr_t start, size_t len);  // back to the free lists, coalesced
};

class HostRegistry {
 public:
  void* allocate(size_t size);
  bool free(void* p);
  bool find(const void* p, Allocation* out) const;

 private:
  mutable std::mutex mu_;
  std::map<uintptr_t, Allocation> live_;
};

}  // namespace pacl
