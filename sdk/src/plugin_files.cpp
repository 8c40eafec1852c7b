#include "opbase/plugin_files.hpp"

#include <dlfcn.h>

namespace opbase {

std::filesystem::path folder_beside_plugin(std::string_view name,
                                           const std::filesystem::path& installed) {
  Dl_info info{};
  static const int anchor = 0;
  if (dladdr(&anchor, &info) != 0 && info.dli_fname != nullptr) {
    const auto beside = std::filesystem::path(info.dli_fname).parent_path() / name;
    std::error_code error;
    if (std::filesystem::is_directory(beside, error)) return beside;
  }
  return installed;
}

}  // namespace opbase
