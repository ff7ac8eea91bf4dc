// qs_server: the QUBO puzzle-solver gRPC service. Parses flags, starts the
// server, and drains gracefully on SIGTERM or SIGINT.
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "server/flag_tables.h"
#include "server/flags.h"
#include "server/server.h"
#include "spdlog/spdlog.h"

namespace {

// Signal handlers may only touch lock-free state; a watcher thread does the
// draining.
volatile std::sig_atomic_t g_signal = 0;

void OnSignal(int signal) { g_signal = signal; }

// `--help` lists the server's own flags (with defaults), `--version` the
// version and `--print_flag_tables[=GROUP]` the docs' flag tables (markdown,
// see scripts/update-flag-docs.sh), each exiting 0 (2 for an unknown group);
// nullopt when none is on the command line.
std::optional<int> HelpOrVersion(int argc, char** argv) {
  for (int k = 1; k < argc; ++k) {
    absl::string_view arg = argv[k];
    if (arg == "--version") {
      std::printf("qs_server %s\n", QS_VERSION);
      return 0;
    }
    if (arg == "--print_flag_tables") {
      std::fputs(qs::server::AllFlagTables().c_str(), stdout);
      return 0;
    }
    if (absl::ConsumePrefix(&arg, "--print_flag_tables=")) {
      auto table = qs::server::FlagTable(arg);
      if (!table.ok()) {
        std::fprintf(stderr, "%s\n",
                     std::string(table.status().message()).c_str());
        return 2;
      }
      std::fputs(table->c_str(), stdout);
      return 0;
    }
    if (arg != "--help" && arg != "-h" && arg != "--helpfull") continue;
    std::printf("%s\n\nflags:\n%s", absl::ProgramUsageMessage().data(),
                qs::server::ServerFlagsHelp().c_str());
    return 0;
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "qs_server --address=HOST:PORT --metrics_address=HOST:PORT [flags]\n"
      "qs_server --help | --version | --print_flag_tables[=GROUP]");
  if (auto status = HelpOrVersion(argc, argv)) return *status;
  absl::ParseCommandLine(argc, argv);
  // Debian's Abseil is built with the mutex deadlock detector on, which keeps
  // a lock graph on every Lock: a few percent of a busy server's CPU. The
  // tests run with it.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  if (absl::Status s = qs::server::ConfigureLoggingFromFlags(); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 2;
  }
  auto options = qs::server::OptionsFromFlags();
  if (!options.ok()) {
    std::fprintf(stderr, "%s\n",
                 std::string(options.status().message()).c_str());
    return 2;
  }
  // Before the server says it listens: a SIGTERM sent as soon as the
  // "listening" line appears must drain it, not kill it.
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGINT, OnSignal);
  auto server = qs::server::Server::Start(*options);
  if (!server.ok()) {
    spdlog::error("cannot start: {}", std::string(server.status().message()));
    return 1;
  }
  std::thread watcher([&] {
    while (g_signal == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    spdlog::info("signal {} received", static_cast<int>(g_signal));
    (*server)->Drain(qs::server::ShutdownGraceFromFlags());
  });
  (*server)->Wait();
  watcher.join();
  server->reset();
  spdlog::info("stopped");
  return 0;
}
