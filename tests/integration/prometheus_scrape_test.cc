// A real Prometheus server (Debian's prometheus package) scrapes an in-process
// qs server over loopback, and its HTTP API shows the request counter and the
// duration histogram of a solve: the metric names, types and labels the
// docs/operations.md documents and deploy/prometheus/rules.yml relies on work
// with a real scraper, not only with a text match on /metrics. Prometheus runs
// on a free loopback port with a temporary config and storage dir, and is
// stopped (and its files removed) at the end.
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "curl/curl.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/test_server.h"

extern char** environ;

namespace qs {
namespace {

using Clock = std::chrono::steady_clock;

// A loopback port nobody listens on right now (the kernel's pick).
int FreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

size_t AppendToString(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

// GET with libcurl; the body when the status is 2xx.
absl::StatusOr<std::string> HttpGet(const std::string& url) {
  CURL* curl = curl_easy_init();
  std::string body;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &AppendToString);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 5L);
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  const CURLcode code = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  if (code != CURLE_OK)
    return absl::UnavailableError(
        absl::StrCat(url, ": ", curl_easy_strerror(code)));
  return body;
}

std::string UrlEncode(const std::string& text) {
  CURL* curl = curl_easy_init();
  char* escaped =
      curl_easy_escape(curl, text.c_str(), static_cast<int>(text.size()));
  std::string out(escaped);
  curl_free(escaped);
  curl_easy_cleanup(curl);
  return out;
}

// One prometheus process scraping 127.0.0.1:<target_port> every second.
class PrometheusProcess {
 public:
  static std::unique_ptr<PrometheusProcess> Start(int target_port) {
    // A port picked free can be taken before prometheus binds it: try again.
    for (int attempt = 0; attempt < 3; ++attempt) {
      auto process =
          std::unique_ptr<PrometheusProcess>(new PrometheusProcess());
      if (process->Launch(target_port)) return process;
    }
    return nullptr;
  }

