// Backend parameters declared once and followed by the clients, through the
// qsolve binary against an in-process server: `backends --json` lists every
// backend's parameters with type, default and help; `--param name=value`
// sets tabu, pa and sqa parameters (the summary shows what ran) and is
// refused naming the field when out of range or unknown; the older flags stay
// aliases; `backends --describe`; and the generated reference of
// docs/backends.md is what `backends --markdown` prints (no drift).
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
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

// docs/backends.md holds the output of `qsolve backends --markdown` between
// its generated-reference markers; regenerate it when a schema changes.
TEST_F(CliBackendParamsTest, TheDocsReferenceIsWhatTheServerDeclares) {
  const CommandResult result = RunQsolve("backends --markdown" + Addr());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::ifstream in("docs/backends.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::string begin = "<!-- generated: qsolve backends --markdown -->\n";
  const std::string end = "<!-- end of the generated reference -->";
  const size_t from = doc.find(begin), to = doc.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(doc.substr(from + begin.size(), to - from - begin.size()),
            result.out)
      << "docs/backends.md is out of date: paste the output of `qsolve "
         "backends --markdown` between its markers";
}

}  // namespace
}  // namespace qs
