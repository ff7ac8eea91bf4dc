// qsolve learns the puzzle kinds from the server: `qsolve families` lists
// what ListFamilies gives, and every listed kind's example goes through
// `compile`, `solve` and `batch` by the server's Parse, so that a kind qsolve
// has no code for works as soon as the server has it. Errors of a text the
// server refuses name the flag (exit 2); an unreachable server is exit 1.
#include <unistd.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using testing::LastJsonLine;
using testing::RunQsolve;

class CliFamiliesTest : public testing::SharedServerTest {
 protected:
  static v1::ListFamiliesResponse Families() {
    auto stub = server_->NewStub();
    grpc::ClientContext context;
    v1::ListFamiliesResponse response;
    EXPECT_TRUE(
        stub->ListFamilies(&context, v1::ListFamiliesRequest(), &response)
            .ok());
    EXPECT_GT(response.families_size(), 0);
    return response;
  }

  static std::string WriteFile(const std::string& name,
                               const std::string& content) {
    const std::string path = absl::StrCat(
        ::testing::TempDir(), "/cli_families_", getpid(), "_", name);
    std::ofstream(path) << content;
    return path;
  }
};

TEST_F(CliFamiliesTest, ListsWhatTheServerLists) {
  const v1::ListFamiliesResponse families = Families();
  const CommandResult table = RunQsolve("families" + Addr());
  ASSERT_EQ(table.exit_code, 0) << table.err;
  std::vector<std::string> kinds;
  for (absl::string_view line :
       absl::StrSplit(table.out, '\n', absl::SkipEmpty())) {
    std::vector<std::string> words =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (!words.empty()) kinds.push_back(words[0]);
  }
  ASSERT_EQ(kinds.size(), families.families_size() + 1u) << table.out;
  EXPECT_EQ(kinds[0], "KIND");
  for (int k = 0; k < families.families_size(); ++k)
    EXPECT_EQ(kinds[k + 1], families.families(k).kind());

  const CommandResult json = RunQsolve("families --json" + Addr());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  v1::ListFamiliesResponse parsed;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(json.out, &parsed).ok())
      << json.out;
  EXPECT_TRUE(
      google::protobuf::util::MessageDifferencer::Equals(parsed, families));

  const v1::FamilyDescription& first = families.families(0);
  const CommandResult described =
      RunQsolve(absl::StrCat("families --describe ", first.kind(), Addr()));
  ASSERT_EQ(described.exit_code, 0) << described.err;
  EXPECT_THAT(described.out, HasSubstr(first.description()));
  EXPECT_THAT(described.out, HasSubstr(first.example()));
  const CommandResult unknown =
      RunQsolve("families --describe no-such-kind" + Addr());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("no-such-kind"));

  // --describe with --json: the one kind's FamilyDescription, not the list.
  for (const v1::FamilyDescription& family : families.families()) {
    SCOPED_TRACE(family.kind());
    const CommandResult one = RunQsolve(
        absl::StrCat("families --describe ", family.kind(), " --json", Addr()));
    ASSERT_EQ(one.exit_code, 0) << one.err;
    v1::FamilyDescription parsed_one;
    ASSERT_TRUE(
        google::protobuf::util::JsonStringToMessage(one.out, &parsed_one).ok())
        << one.out;
    EXPECT_TRUE(
        google::protobuf::util::MessageDifferencer::Equals(parsed_one, family));
  }
  const CommandResult unknown_json =
      RunQsolve("families --describe no-such-kind --json" + Addr());
  EXPECT_EQ(unknown_json.exit_code, 2);
  EXPECT_THAT(unknown_json.err, HasSubstr("no-such-kind"));
}

// Every kind, the ones qsolve was built knowing or not, is one path: the
// example text to the server's Parse, then the call.
TEST_F(CliFamiliesTest, EveryListedKindCompilesAndSolvesFromItsText) {
  const v1::ListFamiliesResponse families = Families();
  for (const v1::FamilyDescription& family : families.families()) {
    SCOPED_TRACE(family.kind());
    const std::string path = WriteFile(family.kind(), family.example());
    const CommandResult compiled =
        RunQsolve(absl::StrCat("compile", Addr(), "--kind ", family.kind(),
                               " --input-file ", path, " --json"));
    ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
    EXPECT_GT(LastJsonLine(compiled.out)
                  .fields()
                  .at("variables_total")
                  .number_value(),
              0);
    const CommandResult solved = RunQsolve(absl::StrCat(
        "solve", Addr(), "--kind ", family.kind(), " --input-file ", path,
        " --backend cpu-sa --reads 2 --sweeps 50 --seed 1 --json"));
    ASSERT_EQ(solved.exit_code, 0) << solved.err;
    const google::protobuf::Struct result = LastJsonLine(solved.out);
    EXPECT_EQ(result.fields().at("reads").number_value(), 2);
    EXPECT_TRUE(result.fields().contains("valid"));
  }
}

