// Regression tests of the request path: no reaction waits on the network (a
// SAPI endpoint that accepts connections and never answers leaves ListBackends,
// cpu-sa Solves and the cpu-sa items of a mixed batch unaffected), a client
// that stops reading does not make the server queue every sample, nor more
// than the writer's bound in bytes of large ones (back-pressure,
// SolveSummary.sample_events_dropped), and an allocation
// failure ends its request with RESOURCE_EXHAUSTED while the server keeps
// serving.
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/config.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "formats/instance_generators.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "qs/v1/solver_service.grpc.pb.h"
#include "tests/testing/log_capture.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/test_files.h"
#include "tests/testing/test_server.h"
#include "tests/testing/timing.h"

namespace qs {
namespace {

using ::qs::testing::ReadFile;
using ::qs::testing::RunSolve;
using ::qs::testing::SudokuSpecFromString;
using ::qs::testing::TestServer;
using ::testing::HasSubstr;

// A TCP listener on loopback that accepts connections (the kernel's backlog
// does) and never answers.
class SilentEndpoint {
 public:
  SilentEndpoint() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(listen(fd_, 64), 0);
    socklen_t len = sizeof(addr);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~SilentEndpoint() { close(fd_); }
  std::string url() const {
    return absl::StrCat("http://127.0.0.1:", port_, "/sapi/v2/");
  }

 private:
  int fd_ = -1;
  int port_ = 0;
};

v1::SolveRequest SmallSudokuRequest(const std::string& backend) {
  v1::SolveRequest request;
  request.mutable_puzzle()->mutable_sudoku()->set_box_size(2);
  for (int c : {1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2})
    request.mutable_puzzle()->mutable_sudoku()->add_cells(c);
  request.mutable_params()->set_backend(backend);
  request.mutable_params()->set_num_reads(10);
  request.mutable_params()->set_seed(1);
  return request;
}

void SetDeadline(grpc::ClientContext& context, int seconds) {
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(seconds));
}

class SilentSapiTest : public ::testing::Test {
 protected:
  SilentSapiTest() {
    server::ServerOptions options;
    options.backends.dwave.emplace();
    options.backends.dwave->endpoint = endpoint_.url();
    options.backends.dwave->token = "silent-token";
    options.backends.dwave->request_timeout = absl::Seconds(60);
    server_ = TestServer::Start(options, /*with_metrics=*/false);
    stub_ = server_->NewStub();
  }

