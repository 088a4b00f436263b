#include "runtime/memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace pacl {

namespace {
size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }
}  // namespace

DeviceArena::DeviceArena(int device, size_t capacity) : device_(device), capacity_(capacity) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  reserved_ = round_up(capacity, page);
  void* p = mmap(nullptr, reserved_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("cannot reserve the device address range");
  begin_ = reinterpret_cast<uintptr_t>(p);
  insert_free(begin_, reserved_);
}

DeviceArena::~DeviceArena() { munmap(reinterpret_cast<void*>(begin_), reserved_); }

void DeviceArena::insert_free(uintptr_t start, size_t len) {
  free_by_addr_.emplace(start, len);
  free_by_size_.emplace(len, start);
}

void DeviceArena::erase_free(std::map<uintptr_t, size_t>::iterator it) {
  free_by_size_.erase({it->second, it->first});
  free_by_addr_.erase(it);
}

void* DeviceArena::allocate(size_t requested, size_t usable, size_t guard) {
  const size_t len = round_up(usable + guard, kAlign);
  std::lock_guard<std::mutex> lock(mu_);
  if (used_ + len > capacity_) return nullptr;
  auto fit = free_by_size_.lower_bound({len, 0});
  if (fit == free_by_size_.end() && !quarantine_.empty()) {  // the quarantine gives way before an OOM
    for (auto [qs, ql] : quarantine_) release_block(qs, ql);
    quarantine_.clear();
    quarantined_ = 0;
    fit = free_by_size_.lower_bound({len, 0});
  }
  if (fit == free_by_size_.end()) return nullptr;
  const uintptr_t start = fit->second;
  const size_t have = fit->first;
  erase_free(free_by_addr_.find(start));
  if (have > len) insert_free(start + len, have - len);
  live_.emplace(start, Allocation{start, requested, usable, device_, guard});
  used_ += len;
  return reinterpret_cast<void*>(start);
}

bool DeviceArena::free(void* p, size_t quarantine, int poison) {
  const auto start = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(start);
  if (it == live_.end()) return false;
  const size_t len = round_up(it->second.usable + it->second.guard, kAlign);  // the block allocate() carved
  live_.erase(it);
  used_ -= len;
  if (quarantine == 0) {
    release_block(start, len);
    return true;
  }
  std::memset(p, poison, len);
  quarantine_.emplace_back(start, len);
  quarantined_ += len;
  while (quarantined_ > quarantine) {
    auto [s, l] = quarantine_.front();
    quarantine_.pop_front();
    quarantined_ -= l;
    release_block(s, l);
  }
  return true;
}

void DeviceArena::release_block(uintptr_t start, size_t len) {
  // Give large blocks' pages back to the OS; the range stays reserved.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  if (len >= (size_t{1} << 20)) {
    uintptr_t a = round_up(start, page), e = (start + len) / page * page;
    if (e > a) madvise(reinterpret_cast<void*>(a), e - a, MADV_DONTNEED);
  }
  uintptr_t s = start;
  auto next = free_by_addr_.lower_bound(s);
  if (next != free_by_addr_.end() && next->first == s + len) {
    len += next->second;
    erase_free(next);
  }
  auto prev = free_by_addr_.lower_bound(s);
  if (prev != free_by_addr_.begin()) {
    --prev;
    if (prev->first + prev->second == s) {
      s = prev->first;
      len += prev->second;
      erase_free(prev);
    }
  }
  insert_free(s, len);
}

bool DeviceArena::find(const void* p, Allocation* out) const {
  const auto u = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.upper_bound(u);
  if (it == live_.begin()) return false;
  --it;
  if (u >= it->first + it->second.usable) return false;
  if (out) *out = it->second;
  return true;
}

size_t DeviceArena::used() const {
  std::lock_guard<std::mutex> lock(mu_);
  return used_;
}

size_t DeviceArena::live_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return live_.size();
}

void* HostRegistry::allocate(size_t size) {
  if (size > std::numeric_limits<size_t>::max() - 63) return nullptr;  // round_up would wrap around
  const size_t len = round_up(size, 64);
  void* p = std::aligned_alloc(64, len);
  if (!p) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  const auto u = reinterpret_cast<uintptr_t>(p);
  live_.emplace(u, Allocation{u, size, len, -1});
  return p;
}

bool HostRegistry::free(void* p) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (live_.erase(reinterpret_cast<uintptr_t>(p)) == 0) return false;
  }
  std::free(p);
  return true;
}

bool HostRegistry::find(const void* p, Allocation* out) const {
  const auto u = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.upper_bound(u);
  if (it == live_.begin()) return false;
  --it;
  if (u >= it->first + it->second.usable) return false;
  if (out) *out = it->second;
  return true;
}

}  // namespace pacl
