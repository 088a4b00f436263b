// The set of live meta objects and executors, by address and kind. Creation registers, destruction
// unregisters, and every API entry checks its handles here, so a destroyed, consumed or foreign
// pointer is reported precisely without ever being dereferenced.
#pragma once

#include <mutex>
#include <unordered_map>

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
    const auto it = objects_.find(p);
    if (it == objects_.end() || it->second != kind) return false;
    f();
    return true;
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<const void*, Magic> objects_;
};

const char* magic_name(Magic m);  // "aclTensor", ...

}  // namespace pacl
