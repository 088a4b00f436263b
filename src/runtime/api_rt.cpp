// extern "C" entry points of the ACL runtime (acl_rt.h). Each one validates its arguments, then
// calls into Runtime; errors become ACL status codes at c_call.
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "acl/acl_rt.h"
#include "runtime/c_boundary.h"
#include "runtime/observer.h"
#include "runtime/runtime.h"

using pacl::acl_call;
using pacl::bad_param;
using pacl::Runtime;

namespace {

Runtime& rt() { return Runtime::get(); }
using pacl::MemAccess;
using pacl::observer;

// The byte range [p, p + n) as an access (what: "<api> <arg>").
MemAccess access(const void* p, size_t n, bool read, bool write, const char* api, const char* arg) {
  MemAccess a;
  a.lo = reinterpret_cast<uintptr_t>(p);
  a.hi = a.lo + n;
  a.read = read;
  a.write = write;
  a.what = std::string(api) + " " + arg;
  return a;
}
// Rows of a 2-D copy: `height` rows of `width` bytes, `pitch` bytes apart.
MemAccess access_2d(const void* p, size_t pitch, size_t width, size_t height, bool read, bool write, const char* api,
                    const char* arg) {
  MemAccess a = access(p, height ? pitch * (height - 1) + width : 0, read, write, api, arg);
  a.elem_size = 1;
  a.dims = {static_cast<int64_t>(height), static_cast<int64_t>(width)};
  a.strides = {static_cast<int64_t>(pitch), 1};
  return a;
}
// Synchronizes s and tells the checker what the host now knows.
// A failed task is reported by the synchronize that finds it, after the work has finished: the
// host knows the work is done either way.
bool sync_stream(pacl::Stream& s, int64_t timeout_ms) {
  const uint64_t target = s.enqueued_count();
  try {
    if (!s.synchronize(timeout_ms)) return false;
  } catch (...) {
    if (pacl::Observer* o = observer()) o->host_synced(s, target);
    throw;
  }
  if (pacl::Observer* o = observer()) o->host_synced(s, target);
  return true;
}

// The raw value of an enum argument. A caller may pass any integer; reading it as the enum type
// would be undefined behaviour for values outside the enumerators, so it is read as bytes.
template <typename E>
int raw(const E& e) {
  int v = 0;
  std::memcpy(&v, &e, sizeof(E) < sizeof(int) ? sizeof(E) : sizeof(int));
  return v;
}

template <typename T>
void need(const T* p, const char* what) {
  if (!p) bad_param("argument '{}' is null", what);
}

const char* kind_name(aclrtMemcpyKind k) {
  switch (k) {
    case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT: return "ACL_MEMCPY_DEFAULT";
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE";
  }
  return "an unknown aclrtMemcpyKind";
}

// Checks that [p, p+bytes) is device memory inside one live allocation.
void check_device_range(const void* p, size_t bytes, const char* what) {
  pacl::Allocation a;
  int dev = rt().device_of(p, &a);
  if (dev == Runtime::kFreedDeviceMemory)
    bad_param("{} {} is device memory that was already freed (aclrtFree)", what, p);
  if (dev < 0) bad_param("{} {} is not device memory (not from aclrtMalloc)", what, p);
  const auto u = reinterpret_cast<uintptr_t>(p);
  if (bytes > a.base + a.usable - u)  // not u + bytes, which can wrap around
    bad_param("{} range [{}, +{}) overruns its device allocation of {} bytes at {:#x}", what, p, bytes, a.requested,
              a.base);
}

bool is_device(const void* p) { return rt().device_of(p) != -1; }

// Validates a copy and returns the direction actually taken.
void check_copy(void* dst, size_t destMax, const void* src, size_t count, int kind_value) {
  if (count > destMax) bad_param("count ({} bytes) exceeds destMax ({} bytes)", count, destMax);
  if (count == 0) return;
  need(dst, "dst");
  need(src, "src");
  if (kind_value < 0 || kind_value > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
    bad_param("kind {} is not an aclrtMemcpyKind", kind_value);
  const auto kind = static_cast<aclrtMemcpyKind>(kind_value);
  const bool dst_dev = is_device(dst), src_dev = is_device(src);
  bool want_dst_dev = dst_dev, want_src_dev = src_dev;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: want_dst_dev = want_src_dev = false; break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: want_dst_dev = true; want_src_dev = false; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: want_dst_dev = false; want_src_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: want_dst_dev = want_src_dev = true; break;
    case ACL_MEMCPY_DEFAULT: break;
  }
  if (want_dst_dev != dst_dev || want_src_dev != src_dev)
    bad_param("{} contradicts the pointers: dst {} is {} memory and src {} is {} memory", kind_name(kind), dst,
              dst_dev ? "device" : "host", src, src_dev ? "device" : "host");
  if (dst_dev) check_device_range(dst, count, "dst");
  if (src_dev) check_device_range(src, count, "src");
}

size_t malloc_usable(size_t size, bool pad) {
  size_t n = (size + 31) / 32 * 32;
  return pad ? n + 32 : n;
}

aclError do_malloc(const char* api, void** devPtr, size_t size, bool pad) {
  return acl_call(api, [&] {
    need(devPtr, "devPtr");
    if (size == 0) bad_param("size is 0");
    // Checked before rounding, which would wrap around for sizes near SIZE_MAX.
    if (size > rt().device_capacity())
      pacl::rt_error(pacl::kAclRtMemoryAllocation,
                     "device {} is out of memory: requested {} bytes, more than its capacity of {} bytes (capacity set "
                     "by PACL_DEVICE_MEMORY)",
                     rt().current_context().device, size, rt().device_capacity());
    *devPtr = rt().malloc_device(size, malloc_usable(size, pad));
    if (pacl::Observer* o = observer()) {
      pacl::Allocation a;
      rt().device_of(*devPtr, &a);
      o->device_allocated(a, api);
    }
  });
}

}  // namespace

