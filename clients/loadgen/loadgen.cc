// qs_loadgen: a closed-loop load generator for the qs.v1.Solver service on the
// gRPC callback API. `--concurrency` requests are kept in flight (Solve calls,
// or items spread over SolveBatch streams); each one that finishes starts the
// next until `--requests` were made or `--duration` passed. A warm-up phase
// runs first and is not measured. The report gives throughput, latency
// percentiles, status codes, the valid-solution rate per puzzle kind, and, when
// `--metrics` names the servers' /metrics pages, the servers' phase split
// (queue, compile, sample, decode) and the share of served time spent outside
// the annealer.
//
//   qs_loadgen --targets 127.0.0.1:50051 --concurrency 8 --requests 2000
//       --warmup 100 --reads 32 --metrics 127.0.0.1:9464 --json_report r.json
//
// Every call has a deadline and the whole run is capped by --max_seconds, so a
// run always ends.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "clients/common/param_settings.h"
#include "clients/loadgen/load_stats.h"
#include "curl/curl.h"
#include "formats/batch_lines.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "qs/v1/solver_service.grpc.pb.h"

ABSL_FLAG(
    std::string, targets, "127.0.0.1:50051",
    "Servers: host:port,host:port (one channel each, requests dealt "
    "round-robin) or a gRPC target such as ipv4:a:1,b:2 or dns:///name:port "
    "(one channel with round_robin load balancing)");
ABSL_FLAG(std::string, mode, "solve",
          "solve (one Solve call per request) or batch (items over SolveBatch "
          "streams)");
ABSL_FLAG(int, concurrency, 8, "Requests in flight at once");
ABSL_FLAG(int64_t, requests, 0,
          "Measured requests; 0: as many as --duration allows (1000 when "
          "neither is given)");
ABSL_FLAG(double, duration, 0,
          "Seconds to keep issuing measured requests; 0: "
          "until --requests");
ABSL_FLAG(int64_t, warmup, 0, "Requests before the measurement (not counted)");
ABSL_FLAG(double, max_seconds, 600,
          "Hard cap on the whole run: calls still open then end with "
          "DEADLINE_EXCEEDED");
ABSL_FLAG(double, deadline, 60, "Deadline of each Solve call, seconds");
ABSL_FLAG(int, streams, 0,
          "batch mode: SolveBatch streams; 0: one per channel");
ABSL_FLAG(int, connections, 1,
          "Channels (HTTP/2 connections) per address of --targets");
ABSL_FLAG(std::string, mix, "builtin",
          "Puzzles: 'builtin' (the example of every kind the server lists, "
          "`qsolve families`) or a batch file (the `qsolve batch` line "
          "format), used round-robin; the server parses every text");
ABSL_FLAG(std::string, kinds, "",
          "Keep only these kinds of the mix (comma-separated); empty: all");
ABSL_FLAG(std::string, backend, "",
          "Backend of every request, as `qsolve backends` lists them; empty: "
          "the server's default (auto)");
ABSL_FLAG(std::string, auto_exact, "",
          "auto's exact engines: race, proof or off (QUBO samplers alone); "
          "empty: race");
ABSL_FLAG(int64_t, reads, 32, "num_reads of every request");
ABSL_FLAG(bool, stop_at_first_valid, true,
          "Every request stops at its first valid board (or the puzzle's "
          "ground energy); with --time_limit, a sampler whose reads all miss "
          "runs again on derived seeds until it finds one, as a user solving "
          "puzzles asks. false (with --time_limit 0): fixed reads x sweeps");
ABSL_FLAG(double, time_limit, 10,
          "time_limit_seconds of every request; 0: none (fixed reads x "
          "sweeps, which a sampler may end without a valid board)");
ABSL_FLAG(int64_t, sweeps, 0, "num_sweeps of every request; 0: the server's");
ABSL_FLAG(int64_t, max_samples, 0,
          "max_sample_events of every request (the lowest-energy samples "
          "streamed); 0: every sample");
ABSL_FLAG(int64_t, seed, -1,
          "Seed of request k is seed + k; -1: the server draws seeds");
ABSL_FLAG(std::string, metrics, "",
          "Comma-separated /metrics addresses of the servers (host:port or "
          "URLs), scraped before and after the measurement for the phase "
          "split");
