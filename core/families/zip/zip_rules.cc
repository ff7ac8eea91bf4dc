// The Zip rules as Boolean constraints over the QUBO's position variables
// x(c, s) ("the path enters cell c at step s", core/families/zip/zip.h):
// - each cell takes exactly one step and each step exactly one cell;
// - a cell at step s has a neighbour no wall separates from it at step s + 1
//   (and at s - 1), so the steps form one path: there are no subtours, since
//   the positions number the cells in path order;
// - with the clues, waypoint 1 at step 1, the last waypoint at step N, and
//   waypoint k + 1 only after waypoint k (one clause per step of k + 1); the
//   steps the compiler's reduction rules out (parity, distances, forced
//   moves; every valid path keeps its steps) as units;
// - to help propagation, successor variables e(c, d) ("the path moves from c
//   to d") for every move no wall blocks, tied to the positions, with one move
//   out of every cell but the path's end and one move into every cell but its
//   start, and never both ways between two cells. They follow from the
//   positions, so solutions are counted as boards (enumeration blocks the
//   primary variables only).
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/zip/zip.h"

namespace qs {
namespace {

class ZipEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "zip"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kZip;
  }
  bool needs_auxiliary() const override { return true; }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const ZipBoard b, CheckZipSpec(spec.zip()));
    const int n = b.size();
    auto x = [&](int cell, int s) { return b.Var(cell, s) + 1; };
    std::vector<int> line;
    for (int cell = 0; cell < n; ++cell) {
      line.clear();
      for (int s = 1; s <= n; ++s) line.push_back(x(cell, s));
      sink.AddExactlyOne(line);
    }
    for (int s = 1; s <= n; ++s) {
      line.clear();
      for (int cell = 0; cell < n; ++cell) line.push_back(x(cell, s));
      sink.AddExactlyOne(line);
    }
    for (int cell = 0; cell < n; ++cell) {
      for (int s = 1; s <= n; ++s) {
        for (int t : {s - 1, s + 1}) {
          if (t < 1 || t > n) continue;
          line.assign({-x(cell, s)});
          for (int other : b.joined[cell]) line.push_back(x(other, t));
          sink.AddClause(line);
        }
      }
    }
    const int first = b.waypoints.front(), last = b.waypoints.back();
    if (options.clues) {
      sink.AddUnit(x(first, 1));
      sink.AddUnit(x(last, n));
      for (size_t k = 0; k + 1 < b.waypoints.size(); ++k) {
        for (int t = 1; t <= n; ++t) {
          line.assign({-x(b.waypoints[k + 1], t)});
          for (int s = 1; s < t; ++s) line.push_back(x(b.waypoints[k], s));
          sink.AddClause(line);
        }
      }
      const std::vector<std::vector<uint8_t>> domains =
          ZipStepDomains(b, ZipPruning::kForced);
      for (int cell = 0; cell < n; ++cell) {
        for (int s = 1; s <= n; ++s) {
          if (!domains[cell][s - 1]) sink.AddUnit(-x(cell, s));
        }
      }
    }

    // Successor variables: move[cell][i] for the move to joined[cell][i].
    std::vector<std::vector<int>> move(n);
    for (int cell = 0; cell < n; ++cell) {
      for (size_t i = 0; i < b.joined[cell].size(); ++i) {
        const int e = sink.NewAuxiliary();
        if (e == 0) {
          return absl::UnimplementedError(
              "zip: the successor variables need auxiliary variables, which "
              "this constraint sink does not have");
        }
        move[cell].push_back(e);
      }
    }
    std::vector<std::vector<int>> into(n);
    for (int cell = 0; cell < n; ++cell) {
      for (size_t i = 0; i < b.joined[cell].size(); ++i) {
        const int other = b.joined[cell][i];
        const int e = move[cell][i];
        into[other].push_back(e);
        for (int s = 1; s < n; ++s) {
          sink.AddClause({-x(cell, s), -x(other, s + 1), e});
          sink.AddClause({-e, -x(cell, s), x(other, s + 1)});
        }
        sink.AddClause({-e, -x(cell, n)});
        if (cell < other) {
          for (size_t j = 0; j < b.joined[other].size(); ++j) {
            if (b.joined[other][j] == cell)
              sink.AddClause({-e, -move[other][j]});
          }
        }
      }
    }
    for (int cell = 0; cell < n; ++cell) {
      if (options.clues && cell == last) {
        for (int e : move[cell]) sink.AddUnit(-e);
      } else if (options.clues) {
        sink.AddExactlyOne(move[cell]);
      } else {
        sink.AddAtMostOne(move[cell]);
      }
      if (options.clues && cell == first) {
        for (int e : into[cell]) sink.AddUnit(-e);
      } else if (options.clues) {
        sink.AddExactlyOne(into[cell]);
      } else {
        sink.AddAtMostOne(into[cell]);
      }
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewZipEncoder() {
  return std::make_unique<ZipEncoder>();
}

}  // namespace qs
