// DwaveOptions: the settings of the D-Wave backend ("dwave"), filled from the
// server's --dwave_* flags.
#ifndef QS_CORE_SAMPLE_DWAVE_DWAVE_OPTIONS_H_
#define QS_CORE_SAMPLE_DWAVE_DWAVE_OPTIONS_H_

#include <cstddef>
#include <string>

#include "absl/time/time.h"

namespace qs {

struct DwaveOptions {
  // SAPI base URL; wins over the region. Empty: resolved from the region
  // through the Metadata API.
  std::string endpoint;
  std::string region;  // empty: na-west-1
  std::string
      metadata_endpoint;  // empty: https://cloud.dwavesys.com/metadata/v1/
  // The API token: this value if set (tests), else env DWAVE_API_TOKEN, else
  // the first line of token_file.
  std::string token;
  std::string token_file;
  // Solver selection: a name, or the least-loaded online QPU solver of the
  // topology ("pegasus", "zephyr", or empty for any).
  std::string solver;
  std::string topology;
  double chain_strength_prefactor = 1.414;
  absl::Duration embedding_timeout = absl::Seconds(120);
  int embedding_tries = 10;
  size_t embedding_cache_size = 64;
  absl::Duration connect_timeout = absl::Seconds(60);
  absl::Duration request_timeout = absl::Seconds(120);
  int max_attempts = 8;
  absl::Duration backoff_base = absl::Milliseconds(100);
  absl::Duration backoff_max = absl::Seconds(30);
  int poll_timeout_seconds = 30;  // long-poll wait per request (1..30)
  // Upper bound of a whole solve when the request sets no deadline.
  absl::Duration solve_timeout = absl::Minutes(30);
  // How long a solver definition stays cached.
  absl::Duration solver_cache_ttl = absl::Minutes(15);
  // How often the availability probe runs in the background
  // (Backend::RefreshAvailability).
  absl::Duration status_cache_ttl = absl::Seconds(60);
};

}  // namespace qs

#endif  // QS_CORE_SAMPLE_DWAVE_DWAVE_OPTIONS_H_
