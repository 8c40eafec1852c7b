// StoreBackedHost: the SDK's FakeHost with its `store.*` services run on the memory driver (the
// reference document store) through the daemon's own store service path, JSON text in and out,
// for unit tests of plugin components that keep state in the
// store. The components get the Host handle of a minimal plugin loaded under the name
// `plugin_name`, which is also the store namespace, as in the daemon; the clock is the fake
// host's, so tests move time with advance_ms().
//
//   StoreBackedHost env("auth");
//   opbase::DocumentStore store(env.host());
//   env.fake().advance_ms(600'000);
//
// Include from one .cpp per test binary only: it defines the binary's plugin entry symbol.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "opbase/sdk.hpp"
#include "opbase/testing/fake_host.hpp"
#include "reference_store/memory_driver.hpp"
#include "store/store_service.hpp"

// Defined by the OPBASE_PLUGIN at the end of this file; the constructor below loads it.
extern "C" OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void);

namespace opbase::test {

namespace store_backed_detail {
inline const Host* g_host = nullptr;
class HandlePlugin final : public Plugin {
 public:
  Status init(Registrar&) override {
    g_host = &host();
    return Status::ok();
  }
};
}  // namespace store_backed_detail

class StoreBackedHost {
 public:
  explicit StoreBackedHost(std::string plugin_name = "auth") : ns_(std::move(plugin_name)) {
    for (const host::StoreVerb& verb : host::store_verbs()) {
      const std::string name = std::string(host::kStoreServicePrefix) + std::string(verb.name);
      fake_.provide_text_service(
          name, [this, name](std::string_view project, std::string_view in) -> Result<std::string> {
            auto store = driver_.open(project);
            if (!store) return store.status();
            // Events of writes reach the fake host's published list, and the plugin's durable
            // patterns journal into its namespace.
            const host::StoreEventSink sink{
                std::string(project), &durable_,
                [this](const host::BusEvent& e) {
                  (void)host().publish(e.type, e.project_id, nlohmann::json::parse(e.payload));
                },
                now_ms()};
            return host::call_store_service(**store, ns_, name, in, &sink);
          });
    }
    const Status loaded = fake_.load(opbase_plugin_entry());
    EXPECT_TRUE(loaded.is_ok()) << loaded.to_string();
  }

  // Journals events of `pattern` into the plugin's namespace, as subscribe_durable would.
  void keep_events_durably(std::string pattern) { durable_.add(ns_, {std::move(pattern)}); }

  const Host& host() const { return *store_backed_detail::g_host; }
  testing::FakeHost& fake() { return fake_; }
  int64_t now_ms() const { return host().now_ms(); }

  // Every document of `collection` in `state` (any owner), as the store holds it.
  std::vector<nlohmann::json> documents(std::string_view project, std::string_view collection,
                                        store::State state = store::State::kActive) const {
    store::FindRequest find;
    find.collection = std::string(collection);
    find.scope = store::Scope::everyone();
    find.state = state;
    find.limit = -1;
    Result<store::FindAnswer> found = DocumentStore(host()).find(project, find);
    EXPECT_TRUE(found.is_ok()) << found.status().to_string();
    return found.is_ok() ? found->documents : std::vector<nlohmann::json>();
  }

 private:
  std::string ns_;
  host::DurableSubscriptions durable_;
  host::MemoryDriver driver_;
  testing::FakeHost fake_;  // after driver_: the plugin stops before the store goes
};

}  // namespace opbase::test

OPBASE_PLUGIN(::opbase::test::store_backed_detail::HandlePlugin, "auth", "0.0.0-test")
