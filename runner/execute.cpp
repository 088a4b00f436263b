// One runner call: prepare (executor cache hit, or phase 1 on runner-owned copies), workspace,
// phase 2, synchronize or keep alive; and the by-name OpRunner on top of it.
#include <dlfcn.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "internal.h"

namespace pacl::rn {

namespace {

bool IsRaw(ArgKind k) { return k >= ArgKind::kRawTensorList; }

struct Ctx {
  Ctx(const detail::CallSpec& s, const ArgRef* a, size_t count, const OpRecord* record)
      : spec(s), args(a), n(count), op(record) {}
  const detail::CallSpec& spec;
  const ArgRef* args;
  size_t n;
  const OpRecord* op;  // by name; nullptr on the typed path
  AnyFn phase1 = nullptr;
  Phase2Fn phase2 = nullptr;
  std::string name;    // filled on demand
  bool have_names = false;
  std::vector<std::string> names;

  const std::string& Name() {
    if (name.empty()) name = op ? OpName(*op) : NameOfPhase1(phase1 ? phase1 : spec.phase1);
    return name;
  }
  // Parameter names from the signature table (empty when unknown).
  const std::vector<std::string>& Names() {
    if (op) return OpNames(*op);
    if (!have_names) {
      have_names = true;
      const OpRecord* r = FindOp(Name());
      if (r && OpParams(*r).size() == n) names = OpNames(*r);
    }
    return names;
  }
};

const std::vector<std::string> kNoNames;

std::string TensorSummary(const aclTensor* t) {
  if (!t) return "null";
  int64_t* d = nullptr;
  uint64_t n = 0;
  if (aclGetViewShape(t, &d, &n) != 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "<not a live aclTensor: %p>", static_cast<const void*>(t));
    return buf;
  }
  std::vector<int64_t> view(d, d + n);
  delete[] d;
  aclDataType dt = ACL_DT_UNDEFINED;
  aclGetDataType(t, &dt);
  std::string s = std::string(DTypeName(dt)) + Join(view.data(), view.size());
  int64_t* st = nullptr;
  uint64_t ns = 0;
  if (aclGetViewStrides(t, &st, &ns) == 0) {
    std::vector<int64_t> strides(st, st + ns);
    delete[] st;
    std::vector<int64_t> contiguous(view.size());
    int64_t acc = 1;
    for (size_t i = view.size(); i-- > 0;) {
      contiguous[i] = acc;
      acc *= std::max<int64_t>(view[i], 1);
    }
    if (strides != contiguous) s += "(strides " + Join(strides.data(), strides.size()) + ")";
  }
  int64_t off = 0;
  if (aclGetViewOffset(t, &off) == 0 && off != 0) s += "(offset " + std::to_string(off) + ")";
  aclFormat f = ACL_FORMAT_ND;
  if (aclGetFormat(t, &f) == 0 && f != ACL_FORMAT_ND) s += "(" + std::string(FormatName(f)) + ")";
  return s;
}

// "self=float32[2,3] other=float32[2,3] alpha=1(float32) out=float32[2,3]"
std::string Summary(const ArgRef* args, size_t n, const std::vector<std::string>& names) {
  std::string s;
  char buf[64];
  for (size_t k = 0; k < n; ++k) {
    const ArgRef& a = args[k];
    if (k) s += " ";
    s += (k < names.size() ? names[k] : "arg" + std::to_string(k)) + "=";
    switch (a.kind) {
      case ArgKind::kTensor: s += TensorSummary(static_cast<const aclTensor*>(a.ptr)); break;
      case ArgKind::kTensorList: {
        const auto* ts = static_cast<const aclTensor* const*>(a.ptr);
        s += "[";
        for (size_t e = 0; e < a.count && e < 4; ++e) s += (e ? ", " : "") + TensorSummary(ts[e]);
        if (a.count > 4) s += ", ... " + std::to_string(a.count) + " tensors";
        s += "]";
        break;
      }
      case ArgKind::kScalar: s += a.scalar.ToString(); break;
      case ArgKind::kScalarList: {
        const auto* ss = static_cast<const Scalar*>(a.ptr);
        s += "[";
        for (size_t e = 0; e < a.count && e < 8; ++e) s += (e ? "," : "") + ss[e].ToString();
        if (a.count > 8) s += ",...";
        s += "]";
        break;
      }
      case ArgKind::kIntArray: {
        const auto* v = static_cast<const int64_t*>(a.ptr);
        s += Join(v, std::min<size_t>(a.count, 16));
        if (a.count > 16) s.insert(s.size() - 1, ",...");
        break;
      }
      case ArgKind::kFloatArray: {
        const auto* v = static_cast<const float*>(a.ptr);
        s += "[";
        for (size_t e = 0; e < a.count && e < 16; ++e) {
          std::snprintf(buf, sizeof buf, "%s%g", e ? "," : "", static_cast<double>(v[e]));
          s += buf;
        }
        s += a.count > 16 ? ",...]" : "]";
        break;
      }
      case ArgKind::kBoolArray: {
        const auto* v = static_cast<const bool*>(a.ptr);
        s += "[";
        for (size_t e = 0; e < a.count && e < 16; ++e) s += std::string(e ? "," : "") + (v[e] ? "true" : "false");
        s += a.count > 16 ? ",...]" : "]";
        break;
      }
      case ArgKind::kInt:
        s += a.u64 ? std::to_string(static_cast<uint64_t>(a.i)) : std::to_string(a.i);
        break;
      case ArgKind::kDouble:
        std::snprintf(buf, sizeof buf, "%g", a.d);
        s += buf;
        break;
      case ArgKind::kBool: s += a.i ? "true" : "false"; break;
      case ArgKind::kDType: s += DTypeName(static_cast<aclDataType>(a.i)); break;
      case ArgKind::kString: s += a.ptr ? "\"" + std::string(static_cast<const char*>(a.ptr)) + "\"" : "null"; break;
      default: {
        static const char* kRawNames[] = {"aclTensorList*", "aclScalar*", "aclScalarList*", "aclIntArray*",
                                          "aclFloatArray*", "aclBoolArray*"};
        const size_t idx = static_cast<size_t>(a.kind) - static_cast<size_t>(ArgKind::kRawTensorList);
        std::snprintf(buf, sizeof buf, "<%s %p>", idx < 6 ? kRawNames[idx] : "handle", a.ptr);
        s += buf;
      }
    }
  }
  return s;
}

[[noreturn]] void Fail(Phase phase, int32_t code, std::string detail, std::string msg = {}) {
  throw Failure{Status(code ? code : kInner, phase, "", std::move(detail), {}, std::move(msg))};
}

void DisposeExecutor(aclOpExecutor* ex) {
  if (!ex) return;
  aclSetAclOpExecutorRepeatable(ex);
  aclDestroyAclOpExecutor(ex);
}

aclTensor* CloneTensor(const CallState& cs, const TensorRec& r, Ctx& ctx) {
  const int64_t* d = cs.dims.data();
  aclTensor* t = aclCreateTensor(r.ndim ? d + r.view_at : nullptr, r.ndim, r.dtype, r.ndim ? d + r.strides_at : nullptr,
                                 r.offset, r.format, r.sdim ? d + r.storage_at : nullptr, r.sdim, r.addr);
  if (!t)
    Fail(Phase::kCache, kInner, "aclCreateTensor failed copying the descriptor of " + ArgLabel(r.arg, r.elem, ctx.Names()),
         RecentAclMessage());
  return t;
}

// Phase-1 values for `ctx.args`. clone: tensors become runner-owned copies (read into `cs` by
// BuildKey; `rebinds` lists how to point them at a later call's addresses). Otherwise plain tensors
// are the caller's and only list elements are copied (read into `cs` here). Handles made go to
// `owned`.
std::vector<MatValue> Materialize(Ctx& ctx, CallState& cs, bool clone, Owned& owned, std::vector<Rebind>* rebinds) {
  std::vector<MatValue> vals(ctx.n);
  if (!clone) cs.Reset();
  size_t rec = 0;       // next CallState::tensors record (clone mode)
  uint32_t ir = 0;      // position among tensor and tensor-list parameters
  std::vector<std::pair<const aclTensor*, aclTensor*>> copies;  // plain tensors copied so far
  for (size_t k = 0; k < ctx.n; ++k) {
    const ArgRef& a = ctx.args[k];
    MatValue& v = vals[k];
    switch (a.kind) {
      case ArgKind::kTensor: {
        const auto* t = static_cast<const aclTensor*>(a.ptr);
        if (!clone || !t) {
          v.ptr = const_cast<aclTensor*>(t);
        } else {
          const TensorRec& r = cs.tensors[rec];
          aclTensor* c = nullptr;
          for (auto& p : copies)
            if (p.first == t) c = p.second;
          if (!c) {
            c = CloneTensor(cs, r, ctx);
            owned.tensors.push_back(c);
            copies.emplace_back(t, c);
            rebinds->push_back(Rebind{static_cast<uint32_t>(rec), c, nullptr, static_cast<uint32_t>(rec), ir, 0});
          }
          v.ptr = c;
          ++rec;
        }
        ++ir;
        break;
      }
      case ArgKind::kTensorList: {
        const auto* ts = static_cast<const aclTensor* const*>(a.ptr);
        std::vector<aclTensor*> elems(a.count, nullptr);
        std::vector<uint32_t> recs(a.count, UINT32_MAX);
        for (size_t e = 0; e < a.count; ++e) {
          if (!ts[e]) continue;
          if (!clone) {
            ReadTensor(cs, ts[e], static_cast<uint32_t>(k), static_cast<uint32_t>(e + 1), true, ctx.Names());
            recs[e] = static_cast<uint32_t>(cs.tensors.size() - 1);
          } else {
            recs[e] = static_cast<uint32_t>(rec++);
          }
          elems[e] = CloneTensor(cs, cs.tensors[recs[e]], ctx);
        }
        aclTensor* dummy = nullptr;
        aclTensorList* list = aclCreateTensorList(a.count ? const_cast<const aclTensor* const*>(elems.data()) : &dummy,
                                                  a.count);
        if (!list) {
          for (aclTensor* t : elems) aclDestroyTensor(t);
          Fail(Phase::kCache, kInner, "aclCreateTensorList failed for " + ArgLabel(static_cast<uint32_t>(k), 0, ctx.Names()),
               RecentAclMessage());
        }
        owned.tensor_lists.push_back(list);
        if (clone)
          for (size_t e = 0; e < a.count; ++e)
            if (elems[e])
              rebinds->push_back(Rebind{recs[e], elems[e], list, recs[e], ir, static_cast<uint32_t>(e)});
        v.ptr = list;
        ++ir;
        break;
      }
      case ArgKind::kScalar: {
        alignas(8) unsigned char bytes[8];
        std::memcpy(bytes, a.scalar.data(), 8);
        aclScalar* s = aclCreateScalar(bytes, a.scalar.dtype());
        if (!s) Fail(Phase::kCache, kInner, "aclCreateScalar failed for " + a.scalar.ToString(), RecentAclMessage());
        owned.scalars.push_back(s);
        v.ptr = s;
        break;
      }
      case ArgKind::kScalarList: {
        const auto* ss = static_cast<const Scalar*>(a.ptr);
        std::vector<aclScalar*> elems;
        for (size_t e = 0; e < a.count; ++e) {
          alignas(8) unsigned char bytes[8];
          std::memcpy(bytes, ss[e].data(), 8);
          aclScalar* s = aclCreateScalar(bytes, ss[e].dtype());
          if (!s) {
            for (aclScalar* x : elems) aclDestroyScalar(x);
            Fail(Phase::kCache, kInner, "aclCreateScalar failed for " + ss[e].ToString(), RecentAclMessage());
          }
          elems.push_back(s);
        }
        aclScalar* dummy = nullptr;
        aclScalarList* list =
            aclCreateScalarList(a.count ? const_cast<const aclScalar* const*>(elems.data()) : &dummy, a.count);
        if (!list) {
          for (aclScalar* x : elems) aclDestroyScalar(x);
          Fail(Phase::kCache, kInner, "aclCreateScalarList failed", RecentAclMessage());
        }
        owned.scalar_lists.push_back(list);
        v.ptr = list;
        break;
      }
      case ArgKind::kIntArray: {
        static const int64_t kNone = 0;
        aclIntArray* arr = aclCreateIntArray(a.count ? static_cast<const int64_t*>(a.ptr) : &kNone, a.count);
        if (!arr) Fail(Phase::kCache, kInner, "aclCreateIntArray failed", RecentAclMessage());
        owned.int_arrays.push_back(arr);
        v.ptr = arr;
        break;
      }
      case ArgKind::kFloatArray: {
        static const float kNone = 0;
        aclFloatArray* arr = aclCreateFloatArray(a.count ? static_cast<const float*>(a.ptr) : &kNone, a.count);
        if (!arr) Fail(Phase::kCache, kInner, "aclCreateFloatArray failed", RecentAclMessage());
        owned.float_arrays.push_back(arr);
        v.ptr = arr;
        break;
      }
      case ArgKind::kBoolArray: {
        static const bool kNone = false;
        aclBoolArray* arr = aclCreateBoolArray(a.count ? static_cast<const bool*>(a.ptr) : &kNone, a.count);
        if (!arr) Fail(Phase::kCache, kInner, "aclCreateBoolArray failed", RecentAclMessage());
        owned.bool_arrays.push_back(arr);
        v.ptr = arr;
        break;
      }
      case ArgKind::kInt:
      case ArgKind::kBool:
      case ArgKind::kDType: v.i = a.i; break;
      case ArgKind::kDouble: v.d = a.d; break;
      case ArgKind::kString: {
        if (!a.ptr) break;
        const auto* s = static_cast<const char*>(a.ptr);
        if (clone) {  // a cached executor may keep the pointer: give it runner-owned text
          const size_t len = std::strlen(s);
          std::unique_ptr<char[]> copy(new char[len + 1]);
          std::memcpy(copy.get(), s, len + 1);
          v.ptr = copy.get();
          owned.strings.push_back(std::move(copy));
        } else {
          v.ptr = const_cast<char*>(s);
        }
        break;
      }
      default: v.ptr = const_cast<void*>(a.ptr); break;  // raw handles, passed as given
    }
  }
  return vals;
}

// pacl's paclExecutorKernelName when the process has it (found once with dlsym): CANN has no such
// query, so on an NPU the kernel stays unnamed.
std::string KernelName(const aclOpExecutor* e) {
  using Fn = const char* (*)(const aclOpExecutor*);
  static const Fn fn = PaclExtension<Fn>("paclExecutorKernelName");
  const char* name = fn && e ? fn(e) : nullptr;
  return name ? name : "";
}

std::shared_ptr<Entry> Plan(Ctx& ctx, const detail::CallSpec& spec, CallState& cs) {
  auto e = std::make_shared<Entry>();
  e->key = cs.key;
  e->hash = cs.hash;
  e->op = ctx.Name();
  e->names = ctx.Names();
  e->phase2 = spec.phase2;
  std::vector<MatValue> vals = Materialize(ctx, cs, true, e->owned, &e->rebinds);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus rc = spec.invoke(spec, vals.data(), &ws, &ex);
  if (rc != 0)
    Fail(Phase::kPhase1, rc, "aclnn" + ctx.Name() + "GetWorkspaceSize rejected the arguments", RecentAclMessage());
  if (!ex) Fail(Phase::kPhase1, kInner, "aclnn" + ctx.Name() + "GetWorkspaceSize returned success but no executor");
  const aclnnStatus rr = aclSetAclOpExecutorRepeatable(ex);
  if (rr != 0) {
    const std::string msg = RecentAclMessage();
    aclDestroyAclOpExecutor(ex);
    Fail(Phase::kCache, rr, "aclSetAclOpExecutorRepeatable failed on the new executor", msg);
  }
  e->executor = ex;
  e->workspace = ws;
  e->kernel = KernelName(ex);
  e->bound.assign(e->rebinds.size(), nullptr);
  for (size_t i = 0; i < e->rebinds.size(); ++i) e->bound[i] = cs.tensors[e->rebinds[i].rec].addr;
  return e;
}

// A cached executor serves one launch at a time: when its latest launch was on another stream and
// no synchronize has passed it, that stream records an event which `st` waits for (work queued on
// that stream since then is waited for too). A stream that was forgotten has no pending work.
void OrderAfterLastLaunch(Entry& e, const StreamState& st) {
  if (e.last_synced) return;
  const std::shared_ptr<StreamState> last = e.last_stream.lock();
  if (!last || last.get() == &st) return;
  std::shared_ptr<Fence> f = Fence::Record(last->stream, last->device);
  if (f && f->OrderBefore(st.stream)) {
    e.order_fence = std::move(f);
    return;
  }
  aclrtSynchronizeStream(last->stream);  // no event to order with: wait on the host
}

void RebindAll(Ctx& ctx, Entry& e, const CallState& cs) {
  for (size_t i = 0; i < e.rebinds.size(); ++i) {
    const Rebind& r = e.rebinds[i];
    void* addr = cs.tensors[r.rec].addr;
    if (addr == e.bound[i]) continue;
    const aclnnStatus rc = r.list ? aclSetDynamicTensorAddr(e.executor, r.ir, r.rel, r.list, addr)
                                  : aclSetTensorAddr(e.executor, r.index, r.tensor, addr);
    if (rc != 0)
      Fail(Phase::kCache, rc,
           std::string(r.list ? "aclSetDynamicTensorAddr" : "aclSetTensorAddr") + " could not rebind " +
               ArgLabel(cs.tensors[r.rec].arg, cs.tensors[r.rec].elem, ctx.Names()) + " of the cached executor",
           RecentAclMessage());
    e.bound[i] = addr;
  }
}

// Parity mode: a fresh phase 1 on the call's own arguments must agree with the cached executor.
void ParityCheck(Ctx& ctx, const detail::CallSpec& spec, const std::shared_ptr<Entry>& e) {
  CallState scratch;
  Owned owned;
  std::vector<MatValue> vals = Materialize(ctx, scratch, false, owned, nullptr);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus rc = spec.invoke(spec, vals.data(), &ws, &ex);
  const std::string msg = rc ? RecentAclMessage() : std::string();
  DisposeExecutor(ex);
  const bool failed = rc != 0 || ws != e->workspace;
  CacheCountParity(failed);
  if (!failed) return;
  CacheRemove(e);
  if (rc != 0)
    Fail(Phase::kParity, rc, "the cached executor was reused, but a fresh aclnn" + ctx.Name() +
                                 "GetWorkspaceSize rejects this call's arguments (entry dropped)", msg);
  Fail(Phase::kParity, kInner,
       "the cached executor books a " + std::to_string(e->workspace) + "-byte workspace but a fresh aclnn" +
           ctx.Name() + "GetWorkspaceSize on the same key returns " + std::to_string(ws) + " bytes (entry dropped)");
}

PACL_RUNNER_TLS CallState t_state;
PACL_RUNNER_TLS bool t_state_busy = false;

struct StateLease {
  CallState* cs;
  std::unique_ptr<CallState> own;
  StateLease() {
    if (!t_state_busy) {
      t_state_busy = true;
      cs = &t_state;
    } else {
      own = std::make_unique<CallState>();
      cs = own.get();
    }
  }
  ~StateLease() {
    if (!own) t_state_busy = false;
  }
};

// Releases a workspace lease that phase 2 never saw (error paths).
struct LeaseGuard {
  Lease& lease;
  StreamState& s;
  bool armed = true;
  ~LeaseGuard() {
    if (!armed) return;
    AfterLaunch(lease, s);
    if (lease.raw) aclrtFree(lease.raw);
  }
};

Status RunCall(Ctx& ctx, RunInfo& ri, bool want_kernel) {
  const detail::CallSpec& spec0 = ctx.spec;
  detail::CallSpec spec = spec0;
  if (ctx.op) {
    CheckArguments(*ctx.op, ctx.args, ctx.n);
    ResolveOp(*ctx.op, &spec.phase1, &spec.phase2);
  }
  ctx.phase1 = spec.phase1;
  ctx.phase2 = spec.phase2;
  const aclrtStream stream = spec.options.stream;
  const int device = CurrentDevice();
  const WorkspaceStrategy strategy = Resolve(spec.options.workspace);
  std::shared_ptr<StreamState> st = GetStreamState(stream, device);
  MaybePoll(*st);

  bool cacheable = spec.options.cache && CacheEnabled();
  for (size_t k = 0; k < ctx.n && cacheable; ++k) cacheable = !IsRaw(ctx.args[k].kind);

  StateLease state;
  CallState& cs = *state.cs;
  std::shared_ptr<Entry> entry;
  aclOpExecutor* exec = nullptr;
  uint64_t ws = 0;
  std::unique_ptr<Owned> owned;
  if (cacheable) {
    BuildKey(cs, spec.phase1, device, ctx.args, ctx.n, ctx.op ? OpNames(*ctx.op) : kNoNames);
    entry = CacheFind(cs);
    if (entry) {
      ri.cache_hit = true;
      if (CacheParity()) ParityCheck(ctx, spec, entry);
    } else {
      if (CacheDebug()) SetLastMiss(CacheDiagnoseMiss(cs, ctx.Name(), ctx.Names()));
      entry = Plan(ctx, spec, cs);
      CacheInsert(entry);
    }
    ri.cached = true;
    ws = entry->workspace;
  } else {
    CacheCountBypass();
    owned = std::make_unique<Owned>();
    std::vector<MatValue> vals = Materialize(ctx, cs, false, *owned, nullptr);
    const aclnnStatus rc = spec.invoke(spec, vals.data(), &ws, &exec);
    if (rc != 0)
      Fail(Phase::kPhase1, rc, "aclnn" + ctx.Name() + "GetWorkspaceSize rejected the arguments", RecentAclMessage());
    if (!exec) Fail(Phase::kPhase1, kInner, "aclnn" + ctx.Name() + "GetWorkspaceSize returned success but no executor");
  }
  ri.workspace_size = ws;
  if (want_kernel) ri.kernel = entry ? entry->kernel : KernelName(exec);

  Lease lease;
  try {
    lease = AcquireWorkspace(strategy, ws, *st);
  } catch (...) {
    DisposeExecutor(exec);
    throw;
  }
  LeaseGuard guard{lease, *st};
  aclnnStatus rc;
  if (entry) {
    std::lock_guard<std::mutex> lock(entry->mu);
    OrderAfterLastLaunch(*entry, *st);
    RebindAll(ctx, *entry, cs);
    rc = spec.phase2(lease.ptr, ws, entry->executor, stream);
    entry->last_stream = st;
    entry->last_synced = false;
  } else {
    rc = spec.phase2(lease.ptr, ws, exec, stream);  // consumes the executor
  }
  std::string msg = rc != 0 ? RecentAclMessage() : std::string();
  guard.armed = false;
  AfterLaunch(lease, *st);

  Retained keep;
  keep.device_free = lease.raw;
  keep.owned = std::move(owned);
  if (rc != 0) {
    if (entry) keep.keep.push_back(entry);
    RetainUntilPassed(*st, std::move(keep));
    Fail(Phase::kPhase2, rc, "aclnn" + ctx.Name() + " failed to launch", msg);
  }
  if (spec.synchronize) {
    const uint64_t ticket = Ticket(*st);
    const aclError sr = aclrtSynchronizeStream(stream);
    if (sr != ACL_SUCCESS) {
      msg = RecentAclMessage();
      if (entry) keep.keep.push_back(entry);
      RetainUntilPassed(*st, std::move(keep));
      Fail(Phase::kSynchronize, sr, "aclrtSynchronizeStream after aclnn" + ctx.Name() + " failed", msg);
    }
    if (entry) {
      std::lock_guard<std::mutex> lock(entry->mu);
      if (entry->last_stream.lock() == st) entry->last_synced = true;
    }
    ReleaseSynchronized(*st, ticket);  // earlier launches on the stream have passed too
    return Status();  // `keep` (per-call workspace, owned handles) is released here: the op has run
  }
  if (keep.empty()) {
    if (entry) RetainEntry(*st, entry);  // the common case: no event of its own
    return Status();
  }
  if (entry) keep.keep.push_back(entry);
  if (!RetainUntilPassed(*st, std::move(keep)))
    Fail(Phase::kSynchronize, kInner,
         "could not record an event after aclnn" + ctx.Name() + " nor synchronize its stream to release its resources",
         RecentAclMessage());
  return Status();
}

Status Complete(Ctx& ctx, const Status& s) {
  std::string op = s.op().empty() ? ctx.Name() : s.op();
  std::string args = s.args();
  if (args.empty()) {
    try {
      args = Summary(ctx.args, ctx.n, ctx.Names());
    } catch (...) {
      args = "<summary unavailable>";
    }
  }
  return Status(s.code(), s.phase(), std::move(op), s.detail(), std::move(args), s.acl_message());
}

}  // namespace

}  // namespace pacl::rn

