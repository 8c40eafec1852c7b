// Metrics: the Prometheus text exposition of request counters, latency histograms, the in-flight
// gauge and the extra source.
#include "metrics/metrics.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace opbase::host {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has_line(const std::string& text, const std::string& line) {
  for (const auto& l : lines_of(text)) {
    if (l == line) return true;
  }
  return false;
}

#define EXPECT_LINE(text, line) \
  EXPECT_TRUE(has_line(text, line)) << "missing line: " << (line) << "\nin:\n" << (text)

// The value of the one sample line that starts with `series` + ' '.
std::string sample(const std::string& text, const std::string& series) {
  for (const auto& l : lines_of(text)) {
    if (l.rfind(series + " ", 0) == 0) return l.substr(series.size() + 1);
  }
  return "(absent)";
}

std::string bucket(const std::string& op, const std::string& le) {
  return "opbase_request_duration_seconds_bucket{op=\"" + op + "\",le=\"" + le + "\"}";
}

TEST(Metrics, EmptyRenderHasTheFamiliesAndAZeroGauge) {
  Metrics metrics;
  const std::string text = metrics.render();
  EXPECT_LINE(text, "# HELP opbase_requests_total API requests by op and result code.");
  EXPECT_LINE(text, "# TYPE opbase_requests_total counter");
  EXPECT_LINE(text, "# TYPE opbase_request_duration_seconds histogram");
  EXPECT_LINE(text, "# TYPE opbase_requests_in_flight gauge");
  EXPECT_LINE(text, "opbase_requests_in_flight 0");
  EXPECT_EQ(text.find("opbase_requests_total{"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
}

TEST(Metrics, RequestCountersByOpAndCode) {
  Metrics metrics;
  metrics.record_request("echo.ping", "OK", 0.001);
  metrics.record_request("echo.ping", "OK", 0.002);
  metrics.record_request("echo.ping", "VALIDATION_ERROR", 0.001);
  metrics.record_request("unknown", "UNKNOWN_OPERATION", 0.0001);
  metrics.record_request("none", "AUTHENTICATION_FAILED", 0.0001);
  const std::string text = metrics.render();
  EXPECT_LINE(text, "opbase_requests_total{op=\"echo.ping\",code=\"OK\"} 2");
  EXPECT_LINE(text, "opbase_requests_total{op=\"echo.ping\",code=\"VALIDATION_ERROR\"} 1");
  EXPECT_LINE(text, "opbase_requests_total{op=\"unknown\",code=\"UNKNOWN_OPERATION\"} 1");
  EXPECT_LINE(text, "opbase_requests_total{op=\"none\",code=\"AUTHENTICATION_FAILED\"} 1");
  EXPECT_EQ(sample(text, "opbase_request_duration_seconds_count{op=\"echo.ping\"}"), "3");
}

TEST(Metrics, HistogramBucketsAreCumulativeWithInclusiveBounds) {
  Metrics metrics;
  metrics.record_request("a.b", "OK", 0.0001);  // ≤ 0.0005
  metrics.record_request("a.b", "OK", 0.001);   // exactly on a bound: counts in le="0.001"
  metrics.record_request("a.b", "OK", 0.003);   // ≤ 0.005
  metrics.record_request("a.b", "OK", 0.75);    // ≤ 1
  metrics.record_request("a.b", "OK", 10);      // exactly the last bound
  metrics.record_request("a.b", "OK", 60);      // only +Inf
  const std::string text = metrics.render();
  const std::vector<std::pair<std::string, int>> expected = {
      {"0.0005", 1}, {"0.001", 2}, {"0.0025", 2}, {"0.005", 3}, {"0.01", 3},
      {"0.025", 3},  {"0.05", 3},  {"0.1", 3},    {"0.25", 3},  {"0.5", 3},
      {"1", 4},      {"2.5", 4},   {"5", 4},      {"10", 5},    {"+Inf", 6}};
  ASSERT_EQ(expected.size(), Metrics::kLatencyBuckets.size() + 1);
  for (const auto& [le, count] : expected) {
    EXPECT_EQ(sample(text, bucket("a.b", le)), std::to_string(count)) << "le=" << le;
  }
  EXPECT_EQ(sample(text, "opbase_request_duration_seconds_count{op=\"a.b\"}"), "6");
  // 0.0001 + 0.001 + 0.003 + 0.75 + 10 + 60 = 70.7541
  EXPECT_EQ(sample(text, "opbase_request_duration_seconds_sum{op=\"a.b\"}"), "70.754100");
}

TEST(Metrics, BucketLinesComeInBoundOrderBeforeSumAndCount) {
  Metrics metrics;
  metrics.record_request("a.b", "OK", 0.01);
  std::vector<std::string> order;
  for (const auto& l : lines_of(metrics.render())) {
    if (l.rfind("opbase_request_duration_seconds", 0) == 0)
      order.push_back(l.substr(0, l.find(' ')));
  }
  ASSERT_EQ(order.size(), Metrics::kLatencyBuckets.size() + 3);
  EXPECT_EQ(order[0], bucket("a.b", "0.0005"));
  EXPECT_EQ(order[Metrics::kLatencyBuckets.size()], bucket("a.b", "+Inf"));
  EXPECT_EQ(order[order.size() - 2], "opbase_request_duration_seconds_sum{op=\"a.b\"}");
  EXPECT_EQ(order.back(), "opbase_request_duration_seconds_count{op=\"a.b\"}");
}

TEST(Metrics, SumIsTheSumOfObservedSeconds) {
  // 1000 requests of 249 µs each: 0.249 s in all. (0.000249 * 1e6 is 248.99999999999997 in
  // doubles: a sum that truncates to whole microseconds loses 1 µs per request.)
  Metrics metrics;
  for (int i = 0; i < 1000; ++i) metrics.record_request("a.b", "OK", 0.000249);
  EXPECT_EQ(sample(metrics.render(), "opbase_request_duration_seconds_sum{op=\"a.b\"}"),
            "0.249000");
}

TEST(Metrics, SeparateHistogramPerOp) {
  Metrics metrics;
  metrics.record_request("a.one", "OK", 0.0002);
  metrics.record_request("a.two", "OK", 2);
  metrics.record_request("a.two", "FORBIDDEN", 2);
  const std::string text = metrics.render();
  EXPECT_EQ(sample(text, bucket("a.one", "0.0005")), "1");
  EXPECT_EQ(sample(text, bucket("a.two", "0.0005")), "0");
  EXPECT_EQ(sample(text, bucket("a.two", "2.5")), "2");
  EXPECT_EQ(sample(text, "opbase_request_duration_seconds_count{op=\"a.one\"}"), "1");
  EXPECT_EQ(sample(text, "opbase_request_duration_seconds_count{op=\"a.two\"}"), "2");
}

TEST(Metrics, InFlightGauge) {
  Metrics metrics;
  metrics.request_started();
  metrics.request_started();
  metrics.request_started();
  metrics.request_finished();
  EXPECT_EQ(metrics.in_flight(), 2);
  EXPECT_LINE(metrics.render(), "opbase_requests_in_flight 2");
  metrics.request_finished();
  metrics.request_finished();
  EXPECT_LINE(metrics.render(), "opbase_requests_in_flight 0");
}

TEST(Metrics, ExtraSourceIsAppendedAtScrapeTime) {
  Metrics metrics;
  int scrapes = 0;
  metrics.set_extra_source([&scrapes] {
    ++scrapes;
    return "# TYPE opbase_events_dropped_total counter\nopbase_events_dropped_total " +
           std::to_string(scrapes) + "\n";
  });
  const std::string first = metrics.render();
  EXPECT_EQ(scrapes, 1);
  const std::string tail =
      "opbase_requests_in_flight 0\n# TYPE opbase_events_dropped_total counter\n"
      "opbase_events_dropped_total 1\n";
  ASSERT_GE(first.size(), tail.size());
  EXPECT_EQ(first.substr(first.size() - tail.size()), tail);
  EXPECT_LINE(metrics.render(), "opbase_events_dropped_total 2");
}

TEST(Metrics, EverySampleLineIsWellFormed) {
  Metrics metrics;
  metrics.record_request("collection.find", "OK", 0.004);
  metrics.record_request("auth.signin", "INVALID_CREDENTIALS", 0.2);
  for (const auto& l : lines_of(metrics.render())) {
    ASSERT_FALSE(l.empty());
    if (l[0] == '#') {
      EXPECT_TRUE(l.rfind("# HELP ", 0) == 0 || l.rfind("# TYPE ", 0) == 0) << l;
      continue;
    }
    // name{labels} value — one space, a numeric value.
    const auto space = l.rfind(' ');
    ASSERT_NE(space, std::string::npos) << l;
    const std::string value = l.substr(space + 1);
    size_t used = 0;
    EXPECT_NO_THROW((void)std::stod(value, &used)) << l;
    EXPECT_EQ(used, value.size()) << l;
    EXPECT_EQ(l.find(' '), space) << l;
  }
}

TEST(Metrics, ConcurrentRecordingCountsEverything) {
  Metrics metrics;
  constexpr int kThreads = 4;
  constexpr int kEach = 1000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&metrics, t] {
      for (int i = 0; i < kEach; ++i) {
        metrics.request_started();
        metrics.record_request(t % 2 ? "x.odd" : "x.even", i % 3 ? "OK" : "VALIDATION_ERROR", 0.01);
        metrics.request_finished();
        if (i % 100 == 0) (void)metrics.render();
      }
    });
  }
  for (auto& t : threads) t.join();
  const std::string text = metrics.render();
  EXPECT_EQ(sample(text, "opbase_request_duration_seconds_count{op=\"x.odd\"}"), "2000");
  EXPECT_EQ(sample(text, "opbase_request_duration_seconds_count{op=\"x.even\"}"), "2000");
  // i % 3 != 0 for 666 of every 1000 i values (1..999 minus multiples of 3).
  EXPECT_EQ(sample(text, "opbase_requests_total{op=\"x.odd\",code=\"OK\"}"), "1332");
  EXPECT_EQ(sample(text, "opbase_requests_total{op=\"x.odd\",code=\"VALIDATION_ERROR\"}"), "668");
  EXPECT_LINE(text, "opbase_requests_in_flight 0");
}

}  // namespace
}  // namespace opbase::host

namespace opbase::host {
namespace {

TEST(PrometheusLabel, EscapesBackslashQuoteAndNewlineOnly) {
  EXPECT_EQ(prometheus_label("1.2.3"), "1.2.3");
  EXPECT_EQ(prometheus_label("a\"b"), "a\\\"b");
  EXPECT_EQ(prometheus_label("a\\b"), "a\\\\b");
  EXPECT_EQ(prometheus_label("line\nbreak"), "line\\nbreak");
  EXPECT_EQ(prometheus_label("héllo"), "héllo");
}

}  // namespace
}  // namespace opbase::host
