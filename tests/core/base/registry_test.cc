// Registry<T> and BuildOnce: names and oneof cases are unique, lookups name
// the field and the known items, and the registration order is kept;
// GuardAllocation turns an allocation failure into RESOURCE_EXHAUSTED.
#include "core/base/registry.h"

#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/base/allocation_guard.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct Item {
  int value;
};

TEST(RegistryTest, KeepsOrderAndFindsByNameAndCase) {
  Registry<Item> registry("widget");
  ASSERT_TRUE(registry.Register(std::make_unique<Item>(Item{1}), "b", 7).ok());
  ASSERT_TRUE(registry.Register(std::make_unique<Item>(Item{2}), "a").ok());
  EXPECT_EQ(registry.Find("a")->value, 2);
  EXPECT_EQ(registry.FindCase(7)->value, 1);
  EXPECT_EQ(registry.Find("c"), nullptr);
  EXPECT_EQ(registry.FindCase(8), nullptr);
  std::vector<int> order;
  for (const Item* item : registry.All()) order.push_back(item->value);
  EXPECT_THAT(order, ElementsAre(1, 2));
  EXPECT_THAT(registry.SortedNames(), ElementsAre("a", "b"));
}

TEST(RegistryTest, RefusesATakenNameOrCase) {
  Registry<Item> registry("widget");
  ASSERT_TRUE(registry.Register(std::make_unique<Item>(Item{1}), "a", 3).ok());
  EXPECT_THAT(registry.Register(std::make_unique<Item>(Item{2}), "a"),
              StatusIs(absl::StatusCode::kAlreadyExists,
                       HasSubstr("widget 'a' registered twice")));
  EXPECT_THAT(registry.Register(std::make_unique<Item>(Item{2}), "b", 3),
              StatusIs(absl::StatusCode::kAlreadyExists,
                       HasSubstr("already handled by 'a'")));
  EXPECT_EQ(registry.All().size(), 1u);
}

TEST(RegistryTest, AnUnknownNameNamesTheFieldAndTheKnownOnes) {
  Registry<Item> registry("widget");
  ASSERT_TRUE(registry.Register(std::make_unique<Item>(Item{1}), "b").ok());
  ASSERT_TRUE(registry.Register(std::make_unique<Item>(Item{2}), "a").ok());
  EXPECT_THAT(registry.Get("z", "params.widget"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "params.widget: unknown widget 'z' (one of a, b)"));
}

TEST(AllocationGuardTest, AnAllocationFailureIsResourceExhausted) {
  const absl::Status failed = GuardAllocation(
      "Solve", []() -> absl::Status { throw std::bad_alloc(); });
  EXPECT_THAT(failed,
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("Solve: the server ran out of memory")));
  const absl::StatusOr<int> value =
      GuardAllocation("Compile", []() -> absl::StatusOr<int> { return 3; });
  EXPECT_EQ(*value, 3);
}

}  // namespace
}  // namespace qs
