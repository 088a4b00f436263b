// The set of live meta objects and executors, by address and kind. Creation registers, destruction
// unregisters, and every API entry checks its handles here, so a destroyed, consumed or foreign
// pointer is reported precisely without ever being dereferenced.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/meta.h"

namespace pacl {

class LiveObjects {
 public:
  static LiveObjects& get();
  void add(const void* p, Magic kind);
  // Removes p if it is live with this kind; returns false otherwise.
  bool remove(const void* p, Magic kind);
  // The kind p is registered with, or Magic::kDead if it is not live.
  Magic kind_of(const void* p) const;
  size_t count(Magic kind) const;
  // Runs f() while p is held live (a concurrent destruction waits for it); returns false without
  // calling f when p is not live with this kind.
  template <typename F>
  bool with_live(const void* p, Magic kind, F&& f) {
    std::lock_guard<std::mutex> lock(mu_);
    if (find(p) != kind) return false;
    f();
    return true;
  }

 private:
  // An open-addressing hash set (linear probing, backward-shift deletion: no tombstones, no
  // allocation per object), guarded by mu_. The registry is read on every API call, so a lookup
  // must stay a few probes in one cache line, not a node walk.
  struct Slot {
    const void* p = nullptr;  // null: empty
    Magic kind = Magic::kDead;
  };
  size_t home(const void* p) const {
    return static_cast<size_t>((reinterpret_cast<uintptr_t>(p) >> 4) * 0x9e3779b97f4a7c15ull >> shift_);
  }
  Magic find(const void* p) const;  // under mu_
  void grow();                      // under mu_

  mutable std::mutex mu_;
  std::vector<Slot> slots_ = std::vector<Slot>(1024);
  size_t mask_ = 1023;
  int shift_ = 64 - 10;
  size_t size_ = 0;
};

const char* magic_name(Magic m);  // "aclTensor", ...

}  // namespace pacl
