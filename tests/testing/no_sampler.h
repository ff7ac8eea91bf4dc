// A SolutionSampler for the generators that draw their boards themselves
// (core/generate/generator.h): asking it for a board fails the test.
#ifndef QS_TESTS_TESTING_NO_SAMPLER_H_
#define QS_TESTS_TESTING_NO_SAMPLER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/base/interrupter.h"
#include "core/generate/generator.h"
#include "gtest/gtest.h"
#include "qs/v1/puzzles.pb.h"

namespace qs::testing {

class NoSampler final : public SolutionSampler {
 public:
  absl::StatusOr<std::vector<uint8_t>> SampleValidBoard(const v1::PuzzleSpec&,
                                                        uint64_t, Interrupter&,
                                                        int64_t*) override {
    ADD_FAILURE() << "the generator asked the annealer for a board";
    return absl::UnimplementedError("this generator draws its own boards");
  }
};

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_NO_SAMPLER_H_
