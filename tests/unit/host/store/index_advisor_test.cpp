// The automatic index policy alone (host/store/index_advisor.hpp): which fields a query is
// noticed for, and when a field has earned an index.
#include "store/index_advisor.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opbase/store.hpp"

namespace opbase::host {
namespace {

using Fields = std::vector<std::string>;

query::Match M(std::string_view text) {
  auto parsed = query::parse_match(nlohmann::json::parse(text), store::wire_parse_options());
  if (!parsed) ADD_FAILURE() << text << ": " << parsed.status().to_string();
  return parsed ? *parsed : query::Match{};
}

std::vector<query::SortKey> S(std::string_view text) {
  auto parsed = query::parse_sort(text, store::wire_parse_options());
  if (!parsed) ADD_FAILURE() << text << ": " << parsed.status().to_string();
  return parsed ? *parsed : std::vector<query::SortKey>{};
}

const auto kNoIndex = [](const std::string&) { return false; };

TEST(IndexCandidates, ConditionsAnIndexCanDecideAndASortByOneField) {
  EXPECT_EQ(index_candidates(M(R"({"a": 1, "b:$gt": "x", "c:$in": [1, "y", true]})"), {}, kNoIndex),
            (Fields{"a", "b", "c"}));
  EXPECT_EQ(index_candidates(M(R"({"a": true})"), {}, kNoIndex), (Fields{"a"}));
  // Negations, null, objects, arrays and mixed $in lists are not served by an index.
  EXPECT_EQ(index_candidates(M(R"({"a:$ne": 1, "b:$nin": [1], "c": null, "d": {"x": 1},
                                   "e": [1], "f:$in": [1, null]})"),
                             {}, kNoIndex),
            Fields{});
  EXPECT_EQ(index_candidates({}, S("price desc"), kNoIndex), (Fields{"price"}));
  EXPECT_EQ(index_candidates({}, S("price desc, name asc"), kNoIndex), Fields{});
  EXPECT_EQ(index_candidates(M(R"({"_key": "k", "_created_at:$gt": 5})"), S("_created_at desc"),
                             kNoIndex),
            Fields{});
  // A field named twice is one field; fields with an index are left out.
  EXPECT_EQ(index_candidates(M(R"({"a:$gt": 1, "a:$lt": 9, "b": 2})"), S("a asc"),
                             [](const std::string& path) { return path == "b"; }),
            (Fields{"a"}));
}

TEST(IndexAdvisor, AFieldEarnsAnIndexAtItsThirdCostlyQueryOnce) {
  IndexAdvisor advisor(AutoIndexPolicy{});
  EXPECT_EQ(advisor.note("ns", "items", {"a", "b"}, 999, 10), Fields{});  // not costly
  EXPECT_EQ(advisor.note("ns", "items", {"a", "b"}, 1000, 10), Fields{});
  EXPECT_EQ(advisor.note("ns", "items", {"a"}, 5000, 20), Fields{});
  EXPECT_EQ(advisor.note("ns", "other", {"a"}, 5000, 20), Fields{});  // another collection
  const auto costs = advisor.costs("ns", "items");
  ASSERT_EQ(costs.size(), 2u);
  EXPECT_EQ(costs.at("a").costly_queries, 2);
  EXPECT_EQ(costs.at("a").rows_read, 6000);
  EXPECT_EQ(costs.at("a").elapsed_us, 30);
  EXPECT_EQ(advisor.noticed("ns", "items")[0]["time_ms"], 0.03);
  EXPECT_EQ(advisor.note("ns", "items", {"a", "b"}, 1000, 10), (Fields{"a"}));
  EXPECT_EQ(advisor.costs("ns", "items").count("a"), 0u);  // returned once, then forgotten
  EXPECT_EQ(advisor.note("ns", "items", {"b"}, 1000, 10), (Fields{"b"}));
  EXPECT_EQ(advisor.note("ns", "items", {"a"}, 1000, 10), Fields{});  // counting again
}

TEST(IndexAdvisor, ADisabledPolicyNoticesNothing) {
  AutoIndexPolicy policy;
  policy.enabled = false;
  policy.after_queries = 1;
  IndexAdvisor advisor(policy);
  EXPECT_EQ(advisor.note("ns", "items", {"a"}, 1'000'000, 10), Fields{});
  EXPECT_TRUE(advisor.costs("ns", "items").empty());
}

}  // namespace
}  // namespace opbase::host
