// Registry: every op name and service name, with who provides it: the host's own services
// (store.*, mail.send, projects.list) and what the loaded plugins registered.
// Filled only during plugin init at start-up (one thread), then read concurrently without locks
// by the request threads; nothing is added or removed while the server serves.
//
// Names are "<area>.<verb>": a plugin may register only under its own area, plus the alias areas
// the host grants it. Aliases the API defines (db.* for collection.*, the baseai.* names for ai.*)
// are bound automatically when the canonical name is registered.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "opbase/abi.h"
#include "opbase/status.hpp"
#include "plugin_host/lane.hpp"

namespace opbase::host {

struct OpEntry {
  std::string name;    // canonical name
  std::string plugin;  // owner
  opbase_access access;
  opbase_op_fn fn;
  void* state;
  // The plugin's lane when the op runs there (register_lane_op), or nullptr: on the HTTP workers.
  Lane* lane = nullptr;
};

// A route: requests whose path starts with `prefix` go to the plugin's handler on its lane, as a
// stream (abi.h register_route); or, for an endpoint route, requests for
// /api/{endpoint_key}/<prefix> once the host checked the API key (register_endpoint_route).
struct RouteEntry {
  std::string prefix;  // "/files/"; for an endpoint route its name, "realtime"
  std::string plugin;
  opbase_route_fn fn;
  void* state;
  Lane* lane;
};

// A service the host itself provides (store.*, mail.send, projects.list). It runs on the calling
// plugin's thread and is given the caller's handle: the store's namespace is the caller's name.
// Returns the result as JSON text.
using HostServiceFn = std::function<Result<std::string>(
    const opbase_plugin& caller, std::string_view project_id, std::string_view input)>;

// The provider named in a host service's entry: not a valid plugin name, so no plugin owns it.
inline constexpr std::string_view kHostProvider = "(host)";

// A service: a plugin's (fn and state) or the host's (host_fn).
struct ServiceEntry {
  std::string name;
  std::string plugin;  // the provider: a plugin's name, or kHostProvider
  opbase_service_fn fn = nullptr;
  void* state = nullptr;
  HostServiceFn host_fn{};
};

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class Registry {
 public:
  // Refused with a message when the name is malformed, outside the plugin's areas, or taken.
  Status add_op(std::string_view plugin, std::string_view name, opbase_access access,
                opbase_op_fn fn, void* state);
  // The same for an op that runs on the plugin's lane (lane.hpp), made at its first lane op.
  Status add_lane_op(std::string_view plugin, std::string_view name, opbase_access access,
                     opbase_op_fn fn, void* state);
  // A route of `plugin` (abi.h register_route), on its lane. Refused with a message when the
  // prefix breaks the rules there or overlaps another route.
  Status add_route(std::string_view plugin, std::string_view prefix, opbase_route_fn fn,
                   void* state);
  // An endpoint route of `plugin` (abi.h register_endpoint_route), on its lane. Refused with a
  // message when the name breaks the rules or is taken.
  Status add_endpoint_route(std::string_view plugin, std::string_view name, opbase_route_fn fn,
                            void* state);
  // Sets the size of `plugin`'s lane; refused once the lane exists (its first lane op made it).
  Status size_lane(std::string_view plugin, LaneSize size);
  // Every lane refuses new calls and answers its queued ones at once (lane.hpp begin_stopping):
  // when the daemon begins to stop.
  void begin_stopping_lanes() const;
  // Stops every lane (lane.hpp stop()): after the HTTP front has stopped, before the plugins
  // shut down.
  void stop_lanes() const;
  // The lanes' gauges and counters in the Prometheus text format (opbase_lane_* series, one
  // sample per plugin with a lane), or "" when no plugin has one.
  std::string lanes_metrics_text() const;
  Status add_service(std::string_view plugin, std::string_view name, opbase_service_fn fn,
                     void* state);
  // A host service, registered before any plugin loads, so no plugin can take its name.
  Status add_host_service(std::string_view name, HostServiceFn fn);
  // Removes everything `plugin` registered (rollback of a refused plugin), its lane too.
  void remove_plugin(std::string_view plugin);

  // The op a client name reaches (canonical or alias), or nullptr.
  const OpEntry* find_op(std::string_view name) const;
  const ServiceEntry* find_service(std::string_view name) const;
  // The route whose prefix starts `path`, or nullptr.
  const RouteEntry* find_route(std::string_view path) const;
  // The endpoint route named `name`, or nullptr.
  const RouteEntry* find_endpoint_route(std::string_view name) const;

  // Canonical op names of `plugin`, sorted.
  std::vector<std::string> ops_of(std::string_view plugin) const;
  size_t op_count() const { return ops_.size(); }

  static bool valid_area_name(std::string_view area);

 private:
  Status check_name(std::string_view plugin, std::string_view name, std::string_view kind) const;
  Status check_route(std::string_view plugin, std::string_view prefix) const;
  // The plugin's lane, made (with its size, if set) at the first lane op or route.
  Lane* lane_of(std::string_view plugin);
  // `access` by reference: a C plugin may pass any integer, which is checked before it is read
  // as an enum (reading an enum outside its values is undefined).
  Status add(std::string_view plugin, std::string_view name, const opbase_access& access,
             opbase_op_fn fn, void* state, Lane* lane);

  std::unordered_map<std::string, std::shared_ptr<OpEntry>, StringHash, std::equal_to<>> ops_;
  std::unordered_map<std::string, std::unique_ptr<Lane>, StringHash, std::equal_to<>> lanes_;
  std::unordered_map<std::string, LaneSize, StringHash, std::equal_to<>> lane_sizes_;
  std::unordered_map<std::string, std::shared_ptr<ServiceEntry>, StringHash, std::equal_to<>>
      services_;
  std::vector<RouteEntry> routes_;           // a few at most: found by a scan
  std::vector<RouteEntry> endpoint_routes_;  // the same
};

}  // namespace opbase::host