extern "C" {

aclError aclInit(const char* configPath) {
  return acl_call("aclInit", [&] {
    if (configPath && *configPath) {
      struct stat st;
      if (stat(configPath, &st) != 0 || !S_ISREG(st.st_mode))
        throw pacl::Error(pacl::kAclnnInvalid, 100003 /*ACL_ERROR_INVALID_FILE*/,
                          fmt::format("config file '{}' does not exist or is not a regular file", configPath));
    }
    if (int rc = rt().init()) throw pacl::Error(pacl::kAclnnInvalid, rc, "aclInit was already called (call aclFinalize first)");
    pacl::install_observer_once(configPath);
  });
}

aclError aclFinalize() {
  return acl_call("aclFinalize", [&] {
    if (pacl::Observer* o = observer(); o && rt().initialized()) o->finalizing();
    if (int rc = rt().finalize()) throw pacl::Error(pacl::kAclnnInvalid, rc, "aclFinalize without a matching aclInit");
  });
}

aclError aclFinalizeReference(uint64_t* refCount) {
  return acl_call("aclFinalizeReference", [&] {
    if (int rc = rt().finalize()) throw pacl::Error(pacl::kAclnnInvalid, rc, "aclFinalize without a matching aclInit");
    if (refCount) *refCount = 0;
  });
}

const char* aclGetRecentErrMsg() { return pacl::last_error(); }

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  return acl_call("aclrtGetVersion", [&] {
    need(majorVersion, "majorVersion");
    need(minorVersion, "minorVersion");
    need(patchVersion, "patchVersion");
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
  });
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  return acl_call("aclrtGetRunMode", [&] {
    need(runMode, "runMode");
    *runMode = ACL_HOST;
  });
}

aclError aclrtGetLastError(aclrtLastErrLevel) { return ACL_SUCCESS; }
aclError aclrtPeekAtLastError(aclrtLastErrLevel) { return ACL_SUCCESS; }

aclError aclrtSetDevice(int32_t deviceId) {
  return acl_call("aclrtSetDevice", [&] { rt().set_device(deviceId); });
}

aclError aclrtResetDevice(int32_t deviceId) {
  return acl_call("aclrtResetDevice", [&] { rt().reset_device(deviceId, false); });
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
  return acl_call("aclrtResetDeviceForce", [&] { rt().reset_device(deviceId, true); });
}

aclError aclrtGetDevice(int32_t* deviceId) {
  return acl_call("aclrtGetDevice", [&] {
    need(deviceId, "deviceId");
    *deviceId = rt().current_context().device;
  });
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  return acl_call("aclrtGetDeviceCount", [&] {
    need(count, "count");
    *count = static_cast<uint32_t>(rt().device_count());
  });
}

aclError aclrtSynchronizeDevice(void) { return aclrtSynchronizeDeviceWithTimeout(-1); }

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  return acl_call("aclrtSynchronizeDevice", [&] {
    if (timeout < -1) bad_param("timeout {} ms is invalid (-1 waits forever)", timeout);
    for (pacl::Stream* s : rt().streams_of_device(rt().current_context().device))
      if (!sync_stream(*s, timeout))
        pacl::rt_error(pacl::kAclRtStreamSyncTimeout, "device work did not finish within {} ms", timeout);
  });
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  return acl_call("aclrtCreateContext", [&] {
    need(context, "context");
    *context = rt().create_context(deviceId);
    rt().set_current_context(static_cast<pacl::Context*>(*context));
  });
}

