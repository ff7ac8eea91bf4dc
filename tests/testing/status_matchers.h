// gmock matchers for absl::Status / absl::StatusOr (Debian's Abseil 20220623
// has none).
#ifndef QS_TESTS_TESTING_STATUS_MATCHERS_H_
#define QS_TESTS_TESTING_STATUS_MATCHERS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace qs::testing {

inline const absl::Status& GetStatus(const absl::Status& status) {
  return status;
}
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

// EXPECT_THAT(result, IsOk());
MATCHER(IsOk, "is OK") {
  const absl::Status& status = GetStatus(arg);
  if (!status.ok()) *result_listener << "status: " << status;
  return status.ok();
}

// EXPECT_THAT(result, StatusIs(absl::StatusCode::kInvalidArgument,
// HasSubstr("cells")));
MATCHER_P2(StatusIs, code, message_matcher, "") {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "status: " << status;
  return status.code() == code &&
         ::testing::ExplainMatchResult(
             message_matcher, std::string(status.message()), result_listener);
}

}  // namespace qs::testing

#define ASSERT_OK(expr) ASSERT_THAT(expr, ::qs::testing::IsOk())
#define EXPECT_OK(expr) EXPECT_THAT(expr, ::qs::testing::IsOk())

#endif  // QS_TESTS_TESTING_STATUS_MATCHERS_H_
