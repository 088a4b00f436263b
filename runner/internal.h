// Internals of libpacl_runner shared by its sources. Public CANN API, the standard library,
// dlfcn and libffi only: no pacl-internal header.
#pragma once

#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "pacl/runner.h"

// The runner's thread-locals live in a library loaded with the program: the initial-exec model
// makes each access a plain offset from the thread pointer instead of a __tls_get_addr call.
#define PACL_RUNNER_TLS thread_local __attribute__((tls_model("initial-exec")))

namespace pacl::rn {

// A pacl extension entry point ("paclGetTensorView", ...) when the process has it, found with
// dlsym; null on CANN, where the runner falls back to the public API.
template <class Fn>
Fn PaclExtension(const char* name) {
  void* p = dlsym(RTLD_DEFAULT, name);
  Fn f = nullptr;
  static_assert(sizeof f == sizeof p, "function and object pointers differ in size");
  std::memcpy(&f, &p, sizeof f);
  return f;
}

using detail::AnyFn;
using detail::ArgKind;
using detail::ArgRef;
using detail::MatValue;
using detail::Phase2Fn;

// Status codes the runner reports for its own failures (values from CANN's op_errno.h and
// rt_error_codes.h; those headers are not all part of every CANN install's include path).
constexpr int32_t kParamInvalid = 161002;     // ACLNN_ERR_PARAM_INVALID
constexpr int32_t kInner = 561000;            // ACLNN_ERR_INNER
constexpr int32_t kMemoryAllocation = 207001; // ACL_ERROR_RT_MEMORY_ALLOCATION

// An internal failure on its way to the C++ boundary (Execute returns its Status).
struct Failure {
  Status status;
};

// ---- text helpers (values.cpp) --------------------------------------------------------------------
const char* DTypeName(aclDataType dtype);  // "float32"
const char* FormatName(aclFormat format);  // "ND"
size_t DTypeSize(aclDataType dtype);       // aclDataTypeSize, 0 if unknown
std::string Join(const int64_t* v, size_t n);  // "[2,3]"
std::string RecentAclMessage();  // aclGetRecentErrMsg() or ""
size_t EnvSize(const char* name, size_t fallback);  // "64M", "4096", ...
bool EnvFlag(const char* name);

// ---- runner-owned ACL handles --------------------------------------------------------------------
struct Owned {
  std::vector<aclTensor*> tensors;  // standalone tensor copies (not inside a list)
  std::vector<aclTensorList*> tensor_lists;
  std::vector<aclScalar*> scalars;
  std::vector<aclScalarList*> scalar_lists;
  std::vector<aclIntArray*> int_arrays;
  std::vector<aclFloatArray*> float_arrays;
  std::vector<aclBoolArray*> bool_arrays;
  std::vector<std::unique_ptr<char[]>> strings;  // string attributes of cached executors
  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned();
  size_t count() const;
};

// ---- events and fences (streams.cpp) --------------------------------------------------------------

// An event recorded on a stream after some work: done once the stream has passed that point.
class Fence {
 public:
  // Records a pooled event on `stream`; nullptr if recording failed.
  static std::shared_ptr<Fence> Record(aclrtStream stream, int device);
  ~Fence();
  bool Done();  // aclrtQueryEventStatus; sticky once true
  void Wait();  // aclrtSynchronizeEvent
  // Makes `stream` wait (aclrtStreamWaitEvent) until the recording stream has passed the fence.
  bool OrderBefore(aclrtStream stream) const;
  uint64_t seq() const { return seq_; }

