// The linear ramp and the checks of requested angles.
#include "core/qaoa/angles.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/backend/param_schema.h"
#include "qs/v1/solve.pb.h"

namespace qs {

QaoaAngles LinearRamp(int layers, const PhasePolynomial& cost) {
  QaoaAngles a;
  const double scale = cost.MaxAbsWeight() > 0 ? cost.MaxAbsWeight() : 1.0;
  for (int k = 0; k < layers; ++k) {
    const double t = (k + 0.5) / layers;
    a.gammas.push_back(t * kLinearRampStep / scale);
    a.betas.push_back((1 - t) * kLinearRampStep);
  }
  return a;
}

absl::StatusOr<int> CheckQaoaAngles(
    uint32_t layers, const google::protobuf::RepeatedField<double>& gammas,
    const google::protobuf::RepeatedField<double>& betas,
    absl::string_view prefix) {
  // QaoaParams.layers' option states the bounds and the default, for the
  // backend's parameters and the circuit export's options alike.
  const google::protobuf::FieldDescriptor& field =
      *v1::QaoaParams::descriptor()->FindFieldByName("layers");
  const double max_layers = ParamOptionOf(field)->max();
  if (layers > max_layers) {
    return absl::InvalidArgumentError(absl::StrCat(
        prefix, ".layers: at most ", max_layers, ", got ", layers));
  }
  if (gammas.size() != betas.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".betas: ", betas.size(), " betas for ",
                     gammas.size(), " gammas; give both or neither"));
  }
  const int p =
      layers > 0
          ? static_cast<int>(layers)
          : (gammas.empty() ? static_cast<int>(StatedDefault(
                                  *v1::QaoaParams::descriptor(), "layers"))
                            : gammas.size());
  if (!gammas.empty() && gammas.size() != p) {
    return absl::InvalidArgumentError(absl::StrCat(
        prefix, ".gammas: ", gammas.size(), " angles for ", p, " layers"));
  }
  for (int k = 0; k < gammas.size(); ++k) {
    if (!std::isfinite(gammas[k]) || !std::isfinite(betas[k])) {
      return absl::InvalidArgumentError(absl::StrCat(
          prefix, std::isfinite(gammas[k]) ? ".betas[" : ".gammas[", k,
          "]: must be finite"));
    }
  }
  return p;
}

QaoaAngles ResolveQaoaAngles(
    int layers, const google::protobuf::RepeatedField<double>& gammas,
    const google::protobuf::RepeatedField<double>& betas,
    const PhasePolynomial& cost) {
  if (gammas.empty()) return LinearRamp(layers, cost);
  return QaoaAngles{{gammas.begin(), gammas.end()},
                    {betas.begin(), betas.end()}};
}

}  // namespace qs