ABSL_FLAG(std::string, json_report, "", "Also write the report as JSON here");
ABSL_FLAG(std::string, token_file, "",
          "File holding a bearer token; default: the QS_AUTH_TOKEN variable");

namespace qs::loadgen {
namespace {

struct MixEntry {
  std::string name;  // the line's id
  std::string kind;
  v1::PuzzleSpec puzzle;
};

// --backend, --auto_exact and --param on every request's params, as qsolve
// sets them (INVALID_ARGUMENT naming the flag).
absl::Status SetBackendParams(v1::SolveParams& params) {
  params.set_backend(absl::GetFlag(FLAGS_backend));
  absl::StatusOr<std::vector<clients::ParamSetting>> settings =
      clients::ParamSettingsOfParamFlag();
  if (!settings.ok()) return settings.status();
  if (std::string exact = absl::GetFlag(FLAGS_auto_exact); !exact.empty()) {
    if (exact == "proof") exact = "EXACT_PROOF_ONLY";
    settings->insert(settings->begin(), {"exact", exact, "--auto_exact"});
  }
  return clients::ApplyParamSettings(*settings, params);
}

// A unary call's context: the per-call deadline and the bearer token. It
// waits for a server that is still starting.
void PrepareUnary(grpc::ClientContext& context, const std::string& token) {
  context.set_deadline(absl::ToChronoTime(
      absl::Now() + absl::Seconds(absl::GetFlag(FLAGS_deadline))));
  context.set_wait_for_ready(true);
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
}

absl::Status StatusOf(const grpc::Status& status) {
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      status.error_message());
}

// The lines of the mix: `builtin` is one line per kind the server lists
// (ListFamilies), its example; a file is batch lines.
absl::StatusOr<std::vector<formats::BatchLine>> MixLines(
    v1::Solver::Stub& stub, const std::string& token,
    const std::string& source) {
  if (source == "builtin") {
    grpc::ClientContext context;
    PrepareUnary(context, token);
    v1::ListFamiliesResponse families;
    const grpc::Status status =
        stub.ListFamilies(&context, v1::ListFamiliesRequest(), &families);
    if (!status.ok()) return StatusOf(status);
    std::vector<formats::BatchLine> lines;
    for (const v1::FamilyDescription& family : families.families()) {
      formats::BatchLine line;
      line.line_number = static_cast<int>(lines.size()) + 1;
      line.id = family.kind();
      line.kind = family.kind();
      line.text = family.example();
      lines.push_back(std::move(line));
    }
    return lines;
  }
  std::ifstream in(source);
  if (!in)
    return absl::NotFoundError(absl::StrCat("--mix: cannot open ", source));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return formats::ParseBatchLines(buffer.str());
}

// The puzzles of the mix, each text parsed by the server (Solver.Parse): the
// load generator knows no puzzle family.
absl::StatusOr<std::vector<MixEntry>> LoadMix(v1::Solver::Stub& stub,
                                              const std::string& token,
                                              const std::string& source,
                                              const std::string& kinds_filter) {
  auto lines = MixLines(stub, token, source);
  if (!lines.ok()) return lines.status();
  std::vector<std::string> wanted =
      absl::StrSplit(kinds_filter, ',', absl::SkipWhitespace());
  std::vector<MixEntry> mix;
  for (const formats::BatchLine& line : *lines) {
    if (!wanted.empty() &&
        std::find(wanted.begin(), wanted.end(), line.kind) == wanted.end())
      continue;
    v1::ParseRequest request;
    request.set_kind(line.kind);
    request.set_text(line.text);
    grpc::ClientContext context;
    PrepareUnary(context, token);
    v1::ParseResponse parsed;
    const grpc::Status status = stub.Parse(&context, request, &parsed);
    if (!status.ok()) {
      return absl::Status(
          static_cast<absl::StatusCode>(status.error_code()),
          absl::StrCat("--mix ", source, " line ", line.line_number, " (",
                       line.kind, "): ", status.error_message()));
    }
    mix.push_back({line.id, line.kind, std::move(*parsed.mutable_puzzle())});
  }
  if (mix.empty()) return absl::InvalidArgumentError("--mix: no puzzles");
  return mix;
}

std::string CodeName(grpc::StatusCode code) {
  return absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
}

struct Record {
  double seconds = 0;
  grpc::StatusCode code = grpc::StatusCode::OK;
  bool valid = false;
  int mix_index = 0;
  std::string instance;
  // The engine whose board was the answer (SolveSummary.solved_by).
  std::string solved_by;
};

// One phase of the run (warm-up or measurement): hands out request numbers
// until its budget is spent and collects what came back.
class Phase {
 public:
  Phase(int64_t max_requests, absl::Time stop_issuing, absl::Time hard_end)
      : max_requests_(max_requests),
        stop_issuing_(stop_issuing),
        hard_end_(hard_end),
        start_(absl::Now()) {}

