// Sampler::Solve: a BackendJob as SampleParams, and SampleStats as a
// BackendResult, once for every QUBO sampler.
#include "core/sample/sampler.h"

#include <utility>

#include "core/base/status_macros.h"

namespace qs {

absl::StatusOr<BackendResult> Sampler::Solve(const BackendJob& job,
                                             SampleSink& sink,
                                             Interrupter& interrupter) const {
  SampleParams params;
  params.num_reads = job.num_reads;
  params.num_sweeps = job.num_sweeps;
  params.seed = job.seed;
  params.target_energy = job.target_energy;
  params.initial_states = job.initial_states;
  params.wire = job.params;
  params.derived = &job.problem->derived;
  params.known_ground_energy = job.problem->ground_energy;
  params.one_hot_groups = &job.problem->one_hot_groups;
  if (job.params != nullptr) ApplyParams(*job.params, params);
  ASSIGN_OR_RETURN(SampleStats stats,
                   job.problem->higher_order
                       ? SampleHigherOrder(*job.problem->higher_order, params,
                                           sink, interrupter)
                       : Sample(job.problem->model, params, sink, interrupter));
  BackendResult result;
  result.stop_reason = stats.stop_reason;
  result.reads_done = stats.reads_done;
  result.reads_cut_short = stats.reads_cut_short;
  result.sweeps_done = stats.sweeps_done;
  result.spin_update_attempts = stats.spin_update_attempts;
  result.accepted_flips = stats.accepted_flips;
  result.seed = stats.seed;
  result.elapsed = stats.elapsed;
  result.cpu_time = stats.cpu_time;
  result.device_time = stats.device_time;
  FillInfo(stats, result.info);
  return result;
}

}  // namespace qs