  ~PrometheusProcess() {
    Stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  // GET /api/v1/<path_and_query> as JSON; null on any failure.
  nlohmann::json Api(const std::string& path_and_query) const {
    auto body = HttpGet(absl::StrCat(base_url_, "/api/v1/", path_and_query));
    if (!body.ok()) return nullptr;
    return nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
  }

  // The instant vector of `query` (an empty array when there is none yet).
  nlohmann::json Query(const std::string& query) const {
    nlohmann::json reply = Api("query?query=" + UrlEncode(query));
    if (reply.is_object() && reply.value("status", "") == "success")
      return reply["data"]["result"];
    return nlohmann::json::array();
  }

  std::string Log() const {
    std::ifstream in(dir_ / "prometheus.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

 private:
  PrometheusProcess() {
    char tmpl[] = "/tmp/qs-prometheus-test.XXXXXX";
    dir_ = mkdtemp(tmpl);
  }

  bool Launch(int target_port) {
    const int port = FreeLoopbackPort();
    base_url_ = absl::StrCat("http://127.0.0.1:", port);
    {
      std::ofstream config(dir_ / "prometheus.yml");
      config << "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
             << "scrape_configs:\n"
             << "  - job_name: qs-server\n"
             << "    static_configs: [{targets: ['127.0.0.1:" << target_port
             << "']}]\n";
    }
    const std::vector<std::string> args = {
        "prometheus",
        absl::StrCat("--config.file=", (dir_ / "prometheus.yml").string()),
        absl::StrCat("--storage.tsdb.path=", (dir_ / "data").string()),
        absl::StrCat("--web.listen-address=127.0.0.1:", port),
        "--log.level=warn"};
    std::vector<char*> argv;
    for (const std::string& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string log = (dir_ / "prometheus.log").string();
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    const int rc = posix_spawnp(&pid_, "prometheus", &actions, nullptr,
                                argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      pid_ = -1;
      ADD_FAILURE()
          << "cannot start prometheus (scripts/install-deps.sh installs it): "
          << std::strerror(rc);
      return false;
    }
    const auto until = Clock::now() + std::chrono::seconds(30);
    while (Clock::now() < until) {
      int status;
      if (waitpid(pid_, &status, WNOHANG) ==
          pid_) {  // exited: port taken, or worse
        pid_ = -1;
        return false;
      }
      if (HttpGet(base_url_ + "/-/ready").ok()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    Stop();
    return false;
  }

  void Stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    const auto until = Clock::now() + std::chrono::seconds(15);
    int status;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (Clock::now() > until) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    pid_ = -1;
  }

  std::filesystem::path dir_;
  std::string base_url_;
  pid_t pid_ = -1;
};

// The value of a one-sample instant vector, or NaN.
double SingleValue(const nlohmann::json& result) {
  if (!result.is_array() || result.size() != 1) return std::nan("");
  return std::stod(result[0]["value"][1].get<std::string>());
}

TEST(PrometheusScrapeTest, RealPrometheusSeesTheSolveCounterAndHistogram) {
  auto server = testing::TestServer::Start();
  ASSERT_NE(server, nullptr);
  auto prometheus = PrometheusProcess::Start(server->metrics_port());
  ASSERT_NE(prometheus, nullptr);

  v1::SolveRequest request;
  *request.mutable_puzzle() =
      testing::SudokuSpecFromString(testing::kNytPuzzle);
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(4);
  request.mutable_params()->set_num_sweeps(100);
  request.mutable_params()->set_seed(1);
  auto stub = server->NewStub();
  const testing::SolveStream stream = testing::RunSolve(*stub, request);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();

  // Scrapes every second; the first one lands within a few seconds of start.
  const std::string counter =
      R"(qs_requests_total{job="qs-server",method="Solve",puzzle="sudoku",backend="cpu-sa",code="OK"})";
  const std::string count =
      R"(qs_request_duration_seconds_count{job="qs-server",method="Solve",puzzle="sudoku"})";
  double requests = std::nan(""), observations = std::nan("");
  const auto until = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < until) {
    requests = SingleValue(prometheus->Query(counter));
    observations = SingleValue(prometheus->Query(count));
    if (requests == 1 && observations == 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  EXPECT_EQ(requests, 1) << prometheus->Log();
  EXPECT_EQ(observations, 1) << prometheus->Log();

  // The histogram is a real one to Prometheus: buckets with le labels, the
  // +Inf bucket equal to the count, and a quantile inside the bucket range.
  const nlohmann::json buckets = prometheus->Query(
      R"(qs_request_duration_seconds_bucket{method="Solve",puzzle="sudoku"})");
  ASSERT_TRUE(buckets.is_array());
  EXPECT_GE(buckets.size(), 3u);
  EXPECT_EQ(
      SingleValue(prometheus->Query(
          R"(qs_request_duration_seconds_bucket{method="Solve",le="+Inf"})")),
      1);
  const double median = SingleValue(prometheus->Query(
      R"(histogram_quantile(0.5, qs_request_duration_seconds_bucket{method="Solve"}))"));
  EXPECT_GT(median, 0);
  EXPECT_LT(median, 60);
  // The metadata Prometheus read from the exposition: a counter and a
  // histogram.
  const nlohmann::json metadata = prometheus->Api("metadata");
  ASSERT_TRUE(metadata.is_object()) << prometheus->Log();
  EXPECT_EQ(metadata["data"]["qs_requests_total"][0]["type"], "counter");
  EXPECT_EQ(metadata["data"]["qs_request_duration_seconds"][0]["type"],
            "histogram");

  const nlohmann::json targets = prometheus->Api("targets");
  ASSERT_TRUE(targets.is_object());
  ASSERT_EQ(targets["data"]["activeTargets"].size(), 1u);
  EXPECT_EQ(targets["data"]["activeTargets"][0]["health"], "up");
  EXPECT_EQ(
      targets["data"]["activeTargets"][0]["scrapeUrl"],
      absl::StrCat("http://127.0.0.1:", server->metrics_port(), "/metrics"));
}

}  // namespace
}  // namespace qs
