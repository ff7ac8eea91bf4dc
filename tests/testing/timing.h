// Bounds on the waits of tests, scaled to the build: a sanitizer build runs
// the same code several times slower (TSan most), and CI runs the stages on a
// loaded machine, so a bound that is ample in Release would make a TSan run
// flaky. The bounds only cap how long a test waits for something that must
// happen; no test asserts on elapsed time.
#ifndef QS_TESTS_TESTING_TIMING_H_
#define QS_TESTS_TESTING_TIMING_H_

#include <chrono>
#include <cmath>
#include <cstdlib>

#include "absl/base/config.h"
#include "absl/functional/function_ref.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace qs::testing {

// How much slower this build runs than Release: 5 under TSan, 3 under ASan,
// else 1; QS_TEST_TIME_SCALE (a positive number, e.g. on a slower machine)
// multiplies it.
inline double TimeScale() {
#if defined(ABSL_HAVE_THREAD_SANITIZER)
  double scale = 5;
#elif defined(ABSL_HAVE_ADDRESS_SANITIZER)
  double scale = 3;
#else
  double scale = 1;
#endif
  if (const char* env = std::getenv("QS_TEST_TIME_SCALE")) {
    const double factor = std::atof(env);
    if (factor > 0) scale *= factor;
  }
  return scale;
}

// `base` (what Release needs, with margin) scaled to this build.
inline absl::Duration Scaled(absl::Duration base) { return base * TimeScale(); }

inline int ScaledSeconds(int base) {
  return static_cast<int>(std::ceil(base * TimeScale()));
}

// A gRPC deadline `base` from now, scaled.
inline std::chrono::system_clock::time_point ScaledDeadline(
    absl::Duration base) {
  return std::chrono::system_clock::now() +
         absl::ToChronoMilliseconds(Scaled(base));
}

// Polls `done` every 10 ms until it holds or the scaled `base` has passed;
// its last answer.
inline bool WaitUntil(absl::FunctionRef<bool()> done, absl::Duration base) {
  const absl::Time end = absl::Now() + Scaled(base);
  while (!done()) {
    if (absl::Now() >= end) return done();
    absl::SleepFor(absl::Milliseconds(10));
  }
  return true;
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_TIMING_H_
