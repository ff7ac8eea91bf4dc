// `qsolve batch`: a work queue of puzzles drained by "lanes", each lane one
// SolveBatch stream to one server address (or one stream of a round-robin
// channel). A lane pulls the next item when it has room, so faster servers
// take more. An item that comes back UNAVAILABLE, or that was in flight on a
// stream that broke, goes back to the queue with a backoff and prefers another
// lane; an item is written out exactly once, when it gets its final answer.
// The lane that takes an item has its server parse the line's text first
// (Solver.Parse), so that the file may hold any kind the servers list.
#include "clients/cli/batch.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "clients/cli/cli_common.h"
#include "clients/cli/puzzle_input.h"
#include "formats/batch_lines.h"
#include "qs/v1/solver_service.grpc.pb.h"

ABSL_FLAG(int, concurrency, 8, "batch: puzzles in flight at once, in total");
ABSL_FLAG(int, streams, 0,
          "batch: SolveBatch streams; 0: one per address of --addr");
ABSL_FLAG(int, retries, 5,
          "batch: extra attempts of an item that came back UNAVAILABLE or was "
          "on a stream that broke");
ABSL_FLAG(double, give_up_after, 30,
          "batch: seconds without any reachable server after which the items "
          "not yet answered end UNAVAILABLE");
ABSL_FLAG(std::string, output, "",
          "batch: write the JSON result lines to this file; default stdout");
ABSL_FLAG(std::string, progress, "auto",
          "batch: progress bar on stderr: auto (when stderr is a terminal), "
          "on or off");
ABSL_DECLARE_FLAG(std::string, addr);
ABSL_DECLARE_FLAG(std::string, input_file);
ABSL_DECLARE_FLAG(double, deadline);

namespace qs::cli {
namespace {

constexpr absl::Duration kFirstBackoff = absl::Milliseconds(100);
constexpr absl::Duration kMaxBackoff = absl::Seconds(2);

// A status is an answer about the puzzle (another server would say the same)
// or a failure to get one.
bool IsAnswer(grpc::StatusCode code) {
  return code == grpc::StatusCode::OK ||
         code == grpc::StatusCode::INVALID_ARGUMENT ||
         code == grpc::StatusCode::RESOURCE_EXHAUSTED ||
         code == grpc::StatusCode::FAILED_PRECONDITION;
}

// Stream failures that another attempt cannot cure (the only deadline set is
// the whole batch's). Others, such as a message over a server's size limit,
// may come from one item, so the stream's other items are tried again.
bool IsFatalForStream(grpc::StatusCode code) {
  return code == grpc::StatusCode::UNAUTHENTICATED ||
         code == grpc::StatusCode::PERMISSION_DENIED ||
         code == grpc::StatusCode::UNIMPLEMENTED ||
         code == grpc::StatusCode::DEADLINE_EXCEEDED;
}

std::string CodeName(grpc::StatusCode code) {
  return absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
}

// "ipv4:a,b", "dns:///host:port", "unix:path": one channel with round-robin
// load balancing. Anything else is a comma-separated list of host:port.
bool IsGrpcTarget(const std::string& addr) {
  for (const char* scheme :
       {"ipv4:", "ipv6:", "dns:", "unix:", "unix-abstract:"})
    if (addr.rfind(scheme, 0) == 0) return true;
  return false;
}

// A result line with its identifying fields first and the rest sorted, so
// that lines read alike (protobuf prints a Struct's map in no fixed order).
std::string ResultLineJson(const google::protobuf::Struct& line) {
  static const auto* const kFirst = new std::vector<std::string>{
      "id",         "status",          "kind",          "line",
      "valid",      "energy",          "ground_energy", "board",
      "violations", "server_instance", "attempts"};
  std::vector<std::string> keys = *kFirst;
  std::vector<std::string> rest;
  for (const auto& [key, value] : line.fields()) {
    if (std::find(kFirst->begin(), kFirst->end(), key) == kFirst->end())
      rest.push_back(key);
  }
  std::sort(rest.begin(), rest.end());
  keys.insert(keys.end(), rest.begin(), rest.end());
  std::vector<std::string> parts;
  for (const std::string& key : keys) {
    auto it = line.fields().find(key);
    if (it == line.fields().end()) continue;
    parts.push_back(absl::StrCat("\"", key, "\":", ToJson(it->second)));
  }
  return absl::StrCat("{", absl::StrJoin(parts, ","), "}");
}

absl::Duration Jittered(absl::Duration d) {
  static thread_local std::mt19937_64 rng(std::random_device{}());
  return d * std::uniform_real_distribution<double>(0.5, 1.0)(rng);
}

struct Item {
  formats::BatchLine line;
  v1::BatchItem wire;
  bool parsed = false;  // wire holds the puzzle (else a server parses it)
  int attempts = 0;     // sent to a server this many times
  absl::Time not_before = absl::InfinitePast();
  int last_lane = -1;
  absl::Time sent;
  grpc::Status last_failure;
  bool done = false;
};

struct Lane {
  std::string target;
  std::shared_ptr<grpc::Channel> channel;
  bool healthy = false;        // a stream is open and working
  bool broken = false;         // the current stream failed
  std::vector<int> in_flight;  // items sent on the current stream
};

class BatchRun {
 public:
  BatchRun(std::vector<Item> items, std::vector<Lane> lanes, FILE* out)
      : items_(std::move(items)), lanes_(std::move(lanes)), out_(out) {}

