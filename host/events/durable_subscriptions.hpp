// DurableSubscriptions: which plugins keep which events durably (abi.h subscribe_durable). A
// store write that raises events (store.hpp Events) journals each one, in its own transaction,
// for every plugin whose pattern matches its type; the in-memory EventBus alone could lose an
// event to a crash between the write and the delivery.
// Thread-safety: every method may be called from any thread (plugins start threads that write
// while later plugins still load).
#pragma once

#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::host {

class DurableSubscriptions {
 public:
  // `pattern`: an exact type, "area.*" or "*" (already checked by the caller).
  void add(std::string plugin, std::string pattern);
  void remove_plugin(std::string_view plugin);
  // The plugins that keep events of `type`, each once, in the order they subscribed.
  std::vector<std::string> plugins_for(std::string_view type) const;

 private:
  struct Entry {
    std::string plugin;
    std::string pattern;
  };
  mutable std::shared_mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace opbase::host
