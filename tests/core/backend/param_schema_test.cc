// Backend parameter schemas (core/backend/param_schema.h): the generic checks,
// descriptions and literal defaults read from the (qs.v1.param) options, and
// the rule every registered backend keeps — an option on every field of its
// own message, each with a default and a line of help, and its message named
// after it.
#include "core/backend/param_schema.h"

#include <limits>
#include <string>

#include "absl/strings/str_replace.h"
#include "core/base/worker_pool.h"
#include "core/solve/builtin_backends.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Optional;

const google::protobuf::FieldDescriptor& Field(
    const google::protobuf::Descriptor& type, const std::string& name) {
  return *type.FindFieldByName(name);
}

TEST(ParamSchemaTest, ZeroIsUnsetAndBoundsAreInclusive) {
  v1::TabuParams tabu;
  EXPECT_OK(CheckParamsBySchema(tabu, "params.tabu"));
  tabu.set_elite_size(1000);
  EXPECT_OK(CheckParamsBySchema(tabu, "params.tabu"));
  tabu.set_elite_size(1001);
  EXPECT_THAT(
      CheckParamsBySchema(tabu, "params.tabu"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("params.tabu.elite_size: must be 1..1000, got 1001")));
}

TEST(ParamSchemaTest, RefusesNonFiniteExclusiveBoundsAndEnums) {
  v1::DwaveParams dwave;
  dwave.set_annealing_time_us(std::numeric_limits<double>::quiet_NaN());
  EXPECT_THAT(CheckParamsBySchema(dwave, "p"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("p.annealing_time_us: must be finite")));
  // A field with presence: its zero is a value, and "> 0" refuses it.
  dwave.set_annealing_time_us(0);
  EXPECT_THAT(CheckParamsBySchema(dwave, "p"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("p.annealing_time_us: must be > 0")));
  v1::PtParams pt;
  pt.set_moves(static_cast<v1::PtMoves>(42));
  EXPECT_THAT(CheckParamsBySchema(pt, "p"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("p.moves: unknown value 42")));
  v1::CpuSaParams sa;
  sa.set_schedule(v1::SCHEDULE_CUSTOM);
  EXPECT_THAT(CheckParamsBySchema(sa, "p"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("p.schedule: SCHEDULE_CUSTOM is reported")));
}