aclError aclrtDestroyContext(aclrtContext context) {
  return acl_call("aclrtDestroyContext", [&] {
    need(context, "context");
    rt().destroy_context(static_cast<pacl::Context*>(context));
  });
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  return acl_call("aclrtSetCurrentContext", [&] {
    need(context, "context");
    rt().set_current_context(static_cast<pacl::Context*>(context));
  });
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  return acl_call("aclrtGetCurrentContext", [&] {
    need(context, "context");
    *context = &rt().current_context();
  });
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
  return acl_call("aclrtCtxGetCurrentDefaultStream", [&] {
    need(stream, "stream");
    *stream = &rt().stream(nullptr);
  });
}

aclError aclrtCreateStream(aclrtStream* stream) {
  return acl_call("aclrtCreateStream", [&] {
    need(stream, "stream");
    *stream = rt().create_stream();
    if (pacl::Observer* o = observer()) o->stream_created(*static_cast<pacl::Stream*>(*stream), "aclrtCreateStream");
  });
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  return acl_call("aclrtCreateStreamWithConfig", [&] {
    need(stream, "stream");
    if (priority > 7) bad_param("priority {} is out of range [0, 7]", priority);
    (void)flag;
    *stream = rt().create_stream();
    if (pacl::Observer* o = observer())
      o->stream_created(*static_cast<pacl::Stream*>(*stream), "aclrtCreateStreamWithConfig");
  });
}

aclError aclrtDestroyStream(aclrtStream stream) {
  return acl_call("aclrtDestroyStream", [&] {
    need(stream, "stream");
    if (pacl::Observer* o = observer(); o && rt().is_stream(stream))
      o->stream_destroying(*static_cast<pacl::Stream*>(stream), "aclrtDestroyStream");
    rt().destroy_stream(static_cast<pacl::Stream*>(stream));
  });
}

aclError aclrtDestroyStreamForce(aclrtStream stream) { return aclrtDestroyStream(stream); }

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return acl_call("aclrtSynchronizeStream", [&] { sync_stream(rt().stream(stream), -1); });
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  return acl_call("aclrtSynchronizeStreamWithTimeout", [&] {
    if (timeout < -1) bad_param("timeout {} ms is invalid (-1 waits forever)", timeout);
    if (!sync_stream(rt().stream(stream), timeout))
      pacl::rt_error(pacl::kAclRtStreamSyncTimeout, "stream work did not finish within {} ms", timeout);
  });
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  return acl_call("aclrtStreamQuery", [&] {
    need(status, "status");
    pacl::Stream& s = rt().stream(stream);
    const uint64_t target = s.enqueued_count();
    const bool idle = s.idle();
    if (pacl::Observer* o = observer(); o && idle) o->host_synced(s, target);
    *status = idle ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  });
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  return acl_call("aclrtStreamWaitEvent", [&] {
    std::shared_ptr<pacl::Event> e = rt().event(event);
    pacl::Stream& s = rt().stream(stream);
    const uint64_t gen = e->recorded_generation();
    if (pacl::Observer* o = observer()) o->stream_waited(s, *e);
    if (gen == 0) return;  // never recorded: nothing to wait for
    s.enqueue([e, gen] { e->wait(gen, -1); }, "wait event");
  });
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
  return acl_call("aclrtLaunchCallback", [&] {
    need(reinterpret_cast<const void*>(fn), "fn");
    if (raw(blockType) != ACL_CALLBACK_NO_BLOCK && raw(blockType) != ACL_CALLBACK_BLOCK)
      bad_param("blockType {} is not an aclrtCallbackBlockType", raw(blockType));
    rt().stream(stream).enqueue([fn, userData] { fn(userData); }, "callback");
  });
}

aclError aclrtCreateEvent(aclrtEvent* event) { return aclrtCreateEventWithFlag(event, ACL_EVENT_SYNC); }

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  return acl_call("aclrtCreateEventWithFlag", [&] {
    need(event, "event");
    *event = rt().create_event(flag);
    if (pacl::Observer* o = observer()) o->event_created(*static_cast<pacl::Event*>(*event), "aclrtCreateEventWithFlag");
  });
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) { return aclrtCreateEventWithFlag(event, flag); }