  SilentEndpoint endpoint_;
  std::unique_ptr<TestServer> server_;
  std::unique_ptr<v1::Solver::Stub> stub_;
};

// Before, ListBackends probed SAPI inline and took the probe's 10 s budget.
TEST_F(SilentSapiTest, ListBackendsAnswersFromTheKeptStatus) {
  for (int k = 0; k < 3; ++k) {
    grpc::ClientContext context;
    SetDeadline(context, testing::ScaledSeconds(3));
    v1::ListBackendsRequest request;
    v1::ListBackendsResponse response;
    ASSERT_TRUE(stub_->ListBackends(&context, request, &response).ok());
    bool listed = false;
    for (const auto& b : response.backends()) listed |= b.name() == "dwave";
    EXPECT_TRUE(listed);
  }
}

TEST_F(SilentSapiTest, CpuSaSolvesAreNotHeldUp) {
  for (int k = 0; k < 3; ++k) {
    const auto stream =
        RunSolve(*stub_, SmallSudokuRequest("cpu-sa"),
                 /*deadline_seconds=*/testing::ScaledSeconds(3));
    ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
    ASSERT_NE(stream.summary(), nullptr);
    EXPECT_TRUE(stream.summary()->best_valid());
  }
}

TEST_F(SilentSapiTest, ABatchAnswersItsCpuSaItemsWhileADwaveItemWaits) {
  grpc::ClientContext context;
  SetDeadline(context, 20);
  auto stream = stub_->SolveBatch(&context);
  v1::BatchItem dwave;
  dwave.set_id("qpu");
  *dwave.mutable_request() = SmallSudokuRequest("dwave");
  ASSERT_TRUE(stream->Write(dwave));
  for (const std::string id : {"a", "b", "c"}) {
    v1::BatchItem item;
    item.set_id(id);
    *item.mutable_request() = SmallSudokuRequest("cpu-sa");
    ASSERT_TRUE(stream->Write(item));
  }
  std::set<std::string> answered;
  v1::BatchResult result;
  while (answered.size() < 3 && stream->Read(&result)) {
    EXPECT_NE(result.id(), "qpu") << result.status_message();
    EXPECT_EQ(result.status_code(), 0) << result.status_message();
    answered.insert(result.id());
  }
  EXPECT_EQ(answered, (std::set<std::string>{"a", "b", "c"}));
  context.TryCancel();
  stream->Finish();
}

// What a client that stalled after the header received.
struct StalledRead {
  uint64_t samples = 0;  // reads carried by the sample events that arrived
  uint64_t largest_event = 0;  // bytes of the largest of them
  v1::SolveSummary summary;
};

// Solves `request` once reading at once, to measure how long the solve takes
// on this build and machine, then again reading the header and nothing else
// until the solve must have produced every read.
StalledRead SolveWithAStalledReader(v1::Solver::Stub& stub,
                                    const v1::SolveRequest& request) {
  absl::Duration solve_time;
  {
    grpc::ClientContext context;
    SetDeadline(context, 120);
    const absl::Time start = absl::Now();
    auto reader = stub.Solve(&context, request);
    v1::SolveResponse event;
    while (reader->Read(&event)) {
    }
    EXPECT_TRUE(reader->Finish().ok());
    solve_time = absl::Now() - start;
  }
  grpc::ClientContext context;
  SetDeadline(context, 300);
  auto reader = stub.Solve(&context, request);
  v1::SolveResponse event;
  StalledRead read;
  EXPECT_TRUE(reader->Read(&event) && event.has_header());
  absl::SleepFor(2 * solve_time + absl::Seconds(1));
  while (reader->Read(&event)) {
    if (event.has_sample()) {
      read.samples += event.sample().num_occurrences();
      read.largest_event =
          std::max<uint64_t>(read.largest_event, event.ByteSizeLong());
    }
    if (event.has_summary()) read.summary = event.summary();
  }
  EXPECT_TRUE(reader->Finish().ok());
  return read;
}

// A client that reads the header and then nothing for a while: the server
// keeps at most its writer's bound of sample events and drops the rest,
// counting them; every read is still in the summary.
TEST(BackPressureTest, AStalledReaderGetsADroppedCountNotAnUnboundedQueue) {
  auto server = TestServer::Start({}, /*with_metrics=*/false);
  auto stub = server->NewStub();
  v1::SolveRequest request;
  *request.mutable_puzzle() = SudokuSpecFromString(testing::kNytPuzzle);
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(20000);
  request.mutable_params()->set_num_sweeps(2);
  request.mutable_params()->set_seed(5);
  const StalledRead read = SolveWithAStalledReader(*stub, request);
  EXPECT_EQ(read.summary.reads_done(), 20000u);
  EXPECT_GT(read.summary.sample_events_dropped(), 0u);
  EXPECT_EQ(read.samples + read.summary.sample_events_dropped(),
            read.summary.reads_done());
}

// Samples of a 300,000-spin lattice take about 640 kB each on the wire: a
// stalled reader makes the server keep at most the writer's 64 MiB of them
// (about a hundred), not its 256 events (all of the reads here), and drop
// and count the rest.
TEST(BackPressureTest, LargeSamplesAreBoundedInBytes) {
  auto server = TestServer::Start({}, /*with_metrics=*/false);
  auto stub = server->NewStub();
  v1::SolveRequest request;
  *request.mutable_puzzle() = formats::RandomToroidalGraph(548, 548, true, 2);
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(256);
  request.mutable_params()->set_num_sweeps(2);
  request.mutable_params()->set_seed(5);
  const StalledRead read = SolveWithAStalledReader(*stub, request);
  EXPECT_EQ(read.summary.reads_done(), 256u);
  EXPECT_GT(read.largest_event, 500000u);
  EXPECT_GT(read.summary.sample_events_dropped(), 0u);
  EXPECT_EQ(read.samples + read.summary.sample_events_dropped(),
            read.summary.reads_done());
  // The byte bound's events, plus those that improved on the best (always
  // sent); under the count bound alone all 256 would arrive.
  EXPECT_LT(read.samples, 200u);
}

// Abseil's macros, as clang defines no __SANITIZE_ADDRESS__.
#if defined(ABSL_HAVE_ADDRESS_SANITIZER) || defined(ABSL_HAVE_THREAD_SANITIZER)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// qs_server as a process whose address space is capped, so that a model too
// large for it fails to allocate.
TEST(AllocationFailureTest, EndsTheRequestAndTheServerKeepsServing) {
  if (kSanitized) GTEST_SKIP() << "sanitizers reserve more address space";
  const char* dir = std::getenv("QS_BINARY_DIR");
  const std::string binary =
      absl::StrCat(dir != nullptr ? dir : "build", "/server/qs_server");
  const std::string log =
      absl::StrCat(::testing::TempDir(), "/alloc_", getpid(), ".log");
  const pid_t pid = fork();
  if (pid == 0) {
    const rlimit cap{size_t{2} << 30, size_t{2} << 30};
    setrlimit(RLIMIT_AS, &cap);
    if (std::freopen(log.c_str(), "w", stdout) == nullptr) _exit(127);
    dup2(fileno(stdout), fileno(stderr));
    execl(binary.c_str(), binary.c_str(), "--address=127.0.0.1:0",
          "--metrics_address=", "--worker_threads=1",
          "--max_couplers=2000000000", "--max_variables=10000000",
          "--max_model_mb=1000000", "--compile_cache_entries=0", nullptr);
    _exit(127);
  }
  ASSERT_GT(pid, 0);
  int port = 0;
  const std::regex pattern(R"(listening on \S+ \(port (\d+)\))");
  for (int k = 0; k < 500 && port == 0; ++k) {
    ASSERT_EQ(waitpid(pid, nullptr, WNOHANG), 0) << "exited: " << ReadFile(log);
    std::smatch match;
    const std::string text = ReadFile(log);
    if (std::regex_search(text, match, pattern)) port = std::stoi(match[1]);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GT(port, 0) << ReadFile(log);
  auto stub = v1::Solver::NewStub(grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials()));
  // 300-queens: 27 M couplers in the full model, several GB to build.
  v1::CompileRequest compile;
  compile.mutable_puzzle()->mutable_queens()->set_rows(300);
  v1::CompileResponse compiled;
  grpc::ClientContext context;
  SetDeadline(context, 300);
  const grpc::Status status = stub->Compile(&context, compile, &compiled);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("out of memory"));
  const auto stream = RunSolve(*stub, SmallSudokuRequest("cpu-sa"), 30);
  EXPECT_TRUE(stream.status.ok()) << stream.status.error_message();
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

// A client's cancel of a unary Count reaches the enumeration, which stops
// (before, it ran to its limit with nobody waiting). The client's CANCELLED
// comes from its own cancel; the server's log line says the count ended.
TEST(CountCancelTest, ACancelledCountStopsAndTheServerServes) {
  testing::LogCapture log;
  server::ServerOptions options;
  options.max_concurrent_requests = 1;  // the next call waits for the count
  auto server = TestServer::Start(options, /*with_metrics=*/false);
  auto stub = server->NewStub();
  v1::CountRequest count;
  count.mutable_puzzle()->mutable_sudoku()->set_box_size(3);
  for (int c = 0; c < 81; ++c)
    count.mutable_puzzle()->mutable_sudoku()->add_cells(0);
  count.set_limit(100000000);
  count.set_method(v1::COUNT_METHOD_SAT);
  grpc::ClientContext context;
  SetDeadline(context, 600);
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    context.TryCancel();
  });
  v1::CountResponse counted;
  EXPECT_EQ(stub->Count(&context, count, &counted).error_code(),
            grpc::StatusCode::CANCELLED);
  canceller.join();
  EXPECT_TRUE(testing::WaitUntil(
      [&] {
        return log.CountLines({"rpc=Count ", "status=CANCELLED"}) == 1;
      },
      absl::Seconds(10)))
      << log.Text();
  // With one request thread, this solve runs only once the count stopped.
  const auto stream =
      RunSolve(*stub, SmallSudokuRequest("cpu-sa"), testing::ScaledSeconds(20));
  EXPECT_TRUE(stream.status.ok()) << stream.status.error_message();
  server.reset();
}

// A model over the coupler limit is refused from its dimensions, before its
// terms are built.
TEST(ModelEstimateTest, ALargeQueensBoardIsRefusedBeforeItIsBuilt) {
  auto server = TestServer::Start({}, /*with_metrics=*/false);
  auto stub = server->NewStub();
  v1::CompileRequest compile;
  compile.mutable_puzzle()->mutable_queens()->set_rows(400);
  v1::CompileResponse compiled;
  grpc::ClientContext context;
  SetDeadline(context, 30);
  const grpc::Status status = stub->Compile(&context, compile, &compiled);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("at least"));
}

}  // namespace
}  // namespace qs
