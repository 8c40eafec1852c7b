// PluginMetrics: what plugins record through the ABI's metric_* calls, as Prometheus text under
// opbase_<plugin>_<name>; names and kinds are checked, and a plugin's series are bounded.
#include "metrics/plugin_metrics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace opbase::host {
namespace {

// The value of the one sample line that starts with `series` + ' '.
std::string sample(const std::string& text, const std::string& series) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(series + " ", 0) == 0) return line.substr(series.size() + 1);
  }
  return "(absent)";
}

TEST(PluginMetrics, NothingRecordedRendersNothing) { EXPECT_EQ(PluginMetrics().render(), ""); }

TEST(PluginMetrics, CountersAddGaugesSetHistogramsBucket) {
  PluginMetrics m;
  EXPECT_TRUE(m.add("webhooks", "delivered_total", 2));
  EXPECT_TRUE(m.add("webhooks", "delivered_total", 0.5));
  EXPECT_TRUE(m.set("webhooks", "pending", 9));
  EXPECT_TRUE(m.set("webhooks", "pending", 3));
  EXPECT_TRUE(m.observe("webhooks", "latency_seconds", 0.004));
  EXPECT_TRUE(m.observe("webhooks", "latency_seconds", 0.3));
  EXPECT_TRUE(m.observe("webhooks", "latency_seconds", 60));  // above every bound: only +Inf
  const std::string text = m.render();
  EXPECT_EQ(sample(text, "opbase_webhooks_delivered_total"), "2.5");
  EXPECT_EQ(sample(text, "opbase_webhooks_pending"), "3");
  EXPECT_EQ(sample(text, R"(opbase_webhooks_latency_seconds_bucket{le="0.0025"})"), "0");
  EXPECT_EQ(sample(text, R"(opbase_webhooks_latency_seconds_bucket{le="0.005"})"), "1");
  EXPECT_EQ(sample(text, R"(opbase_webhooks_latency_seconds_bucket{le="0.5"})"), "2");
  EXPECT_EQ(sample(text, R"(opbase_webhooks_latency_seconds_bucket{le="10"})"), "2");
  EXPECT_EQ(sample(text, R"(opbase_webhooks_latency_seconds_bucket{le="+Inf"})"), "3");
  EXPECT_EQ(sample(text, "opbase_webhooks_latency_seconds_count"), "3");
  EXPECT_NEAR(std::stod(sample(text, "opbase_webhooks_latency_seconds_sum")), 60.304, 1e-9);
  EXPECT_NE(text.find("# TYPE opbase_webhooks_delivered_total counter\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE opbase_webhooks_pending gauge\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE opbase_webhooks_latency_seconds histogram\n"), std::string::npos);
}

TEST(PluginMetrics, RefusesBadNamesOtherKindsAndBadValues) {
  PluginMetrics m;
  for (const char* name : {"", "Upper", "dash-ed", "sp ace", "dot.ted", "quote\"",
                           "a_name_that_is_far_too_long_for_any_metric_of_a_plugin_to_carry_x"}) {
    EXPECT_FALSE(m.add("p", name, 1)) << name;
  }
  EXPECT_TRUE(m.add("p", "n_total", 1));
  EXPECT_FALSE(m.set("p", "n_total", 5)) << "a counter stays a counter";
  EXPECT_FALSE(m.observe("p", "n_total", 1));
  EXPECT_FALSE(m.add("p", "n_total", -1));
  EXPECT_FALSE(m.add("p", "n_total", std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(m.set("p", "g", std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(m.observe("p", "h", -0.5));
  EXPECT_EQ(sample(m.render(), "opbase_p_n_total"), "1");
  EXPECT_EQ(m.render().find("opbase_p_g"), std::string::npos);
}

TEST(PluginMetrics, APluginHoldsABoundedNumberOfSeries) {
  PluginMetrics m;
  for (size_t i = 0; i < PluginMetrics::kMostSeries; ++i) {
    ASSERT_TRUE(m.add("greedy", "c" + std::to_string(i) + "_total", 1));
  }
  EXPECT_FALSE(m.add("greedy", "one_more_total", 1));
  EXPECT_TRUE(m.add("greedy", "c0_total", 1)) << "known names still count";
  EXPECT_TRUE(m.add("other", "c0_total", 1)) << "the bound is per plugin";
}

TEST(PluginMetrics, ConcurrentAddsAreAllCounted) {
  PluginMetrics m;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10'000; ++i) m.add("p", "hits_total", 1);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(sample(m.render(), "opbase_p_hits_total"), "40000");
}

}  // namespace
}  // namespace opbase::host
