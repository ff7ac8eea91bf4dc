// The SolveBatch stream: bounded in-flight items, completion-order results,
// per-item status.
#include "server/batch_reactor.h"

#include <deque>
#include <memory>
#include <string>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "server/convert.h"
#include "server/solve_job.h"
#include "server/solve_reactor.h"
#include "spdlog/spdlog.h"

namespace qs::server {
namespace {

class BatchReactor final
    : public grpc::ServerBidiReactor<v1::BatchItem, v1::BatchResult> {
 public:
  BatchReactor(ServiceContext* context, grpc::CallbackServerContext* call)
      : context_(context), state_(std::make_shared<State>()) {
    state_->reactor = this;
    state_->context = context;
    state_->arrival = absl::Now();
    state_->peer = call->peer();
    const auto deadline = call->deadline();
    if (deadline != std::chrono::system_clock::time_point::max()) {
      state_->call_deadline = absl::FromChrono(deadline);
    }
    if (absl::Status auth = context->auth->Check(*call); !auth.ok()) {
      {
        absl::MutexLock lock(&state_->mu);
        state_->finish_called = true;
        state_->final_code = grpc::StatusCode::UNAUTHENTICATED;
      }
      Finish(ToGrpcStatus(auth));
      return;
    }
    {
      absl::MutexLock lock(&state_->mu);
      state_->reading = true;
    }
    StartRead(&state_->read_item);
  }

  void OnReadDone(bool ok) override {
    {
      absl::MutexLock lock(&state_->mu);
      state_->reading = false;
      if (ok) {
        // A read can complete after OnCancel: its item is dropped like the
        // ones CancelLocked cleared, or the stream would wait on it forever.
        if (!state_->cancelled) {
          state_->pending.push_back(std::move(state_->read_item));
        }
        ++state_->items_received;
      } else {
        state_->half_closed = true;
      }
    }
    Pump(state_);
  }

  void OnWriteDone(bool ok) override {
    {
      absl::MutexLock lock(&state_->mu);
      state_->writing = false;
      if (!ok) CancelLocked(*state_);
    }
    Pump(state_);
  }

  void OnCancel() override {
    {
      absl::MutexLock lock(&state_->mu);
      CancelLocked(*state_);
    }
    Pump(state_);
  }

  void OnDone() override {
    State& s = *state_;
    const double seconds = absl::ToDoubleSeconds(absl::Now() - s.arrival);
    // Read under the lock: Pump set them on another thread, and the ordering
    // through gRPC's Finish is invisible to ThreadSanitizer.
    grpc::StatusCode final_code;
    int items_received;
    {
      absl::MutexLock lock(&s.mu);
      final_code = s.final_code;
      items_received = s.items_received;
    }
    const std::string code = StatusCodeName(final_code);
    context_->metrics->RecordRequest("SolveBatch", "batch", "none", code,
                                     seconds);
    spdlog::info("rpc=SolveBatch peer={} items={} status={} seconds={:.4f}",
                 s.peer, items_received, code, seconds);
    delete this;
  }

 private:
  struct Running {
    Interrupter interrupter;
    absl::Time admitted;  // when the item got its admission slot
  };

  struct State {
    BatchReactor* reactor = nullptr;  // valid until Finish has been called
    ServiceContext* context = nullptr;
    std::string peer;
    absl::Time arrival;
    absl::Time call_deadline = absl::InfiniteFuture();
    v1::BatchItem read_item;       // target of the outstanding read
    v1::BatchResult write_result;  // source of the outstanding write

    absl::Mutex mu;
    std::deque<v1::BatchItem> pending ABSL_GUARDED_BY(mu);
    std::deque<v1::BatchResult> results ABSL_GUARDED_BY(mu);
    std::vector<std::shared_ptr<Running>> running ABSL_GUARDED_BY(mu);
    int in_flight ABSL_GUARDED_BY(mu) = 0;
    int items_received ABSL_GUARDED_BY(mu) = 0;
    bool reading ABSL_GUARDED_BY(mu) = false;
    bool writing ABSL_GUARDED_BY(mu) = false;
    bool half_closed ABSL_GUARDED_BY(mu) = false;
    bool cancelled ABSL_GUARDED_BY(mu) = false;
    bool finish_called ABSL_GUARDED_BY(mu) = false;
    grpc::StatusCode final_code ABSL_GUARDED_BY(mu) = grpc::StatusCode::OK;
  };

  static void CancelLocked(State& s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu) {
    if (s.cancelled) return;
    s.cancelled = true;
    s.pending.clear();
    s.results.clear();
    const StopReason reason = absl::Now() >= s.call_deadline
                                  ? StopReason::kDeadline
                                  : StopReason::kCancelled;
    for (const auto& r : s.running) r->interrupter.Interrupt(reason);
  }

  // Runs one item on a request thread and queues its result.
  static void RunItem(const std::shared_ptr<State>& state, v1::BatchItem item,
                      std::shared_ptr<Running> running) {
    v1::BatchResult result =
        RunAdmittedBatchItem(state->context, std::move(item),
                             running->interrupter, running->admitted, "grpc");
    {
      absl::MutexLock lock(&state->mu);
      --state->in_flight;
      std::erase(state->running, running);
      if (!state->cancelled) state->results.push_back(std::move(result));
    }
    Pump(state);
  }

  // Decides, under the lock, what to do next (dispatch items, read, write,
  // finish) and does the gRPC calls outside it.
  static void Pump(const std::shared_ptr<State>& state) {
    std::vector<std::pair<v1::BatchItem, std::shared_ptr<Running>>> to_run;
    bool start_read = false, start_write = false, finish = false;
    grpc::Status finish_status;
    ServiceContext* context = state->context;
    BatchReactor* reactor;
    {
      absl::MutexLock lock(&state->mu);
      if (state->finish_called) return;
      reactor = state->reactor;
      // Dispatch waiting items while this stream has room.
      while (!state->cancelled && !state->pending.empty() &&
             state->in_flight < context->max_batch_in_flight) {
        v1::BatchItem item = std::move(state->pending.front());
        state->pending.pop_front();
        if (absl::Status s = CheckAndAdmit(context, item.request(),
                                           "SolveBatchItem", "grpc");
            !s.ok()) {
          state->results.push_back(
              BatchErrorResult(item.id(), s, context->instance_name));
          continue;
        }
        auto running = std::make_shared<Running>();
        running->admitted = absl::Now();
        if (state->call_deadline != absl::InfiniteFuture()) {
          running->interrupter.SetDeadline(state->call_deadline,
                                           StopReason::kDeadline);
        }
        state->running.push_back(running);
        ++state->in_flight;
        to_run.emplace_back(std::move(item), std::move(running));
      }
      // Read more while fewer than max_batch_in_flight items wait.
      if (!state->reading && !state->half_closed && !state->cancelled &&
          static_cast<int>(state->pending.size()) <
              context->max_batch_in_flight) {
        state->reading = true;
        start_read = true;
      }
      if (!state->writing && !state->results.empty()) {
        state->write_result = std::move(state->results.front());
        state->results.pop_front();
        state->writing = true;
        start_write = true;
      }
      const bool done = state->in_flight == 0 && state->pending.empty() &&
                        state->results.empty() && !state->writing &&
                        (state->half_closed || state->cancelled) &&
                        !state->reading;
      if (done) {
        state->finish_called = true;
        finish = true;
        finish_status = state->cancelled
                            ? grpc::Status(grpc::StatusCode::CANCELLED,
                                           "the batch was cancelled")
                            : grpc::Status::OK;
        state->final_code = finish_status.error_code();
      }
    }
    for (auto& [item, running] : to_run) {
      context->request_pool->NewGroup()->Submit(
          [state, item = std::move(item),
           running = std::move(running)]() mutable {
            RunItem(state, std::move(item), std::move(running));
          });
    }
    if (start_read) reactor->StartRead(&state->read_item);
    if (start_write) reactor->StartWrite(&state->write_result);
    if (finish) reactor->Finish(finish_status);
  }

  ServiceContext* const context_;
  std::shared_ptr<State> state_;
};

}  // namespace

grpc::ServerBidiReactor<v1::BatchItem, v1::BatchResult>* StartSolveBatch(
    ServiceContext* context, grpc::CallbackServerContext* call) {
  return new BatchReactor(context, call);
}

}  // namespace qs::server
