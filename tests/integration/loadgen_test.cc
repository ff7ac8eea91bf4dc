// The qs_loadgen binary against an in-process server: its built-in mix is the
// example of every kind the server lists (ListFamilies), each request of the
// round-robin mix answered, and a batch-file mix is parsed by the server too
// (a line it refuses stops the run before any load, exit 2).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using ::testing::HasSubstr;

struct LoadgenRun {
  int exit_code = -1;
  std::string err;
  google::protobuf::Struct report;
};

std::string TempPath(const std::string& name) {
  static int calls = 0;
  return absl::StrCat(::testing::TempDir(), "/loadgen_", getpid(), "_", ++calls,
                      "_", name);
}

// Runs qs_loadgen of this build tree with `args` and reads its JSON report.
LoadgenRun RunLoadgen(const std::string& args) {
  const char* dir = std::getenv("QS_BINARY_DIR");
  const std::string report = TempPath("report.json");
  const std::string err = TempPath("stderr.txt");
  const std::string command =
      absl::StrCat(dir != nullptr ? dir : "build", "/clients/qs_loadgen ", args,
                   " --json_report ", report, " >/dev/null 2>", err);
  LoadgenRun run;
  const int status = std::system(command.c_str());
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::stringstream text;
  text << std::ifstream(err).rdbuf();
  run.err = text.str();
  std::stringstream json;
  json << std::ifstream(report).rdbuf();
  if (!json.str().empty()) {
    EXPECT_TRUE(
        google::protobuf::util::JsonStringToMessage(json.str(), &run.report)
            .ok())
        << json.str();
  }
  return run;
}

std::set<std::string> KindsOf(const google::protobuf::Struct& report) {
  std::set<std::string> kinds;
  auto it = report.fields().find("kinds");
  if (it == report.fields().end()) return kinds;
  for (const auto& [kind, value] : it->second.struct_value().fields())
    kinds.insert(kind);
  return kinds;
}

double OkCount(const google::protobuf::Struct& report) {
  const auto& codes = report.fields().at("status_codes").struct_value();
  auto ok = codes.fields().find("OK");
  return ok == codes.fields().end() ? 0 : ok->second.number_value();
}

class LoadgenTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = testing::TestServer::Start({}, /*with_metrics=*/false).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static std::string Targets() {
    return " --targets " + server_->address() + " ";
  }
  static inline testing::TestServer* server_ = nullptr;
};

TEST_F(LoadgenTest, BuiltinMixIsEveryListedKind) {
  auto stub = server_->NewStub();
  v1::ListFamiliesResponse families;
  grpc::ClientContext context;
  ASSERT_TRUE(
      stub->ListFamilies(&context, v1::ListFamiliesRequest(), &families).ok());
  std::set<std::string> listed;
  for (const auto& family : families.families()) listed.insert(family.kind());
  ASSERT_FALSE(listed.empty());
  const int requests = 2 * static_cast<int>(listed.size());
  for (const char* mode : {"solve", "batch"}) {
    SCOPED_TRACE(mode);
    const LoadgenRun run = RunLoadgen(
        absl::StrCat(Targets(), "--mode ", mode, " --requests ", requests,
                     " --concurrency 2 --reads 4 --sweeps 100 --seed 1"));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(KindsOf(run.report), listed);
    EXPECT_EQ(run.report.fields().at("requests").number_value(), requests);
    EXPECT_EQ(OkCount(run.report), requests);
    for (const auto& [kind, value] :
         run.report.fields().at("kinds").struct_value().fields())
      EXPECT_EQ(value.struct_value().fields().at("count").number_value(), 2)
          << kind;
  }
}

TEST_F(LoadgenTest, FileMixIsParsedByTheServer) {
  const std::string mix =
      testing::SourceDir() + "/tests/data/loadgen/small_puzzles.txt";
  const LoadgenRun run = RunLoadgen(
      absl::StrCat(Targets(), "--mix ", mix,
                   " --kinds queens,tango --requests 8 --concurrency 2 "
                   "--reads 4 --sweeps 100 --seed 1"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(KindsOf(run.report), (std::set<std::string>{"queens", "tango"}));
  EXPECT_EQ(OkCount(run.report), 8);

  const std::string bad = TempPath("bad_mix.txt");
  std::ofstream(bad) << "a nqueens 6\nb nqueens six\n";
  const LoadgenRun refused =
      RunLoadgen(absl::StrCat(Targets(), "--mix ", bad, " --requests 2"));
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("line 2 (nqueens): text: "));
}

// By default every request asks for a valid board within its time limit, so
// a sampler whose 32 reads miss (cpu-sa on the built-in hard Sudoku) runs
// again until it finds one; fixed reads x sweeps stay one flag away.
TEST_F(LoadgenTest, EveryBuiltinKindGetsAValidBoardFromCpuSa) {
  const LoadgenRun run =
      RunLoadgen(absl::StrCat(Targets(),
                              "--mode batch --backend cpu-sa --requests 22 "
                              "--concurrency 2 --seed 1"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(OkCount(run.report), 22);
  EXPECT_EQ(run.report.fields().at("valid").number_value(), 22);

  const LoadgenRun fixed = RunLoadgen(
      absl::StrCat(Targets(),
                   "--backend cpu-sa --kinds sudoku --requests 2 --seed 1 "
                   "--reads 1 --sweeps 10 --stop_at_first_valid=false "
                   "--time_limit 0"));
  ASSERT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_EQ(OkCount(fixed.report), 2);
  EXPECT_EQ(fixed.report.fields().at("valid").number_value(), 0);
}

// --backend, --param and --auto_exact reach every request, the report names
// the backend and the engines that answered, and a parameter no backend has
// stops the run before any request.
TEST_F(LoadgenTest, BackendAndParametersReachEveryRequest) {
  const std::string mix =
      testing::SourceDir() + "/tests/data/loadgen/small_puzzles.txt";
  const std::string common =
      absl::StrCat(Targets(), "--mix ", mix,
                   " --kinds queens --requests 6 --concurrency 2 --seed 1 ");
  const LoadgenRun tabu = RunLoadgen(
      common + "--mode batch --backend tabu --param tenure=7 --reads 4");
  ASSERT_EQ(tabu.exit_code, 0) << tabu.err;
  EXPECT_EQ(tabu.report.fields().at("backend").string_value(), "tabu");
  const auto& engines = tabu.report.fields().at("solved_by").struct_value();
  ASSERT_EQ(engines.fields().size(), 1u);
  EXPECT_EQ(engines.fields().at("tabu").number_value(), 6);

  // The QUBO samplers alone: auto's answers come from no exact engine.
  const LoadgenRun samplers = RunLoadgen(common + "--auto_exact off");
  ASSERT_EQ(samplers.exit_code, 0) << samplers.err;
  EXPECT_EQ(samplers.report.fields().at("backend").string_value(), "auto");
  for (const auto& [engine, count] :
       samplers.report.fields().at("solved_by").struct_value().fields()) {
    EXPECT_NE(engine, "sat");
    EXPECT_NE(engine, "exact");
  }

  const LoadgenRun unknown =
      RunLoadgen(common + "--backend cpu-sa --param tenure=7");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("--param tenure: CpuSaParams has no "
                                     "field 'tenure'"));
}

}  // namespace
}  // namespace qs