  int Run();

 private:
  void LaneLoop(int lane);
  void RunStream(int lane, v1::Solver::Stub& stub) ABSL_LOCKS_EXCLUDED(mu_);
  // The next item this lane may send, or -1; sets *wake to when one may be.
  int TakeItem(int lane, absl::Time* wake) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Retry(int index, const grpc::Status& failure)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Parses the text of an item this lane took (no other thread touches it);
  // false when the item got its answer or went back to the queue instead.
  bool ParseTaken(int lane, int index, v1::Solver::Stub& stub)
      ABSL_LOCKS_EXCLUDED(mu_);
  void Finish(int index, const grpc::Status& status,
              const v1::BatchResult* result) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ResultArrived(int lane, v1::BatchResult& result)
      ABSL_LOCKS_EXCLUDED(mu_);
  void StreamEnded(int lane, const grpc::Status& status)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void FinishQueued(const grpc::Status& status)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void DrawProgress(bool final) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool Stopping() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return unresolved_ == 0;
  }

  std::vector<Item> items_;
  std::vector<Lane> lanes_;
  FILE* const out_;
  int concurrency_ = 1;
  int lane_capacity_ = 1;
  int max_attempts_ = 1;
  absl::Time batch_deadline_ = absl::InfiniteFuture();
  absl::Duration give_up_after_;
  std::string token_;
  bool progress_ = false;
  absl::Time start_;

  absl::Mutex mu_;
  absl::CondVar changed_;
  std::deque<int> queue_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, int> index_of_id_ ABSL_GUARDED_BY(mu_);
  int unresolved_ ABSL_GUARDED_BY(mu_) = 0;
  int in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  int retried_ ABSL_GUARDED_BY(mu_) = 0;
  int no_answer_ ABSL_GUARDED_BY(mu_) = 0;
  bool gave_up_ ABSL_GUARDED_BY(mu_) = false;  // --give_up_after passed
  std::map<std::string, int> by_code_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, int> by_instance_ ABSL_GUARDED_BY(mu_);
  absl::Time last_healthy_ ABSL_GUARDED_BY(mu_);
};

int BatchRun::TakeItem(int lane, absl::Time* wake) {
  if (static_cast<int>(lanes_[lane].in_flight.size()) >= lane_capacity_ ||
      in_flight_ >= concurrency_)
    return -1;
  int healthy_others = 0;
  for (size_t k = 0; k < lanes_.size(); ++k)
    if (static_cast<int>(k) != lane && lanes_[k].healthy) ++healthy_others;
  const absl::Time now = absl::Now();
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    Item& item = items_[*it];
    if (item.not_before > now) {
      *wake = std::min(*wake, item.not_before);
      continue;
    }
    // A retried item goes elsewhere while another lane works.
    if (item.last_lane == lane && healthy_others > 0) continue;
    const int index = *it;
    queue_.erase(it);
    return index;
  }
  return -1;
}

