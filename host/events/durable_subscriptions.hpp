// DurableSubscriptions: which plugins keep which events durably (abi.h subscribe_durable), and
// which of them keep the documents too (subscribe_durable_documents). A store write that raises
// events (store.hpp Events) journals each one, in its own transaction, for every plugin whose
// pattern matches its type; the in-memory EventBus alone could lose an event to a crash between
// the write and the delivery.
// Thread-safety: every method may be called from any thread (plugins start threads that write
// while later plugins still load).
#pragma once

#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::host {

// A plugin that keeps events of a type, and whether it keeps their documents too.
struct DurableSubscriber {
  std::string plugin;
  bool documents = false;
};

class DurableSubscriptions {
 public:
  struct Pending {
    std::string pattern;  // an exact type, "area.*" or "*" (already checked by the caller)
    bool documents = false;
  };
  void add(std::string plugin, Pending subscription);
  void remove_plugin(std::string_view plugin);
  // The plugins that keep events of `type`, each once, in the order they subscribed; one that
  // keeps documents in any of its matching subscriptions keeps them for the type.
  std::vector<DurableSubscriber> plugins_for(std::string_view type) const;

 private:
  struct Entry {
    std::string plugin;
    std::string pattern;
    bool documents;
  };
  mutable std::shared_mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace opbase::host
