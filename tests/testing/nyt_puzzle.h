// The hard Sudoku of the New York Times, 2024-01-08 ([Mücke 2024], Figure 1 and
// Appendix A): 24 clues and the unique solution. The clues are the cells that
// tests/data/instances/sudoku_nyt_I_II.map leaves fixed.
#ifndef QS_TESTS_TESTING_NYT_PUZZLE_H_
#define QS_TESTS_TESTING_NYT_PUZZLE_H_

namespace qs::testing {

inline constexpr char kNytPuzzle[] =
    ".......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8.....9..."
    "4..65..";
inline constexpr char kNytSolution[] =
    "71385462985269734146931285764513927892876513413724896529657148358142379637"
    "4986512";

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_NYT_PUZZLE_H_
