// Backend parameter schemas (core/backend/param_schema.h): the generic checks
// and descriptions, and the rule every registered backend keeps — one spec
// per field of its own message, each with a default and a line of help, and
// its message named after it.
#include "core/backend/param_schema.h"

#include <set>
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
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::vector<ParamSpec>& PtSpecs() {
  static const auto* const specs = new std::vector<ParamSpec>{
      {.name = "replicas",
       .default_value = "64",
       .help = "h",
       .min = 2,
       .max = 8},
      {.name = "beta_hot",
       .default_value = "d",
       .help = "h",
       .min = 0,
       .min_exclusive = true},
      {.name = "moves",
       .default_value = "d",
       .help = "h",
       .refused_values = {{"PT_MOVES_ONE_HOT_SWAP", "not here"}}}};
  return *specs;
}

TEST(ParamSchemaTest, ZeroIsUnsetAndBoundsAreInclusive) {
  v1::PtParams pt;
  EXPECT_OK(CheckParamsBySchema(pt, PtSpecs(), "params.pt"));
  pt.set_replicas(8);
  EXPECT_OK(CheckParamsBySchema(pt, PtSpecs(), "params.pt"));
  pt.set_replicas(9);
  EXPECT_THAT(CheckParamsBySchema(pt, PtSpecs(), "params.pt"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.pt.replicas: must be 2..8, got 9")));
  pt.set_replicas(1);
  EXPECT_THAT(CheckParamsBySchema(pt, PtSpecs(), "params.pt"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.pt.replicas")));
}

TEST(ParamSchemaTest, RefusesNonFiniteExclusiveBoundsAndEnums) {
  v1::PtParams pt;
  pt.set_beta_hot(std::numeric_limits<double>::quiet_NaN());
  EXPECT_THAT(CheckParamsBySchema(pt, PtSpecs(), "p"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("p.beta_hot: must be finite")));
  pt.set_beta_hot(-0.5);
  EXPECT_THAT(CheckParamsBySchema(pt, PtSpecs(), "p"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("p.beta_hot: must be > 0")));
  pt.set_beta_hot(0.5);
  pt.set_moves(static_cast<v1::PtMoves>(42));
  EXPECT_THAT(CheckParamsBySchema(pt, PtSpecs(), "p"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("p.moves: unknown value 42")));
  pt.set_moves(v1::PT_MOVES_ONE_HOT_SWAP);
  EXPECT_THAT(CheckParamsBySchema(pt, PtSpecs(), "p"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("p.moves: not here")));
}

TEST(ParamSchemaTest, ChecksEveryElementOfAList) {
  const std::vector<ParamSpec> specs = {
      {.name = "beta_schedule", .default_value = "d", .help = "h", .min = 0}};
  v1::CpuSaParams sa;
  sa.add_beta_schedule(0);  // an element's zero is a value, and allowed here
  sa.add_beta_schedule(-1);
  EXPECT_THAT(CheckParamsBySchema(sa, specs, "params.cpu_sa"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.cpu_sa.beta_schedule[1]")));
}

TEST(ParamSchemaTest, DescribesTypesChoicesAndBounds) {
  const std::vector<v1::ParamDescription> rows =
      DescribeParams(*v1::PtParams::descriptor(), PtSpecs());
  ASSERT_EQ(rows.size(), 3);
  EXPECT_EQ(rows[0].name(), "replicas");
  EXPECT_EQ(rows[0].type(), "uint32");
  EXPECT_EQ(rows[0].min(), 2);
  EXPECT_EQ(rows[0].max(), 8);
  EXPECT_EQ(rows[1].type(), "double");
  EXPECT_FALSE(rows[1].has_max());
  EXPECT_TRUE(rows[1].min_exclusive());
  EXPECT_FALSE(rows[0].min_exclusive());
  EXPECT_EQ(rows[2].type(), "enum");
  EXPECT_THAT(rows[2].choices(),
              ElementsAre("PT_MOVES_DEFAULT", "PT_MOVES_SINGLE_FLIP"));
  const std::vector<v1::ParamDescription> dwave = DescribeParams(
      *v1::DwaveParams::descriptor(),
      {{.name = "anneal_schedule", .default_value = "d", .help = "h"},
       {.name = "chain_strength", .default_value = "d", .help = "h"}});
  EXPECT_EQ(dwave[0].type(), "AnnealPoint");
  EXPECT_TRUE(dwave[0].repeated());
  EXPECT_TRUE(dwave[1].has_presence());
}

// Every registered backend: its message is SolveParams.<name with '-' as
// '_'> (clients find it by that rule), and the schema and the message list the
// same fields, each with a default and help.
TEST(ParamSchemaTest, EveryBackendDeclaresEveryFieldOfItsMessage) {
  WorkerPool pool(1);
  BackendRegistry registry;
  BackendOptions options;
  options.pool = &pool;
  ASSERT_OK(RegisterBuiltinBackends(registry, options));
  for (const Backend* backend : registry.All()) {
    SCOPED_TRACE(backend->name());
    if (backend->params_field().empty()) {
      EXPECT_TRUE(backend->param_specs().empty());
      continue;
    }
    EXPECT_EQ(backend->params_field(),
              absl::StrReplaceAll(backend->name(), {{"-", "_"}}));
    const auto* field = v1::SolveParams::descriptor()->FindFieldByName(
        std::string(backend->params_field()));
    ASSERT_NE(field, nullptr);
    ASSERT_NE(field->containing_oneof(), nullptr);
    const google::protobuf::Descriptor& type = *field->message_type();
    std::set<std::string> declared;
    for (const ParamSpec& spec : backend->param_specs()) {
      EXPECT_NE(type.FindFieldByName(spec.name), nullptr)
          << spec.name << " is not a field of " << type.name();
      EXPECT_TRUE(declared.insert(spec.name).second) << spec.name;
      EXPECT_STRNE(spec.default_value, "") << spec.name;
      EXPECT_STRNE(spec.help, "") << spec.name;
    }
    for (int f = 0; f < type.field_count(); ++f)
      EXPECT_TRUE(declared.contains(type.field(f)->name()))
          << type.field(f)->name() << " of " << type.name()
          << " has no ParamSpec";
  }
}

}  // namespace
}  // namespace qs
