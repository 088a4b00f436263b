#include "runtime/stream.h"

#include "runtime/status.h"

namespace pacl {

Stream::Stream(int device, bool is_default) : device_(device), is_default_(is_default) {
  worker_ = std::thread([this] { worker_loop(); });
}

Stream::~Stream() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, [this] { return completed_ == enqueued_; });
    stop_ = true;
  }
  work_cv_.notify_all();
  worker_.join();
}

void Stream::enqueue(Task task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(task));
    ++enqueued_;
  }
  work_cv_.notify_one();
}

// Runs the next task with the lock released. Precondition: lock held, !running_, queue non-empty.
bool Stream::run_one_locked(std::unique_lock<std::mutex>& lock) {
  Task task = std::move(queue_.front());
  queue_.pop_front();
  running_ = true;
  lock.unlock();
  std::string failure;
  try {
    task();
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "unknown failure";
  }
  task = nullptr;  // release captured state before reporting completion
  lock.lock();
  running_ = false;
  ++completed_;
  if (!failure.empty() && failure_.empty()) failure_ = std::move(failure);
  done_cv_.notify_all();
  if (!queue_.empty()) work_cv_.notify_one();
  return true;
}

void Stream::worker_loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [this] { return stop_ || (!running_ && !queue_.empty()); });
    if (stop_ && queue_.empty()) return;
    if (!running_ && !queue_.empty()) run_one_locked(lock);
  }
}

bool Stream::synchronize(int64_t timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t target = enqueued_;
  while (completed_ < target) {
    // Only an unbounded wait may run tasks itself: a task can block (a callback, a wait on an
    // event), and a bounded wait must return when its time is up.
    if (timeout_ms < 0 && !running_ && !queue_.empty()) {
      run_one_locked(lock);
      continue;
    }
    if (timeout_ms < 0) {
      done_cv_.wait(lock);
    } else if (done_cv_.wait_until(lock, deadline) == std::cv_status::timeout && completed_ < target) {
      return false;
    }
  }
  if (!failure_.empty()) {
    std::string f = std::move(failure_);
    failure_.clear();
    throw RuntimeError(kAclRtInternal, "a task on the stream failed: " + f);
  }
  return true;
}

bool Stream::idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return completed_ == enqueued_;
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
