// DurableSubscriptions: which plugins keep which event types, by the bus's pattern rules.
#include "events/durable_subscriptions.hpp"

#include <gtest/gtest.h>

namespace opbase::host {
namespace {

using Names = std::vector<std::string>;

TEST(DurableSubscriptions, MatchesTypesAreaPatternsAndEverything) {
  DurableSubscriptions d;
  d.add("webhooks", "document.*");
  d.add("webhooks", "user.signedup");
  d.add("audit", "*");
  d.add("search", "document.created");
  EXPECT_EQ(d.plugins_for("document.created"), (Names{"webhooks", "audit", "search"}));
  EXPECT_EQ(d.plugins_for("document.deleted"), (Names{"webhooks", "audit"}));
  EXPECT_EQ(d.plugins_for("user.signedup"), (Names{"webhooks", "audit"}));
  EXPECT_EQ(d.plugins_for("user.signedin"), (Names{"audit"}));
  EXPECT_EQ(d.plugins_for("documents.created"), (Names{"audit"})) << "area.* keeps its dot";
  EXPECT_EQ(d.plugins_for(""), Names{}) << "no type, no event";
}

TEST(DurableSubscriptions, APluginIsNamedOnceAndCanBeRemoved) {
  DurableSubscriptions d;
  d.add("webhooks", "document.*");
  d.add("webhooks", "document.created");
  d.add("webhooks", "*");
  EXPECT_EQ(d.plugins_for("document.created"), (Names{"webhooks"}));
  d.remove_plugin("webhooks");
  EXPECT_EQ(d.plugins_for("document.created"), Names{});
}

}  // namespace
}  // namespace opbase::host
