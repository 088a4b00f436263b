#include "runtime/stream.h"

#include <algorithm>

#include "runtime/observer.h"
#include "runtime/status.h"
#include "runtime/trace.h"

namespace pacl {

namespace {
thread_local const Stream* t_running_stream = nullptr;
thread_local uint64_t t_running_seq = 0;
}  // namespace

const Stream* Stream::running_task(uint64_t* seq) {
  if (seq) *seq = t_running_seq;
  return t_running_stream;
}

Stream::Stream(int device, bool is_default) : device_(device), is_default_(is_default) {
  worker_ = std::thread([this] { worker_loop(); });
}

Stream::~Stream() {
  Kicker::get().forget(this);
  {
    std::unique_lock<std::mutex> lock(mu_);
    work_cv_.notify_one();
    done_cv_.wait(lock, [this] { return completed_ == enqueued_; });
    stop_ = true;
  }
  work_cv_.notify_all();
  worker_.join();
}

uint64_t Stream::enqueue(Task task, const char* label) {
  bool owe = false;
  uint64_t seq;
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(Queued{std::move(task), label});
    seq = ++enqueued_;
    if (worker_parked_ && !running_ && !wake_owed_) owe = wake_owed_ = true;
  }
  if (owe) Kicker::get().owe(this);
  return seq;
}

uint64_t Stream::enqueued_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return enqueued_;
}

void Stream::wake() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!wake_owed_) return;
    wake_owed_ = false;
    if (queue_.empty() || running_ || !worker_parked_) return;
  }
  work_cv_.notify_one();
}

// Runs the next task with the lock released. Precondition: lock held, !running_, queue non-empty.
void Stream::run_one_locked(std::unique_lock<std::mutex>& lock) {
  Task task = std::move(queue_.front().fn);
  const char* label = queue_.front().label;
  queue_.pop_front();
  running_ = true;
  const uint64_t seq = completed_ + 1;
  lock.unlock();
  std::string failure;
  const Stream* outer_stream = t_running_stream;
  const uint64_t outer_seq = t_running_seq;
  t_running_stream = this;
  t_running_seq = seq;
  const bool traced = label && trace::on();
  const double t0 = traced ? trace::now_us() : 0.0;
  try {
    task();
    if (traced) trace::task_span(*this, label, t0, trace::now_us(), "");
    if (Observer* o = observer()) o->task_done(*this, seq);
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "unknown failure";
  }
  t_running_stream = outer_stream;
  t_running_seq = outer_seq;
  task = nullptr;  // release captured state before reporting completion
  lock.lock();
  running_ = false;
  ++completed_;
  if (!failure.empty() && failure_.empty()) failure_ = std::move(failure);
  done_cv_.notify_all();
}

void Stream::worker_loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (!stop_ && (running_ || queue_.empty())) {
      worker_parked_ = true;
      work_cv_.wait(lock, [this] { return stop_ || (!running_ && !queue_.empty()); });
      worker_parked_ = false;
      wake_owed_ = false;
    }
    if (stop_ && queue_.empty()) return;
    if (!running_ && !queue_.empty()) run_one_locked(lock);
  }
}

bool Stream::synchronize(int64_t timeout_ms) {
  // Other streams' queued work progresses while this thread runs or waits for this stream's.
  Kicker::get().pay(this);
  // Read the clock only for a bounded wait: the common unbounded synchronize needs no deadline.
  const auto deadline = timeout_ms < 0 ? std::chrono::steady_clock::time_point{}
                                       : std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t target = enqueued_;
  while (completed_ < target) {
    if (!running_ && !queue_.empty()) {
      if (timeout_ms < 0) {
        run_one_locked(lock);
        continue;
      }
      if (worker_parked_) work_cv_.notify_one();  // a bounded wait never runs tasks itself
    }
    if (timeout_ms < 0) {
      done_cv_.wait(lock);
    } else if (done_cv_.wait_until(lock, deadline) == std::cv_status::timeout && completed_ < target) {
      return false;
    }
  }
  // Tasks enqueued while this thread ran the queue were not owed a wake (the queue was running).
  bool owe = false;
  if (queue_.empty()) wake_owed_ = false;
  else if (worker_parked_ && !running_ && !wake_owed_) owe = wake_owed_ = true;
  std::string failure = std::move(failure_);
  failure_.clear();
  lock.unlock();
  if (owe) Kicker::get().owe(this);
  if (!failure.empty()) throw RuntimeError(kAclRtInternal, "a task on the stream failed: " + failure);
  return true;
}

