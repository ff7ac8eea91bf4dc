// qsolve's D-Wave QPU control flags.
#include "clients/cli/dwave_flags.h"

#include <cstdint>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

ABSL_FLAG(int64_t, dwave_spin_reversal_transforms, 0,
          "D-Wave: split the reads over this many spin-reversal transforms "
          "(gauges); 0: none");
ABSL_FLAG(std::string, dwave_anneal_schedule, "",
          "D-Wave anneal schedule as 't,s' points in microseconds, e.g. "
          "\"0,0 20,0.4 120,0.4 140,1\" (a pause) or \"0,1 5,0.45 15,0.45 "
          "20,1\" (reverse, with --dwave_reverse_anneal)");
ABSL_FLAG(bool, dwave_reverse_anneal, false,
          "D-Wave: reverse anneal from --dwave_initial_state along "
          "--dwave_anneal_schedule (which starts at s = 1)");
ABSL_FLAG(std::string, dwave_initial_state, "",
          "D-Wave reverse anneal: the start as one 0/1 character per variable "
          "of the full model (its order in `qsolve compile`)");
ABSL_FLAG(std::string, dwave_reinitialize_state, "",
          "D-Wave reverse anneal: true (default) restarts every read from the "
          "initial state, false continues from the previous read");
ABSL_FLAG(std::string, dwave_h_gain_schedule, "",
          "D-Wave h-gain schedule as 't,g' points, from t = 0 to the end of "
          "the anneal");
ABSL_FLAG(std::string, dwave_flux_biases, "",
          "D-Wave flux biases, comma-separated, one per variable of the "
          "sampled model");
ABSL_FLAG(int64_t, dwave_refine_rounds, 0,
          "D-Wave: after the first anneal, this many reverse anneals from the "
          "best sample so far");

namespace qs::cli {

absl::StatusOr<std::vector<std::pair<double, double>>> ParsePoints(
    absl::string_view flag, absl::string_view text) {
  std::vector<std::pair<double, double>> points;
  for (absl::string_view item :
       absl::StrSplit(text, absl::ByAnyChar(" ;"), absl::SkipEmpty())) {
    std::vector<absl::string_view> parts = absl::StrSplit(item, ',');
    double t = 0, v = 0;
    if (parts.size() != 2 || !absl::SimpleAtod(parts[0], &t) ||
        !absl::SimpleAtod(parts[1], &v)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, ": expected 't,value' points, got '", item, "'"));
    }
    points.emplace_back(t, v);
  }
  return points;
}

namespace {

// LSB first, as SampleEvent.bits packs a board.
absl::StatusOr<std::string> PackState(absl::string_view text) {
  std::string packed((text.size() + 7) / 8, '\0');
  for (size_t v = 0; v < text.size(); ++v) {
    if (text[v] != '0' && text[v] != '1') {
      return absl::InvalidArgumentError(
          absl::StrCat("--dwave_initial_state: expected 0/1 characters, got '",
                       text.substr(v, 1), "' at ", v));
    }
    if (text[v] == '1') packed[v / 8] |= static_cast<char>(1 << (v % 8));
  }
  return packed;
}

}  // namespace

absl::Status AddDwaveControlParams(v1::SolveParams& params) {
  const int64_t transforms =
      absl::GetFlag(FLAGS_dwave_spin_reversal_transforms);
  const std::string schedule = absl::GetFlag(FLAGS_dwave_anneal_schedule);
  const bool reverse = absl::GetFlag(FLAGS_dwave_reverse_anneal);
  const std::string state = absl::GetFlag(FLAGS_dwave_initial_state);
  const std::string reinit = absl::GetFlag(FLAGS_dwave_reinitialize_state);
  const std::string gain = absl::GetFlag(FLAGS_dwave_h_gain_schedule);
  const std::string flux = absl::GetFlag(FLAGS_dwave_flux_biases);
  const int64_t rounds = absl::GetFlag(FLAGS_dwave_refine_rounds);
  if (transforms == 0 && schedule.empty() && !reverse && state.empty() &&
      reinit.empty() && gain.empty() && flux.empty() && rounds == 0) {
    return absl::OkStatus();
  }
  if (params.has_cpu_sa()) {
    return absl::InvalidArgumentError(
        "the cpu-sa flags and the D-Wave flags exclude each other");
  }
  if (transforms < 0 || transforms > UINT32_MAX || rounds < 0 ||
      rounds > UINT32_MAX) {
    return absl::InvalidArgumentError(
        "--dwave_spin_reversal_transforms and --dwave_refine_rounds must be "
        ">= 0");
  }
  v1::DwaveParams* d = params.mutable_dwave();
  d->set_num_spin_reversal_transforms(static_cast<uint32_t>(transforms));
  d->set_refine_rounds(static_cast<uint32_t>(rounds));
  d->set_reverse_anneal(reverse);
  auto points = ParsePoints("dwave_anneal_schedule", schedule);
  if (!points.ok()) return points.status();
  for (const auto& [t, s] : *points) {
    v1::AnnealPoint* p = d->add_anneal_schedule();
    p->set_time_us(t);
    p->set_s(s);
  }
  auto gains = ParsePoints("dwave_h_gain_schedule", gain);
  if (!gains.ok()) return gains.status();
  for (const auto& [t, g] : *gains) {
    v1::GainPoint* p = d->add_h_gain_schedule();
    p->set_time_us(t);
    p->set_g(g);
  }
  for (absl::string_view item : absl::StrSplit(flux, ',', absl::SkipEmpty())) {
    double v = 0;
    if (!absl::SimpleAtod(item, &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--dwave_flux_biases: not a number: '", item, "'"));
    }
    d->add_flux_biases(v);
  }
  if (reinit == "true" || reinit == "false") {
    d->set_reinitialize_state(reinit == "true");
  } else if (!reinit.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--dwave_reinitialize_state: true or false, got '", reinit, "'"));
  }
  if (!state.empty()) {
    auto packed = PackState(state);
    if (!packed.ok()) return packed.status();
    params.clear_initial_states();
    params.add_initial_states(*packed);
  }
  return absl::OkStatus();
}

}  // namespace qs::cli