namespace pacl::detail {

Status Execute(const CallSpec& spec, const ArgRef* args, size_t count, RunInfo* info) noexcept {
  RunInfo local;
  RunInfo& ri = info ? *info : local;
  ri = RunInfo{};
  rn::Ctx ctx(spec, args, count, static_cast<const rn::OpRecord*>(spec.op));
  try {
    try {
      return rn::RunCall(ctx, ri, info != nullptr);
    } catch (const rn::Failure& f) {
      return rn::Complete(ctx, f.status);
    } catch (const RunnerError& e) {
      return rn::Complete(ctx, e.status());
    } catch (const std::bad_alloc&) {
      return rn::Complete(ctx, Status(rn::kInner, Phase::kInternal, "", "out of host memory"));
    } catch (const std::exception& e) {
      return rn::Complete(ctx, Status(rn::kInner, Phase::kInternal, "", e.what()));
    }
  } catch (...) {
    return Status(rn::kInner, Phase::kInternal, "", "unexpected failure inside the runner");
  }
}

}  // namespace pacl::detail

// ---- OpRunner ------------------------------------------------------------------------------------

namespace pacl {

struct OpRunner::Impl {
  struct Stored {
    detail::ArgKind kind = detail::ArgKind::kInt;
    bool output = false;
    bool u64 = false;
    const void* raw = nullptr;
    std::vector<const aclTensor*> tensors;
    std::vector<Scalar> scalars;
    std::vector<int64_t> ints;
    std::vector<float> floats;
    BoolArray bools;
    std::string str;
    bool has_str = false;
    int64_t i = 0;
    double d = 0;
    Scalar scalar;
  };
  std::string op;
  RunOptions options;
  std::vector<Stored> args;
  const rn::OpRecord* record = nullptr;

