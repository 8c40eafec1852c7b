// Where a plugin finds the files it ships with (data, a page): a folder beside its shared object
// in a build tree (plugins-out/<name>), else the folder an install puts them in, found from the
// plugin's own folder, so an install to any prefix works.
// Thread-safety: pure functions of the file system.
#pragma once

#include <filesystem>
#include <string_view>

namespace opbase {

// The folder of the calling plugin's .so. The SDK is linked into each plugin, so the shared
// object found is the plugin's own (in a test program, the program's folder).
std::filesystem::path plugin_folder();

// <prefix>/share/opbase/`area` of the install the calling plugin belongs to: the plugin folder
// is <prefix>/lib/<multiarch>/opbase/plugins, and the path between the two is fixed when the
// SDK is built, whatever the prefix is at install time.
std::filesystem::path installed_data_folder(std::string_view area);

// `name` beside the calling plugin's .so when that folder exists, else `installed` (a relative
// `installed` is taken from the plugin's folder).
std::filesystem::path folder_beside_plugin(std::string_view name,
                                           const std::filesystem::path& installed);

}  // namespace opbase
