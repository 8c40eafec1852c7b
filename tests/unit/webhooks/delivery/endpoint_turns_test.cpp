// EndpointTurns: delivery threads go round a project's endpoints, and no endpoint holds more
// turns at once than its share, so a slow one leaves threads to the others.
#include "delivery/endpoint_turns.hpp"

#include <gtest/gtest.h>

namespace opbase::webhooks {
namespace {

const std::vector<std::string> kNone;

TEST(EndpointTurns, GoRoundTheEndpointsInTheirOrder) {
  EndpointTurns turns(4);
  const std::vector<std::string> ids = {"a", "b", "c"};
  std::vector<std::string> given;
  for (int i = 0; i < 6; ++i) {
    auto id = turns.take("p", ids, kNone);
    ASSERT_TRUE(id);
    given.push_back(*id);
    turns.give_back("p", *id);
  }
  EXPECT_EQ(given, (std::vector<std::string>{"a", "b", "c", "a", "b", "c"}));
}

TEST(EndpointTurns, AnEndpointAtItsShareIsPassedOverUntilATurnComesBack) {
  EndpointTurns turns(2);
  const std::vector<std::string> ids = {"slow", "fast"};
  // Two threads stuck on "slow" (their turns are not given back).
  ASSERT_EQ(*turns.take("p", ids, kNone), "slow");
  ASSERT_EQ(*turns.take("p", ids, kNone), "fast");
  turns.give_back("p", "fast");
  ASSERT_EQ(*turns.take("p", ids, kNone), "slow");
  EXPECT_EQ(turns.held("p", "slow"), 2);
  for (int i = 0; i < 5; ++i) {
    auto id = turns.take("p", ids, kNone);
    ASSERT_TRUE(id);
    EXPECT_EQ(*id, "fast") << "slow holds its share";
    turns.give_back("p", *id);
  }
  turns.give_back("p", "slow");
  EXPECT_EQ(turns.held("p", "slow"), 1);
  EXPECT_EQ(*turns.take("p", ids, kNone), "slow");
}

TEST(EndpointTurns, SkippedAndFullEndpointsLeaveNoneToTake) {
  EndpointTurns turns(1);
  const std::vector<std::string> ids = {"a", "b"};
  ASSERT_EQ(*turns.take("p", ids, kNone), "a");
  EXPECT_FALSE(turns.take("p", ids, {"b"})) << "a is full, b was found empty";
  EXPECT_EQ(*turns.take("p", ids, kNone), "b");
  EXPECT_FALSE(turns.take("p", ids, kNone));
  EXPECT_FALSE(turns.take("p", {}, kNone));
}

TEST(EndpointTurns, AnyFreeSaysWhetherAWaitingThreadCouldTakeOneOfThem) {
  EndpointTurns turns(1);
  EXPECT_TRUE(turns.any_free("p", {"a"})) << "no turn held yet";
  ASSERT_EQ(*turns.take("p", {"a", "b"}, kNone), "a");
  EXPECT_FALSE(turns.any_free("p", {"a"}));
  EXPECT_TRUE(turns.any_free("p", {"a", "b"}));
  EXPECT_FALSE(turns.any_free("p", {}));
  turns.give_back("p", "a");
  EXPECT_TRUE(turns.any_free("p", {"a"}));
}

TEST(EndpointTurns, ProjectsAreCountedApart) {
  EndpointTurns turns(1);
  ASSERT_EQ(*turns.take("p", {"a"}, kNone), "a");
  EXPECT_EQ(*turns.take("q", {"a"}, kNone), "a") << "the same id in another project";
  EXPECT_FALSE(turns.take("p", {"a"}, kNone));
}

TEST(EndpointTurns, AShareIsAtLeastOne) {
  EndpointTurns turns(0);
  EXPECT_TRUE(turns.take("p", {"a"}, kNone));
  EXPECT_FALSE(turns.take("p", {"a"}, kNone));
}

}  // namespace
}  // namespace opbase::webhooks
