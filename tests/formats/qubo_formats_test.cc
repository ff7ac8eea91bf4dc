// The raw-model formats (qubo_formats.h): round trips read -> write -> read for
// each format, detection, the sense rule, exact BINARY <-> SPIN conversion,
// and errors that name the line and the field.
#include "formats/qubo_formats.h"

#include <cmath>
#include <string>
#include <vector>

#include "formats/instance_generators.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs::formats {
namespace {

using ::testing::HasSubstr;

// E(x) of a BINARY or SPIN model at the bits of `mask` (bit v: x_v = 1, or
// s_v = +1), evaluated term by term.
double EnergyAt(const v1::QuboModel& model, uint32_t mask) {
  auto value = [&](uint32_t v) {
    const int bit = (mask >> v) & 1;
    return model.vartype() == v1::SPIN ? 2.0 * bit - 1 : 1.0 * bit;
  };
  double e = model.offset();
  for (int k = 0; k < model.w_size(); ++k) {
    e += model.i(k) == model.j(k)
             ? model.w(k) * value(model.i(k))
             : model.w(k) * value(model.i(k)) * value(model.j(k));
  }
  return e;
}

void ExpectSameEnergies(const v1::QuboModel& a, const v1::QuboModel& b) {
  ASSERT_EQ(a.num_variables(), b.num_variables());
  ASSERT_LE(a.num_variables(), 12u);
  for (uint32_t mask = 0; mask < (1u << a.num_variables()); ++mask)
    EXPECT_DOUBLE_EQ(EnergyAt(a, mask), EnergyAt(b, mask)) << mask;
}

v1::QuboModel Read(const std::string& text, QuboFormat format,
                   std::optional<v1::Sense> sense = std::nullopt) {
  QuboReadOptions options;
  options.format = format;
  options.sense = sense;
  auto model = ParseQuboModel(text, options);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : v1::QuboModel();
}

// A 9-variable bqp-like model without offset, every format can hold it.
v1::QuboModel Sample() { return RandomBqp(9, 0.6, 7); }

class RoundTrip : public ::testing::TestWithParam<QuboFormat> {};

TEST_P(RoundTrip, ReadWriteReadKeepsEveryEnergy) {
  const QuboFormat format = GetParam();
  for (v1::Sense sense : {v1::MINIMIZE, v1::MAXIMIZE}) {
    v1::QuboModel model = Sample();
    model.set_sense(sense);
    auto text = FormatQuboModel(model, format);
    ASSERT_TRUE(text.ok()) << text.status();
    EXPECT_EQ(*DetectQuboFormat(*text), format) << *text;
    const v1::QuboModel first = Read(*text, format, sense);
    EXPECT_EQ(first.sense(), sense);
    ExpectSameEnergies(first, model);
    auto again = FormatQuboModel(first, format);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *text) << "the second write differs";
    ExpectSameEnergies(Read(*again, format, sense), model);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Formats, RoundTrip,
    ::testing::Values(QuboFormat::kText, QuboFormat::kQbsolv,
                      QuboFormat::kOrlib, QuboFormat::kCoo, QuboFormat::kIsing),
    [](const auto& info) { return std::string(QuboFormatName(info.param)); });

TEST(QuboFormats, SpinBinaryConversionIsExact) {
  v1::QuboModel model = Sample();
  model.set_sense(v1::MINIMIZE);
  model.set_offset(2.5);
  const v1::QuboModel spin = BinaryToSpin(model);
  EXPECT_EQ(spin.vartype(), v1::SPIN);
  ExpectSameEnergies(spin, model);
  ExpectSameEnergies(SpinToBinary(spin), model);
  // The text and ising formats keep an offset; the others refuse it.
  ExpectSameEnergies(
      Read(*FormatQuboModel(model, QuboFormat::kIsing), QuboFormat::kIsing),
      model);
  for (QuboFormat f :
       {QuboFormat::kQbsolv, QuboFormat::kOrlib, QuboFormat::kCoo})
    EXPECT_THAT(FormatQuboModel(model, f).status().message(),
                HasSubstr("no constant"));
}

TEST(QuboFormats, OrlibIsMaximisedAndSymmetric) {
  // One triangle or both give the same objective: sum_ij q(i,j) x_i x_j.
  const std::string one = "1\n3 3\n1 1 5\n1 2 -3\n3 2 4\n";
  const std::string both = "1\n3 5\n1 1 5\n1 2 -3\n2 1 -3\n3 2 4\n2 3 4\n";
  const v1::QuboModel a = Read(one, QuboFormat::kAuto);
  EXPECT_EQ(a.sense(), v1::MAXIMIZE);
  ExpectSameEnergies(a, Read(both, QuboFormat::kAuto));
  // x = (1, 1, 1): f = 5 - 3 - 3 + 4 + 4 = 7, stored as E = -7.
  EXPECT_DOUBLE_EQ(EnergyAt(a, 0b111), -7);
  // --sense min keeps the file's signs.
  EXPECT_DOUBLE_EQ(EnergyAt(Read(one, QuboFormat::kOrlib, v1::MINIMIZE), 0b111),
                   7);
  EXPECT_THAT(ParseQuboModel("1\n2 2\n1 2 3\n2 1 4\n", {}).status().message(),
              HasSubstr("orlib line 4, field 3 (q)"));
}

TEST(QuboFormats, OrlibInstances) {
  const std::string two = "2\n2 1\n1 2 1\n3 1\n3 3 -2\n";
  auto all = ParseOrlibInstances(two, std::nullopt);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[1].num_variables(), 3u);
  QuboReadOptions second;
  second.instance = 2;
  EXPECT_EQ(ParseQuboModel(two, second)->num_variables(), 3u);
  second.instance = 3;
  EXPECT_THAT(ParseQuboModel(two, second).status().message(),
              HasSubstr("holds 2 instances"));
}

