// Writes seeded random instances shaped like the standard sets to stdout
// (formats/instance_generators.h):
//   generate_instances --kind bqp --n 50 --density 0.1 --seed 1 --count 10
//       an OR-Library bqp file of `count` instances (seeds seed ..
//       seed+count-1)
//   generate_instances --kind gset|gsetpm --n 800 --density 0.06 --seed 1
//       a rudy / G-set graph (weights 1, or +-1 for gsetpm)
//   generate_instances --kind regular|regularpm --n 100000 --degree 3 --seed 1
//       a random d-regular graph (weights 1, or +-1 for regularpm)
//   generate_instances --kind torus|toruspm --rows 100 --cols 200 --seed 1
//       a rudy / G-set toroidal grid (weights 1, or +-1 for toruspm); --n L
//       alone gives the L x L torus (toruspm: the 2D +-J spin glass)
// The small files of tests/data/maxcut and tests/data/qubo were made with it
// (commands in their README).
#include <cstdio>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "formats/instance_generators.h"
#include "formats/puzzle_text.h"
#include "formats/qubo_formats.h"

ABSL_FLAG(std::string, kind, "bqp",
          "bqp, gset, gsetpm, regular, regularpm, torus or toruspm");
ABSL_FLAG(int, n, 50,
          "variables or nodes (torus, toruspm: the side when "
          "--rows and --cols are not given)");
ABSL_FLAG(int, degree, 3, "regular, regularpm: the degree of every node");
ABSL_FLAG(double, density, 0.1, "probability of each entry or edge");
ABSL_FLAG(uint64_t, seed, 1, "seed of the first instance");
ABSL_FLAG(int, count, 1, "bqp: instances in the file");
ABSL_FLAG(int, rows, 0,
          "torus, toruspm: rows of the grid (at least 3); 0: --n");
ABSL_FLAG(int, cols, 0,
          "torus, toruspm: columns of the grid (at least 3); 0: --n");

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string kind = absl::GetFlag(FLAGS_kind);
  const int n = absl::GetFlag(FLAGS_n), count = absl::GetFlag(FLAGS_count);
  const double density = absl::GetFlag(FLAGS_density);
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  if (n < 1 || count < 1) {
    std::fprintf(stderr, "--n and --count must be positive\n");
    return 2;
  }
  if (kind == "gset" || kind == "gsetpm") {
    auto text = qs::formats::FormatPuzzleText(
        "maxcut",
        qs::formats::RandomGsetGraph(n, density, kind == "gsetpm", seed));
    std::fputs(text->c_str(), stdout);
    return 0;
  }
  if (kind == "regular" || kind == "regularpm") {
    const int degree = absl::GetFlag(FLAGS_degree);
    if (degree < 1 || degree >= n || (int64_t{n} * degree) % 2 != 0) {
      std::fprintf(stderr,
                   "regular: 1 <= --degree < --n, --n * --degree even\n");
      return 2;
    }
    auto text = qs::formats::FormatPuzzleText(
        "maxcut",
        qs::formats::RandomRegularGraph(n, degree, kind == "regularpm", seed));
    std::fputs(text->c_str(), stdout);
    return 0;
  }
  if (kind == "torus" || kind == "toruspm") {
    const int rows =
        absl::GetFlag(FLAGS_rows) > 0 ? absl::GetFlag(FLAGS_rows) : n;
    const int cols =
        absl::GetFlag(FLAGS_cols) > 0 ? absl::GetFlag(FLAGS_cols) : n;
    if (rows < 3 || cols < 3 || int64_t{rows} * cols > (int64_t{1} << 30)) {
      std::fprintf(stderr, "--rows and --cols (or --n) must be at least 3\n");
      return 2;
    }
    auto text = qs::formats::FormatPuzzleText(
        "maxcut",
        qs::formats::RandomToroidalGraph(rows, cols, kind == "toruspm", seed));
    std::fputs(text->c_str(), stdout);
    return 0;
  }
  if (kind != "bqp") {
    std::fprintf(stderr,
                 "--kind: bqp, gset, gsetpm, regular, regularpm, torus or "
                 "toruspm\n");
    return 2;
  }
  // One instance per block, under a shared count line.
  std::string out = absl::StrCat(count, "\n");
  for (int k = 0; k < count; ++k) {
    auto text = qs::formats::FormatQuboModel(
        qs::formats::RandomBqp(n, density, seed + k),
        qs::formats::QuboFormat::kOrlib);
    if (!text.ok()) {
      std::fprintf(stderr, "%s\n",
                   std::string(text.status().message()).c_str());
      return 1;
    }
    out += text->substr(text->find('\n') + 1);  // drop its own count line
  }
  std::fputs(out.c_str(), stdout);
  return 0;
}
