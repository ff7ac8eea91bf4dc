// Prints, as a Markdown table, what preprocessing (CompileOptions.preprocess)
// does to the reference QUBOs of tests/data/instances and to puzzles: the NYT
// Sudoku of 2024-01-08, Sudokus with K of its solution's digits given at
// seeded random cells (K = 20 ... 40; not all have a unique solution), the
// stored LinkedIn-Queens boards, a seeded sparse random model of 10^4
// variables and 10^5 couplers, and N-queens boards. Per
// model: the variables after the family's reduction, then for roof and qpro
// the variables removed, those left and the preprocessing time (the fastest
// of three compiles).
//
// Usage: preprocess_stats [SOURCE_DIR]   (default: the current directory)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/compile/preprocess_stage.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "formats/puzzle_text.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/tools/tool_flags.h"

namespace {

constexpr char kUsage[] =
    "Usage: preprocess_stats [SOURCE_DIR]\n"
    "Prints as a markdown table what preprocessing (roof, qpro) removes from\n"
    "the reference QUBOs of tests/data/instances and from puzzles, and its\n"
    "time. SOURCE_DIR is the repository root (default: the current\n"
    "directory).\n";

struct Model {
  std::string name;
  std::string kind;
  std::string text;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A model in the qubo text format (tests/data/instances/README.md): n linear
// terms and m couplers between distinct random pairs, integer weights in
// [-10, 10] drawn with `seed`.
std::string RandomSparseText(int n, int m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto weight = [&rng] { return static_cast<int>(rng() % 21) - 10; };
  std::ostringstream text;
  text << n << " " << n + m << " 0\n";
  for (int i = 0; i < n; ++i) text << i << " " << i << " " << weight() << "\n";
  std::set<std::pair<int, int>> pairs;
  while (static_cast<int>(pairs.size()) < m) {
    const int i = static_cast<int>(rng() % n), j = static_cast<int>(rng() % n);
    if (i != j) pairs.insert({std::min(i, j), std::max(i, j)});
  }
  for (const auto& [i, j] : pairs)
    text << i << " " << j << " " << weight() << "\n";
  return text.str();
}

std::vector<Model> Models(const std::string& root) {
  std::vector<Model> models;
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(root + "/tests/data/instances")) {
    if (entry.path().extension() == ".qubo") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    models.push_back(
        {std::filesystem::path(file).stem().string(), "qubo", ReadFile(file)});
  }
  models.push_back(
      {"sudoku NYT 2024-01-08", "sudoku", qs::testing::kNytPuzzle});
  std::mt19937_64 rng(1);
  for (int clues : {20, 25, 30, 35, 40}) {
    std::string grid(81, '.');
    std::vector<int> cells(81);
    for (int i = 0; i < 81; ++i) cells[i] = i;
    std::shuffle(cells.begin(), cells.end(), rng);
    for (int k = 0; k < clues; ++k)
      grid[cells[k]] = qs::testing::kNytSolution[cells[k]];
    models.push_back(
        {"sudoku " + std::to_string(clues) + " clues", "sudoku", grid});
  }
  std::ifstream queens(root + "/tests/data/queens/linkedin_queens.txt");
  std::string line;
  while (std::getline(queens, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, regions;
    fields >> name >> regions;
    models.push_back({"queens " + name, "queens", regions});
  }
  models.push_back({"random 10^4 vars, 10^5 couplers", "qubo",
                    RandomSparseText(10'000, 100'000, 3)});
  for (const char* n : {"8", "12", "20"})
    models.push_back({std::string("nqueens ") + n, "nqueens", n});
  return models;
}

struct Outcome {
  int variables = 0;
  double seconds = 0;
};

Outcome Compile(const Model& model, qs::v1::Preprocess preprocess) {
  auto spec = qs::formats::ParsePuzzleText(model.kind, model.text);
  if (!spec.ok()) {
    std::fprintf(stderr, "%s: %s\n", model.name.c_str(),
                 std::string(spec.status().message()).c_str());
    std::exit(1);
  }
  const qs::PuzzleCompiler& compiler = **qs::BuiltinCompilers().ForSpec(*spec);
  qs::v1::CompileOptions options;
  options.set_preprocess(preprocess);
  Outcome best{0, 1e9};
  for (int round = 0; round < 3; ++round) {
    auto problem = qs::CompileProblem(compiler, *spec, options);
    if (!problem.ok()) {
      std::fprintf(stderr, "%s: %s\n", model.name.c_str(),
                   std::string(problem.status().message()).c_str());
      std::exit(1);
    }
    best.variables = problem->model.num_variables();
    best.seconds = std::min(best.seconds, problem->preprocess_seconds);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (qs::tools::PrintUsageIfAsked(argc, argv, kUsage)) return 0;
  const std::string root = argc > 1 ? argv[1] : ".";
  std::printf(
      "| model | variables | roof: removed | roof: ms | qpro: removed | qpro: "
      "left | qpro: ms |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const Model& model : Models(root)) {
    const int before = Compile(model, qs::v1::PREPROCESS_NONE).variables;
    const Outcome roof = Compile(model, qs::v1::PREPROCESS_ROOF);
    const Outcome qpro = Compile(model, qs::v1::PREPROCESS_QPRO);
    std::printf("| %s | %d | %d | %.2f | %d | %d | %.2f |\n",
                model.name.c_str(), before, before - roof.variables,
                roof.seconds * 1e3, before - qpro.variables, qpro.variables,
                qpro.seconds * 1e3);
  }
  return 0;
}