TEST(QuboFormats, StoredBqpIsTheGeneratorOutput) {
  auto all = ParseOrlibInstances(
      testing::ReadSourceFile("tests/data/qubo/bqp12x2.txt"), std::nullopt);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 2u);
  for (uint64_t seed : {1, 2}) {
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
        (*all)[seed - 1], RandomBqp(12, 0.5, seed)))
        << seed;
  }
}

TEST(QuboFormats, Detection) {
  EXPECT_EQ(*DetectQuboFormat("c x\np qubo 0 2 1 0\n0 0 1\n"),
            QuboFormat::kQbsolv);
  EXPECT_EQ(*DetectQuboFormat("2 1 0.5\n0 1 -1\n"), QuboFormat::kText);
  EXPECT_EQ(*DetectQuboFormat("0 1 -1\n1 1 2\n"), QuboFormat::kCoo);
  EXPECT_EQ(*DetectQuboFormat("# vartype=SPIN\n0 1 -1\n"), QuboFormat::kCoo);
  EXPECT_EQ(*DetectQuboFormat("ising 2\nJ 0 1 1\n"), QuboFormat::kIsing);
  EXPECT_EQ(*DetectQuboFormat("10\n50 3\n"), QuboFormat::kOrlib);
  EXPECT_FALSE(DetectQuboFormat("1 2\n").ok());
  EXPECT_EQ(Read("# vartype=SPIN\n0 1 -1\n", QuboFormat::kAuto).vartype(),
            v1::SPIN);
}

struct Malformed {
  const char* name;
  QuboFormat format;
  const char* text;
  const char* message;
};

TEST(QuboFormats, ErrorsNameLineAndField) {
  const Malformed cases[] = {
      {"qbsolv_weight", QuboFormat::kQbsolv, "c\np qubo 0 2 1 0\n0 0 x\n",
       "qbsolv line 3, field 3 (weight): 'x' is not a finite number"},
      {"qbsolv_index", QuboFormat::kQbsolv, "p qubo 0 2 1 0\n2 2 1\n",
       "qbsolv line 2, field 1 (i): 2 is out of range [0, 1]"},
      {"qbsolv_counts", QuboFormat::kQbsolv, "p qubo 0 2 1 1\n0 0 1\n",
       "qbsolv line 1: the program line announces 1 diagonal and 1 coupler"},
      {"qbsolv_program", QuboFormat::kQbsolv, "p qubo 0 2\n",
       "qbsolv line 1: expected 6 fields"},
      {"orlib_index", QuboFormat::kOrlib, "1\n2 1\n1 3 1\n",
       "orlib line 3, field 2 (j): 3 is out of range [1, 2]"},
      {"orlib_count", QuboFormat::kOrlib, "1\n2 2\n1 2 1\n",
       "orlib line 2: announces 2 entries"},
      {"coo_fields", QuboFormat::kCoo, "0 1 2\n0 1\n",
       "coo line 2: expected 3 fields 'i j w', got 2"},
      {"coo_index", QuboFormat::kCoo, "0 -1 2\n",
       "coo line 1, field 2 (j): -1 is out of range"},
      {"ising_kind", QuboFormat::kIsing, "ising 2\nK 0 1 1\n",
       "ising line 2, field 1 (kind): 'K': expected 'h' or 'J'"},
      {"ising_spin", QuboFormat::kIsing, "ising 2\n# c\nJ 0 2 1\n",
       "ising line 3, field 3 (K): 2 is out of range [0, 1]"},
      {"ising_value", QuboFormat::kIsing, "ising 2\nh 1 nan\n",
       "ising line 2, field 3 (VALUE)"},
  };
  for (const Malformed& c : cases) {
    QuboReadOptions options;
    options.format = c.format;
    EXPECT_THAT(ParseQuboModel(c.text, options).status().message(),
                HasSubstr(c.message))
        << c.name;
  }
}

TEST(QuboFormats, Names) {
  for (QuboFormat f :
       {QuboFormat::kAuto, QuboFormat::kText, QuboFormat::kQbsolv,
        QuboFormat::kOrlib, QuboFormat::kCoo, QuboFormat::kIsing})
    EXPECT_EQ(*ParseQuboFormatName(QuboFormatName(f)), f);
  EXPECT_THAT(ParseQuboFormatName("bq").status().message(),
              HasSubstr("--format"));
}

}  // namespace
}  // namespace qs::formats
