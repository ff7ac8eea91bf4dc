// Backend parameters declared once and followed by the clients, through the
// qsolve binary against an in-process server: `backends --json` lists every
// backend's parameters with type, default and help; `--param name=value`
// sets tabu, pa and sqa parameters (the summary shows what ran) and is
// refused naming the field when out of range or unknown; the older flags stay
// aliases; a field two backends share goes to auto unless one is named;
// `backends --describe`; and every generated block of the pages
// (docs/backends.md's reference, `backends --markdown`, and each backend's
// table on its page, `backends --markdown --describe NAME`) is what its
// command prints (no drift).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using testing::LastJsonLine;
using testing::RunQsolve;

class CliBackendParamsTest : public testing::SharedServerTest {};

constexpr char kQubo[] = "'3 4 0.5\n0 0 -1\n1 1 -1\n2 2 2\n0 1 3\n'";

std::string Solve(const std::string& addr, const std::string& args) {
  return absl::StrCat("solve", addr, " --kind qubo --input ", kQubo,
                      " --seed 3 --reads 8 --sweeps 50 --json ", args);
}

TEST_F(CliBackendParamsTest, BackendsJsonListsEveryParameter) {
  const CommandResult result = RunQsolve("backends --json" + Addr());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  v1::ListBackendsResponse response;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(result.out, &response).ok());
  int with_params = 0;
  for (const v1::BackendDescription& b : response.backends()) {
    if (b.params_field().empty()) continue;
    ++with_params;
    ASSERT_GT(b.params_size(), 0) << b.name();
    for (const v1::ParamDescription& p : b.params()) {
      EXPECT_FALSE(p.type().empty()) << b.name() << "." << p.name();
      EXPECT_FALSE(p.default_value().empty()) << b.name() << "." << p.name();
      EXPECT_FALSE(p.help().empty()) << b.name() << "." << p.name();
    }
  }
  EXPECT_GE(with_params, 8);
}

TEST_F(CliBackendParamsTest, ParamSetsTheBackendsOwnFields) {
  CommandResult tabu = RunQsolve(
      Solve(Addr(), "--backend tabu --param tenure=1 --param 'elite_size=2'"));
  ASSERT_EQ(tabu.exit_code, 0) << tabu.err;
  EXPECT_EQ(LastJsonLine(tabu.out).fields().at("tabu_tenure").number_value(),
            1);
  CommandResult sqa = RunQsolve(Solve(
      Addr(), "--backend sqa --param 'trotter_slices=4;schedule=geometric'"));
  ASSERT_EQ(sqa.exit_code, 0) << sqa.err;
  const google::protobuf::Struct sqa_summary = LastJsonLine(sqa.out);
  const auto& fields = sqa_summary.fields();
  EXPECT_EQ(fields.at("sqa_trotter_slices").number_value(), 4);
  EXPECT_EQ(fields.at("sqa_schedule").string_value(), "SQA_GEOMETRIC");
  CommandResult pa =
      RunQsolve(Solve(Addr(),
                      "--backend pa --param sweeps_per_step=5 --param "
                      "resampling=PA_RESAMPLING_MULTINOMIAL"));
  ASSERT_EQ(pa.exit_code, 0) << pa.err;
  EXPECT_EQ(
      LastJsonLine(pa.out).fields().at("pa_sweeps_per_step").number_value(), 5);
  // The older flags are aliases of the same parameters.
  CommandResult pt =
      RunQsolve(Solve(Addr(), "--backend pt --replicas 4 --moves single_flip"));
  ASSERT_EQ(pt.exit_code, 0) << pt.err;
  EXPECT_EQ(LastJsonLine(pt.out).fields().at("pt_replicas").number_value(), 4);
  // A field two backends share goes to auto, the default backend, unless
  // another is named: auto and cpu-sa both have group_moves.
  CommandResult unnamed =
      RunQsolve(Solve(Addr(), "--auto_exact off --group_moves off"));
  ASSERT_EQ(unnamed.exit_code, 0) << unnamed.err;
  EXPECT_EQ(LastJsonLine(unnamed.out).fields().at("backend").string_value(),
            "auto");
  CommandResult named =
      RunQsolve(Solve(Addr(), "--backend cpu-sa --group_moves off"));
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(LastJsonLine(named.out).fields().at("backend").string_value(),
            "cpu-sa");
}