void BatchRun::Retry(int index, const grpc::Status& failure) {
  Item& item = items_[index];
  item.last_failure = failure;
  if (item.attempts >= max_attempts_) {
    Finish(index, failure, nullptr);
    return;
  }
  ++retried_;
  item.not_before =
      absl::Now() +
      Jittered(std::min(kMaxBackoff,
                        kFirstBackoff * (1 << std::min(item.attempts, 8))));
  // Retries go first so that an unlucky item does not wait for the whole file.
  queue_.push_front(index);
  changed_.SignalAll();
}

bool BatchRun::ParseTaken(int lane, int index, v1::Solver::Stub& stub) {
  Item& item = items_[index];
  if (item.parsed) return true;
  v1::ParseRequest request;
  request.set_kind(item.line.kind);
  request.set_text(item.line.text);
  grpc::ClientContext context;
  if (batch_deadline_ != absl::InfiniteFuture())
    context.set_deadline(absl::ToChronoTime(batch_deadline_));
  if (!token_.empty()) context.AddMetadata("authorization", "Bearer " + token_);
  v1::ParseResponse response;
  const grpc::Status status = stub.Parse(&context, request, &response);
  absl::MutexLock lock(&mu_);
  if (status.ok()) {
    *item.wire.mutable_request()->mutable_puzzle() =
        std::move(*response.mutable_puzzle());
    item.parsed = true;
    return true;
  }
  if (IsAnswer(status.error_code())) {
    // The line's own error, as a local parser would have put it.
    const std::string text = status.error_message();  // a copy, not a view
    absl::string_view message = text;
    if (!absl::ConsumePrefix(&message, "text: "))
      absl::ConsumePrefix(&message, "kind: ");
    Finish(index,
           grpc::Status(
               status.error_code(),
               absl::StrCat("line ", item.line.line_number, ": ", message)),
           nullptr);
  } else if (IsFatalForStream(status.error_code())) {
    Finish(index, status, nullptr);
  } else {
    // As an item whose stream broke: an attempt, tried again elsewhere.
    ++item.attempts;
    item.last_lane = lane;
    Retry(index, status);
  }
  return false;
}

void BatchRun::Finish(int index, const grpc::Status& status,
                      const v1::BatchResult* result) {
  Item& item = items_[index];
  if (item.done) return;
  item.done = true;
  --unresolved_;
  const grpc::StatusCode code = status.error_code();
  ++by_code_[CodeName(code)];
  if (!IsAnswer(code)) ++no_answer_;
  google::protobuf::Struct line;
  if (result != nullptr && code == grpc::StatusCode::OK) {
    line = SolveResultJson(result->stats(), result->summary());
    auto& t = *(*line.mutable_fields())["timings"]
                   .mutable_struct_value()
                   ->mutable_fields();
    t["client_seconds"] =
        JsonNumber(absl::ToDoubleSeconds(absl::Now() - item.sent));
  } else {
    auto& f = *line.mutable_fields();
    f["valid"] = JsonBool(false);
    f["energy"] = JsonNull();
    f["objective"] = JsonNull();
    f["board"] = JsonStrings({});
    f["violations"] = JsonStrings({});
    f["status_message"] = JsonString(status.error_message());
  }
  auto& f = *line.mutable_fields();
  f["id"] = JsonString(item.line.id);
  f["line"] = JsonNumber(item.line.line_number);
  f["kind"] = JsonString(item.line.kind);
  f["status"] = JsonString(CodeName(code));
  f["attempts"] = JsonNumber(item.attempts);
  const std::string instance =
      result != nullptr ? result->server_instance() : "";
  f["server_instance"] = JsonString(instance);
  if (!instance.empty()) ++by_instance_[instance];
  const std::string text = ResultLineJson(line);
  std::fprintf(out_, "%s\n", text.c_str());
  std::fflush(out_);
  changed_.SignalAll();
}

void BatchRun::ResultArrived(int lane, v1::BatchResult& result) {
  absl::MutexLock lock(&mu_);
  std::vector<int>& in_flight = lanes_[lane].in_flight;
  auto id = index_of_id_.find(result.id());
  if (id == index_of_id_.end()) return;
  auto it = std::find(in_flight.begin(), in_flight.end(), id->second);
  if (it == in_flight.end()) return;  // not ours: never sent on this stream
  in_flight.erase(it);
  --in_flight_;
  last_healthy_ = absl::Now();
  const auto code = static_cast<grpc::StatusCode>(result.status_code());
  const grpc::Status status(code, result.status_message());
  if (code == grpc::StatusCode::UNAVAILABLE) {
    Retry(id->second, status);
  } else {
    Finish(id->second, status, &result);
  }
  changed_.SignalAll();
}

