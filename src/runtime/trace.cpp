#include "runtime/trace.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "pacl/trace.h"
#include "runtime/stream.h"

namespace pacl::trace {

namespace detail {
std::atomic<int> g_on{-1};
}

namespace {

constexpr int kHostPid = 1, kStreamPid = 2;

class Writer {
 public:
  static Writer& get() {
    static Writer* w = new Writer;  // never destroyed: late events from worker threads still land
    return *w;
  }
  bool open() const { return f_ != nullptr; }
  double now() const { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0_).count(); }

  // Appends one event (a JSON object) before the closing bracket, then flushes.
  void event(const std::string& obj) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!f_) return;
    std::fseek(f_, -2, SEEK_END);  // over "\n]"
    std::fprintf(f_, "%s%s\n]", first_ ? "\n" : ",\n", obj.c_str());
    first_ = false;
    std::fflush(f_);
  }

  // The track of the calling thread (named on first use).
  int host_tid() {
    thread_local int tid = 0;
    if (tid) return tid;
    tid = static_cast<int>(gettid());
    event(fmt::format(R"json({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"host thread {}"}}}})json",
                      kHostPid, tid, tid));
    return tid;
  }
  int stream_tid(const Stream& s) {
    std::unique_lock<std::mutex> lock(mu_);
    auto it = streams_.find(&s);
    if (it != streams_.end()) return it->second;
    const int tid = static_cast<int>(streams_.size()) + 1;
    streams_.emplace(&s, tid);
    lock.unlock();
    event(fmt::format(
        R"json({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"stream {} ({}device {})"}}}})json",
        kStreamPid, tid, static_cast<const void*>(&s), s.is_default() ? "default stream, " : "", s.device()));
    return tid;
  }

 private:
  Writer() : t0_(std::chrono::steady_clock::now()) {
    const char* path = std::getenv("PACL_TRACE");
    if (!path || !*path) return;
    f_ = std::fopen(path, "w+");
    if (!f_) {
      std::fprintf(stderr, "pacl: cannot write the trace file '%s' (PACL_TRACE); tracing is off\n", path);
      return;
    }
    std::fprintf(f_, "[\n]");
    std::fflush(f_);
    event(fmt::format(R"json({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"host (pid {})"}}}})json", kHostPid,
                      getpid()));
    event(fmt::format(R"json({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"pacl streams"}}}})json", kStreamPid));
  }

  std::mutex mu_;
  std::FILE* f_ = nullptr;
  bool first_ = true;
  std::chrono::steady_clock::time_point t0_;
  std::unordered_map<const Stream*, int> streams_;
};

}  // namespace

bool detail::init() {
  const bool open = Writer::get().open();
  g_on.store(open ? 1 : 0, std::memory_order_relaxed);
  return open;
}

double now_us() { return Writer::get().now(); }

std::string json_string(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    switch (c) {
      case '"': r += "\\\""; break;
      case '\\': r += "\\\\"; break;
      case '\n': r += "\\n"; break;
      case '\t': r += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) r += fmt::format("\\u{:04x}", static_cast<int>(c));
        else r += c;
    }
  }
  return r + "\"";
}

void api_span(const char* api, double t0, double t1, int status) {
  Writer& w = Writer::get();
  const int tid = w.host_tid();
  std::string args = status ? fmt::format(R"json(,"args":{{"status":{}}})json", status) : std::string();
  w.event(fmt::format(R"json({{"ph":"X","cat":"api","name":{},"pid":{},"tid":{},"ts":{:.3f},"dur":{:.3f}{}}})json",
                      json_string(api), kHostPid, tid, t0, t1 - t0, args));
}

void task_span(const Stream& s, const char* name, double t0, double t1, const std::string& args_json) {
  Writer& w = Writer::get();
  const int tid = w.stream_tid(s);
  w.event(fmt::format(R"json({{"ph":"X","cat":"stream","name":{},"pid":{},"tid":{},"ts":{:.3f},"dur":{:.3f},"args":{{{}}}}})json",
                      json_string(name), kStreamPid, tid, t0, t1 - t0, args_json));
}

void instant(const char* name, const std::string& args_json) {
  Writer& w = Writer::get();
  const int tid = w.host_tid();
  w.event(fmt::format(R"json({{"ph":"i","s":"t","cat":"pacl","name":{},"pid":{},"tid":{},"ts":{:.3f},"args":{{{}}}}})json",
                      json_string(name), kHostPid, tid, w.now(), args_json));
}

}  // namespace pacl::trace

extern "C" void paclTraceInstant(const char* name, const char* argsJson) {
  if (!name || !pacl::trace::on()) return;
  pacl::trace::instant(name, argsJson ? argsJson : "");
}
