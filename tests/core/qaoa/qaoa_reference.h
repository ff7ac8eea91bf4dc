// An independent reference for the QAOA tests: a plain statevector of
// std::complex<double> driven gate by gate with explicit 2x2 and 4x4 matrices,
// the cost phase taken from the model's own Energy() of every basis state.
// It shares no code with core/qaoa.
#ifndef QS_TESTS_CORE_QAOA_QAOA_REFERENCE_H_
#define QS_TESTS_CORE_QAOA_QAOA_REFERENCE_H_

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <vector>

namespace qs::testing {

using Complex = std::complex<double>;
using Matrix2 = std::array<std::array<Complex, 2>, 2>;

class ReferenceState {
 public:
  explicit ReferenceState(int n) : n_(n), amp_(uint64_t{1} << n) {
    amp_[0] = 1;
  }
  int num_qubits() const { return n_; }
  std::vector<Complex>& amplitudes() { return amp_; }

  void Apply(const Matrix2& m, int q) {
    const uint64_t bit = uint64_t{1} << q;
    for (uint64_t z = 0; z < amp_.size(); ++z) {
      if (z & bit) continue;
      const Complex a = amp_[z], b = amp_[z | bit];
      amp_[z] = m[0][0] * a + m[0][1] * b;
      amp_[z | bit] = m[1][0] * a + m[1][1] * b;
    }
  }
  void H(int q) {
    const double r = 1 / std::sqrt(2.0);
    Apply({{{r, r}, {r, -r}}}, q);
  }
  // rz(theta) = exp(-i theta Z / 2).
  void Rz(double theta, int q) {
    Apply({{{std::exp(Complex(0, -theta / 2)), 0},
            {0, std::exp(Complex(0, theta / 2))}}},
          q);
  }
  // rx(theta) = exp(-i theta X / 2).
  void Rx(double theta, int q) {
    const Complex c = std::cos(theta / 2), s = Complex(0, -std::sin(theta / 2));
    Apply({{{c, s}, {s, c}}}, q);
  }
  void Cx(int control, int target) {
    const uint64_t cb = uint64_t{1} << control, tb = uint64_t{1} << target;
    for (uint64_t z = 0; z < amp_.size(); ++z) {
      if ((z & cb) && !(z & tb)) std::swap(amp_[z], amp_[z | tb]);
    }
  }
  // exp(-i beta (X_a X_b + Y_a Y_b) / 2) as its 4x4 matrix on (a, b).
  void Xy(double beta, int a, int b) {
    // XX + YY maps |01> <-> |10> with factor 2 and kills |00>, |11>.
    const uint64_t ba = uint64_t{1} << a, bb = uint64_t{1} << b;
    const Complex c = std::cos(beta), s = Complex(0, -std::sin(beta));
    for (uint64_t z = 0; z < amp_.size(); ++z) {
      if (!(z & ba) || (z & bb)) continue;
      const uint64_t w = (z ^ ba) | bb;
      const Complex x = amp_[z], y = amp_[w];
      amp_[z] = c * x + s * y;
      amp_[w] = s * x + c * y;
    }
  }
  // psi(z) *= exp(-i gamma E(z)).
  void Phase(double gamma, const std::function<double(uint64_t)>& energy) {
    for (uint64_t z = 0; z < amp_.size(); ++z)
      amp_[z] *= std::exp(Complex(0, -gamma * energy(z)));
  }
  double Expectation(const std::function<double(uint64_t)>& energy) const {
    double e = 0;
    for (uint64_t z = 0; z < amp_.size(); ++z)
      e += std::norm(amp_[z]) * energy(z);
    return e;
  }

 private:
  int n_;
  std::vector<Complex> amp_;
};

// Bits of basis state z, bit k = variable k.
inline std::vector<uint8_t> BitsOf(uint64_t z, int n) {
  std::vector<uint8_t> bits(n);
  for (int k = 0; k < n; ++k) bits[k] = z >> k & 1;
  return bits;
}

}  // namespace qs::testing

#endif  // QS_TESTS_CORE_QAOA_QAOA_REFERENCE_H_
