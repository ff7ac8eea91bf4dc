// The reads and sweeps a request asks for, before a backend applies its own
// rule (Backend::Budget): the one place where an unset num_reads or
// num_sweeps takes its default.
#ifndef QS_CORE_BACKEND_REQUESTED_BUDGET_H_
#define QS_CORE_BACKEND_REQUESTED_BUDGET_H_

#include "core/backend/backend.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// SolveParams.num_reads and num_sweeps where set, else JobBudget's defaults
// (the values solve.proto states: 100 reads, 1000 sweeps).
inline JobBudget RequestedBudget(const v1::SolveParams& params) {
  JobBudget budget;
  if (params.has_num_reads())
    budget.num_reads = static_cast<int>(params.num_reads());
  if (params.has_num_sweeps())
    budget.num_sweeps = static_cast<int>(params.num_sweeps());
  return budget;
}

}  // namespace qs

#endif  // QS_CORE_BACKEND_REQUESTED_BUDGET_H_