  // The next request's number, or false when the phase issues no more.
  bool TryIssue(int64_t* sequence) {
    absl::MutexLock lock(&mu_);
    if ((max_requests_ > 0 && issued_ >= max_requests_) ||
        absl::Now() >= stop_issuing_)
      return false;
    *sequence = issued_++;
    return true;
  }

  void Add(Record record) {
    absl::MutexLock lock(&mu_);
    records_.push_back(std::move(record));
    last_done_ = absl::Now();
  }

  void DriverDone() {
    absl::MutexLock lock(&mu_);
    ++drivers_done_;
  }

  // Blocks until `drivers` drivers (call loops or streams) have ended.
  void Wait(int drivers) {
    absl::MutexLock lock(&mu_);
    auto all_done = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return drivers_done_ >= drivers;
    };
    mu_.Await(absl::Condition(&all_done));
  }

  absl::Time hard_end() const { return hard_end_; }
  absl::Time start() const { return start_; }
  std::vector<Record> records() {
    absl::MutexLock lock(&mu_);
    return records_;
  }
  absl::Time last_done() {
    absl::MutexLock lock(&mu_);
    return last_done_;
  }

 private:
  const int64_t max_requests_;
  const absl::Time stop_issuing_;
  const absl::Time hard_end_;
  const absl::Time start_;
  absl::Mutex mu_;
  int64_t issued_ ABSL_GUARDED_BY(mu_) = 0;
  int drivers_done_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<Record> records_ ABSL_GUARDED_BY(mu_);
  absl::Time last_done_ ABSL_GUARDED_BY(mu_) = absl::Now();
};

struct Setup {
  std::vector<std::unique_ptr<v1::Solver::Stub>> stubs;
  std::vector<MixEntry> mix;
  v1::SolveParams params;
  int64_t seed = -1;
  std::string token;
  absl::Duration deadline;

  v1::SolveRequest Request(int64_t sequence, int* mix_index) const {
    *mix_index = static_cast<int>(sequence % static_cast<int64_t>(mix.size()));
    v1::SolveRequest request;
    *request.mutable_puzzle() = mix[*mix_index].puzzle;
    *request.mutable_params() = params;
    if (seed >= 0)
      request.mutable_params()->set_seed(
          static_cast<uint64_t>(seed + sequence));
    return request;
  }
  void Prepare(grpc::ClientContext& context, absl::Time deadline_at) const {
    context.set_deadline(absl::ToChronoTime(deadline_at));
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
  }
};

// One Solve call; when it ends it starts the next one of its loop.
class SolveCall final : public grpc::ClientReadReactor<v1::SolveResponse> {
 public:
  static void StartNext(const Setup* setup, Phase* phase) {
    int64_t sequence;
    if (!phase->TryIssue(&sequence)) {
      phase->DriverDone();
      return;
    }
    (new SolveCall(setup, phase, sequence))->Start();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;
    if (response_.has_header())
      instance_ = response_.header().server_instance();
    if (response_.has_summary()) {
      valid_ = response_.summary().best_valid();
      solved_by_ = response_.summary().solved_by();
    }
    StartRead(&response_);
  }

  void OnDone(const grpc::Status& status) override {
    phase_->Add({absl::ToDoubleSeconds(absl::Now() - start_),
                 status.error_code(), status.ok() && valid_, mix_index_,
                 instance_, solved_by_});
    StartNext(setup_, phase_);
    delete this;
  }

 private:
  SolveCall(const Setup* setup, Phase* phase, int64_t sequence)
      : setup_(setup), phase_(phase) {
    request_ = setup->Request(sequence, &mix_index_);
    stub_ = setup->stubs[sequence % setup->stubs.size()].get();
    setup->Prepare(context_,
                   std::min(absl::Now() + setup->deadline, phase->hard_end()));
  }

  void Start() {
    start_ = absl::Now();
    stub_->async()->Solve(&context_, &request_, this);
    StartRead(&response_);
    StartCall();
  }

