/* pacl runner: the process-wide executor cache.
 *
 * A cache entry is a repeatable executor (aclSetAclOpExecutorRepeatable) planned by phase 1 on
 * runner-owned copies of the caller's tensor descriptors. A later call with the same key rebinds
 * every tensor address (aclSetTensorAddr / aclSetDynamicTensorAddr) and goes straight to phase 2.
 *
 * The key is compared in full on every hit (its hash only picks the bucket): the op, the device,
 * for every tensor its view shape, strides, offset, storage shape, dtype and format (and whether it
 * is null), scalar values and dtypes, array contents, plain attributes, and the aliasing pattern
 * (which tensors are the same object, and the byte displacement of tensors whose memory overlaps).
 * Arguments the runner cannot read through the public API (an aclScalar*, aclIntArray*,
 * aclTensorList*, ... passed as a raw handle) make the call bypass the cache; pass values instead
 * (pacl::Scalar, pacl::IntArray, std::vector, ...) to have it cached.
 *
 * Bounded LRU by entry count and by bytes (host memory of the entry: key, descriptors, a fixed
 * estimate for the executor). Capacity is set with SetCacheConfig or the environment:
 * PACL_RUNNER_CACHE_ENTRIES (0 disables the cache), PACL_RUNNER_CACHE_BYTES (accepts K/M/G
 * suffixes; 0 disables), PACL_RUNNER_CACHE_DEBUG=1 (miss diagnostics, printed to stderr),
 * PACL_RUNNER_CACHE_PARITY=1 (parity mode). An evicted executor is destroyed only after every launch
 * that used it has passed on its stream.
 *
 * Thread-safe: entries live in hash shards with their own locks (no global lock on the hit path);
 * one entry serves one call at a time (rebinding and phase 2 happen under the entry's lock). */
#ifndef PACL_RUNNER_EXECUTOR_CACHE_H
#define PACL_RUNNER_EXECUTOR_CACHE_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace pacl {

struct CacheConfig {
  size_t max_entries = 4096;               // 0 disables the cache
  size_t max_bytes = size_t{64} << 20;     // 0 disables the cache
  bool debug = false;   // on a miss, find the nearest entry and name the key field that differs
  bool parity = false;  // on a hit, run phase 1 again on the call's own arguments and compare
};
void SetCacheConfig(const CacheConfig& config);  // shrinking evicts at once
CacheConfig GetCacheConfig();

struct CacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;       // calls that planned a new executor and (normally) inserted it
  uint64_t bypasses = 0;     // calls that could not use the cache (disabled, raw handles, per-call opt-out)
  uint64_t evictions = 0;
  uint64_t parity_checks = 0;
  uint64_t parity_failures = 0;
  size_t entries = 0;
  size_t bytes = 0;
};
CacheStats GetCacheStats();
void ResetCacheStats();  // counters only; entries stay
void ClearCache();       // drops every entry (executors still in use die after their work passed)

// Debug mode: why the calling thread's last cache miss missed, e.g. "aclnnAdd: argument 1 'other':
// view shape [2,4] differs from the nearest cached entry ([2,3])"; empty if unknown.
std::string LastCacheMiss();

// Approximate host bytes one cache entry is accounted for beyond its key and descriptors.
constexpr size_t kExecutorBytesEstimate = 4096;

}  // namespace pacl

#endif  // PACL_RUNNER_EXECUTOR_CACHE_H
