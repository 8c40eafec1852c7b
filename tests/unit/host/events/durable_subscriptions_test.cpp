// DurableSubscriptions: which plugins keep which event types, by the bus's pattern rules, and
// which of them keep the documents too.
#include "events/durable_subscriptions.hpp"

#include <gtest/gtest.h>

namespace opbase::host {
namespace {

using Names = std::vector<std::string>;

// The plugins keeping `type`, in order; a "+" after those that keep documents.
Names keeping(const DurableSubscriptions& d, std::string_view type) {
  Names names;
  for (const DurableSubscriber& s : d.plugins_for(type)) {
    names.push_back(s.plugin + (s.documents ? "+" : ""));
  }
  return names;
}

TEST(DurableSubscriptions, MatchesTypesAreaPatternsAndEverything) {
  DurableSubscriptions d;
  d.add("webhooks", {"document.*"});
  d.add("webhooks", {"user.signedup"});
  d.add("audit", {"*"});
  d.add("search", {"document.created"});
  EXPECT_EQ(keeping(d, "document.created"), (Names{"webhooks", "audit", "search"}));
  EXPECT_EQ(keeping(d, "document.deleted"), (Names{"webhooks", "audit"}));
  EXPECT_EQ(keeping(d, "user.signedup"), (Names{"webhooks", "audit"}));
  EXPECT_EQ(keeping(d, "user.signedin"), (Names{"audit"}));
  EXPECT_EQ(keeping(d, "documents.created"), (Names{"audit"})) << "area.* keeps its dot";
  EXPECT_EQ(keeping(d, ""), Names{}) << "no type, no event";
}

TEST(DurableSubscriptions, APluginIsNamedOnceAndCanBeRemoved) {
  DurableSubscriptions d;
  d.add("webhooks", {"document.*"});
  d.add("webhooks", {"document.created"});
  d.add("webhooks", {"*"});
  EXPECT_EQ(keeping(d, "document.created"), (Names{"webhooks"}));
  d.remove_plugin("webhooks");
  EXPECT_EQ(keeping(d, "document.created"), Names{});
}

TEST(DurableSubscriptions, APluginKeepsDocumentsForATypeAnyOfItsPatternsKeepsThemFor) {
  DurableSubscriptions d;
  d.add("webhooks", {"document.*"});
  d.add("realtime", {"document.*", /*documents=*/true});
  d.add("audit", {"*"});
  d.add("audit", {"document.created", /*documents=*/true});
  EXPECT_EQ(keeping(d, "document.created"), (Names{"webhooks", "realtime+", "audit+"}));
  EXPECT_EQ(keeping(d, "document.updated"), (Names{"webhooks", "realtime+", "audit"}));
  EXPECT_EQ(keeping(d, "user.signedup"), (Names{"audit"}));
}

}  // namespace
}  // namespace opbase::host
