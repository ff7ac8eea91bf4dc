// The --dwave_* flags take their defaults from DwaveOptions: the server that
// reads its flags and a host that passes DwaveOptions{} (the tests) run the
// backend alike, and each default number is written once, in
// core/sample/dwave/dwave_options.h.
#include "core/sample/dwave/dwave_flags.h"

#include <regex>
#include <string>

#include "core/sample/dwave/dwave_options.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs {
namespace {

TEST(DwaveFlagsTest, UnsetFlagsGiveDwaveOptionsDefaults) {
  const absl::StatusOr<DwaveOptions> flags = DwaveOptionsFromFlags();
  ASSERT_TRUE(flags.ok()) << flags.status();
  const DwaveOptions defaults;
  EXPECT_EQ(flags->endpoint, defaults.endpoint);
  EXPECT_EQ(flags->region, defaults.region);
  EXPECT_EQ(flags->metadata_endpoint, defaults.metadata_endpoint);
  EXPECT_EQ(flags->token_file, defaults.token_file);
  EXPECT_EQ(flags->solver, defaults.solver);
  EXPECT_EQ(flags->topology, defaults.topology);
  EXPECT_EQ(flags->chain_strength_prefactor, defaults.chain_strength_prefactor);
  EXPECT_EQ(flags->embedding_timeout, defaults.embedding_timeout);
  EXPECT_EQ(flags->embedding_cache_size, defaults.embedding_cache_size);
  EXPECT_EQ(flags->request_timeout, defaults.request_timeout);
  EXPECT_EQ(flags->solve_timeout, defaults.solve_timeout);
  EXPECT_EQ(flags->poll_timeout_seconds, defaults.poll_timeout_seconds);
  EXPECT_EQ(flags->status_cache_ttl, defaults.status_cache_ttl);
}

// A number restated as a flag's default would pass the test above until one
// copy changed; the flags' file may state no numeric default at all.
TEST(DwaveFlagsTest, NoFlagStatesANumberOfItsOwn) {
  const std::string source =
      testing::ReadSourceFile("core/sample/dwave/dwave_flags.cc");
  ASSERT_FALSE(source.empty());
  const std::regex flag(R"(ABSL_FLAG\(\s*([\w:]+)\s*,\s*(\w+)\s*,\s*([^,]*),)");
  int numeric = 0;
  for (std::sregex_iterator it(source.begin(), source.end(), flag), end;
       it != end; ++it) {
    const std::smatch& match = *it;
    if (match[1].str() == "std::string") continue;
    ++numeric;
    EXPECT_FALSE(
        std::regex_search(match[3].str(), std::regex(R"(^\s*[-+]?\.?[0-9])")))
        << "--" << match[2].str() << " states its default " << match[3].str()
        << "; take it from DwaveOptions{} (dwave_options.h)";
  }
  EXPECT_EQ(numeric, 7);
}

}  // namespace
}  // namespace qs
