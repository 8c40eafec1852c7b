#include "opbase/iso_time.hpp"

#include <cstdio>
#include <ctime>

namespace opbase {

std::string iso_time(int64_t unix_ms) {
  if (unix_ms < 0) unix_ms = 0;  // the clock never reads before 1970; keep the text well formed
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[80];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(unix_ms % 1000));
  return text;
}

}  // namespace opbase
