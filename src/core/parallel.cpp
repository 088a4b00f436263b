#include "core/parallel.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace pacl {

namespace {

thread_local bool t_in_parallel = false;

class Pool {
 public:
  explicit Pool(int threads) : size_(threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { loop(); });
  }
  // Never destroyed (see Runtime::get): workers may be mid-wait at process exit.

  int size() const { return size_; }

  void run(int parts, FunctionRef<void(int)> job) {
    std::unique_lock<std::mutex> serial(run_mu_);  // one parallel region at a time
    {
      std::lock_guard<std::mutex> lock(mu_);
      job_ = &job;
      parts_ = parts;
      next_ = 1;  // the caller runs part 0
      pending_ = parts - 1;
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    run_parts(&job, 0);
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // Runs part p, then keeps claiming unclaimed parts of the same region. All bookkeeping is under
  // mu_: parts are large, so the lock is cheap next to them.
  void run_parts(const FunctionRef<void(int)>* job, int p) {
    t_in_parallel = true;
    while (p >= 0) {
      try {
        (*job)(p);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!error_) error_ = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mu_);
      if (p != 0 && --pending_ == 0) done_cv_.notify_all();
      p = next_ < parts_ ? next_++ : -1;
    }
    t_in_parallel = false;
  }

  void loop() {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (!job_ || next_ >= parts_) continue;
      const int p = next_++;
      const FunctionRef<void(int)>* job = job_;
      lock.unlock();
      run_parts(job, p);
      lock.lock();
    }
  }

  int size_;
  std::vector<std::thread> workers_;
  std::mutex run_mu_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  const FunctionRef<void(int)>* job_ = nullptr;
  int parts_ = 0;
  int next_ = 0;
  int pending_ = 0;
  uint64_t generation_ = 0;
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
