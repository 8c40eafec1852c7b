#include "ai_settings.hpp"

#include <dlfcn.h>

#include <string>

namespace opbase::ai {
namespace {

// Where the package installs the offline provider's data (set by the build).
#ifndef OPBASE_AI_INSTALLED_DATA_DIR
#define OPBASE_AI_INSTALLED_DATA_DIR "/usr/share/opbase/ai"
#endif

// ai-data beside this plugin's shared object (a build tree), else the installed folder.
std::filesystem::path default_data_dir() {
  Dl_info info{};
  static const int anchor = 0;
  if (dladdr(&anchor, &info) != 0 && info.dli_fname != nullptr) {
    const auto beside = std::filesystem::path(info.dli_fname).parent_path() / "ai-data";
    std::error_code error;
    if (std::filesystem::is_directory(beside, error)) return beside;
  }
  return OPBASE_AI_INSTALLED_DATA_DIR;
}

}  // namespace

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
  s.data_dir = data_dir.empty() ? default_data_dir() : std::filesystem::path(data_dir);
  return s;
}

}  // namespace opbase::ai
