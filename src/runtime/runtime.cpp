#include "runtime/runtime.h"

#include <cstdlib>
#include <cstring>

#include "runtime/c_boundary.h"
#include "runtime/observer.h"

namespace pacl {

namespace {
thread_local Context* t_current = nullptr;
constexpr int kDefaultDeviceCount = 8;
constexpr size_t kDefaultCapacity = size_t{16} << 30;
}  // namespace

size_t parse_size_env(const char* name, size_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  if (end == v) return fallback;
  switch (*end) {
    case 'k': case 'K': n <<= 10; ++end; break;
    case 'm': case 'M': n <<= 20; ++end; break;
    case 'g': case 'G': n <<= 30; ++end; break;
    case 't': case 'T': n <<= 40; ++end; break;
    default: break;
  }
  if (*end == 'B' || *end == 'b') ++end;
  if (*end != '\0' || n == 0) return fallback;
  return static_cast<size_t>(n);
}

Runtime& Runtime::get() {
  static Runtime* rt = new Runtime();  // never destroyed: worker threads may outlive static destructors
  return *rt;
}

Runtime::Runtime() {
  int count = kDefaultDeviceCount;
  if (const char* v = std::getenv("PACL_DEVICE_COUNT")) {
    int n = std::atoi(v);
    if (n >= 1 && n <= 64) count = n;
  }
  device_capacity_ = parse_size_env("PACL_DEVICE_MEMORY", kDefaultCapacity);
  devices_.resize(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) devices_[static_cast<size_t>(i)].id = i;
}

int Runtime::init() {
  bool expected = false;
  if (!initialized_.compare_exchange_strong(expected, true)) return 100002;  // ACL_ERROR_REPEAT_INITIALIZE
  return 0;
}

int Runtime::finalize() {
  bool expected = true;
  if (!initialized_.compare_exchange_strong(expected, false)) return 100037;  // ACL_ERROR_REPEAT_FINALIZE
  std::vector<Stream*> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& kv : streams_) all.push_back(kv.second.get());
  }
  for (Stream* s : all) s->synchronize();
  return 0;
}

Device& Runtime::device(int id) {
  if (id < 0 || id >= device_count())
    rt_error(kAclRtInvalidDeviceId, "device id {} is out of range: pacl has {} devices (PACL_DEVICE_COUNT)", id,
             device_count());
  return devices_[static_cast<size_t>(id)];
}

DeviceArena& Runtime::arena(int id) {
  Device& d = device(id);
  std::lock_guard<std::mutex> lock(mu_);
  if (!d.arena) d.arena = std::make_unique<DeviceArena>(id, device_capacity_);
  return *d.arena;
}

Context* Runtime::current_context_or_null() { return t_current; }

Context& Runtime::current_context() {
  if (!t_current) rt_error(kAclRtContextNull, "no current context: call aclrtSetDevice or aclrtSetCurrentContext first");
  return *t_current;
}

void Runtime::set_current_context(Context* ctx) {
  if (ctx && !is_context(ctx)) bad_param("context {} is not a live context", static_cast<const void*>(ctx));
  t_current = ctx;
}

void Runtime::set_device(int id) {
  Device& d = device(id);
  std::lock_guard<std::mutex> lock(mu_);
  if (!d.primary) {
    context_store_.push_back(std::make_unique<Context>(Context{id, true, nullptr}));
    d.primary = context_store_.back().get();
    contexts_.insert(d.primary);
  }
  ++d.set_count;
  t_current = d.primary;
}

void Runtime::reset_device(int id, bool force) {
  Device& d = device(id);
  std::vector<Stream*> to_sync;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (d.set_count == 0) rt_error(kAclRtInvalidDeviceId, "device {} was not set (aclrtSetDevice) on this process", id);
    d.set_count = force ? 0 : d.set_count - 1;
    if (d.set_count > 0) return;
  }
  if (Observer* o = observer()) o->device_resetting(id, force ? "aclrtResetDeviceForce" : "aclrtResetDevice");
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& kv : streams_)
      if (kv.second->device() == id) to_sync.push_back(kv.second.get());
  }
  for (Stream* s : to_sync) s->synchronize();
  if (t_current && t_current->device == id) t_current = nullptr;
}

Context* Runtime::create_context(int device_id) {
  device(device_id);
  std::lock_guard<std::mutex> lock(mu_);
  context_store_.push_back(std::make_unique<Context>(Context{device_id, false, nullptr}));
  Context* c = context_store_.back().get();
  contexts_.insert(c);
  return c;
}

void Runtime::destroy_context(Context* ctx) {
  std::unique_ptr<Stream> default_stream;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!contexts_.count(ctx)) bad_param("context {} is not a live context", static_cast<const void*>(ctx));
    if (ctx->is_primary) bad_param("the primary context of a device is released by aclrtResetDevice, not destroyed");
    contexts_.erase(ctx);
    if (ctx->default_stream) {
      auto it = streams_.find(ctx->default_stream);
      default_stream = std::move(it->second);
      streams_.erase(it);
    }
    for (auto it = context_store_.begin(); it != context_store_.end(); ++it)
      if (it->get() == ctx) {
        context_store_.erase(it);
        break;
      }
  }
  if (t_current == ctx) t_current = nullptr;
}

