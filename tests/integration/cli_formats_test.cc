// qsolve against an in-process server with the benchmark formats: the
// `objective` of `solve --json` for maxcut graphs and orlib files read with
// --sense max (checked against brute force), --target_objective, compile
// --export in another format, and `qsolve bench` on tiny models (CSV, JSON
// and SVG output).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "formats/instance_generators.h"
#include "formats/puzzle_text.h"
#include "formats/qubo_formats.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/source_files.h"
#include "tests/testing/test_files.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using testing::LastJsonLine;
using testing::ReadFile;
using testing::RunQsolve;
using testing::TempFile;

// The objective f = -E of a MAXIMIZE model, maximised over every assignment.
double BruteForceMax(const v1::QuboModel& model) {
  double best = -1e300;
  for (uint32_t mask = 0; mask < (1u << model.num_variables()); ++mask) {
    double e = model.offset();
    for (int k = 0; k < model.w_size(); ++k)
      e += ((mask >> model.i(k)) & (mask >> model.j(k)) & 1) * model.w(k);
    best = std::max(best, -e);
  }
  return best;
}

double Number(const google::protobuf::Struct& s, const std::string& field) {
  const auto it = s.fields().find(field);
  EXPECT_NE(it, s.fields().end()) << field;
  return it == s.fields().end() ? NAN : it->second.number_value();
}

class CliFormatsTest : public testing::SharedServerTest {};

