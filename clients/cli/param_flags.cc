// The alias flags of backend parameters (--beta_hot, --replicas, ...), turned
// into the settings --param gives (clients/common/param_settings.h).
#include "clients/cli/param_flags.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "clients/cli/dwave_flags.h"

namespace qs::cli {
namespace {

// A flag that sets one parameter; values the flag spells otherwise than the
// enum's own names.
struct AliasFlag {
  const char* flag;
  const char* param;
  std::vector<std::pair<const char*, const char*>> values = {};
  // Turns the flag's own spelling into the parameter's value; null: as is.
  absl::StatusOr<std::string> (*convert)(absl::string_view) = nullptr;
};

const std::vector<AliasFlag>& AliasFlags() {
  static const auto* const flags = new std::vector<AliasFlag>{
      {"beta_hot", "beta_hot"},
      {"beta_cold", "beta_cold"},
      {"schedule", "schedule"},
      {"beta_range", "beta_range"},
      {"sweeps_per_beta", "sweeps_per_beta"},
      {"acceptance", "acceptance"},
      {"kernel", "kernel"},
      {"replicas", "replicas"},
      {"moves", "moves"},
      {"auto_exact", "exact", {{"proof", "EXACT_PROOF_ONLY"}}},
      {"group_moves", "group_moves"},
      {"max_solutions", "max_solutions"},
      {"solver", "solver"},
      {"annealing_time", "annealing_time_us"},
      {"chain_strength", "chain_strength"},
      {"chain_strength_prefactor", "chain_strength_prefactor"},
      {"auto_scale", "auto_scale"},
      {"label", "label"},
      {"qaoa_layers", "layers"},
      {"gammas", "gammas"},
      {"betas", "betas"},
      {"qaoa_optimizer", "optimizer"},
      {"qaoa_mixer", "mixer"},
      {"qaoa_iterations", "max_iterations"},
      {"dwave_spin_reversal_transforms", "num_spin_reversal_transforms"},
      {"dwave_anneal_schedule", "anneal_schedule", {}, &AnnealScheduleJson},
      {"dwave_reverse_anneal", "reverse_anneal"},
      {"dwave_reinitialize_state", "reinitialize_state"},
      {"dwave_h_gain_schedule", "h_gain_schedule", {}, &GainScheduleJson},
      {"dwave_flux_biases", "flux_biases"},
      {"dwave_refine_rounds", "refine_rounds"}};
  return *flags;
}

}  // namespace

absl::StatusOr<std::vector<ParamSetting>> ParamSettingsFromFlags() {
  std::vector<ParamSetting> settings;
  for (const AliasFlag& alias : AliasFlags()) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(alias.flag);
    if (flag == nullptr || flag->CurrentValue() == flag->DefaultValue())
      continue;
    std::string value = flag->CurrentValue();
    for (const auto& [spelled, name] : alias.values)
      if (value == spelled) value = name;
    if (alias.convert != nullptr) {
      absl::StatusOr<std::string> converted = alias.convert(value);
      if (!converted.ok()) return converted.status();
      value = *std::move(converted);
    }
    settings.push_back(
        {alias.param, std::move(value), absl::StrCat("--", alias.flag)});
  }
  absl::StatusOr<std::vector<ParamSetting>> given = ParamSettingsOfParamFlag();
  if (!given.ok()) return given.status();
  settings.insert(settings.end(), given->begin(), given->end());
  return settings;
}

}  // namespace qs::cli