  const Setup* const setup_;
  Phase* const phase_;
  v1::Solver::Stub* stub_ = nullptr;
  grpc::ClientContext context_;
  v1::SolveRequest request_;
  v1::SolveResponse response_;
  int mix_index_ = 0;
  absl::Time start_;
  bool valid_ = false;
  std::string solved_by_;
  std::string instance_;
};

// One SolveBatch stream keeping up to `capacity` items in flight; each result
// frees a slot for the next item.
class BatchStream final
    : public grpc::ClientBidiReactor<v1::BatchItem, v1::BatchResult> {
 public:
  BatchStream(const Setup* setup, Phase* phase, v1::Solver::Stub* stub,
              int capacity)
      : setup_(setup), phase_(phase) {
    setup->Prepare(context_, phase->hard_end());
    stub->async()->SolveBatch(&context_, this);
    StartRead(&result_);
    Next next;
    {
      absl::MutexLock lock(&mu_);
      for (int k = 0; k < capacity; ++k) {
        if (!IssueLocked()) break;
      }
      next = NextLocked();
    }
    Do(next);
    StartCall();
  }

  void OnWriteDone(bool ok) override {
    Next next;
    {
      absl::MutexLock lock(&mu_);
      writing_ = false;
      if (!ok) broken_ = true;
      next = NextLocked();
    }
    Do(next);
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;
    Next next;
    {
      absl::MutexLock lock(&mu_);
      auto it = in_flight_.find(result_.id());
      if (it != in_flight_.end()) {
        const auto code = static_cast<grpc::StatusCode>(result_.status_code());
        phase_->Add(
            {absl::ToDoubleSeconds(absl::Now() - it->second.sent), code,
             code == grpc::StatusCode::OK && result_.summary().best_valid(),
             it->second.mix_index, result_.server_instance(),
             result_.summary().solved_by()});
        in_flight_.erase(it);
      }
      if (!broken_) IssueLocked();
      next = NextLocked();
    }
    Do(next);
    StartRead(&result_);
  }

  void OnDone(const grpc::Status& status) override {
    {
      absl::MutexLock lock(&mu_);
      // Items the stream took down with it end with the stream's status.
      const grpc::StatusCode code =
          status.ok() ? grpc::StatusCode::UNKNOWN : status.error_code();
      for (const auto& [id, sent] : in_flight_) {
        phase_->Add({absl::ToDoubleSeconds(absl::Now() - sent.sent), code,
                     false, sent.mix_index, "", ""});
      }
    }
    phase_->DriverDone();
    delete this;
  }

 private:
  struct Sent {
    absl::Time sent;
    int mix_index = 0;
  };

  bool IssueLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    int64_t sequence;
    if (!phase_->TryIssue(&sequence)) return false;
    v1::BatchItem item;
    item.set_id(absl::StrCat(sequence));
    int mix_index;
    *item.mutable_request() = setup_->Request(sequence, &mix_index);
    in_flight_[item.id()] = {absl::Now(), mix_index};
    queue_.push_back(std::move(item));
    return true;
  }

  enum class Next { kNothing, kWrite, kWritesDone };

  // Decides under the lock whether to write the next item or to half-close
  // once nothing is left to send; Do() makes the call outside the lock.
  Next NextLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (writing_ || writes_done_ || broken_) return Next::kNothing;
    if (!queue_.empty()) {
      writing_ = true;
      current_ = std::move(queue_.front());
      queue_.pop_front();
      return Next::kWrite;
    }
    if (in_flight_.empty()) {
      writes_done_ = true;
      return Next::kWritesDone;
    }
    return Next::kNothing;
  }

  void Do(Next next) {
    if (next == Next::kWrite) StartWrite(&current_);
    if (next == Next::kWritesDone) StartWritesDone();
  }

  const Setup* const setup_;
  Phase* const phase_;
  grpc::ClientContext context_;
  v1::BatchResult result_;
  absl::Mutex mu_;
  std::map<std::string, Sent> in_flight_ ABSL_GUARDED_BY(mu_);
  std::deque<v1::BatchItem> queue_ ABSL_GUARDED_BY(mu_);
  v1::BatchItem current_;  // the item being written; touched by the writer
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool writes_done_ ABSL_GUARDED_BY(mu_) = false;
  bool broken_ ABSL_GUARDED_BY(mu_) = false;
};

