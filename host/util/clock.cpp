#include "util/clock.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace opbase::host {

int64_t system_now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string format_iso8601_ms(int64_t unix_ms) {
  const time_t seconds = static_cast<time_t>(unix_ms / 1000);
  const int millis = static_cast<int>(unix_ms % 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
  return text;
}

}  // namespace opbase::host
