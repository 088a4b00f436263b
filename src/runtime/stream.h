// Streams and events. A stream is an in-order queue of tasks run asynchronously to the host.
//
// Who runs a task. Exactly one thread runs a stream's tasks at any time (`running_`), which keeps
// the order: either the stream's worker thread, or a host thread that synchronizes and finds the
// worker not running — it then runs the queued tasks itself, so "enqueue, then synchronize" (what
// nearly every CANN program does after each op) costs about as much as a plain call.
//
// When the worker wakes. Enqueueing does not wake a parked worker (a futex wake and a thread
// racing the synchronizing host would cost more than a small op). Instead the stream owes a kick,
// recorded with the Kicker, and the owed kicks are paid (the workers woken) at the first of:
//   - the host's next op call (phase 1 or phase 2), blocking copy, event or stream query — so a
//     program that queues several ops before synchronizing gets them running while it plans the next;
//   - any blocking wait on another stream or on an event (a waiter never waits on unstarted work);
//   - the Kicker's tick: while kicks were owed in the last 100 ms, a timer thread pays them every
//     millisecond, so queued work starts within about 1 ms even if the host makes no pacl call.
// A bounded synchronize (aclrtSynchronizeStreamWithTimeout) kicks and waits: a task may block, and
// a bounded wait must return when its time is up, so it never runs tasks itself.
//
// Events carry a generation count: recording bumps it and enqueues a marker task; waiting on an
// event waits for the generation that was current at the time of the wait.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pacl {

using Task = std::function<void()>;

class Stream {
 public:
  Stream(int device, bool is_default);
  ~Stream();  // drains the queue, then stops the worker
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Queues a task; returns its number on this stream (1, 2, ...). `label` names it in traces
  // (a static string; nullptr: the task traces itself).
  uint64_t enqueue(Task task, const char* label);
  // Tasks queued so far (the number of the latest).
  uint64_t enqueued_count() const;
  // Waits until every task enqueued before the call has finished. timeout_ms < 0 waits forever.
  // Returns false on timeout. Throws RuntimeError if a task failed since the last synchronize.
  bool synchronize(int64_t timeout_ms = -1);
  bool idle();  // pays owed kicks first, so a polling host sees progress
  int device() const { return device_; }
  bool is_default() const { return is_default_; }

  // Wakes the worker if tasks are queued and nobody runs them (Kicker only).
  void wake();

  // The stream whose task the calling thread is running (a callback's API calls are in stream
  // order), with the task's number; nullptr outside tasks.
  static const Stream* running_task(uint64_t* seq);

 private:
  void run_one_locked(std::unique_lock<std::mutex>& lock);
  void worker_loop();

  int device_;
  bool is_default_;
  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  struct Queued {
    Task fn;
    const char* label;
  };
  std::deque<Queued> queue_;
  uint64_t enqueued_ = 0;
  uint64_t completed_ = 0;
  bool running_ = false;
  bool stop_ = false;
  bool worker_parked_ = false;  // waiting in work_cv_
  bool wake_owed_ = false;      // a wake is owed (the Kicker lists this stream)
  bool listed_ = false;         // in the Kicker's list (guarded by the Kicker's mutex)
  friend class Kicker;
  std::string failure_;  // first task failure since the last synchronize
  std::thread worker_;
};

// The owed worker wake-ups of all streams (see the note at the top).
class Kicker {
 public:
  static Kicker& get();
  void owe(Stream* s);        // s's worker is parked and s has queued work
  void forget(Stream* s);     // s is being destroyed
  // Pays every owed kick but `except`'s (cheap when none is owed: one atomic load).
  void pay(const Stream* except = nullptr) {
    if (owed_.load(std::memory_order_acquire) != 0) pay_slow(except);
  }

 private:
  Kicker();
  ~Kicker();
  void pay_slow(const Stream* except);
  void tick_loop();

  std::mutex mu_;
  std::condition_variable tick_cv_;
  std::vector<Stream*> owed_streams_;
  std::atomic<int> owed_{0};
  bool ticker_parked_ = false;
  uint64_t owes_ = 0;  // kicks owed so far (under mu_); the ticker parks when it stops moving
  std::thread ticker_;
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