// Runs one phase to its end with `concurrency` requests in flight.
void RunPhase(const Setup& setup, Phase& phase, const std::string& mode,
              int concurrency, int streams) {
  if (mode == "batch") {
    streams = std::max(1, std::min(streams, concurrency));
    for (int s = 0; s < streams; ++s) {
      const int capacity = concurrency / streams + (s < concurrency % streams);
      new BatchStream(&setup, &phase, setup.stubs[s % setup.stubs.size()].get(),
                      capacity);
    }
    phase.Wait(streams);
  } else {
    for (int k = 0; k < concurrency; ++k) SolveCall::StartNext(&setup, &phase);
    phase.Wait(concurrency);
  }
}

size_t AppendToString(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

absl::StatusOr<std::vector<MetricSample>> Scrape(const std::string& address) {
  std::string url = address;
  if (url.find("://") == std::string::npos) url = "http://" + url;
  if (url.find('/', url.find("://") + 3) == std::string::npos)
    url += "/metrics";
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return absl::InternalError("curl_easy_init failed");
  std::string body;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &AppendToString);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
  const CURLcode code = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  if (code != CURLE_OK) {
    return absl::UnavailableError(
        absl::StrCat(url, ": ", curl_easy_strerror(code)));
  }
  return ParsePrometheusText(body);
}

// All /metrics pages of --metrics, concatenated (sums then add up replicas).
absl::StatusOr<std::vector<MetricSample>> ScrapeAll(
    const std::vector<std::string>& addresses) {
  std::vector<MetricSample> all;
  for (const std::string& address : addresses) {
    auto samples = Scrape(address);
    if (!samples.ok()) return samples.status();
    all.insert(all.end(), samples->begin(), samples->end());
  }
  return all;
}

google::protobuf::Value Number(double x) {
  google::protobuf::Value v;
  v.set_number_value(x);
  return v;
}

google::protobuf::Value String(const std::string& s) {
  google::protobuf::Value v;
  v.set_string_value(s);
  return v;
}

google::protobuf::Value LatencyJson(const Percentiles& p) {
  google::protobuf::Value v;
  auto& f = *v.mutable_struct_value()->mutable_fields();
  f["count"] = Number(static_cast<double>(p.count));
  f["mean_ms"] = Number(p.mean * 1e3);
  f["p50_ms"] = Number(p.p50 * 1e3);
  f["p90_ms"] = Number(p.p90 * 1e3);
  f["p99_ms"] = Number(p.p99 * 1e3);
  f["max_ms"] = Number(p.max * 1e3);
  return v;
}

std::string LatencyText(const Percentiles& p) {
  return absl::StrFormat("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
                         p.p50 * 1e3, p.p90 * 1e3, p.p99 * 1e3, p.max * 1e3);
}

std::vector<std::unique_ptr<v1::Solver::Stub>> MakeStubs(
    const std::string& targets, int connections) {
  std::vector<std::string> addresses;
  grpc::ChannelArguments base;
  base.SetMaxReceiveMessageSize(256 << 20);
  bool round_robin = false;
  for (const char* scheme : {"ipv4:", "ipv6:", "dns:", "unix:"}) {
    if (targets.rfind(scheme, 0) == 0) round_robin = true;
  }
  if (round_robin) {
    addresses.push_back(targets);
    base.SetLoadBalancingPolicyName("round_robin");
  } else {
    addresses = absl::StrSplit(targets, ',', absl::SkipWhitespace());
  }
  std::vector<std::unique_ptr<v1::Solver::Stub>> stubs;
  for (int c = 0; c < std::max(1, connections); ++c) {
    for (const std::string& address : addresses) {
      grpc::ChannelArguments args = base;
      // Distinct arguments keep channels from sharing one connection.
      args.SetInt("qs.loadgen.connection", c);
      stubs.push_back(v1::Solver::NewStub(grpc::CreateCustomChannel(
          address, grpc::InsecureChannelCredentials(), args)));
    }
  }
  return stubs;
}