void BatchRun::StreamEnded(int lane, const grpc::Status& status) {
  Lane& l = lanes_[lane];
  l.healthy = false;
  grpc::Status failure = status;
  if (status.ok()) {
    // The server ended the stream with items unanswered: try them again.
    failure = grpc::Status(grpc::StatusCode::UNAVAILABLE,
                           "the stream ended before the item's result");
  }
  for (int index : l.in_flight) {
    --in_flight_;
    if (IsFatalForStream(failure.error_code())) {
      Finish(index, failure, nullptr);
    } else {
      Retry(index, failure);
    }
  }
  l.in_flight.clear();
  changed_.SignalAll();
}

void BatchRun::FinishQueued(const grpc::Status& status) {
  while (!queue_.empty()) {
    const int index = queue_.front();
    queue_.pop_front();
    Finish(index, status, nullptr);
  }
}

void BatchRun::RunStream(int lane, v1::Solver::Stub& stub) {
  grpc::ClientContext context;
  if (batch_deadline_ != absl::InfiniteFuture())
    context.set_deadline(absl::ToChronoTime(batch_deadline_));
  if (!token_.empty()) context.AddMetadata("authorization", "Bearer " + token_);
  auto stream = stub.SolveBatch(&context);
  {
    absl::MutexLock lock(&mu_);
    lanes_[lane].healthy = true;
    lanes_[lane].broken = false;
    last_healthy_ = absl::Now();
  }
  std::thread reader([&] {
    v1::BatchResult result;
    while (stream->Read(&result)) ResultArrived(lane, result);
    absl::MutexLock lock(&mu_);
    lanes_[lane].broken = true;
    changed_.SignalAll();
  });
  while (true) {
    int index = -1;
    {
      absl::MutexLock lock(&mu_);
      while (true) {
        if (Stopping() || lanes_[lane].broken) break;
        absl::Time wake = absl::Now() + absl::Milliseconds(250);
        index = TakeItem(lane, &wake);
        if (index >= 0) break;
        changed_.WaitWithDeadline(&mu_, wake);
      }
      if (index < 0) break;
    }
    if (!ParseTaken(lane, index, stub)) continue;
    {
      absl::MutexLock lock(&mu_);
      Item& item = items_[index];
      ++item.attempts;
      item.last_lane = lane;
      item.sent = absl::Now();
      lanes_[lane].in_flight.push_back(index);
      ++in_flight_;
    }
    if (!stream->Write(items_[index].wire)) break;
  }
  stream->WritesDone();
  reader.join();
  const grpc::Status status = stream->Finish();
  absl::MutexLock lock(&mu_);
  StreamEnded(lane, status);
}

void BatchRun::LaneLoop(int lane) {
  auto stub = v1::Solver::NewStub(lanes_[lane].channel);
  absl::Duration backoff = kFirstBackoff;
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      if (Stopping()) return;
    }
    // Open a stream only on a connected channel, so that a dead address
    // costs its items no attempts.
    const bool connected = lanes_[lane].channel->WaitForConnected(
        absl::ToChronoTime(absl::Now() + absl::Seconds(1)));
    if (connected) {
      int answered_before;
      {
        absl::MutexLock lock(&mu_);
        answered_before = static_cast<int>(items_.size()) - unresolved_;
      }
      RunStream(lane, *stub);
      absl::MutexLock lock(&mu_);
      if (Stopping()) return;
      if (static_cast<int>(items_.size()) - unresolved_ > answered_before)
        backoff = kFirstBackoff;
    } else {
      absl::MutexLock lock(&mu_);
      lanes_[lane].healthy = false;
    }
    absl::MutexLock lock(&mu_);
    const absl::Time until = absl::Now() + Jittered(backoff);
    while (!Stopping() && absl::Now() < until)
      changed_.WaitWithDeadline(&mu_, until);
    backoff = std::min(kMaxBackoff, 2 * backoff);
  }
}

