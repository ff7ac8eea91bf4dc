// Parsing of the QAOA flags.
#include "clients/cli/qaoa_flags.h"

#include <cstdint>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

ABSL_FLAG(int64_t, qaoa_layers, 0,
          "QAOA layers p (solve --backend qaoa, compile --export-qasm; the "
          "parameter layers); 0: its default");
ABSL_FLAG(std::string, gammas, "",
          "QAOA cost angles g1,..,gP; with --betas, no optimisation runs");
ABSL_FLAG(std::string, betas, "", "QAOA mixer angles b1,..,bP");
ABSL_FLAG(std::string, qaoa_optimizer, "",
          "QAOA angle optimiser: bobyqa or nelder_mead (the parameter "
          "optimizer)");
ABSL_FLAG(std::string, qaoa_mixer, "",
          "QAOA mixer: x or xy (keeps the puzzle's exactly-one groups; the "
          "parameter mixer)");
ABSL_FLAG(int64_t, qaoa_iterations, 0,
          "QAOA optimiser evaluations of <C> (max_iterations); 0: its "
          "default");
ABSL_FLAG(std::string, export_qasm, "",
          "compile: write the QAOA circuit of the reduced model to this file "
          "(OpenQASM, see --qasm_version)");
ABSL_FLAG(int64_t, qasm_version, 3,
          "compile --export-qasm: 2 (qelib1.inc gates only) or 3");

namespace qs::cli {
namespace {

absl::StatusOr<std::vector<double>> Angles(const std::string& text,
                                           const char* flag) {
  std::vector<double> values;
  if (text.empty()) return values;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    double v = 0;
    if (!absl::SimpleAtod(absl::StripAsciiWhitespace(part), &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag,
                       ": expected numbers separated by commas, "
                       "got '",
                       text, "'"));
    }
    values.push_back(v);
  }
  return values;
}

// Layers and angles into any message with layers, gammas and betas.
template <typename Message>
absl::Status FillLayers(Message& m) {
  const int64_t layers = absl::GetFlag(FLAGS_qaoa_layers);
  if (layers < 0 || layers > UINT32_MAX)
    return absl::InvalidArgumentError("--qaoa_layers must be >= 0");
  m.set_layers(static_cast<uint32_t>(layers));
  auto gammas = Angles(absl::GetFlag(FLAGS_gammas), "gammas");
  if (!gammas.ok()) return gammas.status();
  auto betas = Angles(absl::GetFlag(FLAGS_betas), "betas");
  if (!betas.ok()) return betas.status();
  for (double g : *gammas) m.add_gammas(g);
  for (double b : *betas) m.add_betas(b);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::QaoaCircuitOptions> QaoaCircuitFromFlags() {
  v1::QaoaCircuitOptions options;
  const int64_t version = absl::GetFlag(FLAGS_qasm_version);
  if (version != 2 && version != 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("--qasm_version: 2 or 3, got ", version));
  }
  options.set_qasm_version(static_cast<uint32_t>(version));
  if (absl::Status s = FillLayers(options); !s.ok()) return s;
  return options;
}

}  // namespace qs::cli
