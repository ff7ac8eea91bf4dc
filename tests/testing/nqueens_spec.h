// The N-queens puzzle spec the tests build most often.
#ifndef QS_TESTS_TESTING_NQUEENS_SPEC_H_
#define QS_TESTS_TESTING_NQUEENS_SPEC_H_

#include "qs/v1/puzzles.pb.h"

namespace qs::testing {

// N-queens on an n x n plane board (everything else default).
inline v1::PuzzleSpec NQueens(int n) {
  v1::PuzzleSpec spec;
  spec.mutable_queens()->set_rows(n);
  return spec;
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_NQUEENS_SPEC_H_