TEST(ParamSchemaTest, ChecksEveryElementOfAList) {
  v1::CpuSaParams sa;
  sa.add_beta_schedule(0);  // an element's zero is a value, and allowed here
  sa.add_beta_schedule(-1);
  EXPECT_THAT(CheckParamsBySchema(sa, "params.cpu_sa"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.cpu_sa.beta_schedule[1]")));
}

TEST(ParamSchemaTest, DescribesTypesChoicesAndBounds) {
  const std::vector<v1::ParamDescription> rows =
      DescribeParams(*v1::PtParams::descriptor());
  ASSERT_EQ(rows.size(), 5);
  EXPECT_EQ(rows[0].name(), "replicas");
  EXPECT_EQ(rows[0].type(), "uint32");
  EXPECT_EQ(rows[0].default_value(), "64");
  EXPECT_EQ(rows[0].min(), 1);
  EXPECT_EQ(rows[0].max(), 1024);
  EXPECT_FALSE(rows[0].min_exclusive());
  EXPECT_EQ(rows[1].type(), "double");
  EXPECT_EQ(rows[1].unit(), "1/energy");
  EXPECT_FALSE(rows[1].has_max());
  EXPECT_EQ(rows[3].type(), "enum");
  EXPECT_THAT(rows[3].choices(),
              ElementsAre("PT_MOVES_DEFAULT", "PT_MOVES_SINGLE_FLIP",
                          "PT_MOVES_ONE_HOT_SWAP"));
  const std::vector<v1::ParamDescription> sa =
      DescribeParams(*v1::CpuSaParams::descriptor());
  EXPECT_THAT(sa[2].choices(), Not(Contains("SCHEDULE_CUSTOM")));
  const std::vector<v1::ParamDescription> dwave =
      DescribeParams(*v1::DwaveParams::descriptor());
  EXPECT_TRUE(dwave[1].min_exclusive());
  EXPECT_TRUE(dwave[2].has_presence());
  EXPECT_EQ(dwave[9].name(), "anneal_schedule");
  EXPECT_EQ(dwave[9].type(), "AnnealPoint");
  EXPECT_TRUE(dwave[9].repeated());
}

TEST(ParamSchemaTest, LiteralDefaultsAreNumbersBooleansAndEnumValues) {
  const auto& tabu = *v1::TabuParams::descriptor();
  EXPECT_THAT(LiteralDefault(Field(tabu, "stall_sweeps")), Optional(10.0));
  EXPECT_THAT(LiteralDefault(Field(tabu, "perturbation")), Optional(0.1));
  EXPECT_EQ(LiteralDefault(Field(tabu, "tenure")), std::nullopt);  // a rule
  // A literal followed by an explanation in parentheses.
  EXPECT_THAT(
      LiteralDefault(Field(*v1::SatParams::descriptor(), "max_solutions")),
      Optional(2.0));
  const auto& sa = *v1::CpuSaParams::descriptor();
  EXPECT_THAT(LiteralDefault(Field(sa, "schedule")),
              Optional(static_cast<double>(v1::GEOMETRIC)));
  EXPECT_THAT(LiteralDefault(Field(sa, "kernel")),
              Optional(static_cast<double>(v1::KERNEL_AUTO)));
  EXPECT_EQ(LiteralDefault(Field(sa, "beta_hot")), std::nullopt);
  const auto& dwave = *v1::DwaveParams::descriptor();
  EXPECT_THAT(LiteralDefault(Field(dwave, "auto_scale")), Optional(1.0));
  EXPECT_EQ(LiteralDefault(Field(dwave, "label")), std::nullopt);
  // A number that starts a formula is not a literal.
  EXPECT_EQ(LiteralDefault(Field(*v1::SqaParams::descriptor(), "gamma_start")),
            std::nullopt);
  EXPECT_EQ(LiteralDefault(Field(*v1::SbParams::descriptor(), "time_step")),
            std::nullopt);
  EXPECT_EQ(StatedDefault<v1::SbParams>("heat"), 0.05);
}

// Every registered backend: its message is SolveParams.<name with '-' as
// '_'> (clients find it by that rule), and every field of it carries an
// option with a default and help; a literal default lies within its bounds.
TEST(ParamSchemaTest, EveryFieldOfEveryBackendsMessageHasAnOption) {
  WorkerPool pool(1);
  BackendRegistry registry;
  BackendOptions options;
  options.pool = &pool;
  ASSERT_OK(RegisterBuiltinBackends(registry, options));
  int messages = 0;
  for (const Backend* backend : registry.All()) {
    SCOPED_TRACE(backend->name());
    if (backend->params_field().empty()) continue;
    EXPECT_EQ(backend->params_field(),
              absl::StrReplaceAll(backend->name(), {{"-", "_"}}));
    const auto* field = v1::SolveParams::descriptor()->FindFieldByName(
        std::string(backend->params_field()));
    ASSERT_NE(field, nullptr);
    ASSERT_NE(field->containing_oneof(), nullptr);
    const google::protobuf::Descriptor& type = *field->message_type();
    ++messages;
    for (int f = 0; f < type.field_count(); ++f) {
      const google::protobuf::FieldDescriptor& param = *type.field(f);
      const v1::ParamOption* option = ParamOptionOf(param);
      ASSERT_NE(option, nullptr)
          << type.name() << "." << param.name() << " has no (qs.v1.param)";
      EXPECT_NE(option->default_(), "") << param.name();
      EXPECT_NE(option->help(), "") << param.name();
      const std::optional<double> literal = LiteralDefault(param);
      if (!literal || *literal == 0 ||
          param.cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_ENUM)
        continue;
      if (option->has_min()) {
        EXPECT_GE(*literal, option->min()) << param.name();
      }
      if (option->has_max()) {
        EXPECT_LE(*literal, option->max()) << param.name();
      }
    }
  }
  EXPECT_EQ(messages, v1::SolveParams::descriptor()
                          ->FindOneofByName("backend_params")
                          ->field_count());
}

}  // namespace
}  // namespace qs
