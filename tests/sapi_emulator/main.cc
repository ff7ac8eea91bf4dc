// qs_sapi_emulator: the SAPI emulator as a standalone server (see README.md
// beside this file).
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "tests/sapi_emulator/sapi_emulator.h"

namespace {

qs::sapi_emulator::SapiEmulator* g_emulator = nullptr;

void OnSignal(int) {
  if (g_emulator != nullptr) g_emulator->Stop();
}

void Usage() {
  std::fprintf(stderr,
               "usage: qs_sapi_emulator [--host=127.0.0.1] [--port=8765] "
               "[--token=T ...] [--queue_ms=50]\n"
               "                        [--run_ms=50] [--seed=1] "
               "[--sweeps=10000] [--threads=2]\n"
               "                        [--flip_probability=0] "
               "[--plain_annealing] [--complete_on_submit]\n");
}

}  // namespace

int main(int argc, char** argv) {
  qs::sapi_emulator::Options options;
  options.port = 8765;
  bool tokens_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    double number = 0;
    const bool numeric = absl::SimpleAtod(value, &number);
    if (key == "--host") {
      options.host = value;
    } else if (key == "--port" && numeric) {
      options.port = static_cast<int>(number);
    } else if (key == "--token") {
      if (!tokens_given) options.tokens.clear();
      tokens_given = true;
      options.tokens.push_back(value);
    } else if (key == "--queue_ms" && numeric) {
      options.queue_delay = absl::Milliseconds(number);
    } else if (key == "--run_ms" && numeric) {
      options.run_time = absl::Milliseconds(number);
    } else if (key == "--seed" && numeric) {
      options.seed = static_cast<uint64_t>(number);
    } else if (key == "--sweeps" && numeric) {
      options.sweeps = static_cast<int>(number);
    } else if (key == "--threads" && numeric) {
      options.threads = static_cast<int>(number);
    } else if (key == "--flip_probability" && numeric) {
      options.flip_probability = number;
    } else if (key == "--plain_annealing") {
      options.chain_aware = false;
    } else if (key == "--complete_on_submit") {
      options.complete_on_submit = true;
    } else {
      Usage();
      return 2;
    }
  }
  qs::sapi_emulator::SapiEmulator emulator(options);
  g_emulator = &emulator;
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  const absl::Status status = emulator.Run();
  if (!status.ok()) {
    std::fprintf(stderr, "qs_sapi_emulator: %s\n",
                 std::string(status.message()).c_str());
    return 1;
  }
  return 0;
}
