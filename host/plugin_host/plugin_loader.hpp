// PluginLoader: finds, checks, initialises and later shuts down the plugins named in
// `plugins.enabled`, in that order. A plugin that cannot be used — missing file, not a shared
// object, no entry symbol, ABI mismatch, failed init, a refused op name — is refused with one
// log line naming the plugin, the file, the symbol and both ABI versions; everything it
// registered is rolled back and the daemon goes on without it.
//
// Thread-safety: load and shutdown run on the main thread before serving starts and after it
// ends; loaded() may be read at any time after loading.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plugin_host/host_context.hpp"

namespace opbase::host {

struct LoadedPluginInfo {
  std::string name;
  std::string version;
  std::string file;
  std::vector<std::string> ops;
};

struct RefusedPlugin {
  std::string name;
  std::string reason;  // the full log line
};

class PluginLoader {
 public:
  // Registers the host's own services (host_services.hpp) in the context's registry.
  explicit PluginLoader(HostContext* context);
  ~PluginLoader();  // shuts down whatever is still loaded
  PluginLoader(const PluginLoader&) = delete;
  PluginLoader& operator=(const PluginLoader&) = delete;

  // Loads each of `names` from the first of `dirs` that holds "<name>.so" (a name that is a path
  // ending in ".so" is used as it is). Answers how many loaded.
  size_t load_all(const std::vector<std::string>& names, const std::vector<std::string>& dirs);

  // Loads one plugin from `file`, expected to call itself `name`. Refusal is a failed Status
  // whose message is the logged line.
  Status load(const std::string& name, const std::string& file);

  // Calls each loaded plugin's shutdown in reverse load order and unloads it. The caller must
  // make sure no request or event reaches the plugins any more.
  void shutdown_all();

  const std::vector<LoadedPluginInfo>& loaded() const { return loaded_info_; }
  const std::vector<RefusedPlugin>& refused() const { return refused_; }

 private:
  struct Loaded;
  Status refuse(const std::string& name, const std::string& file, std::string reason,
                const std::string& versions);

  HostContext* context_;
  std::vector<std::unique_ptr<Loaded>> loaded_;
  std::vector<std::unique_ptr<Loaded>> kept_after_refusal_;  // init ran; never called again
  std::vector<LoadedPluginInfo> loaded_info_;
  std::vector<RefusedPlugin> refused_;
};

// Splits "a:b:c" into folders, dropping empty parts.
std::vector<std::string> split_plugin_dirs(const std::string& dirs);

}  // namespace opbase::host
