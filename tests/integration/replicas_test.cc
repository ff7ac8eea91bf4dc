// Three qs_server processes (the built binary) on loopback ports behind one
// `qsolve batch`: the batch spreads over all three replicas, and when one of
// them is killed with SIGKILL while it runs items, the client retries those
// items on the other two, so every input id still gets exactly one result and
// none is lost.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/test_files.h"
#include "tests/testing/timing.h"

namespace qs {
namespace {

using ::qs::testing::ReadFile;

std::string BinaryDir() {
  const char* dir = std::getenv("QS_BINARY_DIR");
  return dir != nullptr ? dir : "build";
}

// Forks and execs `argv` with stdout and stderr into `log`.
pid_t Spawn(const std::vector<std::string>& argv, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    FILE* out = std::freopen(log.c_str(), "w", stdout);
    if (out == nullptr) _exit(127);
    dup2(fileno(stdout), fileno(stderr));
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// Waits for `pid` up to `timeout`; its exit code, or -1 (killed, or still
// running: then it is killed).
int WaitFor(pid_t pid, std::chrono::seconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (std::chrono::steady_clock::now() < end) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -1;
}

struct Replica {
  std::string name;
  pid_t pid = -1;
  int port = 0;
  bool alive = false;
};

class ReplicasTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (Replica& r : replicas_) {
      if (!r.alive) continue;
      kill(r.pid, SIGKILL);
      waitpid(r.pid, nullptr, 0);
    }
  }

  // Starts qs_server on a free loopback port and reads the port from its log.
  void StartReplica(const std::string& name) {
    Replica r;
    r.name = name;
    const std::string log = Temp(name + ".log");
    r.pid = Spawn(
        {BinaryDir() + "/server/qs_server", "--address=127.0.0.1:0",
         "--metrics_address=", "--instance_name=" + name, "--worker_threads=1",
         "--max_concurrent_requests=2", "--log_level=info"},
        log);
    ASSERT_GT(r.pid, 0);
    r.alive = true;
    replicas_.push_back(r);
    const std::regex port_pattern(R"(listening on \S+ \(port (\d+)\))");
    // Up to 10 s (scaled to the build) for the port line.
    for (int k = 0; k < 500 * testing::TimeScale(); ++k) {
      std::smatch match;
      const std::string text = ReadFile(log);
      if (std::regex_search(text, match, port_pattern)) {
        replicas_.back().port = std::stoi(match[1]);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    FAIL() << name << " did not start: " << ReadFile(log);
  }

  std::string Temp(const std::string& name) const {
    return absl::StrCat(::testing::TempDir(), "/replicas_", getpid(), "_",
                        name);
  }

  std::vector<Replica> replicas_;
};

struct ResultLine {
  std::string status;
  std::string instance;
  int attempts = 0;
};

// id -> results (a correct run has one per id).
std::map<std::string, std::vector<ResultLine>> ReadResults(
    const std::string& path) {
  std::map<std::string, std::vector<ResultLine>> results;
  for (absl::string_view line :
       absl::StrSplit(ReadFile(path), '\n', absl::SkipEmpty())) {
    google::protobuf::Struct value;
    if (!google::protobuf::util::JsonStringToMessage(std::string(line), &value)
             .ok()) {
      ADD_FAILURE() << "not JSON: " << line;
      continue;
    }
    const auto& f = value.fields();
    results[f.at("id").string_value()].push_back(
        {f.at("status").string_value(), f.at("server_instance").string_value(),
         static_cast<int>(f.at("attempts").number_value())});
  }
  return results;
}

TEST_F(ReplicasTest, BatchSpreadsOverReplicasAndSurvivesAKill) {
  for (const char* name : {"replica-a", "replica-b", "replica-c"})
    ASSERT_NO_FATAL_FAILURE(StartReplica(name));
  std::vector<std::string> addresses;
  for (const Replica& r : replicas_)
    addresses.push_back(absl::StrCat("127.0.0.1:", r.port));

  // Easy Sudokus (every third cell of the NYT solution blanked, shifted per
  // item) with enough reads to keep each item busy for a while.
  constexpr int kItems = 48;
  const std::string batch_file = Temp("batch.txt");
  {
    std::ofstream out(batch_file);
    for (int k = 0; k < kItems; ++k) {
      std::string grid = testing::kNytSolution;
      for (size_t cell = k % 3; cell < grid.size(); cell += 3) grid[cell] = '.';
      out << "item-" << k << "\tsudoku\t" << grid << "\n";
    }
  }
  const std::string output = Temp("results.jsonl");
  const pid_t client = Spawn(
      {BinaryDir() + "/clients/qsolve", "batch",
       "--addr=" + absl::StrJoin(addresses, ","), "--input-file=" + batch_file,
       "--output=" + output, "--concurrency=6", "--reads=40", "--sweeps=1500",
       "--seed=11", "--progress=off"},
      Temp("qsolve.log"));
  ASSERT_GT(client, 0);

  // Kill replica-b once it has answered something and while most of the
  // batch is still to come, so that it holds items at that moment.
  Replica& victim = replicas_[1];
  bool killed = false;
  size_t answered_at_kill = 0;
  for (int k = 0; k < 3000 * testing::TimeScale() && !killed; ++k) {
    const auto results = ReadResults(output);
    bool victim_answered = false;
    for (const auto& [id, lines] : results)
      for (const ResultLine& line : lines)
        victim_answered |= line.instance == victim.name;
    if (victim_answered) {
      ASSERT_EQ(kill(victim.pid, SIGKILL), 0);
      waitpid(victim.pid, nullptr, 0);
      victim.alive = false;
      killed = true;
      answered_at_kill = results.size();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(killed) << "replica-b never answered: " << ReadFile(output);
  EXPECT_LT(answered_at_kill, static_cast<size_t>(kItems) / 2)
      << "the kill came too late to be mid-batch";

  const int exit_code = WaitFor(client, std::chrono::seconds(180));
  EXPECT_EQ(exit_code, 0) << ReadFile(Temp("qsolve.log"));
  const auto results = ReadResults(output);
  EXPECT_EQ(results.size(), static_cast<size_t>(kItems));
  std::map<std::string, int> per_instance;
  int retried_after_kill = 0;
  for (int k = 0; k < kItems; ++k) {
    const std::string id = absl::StrCat("item-", k);
    auto it = results.find(id);
    ASSERT_NE(it, results.end()) << id << " lost";
    ASSERT_EQ(it->second.size(), 1u) << id << " answered more than once";
    const ResultLine& line = it->second.front();
    EXPECT_EQ(line.status, "OK") << id;
    ++per_instance[line.instance];
    // The items replica-b held when it died came back on the others.
    if (line.attempts >= 2) {
      ++retried_after_kill;
      EXPECT_NE(line.instance, victim.name) << id;
    }
  }
  EXPECT_GT(per_instance["replica-a"], 0);
  EXPECT_GT(per_instance["replica-b"], 0);
  EXPECT_GT(per_instance["replica-c"], 0);
  EXPECT_EQ(per_instance.size(), 3u);
  EXPECT_GE(retried_after_kill, 1) << "no item was running on replica-b";
  EXPECT_THAT(ReadFile(Temp("qsolve.log")),
              ::testing::HasSubstr(absl::StrCat(kItems, " items")));
}

}  // namespace
}  // namespace qs
