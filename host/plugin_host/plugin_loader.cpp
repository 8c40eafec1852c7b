#include "plugin_host/plugin_loader.hpp"

#include <Poco/SharedLibrary.h>

#include <algorithm>
#include <filesystem>

#include "log/log.hpp"
#include "opbase/internal/op_names.hpp"
#include "plugin_host/host_services.hpp"

namespace opbase::host {

struct PluginLoader::Loaded {
  std::unique_ptr<Poco::SharedLibrary> library;
  const opbase_plugin_descriptor* descriptor = nullptr;
  std::unique_ptr<opbase_plugin> handle;
  void* state = nullptr;
};

namespace {

std::string abi_text(uint16_t major, uint16_t minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

const std::string kHostAbi = abi_text(OPBASE_ABI_MAJOR, OPBASE_ABI_MINOR);

// The fields a descriptor must have for the host to read it at all (the 1.0 layout).
constexpr size_t kMinDescriptorSize = sizeof(opbase_plugin_descriptor);

}  // namespace

std::vector<std::string> split_plugin_dirs(const std::string& dirs) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    if (end > start) out.push_back(dirs.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The host's services go in first: every name they use is then taken for every plugin.
PluginLoader::PluginLoader(HostContext* context) : context_(context) {
  if (Status s = register_host_services(*context->registry, *context); !s) {
    log::error("plugins", "the host's services could not be registered: " + s.message());
  }
}

PluginLoader::~PluginLoader() { shutdown_all(); }

Status PluginLoader::refuse(const std::string& name, const std::string& file, std::string reason,
                            const std::string& versions) {
  std::string line =
      "plugin '" + name + "' refused: " + reason + " [file=" + (file.empty() ? "-" : file) +
      " symbol=" OPBASE_PLUGIN_ENTRY_SYMBOL " " + versions + "host_abi=" + kHostAbi + "]";
  log::error("loader", line);
  refused_.push_back({name, line});
  return Status::internal(line);
}

size_t PluginLoader::load_all(const std::vector<std::string>& names,
                              const std::vector<std::string>& dirs) {
  size_t count = 0;
  for (const std::string& name : names) {
    std::string file;
    if (name.ends_with(".so")) {
      file = name;
    } else {
      for (const std::string& dir : dirs) {
        const std::string candidate = dir + "/" + name + ".so";
        std::error_code ec;  // a name the file system rejects is simply not found here
        if (std::filesystem::exists(candidate, ec)) {
          file = candidate;
          break;
        }
      }
    }
    if (file.empty()) {
      std::string searched;
      for (const std::string& dir : dirs) searched += (searched.empty() ? "" : ":") + dir;
      refuse(name, "", "no file " + name + ".so in plugins.dir (" + searched + ")", "");
      continue;
    }
    const std::string expected =
        name.ends_with(".so") ? std::filesystem::path(name).stem().string() : name;
    if (load(expected, file)) ++count;
  }
  return count;
}

Status PluginLoader::load(const std::string& name, const std::string& file) {
  if (std::error_code ec; !std::filesystem::exists(file, ec)) {
    return refuse(name, file,
                  ec ? "the file cannot be examined: " + ec.message() : "the file does not exist",
                  "");
  }
  for (const auto& info : loaded_info_) {
    if (info.name == name) return refuse(name, file, "a plugin of that name is already loaded", "");
  }

  auto loaded = std::make_unique<Loaded>();
  loaded->library = std::make_unique<Poco::SharedLibrary>();
  try {
    // Local symbols: a plugin's symbols never resolve another plugin's.
    loaded->library->load(file, Poco::SharedLibrary::SHLIB_LOCAL);
  } catch (const Poco::Exception& e) {
    return refuse(name, file, "not a loadable shared object: " + e.displayText(), "");
  }
  // Refused before init: nothing of the plugin runs, so the library can go again. After init ran
  // it stays mapped even when refused, since a misbehaving init may have left code running.
  struct UnloadUnlessInitRan {
    Poco::SharedLibrary* library;
    ~UnloadUnlessInitRan() {
      if (library) library->unload();
    }
  } unload_guard{loaded->library.get()};
  if (!loaded->library->hasSymbol(OPBASE_PLUGIN_ENTRY_SYMBOL)) {
    return refuse(name, file, "no entry point " OPBASE_PLUGIN_ENTRY_SYMBOL " in shared library",
                  "");
  }
  auto entry = reinterpret_cast<opbase_plugin_entry_fn>(
      loaded->library->getSymbol(OPBASE_PLUGIN_ENTRY_SYMBOL));
  const opbase_plugin_descriptor* d = entry();
  if (d == nullptr) return refuse(name, file, "the entry point answered no descriptor", "");

  const std::string plugin_abi = "plugin_abi=" + abi_text(d->abi_major, d->abi_minor) + " ";
  if (d->abi_major != OPBASE_ABI_MAJOR || d->abi_minor > OPBASE_ABI_MINOR) {
    return refuse(name, file,
                  "built for ABI " + abi_text(d->abi_major, d->abi_minor) + ", this host speaks " +
                      kHostAbi + " (needs major " + std::to_string(OPBASE_ABI_MAJOR) +
                      " and a minor of at most " + std::to_string(OPBASE_ABI_MINOR) + ")",
                  plugin_abi);
  }
  if (d->struct_size < kMinDescriptorSize || d->name == nullptr || d->version == nullptr ||
      d->init == nullptr) {
    return refuse(name, file, "the descriptor is incomplete (size, name, version or init missing)",
                  plugin_abi);
  }
  if (name != d->name) {
    return refuse(name, file, "the file's plugin calls itself '" + std::string(d->name) + "'",
                  plugin_abi);
  }
  if (!Registry::valid_area_name(name)) {
    return refuse(name, file, "a plugin name is 1-32 lowercase letters, digits and '_'",
                  plugin_abi);
  }
  if (const std::string_view owner = names::owner_of_alias_area(name); !owner.empty()) {
    // Otherwise it could take db.find before the collection plugin loads and lock it out.
    return refuse(name, file,
                  "'" + name + "' is the alias area of the " + std::string(owner) +
                      " plugin; no plugin may take that name",
                  plugin_abi);
  }

  loaded->descriptor = d;
  unload_guard.library = nullptr;
  loaded->handle = std::make_unique<opbase_plugin>();
  loaded->handle->name = name;
  loaded->handle->file = file;
  loaded->handle->context = context_;
  loaded->handle->in_init = true;
  const opbase_rc rc = d->init(host_api(), loaded->handle.get(), &loaded->state);
  loaded->handle->in_init = false;

  if (rc != OPBASE_RC_OK || !loaded->handle->refused_registration.empty()) {
    // Its subscriptions never reached the bus; its ops and services go again.
    context_->registry->remove_plugin(name);
    loaded->handle->pending_subscriptions.clear();
    loaded->handle->pending_durable.clear();
    std::string reason;
    if (rc == OPBASE_RC_OK) {
      reason = loaded->handle->refused_registration + "; nothing it registered was kept";
      if (d->shutdown) d->shutdown(loaded->state);
    } else {
      reason = "init failed (answered " + std::to_string(static_cast<int>(rc)) + ")";
      if (!loaded->handle->refused_registration.empty()) {
        reason += " after: " + loaded->handle->refused_registration;
      }
      reason += "; nothing it registered was kept";
    }
    kept_after_refusal_.push_back(std::move(loaded));
    return refuse(name, file, reason, plugin_abi);
  }

  for (auto& sub : loaded->handle->pending_subscriptions) {
    context_->bus->subscribe(name, std::move(sub.pattern), sub.fn, sub.state);
  }
  loaded->handle->pending_subscriptions.clear();
  if (context_->durable != nullptr) {
    for (DurableSubscriptions::Pending& pending : loaded->handle->pending_durable) {
      context_->durable->add(name, std::move(pending));
    }
  }
  loaded->handle->pending_durable.clear();
  LoadedPluginInfo info{name, d->version, file, context_->registry->ops_of(name)};
  std::string ops;
  for (const std::string& op : info.ops) ops += (ops.empty() ? "" : ", ") + op;
  log::info("loader", "plugin '" + name + "' " + info.version + " loaded from " + file + " (ABI " +
                          abi_text(d->abi_major, d->abi_minor) +
                          "): " + (ops.empty() ? "no ops" : ops));
  loaded_info_.push_back(std::move(info));
  loaded_.push_back(std::move(loaded));
  return Status::ok();
}

void PluginLoader::shutdown_all() {
  while (!loaded_.empty()) {
    std::unique_ptr<Loaded> plugin = std::move(loaded_.back());
    loaded_.pop_back();
    const std::string name = plugin->handle->name;
    context_->bus->remove_owner(name);
    if (plugin->descriptor->shutdown) plugin->descriptor->shutdown(plugin->state);
    context_->registry->remove_plugin(name);
    log::info("loader", "plugin '" + name + "' stopped");
    // Poco's SharedLibrary does not unload in its destructor; unload explicitly.
    plugin->library->unload();
  }
  loaded_info_.clear();
}

}  // namespace opbase::host