 private:
  Fence(aclrtEvent e, int device, uint64_t seq) : event_(e), device_(device), seq_(seq) {}
  aclrtEvent event_;
  int device_;
  uint64_t seq_;
  std::atomic<bool> done_{false};
};

// What launches keep alive until their fence is done. Destruction releases it.
struct Retained {
  std::vector<std::shared_ptr<void>> keep;  // cache entries
  std::unique_ptr<Owned> owned;             // handles made for a bypass call
  void* device_free = nullptr;              // device memory to aclrtFree (per-call workspace, outgrown block)
  size_t launches = 0;                      // launches this accounts for (statistics)
  Retained() = default;
  Retained(Retained&& o) noexcept
      : keep(std::move(o.keep)), owned(std::move(o.owned)), device_free(o.device_free), launches(o.launches) {
    o.device_free = nullptr;
    o.launches = 0;
  }
  Retained& operator=(Retained&& o) noexcept {
    if (this != &o) {
      Retained old(std::move(*this));
      keep = std::move(o.keep);
      owned = std::move(o.owned);
      device_free = o.device_free;
      launches = o.launches;
      o.device_free = nullptr;
      o.launches = 0;
    }
    return *this;
  }
  ~Retained();
  bool empty() const { return keep.empty() && !owned && !device_free; }
};

struct StreamState {
  aclrtStream stream = nullptr;
  int device = -1;
  // kPerStream block; ws_mu is held from taking the block until phase 2 has enqueued the op.
  std::mutex ws_mu;
  void* block_raw = nullptr;
  void* block = nullptr;
  size_t block_size = 0;
  // Launches whose resources wait for their fence, in record order (under pending_mu).
  std::mutex pending_mu;
  std::deque<std::pair<std::shared_ptr<Fence>, Retained>> pending;
  std::atomic<size_t> pending_count{0};  // pending.size()
  // Cache entries of launches that need nothing else: kept without an event of their own until the
  // next fence on the stream covers them, a synchronize passes them, or 64 have gathered.
  std::vector<std::pair<uint64_t, std::shared_ptr<void>>> open;  // (launch ticket, entry)
  std::atomic<uint64_t> tickets{0};   // launches enqueued on the stream so far
  std::atomic<size_t> retained{0};    // launches whose resources are still kept (statistics)
};

// The state of (stream, device); created on first use.
std::shared_ptr<StreamState> GetStreamState(aclrtStream stream, int device);
// Releases the pending items of `s` whose fences are done (all of them, waiting, if wait).
void Poll(StreamState& s, bool wait);
// Called once per runner call on its stream: now and then releases what passed (every 16th call
// of the thread on the stream, or when much is pending) and polls every stream (every 256th call).
void MaybePoll(StreamState& s);
// Keeps `r` (and the stream's open entries) alive until the stream has passed this point: records
// a fence; if none can be recorded, synchronizes the stream and releases at once. Returns false if
// even that failed.
bool RetainUntilPassed(StreamState& s, Retained r);
// Keeps the entry of a launch just enqueued on s.stream alive until the stream has passed it.
void RetainEntry(StreamState& s, std::shared_ptr<void> entry);
// A ticket taken before a synchronize of s.stream: ReleaseSynchronized(s, ticket) after it returned
// releases the open entries of launches enqueued before the ticket was taken.
uint64_t Ticket(const StreamState& s);
void ReleaseSynchronized(StreamState& s, uint64_t ticket);
int CurrentDevice();  // aclrtGetDevice, -1 on failure
std::vector<std::shared_ptr<StreamState>> AllStreamStates();
std::vector<std::shared_ptr<StreamState>> TakeAllStreamStates();  // empties the registry
std::shared_ptr<StreamState> RemoveStreamState(aclrtStream stream, int device);
void DestroyPooledEvents();
void ForgetThreadStream();

// ---- workspace (workspace.cpp, pool.cpp) ----------------------------------------------------------
struct Lease {
  WorkspaceStrategy strategy = WorkspaceStrategy::kPerCall;
  void* ptr = nullptr;
  void* raw = nullptr;  // kPerCall: what aclrtMalloc returned
  std::unique_lock<std::mutex> stream_lock;  // kPerStream
  WorkspacePool* pool = nullptr;
};
WorkspaceStrategy Resolve(WorkspaceStrategy s);
// Provides `bytes` of workspace for work about to be enqueued on s.stream. Throws Failure(kWorkspace).
Lease AcquireWorkspace(WorkspaceStrategy strategy, uint64_t bytes, StreamState& s);
// Right after phase 2 enqueued (or failed to enqueue) the op: gives pool blocks back stream-ordered
// and lets other threads use the stream's block. A kPerCall block stays in the lease.
void AfterLaunch(Lease& lease, StreamState& s);
// aclrtMalloc with alignment; on failure relieves memory pressure and retries once.
// Returns the raw pointer (nullptr on failure, *status set) and the aligned one in *aligned.
void* DeviceMalloc(size_t bytes, size_t align, void** aligned, int32_t* status, StreamState* held);
// Frees what the runner caches (pools, finished launches, idle per-stream blocks) after an
// out-of-memory. `held` is a stream state whose ws_mu the caller holds (or nullptr).
void RelieveMemoryPressure(StreamState* held);
WorkspacePool& PoolForDevice(int device);
void ForgetStreamInPools(aclrtStream stream);
void DropPools();
void CountPerCallMalloc();
void CountPerStreamGrow();
void CountRelief();
uint64_t PerCallMallocs();
uint64_t PerStreamGrows();
uint64_t Reliefs();

// ---- op table (ops.cpp) ---------------------------------------------------------------------------
enum class PType : uint8_t {
  kTensor, kTensorList, kScalar, kScalarList, kIntArray, kFloatArray, kBoolArray,
  kInt, kFloat, kBool, kDType, kString,
};
struct Param {
  PType type;
  bool is_const = false;
  int bits = 64;          // kInt / kFloat width
  bool is_signed = true;  // kInt
  std::string name;       // "self"
  std::string text;       // "const aclTensor* self"
};
struct OpRecord;
// Parses a GetWorkspaceSize parameter list; returns false with *error on an unsupported type.
bool ParseParameters(const std::string& text, std::vector<Param>* params, std::string* error);
// The op's record ("Add" or "aclnnAdd"), nullptr if unknown.
const OpRecord* FindOp(const std::string& name);
const std::string& OpName(const OpRecord& op);
const std::vector<Param>& OpParams(const OpRecord& op);
const std::vector<std::string>& OpNames(const OpRecord& op);
// Resolves the entry points (dlsym) and prepares the libffi call; throws Failure(kResolve).
void ResolveOp(const OpRecord& op, AnyFn* phase1, Phase2Fn* phase2);
// The libffi invoker of by-name calls (spec.op is the OpRecord).
aclnnStatus FfiInvoke(const detail::CallSpec& spec, const MatValue* values, uint64_t* ws, aclOpExecutor** ex);
// Checks arguments against the op's parameters; throws Failure(kArguments).
void CheckArguments(const OpRecord& op, const ArgRef* args, size_t n);
// "Add" for the phase-1 function aclnnAddGetWorkspaceSize (dladdr); "op@0x..." if unknown.
std::string NameOfPhase1(AnyFn phase1);
std::string UnknownOpMessage(const std::string& name);

// ---- key (key.cpp) --------------------------------------------------------------------------------
struct TensorRec {
  const aclTensor* user = nullptr;
  uint32_t arg = 0, elem = 0;
  bool in_list = false;
  void* addr = nullptr;
  uint32_t view_at = 0, ndim = 0, strides_at = 0, storage_at = 0, sdim = 0;
  int64_t offset = 0;
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  bool has_extent = false;
  uintptr_t lo = 0, hi = 0;
};

// Per-call scratch: the key and everything read from the tensors.
struct CallState {
  std::vector<uint64_t> key;
  uint64_t hash = 0;
  std::vector<TensorRec> tensors;  // non-null tensors, list elements included, in parameter order
  std::vector<int64_t> dims;
  void Reset() {  // `key` keeps its size: the key writer uses it as capacity
    tensors.clear();
    dims.clear();
    hash = 0;
  }
};

// Reads a tensor through the public API; throws Failure(kArguments) naming the argument on failure.
void ReadTensor(CallState& cs, const aclTensor* t, uint32_t arg, uint32_t elem, bool in_list,
                const std::vector<std::string>& names);
std::string ArgLabel(uint32_t arg, uint32_t elem, const std::vector<std::string>& names);
// Reads every tensor and writes the full key.
void BuildKey(CallState& cs, AnyFn phase1, int device, const ArgRef* args, size_t n,
              const std::vector<std::string>& names);
// Describes where two keys differ ("argument 1 'other': view shape [2,4] (cached: [2,3])"), and
// how many fields differ.
std::string DescribeDifference(const std::vector<uint64_t>& now, const std::vector<uint64_t>& cached,
                               const std::vector<std::string>& names, size_t* differing_fields);
bool SameOp(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b);

// ---- cache (cache.cpp) ----------------------------------------------------------------------------
struct Rebind {
  uint32_t rec;             // CallState::tensors index: where the address comes from
  aclTensor* tensor;        // the runner's copy bound to the executor
  aclTensorList* list;      // non-null: the copy is element `rel` of this list
  uint32_t index;           // aclSetTensorAddr index: position among all tensors
  uint32_t ir;              // aclSetDynamicTensorAddr irIndex: position among tensor/list parameters
  uint32_t rel;
};

struct Entry {
  std::vector<uint64_t> key;
  uint64_t hash = 0;
  std::string op;
  std::vector<std::string> names;
  Phase2Fn phase2 = nullptr;
  aclOpExecutor* executor = nullptr;
  uint64_t workspace = 0;
  std::string kernel;  // KernelName(executor), read once at plan time
  Owned owned;
  std::vector<Rebind> rebinds;
  std::vector<void*> bound;  // the address each rebind last set (under mu)
  // The stream of the latest launch and whether a synchronize has passed it (under mu): a launch
  // on another stream is ordered after it (one executor serves one launch at a time).
  std::weak_ptr<StreamState> last_stream;
  bool last_synced = true;
  std::shared_ptr<Fence> order_fence;  // the event the latest cross-stream launch waits on
  size_t bytes = 0;
  std::mutex mu;  // one call at a time: rebinding and phase 2
  // Shard bookkeeping (under the shard's lock).
  uint64_t last_use = 0;
  bool in_cache = false;
  Entry* lru_prev = nullptr;
  Entry* lru_next = nullptr;
  ~Entry();
};

class ExecutorCache;
ExecutorCache& Cache();
bool CacheEnabled();
bool CacheDebug();
bool CacheParity();
// A hit (moved to the front of its LRU) or nullptr.
std::shared_ptr<Entry> CacheFind(const CallState& cs);
// Inserts a freshly planned entry (counts the miss); evicts beyond capacity.
void CacheInsert(const std::shared_ptr<Entry>& e);
void CacheRemove(const std::shared_ptr<Entry>& e);
void CacheCountBypass();
void CacheCountParity(bool failed);
// Debug mode: why `cs` missed, relative to the nearest entry of the same op.
std::string CacheDiagnoseMiss(const CallState& cs, const std::string& op, const std::vector<std::string>& names);
void SetLastMiss(std::string why);

}  // namespace pacl::rn