aclError aclrtDestroyEvent(aclrtEvent event) {
  return acl_call("aclrtDestroyEvent", [&] {
    need(event, "event");
    if (pacl::Observer* o = observer()) o->event_destroying(*rt().event(event), "aclrtDestroyEvent");
    rt().destroy_event(static_cast<pacl::Event*>(event));
  });
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  return acl_call("aclrtRecordEvent", [&] {
    std::shared_ptr<pacl::Event> e = rt().event(event);
    pacl::Stream& s = rt().stream(stream);
    const uint64_t gen = e->begin_record();
    const uint64_t seq = s.enqueue([e, gen] { e->complete(gen); }, "record event");
    if (pacl::Observer* o = observer()) o->event_recorded(*e, s, seq);
  });
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  return acl_call("aclrtResetEvent", [&] {
    std::shared_ptr<pacl::Event> e = rt().event(event);
    rt().stream(stream).enqueue([e] { e->reset(); }, "reset event");
  });
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  return acl_call("aclrtQueryEvent", [&] {
    need(status, "status");
    pacl::Kicker::get().pay();  // a polling host sees progress
    std::shared_ptr<pacl::Event> e = rt().event(event);
    const bool done = e->completed();
    if (pacl::Observer* o = observer(); o && done) o->host_synced_event(*e);
    *status = done ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  });
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  return acl_call("aclrtQueryEventStatus", [&] {
    need(status, "status");
    pacl::Kicker::get().pay();  // a polling host sees progress
    std::shared_ptr<pacl::Event> e = rt().event(event);
    const bool done = e->completed();
    if (pacl::Observer* o = observer(); o && done) o->host_synced_event(*e);
    *status = done ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  });
}

aclError aclrtSynchronizeEvent(aclrtEvent event) { return aclrtSynchronizeEventWithTimeout(event, -1); }

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  return acl_call("aclrtSynchronizeEvent", [&] {
    if (timeout < -1) bad_param("timeout {} ms is invalid (-1 waits forever)", timeout);
    std::shared_ptr<pacl::Event> e = rt().event(event);
    if (!e->wait(e->recorded_generation(), timeout))
      pacl::rt_error(pacl::kAclRtEventSyncTimeout, "event did not complete within {} ms", timeout);
    if (pacl::Observer* o = observer()) o->host_synced_event(*e);
  });
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  return acl_call("aclrtEventElapsedTime", [&] {
    need(ms, "ms");
    auto a = rt().event(startEvent), b = rt().event(endEvent);
    if (!a->ever_completed() || !a->completed()) bad_param("startEvent has not completed (record and synchronize it first)");
    if (!b->ever_completed() || !b->completed()) bad_param("endEvent has not completed (record and synchronize it first)");
    *ms = std::chrono::duration<float, std::milli>(b->timestamp() - a->timestamp()).count();
  });
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) {
  return do_malloc("aclrtMalloc", devPtr, size, true);
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy) {
  return do_malloc("aclrtMallocAlign32", devPtr, size, false);
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy) {
  return do_malloc("aclrtMallocCached", devPtr, size, true);
}

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy, aclrtMallocConfig*) {
  return do_malloc("aclrtMallocWithCfg", devPtr, size, true);
}

aclError aclrtFree(void* devPtr) {
  return acl_call("aclrtFree", [&] {
    need(devPtr, "devPtr");
    pacl::Allocation a;
    if (pacl::Observer* o = observer(); o && rt().device_of(devPtr, &a) >= 0 && a.base == reinterpret_cast<uintptr_t>(devPtr))
      o->device_freeing(a, "aclrtFree");
    rt().free_device(devPtr);
  });
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return acl_call("aclrtMallocHost", [&] {
    need(hostPtr, "hostPtr");
    if (size == 0) bad_param("size is 0");
    *hostPtr = rt().malloc_host(size);
    if (pacl::Observer* o = observer()) o->host_allocated(*hostPtr, size, "aclrtMallocHost");
  });
}