bool Runtime::is_context(const void* p) const {
  std::lock_guard<std::mutex> lock(mu_);
  return contexts_.count(p) != 0;
}

Stream* Runtime::create_stream() {
  Context& ctx = current_context();
  auto s = std::make_unique<Stream>(ctx.device, false);
  Stream* raw = s.get();
  std::lock_guard<std::mutex> lock(mu_);
  streams_.emplace(raw, std::move(s));
  return raw;
}

void Runtime::destroy_stream(Stream* s) {
  std::unique_ptr<Stream> owned;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = streams_.find(s);
    if (it == streams_.end()) bad_param("stream {} is not a live stream", static_cast<const void*>(s));
    if (it->second->is_default()) bad_param("the default stream of a context cannot be destroyed");
    owned = std::move(it->second);
    streams_.erase(it);
  }
  owned.reset();  // waits for queued work
}

Stream& Runtime::stream(void* handle) {
  if (!handle) {
    Context& ctx = current_context();
    std::lock_guard<std::mutex> lock(mu_);
    if (!ctx.default_stream) {
      auto s = std::make_unique<Stream>(ctx.device, true);
      ctx.default_stream = s.get();
      streams_.emplace(s.get(), std::move(s));
    }
    return *ctx.default_stream;
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = streams_.find(handle);
  if (it == streams_.end()) bad_param("stream {} is not a live stream (never created, or already destroyed)", handle);
  return *it->second;
}

bool Runtime::is_stream(const void* p) const {
  std::lock_guard<std::mutex> lock(mu_);
  return streams_.count(p) != 0;
}

std::vector<Stream*> Runtime::streams_of_device(int dev) const {
  std::vector<Stream*> out;
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& kv : streams_)
    if (kv.second->device() == dev) out.push_back(kv.second.get());
  return out;
}

Event* Runtime::create_event(uint32_t flags) {
  auto e = std::make_shared<Event>(flags);
  Event* raw = e.get();
  std::lock_guard<std::mutex> lock(mu_);
  events_.emplace(raw, std::move(e));
  return raw;
}

void Runtime::destroy_event(Event* e) {
  std::lock_guard<std::mutex> lock(mu_);
  if (events_.erase(e) == 0) bad_param("event {} is not a live event (never created, or already destroyed)",
                                       static_cast<const void*>(e));
}

std::shared_ptr<Event> Runtime::event(void* handle) {
  if (!handle) bad_param("event is null");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = events_.find(handle);
  if (it == events_.end()) bad_param("event {} is not a live event (never created, or already destroyed)", handle);
  return it->second;
}

void* Runtime::malloc_device(size_t requested, size_t usable) {
  Context& ctx = current_context();
  Observer* o = observer();
  void* p = arena(ctx.device).allocate(requested, usable, o ? o->device_guard_bytes() : 0);
  if (!p) {
    DeviceArena& a = arena(ctx.device);
    rt_error(kAclRtMemoryAllocation,
             "device {} is out of memory: requested {} bytes, {} of {} bytes in use (capacity set by PACL_DEVICE_MEMORY)",
             ctx.device, requested, a.used(), a.capacity());
  }
  return p;
}

void Runtime::free_device(void* p) {
  for (Device& d : devices_) {
    DeviceArena* a;
    {
      std::lock_guard<std::mutex> lock(mu_);
      a = d.arena.get();
    }
    if (a && a->contains(p)) {
      Observer* o = observer();
      if (!a->free(p, o ? o->device_quarantine_bytes() : 0)) bad_param("{} is not the start of a live device allocation (double free, or an interior pointer)", p);
      return;
    }
  }
  if (host_.find(p, nullptr)) bad_param("{} is host memory from aclrtMallocHost: free it with aclrtFreeHost", p);
  bad_param("{} is not device memory (not returned by aclrtMalloc)", p);
}

void* Runtime::malloc_host(size_t size) {
  void* p = host_.allocate(size);
  if (!p) rt_error(kAclRtMemoryAllocation, "host allocation of {} bytes failed", size);
  return p;
}

void Runtime::free_host(void* p) {
  if (!host_.free(p)) {
    if (device_of(p) >= 0) bad_param("{} is device memory: free it with aclrtFree", p);
    bad_param("{} is not host memory from aclrtMallocHost (or was already freed)", p);
  }
}

int Runtime::device_of(const void* p, Allocation* a) const {
  for (const Device& d : devices_) {
    DeviceArena* ar;
    {
      std::lock_guard<std::mutex> lock(mu_);
      ar = d.arena.get();
    }
    if (ar && ar->contains(p)) return ar->find(p, a) ? d.id : kFreedDeviceMemory;
  }
  return -1;
}

bool Runtime::is_host_registered(const void* p, Allocation* a) const { return host_.find(p, a); }

}  // namespace pacl
