// In-process server and helpers for integration tests.
#include "tests/testing/test_server.h"

#include <chrono>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "curl/curl.h"

namespace qs::testing {
namespace {

size_t AppendToString(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

}  // namespace

std::unique_ptr<TestServer> TestServer::Start(server::ServerOptions options,
                                              bool with_metrics) {
  options.address = "127.0.0.1:0";
  options.metrics_address = with_metrics ? "127.0.0.1:0" : "";
  auto server = server::Server::Start(options);
  if (!server.ok()) return nullptr;
  auto test_server = std::unique_ptr<TestServer>(new TestServer());
  test_server->address_ = (*server)->address();
  test_server->server_ = *std::move(server);
  return test_server;
}

std::unique_ptr<v1::Solver::Stub> TestServer::NewStub() const {
  return v1::Solver::NewStub(
      grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()));
}

absl::StatusOr<std::string> TestServer::ScrapeMetrics() const {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return absl::InternalError("curl_easy_init failed");
  std::string body;
  const std::string url =
      absl::StrCat("http://127.0.0.1:", metrics_port(), "/metrics");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &AppendToString);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
  const CURLcode code = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  if (code != CURLE_OK) return absl::UnavailableError(curl_easy_strerror(code));
  return body;
}

const v1::SolveSummary* SolveStream::summary() const {
  if (events.empty() || !events.back().has_summary()) return nullptr;
  return &events.back().summary();
}

SolveStream RunSolve(v1::Solver::Stub& stub, const v1::SolveRequest& request,
                     double deadline_seconds) {
  grpc::ClientContext context;
  context.set_deadline(
      std::chrono::system_clock::now() +
      std::chrono::milliseconds(static_cast<int64_t>(deadline_seconds * 1000)));
  SolveStream stream;
  auto reader = stub.Solve(&context, request);
  v1::SolveResponse event;
  while (reader->Read(&event)) stream.events.push_back(event);
  stream.status = reader->Finish();
  return stream;
}

v1::PuzzleSpec SudokuSpecFromString(const std::string& grid) {
  v1::PuzzleSpec spec;
  spec.mutable_sudoku()->set_box_size(3);
  for (char ch : grid)
    spec.mutable_sudoku()->add_cells(ch == '.' || ch == '0' ? 0 : ch - '0');
  return spec;
}

std::string SourceDir() {
  const char* dir = std::getenv("QS_SOURCE_DIR");
  return dir != nullptr ? dir : ".";
}

}  // namespace qs::testing
