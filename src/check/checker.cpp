// The contract checker: an Observer of the runtime (runtime/observer.h) that reports every misuse
// of the two-phase model it can prove from the program's own order of calls — never from timing.
//
// Happens-before. Each stream has a vector clock: for every stream, the number of its tasks known
// to have completed before the stream's next task starts. The host has one too. Queueing a task
// merges the host's clock into the stream's (the task starts after everything the host knew had
// finished); recording an event snapshots the stream's clock plus the record itself; waiting on an
// event merges the snapshot into the waiting stream; synchronizing a stream or an event merges
// into the host's clock. (PyTorch's CUDA sanitizer works the same way.)
//
// Accesses. Every queued task (op launch, async copy/memset) leaves a record per byte range it
// reads or writes in the allocation's state. A new access conflicts with a record when one of the
// two writes and the record's task is not ordered before the accessor (same stream, or covered by
// the accessor's clock). The host accesses memory in aclrtMemcpy/aclrtMemset (reads and writes)
// and aclrtFree (as a write of the whole block); records the host's clock covers are dropped at
// each synchronization, so a program that synchronizes keeps almost no state.
//
// Level 2 adds guard bytes after every device allocation (checked after each task that touched
// the allocation and at free), poisoned and quarantined freed blocks, freshly allocated memory
// filled with 0xff (NaN for floats), and a per-byte "initialized" shadow: memcpy, memset and op
// outputs initialize bytes, op inputs and device-to-host copies must read initialized bytes.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "check/origin.h"
#include "pacl/check.h"
#include "runtime/memory.h"
#include "runtime/observer.h"
#include "runtime/stream.h"

namespace pacl::check {

namespace {

constexpr unsigned char kGuardByte = 0xfd;
constexpr unsigned char kFreshByte = 0xff;
constexpr size_t kGuardBytes = 64;
constexpr size_t kMaxQuarantine = size_t{256} << 20;
constexpr size_t kMaxReports = 10000;
constexpr int kMaxLeakReportsPerKind = 10;

struct Config {
  int level = 0;
  bool fatal = false;
  bool quiet = false;
  std::string log;
};

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

// The environment wins over aclInit's config file.
Config read_config(const char* config_path) {
  Config c;
  if (config_path && *config_path) {
    std::ifstream in(config_path);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("pacl_check") && j["pacl_check"].is_object()) {
      const auto& pc = j["pacl_check"];
      if (pc.contains("level") && pc["level"].is_number_integer()) c.level = pc["level"].get<int>();
      if (pc.contains("fatal") && pc["fatal"].is_boolean()) c.fatal = pc["fatal"].get<bool>();
      if (pc.contains("log") && pc["log"].is_string()) c.log = pc["log"].get<std::string>();
    }
  }
  if (const char* v = std::getenv("PACL_CHECK"); v && *v) c.level = std::atoi(v);
  if (std::getenv("PACL_CHECK_FATAL")) c.fatal = env_flag("PACL_CHECK_FATAL");
  if (const char* v = std::getenv("PACL_CHECK_LOG"); v && *v) c.log = v;
  c.quiet = env_flag("PACL_CHECK_QUIET");
  c.level = std::clamp(c.level, 0, 2);
  return c;
}

// ---- reports ------------------------------------------------------------------------------------

struct Report {
  std::string kind, text;
};

class Reports {
 public:
  void configure(const Config& c) {
    std::lock_guard<std::mutex> lock(mu_);
    fatal_ = c.fatal;
    quiet_ = c.quiet;
    if (!c.log.empty()) log_.reset(std::fopen(c.log.c_str(), "a"));
  }
  void emit(const std::string& kind, const std::string& api, const std::string& argument, const std::string& message,
            const std::string& origin, const std::string& fix) {
    std::string text = fmt::format("pacl check: {} in {}{}:\n  {}", kind, api,
                                   argument.empty() ? "" : " (" + argument + ")", message);
    if (!origin.empty()) text += "\n  " + origin;
    if (!fix.empty()) text += "\n  fix: " + fix;
    std::lock_guard<std::mutex> lock(mu_);
    if (!quiet_) std::fprintf(stderr, "%s\n", text.c_str());
    if (log_) {
      const nlohmann::json j = {{"kind", kind},       {"api", api},       {"argument", argument},
                                {"message", message}, {"origin", origin}, {"fix", fix}};
      std::fprintf(log_.get(), "%s\n", j.dump().c_str());
      std::fflush(log_.get());
    }
    list_.push_back(Report{kind, std::move(text)});
    if (list_.size() > kMaxReports) list_.pop_front();
    if (fatal_) {
      std::fprintf(stderr, "pacl check: stopping at the first report (PACL_CHECK_FATAL)\n");
      std::fflush(stderr);
      std::abort();
    }
  }
  int count() {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int>(list_.size());
  }
  const char* kind(int i) {
    std::lock_guard<std::mutex> lock(mu_);
    return i >= 0 && i < static_cast<int>(list_.size()) ? list_[static_cast<size_t>(i)].kind.c_str() : nullptr;
  }
  const char* text(int i) {
    std::lock_guard<std::mutex> lock(mu_);
    return i >= 0 && i < static_cast<int>(list_.size()) ? list_[static_cast<size_t>(i)].text.c_str() : nullptr;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mu_);
    list_.clear();
  }

