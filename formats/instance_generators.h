// Seeded random instances shaped like the standard benchmark sets, so that
// tests and benchmarks need no downloaded files. The generator is this file's
// own (splitmix64), so one seed gives the same instance on every platform.
//
//   RandomBqp        Beasley's recipe for the OR-Library bqp sets: each entry
//                    q(i,j), i <= j, is non-zero with probability `density`,
//                    an integer uniform in [-100, 100]; maximised. Returned
//                    with sense MAXIMIZE (stored negated, as the orlib reader
//                    gives it), ready for FormatQuboModel(..., kOrlib).
//   RandomGsetGraph  rudy's random graphs of the G-set: each pair of the n
//                    nodes is an edge with probability `density`, weight 1,
//                    or 1 / -1 with equal chance when `signed_weights`
//                    (G1-G5: 800 nodes, 6 %, weight 1; G6-G10: the same
//                    graphs with signs).
//   RandomRegularGraph  a random d-regular graph on n nodes (n * d even, d <
//   n),
//                    weight 1, or 1 / -1 with equal chance when
//                    `signed_weights`: pairing of the n * d half-edges, each
//                    pair drawn at random among those that make neither a
//                    loop nor a second edge between the same nodes, started
//                    again when none is left (nearly uniform for small d).
//   RandomToroidalGraph  rudy's toroidal grids of the G-set: rows x cols
//                    nodes, each joined to its right and lower neighbour
//                    with wrap-around (degree 4, 2 * rows * cols edges),
//                    weight 1 or, when `signed_weights`, 1 / -1 with equal
//                    chance (G48-G50: 3,000 nodes, weight 1; G11-G13, G32-G34,
//                    G57, G62, G65-G67, G72, G77, G81: +-1). rows and cols
//                    must be at least 3, or the wrap-around would repeat an
//                    edge.
#ifndef QS_CLIENTS_FORMATS_INSTANCE_GENERATORS_H_
#define QS_CLIENTS_FORMATS_INSTANCE_GENERATORS_H_

#include <cstdint>

#include "qs/v1/puzzles.pb.h"
#include "qs/v1/qubo.pb.h"

namespace qs::formats {

v1::QuboModel RandomBqp(uint32_t n, double density, uint64_t seed);
v1::PuzzleSpec RandomGsetGraph(uint32_t n, double density, bool signed_weights,
                               uint64_t seed);
v1::PuzzleSpec RandomRegularGraph(uint32_t n, uint32_t degree,
                                  bool signed_weights, uint64_t seed);
v1::PuzzleSpec RandomToroidalGraph(uint32_t rows, uint32_t cols,
                                   bool signed_weights, uint64_t seed);

}  // namespace qs::formats

#endif  // QS_CLIENTS_FORMATS_INSTANCE_GENERATORS_H_