TEST_F(CliBackendParamsTest, BadParametersAreRefusedNamingTheField) {
  // Out of the declared range: the server names the field.
  CommandResult range =
      RunQsolve(Solve(Addr(), "--backend tabu --param perturbation=1.5"));
  EXPECT_NE(range.exit_code, 0);
  EXPECT_THAT(range.err, HasSubstr("INVALID_ARGUMENT"));
  EXPECT_THAT(range.err, HasSubstr("params.tabu.perturbation"));
  // Unknown to the backend, a value of the wrong type, or no backend has it.
  CommandResult unknown =
      RunQsolve(Solve(Addr(), "--backend pt --param tenure=3"));
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_THAT(unknown.err, HasSubstr("--param tenure"));
  CommandResult type =
      RunQsolve(Solve(Addr(), "--backend tabu --param tenure=many"));
  EXPECT_NE(type.exit_code, 0);
  EXPECT_THAT(type.err, HasSubstr("--param tenure: an integer"));
  CommandResult nowhere = RunQsolve(Solve(Addr(), "--param frobnicate=1"));
  EXPECT_NE(nowhere.exit_code, 0);
  EXPECT_THAT(nowhere.err, HasSubstr("no backend has a parameter"));
  // Parameters of two backends without --backend.
  CommandResult mixed =
      RunQsolve(Solve(Addr(), "--param tenure=2 --replicas 4"));
  EXPECT_NE(mixed.exit_code, 0);
  EXPECT_THAT(mixed.err, HasSubstr("name the backend"));
}

TEST_F(CliBackendParamsTest, DescribeListsOneBackendsParameters) {
  const CommandResult result = RunQsolve("backends --describe sqa" + Addr());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("params.sqa"));
  EXPECT_THAT(result.out, HasSubstr("trotter_slices (uint32, 1..1024"));
  EXPECT_NE(RunQsolve("backends --describe nosuch" + Addr()).exit_code, 0);
}

// A block of generated Markdown: the qsolve command that prints it, where it
// is and what the page holds.
struct GeneratedBlock {
  std::string file;
  int line = 0;
  std::string command;  // after "qsolve ", e.g. "backends --markdown"
  std::string text;
};

constexpr char kBegin[] = "<!-- generated: qsolve ";
constexpr char kEnd[] = "<!-- end of the generated reference -->";

// Every generated block of the Markdown pages of the tree: a line
// "<!-- generated: qsolve ARGS -->", the output of `qsolve ARGS`, and the line
// "<!-- end of the generated reference -->". Only markers that open a line
// count, so that a page can quote them.
std::vector<GeneratedBlock> GeneratedBlocks() {
  std::vector<std::string> pages = {"README.md"};
  for (const char* dir : {"docs", "core", "server", "clients", "deploy"}) {
    std::error_code error;
    std::filesystem::recursive_directory_iterator it(dir, error), end;
    for (; !error && it != end; it.increment(error)) {
      const std::string name = it->path().filename().string();
      if (it->is_directory() && (name == "node_modules" || name[0] == '.')) {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file() && it->path().extension() == ".md")
        pages.push_back(it->path().string());
    }
  }
  std::vector<GeneratedBlock> blocks;
  for (const std::string& page : pages) {
    std::ifstream in(page);
    std::string line;
    GeneratedBlock* open = nullptr;
    for (int number = 1; std::getline(in, line); ++number) {
      if (open != nullptr) {
        if (line == kEnd) {
          open = nullptr;
        } else {
          absl::StrAppend(&open->text, line, "\n");
        }
        continue;
      }
      absl::string_view rest = line;
      if (!absl::ConsumePrefix(&rest, kBegin)) continue;
      EXPECT_TRUE(absl::ConsumeSuffix(&rest, " -->"))
          << page << ":" << number << ": a generated block's first line ends "
          << "with \" -->\"";
      blocks.push_back({page, number, std::string(rest), ""});
      open = &blocks.back();
    }
    EXPECT_EQ(open, nullptr)
        << page << ":" << (open ? open->line : 0)
        << ": a generated block without its end line " << kEnd;
  }
  return blocks;
}

// Every generated block of every page (the reference of docs/backends.md and
// each backend's table on its own page) is what its qsolve command prints
// against the server; regenerate a block when a schema changes.
TEST_F(CliBackendParamsTest, EveryGeneratedBlockIsWhatItsCommandPrints) {
  const std::vector<GeneratedBlock> blocks = GeneratedBlocks();
  int reference = 0, pages = 0;
  for (const GeneratedBlock& block : blocks) {
    // Only the listing of the server's backends runs here: a page's comment
    // names no other command for the test to run.
    ASSERT_TRUE(absl::StartsWith(block.command, "backends --markdown"))
        << block.file << ":" << block.line << ": qsolve " << block.command;
    if (block.command == "backends --markdown") ++reference;
    if (absl::StartsWith(block.command, "backends --markdown --describe "))
      ++pages;
    const CommandResult result = RunQsolve(block.command + Addr());
    ASSERT_EQ(result.exit_code, 0)
        << block.file << ":" << block.line << ": " << result.err;
    EXPECT_EQ(block.text, result.out)
        << block.file << ":" << block.line << " is out of date: paste the "
        << "output of `qsolve " << block.command << "` between its markers";
  }
  EXPECT_EQ(reference, 1) << "docs/backends.md: no generated reference";
  // The tables of tabu.md, sqa.md, population-annealing.md,
  // parallel-tempering.md, auto.md, dwave.md and sb's README.
  EXPECT_GE(pages, 7);
}

}  // namespace
}  // namespace qs
