// LatencyHistogram: one series' lines, with and without labels of its own.
#include "metrics/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace opbase::host {
namespace {

TEST(LatencyHistogram, AnUnlabelledSeriesHasOnlyTheBoundOnItsBuckets) {
  LatencyHistogram h;
  h.observe(0.002);
  std::string out;
  h.render(out, "x_seconds", "");
  EXPECT_NE(out.find("x_seconds_bucket{le=\"0.001\"} 0\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{le=\"0.0025\"} 1\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{le=\"+Inf\"} 1\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_sum 0.002000\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_count 1\n"), std::string::npos) << out;
}

TEST(LatencyHistogram, ALabelledSeriesPutsItsLabelsBeforeTheBound) {
  LatencyHistogram h;
  h.observe(20);  // past the last bound: only +Inf
  std::string out;
  h.render(out, "x_seconds", "call=\"find\"");
  EXPECT_NE(out.find("x_seconds_bucket{call=\"find\",le=\"10\"} 0\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{call=\"find\",le=\"+Inf\"} 1\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_sum{call=\"find\"} 20.000000\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_count{call=\"find\"} 1\n"), std::string::npos) << out;
}

TEST(LatencyHistogram, ANegativeOrNonFiniteDurationCountsAsNothing) {
  LatencyHistogram h;
  h.observe(-1);
  h.observe(std::numeric_limits<double>::quiet_NaN());
  std::string out;
  h.render(out, "x", "");
  EXPECT_EQ(h.count(), 2u);
  EXPECT_NE(out.find("x_bucket{le=\"0.0005\"} 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_sum 0.000000\n"), std::string::npos) << out;
}

}  // namespace
}  // namespace opbase::host
