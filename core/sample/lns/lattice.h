// 2D lattices among QUBO models, and the windows backend "lns" re-solves on
// them: strips of rows or columns, each walked column by column so that its
// frontier stays one column high (window_dp.h), and the rectangles it flips
// to leave a local optimum. The G-set's toroidal graphs and rudy's grids are
// such lattices; their nodes are numbered row by row.
#ifndef QS_CORE_SAMPLE_LNS_LATTICE_H_
#define QS_CORE_SAMPLE_LNS_LATTICE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/base/rng.h"
#include "core/qubo/qubo.h"

namespace qs {

// Variable r * cols + c sits at row r, column c; every coupler joins
// neighbours in a row or a column, the last and first of a row or column
// when the lattice wraps that way.
struct LatticeShape {
  int rows = 0;
  int cols = 0;
  bool wrap_rows = false;  // row rows - 1 couples to row 0
  bool wrap_cols = false;  // column cols - 1 couples to column 0
};

// The shape when every coupler of the model is a lattice bond of some
// rows x cols >= 3 x 3 numbering (the fewest columns that fit), else nullopt.
std::optional<LatticeShape> DetectLattice(const Qubo& model);

// The windows of one pass: strips of `height` rows (columns when
// `transposed`) between single rows held fixed, the first strip after row
// `offset`. Each strip lists its variables column by column, from a column
// `rng` picks and holds fixed when the rows wrap, else from the first.
std::vector<std::vector<int32_t>> StripWindows(const LatticeShape& shape,
                                               bool transposed, int height,
                                               int offset, Xoshiro256& rng);

// The variables of a random rectangle of 2 to `max_side` rows and columns
// (within the lattice's size), wrapping around the edges.
std::vector<int32_t> RandomRectangle(const LatticeShape& shape, int max_side,
                                     Xoshiro256& rng);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_LNS_LATTICE_H_
