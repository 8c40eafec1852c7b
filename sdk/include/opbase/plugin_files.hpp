// Where a plugin finds the files it ships with (data, a page): a folder beside its shared object
// in a build tree (plugins-out/<name>), else the folder the package installs them to.
// Thread-safety: a pure function of the file system.
#pragma once

#include <filesystem>
#include <string_view>

namespace opbase {

// `name` beside the calling plugin's .so when that folder exists, else `installed`. The SDK is
// linked into each plugin, so the shared object found is the plugin's own.
std::filesystem::path folder_beside_plugin(std::string_view name,
                                           const std::filesystem::path& installed);

}  // namespace opbase