  Stored& Add(detail::ArgKind k) {
    args.emplace_back();
    args.back().kind = k;
    return args.back();
  }

  Status Execute(bool synchronize, RunInfo* info) {
    if (!record) record = rn::FindOp(op);
    if (!record) {
      std::string name = op;
      if (name.compare(0, 5, "aclnn") == 0) name = name.substr(5);
      return Status(rn::kParamInvalid, Phase::kResolve, name, rn::UnknownOpMessage(op));
    }
    std::vector<detail::ArgRef> refs(args.size());
    for (size_t k = 0; k < args.size(); ++k) {
      const Stored& s = args[k];
      detail::ArgRef& r = refs[k];
      r.kind = s.kind;
      r.output = s.output;
      r.u64 = s.u64;
      r.i = s.i;
      r.d = s.d;
      r.scalar = s.scalar;
      switch (s.kind) {
        case detail::ArgKind::kTensorList: r.ptr = s.tensors.data(); r.count = s.tensors.size(); break;
        case detail::ArgKind::kScalarList: r.ptr = s.scalars.data(); r.count = s.scalars.size(); break;
        case detail::ArgKind::kIntArray: r.ptr = s.ints.data(); r.count = s.ints.size(); break;
        case detail::ArgKind::kFloatArray: r.ptr = s.floats.data(); r.count = s.floats.size(); break;
        case detail::ArgKind::kBoolArray: r.ptr = s.bools.data(); r.count = s.bools.size(); break;
        case detail::ArgKind::kString: r.ptr = s.has_str ? s.str.c_str() : nullptr; break;
        default: r.ptr = s.raw; break;
      }
    }
    detail::CallSpec spec;
    spec.op = record;
    spec.invoke = &rn::FfiInvoke;
    spec.options = options;
    spec.synchronize = synchronize;
    return detail::Execute(spec, refs.data(), refs.size(), info);
  }
};

OpRunner::OpRunner(std::string op, aclrtStream stream) : impl_(std::make_unique<Impl>()) {
  impl_->op = std::move(op);
  impl_->options.stream = stream;
}
OpRunner::~OpRunner() = default;
OpRunner::OpRunner(OpRunner&&) noexcept = default;
OpRunner& OpRunner::operator=(OpRunner&&) noexcept = default;

OpRunner& OpRunner::AddInput(const aclTensor* tensor) {
  impl_->Add(detail::ArgKind::kTensor).raw = tensor;
  return *this;
}
OpRunner& OpRunner::AddOutput(const aclTensor* tensor) {
  auto& s = impl_->Add(detail::ArgKind::kTensor);
  s.raw = tensor;
  s.output = true;
  return *this;
}
OpRunner& OpRunner::AddTensorList(std::vector<const aclTensor*> tensors, bool output) {
  auto& s = impl_->Add(detail::ArgKind::kTensorList);
  s.tensors = std::move(tensors);
  s.output = output;
  return *this;
}
OpRunner& OpRunner::AddScalar(const Scalar& value) {
  impl_->Add(detail::ArgKind::kScalar).scalar = value;
  return *this;
}
OpRunner& OpRunner::AddScalarList(std::vector<Scalar> values) {
  impl_->Add(detail::ArgKind::kScalarList).scalars = std::move(values);
  return *this;
}
OpRunner& OpRunner::AddIntArray(std::vector<int64_t> values) {
  impl_->Add(detail::ArgKind::kIntArray).ints = std::move(values);
  return *this;
}
OpRunner& OpRunner::AddFloatArray(std::vector<float> values) {
  impl_->Add(detail::ArgKind::kFloatArray).floats = std::move(values);
  return *this;
}
OpRunner& OpRunner::AddBoolArray(const std::vector<bool>& values) {
  impl_->Add(detail::ArgKind::kBoolArray).bools = BoolArray(values);
  return *this;
}
OpRunner& OpRunner::AddRaw(int what, const void* raw) {
  static const detail::ArgKind kinds[] = {detail::ArgKind::kRawScalar,     detail::ArgKind::kRawTensorList,
                                          detail::ArgKind::kRawScalarList, detail::ArgKind::kRawIntArray,
                                          detail::ArgKind::kRawFloatArray, detail::ArgKind::kRawBoolArray};
  impl_->Add(kinds[what]).raw = raw;
  return *this;
}
OpRunner& OpRunner::AddIntAttr(int64_t value, bool too_big) {
  auto& s = impl_->Add(detail::ArgKind::kInt);
  s.i = value;
  s.u64 = too_big;
  return *this;
}
OpRunner& OpRunner::AddAttr(double value) {
  impl_->Add(detail::ArgKind::kDouble).d = value;
  return *this;
}
OpRunner& OpRunner::AddAttr(bool value) {
  impl_->Add(detail::ArgKind::kBool).i = value ? 1 : 0;
  return *this;
}
OpRunner& OpRunner::AddAttr(aclDataType value) {
  impl_->Add(detail::ArgKind::kDType).i = static_cast<int64_t>(value);
  return *this;
}
OpRunner& OpRunner::AddAttr(const char* value) {
  auto& s = impl_->Add(detail::ArgKind::kString);
  s.has_str = value != nullptr;
  if (value) s.str = value;
  return *this;
}
OpRunner& OpRunner::Stream(aclrtStream stream) {
  impl_->options.stream = stream;
  return *this;
}
OpRunner& OpRunner::Workspace(WorkspaceStrategy strategy) {
  impl_->options.workspace = strategy;
  return *this;
}
OpRunner& OpRunner::Cache(bool enabled) {
  impl_->options.cache = enabled;
  return *this;
}
OpRunner& OpRunner::ClearArgs() {
  impl_->args.clear();
  return *this;
}

RunInfo OpRunner::Run() {
  RunInfo info;
  const Status s = impl_->Execute(true, &info);
  if (!s.ok()) throw RunnerError(s);
  return info;
}
RunInfo OpRunner::Launch() {
  RunInfo info;
  const Status s = impl_->Execute(false, &info);
  if (!s.ok()) throw RunnerError(s);
  return info;
}
Status OpRunner::TryRun(RunInfo* info) noexcept {
  try {
    return impl_->Execute(true, info);
  } catch (...) {
    return Status(rn::kInner, Phase::kInternal, impl_->op, "unexpected failure inside the runner");
  }
}
Status OpRunner::TryLaunch(RunInfo* info) noexcept {
  try {
    return impl_->Execute(false, info);
  } catch (...) {
    return Status(rn::kInner, Phase::kInternal, impl_->op, "unexpected failure inside the runner");
  }
}

}  // namespace pacl
