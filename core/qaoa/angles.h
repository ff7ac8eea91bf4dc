// QaoaAngles: the gammas and betas of p layers, and the default schedule, a
// linear ramp (the discretised annealing path of [Zhou et al. 2020], "linear
// ramp QAOA"): over layers k = 1..p, with t_k = (k - 1/2) / p,
//   gamma_k = t_k * dt / max|w|,   beta_k = (1 - t_k) * dt,
// where max|w| is the largest Ising coefficient of the cost (so that gamma C
// stays of order one whatever the model's scale) and dt = 0.75. The same
// request parameters (layers, gammas, betas) serve the Solve backend and the
// circuit export; the checks name the request's field.
#ifndef QS_CORE_QAOA_ANGLES_H_
#define QS_CORE_QAOA_ANGLES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/qaoa/phase_polynomial.h"
#include "google/protobuf/repeated_field.h"

namespace qs {

struct QaoaAngles {
  std::vector<double> gammas;
  std::vector<double> betas;
  int layers() const { return static_cast<int>(gammas.size()); }
};

inline constexpr double kLinearRampStep = 0.75;

QaoaAngles LinearRamp(int layers, const PhasePolynomial& cost);

// The layers of a request: `layers` (0: the number of gammas given, else
// the default QaoaParams.layers states; at most its option's max)
// with gammas and betas given both or neither, one per layer, finite.
// INVALID_ARGUMENT naming "<prefix>.layers", "<prefix>.gammas" or
// "<prefix>.betas".
absl::StatusOr<int> CheckQaoaAngles(
    uint32_t layers, const google::protobuf::RepeatedField<double>& gammas,
    const google::protobuf::RepeatedField<double>& betas,
    absl::string_view prefix);

// The checked angles of a request: those given, else the linear ramp.
QaoaAngles ResolveQaoaAngles(
    int layers, const google::protobuf::RepeatedField<double>& gammas,
    const google::protobuf::RepeatedField<double>& betas,
    const PhasePolynomial& cost);

}  // namespace qs

#endif  // QS_CORE_QAOA_ANGLES_H_
