/* pacl runner: workspace strategies and the caching pool.
 *
 * An op's workspace is device memory phase 2 may use until the stream has executed the op. The
 * runner offers three ways to provide it, chosen per runner (OpRunner::Workspace, RunOptions) or
 * globally (SetDefaultWorkspaceStrategy, env PACL_RUNNER_WORKSPACE=per-call|per-stream|pool):
 *
 *  kPerCall    aclrtMalloc before phase 2, aclrtFree once the stream has passed the op (right after
 *              the synchronize of Run(); for Launch() when an event recorded after the op
 *              completes). The simple, obviously correct baseline.
 *  kPerStream  one cached block per stream that grows when a larger request comes. Work on one
 *              stream runs in order, so the block is reused by the next op on the stream without
 *              any synchronization; a block outgrown is freed once an event recorded after its last
 *              use completes.
 *  kPool       a WorkspacePool shared by all streams of a device: size classes, block splitting and
 *              coalescing, stream-ordered reuse (a block freed on stream A is reused at once by A,
 *              and by another stream only after an event recorded on A after its last use has
 *              completed), a byte limit and a release threshold, and on out-of-memory it frees its
 *              cached blocks and retries before failing.
 *
 * Every workspace address is aligned to WorkspaceAlignment() bytes (512 by default, as the NPU
 * requires; env PACL_RUNNER_WORKSPACE_ALIGN).
 *
 * Streams. The runner keeps per-stream state (the kPerStream block, what Launch() keeps alive). A
 * stream is passed to the runner only while it is alive; before destroying a stream the runner
 * has used, call ForgetStream(stream) to release that state at once (otherwise it is released by
 * ReleaseResources()). Call ReleaseResources() before aclrtResetDevice/aclFinalize. */
#ifndef PACL_RUNNER_WORKSPACE_H
#define PACL_RUNNER_WORKSPACE_H

#include <cstddef>
#include <cstdint>
#include <memory>

#include "acl/acl.h"

namespace pacl {

enum class WorkspaceStrategy : int {
  kDefault = 0,  // whatever DefaultWorkspaceStrategy() is when the call runs
  kPerCall,
  kPerStream,
  kPool,
};
const char* WorkspaceStrategyName(WorkspaceStrategy s);  // "per-call", ...

// Process-wide default (initially from PACL_RUNNER_WORKSPACE, else kPerStream).
void SetDefaultWorkspaceStrategy(WorkspaceStrategy s);
WorkspaceStrategy DefaultWorkspaceStrategy();

// Alignment of every workspace address the runner hands out; a power of two >= 32.
void SetWorkspaceAlignment(size_t bytes);
size_t WorkspaceAlignment();

struct PoolConfig {
  size_t limit_bytes = 0;                 // most device bytes the pool may reserve; 0: no limit
  size_t release_threshold = SIZE_MAX;    // fully free segments are returned to the device while
                                          // reserved bytes exceed this
  size_t small_request = size_t{1} << 20; // requests up to this size share small segments
  size_t small_segment = size_t{2} << 20; // size of a small segment
  size_t large_granularity = size_t{2} << 20;  // large segments are multiples of this
};

struct PoolStats {
  size_t reserved = 0;        // device bytes held in segments
  size_t live = 0;            // bytes in allocated blocks
  size_t peak_reserved = 0;
  size_t peak_live = 0;
  size_t cached = 0;          // reserved - live
  size_t largest_free = 0;    // largest free block
  double fragmentation = 0;   // 1 - largest_free / cached (0 when nothing is cached)
  size_t segments = 0;
  uint64_t allocations = 0;   // Allocate calls that succeeded
  uint64_t frees = 0;
  uint64_t cache_hits = 0;    // allocations served from cached blocks
  uint64_t device_mallocs = 0;
  uint64_t device_frees = 0;
  uint64_t cross_stream_reuses = 0;  // blocks reused by another stream after their event completed
  uint64_t oom_recoveries = 0;       // device out-of-memory answered by freeing the cache and retrying
  uint64_t limit_recoveries = 0;     // byte limit reached and answered by freeing the cache
};

// A stream-ordered caching allocator for one device (the device current when it is created).
// Thread-safe.
class WorkspacePool {
 public:
  explicit WorkspacePool(PoolConfig config = {});
  ~WorkspacePool();  // waits for pending reuse events, frees every segment (blocks still allocated too)
  WorkspacePool(const WorkspacePool&) = delete;
  WorkspacePool& operator=(const WorkspacePool&) = delete;

  // A block of at least `bytes` bytes (aligned to WorkspaceAlignment()) that work enqueued on
  // `stream` from now on may use. Throws RunnerError (phase kWorkspace) when the device or the byte
  // limit cannot provide it even after the cache was freed.
  void* Allocate(size_t bytes, aclrtStream stream);
  // Gives a block back. `stream` is the stream whose enqueued work is the last to use it (normally
  // the one it was allocated for): the block is reused on that stream at once, on others only after
  // that work has passed.
  void Free(void* ptr, aclrtStream stream);
  // Returns every free segment to the device (waiting for what still uses them first).
  void EmptyCache();
  // `stream` has been synchronized and is about to be destroyed: blocks last used on it become
  // free for every stream.
  void ForgetStream(aclrtStream stream);
  PoolStats Stats() const;
  void ResetPeakStats();
  void SetConfig(const PoolConfig& config);
  PoolConfig Config() const;
  int Device() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The pool kPool uses on the current device.
WorkspacePool& DefaultPool();

struct WorkspaceStats {
  uint64_t per_call_mallocs = 0;   // aclrtMalloc calls of kPerCall
  uint64_t per_stream_grows = 0;   // kPerStream blocks (re)allocated
  size_t per_stream_bytes = 0;     // bytes held in kPerStream blocks
  size_t streams = 0;              // streams with runner state
  size_t pending = 0;              // launches whose resources wait for their event
  uint64_t pressure_relief = 0;    // out-of-memory answered by releasing cached memory and retrying
};
WorkspaceStats GetWorkspaceStats();

// aclrtSynchronizeStream(stream), then release what Launch() kept alive for work on it.
void Synchronize(aclrtStream stream);
// Call before aclrtDestroyStream(stream) of a stream the runner has used: synchronizes it and
// releases its per-stream block and pending resources.
void ForgetStream(aclrtStream stream);
// Synchronizes everything pending, clears the executor cache, frees per-stream blocks, empties and
// drops the pools and the runner's events. Call before aclrtResetDevice / aclFinalize.
void ReleaseResources();

}  // namespace pacl

#endif  // PACL_RUNNER_WORKSPACE_H
