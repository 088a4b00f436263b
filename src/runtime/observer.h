// The hooks through which the contract checker (src/check) watches the runtime and the executor.
// The runtime and core call them at each event that matters to the two-phase contract; with the
// checker off (PACL_CHECK unset or 0 at aclInit) observer() is null and a hook site costs one
// relaxed atomic load. The checker registers its factory at load time, so the runtime never names
// it (the layering stays: runtime below check).
//
// Order of events: every hook is called on the API thread, after the runtime accepted the call
// and, for enqueue-type calls, after the task was queued (with the task's sequence number on its
// stream). Hooks may throw pacl errors (a fatal check) only where documented.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pacl {

class Stream;
class Event;
struct Allocation;

// One byte range a task or a host call reads and/or writes.
struct MemAccess {
  uintptr_t lo = 0, hi = 0;  // [lo, hi)
  bool read = false, write = false;
  std::string what;  // "aclnnAdd argument 'out' (float32[4, 4])", "aclrtMemcpyAsync dst"
  const void* object = nullptr;  // the aclTensor the access goes through, if any
  // Element-exact shape of the access, for the initialized-memory shadow (level 2). Empty dims
  // with elem_size 0: the whole [lo, hi) range.
  size_t elem_size = 0;
  std::vector<int64_t> dims, strides;  // strides in elements; first element at lo
};

class Observer {
 public:
  virtual ~Observer() = default;

  // ---- memory ----
  // Extra bytes the arena reserves after each device allocation (a guard region; 0 = none).
  virtual size_t device_guard_bytes() const { return 0; }
  // Bytes of freed device blocks the arena keeps out of reuse, poisoned (0 = reuse at once).
  virtual size_t device_quarantine_bytes() const { return 0; }
  virtual void device_allocated(const Allocation& a, const char* api) = 0;
  // Called before the block is released.
  virtual void device_freeing(const Allocation& a, const char* api) = 0;
  virtual void host_allocated(void* p, size_t size, const char* api) = 0;
  virtual void host_freeing(void* p, const char* api) = 0;

  // ---- work ----
  // A synchronous host-side access (aclrtMemcpy, aclrtMemset, aclrtMemcpy2d) about to happen.
  virtual void host_access(const char* api, const std::vector<MemAccess>& accesses) = 0;
  // Task number `seq` (1-based, per stream) was queued on `s` by `api` with these accesses.
  virtual void enqueued(Stream& s, uint64_t seq, const char* api, const std::vector<MemAccess>& accesses) = 0;
  // Runs on the stream's thread right after task `seq` of `s` ran (overrun guards).
  virtual void task_done(Stream& s, uint64_t seq) { (void)s; (void)seq; }

  // ---- ordering ----
  virtual void stream_created(Stream& s, const char* api) = 0;
  // Before the stream is destroyed (its queued work not yet drained).
  virtual void stream_destroying(Stream& s, const char* api) = 0;
  // The host learned that tasks 1..seq of s completed (synchronize, a successful query).
  virtual void host_synced(Stream& s, uint64_t seq) = 0;
  virtual void event_recorded(Event& e, Stream& s, uint64_t seq) = 0;
  virtual void stream_waited(Stream& s, Event& e) = 0;
  // The host learned that the latest record of e completed.
  virtual void host_synced_event(Event& e) = 0;
  virtual void event_created(Event& e, const char* api) = 0;
  virtual void event_destroying(Event& e, const char* api) = 0;

  // ---- lifetimes ----
  // Meta objects and executors (kind: "aclTensor", "aclOpExecutor", ...).
  virtual void object_created(const void* obj, const char* kind, const char* api) = 0;
  virtual void object_destroying(const void* obj, const char* kind, const char* api) = 0;
  // An executor's phase 2 on stream s queued as task seq (executor sharing, stale plans).
  // tensors: the aclTensor objects the executor is bound to.
  virtual void executor_launched(const void* executor, const char* op, bool repeatable, Stream& s, uint64_t seq,
                                 const std::vector<const void*>& tensors) = 0;
  // A stale-plan or other always-on contract failure the caller will also get as a status code.
  virtual void contract_error(const char* kind, const char* api, const std::string& message,
                              const std::string& fix) = 0;
  virtual void device_resetting(int device, const char* api) = 0;
  virtual void finalizing() = 0;
};

namespace detail {
extern std::atomic<Observer*> g_observer;
}

// The active observer, or null when the checker is off.
inline Observer* observer() { return detail::g_observer.load(std::memory_order_acquire); }

// The checker registers its factory at load time; aclInit calls it once (the observer then lives
// for the rest of the process, so reports about late frees still have somewhere to go).
using ObserverFactory = Observer* (*)(const char* config_path);
void set_observer_factory(ObserverFactory f);
void install_observer_once(const char* config_path);

}  // namespace pacl
