// docs/architecture.md against the registries: every registered backend and
// every puzzle family is named in it, so the page cannot fall behind a new
// registration.
#include <string>

#include "core/base/worker_pool.h"
#include "core/puzzles/builtin.h"
#include "core/solve/builtin_backends.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs {
namespace {

std::string ArchitectureDoc() {
  return testing::ReadSourceFile("docs/architecture.md");
}

TEST(ArchitectureDocTest, NamesEveryRegisteredBackend) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  WorkerPool pool(1);
  BackendRegistry registry;
  BackendOptions options;
  options.pool = &pool;
  ASSERT_TRUE(RegisterBuiltinBackends(registry, options).ok());
  ASSERT_FALSE(registry.All().empty());
  for (const Backend* backend : registry.All()) {
    const std::string quoted = "`" + std::string(backend->name()) + "`";
    EXPECT_NE(doc.find(quoted), std::string::npos)
        << "docs/architecture.md does not name backend " << quoted;
  }
}

TEST(ArchitectureDocTest, NamesEveryPuzzleFamily) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  const std::vector<std::string> kinds = BuiltinCompilers().Kinds();
  ASSERT_FALSE(kinds.empty());
  for (const std::string& kind : kinds) {
    const std::string quoted = "`" + kind + "`";
    EXPECT_NE(doc.find(quoted), std::string::npos)
        << "docs/architecture.md does not name family " << quoted;
  }
}

}  // namespace
}  // namespace qs