int Main() {
  const std::string mode = absl::GetFlag(FLAGS_mode);
  if (mode != "solve" && mode != "batch") {
    std::fprintf(stderr, "--mode: solve or batch, got '%s'\n", mode.c_str());
    return 2;
  }
  const int concurrency = absl::GetFlag(FLAGS_concurrency);
  if (concurrency < 1) {
    std::fprintf(stderr, "--concurrency must be >= 1\n");
    return 2;
  }
  Setup setup;
  setup.stubs =
      MakeStubs(absl::GetFlag(FLAGS_targets), absl::GetFlag(FLAGS_connections));
  if (setup.stubs.empty()) {
    std::fprintf(stderr, "--targets: no address\n");
    return 2;
  }
  if (absl::Status s = SetBackendParams(setup.params); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 2;
  }
  if (absl::GetFlag(FLAGS_reads) > 0)
    setup.params.set_num_reads(
        static_cast<uint32_t>(absl::GetFlag(FLAGS_reads)));
  if (absl::GetFlag(FLAGS_sweeps) > 0)
    setup.params.set_num_sweeps(
        static_cast<uint32_t>(absl::GetFlag(FLAGS_sweeps)));
  setup.params.set_stop_at_first_valid(
      absl::GetFlag(FLAGS_stop_at_first_valid));
  if (absl::GetFlag(FLAGS_time_limit) < 0) {
    std::fprintf(stderr, "--time_limit must be >= 0\n");
    return 2;
  }
  setup.params.set_time_limit_seconds(absl::GetFlag(FLAGS_time_limit));
  if (absl::GetFlag(FLAGS_max_samples) > 0)
    setup.params.set_max_sample_events(
        static_cast<uint32_t>(absl::GetFlag(FLAGS_max_samples)));
  setup.seed = absl::GetFlag(FLAGS_seed);
  setup.deadline = absl::Seconds(absl::GetFlag(FLAGS_deadline));
  if (const std::string file = absl::GetFlag(FLAGS_token_file); !file.empty()) {
    std::ifstream in(file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    setup.token = std::string(absl::StripAsciiWhitespace(buffer.str()));
  } else if (const char* env = std::getenv("QS_AUTH_TOKEN"); env != nullptr) {
    setup.token = env;
  }
  auto mix = LoadMix(*setup.stubs.front(), setup.token,
                     absl::GetFlag(FLAGS_mix), absl::GetFlag(FLAGS_kinds));
  if (!mix.ok()) {
    std::fprintf(stderr, "%s: %s\n",
                 absl::StatusCodeToString(mix.status().code()).c_str(),
                 std::string(mix.status().message()).c_str());
    // A mix the server refuses is the caller's to fix; no server, a failure.
    return mix.status().code() == absl::StatusCode::kInvalidArgument ||
                   mix.status().code() == absl::StatusCode::kNotFound
               ? 2
               : 1;
  }
  setup.mix = *std::move(mix);
  const int streams = absl::GetFlag(FLAGS_streams) > 0
                          ? absl::GetFlag(FLAGS_streams)
                          : static_cast<int>(setup.stubs.size());
  std::vector<std::string> metrics_addresses =
      absl::StrSplit(absl::GetFlag(FLAGS_metrics), ',', absl::SkipWhitespace());

  const absl::Time hard_end =
      absl::Now() + absl::Seconds(absl::GetFlag(FLAGS_max_seconds));
  if (const int64_t warmup = absl::GetFlag(FLAGS_warmup); warmup > 0) {
    Phase phase(warmup, hard_end, hard_end);
    RunPhase(setup, phase, mode, concurrency, streams);
  }
  std::vector<MetricSample> before;
  if (!metrics_addresses.empty()) {
    auto scraped = ScrapeAll(metrics_addresses);
    if (!scraped.ok()) {
      std::fprintf(stderr, "--metrics: %s\n",
                   std::string(scraped.status().message()).c_str());
      return 1;
    }
    before = *std::move(scraped);
  }
  int64_t requests = absl::GetFlag(FLAGS_requests);
  const double duration = absl::GetFlag(FLAGS_duration);
  if (requests <= 0 && duration <= 0) requests = 1000;
  const absl::Time stop_issuing =
      duration > 0 ? std::min(hard_end, absl::Now() + absl::Seconds(duration))
                   : hard_end;
  Phase phase(requests, stop_issuing, hard_end);
  RunPhase(setup, phase, mode, concurrency, streams);
  const std::vector<Record> records = phase.records();
  const double wall =
      std::max(1e-9, absl::ToDoubleSeconds(phase.last_done() - phase.start()));

  // Tallies.
  std::map<std::string, int64_t> by_code, by_instance, by_engine;
  std::vector<double> ok_latencies;
  std::map<std::string, std::vector<double>> kind_latencies;
  std::map<std::string, std::pair<int64_t, int64_t>> kind_valid;  // valid, ok
  int64_t ok = 0, valid = 0;
  for (const Record& r : records) {
    ++by_code[CodeName(r.code)];
    if (!r.instance.empty()) ++by_instance[r.instance];
    if (r.code != grpc::StatusCode::OK) continue;
    ++ok;
    valid += r.valid;
    if (!r.solved_by.empty()) ++by_engine[r.solved_by];
    ok_latencies.push_back(r.seconds);
    const std::string& kind = setup.mix[r.mix_index].kind;
    kind_latencies[kind].push_back(r.seconds);
    kind_valid[kind].first += r.valid;
    ++kind_valid[kind].second;
  }
  const Percentiles latency = ComputePercentiles(ok_latencies);

  google::protobuf::Struct report;
  auto& f = *report.mutable_fields();
  f["mode"] = String(mode);
  f["targets"] = String(absl::GetFlag(FLAGS_targets));
  f["concurrency"] = Number(concurrency);
  f["reads"] = Number(static_cast<double>(absl::GetFlag(FLAGS_reads)));
  const std::string backend =
      setup.params.backend().empty() ? "auto" : setup.params.backend();
  f["backend"] = String(backend);
  f["requests"] = Number(static_cast<double>(records.size()));
  f["seconds"] = Number(wall);
  f["requests_per_second"] = Number(records.size() / wall);
  f["ok"] = Number(static_cast<double>(ok));
  f["valid"] = Number(static_cast<double>(valid));
  f["valid_rate"] = Number(ok > 0 ? static_cast<double>(valid) / ok : 0);
  f["latency"] = LatencyJson(latency);
  google::protobuf::Value codes, instances, kinds;
  for (const auto& [code, n] : by_code)
    (*codes.mutable_struct_value()->mutable_fields())[code] =
        Number(static_cast<double>(n));
  for (const auto& [name, n] : by_instance)
    (*instances.mutable_struct_value()->mutable_fields())[name] =
        Number(static_cast<double>(n));
  google::protobuf::Value engines;
  std::vector<std::string> engine_parts;
  for (const auto& [engine, n] : by_engine) {
    (*engines.mutable_struct_value()->mutable_fields())[engine] =
        Number(static_cast<double>(n));
    engine_parts.push_back(absl::StrCat(engine, " ", n));
  }
  f["solved_by"] = engines;
  f["status_codes"] = codes;
  f["server_instances"] = instances;

  std::printf(
      "%s mode, %d in flight, %zu requests in %.2f s: %.1f requests/s\n",
      mode.c_str(), concurrency, records.size(), wall, records.size() / wall);
  std::printf("backend %s%s; answers by engine: %s\n", backend.c_str(),
              setup.params.backend().empty() ? " (the server's default)" : "",
              engine_parts.empty() ? "none"
                                   : absl::StrJoin(engine_parts, ", ").c_str());
  std::printf("latency (OK): %s\n", LatencyText(latency).c_str());
  std::vector<std::string> code_parts;
  for (const auto& [code, n] : by_code)
    code_parts.push_back(absl::StrCat(code, " ", n));
  std::printf("status: %s\n", absl::StrJoin(code_parts, ", ").c_str());
  std::printf("valid solutions: %lld of %lld OK (%.1f%%)\n",
              static_cast<long long>(valid), static_cast<long long>(ok),
              ok > 0 ? 100.0 * valid / ok : 0.0);
  for (const auto& [kind, values] : kind_latencies) {
    const Percentiles p = ComputePercentiles(values);
    const auto [kv, kok] = kind_valid[kind];
    std::printf("  %-8s %6lld OK, %5.1f%% valid, %s\n", kind.c_str(),
                static_cast<long long>(kok), 100.0 * kv / kok,
                LatencyText(p).c_str());
    google::protobuf::Value k = LatencyJson(p);
    (*k.mutable_struct_value()->mutable_fields())["valid_rate"] =
        Number(static_cast<double>(kv) / kok);
    (*kinds.mutable_struct_value()->mutable_fields())[kind] = k;
  }
  f["kinds"] = kinds;
  if (!by_instance.empty()) {
    std::vector<std::string> parts;
    for (const auto& [name, n] : by_instance)
      parts.push_back(absl::StrCat(name, " ", n));
    std::printf("server instances: %s\n", absl::StrJoin(parts, ", ").c_str());
  }

  if (!metrics_addresses.empty()) {
    // The servers record a request after its status went out: give them a
    // moment.
    absl::SleepFor(absl::Milliseconds(200));
    auto after = ScrapeAll(metrics_addresses);
    if (!after.ok()) {
      std::fprintf(stderr, "--metrics: %s\n",
                   std::string(after.status().message()).c_str());
      return 1;
    }
    const PhaseSplit split = ComputePhaseSplit(
        before, *after, mode == "batch" ? "SolveBatchItem" : "Solve");
    const double n = std::max(1.0, split.requests);
    std::printf(
        "server, per request (%.0f requests): total %.3f ms = queue %.3f + "
        "served %.3f ms; served = compile %.3f + sample %.3f (annealer %.3f, "
        "decode %.3f) + rest %.3f ms\n",
        split.requests, 1e3 * split.request_seconds / n,
        1e3 * split.queue_seconds / n, 1e3 * split.served_seconds() / n,
        1e3 * split.compile_seconds / n, 1e3 * split.sample_seconds / n,
        1e3 * split.annealer_seconds() / n, 1e3 * split.decode_seconds / n,
        1e3 *
            (split.served_seconds() - split.compile_seconds -
             split.sample_seconds) /
            n);
    std::printf("server time outside the annealer: %.2f%% of served time\n",
                100 * split.outside_share());
    if (split.process_cpu_seconds > 0) {
      std::printf(
          "server CPU per request: %.3f ms, in the solving engines "
          "(annealing kernels, SAT search) %.3f ms; outside them: %.2f%% of "
          "the server's CPU time\n",
          1e3 * split.process_cpu_seconds / n,
          1e3 * split.annealer_cpu_seconds / n,
          100 * split.cpu_outside_share());
    }
    if (mode == "solve" && ok < static_cast<int64_t>(records.size())) {
      // The duration histogram has no status label: turned-away calls count
      // in the request time but have no phases. (Batch items turned away
      // never reach the item histogram.)
      std::printf(
          "  (%lld of the requests did not end OK; their time is in the "
          "request total, so the split above mixes them in)\n",
          static_cast<long long>(records.size() - ok));
    }
    google::protobuf::Value s;
    auto& sf = *s.mutable_struct_value()->mutable_fields();
    sf["requests"] = Number(split.requests);
    sf["request_seconds"] = Number(split.request_seconds);
    sf["queue_seconds"] = Number(split.queue_seconds);
    sf["compile_seconds"] = Number(split.compile_seconds);
    sf["sample_seconds"] = Number(split.sample_seconds);
    sf["decode_seconds"] = Number(split.decode_seconds);
    sf["served_seconds"] = Number(split.served_seconds());
    sf["annealer_seconds"] = Number(split.annealer_seconds());
    sf["outside_share"] = Number(split.outside_share());
    sf["process_cpu_seconds"] = Number(split.process_cpu_seconds);
    sf["annealer_cpu_seconds"] = Number(split.annealer_cpu_seconds);
    sf["cpu_outside_share"] = Number(split.cpu_outside_share());
    f["server_phases"] = s;
  }

  if (const std::string path = absl::GetFlag(FLAGS_json_report);
      !path.empty()) {
    google::protobuf::util::JsonPrintOptions options;
    options.add_whitespace = true;
    options.preserve_proto_field_names = true;
    std::string json;
    (void)google::protobuf::util::MessageToJsonString(report, &json, options);
    std::ofstream out(path);
    out << json;
    if (!out) {
      std::fprintf(stderr, "--json_report: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace qs::loadgen

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "qs_loadgen --targets HOST:PORT[,HOST:PORT] [--mode solve|batch] "
      "[--concurrency N] [--requests N | --duration SEC] [--warmup N] "
      "[--mix builtin|FILE] [--backend NAME] [--param name=value] "
      "[--auto_exact race|proof|off] [--reads N] [--metrics HOST:PORT] "
      "[--json_report FILE]");
  std::vector<char*> args =
      qs::clients::ExtractParamArgs(std::vector<char*>(argv, argv + argc));
  absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
  curl_global_init(CURL_GLOBAL_DEFAULT);
  const int code = qs::loadgen::Main();
  curl_global_cleanup();
  return code;
}
