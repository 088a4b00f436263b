// The case model of pacl_compare (compare.cpp) and the helpers its case files share: device
// tensors, a two-phase call with a reused workspace, the bandwidth probes, the torch peer switch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"

namespace pacl::bench {

enum class Unit {
  kBandwidth,  // `bytes` per call are moved: figures in GB/s
  kFlops,      // `bytes` holds floating-point operations per call: figures in GFLOP/s
  kTime,       // figures in time per call
};

struct Environment;

struct Peer {
  std::string name;
  std::function<void()> fn;
};

struct Case {
  std::string group, name;
  Unit unit;
  double bytes;  // per call (or FLOPs, see Unit)
  std::function<void()> pacl;
  std::vector<Peer> peers;
  // Large cases fill `pacl` and `peers` here, just before they are measured; the driver drops both
  // right after, so their buffers live only while their own case runs.
  std::function<void(Environment&, Case&)> materialize = {};
  // Seconds each timed batch lasts at least, when more than the driver's --min-time: cases of
  // milliseconds per call (large GEMMs) need several calls per batch for a steady median.
  double min_batch_seconds = 0;
};

struct Environment {
  int threads = 1;  // pacl's intra-op threads; peers use as many
  bool torch = false;
  aclrtStream stream = nullptr;
};

Environment setup();
void teardown();

// Case files register a maker per group; makers run in registration order.
using GroupMaker = std::function<std::vector<Case>(Environment&)>;
std::vector<GroupMaker>& case_groups();
struct RegisterGroup {
  explicit RegisterGroup(GroupMaker m) { case_groups().push_back(std::move(m)); }
};

// A device tensor (contiguous), filled with values drawn uniformly from [lo, hi] converted to dtype.
class DeviceTensor {
 public:
  DeviceTensor(aclDataType dtype, std::vector<int64_t> shape, double lo = -2.0, double hi = 2.0, uint64_t seed = 1);
  ~DeviceTensor();
  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;
  aclTensor* get() const { return tensor_; }
  void* data() const { return data_; }
  int64_t numel() const;
  size_t bytes() const;

 private:
  aclDataType dtype_;
  std::vector<int64_t> shape_;
  void* data_ = nullptr;
  aclTensor* tensor_ = nullptr;
};

// out = a + b (alpha 1) on float32[n], a and b uniform in [-2, 2]: the Add that the dispatch,
// scaling and stream cases share.
struct AddOperands {
  explicit AddOperands(int64_t n);
  ~AddOperands();
  AddOperands(const AddOperands&) = delete;
  AddOperands& operator=(const AddOperands&) = delete;
  aclOpExecutor* plan() const;                // phase 1; aborts on failure (float32 Add books no workspace)
  void enqueue(aclrtStream stream) const;     // phase 1 + phase 2, no synchronize
  DeviceTensor a, b, out;
  aclScalar* alpha = nullptr;
};

// "512", "64 Ki", "16 Mi": an element count as the case names print it.
std::string size_name(int64_t n);

using Phase1 = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;
using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// One synchronous op call as CANN programs write it: phase 1, phase 2 with a workspace of at least
// the returned size (kept between calls and grown when needed), aclrtSynchronizeStream. Aborts
// with the op's message on failure (a benchmark of a failing call would measure nothing).
std::function<void()> op_call(Environment& env, std::string op, Phase1 p1, Phase2 p2);

// Aborts with `what` and aclGetRecentErrMsg() unless e is ACL_SUCCESS.
void check(aclError e, const char* what);

// Bandwidth probes over a working set of `bytes` (as arrays of float), with the best of one
// thread and env.threads threads: the limit a memory-bound op of that size can reach.
std::function<void()> triad_probe(const Environment& env, double bytes);  // a = b + s*c (2 reads, 1 write)
std::function<void()> copy_probe(const Environment& env, double bytes);   // a = b (1 read, 1 write)

}  // namespace pacl::bench
