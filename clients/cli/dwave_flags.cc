// qsolve's D-Wave QPU control flags: aliases of the dwave backend's
// parameters (param_flags.cc), with the schedules written as points.
#include "clients/cli/dwave_flags.h"

#include <cstdint>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

ABSL_FLAG(int64_t, dwave_spin_reversal_transforms, 0,
          "D-Wave: split the reads over this many spin-reversal transforms "
          "(gauges; num_spin_reversal_transforms)");
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
          "D-Wave reverse anneal: true restarts every read from the initial "
          "state, false continues from the previous read "
          "(reinitialize_state)");
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

// The points of `text` as a JSON list of {"time_us": t, "<value>": v}.
absl::StatusOr<std::string> PointsJson(absl::string_view flag,
                                       absl::string_view text,
                                       absl::string_view value) {
  auto points = ParsePoints(flag, text);
  if (!points.ok()) return points.status();
  std::vector<std::string> items;
  for (const auto& [t, v] : *points) {
    items.push_back(absl::StrCat("{\"time_us\":", absl::StrFormat("%.17g", t),
                                 ",\"", value,
                                 "\":", absl::StrFormat("%.17g", v), "}"));
  }
  return absl::StrCat("[", absl::StrJoin(items, ","), "]");
}

}  // namespace

absl::StatusOr<std::string> AnnealScheduleJson(absl::string_view text) {
  return PointsJson("dwave_anneal_schedule", text, "s");
}

absl::StatusOr<std::string> GainScheduleJson(absl::string_view text) {
  return PointsJson("dwave_h_gain_schedule", text, "g");
}

absl::Status AddDwaveInitialState(v1::SolveParams& params) {
  const std::string state = absl::GetFlag(FLAGS_dwave_initial_state);
  if (state.empty()) return absl::OkStatus();
  auto packed = PackState(state);
  if (!packed.ok()) return packed.status();
  params.clear_initial_states();
  params.add_initial_states(*packed);
  return absl::OkStatus();
}

}  // namespace qs::cli