 private:
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::mutex mu_;
  bool fatal_ = false, quiet_ = false;
  std::unique_ptr<std::FILE, FileCloser> log_;
  std::deque<Report> list_;
};

Reports& reports() {
  static Reports* r = new Reports;  // outlives every static destructor (late frees still report)
  return *r;
}

// ---- state --------------------------------------------------------------------------------------

using Clock = std::vector<uint64_t>;

void merge(Clock& into, const Clock& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}
uint64_t at(const Clock& c, int stream) {
  return stream >= 0 && static_cast<size_t>(stream) < c.size() ? c[static_cast<size_t>(stream)] : 0;
}

constexpr int kHost = -1;

struct Record {
  int stream;
  uint64_t seq;
  uintptr_t lo, hi;
  bool read, write;
  std::string what;
};

struct AllocState {
  Allocation a;
  bool host = false;
  bool leak_reported = false;
  Origin origin;
  std::vector<Record> records;
  std::vector<uint64_t> init;  // level 2: one bit per byte of the requested size
};

struct StreamState {
  const Stream* s = nullptr;
  Origin origin;
  bool user = false;  // created by aclrtCreateStream* (a default stream is the runtime's)
  bool alive = true;
  bool leak_reported = false;
  int device = 0;
  uint64_t seq = 0;   // highest task number seen
  uint64_t done = 0;  // highest task number that ran (level 2 guard checks)
  Clock clock;        // what this stream's next task is ordered after
  std::string last;   // the latest task, for messages
};

struct EventState {
  Origin origin;
  bool recorded = false;
  Clock snapshot;
};

struct ObjectState {
  std::string kind;
  Origin origin;
  int stream = -1;  // the latest queued work that uses it
  uint64_t seq = 0;
  std::string use;
  bool repeatable = false;
  std::vector<const void*> tensors;  // an executor: the tensors it is bound to
  std::set<const void*> bound_by;    // a tensor: the live repeatable executors bound to it
};

std::string hex(uintptr_t p) { return fmt::format("{:#x}", p); }

// ---- the checker --------------------------------------------------------------------------------

class Checker final : public Observer {
 public:
  explicit Checker(Config c) : cfg_(std::move(c)) { reports().configure(cfg_); }

  int level() const { return cfg_.level; }

  size_t device_guard_bytes() const override { return cfg_.level >= 2 ? kGuardBytes : 0; }
  size_t device_quarantine_bytes() const override { return cfg_.level >= 2 ? kMaxQuarantine : 0; }

  // ---- memory ----

  void device_allocated(const Allocation& a, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    AllocState st;
    st.a = a;
    st.origin = Origin::capture(api);
    if (cfg_.level >= 2) {
      char* p = reinterpret_cast<char*>(a.base);
      std::memset(p, kFreshByte, a.requested);
      std::memset(p + a.requested, kGuardByte, a.usable + a.guard - a.requested);
      st.init.assign((a.requested + 63) / 64, 0);
    }
    allocs_[a.base] = std::move(st);
  }

  void device_freeing(const Allocation& a, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = allocs_.find(a.base);
    if (it == allocs_.end()) return;
    AllocState& st = it->second;
    host_touch(st, api, "devPtr", a.base, a.base + a.usable, /*write=*/true, "use-after-free");
    if (cfg_.level >= 2) check_guard(st, api);
    dirty_.erase(a.base);
    allocs_.erase(it);
  }

  void host_allocated(void* p, size_t size, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    AllocState st;
    st.a = Allocation{reinterpret_cast<uintptr_t>(p), size, size, -1, 0};
    st.host = true;
    st.origin = Origin::capture(api);
    allocs_[st.a.base] = std::move(st);
  }

