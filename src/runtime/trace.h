// Chrome/Perfetto traces. With PACL_TRACE=<file.json> in the environment (read once, at the first
// API call), pacl records every host API call as a span on its thread's track and every stream
// task (op kernels with their shapes, dtypes, workspace and kernel name; copies; event records;
// callbacks) as a span on one track per stream. The file is a JSON array kept valid after every
// event: each event is written before the closing bracket and flushed, so a program that crashes
// or exits early still leaves a trace that loads (ui.perfetto.dev, chrome://tracing).
#pragma once

#include <atomic>
#include <string>

namespace pacl {
class Stream;
}

namespace pacl::trace {

namespace detail {
extern std::atomic<int> g_on;  // -1 unknown, 0 off, 1 on
bool init();
}  // namespace detail

inline bool on() {
  const int v = detail::g_on.load(std::memory_order_relaxed);
  return v > 0 || (v < 0 && detail::init());
}

// Microseconds on the trace's clock (steady, since the trace began).
double now_us();

// A host API call on the calling thread's track; status: its return code (args show it when != 0).
void api_span(const char* api, double t0, double t1, int status);
// A task on stream s's track. args_json: "" or the members of a JSON object ("\"op\":\"Add\",...").
void task_span(const Stream& s, const char* name, double t0, double t1, const std::string& args_json);
// A point event on the calling thread's track (the runner's executor-cache hits and misses).
void instant(const char* name, const std::string& args_json);

// `s` with JSON string escaping, quoted.
std::string json_string(const std::string& s);

}  // namespace pacl::trace