bool Stream::idle() {
  Kicker::get().pay();
  std::lock_guard<std::mutex> lock(mu_);
  return completed_ == enqueued_;
}

// ---- Kicker ----------------------------------------------------------------------------------------

namespace {
constexpr auto kTick = std::chrono::milliseconds(1);
constexpr auto kTickerIdle = std::chrono::milliseconds(100);
}  // namespace

Kicker& Kicker::get() {
  // Never destroyed: streams owned by static objects may still forget themselves at exit.
  static Kicker* k = new Kicker;
  return *k;
}

Kicker::Kicker() {
  ticker_ = std::thread([this] { tick_loop(); });
  ticker_.detach();
}

Kicker::~Kicker() = default;

void Kicker::owe(Stream* s) {
  std::lock_guard<std::mutex> lock(mu_);
  ++owes_;
  if (!s->listed_) {
    s->listed_ = true;
    owed_streams_.push_back(s);
    owed_.store(static_cast<int>(owed_streams_.size()), std::memory_order_release);
  }
  if (ticker_parked_) {
    ticker_parked_ = false;
    tick_cv_.notify_one();
  }
}

void Kicker::forget(Stream* s) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!s->listed_) return;
  s->listed_ = false;
  owed_streams_.erase(std::find(owed_streams_.begin(), owed_streams_.end(), s));
  owed_.store(static_cast<int>(owed_streams_.size()), std::memory_order_release);
}

void Kicker::pay_slow(const Stream* except) {
  std::lock_guard<std::mutex> lock(mu_);
  size_t kept = 0;
  for (Stream* s : owed_streams_) {
    if (s == except) {
      owed_streams_[kept++] = s;
      continue;
    }
    s->listed_ = false;
    s->wake();
  }
  owed_streams_.resize(kept);
  owed_.store(static_cast<int>(kept), std::memory_order_release);
}

void Kicker::tick_loop() {
  std::unique_lock<std::mutex> lock(mu_);
  // The ticker parks after kTickerIdle without a new owed kick; owe() only counts (no clock read on
  // the enqueue path), the ticker notes when the count last moved.
  uint64_t seen = owes_;
  auto moved = std::chrono::steady_clock::now();
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (owes_ != seen) {
      seen = owes_;
      moved = now;
    }
    if (owed_streams_.empty() && now - moved > kTickerIdle) {
      ticker_parked_ = true;
      tick_cv_.wait(lock, [this] { return !ticker_parked_; });
      seen = owes_;
      moved = std::chrono::steady_clock::now();
      continue;
    }
    tick_cv_.wait_for(lock, kTick);
    for (Stream* s : owed_streams_) {
      s->listed_ = false;
      s->wake();
    }
    owed_streams_.clear();
    owed_.store(0, std::memory_order_release);
  }
}

uint64_t Event::begin_record() {
  std::lock_guard<std::mutex> lock(mu_);
  return ++recorded_;
}

void Event::complete(uint64_t generation) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (generation > completed_) {
      completed_ = generation;
      stamp_ = std::chrono::steady_clock::now();
    }
  }
  cv_.notify_all();
}

bool Event::wait(uint64_t generation, int64_t timeout_ms) {
  Kicker::get().pay();  // the recording stream's queued work must run
  std::unique_lock<std::mutex> lock(mu_);
  auto ready = [&] { return completed_ >= generation; };
  if (timeout_ms < 0) {
    cv_.wait(lock, ready);
    return true;
  }
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready);
}

uint64_t Event::recorded_generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return recorded_;
}

bool Event::completed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return completed_ >= recorded_;
}

bool Event::ever_completed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return completed_ > 0;
}

std::chrono::steady_clock::time_point Event::timestamp() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stamp_;
}

void Event::reset() {
  std::lock_guard<std::mutex> lock(mu_);
  completed_ = recorded_;
}

}  // namespace pacl