  void host_freeing(void* p, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = allocs_.find(reinterpret_cast<uintptr_t>(p));
    if (it == allocs_.end()) return;
    host_touch(it->second, api, "hostPtr", it->second.a.base, it->second.a.base + it->second.a.usable, true,
               "use-after-free");
    dirty_.erase(it->first);
    allocs_.erase(it);
  }

  // ---- work ----

  void host_access(const char* api, const std::vector<MemAccess>& accesses) override {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t task_seq = 0;
    const Stream* task = Stream::running_task(&task_seq);  // a callback: in stream order
    for (const MemAccess& m : accesses) {
      AllocState* st = find(m.lo);
      if (!st) continue;
      const char* arg = m.what.c_str() + std::min(m.what.size(), std::strlen(api) + 1);
      if (task) stream_check(*st, id_of(*task), m);
      else host_touch(*st, api, arg, m.lo, m.hi, m.write, m.write ? "write-before-sync" : "read-before-sync");
      if (cfg_.level >= 2 && !st->host) shadow(*st, m, api, copy_peer(accesses, m));
    }
  }

  void enqueued(Stream& s, uint64_t seq, const char* api, const std::vector<MemAccess>& accesses) override {
    std::lock_guard<std::mutex> lock(mu_);
    const int id = id_of(s);
    StreamState& ss = streams_[static_cast<size_t>(id)];
    merge(ss.clock, host_);
    ss.seq = std::max(ss.seq, seq);
    ss.last = accesses.empty() ? std::string(api) : accesses.front().what;
    std::vector<uintptr_t> touched;
    for (const MemAccess& m : accesses) {
      if (m.object) {
        ObjectState& o = objects_[m.object];
        o.stream = id;
        o.seq = seq;
        o.use = m.what;
      }
      AllocState* st = find(m.lo);
      if (!st) continue;
      stream_touch(*st, id, seq, m);
      if (cfg_.level >= 2 && !st->host) {
        shadow(*st, m, api, copy_peer(accesses, m));
        touched.push_back(st->a.base);
      }
    }
    if (cfg_.level >= 2 && !touched.empty()) {
      const std::string what = fmt::format("{} on stream {} (task #{})", ss.last, stream_name(id), seq);
      if (seq <= ss.done) check_guards(touched, what);
      else guard_checks_[{id, seq}] = GuardCheck{std::move(touched), what};
    }
  }

  void task_done(Stream& s, uint64_t seq) override {
    if (cfg_.level < 2) return;
    std::lock_guard<std::mutex> lock(mu_);
    const int id = id_of(s);
    StreamState& ss = streams_[static_cast<size_t>(id)];
    ss.done = std::max(ss.done, seq);
    auto it = guard_checks_.find({id, seq});
    if (it == guard_checks_.end()) return;
    GuardCheck g = std::move(it->second);
    guard_checks_.erase(it);
    check_guards(g.bases, g.what);
  }

  // ---- ordering ----

  void stream_created(Stream& s, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    stream_ids_.erase(&s);  // a new stream at a reused address
    StreamState& ss = streams_[static_cast<size_t>(id_of(s))];
    ss.user = true;
    ss.origin = Origin::capture(api);
  }

  void stream_destroying(Stream& s, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    const int id = id_of(s);
    StreamState& ss = streams_[static_cast<size_t>(id)];
    if (at(host_, id) < ss.seq)
      emit("use-after-free", api, fmt::format("stream {}", static_cast<const void*>(&s)),
           fmt::format("the stream is destroyed while {} of its tasks have not been synchronized (the latest: {}, "
                       "task #{})",
                       ss.seq - at(host_, id), ss.last, ss.seq),
           "the stream: " + ss.origin.describe(),
           "call aclrtSynchronizeStream(stream) before aclrtDestroyStream(stream)");
    // pacl drains the stream before destroying it: from here on its work is complete.
    learn(id, ss.seq);
    ss.alive = false;
    stream_ids_.erase(&s);
  }

  void host_synced(Stream& s, uint64_t seq) override {
    std::lock_guard<std::mutex> lock(mu_);
    learn(id_of(s), seq);
  }

