#include "settings.hpp"

#include <string>

#include "opbase/plugin_files.hpp"

namespace opbase::ai {

Result<AiSettings> AiSettings::from(const Host& host) {
  AiSettings s;
  struct IntKey {
    const char* key;
    int64_t min, max;
    int64_t* target;
  };
  int64_t lane_threads = s.lane_threads, lane_queue = s.lane_queue, dimensions = s.dimensions;
  const IntKey keys[] = {
      {"ai.max_content_length", 1, 10'000'000, &s.limits.max_content_length},
      {"ai.lane_threads", 1, 1024, &lane_threads},
      {"ai.lane_queue", 1, 1 << 20, &lane_queue},
      {"ai.dimensions", 100, 8192, &dimensions},
  };
  for (const IntKey& k : keys) {
    auto value = host.config_int_in(k.key, *k.target, k.min, k.max);
    if (!value) return value.status();
    *k.target = *value;
  }
  s.lane_threads = static_cast<int>(lane_threads);
  s.lane_queue = static_cast<int>(lane_queue);
  s.dimensions = static_cast<int>(dimensions);
  const std::string data_dir = host.config_or("ai.data_dir", "");
  s.data_dir = data_dir.empty() ? folder_beside_plugin("ai-data", installed_data_folder("ai"))
                                : std::filesystem::path(data_dir);
  return s;
}

}  // namespace opbase::ai