TEST_F(CliFamiliesTest, BatchLinesOfEveryListedKind) {
  std::string content;
  std::vector<std::string> kinds;
  const v1::ListFamiliesResponse families = Families();
  for (const v1::FamilyDescription& family : families.families()) {
    // A ';' stands for a line break in a batch line.
    absl::StrAppend(&content, "id-", family.kind(), "\t", family.kind(), "\t",
                    absl::StrReplaceAll(family.example(), {{"\n", ";"}}), "\n");
    kinds.push_back(family.kind());
  }
  absl::StrAppend(&content, "bad\tno-such-kind\t8\n");
  const CommandResult run = RunQsolve(absl::StrCat(
      "batch", Addr(), "--input-file ", WriteFile("batch.txt", content),
      " --backend cpu-sa --reads 2 --sweeps 50 --seed 1"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::map<std::string, google::protobuf::Struct> results;
  for (absl::string_view line :
       absl::StrSplit(run.out, '\n', absl::SkipEmpty())) {
    google::protobuf::Struct value;
    ASSERT_TRUE(
        google::protobuf::util::JsonStringToMessage(std::string(line), &value)
            .ok())
        << line;
    results[value.fields().at("id").string_value()] = value;
  }
  ASSERT_EQ(results.size(), kinds.size() + 1);
  for (const std::string& kind : kinds) {
    const google::protobuf::Struct& r = results.at("id-" + kind);
    EXPECT_EQ(r.fields().at("status").string_value(), "OK") << kind;
    EXPECT_EQ(r.fields().at("kind").string_value(), kind);
    EXPECT_EQ(r.fields().at("attempts").number_value(), 1) << kind;
  }
  const google::protobuf::Struct& bad = results.at("bad");
  EXPECT_EQ(bad.fields().at("status").string_value(), "INVALID_ARGUMENT");
  EXPECT_THAT(bad.fields().at("status_message").string_value(),
              HasSubstr("unknown puzzle kind 'no-such-kind'"));
  EXPECT_EQ(bad.fields().at("attempts").number_value(), 0);
}

// Without --kind the puzzle is of the first kind the server lists.
TEST_F(CliFamiliesTest, DefaultKindIsTheServersFirst) {
  const v1::FamilyDescription first = Families().families(0);
  const std::string path = WriteFile("first", first.example());
  const CommandResult given =
      RunQsolve(absl::StrCat("compile", Addr(), "--kind ", first.kind(),
                             " --input-file ", path, " --json"));
  const CommandResult defaulted = RunQsolve(
      absl::StrCat("compile", Addr(), "--input-file ", path, " --json"));
  ASSERT_EQ(given.exit_code, 0) << given.err;
  ASSERT_EQ(defaulted.exit_code, 0) << defaulted.err;
  EXPECT_EQ(LastJsonLine(defaulted.out).fields().at("kind").string_value(),
            LastJsonLine(given.out).fields().at("kind").string_value());
  EXPECT_EQ(LastJsonLine(defaulted.out).fields().at("variables").number_value(),
            LastJsonLine(given.out).fields().at("variables").number_value());
}

TEST_F(CliFamiliesTest, RefusedTextNamesTheFlag) {
  const CommandResult kind =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind no-such-kind --input 8"));
  EXPECT_EQ(kind.exit_code, 2);
  EXPECT_THAT(kind.err, HasSubstr("INVALID_ARGUMENT: --kind: unknown puzzle "
                                  "kind 'no-such-kind'"));
  const CommandResult text =
      RunQsolve(absl::StrCat("count", Addr(), "--kind nqueens --input x8"));
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_THAT(text.err, HasSubstr("INVALID_ARGUMENT: --input: "));
  const CommandResult board = RunQsolve(absl::StrCat(
      "validate", Addr(), "--kind nqueens --input 4 --board '.Q../..Z.'"));
  EXPECT_EQ(board.exit_code, 2);
  EXPECT_THAT(board.err, HasSubstr("INVALID_ARGUMENT: --board: "));
  const CommandResult down = RunQsolve(
      "compile --addr 127.0.0.1:1 --deadline 2 --kind nqueens --input 6");
  EXPECT_EQ(down.exit_code, 1);
  EXPECT_THAT(down.err, HasSubstr("UNAVAILABLE"));
}

}  // namespace
}  // namespace qs
