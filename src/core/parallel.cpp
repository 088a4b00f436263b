#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace pacl {

namespace {

thread_local bool t_in_parallel = false;

// How long a worker (and the caller waiting for the last part) polls before parking on a condition
// variable. Waking a parked thread costs a futex round trip (several microseconds), which would
// dominate a parallel region of a mid-sized op; a short poll keeps back-to-back regions cheap while
// an idle pool still sleeps.
constexpr auto kSpin = std::chrono::microseconds(50);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls `ready` for up to kSpin; true once it holds.
template <typename Ready>
bool spin_until(Ready ready) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (int i = 0;; ++i) {
    if (ready()) return true;
    cpu_relax();
    if ((i & 63) == 63 && std::chrono::steady_clock::now() >= deadline) return ready();
  }
}

// One parallel region at a time (run_mu_): concurrent callers from several streams take turns, so
// the pool never runs more threads than it has. A region is published by storing its claim word
// (region id | parts | next part) and bumping generation_; workers poll briefly, then park on cv_.
// A part is claimed by a compare-and-swap on the claim word that also checks the region id, so a
// late worker can never claim a part of a newer region with an older region's job. The mutex only
// guards parking: a waiter re-checks its condition under mu_ before sleeping, and a publisher that
// sees a sleeper notifies under mu_, so no wake-up is lost.
class Pool {
 public:
  explicit Pool(int threads) : size_(threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { loop(); });
  }
  // Never destroyed (see Runtime::get): workers may be mid-wait at process exit.

  int size() const { return size_; }

  void run(int parts, FunctionRef<void(int)> job) {
    std::lock_guard<std::mutex> serial(run_mu_);
    const uint32_t region = static_cast<uint32_t>(generation_.load(std::memory_order_relaxed) + 1);
    job_.store(&job, std::memory_order_relaxed);
    pending_.store(parts - 1, std::memory_order_relaxed);
    error_ = nullptr;
    // Part 0 is the caller's: next starts at 1.
    claim_.store(uint64_t{region} << 32 | uint64_t(parts) << 16 | 1u, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mu_);
      cv_.notify_all();
    }
    run_parts(job, 0, region);
    auto done = [this] { return pending_.load(std::memory_order_seq_cst) == 0; };
    if (!spin_until(done)) {
      std::unique_lock<std::mutex> lock(mu_);
      caller_waiting_.store(true, std::memory_order_seq_cst);
      done_cv_.wait(lock, done);
      caller_waiting_.store(false, std::memory_order_relaxed);
    }
    job_.store(nullptr, std::memory_order_relaxed);
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // The next unclaimed part of `region`, or -1 when that region has none left (or is over).
  int claim(uint32_t region) {
    uint64_t c = claim_.load(std::memory_order_acquire);
    for (;;) {
      if (static_cast<uint32_t>(c >> 32) != region) return -1;
      const int parts = static_cast<int>((c >> 16) & 0xffff), next = static_cast<int>(c & 0xffff);
      if (next >= parts) return -1;
      if (claim_.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel, std::memory_order_acquire)) return next;
    }
  }

  // Runs part p of `region`, then keeps claiming its unclaimed parts.
  void run_parts(const FunctionRef<void(int)>& job, int p, uint32_t region) {
    t_in_parallel = true;
    while (p >= 0) {
      try {
        job(p);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu_);
        if (!error_) error_ = std::current_exception();
      }
      if (p != 0) finish_part();
      p = claim(region);
    }
    t_in_parallel = false;
  }

  void finish_part() {
    if (pending_.fetch_sub(1, std::memory_order_seq_cst) == 1 && caller_waiting_.load(std::memory_order_seq_cst)) {
      std::lock_guard<std::mutex> lock(mu_);
      done_cv_.notify_all();
    }
  }

  void loop() {
    uint64_t seen = 0;
    for (;;) {
      auto published = [&] { return generation_.load(std::memory_order_seq_cst) != seen; };
      if (!spin_until(published)) {
        std::unique_lock<std::mutex> lock(mu_);
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        cv_.wait(lock, published);
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
      }
      seen = generation_.load(std::memory_order_acquire);
      const uint32_t region = static_cast<uint32_t>(seen);
      // A successful claim means the region is still running (its caller waits for this part), so
      // job_ still holds its job.
      const int p = claim(region);
      if (p >= 0) run_parts(*job_.load(std::memory_order_relaxed), p, region);
    }
  }

  int size_;
  std::vector<std::thread> workers_;
  std::mutex run_mu_;    // serializes regions
  std::mutex mu_;        // parking handshake only
  std::mutex error_mu_;  // first exception of a region
  std::condition_variable cv_, done_cv_;
  std::atomic<const FunctionRef<void(int)>*> job_{nullptr};
  std::atomic<uint64_t> claim_{0};  // region id (32 bits) | parts (16) | next part (16)
  std::atomic<int> pending_{0};     // parts other than 0 not finished yet
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<bool> caller_waiting_{false};
  std::exception_ptr error_;
};

Pool& pool() {
  static Pool* p = new Pool(max_threads());
  return *p;
}

}  // namespace

int max_threads() {
  static const int n = [] {
    if (const char* v = std::getenv("PACL_NUM_THREADS")) {
      const int k = std::atoi(v);
      if (k >= 1 && k <= 256) return k;
    }
    const unsigned hw = std::thread::hardware_concurrency();
    return static_cast<int>(std::clamp(hw, 1u, 64u));
  }();
  return n;
}

void parallel_for(int64_t n, int64_t grain, FunctionRef<void(int64_t, int64_t, int)> fn) {
  if (n <= 0) return;
  const int64_t g = std::max<int64_t>(grain, 1);
  const int parts = static_cast<int>(std::min<int64_t>(max_threads(), (n + g - 1) / g));
  if (parts <= 1 || t_in_parallel) {
    fn(0, n, 0);
    return;
  }
  auto part = [&](int p) {
    const int64_t b = n * p / parts, e = n * (p + 1) / parts;
    fn(b, e, p);
  };
  pool().run(parts, part);
}

}  // namespace pacl
