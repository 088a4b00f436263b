// pacl_compare: the benchmark driver behind docs/performance.md. Each case runs pacl and its
// peers interleaved in this one process (A B A B ...), each timed over batches of calls; the figure
// of a run is the median per-call time over the repetitions. Peers are a bandwidth probe of the
// same working set (the physical limit for memory-bound ops) and, when built with libtorch, PyTorch
// doing the same work with the same number of threads.
//
//   pacl_compare [--filter REGEX] [--reps N] [--min-time SECONDS] [--settle SECONDS] [--json FILE] [--list]
//
// Output: one Markdown table per group (case, pacl, peer, peer figure, ratio) on stdout; --json
// writes every measurement (seconds per call, bytes per call) for scripts/perf.sh.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "bench_cases.h"

namespace pacl::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_per_call(const std::function<void()>& fn, int64_t calls) {
  const auto t0 = Clock::now();
  for (int64_t i = 0; i < calls; ++i) fn();
  return std::chrono::duration<double>(Clock::now() - t0).count() / static_cast<double>(calls);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Result {
  std::string group, name, peer;
  Unit unit;
  double bytes;
  double pacl_s, peer_s;  // median seconds per call
};

// Times the case's pacl function and each peer, interleaved, `reps` times. Before each batch the
// process sleeps `settle` seconds: OpenMP runtimes (the probes', PyTorch's) keep their threads
// spinning for milliseconds after a parallel region, and on a small machine those spinning threads
// would take the cores from whichever function runs next.
std::vector<Result> measure(const Case& c, int reps, double min_time, double settle) {
  auto pause = [settle] { std::this_thread::sleep_for(std::chrono::duration<double>(settle)); };
  std::vector<const std::function<void()>*> fns{&c.pacl};
  for (const Peer& p : c.peers) fns.push_back(&p.fn);
  // Batch size: enough calls of the slowest function to fill min_time.
  int64_t calls = 1;
  for (const auto* f : fns) {
    pause();
    (*f)();  // warm up (first-touch pages, caches, lazy init)
    const double t = seconds_per_call(*f, 1);
    calls = std::max<int64_t>(calls, static_cast<int64_t>(min_time / std::max(t, 1e-9)));
  }
  calls = std::min<int64_t>(calls, 1 << 20);
  std::vector<std::vector<double>> samples(fns.size());
  for (int r = 0; r < reps; ++r)
    for (size_t i = 0; i < fns.size(); ++i) {
      pause();
      samples[i].push_back(seconds_per_call(*fns[i], calls));
    }
  std::vector<Result> out;
  const double pacl_s = median(samples[0]);
  for (size_t i = 0; i < c.peers.size(); ++i)
    out.push_back(Result{c.group, c.name, c.peers[i].name, c.unit, c.bytes, pacl_s, median(samples[i + 1])});
  if (c.peers.empty()) out.push_back(Result{c.group, c.name, "", c.unit, c.bytes, pacl_s, 0});
  return out;
}

std::string figure(const Result& r, double s) {
  char buf[64];
  if (r.unit == Unit::kBandwidth && r.bytes > 0) std::snprintf(buf, sizeof buf, "%.2f GB/s", r.bytes / s / 1e9);
  else if (r.unit == Unit::kFlops) std::snprintf(buf, sizeof buf, "%.1f GFLOP/s", r.bytes / s / 1e9);
  else if (s < 1e-3) std::snprintf(buf, sizeof buf, "%.3f us", s * 1e6);
  else std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  return buf;
}

// pacl's speed relative to the peer's (> 1: pacl is faster); for a limit probe, the fraction of
// the limit pacl reaches.
double ratio(const Result& r) { return r.peer_s / r.pacl_s; }

void print_markdown(const std::vector<Result>& rs) {
  std::string group;
  for (const Result& r : rs) {
    if (r.group != group) {
      group = r.group;
      std::printf("\n### %s\n\n| case | pacl | peer | peer figure | pacl / peer speed |\n|---|---|---|---|---|\n",
                  group.c_str());
    }
    if (r.peer.empty())
      std::printf("| %s | %s | | | |\n", r.name.c_str(), figure(r, r.pacl_s).c_str());
    else
      std::printf("| %s | %s | %s | %s | %.2fx |\n", r.name.c_str(), figure(r, r.pacl_s).c_str(), r.peer.c_str(),
                  figure(r, r.peer_s).c_str(), ratio(r));
    std::fflush(stdout);
  }
}

void write_json(const std::string& path, const std::vector<Result>& rs, const Environment& env) {
  std::ofstream f(path);
  f << "{\n  \"threads\": " << env.threads << ",\n  \"torch\": " << (env.torch ? "true" : "false")
    << ",\n  \"results\": [\n";
  for (size_t i = 0; i < rs.size(); ++i) {
    const Result& r = rs[i];
    const char* unit = r.unit == Unit::kBandwidth ? "bandwidth" : r.unit == Unit::kFlops ? "flops" : "time";
    f << "    {\"group\": \"" << r.group << "\", \"case\": \"" << r.name << "\", \"peer\": \"" << r.peer
      << "\", \"unit\": \"" << unit << "\", \"bytes\": " << r.bytes << ", \"pacl_s\": " << r.pacl_s << ", \"peer_s\": " << r.peer_s << "}"
      << (i + 1 < rs.size() ? ",\n" : "\n");
  }
  f << "  ]\n}\n";
}

}  // namespace
}  // namespace pacl::bench

int main(int argc, char** argv) {
  using namespace pacl::bench;
  CLI::App app{"pacl_compare: pacl next to its same-run peers"};
  std::string filter = ".*", json;
  int reps = 5;
  double min_time = 0.02, settle = 0.01;
  bool list = false;
  app.add_option("--filter", filter, "only cases whose 'group/name' matches this regular expression");
  app.add_option("--reps", reps, "interleaved repetitions per case (median reported)")->check(CLI::Range(1, 1000));
  app.add_option("--min-time", min_time, "seconds per timed batch")->check(CLI::PositiveNumber);
  app.add_option("--settle", settle, "seconds of sleep before each timed batch (lets other runtimes' spinning threads park)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--json", json, "also write all results to this file");
  app.add_flag("--list", list, "list the cases and exit");
  CLI11_PARSE(app, argc, argv);

  Environment env = setup();
  const std::regex re(filter);
  std::vector<Result> all;
  std::printf("threads: %d; torch peer: %s; %d interleaved repetitions, median\n", env.threads,
              env.torch ? "yes" : "no (built without libtorch)", reps);
  for (const auto& make : case_groups()) {
    std::vector<Case> cases = make(env);
    std::vector<Result> group;
    for (const Case& c : cases) {
      if (!std::regex_search(c.group + "/" + c.name, re)) continue;
      if (list) {
        std::printf("%s/%s\n", c.group.c_str(), c.name.c_str());
        continue;
      }
      Case run = c;
      if (run.materialize) run.materialize(env, run);
      for (Result& r : measure(run, reps, std::max(min_time, run.min_batch_seconds), settle)) group.push_back(std::move(r));
    }
    print_markdown(group);
    all.insert(all.end(), group.begin(), group.end());
  }
  if (!json.empty()) write_json(json, all, env);
  teardown();
  return 0;
}