TEST_F(CliFormatsTest, MaxCutObjectiveIsTheCut) {
  // tests/data/maxcut/gset_pm_14.txt
  const v1::PuzzleSpec graph = formats::RandomGsetGraph(14, 0.4, true, 2);
  double best_cut = -1e300;
  for (uint32_t mask = 0; mask < (1u << 14); ++mask) {
    double cut = 0;
    for (int k = 0; k < graph.maxcut().u_size(); ++k)
      if (((mask >> graph.maxcut().u(k)) ^ (mask >> graph.maxcut().v(k))) & 1)
        cut += graph.maxcut().w(k);
    best_cut = std::max(best_cut, cut);
  }
  const std::string path =
      testing::SourcePath("tests/data/maxcut/gset_pm_14.txt");
  for (const char* backend : {"exact", "cpu-sa"}) {
    const CommandResult r = RunQsolve(absl::StrCat(
        "solve", Addr(), "--kind maxcut --input-file ", path, " --backend ",
        backend, " --reads 50 --sweeps 200 --seed 3 --json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const google::protobuf::Struct last = LastJsonLine(r.out);
    EXPECT_EQ(Number(last, "objective"), best_cut) << backend;
    EXPECT_EQ(Number(last, "energy"), -best_cut) << backend;
    EXPECT_EQ(Number(last, "ground_energy"), -best_cut);
    EXPECT_TRUE(last.fields().at("valid").bool_value());
  }
  // --target_objective stops the solve at that cut.
  const CommandResult target = RunQsolve(absl::StrCat(
      "solve", Addr(), "--kind maxcut --input-file ", path,
      " --reads 5000 --sweeps 200 --seed 3 --json --target_objective ",
      best_cut));
  ASSERT_EQ(target.exit_code, 0) << target.err;
  const google::protobuf::Struct last = LastJsonLine(target.out);
  EXPECT_EQ(last.fields().at("termination").string_value(), "TARGET_REACHED");
  EXPECT_EQ(Number(last, "objective"), best_cut);
}

TEST_F(CliFormatsTest, OrlibSenseMaxReportsTheMaximum) {
  const v1::QuboModel model = formats::RandomBqp(16, 0.4, 11);
  const double best = BruteForceMax(model);
  const std::string path =
      TempFile("bqp16.txt",
               *formats::FormatQuboModel(model, formats::QuboFormat::kOrlib));
  const CommandResult r = RunQsolve(
      absl::StrCat("solve", Addr(), "--kind qubo --input-file ", path,
                   " --format orlib --sense max --backend exact --json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const google::protobuf::Struct last = LastJsonLine(r.out);
  EXPECT_EQ(Number(last, "objective"), best);
  EXPECT_EQ(Number(last, "energy"), -best);
  // Read as a minimisation, the same file reports its minimum instead.
  const CommandResult min =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind qubo --input-file ", path,
                             " --sense min --backend exact --json"));
  ASSERT_EQ(min.exit_code, 0) << min.err;
  const google::protobuf::Struct low = LastJsonLine(min.out);
  EXPECT_EQ(Number(low, "objective"), Number(low, "energy"));
  EXPECT_LE(Number(low, "objective"), 0);
  // A bad file is a usage error naming the line and field.
  const std::string bad = TempFile("bad.txt", "1\n2 1\n1 5 3\n");
  const CommandResult error = RunQsolve(absl::StrCat(
      "solve", Addr(), "--kind qubo --input-file ", bad, " --json"));
  EXPECT_EQ(error.exit_code, 2);
  EXPECT_THAT(error.err, HasSubstr("orlib line 3, field 2 (j)"));
}

TEST_F(CliFormatsTest, CompileExportsOtherFormats) {
  const v1::QuboModel model = formats::RandomBqp(10, 0.5, 4);
  const std::string path =
      TempFile("bqp10.txt",
               *formats::FormatQuboModel(model, formats::QuboFormat::kOrlib));
  for (const char* format : {"qbsolv", "coo", "ising", "orlib", "text"}) {
    const std::string out =
        absl::StrCat(::testing::TempDir(), "/export.", format);
    const CommandResult r = RunQsolve(absl::StrCat(
        "compile", Addr(), "--kind qubo --input-file ", path, " --export ", out,
        " --export_format ", format, " --json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    formats::QuboReadOptions options;
    options.sense = v1::MAXIMIZE;
    auto back = formats::ParseQuboModel(ReadFile(out), options);
    ASSERT_TRUE(back.ok()) << format << ": " << back.status();
    // Same maximum as the original file.
    EXPECT_EQ(BruteForceMax(formats::SpinToBinary(*back)), BruteForceMax(model))
        << format;
  }
}

TEST_F(CliFormatsTest, BenchWritesTableCsvJsonAndPlot) {
  const std::string dir = ::testing::TempDir();
  const std::string csv = dir + "/bench.csv", svg = dir + "/bench.svg";
  const CommandResult r = RunQsolve(absl::StrCat(
      "bench", Addr(), "--models bqp:12:0.5:1,gset:12:0.5:2 ",
      "--backends cpu-sa,exact --sweeps 5,100 --repeats 2 --reads 20 ",
      "--seed 1 --bootstrap 200 --json --csv ", csv, " --plot ", svg));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("harness overhead"));
  std::vector<std::string> lines =
      absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 2u * 2u * 2u);
  for (const std::string& line : lines) {
    google::protobuf::Struct row;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(line, &row).ok());
    for (const char* field :
         {"model", "backend", "budget", "reads", "p", "tts99_s", "tts99_low_s",
          "tts99_high_s", "t_read_s", "mean_residual", "best_energy",
          "best_objective", "target_energy"})
      EXPECT_TRUE(row.fields().contains(field)) << field;
    const double p = Number(row, "p");
    EXPECT_GE(p, 0);
    EXPECT_LE(p, 1);
    if (p > 0) {
      EXPECT_TRUE(row.fields().at("tts99_s").has_number_value());
      EXPECT_GT(Number(row, "tts99_s"), 0);
    }
    // The exact backend streams only ground states (a few per solve); the
    // annealer every read.
    if (row.fields().at("backend").string_value() == "exact") {
      EXPECT_EQ(p, 1);
      EXPECT_EQ(Number(row, "mean_residual"), 0);
      EXPECT_GE(Number(row, "reads"), 2);
    } else {
      EXPECT_EQ(Number(row, "reads"), 40);
    }
    EXPECT_GE(Number(row, "mean_residual"), 0);
  }
  const std::string table = ReadFile(csv);
  EXPECT_THAT(table,
              HasSubstr("model,backend,budget_unit,budget,repeats,reads"));
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 9);
  EXPECT_THAT(ReadFile(svg), HasSubstr("TTS99 (s)"));
  // The table form prints a header and one row per point.
  const CommandResult text = RunQsolve(absl::StrCat(
      "bench", Addr(), "--models bqp:8 --sweeps 10 --repeats 1 --reads 4"));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("tts99_s"));
  EXPECT_THAT(text.out, HasSubstr("bqp:8"));
}

}  // namespace
}  // namespace qs
