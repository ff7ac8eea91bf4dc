// Early-return helpers for absl::Status and absl::StatusOr. Debian's Abseil
// (20220623) ships neither status_macros.h nor the matchers, so these small
// macros stand in for them.
#ifndef QS_CORE_BASE_STATUS_MACROS_H_
#define QS_CORE_BASE_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define QS_STATUS_CONCAT_INNER_(a, b) a##b
#define QS_STATUS_CONCAT_(a, b) QS_STATUS_CONCAT_INNER_(a, b)

// RETURN_IF_ERROR(expr): returns the status of expr from the enclosing function
// when it is not OK.
#define RETURN_IF_ERROR(expr)                              \
  do {                                                     \
    const ::absl::Status qs_status_macro_status_ = (expr); \
    if (!qs_status_macro_status_.ok()) {                   \
      return qs_status_macro_status_;                      \
    }                                                      \
  } while (false)

// ASSIGN_OR_RETURN(lhs, expr): evaluates the StatusOr expr; on error returns
// its status, else assigns (or declares) lhs from the value.
#define ASSIGN_OR_RETURN(lhs, expr)                                         \
  QS_ASSIGN_OR_RETURN_IMPL_(QS_STATUS_CONCAT_(qs_statusor_, __LINE__), lhs, \
                            expr)

#define QS_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                              \
  if (!statusor.ok()) {                                \
    return std::move(statusor).status();               \
  }                                                    \
  lhs = std::move(statusor).value()

#endif  // QS_CORE_BASE_STATUS_MACROS_H_