aclError aclrtFreeHost(void* hostPtr) {
  return acl_call("aclrtFreeHost", [&] {
    need(hostPtr, "hostPtr");
    if (pacl::Observer* o = observer(); o && rt().is_host_registered(hostPtr)) o->host_freeing(hostPtr, "aclrtFreeHost");
    rt().free_host(hostPtr);
  });
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  return acl_call("aclrtGetMemInfo", [&] {
    need(free, "free");
    need(total, "total");
    if (raw(attr) < ACL_DDR_MEM || raw(attr) > ACL_MEM_P2P_HUGE1G) bad_param("attr {} is not an aclrtMemAttr", raw(attr));
    pacl::DeviceArena& a = rt().arena(rt().current_context().device);
    *total = a.capacity();
    *free = a.capacity() - a.used();
  });
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  return acl_call("aclrtMemcpy", [&] {
    check_copy(dst, destMax, src, count, raw(kind));
    pacl::Kicker::get().pay();  // queued work progresses while the host copies
    if (pacl::Observer* o = observer(); o && count)
      o->host_access("aclrtMemcpy", {access(dst, count, false, true, "aclrtMemcpy", "dst"),
                                     access(src, count, true, false, "aclrtMemcpy", "src")});
    if (count) std::memmove(dst, src, count);
  });
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  return acl_call("aclrtMemcpyAsync", [&] {
    check_copy(dst, destMax, src, count, raw(kind));
    pacl::Stream& s = rt().stream(stream);
    if (!count) return;
    const uint64_t seq = s.enqueue([dst, src, count] { std::memmove(dst, src, count); }, "memcpy");
    if (pacl::Observer* o = observer())
      o->enqueued(s, seq, "aclrtMemcpyAsync",
                  {access(dst, count, false, true, "aclrtMemcpyAsync", "dst"),
                   access(src, count, true, false, "aclrtMemcpyAsync", "src")});
  });
}

namespace {
void check_copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                   int kind) {
  if (width > dpitch) bad_param("width ({}) exceeds dpitch ({})", width, dpitch);
  if (width > spitch) bad_param("width ({}) exceeds spitch ({})", width, spitch);
  if (height == 0 || width == 0) return;
  const size_t max = std::numeric_limits<size_t>::max();
  if ((height - 1) > (max - width) / dpitch || (height - 1) > (max - width) / spitch)
    bad_param("height {} with dpitch {} and spitch {} spans more bytes than the address space holds", height, dpitch,
              spitch);
  const size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
  check_copy(dst, dspan, src, std::min(dspan, sspan), kind);  // direction and the common part
  if (is_device(dst)) check_device_range(dst, dspan, "dst");
  if (is_device(src)) check_device_range(src, sspan, "src");
}
void copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height) {
  for (size_t r = 0; r < height; ++r)
    std::memmove(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width);
}
}  // namespace

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind) {
  return acl_call("aclrtMemcpy2d", [&] {
    check_copy_2d(dst, dpitch, src, spitch, width, height, raw(kind));
    if (pacl::Observer* o = observer(); o && width && height)
      o->host_access("aclrtMemcpy2d", {access_2d(dst, dpitch, width, height, false, true, "aclrtMemcpy2d", "dst"),
                                       access_2d(src, spitch, width, height, true, false, "aclrtMemcpy2d", "src")});
    copy_2d(dst, dpitch, src, spitch, width, height);
  });
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) {
  return acl_call("aclrtMemcpy2dAsync", [&] {
    check_copy_2d(dst, dpitch, src, spitch, width, height, raw(kind));
    pacl::Stream& s = rt().stream(stream);
    const uint64_t seq = s.enqueue([=] { copy_2d(dst, dpitch, src, spitch, width, height); }, "memcpy2d");
    if (pacl::Observer* o = observer(); o && width && height)
      o->enqueued(s, seq, "aclrtMemcpy2dAsync",
                  {access_2d(dst, dpitch, width, height, false, true, "aclrtMemcpy2dAsync", "dst"),
                   access_2d(src, spitch, width, height, true, false, "aclrtMemcpy2dAsync", "src")});
  });
}

namespace {
void check_memset(void* devPtr, size_t maxCount, size_t count) {
  if (count > maxCount) bad_param("count ({} bytes) exceeds maxCount ({} bytes)", count, maxCount);
  need(devPtr, "devPtr");
  if (count) check_device_range(devPtr, count, "devPtr");
}
}  // namespace

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  return acl_call("aclrtMemset", [&] {
    check_memset(devPtr, maxCount, count);
    if (pacl::Observer* o = observer(); o && count)
      o->host_access("aclrtMemset", {access(devPtr, count, false, true, "aclrtMemset", "devPtr")});
    std::memset(devPtr, value, count);
  });
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  return acl_call("aclrtMemsetAsync", [&] {
    check_memset(devPtr, maxCount, count);
    pacl::Stream& s = rt().stream(stream);
    const uint64_t seq = s.enqueue([=] { std::memset(devPtr, value, count); }, "memset");
    if (pacl::Observer* o = observer(); o && count)
      o->enqueued(s, seq, "aclrtMemsetAsync", {access(devPtr, count, false, true, "aclrtMemsetAsync", "devPtr")});
  });
}

}  // extern "C"
