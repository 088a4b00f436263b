// The process-wide runtime state: initialization, virtual devices, contexts, streams, events and
// memory. Handles given to the C API (aclrtStream, aclrtEvent, aclrtContext) are pointers to the
// objects below; every API call validates a handle against the live registry before using it, so a
// destroyed or foreign handle is an error, not a crash.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/memory.h"
#include "runtime/stream.h"

namespace pacl {

struct Context {
  int device;
  bool is_primary;
  Stream* default_stream = nullptr;  // created on first use, owned by Runtime
};

struct Device {
  int id;
  int set_count = 0;  // aclrtSetDevice calls not yet matched by aclrtResetDevice
  std::unique_ptr<DeviceArena> arena;  // created on first use
  Context* primary = nullptr;
};

class Runtime {
 public:
  static Runtime& get();

  // Initialization state (aclInit / aclFinalize).
  int init();      // 0, or the ACL code to return
  int finalize();  // 0, or the ACL code to return
  bool initialized() const { return initialized_.load(std::memory_order_acquire); }

  int device_count() const { return static_cast<int>(devices_.size()); }
  size_t device_capacity() const { return device_capacity_; }
  // Throws RuntimeError(ACL_ERROR_RT_INVALID_DEVICEID) for an id out of range.
  Device& device(int id);
  DeviceArena& arena(int id);

  // The calling thread's current context; throws RuntimeError(ACL_ERROR_RT_CONTEXT_NULL) if none.
  Context& current_context();
  Context* current_context_or_null();
  void set_current_context(Context* ctx);

  void set_device(int id);
  void reset_device(int id, bool force);
  Context* create_context(int device);
  void destroy_context(Context* ctx);
  bool is_context(const void* p) const;

  Stream* create_stream();
  void destroy_stream(Stream* s);
  // Resolves a stream handle: nullptr means the current context's default stream.
  Stream& stream(void* handle);
  bool is_stream(const void* p) const;
  std::vector<Stream*> streams_of_device(int device) const;

  Event* create_event(uint32_t flags);
  void destroy_event(Event* e);
  // Shared ownership: queued tasks keep an event alive after aclrtDestroyEvent.
  std::shared_ptr<Event> event(void* handle);

  // Memory provenance.
  void* malloc_device(size_t requested, size_t usable);
  void free_device(void* p);
  void* malloc_host(size_t size);
  void free_host(void* p);
  // Device of the live allocation holding p (filling `a` when non-null); kFreedDeviceMemory when p is
  // in a device's range but in no live allocation; -1 when p is not device memory at all.
  static constexpr int kFreedDeviceMemory = -2;
  int device_of(const void* p, Allocation* a = nullptr) const;
  bool is_host_registered(const void* p, Allocation* a = nullptr) const;

 private:
  Runtime();
  std::atomic<bool> initialized_{false};
  size_t device_capacity_;
  std::vector<Device> devices_;
  mutable std::mutex mu_;
  std::unordered_set<const void*> contexts_;
  std::unordered_map<const void*, std::unique_ptr<Stream>> streams_;
  std::unordered_map<const void*, std::shared_ptr<Event>> events_;
  std::vector<std::unique_ptr<Context>> context_store_;
  HostRegistry host_;
};

// Parses sizes like "16G", "512M", "1024" (bytes). Returns `fallback` when unset or malformed.
size_t parse_size_env(const char* name, size_t fallback);

}  // namespace pacl