  void event_recorded(Event& e, Stream& s, uint64_t seq) override {
    std::lock_guard<std::mutex> lock(mu_);
    const int id = id_of(s);
    StreamState& ss = streams_[static_cast<size_t>(id)];
    merge(ss.clock, host_);
    ss.seq = std::max(ss.seq, seq);
    EventState& es = events_[&e];
    es.recorded = true;
    es.snapshot = ss.clock;
    if (es.snapshot.size() <= static_cast<size_t>(id)) es.snapshot.resize(static_cast<size_t>(id) + 1, 0);
    es.snapshot[static_cast<size_t>(id)] = std::max(es.snapshot[static_cast<size_t>(id)], seq);
  }

  void stream_waited(Stream& s, Event& e) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = events_.find(&e);
    if (it == events_.end() || !it->second.recorded) return;
    merge(streams_[static_cast<size_t>(id_of(s))].clock, it->second.snapshot);
  }

  void host_synced_event(Event& e) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = events_.find(&e);
    if (it == events_.end() || !it->second.recorded) return;
    merge(host_, it->second.snapshot);
    prune();
  }

  void event_created(Event& e, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    EventState& es = events_[&e];
    es = EventState{};
    es.origin = Origin::capture(api);
  }

  void event_destroying(Event& e, const char*) override {
    std::lock_guard<std::mutex> lock(mu_);
    events_.erase(&e);
  }

  // ---- lifetimes ----

  void object_created(const void* obj, const char* kind, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    ObjectState& o = objects_[obj];
    o = ObjectState{};
    o.kind = kind;
    const std::string creator = api                                   ? std::string(api)
                                : std::string(kind) == "aclOpExecutor" ? std::string("phase 1 (aclnn*GetWorkspaceSize)")
                                                                       : "aclCreate" + std::string(kind + 3);
    o.origin = Origin::capture(creator.c_str());
  }

  // An executor destroyed while its launch is queued, or a tensor destroyed while a live
  // repeatable executor is bound to it (the executor reads the tensor at each launch: CANN's
  // replay takes the storage address from it). A tensor used only by finished or non-repeatable
  // launches may go right after phase 2.
  void object_destroying(const void* obj, const char* kind, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = objects_.find(obj);
    if (it == objects_.end()) return;
    ObjectState& o = it->second;
    const bool executor = o.kind == "aclOpExecutor";
    if (api && executor && o.stream >= 0 && at(host_, o.stream) < o.seq)
      emit("use-after-free", api, fmt::format("{} {}", kind, obj),
           fmt::format("the executor is destroyed while its launch has not been synchronized: {} on stream {} (task "
                       "#{})",
                       o.use, stream_name(o.stream), o.seq),
           "the executor: " + o.origin.describe(),
           "synchronize the stream (aclrtSynchronizeStream) before aclDestroyAclOpExecutor");
    if (api && !executor && !o.bound_by.empty()) {
      const void* ex = *o.bound_by.begin();
      const ObjectState& e = objects_[ex];
      const bool pending = e.stream >= 0 && at(host_, e.stream) < e.seq;
      emit(pending ? "use-after-free" : "executor-misuse", api, fmt::format("{} {}", kind, obj),
           pending ? fmt::format("the tensor is destroyed while the repeatable executor bound to it has a launch that "
                                 "has not been synchronized: {} on stream {} (task #{})",
                                 e.use, stream_name(e.stream), e.seq)
                   : fmt::format("the tensor is destroyed while the repeatable executor {} is still bound to it (wrong "
                                 "release order): its next launch or aclSet*TensorAddr would use a destroyed tensor",
                                 ex),
           "the tensor: " + o.origin.describe(),
           "synchronize, then destroy the repeatable executor (aclDestroyAclOpExecutor) before the tensors it uses");
    }
    if (executor)
      for (const void* t : o.tensors)
        if (auto ti = objects_.find(t); ti != objects_.end()) ti->second.bound_by.erase(obj);
    for (const void* ex : o.bound_by)
      if (auto ei = objects_.find(ex); ei != objects_.end()) {
        auto& v = ei->second.tensors;
        v.erase(std::remove(v.begin(), v.end(), obj), v.end());
      }
    objects_.erase(it);
  }

  void executor_launched(const void* executor, const char* op, bool repeatable, Stream& s, uint64_t seq,
                         const std::vector<const void*>& tensors) override {
    std::lock_guard<std::mutex> lock(mu_);
    const int id = id_of(s);
    ObjectState& o = objects_[executor];
    o.repeatable = repeatable;
    if (repeatable && o.tensors.empty()) {
      o.tensors = tensors;
      for (const void* t : tensors)
        if (auto ti = objects_.find(t); ti != objects_.end()) ti->second.bound_by.insert(executor);
    }
    if (repeatable && o.stream >= 0 && o.stream != id &&
        at(streams_[static_cast<size_t>(id)].clock, o.stream) < o.seq)
      emit("executor-misuse", fmt::format("aclnn{}", op), fmt::format("executor {}", executor),
           fmt::format("the repeatable executor is launched on stream {} while its previous launch on stream {} "
                       "(task #{}) is not ordered before it: one executor and its workspace serve one launch at a "
                       "time",
                       static_cast<const void*>(&s), stream_name(o.stream), o.seq),
           "the executor: " + o.origin.describe(),
           "order the launches (record an event after the first and make the second stream wait for it), or plan "
           "one executor per stream");
    o.stream = id;
    o.seq = seq;
    o.use = fmt::format("aclnn{} (executor {})", op, executor);
  }

  void contract_error(const char* kind, const char* api, const std::string& message, const std::string& fix) override {
    std::lock_guard<std::mutex> lock(mu_);
    emit(kind, api, "", message, "", fix);
  }

  void device_resetting(int device, const char* api) override {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t id = 0; id < streams_.size(); ++id) {
      StreamState& ss = streams_[id];
      if (!ss.alive || ss.device != device || at(host_, static_cast<int>(id)) >= ss.seq) continue;
      emit("use-after-free", api, fmt::format("device {}", device),
           fmt::format("the device is reset while stream {} has {} unsynchronized tasks (the latest: {})",
                       static_cast<const void*>(ss.s), ss.seq - at(host_, static_cast<int>(id)), ss.last),
           "the stream: " + ss.origin.describe(), "synchronize the device (aclrtSynchronizeDevice) before resetting it");
    }
    report_leaks(api, device);
  }

  void finalizing() override {
    std::lock_guard<std::mutex> lock(mu_);
    report_leaks("aclFinalize", -1);
  }

 private:
  struct GuardCheck {
    std::vector<uintptr_t> bases;
    std::string what;
  };

  void emit(const std::string& kind, const std::string& api, const std::string& arg, const std::string& msg,
            const std::string& origin, const std::string& fix) {
    reports().emit(kind, api, arg, msg, origin, fix);
  }

  int id_of(const Stream& s) {
    auto it = stream_ids_.find(&s);
    if (it != stream_ids_.end()) return it->second;
    const int id = static_cast<int>(streams_.size());
    StreamState ss;
    ss.s = &s;
    ss.device = s.device();
    ss.origin = Origin::capture("the default stream (created on first use)");
    streams_.push_back(std::move(ss));
    stream_ids_[&s] = id;
    return id;
  }

  std::string stream_name(int id) const {
    if (id < 0) return "the host";
    const StreamState& ss = streams_[static_cast<size_t>(id)];
    if (!ss.user) return fmt::format("{} (the default stream of device {})", static_cast<const void*>(ss.s), ss.device);
    return fmt::format("{}", static_cast<const void*>(ss.s));
  }

  AllocState* find(uintptr_t p) {
    auto it = allocs_.upper_bound(p);
    if (it == allocs_.begin()) return nullptr;
    --it;
    const AllocState& st = it->second;
    if (p >= st.a.base + std::max<size_t>(st.a.usable, 1)) return nullptr;
    return &it->second;
  }

  // The host learned that tasks 1..seq of stream id completed, and so everything they waited for.
  void learn(int id, uint64_t seq) {
    if (host_.size() <= static_cast<size_t>(id)) host_.resize(static_cast<size_t>(id) + 1, 0);
    host_[static_cast<size_t>(id)] = std::max(host_[static_cast<size_t>(id)], seq);
    merge(host_, streams_[static_cast<size_t>(id)].clock);
    prune();
  }

  // Drops the records of tasks the host knows completed: every later access is ordered after them.
  void prune() {
    for (auto it = dirty_.begin(); it != dirty_.end();) {
      auto a = allocs_.find(*it);
      if (a == allocs_.end()) {
        it = dirty_.erase(it);
        continue;
      }
      auto& rec = a->second.records;
      rec.erase(std::remove_if(rec.begin(), rec.end(), [&](const Record& r) { return at(host_, r.stream) >= r.seq; }),
                rec.end());
      it = rec.empty() ? dirty_.erase(it) : std::next(it);
    }
  }

  // A host access (copy, memset, free) of [lo, hi): conflicts with unsynchronized queued work.
  void host_touch(AllocState& st, const char* api, const char* arg, uintptr_t lo, uintptr_t hi, bool write,
                  const char* kind) {
    for (const Record& r : st.records) {
      if (r.hi <= lo || hi <= r.lo || at(host_, r.stream) >= r.seq || !(write || r.write)) continue;
      const bool freeing = std::strcmp(kind, "use-after-free") == 0;
      std::string msg, fix;
      if (freeing) {
        msg = fmt::format("the memory is released while queued work still uses it: {} on stream {} (task #{}) has "
                          "not been synchronized",
                          r.what, stream_name(r.stream), r.seq);
        fix = fmt::format("synchronize the stream (aclrtSynchronizeStream) before {}", api);
      } else if (!write) {
        msg = fmt::format("the host reads [{}, +{}) which queued work will still write: {} on stream {} (task #{}) "
                          "has not been synchronized, so the data read may be stale",
                          hex(lo), hi - lo, r.what, stream_name(r.stream), r.seq);
        fix = "call aclrtSynchronizeStream(stream) (or synchronize an event recorded after that work) before reading "
              "the result";
      } else {
        msg = fmt::format("the host writes [{}, +{}) which queued work still {}: {} on stream {} (task #{}) has not "
                          "been synchronized",
                          hex(lo), hi - lo, r.write ? "writes" : "reads", r.what, stream_name(r.stream), r.seq);
        fix = "synchronize the stream before overwriting memory that queued work uses";
      }
      emit(kind, api, fmt::format("{} {}", arg, hex(lo)), msg, memory_origin(st), fix);
      return;  // one report per access
    }
  }

  // A queued task's access: conflicts with unordered work on other streams; leaves a record.
  void stream_touch(AllocState& st, int id, uint64_t seq, const MemAccess& m) {
    stream_check(st, id, m);
    auto& rec = st.records;
    // A later access of the same stream supersedes earlier records it covers (stream order is total).
    rec.erase(std::remove_if(rec.begin(), rec.end(),
                             [&](const Record& r) {
                               return r.stream == id && r.lo >= m.lo && r.hi <= m.hi && (m.write || !r.write);
                             }),
              rec.end());
    rec.push_back(Record{id, seq, m.lo, m.hi, m.read, m.write, m.what});
    dirty_.insert(st.a.base);
  }

  // Reports the first record of another stream that conflicts with access m by stream id.
  void stream_check(AllocState& st, int id, const MemAccess& m) {
    const Clock& clock = streams_[static_cast<size_t>(id)].clock;
    for (const Record& r : st.records) {
      if (r.hi <= m.lo || m.hi <= r.lo || r.stream == id || at(clock, r.stream) >= r.seq || !(m.write || r.write))
        continue;
      const bool workspace = m.what.find(" workspace") != std::string::npos || r.what.find(" workspace") != std::string::npos;
      emit("cross-stream-race", m.what, fmt::format("stream {}", stream_name(id)),
           fmt::format("{} on stream {} {} [{}, +{}) which {} on stream {} (task #{}) {}, and nothing orders the "
                       "two{}",
                       m.what, stream_name(id), m.write ? "writes" : "reads", hex(std::max(m.lo, r.lo)),
                       std::min(m.hi, r.hi) - std::max(m.lo, r.lo), r.what, stream_name(r.stream), r.seq,
                       r.write ? "writes" : "reads",
                       workspace ? " (a workspace used by two launches at once)" : ""),
           memory_origin(st),
           fmt::format("record an event on stream {} after the first and make stream {} wait for it "
                       "(aclrtRecordEvent + aclrtStreamWaitEvent), or synchronize in between",
                       stream_name(r.stream), stream_name(id)));
      return;
    }
  }

  std::string memory_origin(const AllocState& st) const {
    return fmt::format("the memory ({} bytes at {}): {}", st.a.requested, hex(st.a.base), st.origin.describe());
  }

  // ---- level 2: guards and the initialized shadow ----

  void check_guard(AllocState& st, const std::string& when) {
    unsigned char* p = reinterpret_cast<unsigned char*>(st.a.base);
    const size_t end = st.a.usable + st.a.guard;
    for (size_t i = st.a.requested; i < end; ++i) {
      if (p[i] == kGuardByte) continue;
      emit("overrun", when, fmt::format("{} bytes at {}", st.a.requested, hex(st.a.base)),
           fmt::format("byte {} past the end of the allocation was overwritten (found {:#04x}, the guard pattern is "
                       "{:#04x}): something wrote past the {} bytes that were allocated (found when this call "
                       "finished)",
                       i - st.a.requested, p[i], kGuardByte, st.a.requested),
           memory_origin(st),
           "size the buffer for everything written to it (for a workspace: the size phase 1 returned); a kernel "
           "that overruns by itself is a pacl bug: please report it");
      std::memset(p + st.a.requested, kGuardByte, end - st.a.requested);  // re-arm: one report per overrun
      return;
    }
  }

  void check_guards(const std::vector<uintptr_t>& bases, const std::string& what) {
    for (uintptr_t b : bases) {
      auto it = allocs_.find(b);
      if (it != allocs_.end()) check_guard(it->second, what);
    }
  }

  // Calls f(offset, length) for each contiguous byte run of an access, relative to the allocation.
  template <typename F>
  static void for_each_run(const AllocState& st, const MemAccess& m, F&& f) {
    const size_t base = m.lo - st.a.base;
    if (m.elem_size == 0 || m.dims.empty()) {
      f(base, m.hi - m.lo);
      return;
    }
    const size_t n = m.dims.size();
    // Merge trailing contiguous dims into one run.
    int64_t run = static_cast<int64_t>(m.elem_size);
    size_t k = n;
    int64_t expect = 1;
    while (k > 0 && (m.dims[k - 1] == 1 || m.strides[k - 1] == expect)) {
      expect *= m.dims[k - 1];
      --k;
    }
    run *= expect;
    std::vector<int64_t> idx(k, 0);
    for (;;) {
      int64_t off = 0;
      for (size_t d = 0; d < k; ++d) off += idx[d] * m.strides[d];
      f(base + static_cast<size_t>(off) * m.elem_size, static_cast<size_t>(run));
      size_t d = k;
      while (d > 0 && ++idx[d - 1] == m.dims[d - 1]) idx[--d] = 0;
      if (d == 0) return;
    }
  }

  static bool bit(const std::vector<uint64_t>& v, size_t i) { return (v[i / 64] >> (i % 64)) & 1u; }
  // Sets bits [from, to).
  static void set_range(std::vector<uint64_t>& v, size_t from, size_t to) {
    while (from < to && from % 64) v[from / 64] |= uint64_t{1} << (from % 64), ++from;
    for (; from + 64 <= to; from += 64) v[from / 64] = ~uint64_t{0};
    for (; from < to; ++from) v[from / 64] |= uint64_t{1} << (from % 64);
  }
  // The first clear bit in [from, to), or SIZE_MAX.
  static size_t first_clear(const std::vector<uint64_t>& v, size_t from, size_t to) {
    for (; from < to && from % 64; ++from)
      if (!bit(v, from)) return from;
    for (; from + 64 <= to; from += 64)
      if (v[from / 64] != ~uint64_t{0}) break;
    for (; from < to; ++from)
      if (!bit(v, from)) return from;
    return SIZE_MAX;
  }

  // The other side of a copy (its source for the destination and the reverse); null for an op.
  static const MemAccess* copy_peer(const std::vector<MemAccess>& acc, const MemAccess& m) {
    if (acc.size() != 2 || acc[0].object || acc[1].object || acc[0].write == acc[1].write) return nullptr;
    return &m == &acc[0] ? &acc[1] : &acc[0];
  }

  // Reads must find initialized bytes; writes initialize. A device-to-device copy moves the
  // source's state to the destination instead of checking it (copying a partly written buffer is
  // not a use of garbage); a copy to the host reads the values, so it is checked.
  void shadow(AllocState& st, const MemAccess& m, const char* api, const MemAccess* peer) {
    const size_t limit = st.a.requested;
    AllocState* peer_st = peer ? find(peer->lo) : nullptr;
    const bool device_peer = peer_st && !peer_st->host;
    if (m.write) {
      for_each_run(st, m, [&](size_t off, size_t len) {
        const size_t end = std::min(off + len, limit);
        if (!device_peer) {
          if (off < end) set_range(st.init, off, end);
          return;
        }
        for (size_t i = off; i < end; ++i) {
          const size_t j = peer->lo - peer_st->a.base + (i - (m.lo - st.a.base));
          if (j < peer_st->a.requested && bit(peer_st->init, j)) st.init[i / 64] |= uint64_t{1} << (i % 64);
        }
      });
      return;
    }
    if (!m.read || device_peer) return;
    size_t bad = SIZE_MAX;
    for_each_run(st, m, [&](size_t off, size_t len) {
      if (bad == SIZE_MAX && off < std::min(off + len, limit)) bad = first_clear(st.init, off, std::min(off + len, limit));
    });
    if (bad == SIZE_MAX) return;
    emit("uninitialized-read", api, m.what,
         fmt::format("byte {} of the allocation ({} bytes at {}) is read but was never written (by aclrtMemcpy, "
                     "aclrtMemset or an op): the value is garbage (0xff, NaN for floats)",
                     bad, st.a.requested, hex(st.a.base)),
         memory_origin(st), "write the input (copy data in, aclrtMemset, or compute it) before an op reads it");
  }

  void report_leaks(const char* api, int device) {
    int n = 0;
    size_t bytes = 0, count = 0;
    for (auto& [base, st] : allocs_) {
      if (st.leak_reported || (device >= 0 && (st.host || st.a.device != device))) continue;
      st.leak_reported = true;
      ++count;
      bytes += st.a.requested;
      if (n++ < kMaxLeakReportsPerKind)
        emit("leak", api, fmt::format("{} memory {}", st.host ? "host" : "device", hex(base)),
             fmt::format("{} bytes of {} memory were never freed", st.a.requested, st.host ? "host" : "device"),
             memory_origin(st), st.host ? "free it with aclrtFreeHost" : "free it with aclrtFree");
    }
    if (n > kMaxLeakReportsPerKind)
      emit("leak", api, "", fmt::format("{} allocations ({} bytes) leaked in all; the first {} are reported above", count,
                                        bytes, kMaxLeakReportsPerKind),
           "", "free every allocation");
    n = 0;
    for (StreamState& ss : streams_) {
      if (!ss.alive || !ss.user || ss.leak_reported || (device >= 0 && ss.device != device)) continue;
      ss.leak_reported = true;
      if (n++ < kMaxLeakReportsPerKind)
        emit("leak", api, fmt::format("stream {}", static_cast<const void*>(ss.s)), "the stream was never destroyed",
             "the stream: " + ss.origin.describe(), "destroy it with aclrtDestroyStream");
    }
    if (device >= 0) return;  // objects and events are not per device
    n = 0;
    for (const auto& [e, es] : events_)
      if (n++ < kMaxLeakReportsPerKind)
        emit("leak", api, fmt::format("event {}", static_cast<const void*>(e)), "the event was never destroyed",
             "the event: " + es.origin.describe(), "destroy it with aclrtDestroyEvent");
    std::map<std::string, int> per_kind;
    for (const auto& [obj, o] : objects_) {
      int& k = per_kind[o.kind];
      if (k++ < kMaxLeakReportsPerKind)
        emit("leak", api, fmt::format("{} {}", o.kind, obj),
             fmt::format("the {} was never destroyed{}", o.kind,
                         o.kind == "aclOpExecutor" ? (o.repeatable ? " (a repeatable executor)" : " (planned, never launched)")
                                                   : ""),
             "the object: " + o.origin.describe(),
             o.kind == "aclOpExecutor"
                 ? std::string("destroy a repeatable executor with aclDestroyAclOpExecutor; launch or destroy a planned one")
                 : fmt::format("destroy it with aclDestroy{}", o.kind.substr(3)));
    }
  }

  Config cfg_;
  std::mutex mu_;
  Clock host_;
  std::unordered_map<const Stream*, int> stream_ids_;
  std::vector<StreamState> streams_;
  std::unordered_map<const Event*, EventState> events_;
  std::map<uintptr_t, AllocState> allocs_;
  std::set<uintptr_t> dirty_;
  std::unordered_map<const void*, ObjectState> objects_;
  std::map<std::pair<int, uint64_t>, GuardCheck> guard_checks_;
};

Checker* g_checker = nullptr;

Observer* make_checker(const char* config_path) {
  Config c = read_config(config_path);
  if (c.level <= 0) return nullptr;
  g_checker = new Checker(std::move(c));  // lives until exit
  return g_checker;
}

const bool kRegistered = (set_observer_factory(&make_checker), true);

}  // namespace
}  // namespace pacl::check

extern "C" {
int paclCheckLevel(void) { return pacl::check::g_checker ? pacl::check::g_checker->level() : 0; }
int paclCheckReportCount(void) { return pacl::check::reports().count(); }
const char* paclCheckReportKind(int index) { return pacl::check::reports().kind(index); }
const char* paclCheckReportText(int index) { return pacl::check::reports().text(index); }
void paclCheckClearReports(void) { pacl::check::reports().clear(); }
}
