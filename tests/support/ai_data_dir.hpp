// The ai plugin's data folder for tests: $OPBASE_AI_DATA_DIR when set, else the one the build
// writes (<build>/plugins-out/ai-data, from OPBASE_TEST_BINARY_DIR, which every test binary
// defines).
#pragma once

#include <cstdlib>
#include <filesystem>

namespace opbase::test {

inline std::filesystem::path ai_data_dir() {
  if (const char* dir = std::getenv("OPBASE_AI_DATA_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return std::filesystem::path(OPBASE_TEST_BINARY_DIR) / "plugins-out" / "ai-data";
}

}  // namespace opbase::test