void BatchRun::DrawProgress(bool final) {
  const int total = static_cast<int>(items_.size());
  const int done = total - unresolved_;
  constexpr int kWidth = 30;
  const int filled = total == 0 ? kWidth : kWidth * done / total;
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start_);
  const double rate = seconds > 0 ? done / seconds : 0;
  const int failed = done - (by_code_.count("OK") ? by_code_.at("OK") : 0);
  std::string eta;
  if (!final && rate > 0 && unresolved_ > 0)
    eta = absl::StrFormat(" eta %.0fs", unresolved_ / rate);
  std::fprintf(stderr,
               "\r[%s%s] %d/%d ok %d failed %d retried %d in flight %d "
               "%.1f/s%s\x1b[K%s",
               std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), done, total,
               done - failed, failed, retried_, in_flight_, rate, eta.c_str(),
               final ? "\n" : "");
}

int BatchRun::Run() {
  start_ = absl::Now();
  const double deadline = absl::GetFlag(FLAGS_deadline);
  if (deadline > 0) batch_deadline_ = start_ + absl::Seconds(deadline);
  concurrency_ = std::max(1, absl::GetFlag(FLAGS_concurrency));
  lane_capacity_ =
      std::max<int>(1, (concurrency_ + static_cast<int>(lanes_.size()) - 1) /
                           static_cast<int>(lanes_.size()));
  max_attempts_ = 1 + std::max(0, absl::GetFlag(FLAGS_retries));
  give_up_after_ = absl::Seconds(absl::GetFlag(FLAGS_give_up_after));
  token_ = AuthToken();
  const std::string progress = absl::GetFlag(FLAGS_progress);
  progress_ = progress == "on" || (progress == "auto" && isatty(STDERR_FILENO));
  {
    absl::MutexLock lock(&mu_);
    last_healthy_ = start_;
    unresolved_ = static_cast<int>(items_.size());
    for (size_t k = 0; k < items_.size(); ++k) {
      index_of_id_[items_[k].line.id] = static_cast<int>(k);
      // Lines whose text does not parse are answered here, without a server.
      if (!items_[k].last_failure.ok()) {
        Finish(static_cast<int>(k), items_[k].last_failure, nullptr);
      } else {
        queue_.push_back(static_cast<int>(k));
      }
    }
  }
  std::vector<std::thread> threads;
  for (size_t k = 0; k < lanes_.size(); ++k)
    threads.emplace_back([this, k] { LaneLoop(static_cast<int>(k)); });
  {
    absl::MutexLock lock(&mu_);
    absl::Time last_draw = absl::InfinitePast();
    while (!Stopping()) {
      changed_.WaitWithTimeout(&mu_, absl::Milliseconds(200));
      const absl::Time now = absl::Now();
      if (now >= batch_deadline_) {
        FinishQueued(grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                                  "the batch deadline (--deadline) passed"));
      }
      const bool any_healthy =
          std::any_of(lanes_.begin(), lanes_.end(),
                      [](const Lane& l) { return l.healthy; });
      if (!any_healthy && in_flight_ == 0 &&
          now - last_healthy_ > give_up_after_) {
        gave_up_ = true;
        FinishQueued(
            grpc::Status(grpc::StatusCode::UNAVAILABLE,
                         absl::StrCat("no server reachable for ",
                                      absl::FormatDuration(give_up_after_),
                                      " at ", absl::GetFlag(FLAGS_addr))));
      }
      if (progress_ && now - last_draw >= absl::Milliseconds(100)) {
        DrawProgress(false);
        last_draw = now;
      }
    }
    if (progress_) DrawProgress(true);
  }
  for (auto& t : threads) t.join();
  absl::MutexLock lock(&mu_);
  std::vector<std::string> codes, instances;
  for (const auto& [code, n] : by_code_)
    codes.push_back(absl::StrCat(n, " ", code));
  for (const auto& [name, n] : by_instance_)
    instances.push_back(absl::StrCat(name, " ", n));
  std::fprintf(
      stderr, "%zu items in %.2f s: %s; %d retries; servers: %s\n",
      items_.size(), absl::ToDoubleSeconds(absl::Now() - start_),
      codes.empty() ? "none" : absl::StrJoin(codes, ", ").c_str(), retried_,
      instances.empty() ? "none" : absl::StrJoin(instances, ", ").c_str());
  if (gave_up_) PrintNoServerHint();
  return no_answer_ == 0 ? 0 : kExitRpcError;
}

