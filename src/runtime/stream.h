// Streams and events. A stream is an in-order queue of tasks run asynchronously to the host by a
// worker thread of its own. A thread that synchronizes without a timeout does not just wait: while
// the worker is idle it runs the queued tasks itself, in order, so "enqueue then synchronize" costs
// about as much as a plain call. Exactly one thread runs a stream's tasks at any time
// (`running_`), which keeps the order. Events carry a generation count: recording bumps it and
// enqueues a marker task; waiting on an event waits for the generation that was current at the
// time of the wait.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace pacl {

using Task = std::function<void()>;

class Stream {
 public:
  Stream(int device, bool is_default);
  ~Stream();  // drains the queue, then stops the worker
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  void enqueue(Task task);
  // Waits until every task enqueued before the call has finished. timeout_ms < 0 waits forever.
  // Returns false on timeout. Throws RuntimeError if a task failed since the last synchronize.
  bool synchronize(int64_t timeout_ms = -1);
  bool idle() const;
  int device() const { return device_; }
  bool is_default() const { return is_default_; }

 private:
  bool run_one_locked(std::unique_lock<std::mutex>& lock);
  void worker_loop();

  int device_;
  bool is_default_;
  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<Task> queue_;
  uint64_t enqueued_ = 0;
  uint64_t completed_ = 0;
  bool running_ = false;
  bool stop_ = false;
  std::string failure_;  // first task failure since the last synchronize
  std::thread worker_;
};

class Event {
 public:
  explicit Event(uint32_t flags) : flags_(flags) {}

  // Host side of aclrtRecordEvent: returns the generation the marker task must complete.
  uint64_t begin_record();
  void complete(uint64_t generation);  // run by the marker task
  bool wait(uint64_t generation, int64_t timeout_ms);  // false on timeout
  uint64_t recorded_generation() const;
  bool completed() const;  // the last recorded generation has completed (true if never recorded)
  bool ever_completed() const;
  std::chrono::steady_clock::time_point timestamp() const;
  void reset();
  uint32_t flags() const { return flags_; }

 private:
  uint32_t flags_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t recorded_ = 0;
  uint64_t completed_ = 0;
  std::chrono::steady_clock::time_point stamp_{};
};

}  // namespace pacl
