#include "opbase/plugin_files.hpp"

#include <dlfcn.h>

// The install's share/opbase folder seen from its plugin folder (set by the build from the
// install layout; this is the Debian /usr layout's).
#ifndef OPBASE_DATA_DIR_FROM_PLUGIN_DIR
#define OPBASE_DATA_DIR_FROM_PLUGIN_DIR "../../../../share/opbase"
#endif

namespace opbase {

std::filesystem::path plugin_folder() {
  Dl_info info{};
  static const int anchor = 0;
  if (dladdr(&anchor, &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code error;
  const auto file = std::filesystem::weakly_canonical(info.dli_fname, error);
  return (error ? std::filesystem::path(info.dli_fname) : file).parent_path();
}

std::filesystem::path installed_data_folder(std::string_view area) {
  return (plugin_folder() / OPBASE_DATA_DIR_FROM_PLUGIN_DIR / area).lexically_normal();
}

std::filesystem::path folder_beside_plugin(std::string_view name,
                                           const std::filesystem::path& installed) {
  const std::filesystem::path folder = plugin_folder();
  std::error_code error;
  if (!folder.empty() && std::filesystem::is_directory(folder / name, error)) return folder / name;
  if (installed.is_relative()) return (folder / installed).lexically_normal();
  return installed;
}

}  // namespace opbase