grpc::ChannelArguments BatchChannelArgs(bool round_robin) {
  grpc::ChannelArguments args;
  if (round_robin) args.SetLoadBalancingPolicyName("round_robin");
  // A replica that comes back is found again within seconds.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 20000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 10000);
  return args;
}

}  // namespace

int Batch() {
  const std::string path = absl::GetFlag(FLAGS_input_file);
  std::string content;
  if (path.empty() || path == "-") {
    std::stringstream buffer;
    buffer << std::cin.rdbuf();
    content = buffer.str();
  } else {
    std::ifstream in(path);
    if (!in)
      return ReportLocalError(absl::NotFoundError(
          absl::StrCat("--input-file: cannot open ", path)));
    std::stringstream buffer;
    buffer << in.rdbuf();
    content = buffer.str();
  }
  auto lines = formats::ParseBatchLines(content);
  if (!lines.ok()) return ReportLocalError(lines.status());
  auto options = CompileOptionsFromFlags();
  if (!options.ok()) return ReportLocalError(options.status());
  auto params = SolveParamsFromFlags();
  if (!params.ok()) return ReportLocalError(params.status());

  std::vector<Item> items;
  items.reserve(lines->size());
  for (formats::BatchLine& line : *lines) {
    Item item;
    item.wire.set_id(line.id);
    v1::SolveRequest& request = *item.wire.mutable_request();
    *request.mutable_compile() = *options;
    *request.mutable_params() = *params;
    // Raw model files are read here with --format and --sense; the lanes'
    // servers parse the other lines.
    if (ReadsLocally(line.kind)) {
      ParseFieldNames names;
      names.text = "";
      auto puzzle = ReadLocally(line.kind, line.text, "", names);
      if (puzzle.ok()) {
        *request.mutable_puzzle() = std::move(*puzzle->mutable_puzzle());
        item.parsed = true;
      } else {
        item.last_failure =
            grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                         absl::StrCat("line ", line.line_number, ": ",
                                      puzzle.status().message()));
      }
    }
    item.line = std::move(line);
    items.push_back(std::move(item));
  }

  const std::string addr = absl::GetFlag(FLAGS_addr);
  std::vector<Lane> lanes;
  int streams = absl::GetFlag(FLAGS_streams);
  if (IsGrpcTarget(addr)) {
    auto channel = MakeChannel(addr, BatchChannelArgs(/*round_robin=*/true));
    if (streams <= 0) {
      // One stream per listed address; round robin spreads them.
      const bool listed =
          addr.rfind("ipv4:", 0) == 0 || addr.rfind("ipv6:", 0) == 0;
      streams =
          listed
              ? static_cast<int>(std::count(addr.begin(), addr.end(), ',') + 1)
              : 2;
    }
    for (int k = 0; k < streams; ++k) {
      Lane lane;
      lane.target = addr;
      lane.channel = channel;
      lanes.push_back(std::move(lane));
    }
  } else {
    std::vector<std::string> addresses =
        absl::StrSplit(addr, ',', absl::SkipWhitespace());
    if (addresses.empty())
      return ReportLocalError(absl::InvalidArgumentError("--addr: no address"));
    std::vector<std::shared_ptr<grpc::Channel>> channels;
    for (const std::string& a : addresses)
      channels.push_back(MakeChannel(a, BatchChannelArgs(false)));
    if (streams <= 0) streams = static_cast<int>(addresses.size());
    for (int k = 0; k < streams; ++k) {
      const size_t a = k % addresses.size();
      Lane lane;
      lane.target = addresses[a];
      lane.channel = channels[a];
      lanes.push_back(std::move(lane));
    }
  }

  FILE* out = stdout;
  const std::string output = absl::GetFlag(FLAGS_output);
  if (!output.empty()) {
    out = std::fopen(output.c_str(), "w");
    if (out == nullptr)
      return ReportLocalError(absl::UnavailableError(
          absl::StrCat("--output: cannot write ", output)));
  }
  BatchRun run(std::move(items), std::move(lanes), out);
  const int code = run.Run();
  if (out != stdout) std::fclose(out);
  return code;
}

}  // namespace qs::cli
