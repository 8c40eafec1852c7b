#include "plugin_host/registry.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

#include "opbase/internal/op_names.hpp"
#include "opbase/internal/route_rules.hpp"

namespace opbase::host {
using names::alias_area_of;
using names::alias_of;

bool Registry::valid_area_name(std::string_view area) { return names::valid_area(area); }

Status Registry::check_name(std::string_view plugin, std::string_view name,
                            std::string_view kind) const {
  if (!names::valid_name(name)) {
    return Status::validation(
        std::string(kind) + " name '" + std::string(name) +
        "' is not <area>.<verb> or <area>.<group>.<verb> in lowercase letters, digits and '_'");
  }
  if (!names::name_belongs_to(plugin, name)) {
    std::string allowed = std::string(plugin) + ".*";
    if (!alias_area_of(plugin).empty()) allowed += ", " + std::string(alias_area_of(plugin)) + ".*";
    return Status::validation(std::string(kind) + " '" + std::string(name) +
                              "' is outside the area of plugin '" + std::string(plugin) +
                              "' (allowed: " + allowed + ")");
  }
  return Status::ok();
}

Status Registry::add_op(std::string_view plugin, std::string_view name, opbase_access access,
                        opbase_op_fn fn, void* state) {
  return add(plugin, name, access, fn, state, nullptr);
}

Status Registry::add_lane_op(std::string_view plugin, std::string_view name, opbase_access access,
                             opbase_op_fn fn, void* state) {
  // Checked first, so a refused name does not leave a lane with its threads behind.
  if (Status s = check_name(plugin, name, "op"); !s) return s;
  return add(plugin, name, access, fn, state, lane_of(plugin));
}

Lane* Registry::lane_of(std::string_view plugin) {
  auto lane = lanes_.find(plugin);
  if (lane == lanes_.end()) {
    const auto sized = lane_sizes_.find(plugin);
    const LaneSize size = sized == lane_sizes_.end() ? LaneSize{} : sized->second;
    lane = lanes_.emplace(std::string(plugin), std::make_unique<Lane>(std::string(plugin), size))
               .first;
  }
  return lane->second.get();
}

// The prefix's own rules (route_rules.hpp), then no overlap with another route.
Status Registry::check_route(std::string_view plugin, std::string_view prefix) const {
  const auto refused = [&](std::string why) {
    return Status::validation("route '" + std::string(prefix.substr(0, 64)) + "' of plugin '" +
                              std::string(plugin) + "': " + why);
  };
  if (std::string problem = answers::route_prefix_problem(plugin, prefix); !problem.empty()) {
    return refused(std::move(problem));
  }
  for (const RouteEntry& route : routes_) {
    if (route.prefix.starts_with(prefix) || prefix.starts_with(route.prefix)) {
      return refused("it overlaps route '" + route.prefix + "' of plugin '" + route.plugin + "'");
    }
  }
  return Status::ok();
}

Status Registry::add_route(std::string_view plugin, std::string_view prefix, opbase_route_fn fn,
                           void* state) {
  if (Status s = check_route(plugin, prefix); !s) return s;
  if (fn == nullptr)
    return Status::validation("route '" + std::string(prefix) + "' has no handler");
  routes_.push_back(
      RouteEntry{std::string(prefix), std::string(plugin), fn, state, lane_of(plugin)});
  return Status::ok();
}

Status Registry::add_endpoint_route(std::string_view plugin, std::string_view name,
                                    opbase_route_fn fn, void* state) {
  const auto refused = [&](std::string why) {
    return Status::validation("endpoint route '" + std::string(name.substr(0, 64)) +
                              "' of plugin '" + std::string(plugin) + "': " + why);
  };
  if (std::string problem = answers::endpoint_route_name_problem(plugin, name); !problem.empty()) {
    return refused(std::move(problem));
  }
  if (find_endpoint_route(name) != nullptr) return refused("the name is taken");
  if (fn == nullptr) return refused("it has no handler");
  endpoint_routes_.push_back(
      RouteEntry{std::string(name), std::string(plugin), fn, state, lane_of(plugin)});
  return Status::ok();
}

const RouteEntry* Registry::find_endpoint_route(std::string_view name) const {
  for (const RouteEntry& route : endpoint_routes_) {
    if (route.prefix == name) return &route;
  }
  return nullptr;
}

const RouteEntry* Registry::find_route(std::string_view path) const {
  for (const RouteEntry& route : routes_) {
    if (path.starts_with(route.prefix)) return &route;
  }
  return nullptr;
}

Status Registry::size_lane(std::string_view plugin, LaneSize size) {
  if (lanes_.contains(plugin)) {
    return Status::validation("the lane of plugin '" + std::string(plugin) +
                              "' is sized before its first lane op, not after");
  }
  if (size.threads < 1 || size.threads > 1024 || size.queue < 1 || size.queue > (1u << 20)) {
    return Status::validation("a lane has 1-1024 threads and a queue of 1-1048576 calls");
  }
  lane_sizes_[std::string(plugin)] = size;
  return Status::ok();
}

std::string Registry::lanes_metrics_text() const {
  if (lanes_.empty()) return "";
  struct Family {
    const char* name;
    const char* type;
    const char* help;
    std::function<std::string(const Lane&)> value;
  };
  const Family families[] = {
      {"opbase_lane_threads", "gauge", "Threads of a plugin's lane.",
       [](const Lane& l) { return std::to_string(l.size().threads); }},
      {"opbase_lane_running", "gauge", "Calls running on a plugin's lane now.",
       [](const Lane& l) { return std::to_string(l.running()); }},
      {"opbase_lane_queued", "gauge", "Calls waiting for a thread of a plugin's lane now.",
       [](const Lane& l) { return std::to_string(l.queued()); }},
      {"opbase_lane_refused_total", "counter",
       "Calls a plugin's lane refused (queue full, or stopping).",
       [](const Lane& l) { return std::to_string(l.refused()); }},
  };
  std::vector<const Lane*> lanes;
  for (const auto& [plugin, lane] : lanes_) lanes.push_back(lane.get());
  std::sort(lanes.begin(), lanes.end(),
            [](const Lane* a, const Lane* b) { return a->plugin() < b->plugin(); });
  std::string text;
  for (const Family& family : families) {
    text.append("# HELP ").append(family.name).append(" ").append(family.help).append("\n");
    text.append("# TYPE ").append(family.name).append(" ").append(family.type).append("\n");
    for (const Lane* lane : lanes) {
      text.append(family.name).append("{plugin=\"").append(lane->plugin()).append("\"} ");
      text.append(family.value(*lane)).append("\n");
    }
  }
  return text;
}

void Registry::begin_stopping_lanes() const {
  for (const auto& [plugin, lane] : lanes_) lane->begin_stopping();
}

void Registry::stop_lanes() const {
  for (const auto& [plugin, lane] : lanes_) lane->stop();
}

Status Registry::add(std::string_view plugin, std::string_view name, const opbase_access& access,
                     opbase_op_fn fn, void* state, Lane* lane) {
  if (Status s = check_name(plugin, name, "op"); !s) return s;
  if (fn == nullptr) return Status::validation("op '" + std::string(name) + "' has no handler");
  // A C plugin can pass any integer here. Its bytes are read as one, since reading an enum
  // outside its values is undefined.
  int level = 0;
  static_assert(sizeof level == sizeof access);
  std::memcpy(&level, &access, sizeof level);
  if (level < OPBASE_ACCESS_API_KEY || level > OPBASE_ACCESS_USER_OPTIONAL) {
    return Status::validation("op '" + std::string(name) + "' has an unknown access level " +
                              std::to_string(level));
  }
  std::string alias = alias_of(name);
  for (const std::string_view taken : {name, std::string_view(alias)}) {
    if (taken.empty()) continue;
    if (auto it = ops_.find(taken); it != ops_.end()) {
      return Status::validation("op '" + std::string(taken) +
                                "' is already registered by plugin '" + it->second->plugin + "'");
    }
  }
  auto entry = std::make_shared<OpEntry>(
      OpEntry{std::string(name), std::string(plugin), access, fn, state, lane});
  ops_.emplace(std::string(name), entry);
  if (!alias.empty()) ops_.emplace(std::move(alias), entry);
  return Status::ok();
}

Status Registry::add_service(std::string_view plugin, std::string_view name, opbase_service_fn fn,
                             void* state) {
  if (Status s = check_name(plugin, name, "service"); !s) return s;
  if (fn == nullptr)
    return Status::validation("service '" + std::string(name) + "' has no function");
  if (auto it = services_.find(name); it != services_.end()) {
    return Status::validation("service '" + std::string(name) +
                              "' is already provided by plugin '" + it->second->plugin + "'");
  }
  services_.emplace(std::string(name), std::make_shared<ServiceEntry>(ServiceEntry{
                                           std::string(name), std::string(plugin), fn, state}));
  return Status::ok();
}

Status Registry::add_host_service(std::string_view name, HostServiceFn fn) {
  if (!names::valid_name(name) || !fn) {
    return Status::validation("host service '" + std::string(name) + "' is malformed");
  }
  if (services_.contains(name)) {
    return Status::validation("service '" + std::string(name) + "' is already provided");
  }
  ServiceEntry entry{std::string(name), std::string(kHostProvider)};
  entry.host_fn = std::move(fn);
  services_.emplace(std::string(name), std::make_shared<ServiceEntry>(std::move(entry)));
  return Status::ok();
}

void Registry::remove_plugin(std::string_view plugin) {
  std::erase_if(ops_, [&](const auto& kv) { return kv.second->plugin == plugin; });
  std::erase_if(services_, [&](const auto& kv) { return kv.second->plugin == plugin; });
  std::erase_if(routes_, [&](const RouteEntry& route) { return route.plugin == plugin; });
  std::erase_if(endpoint_routes_, [&](const RouteEntry& route) { return route.plugin == plugin; });
  if (auto lane = lanes_.find(plugin); lane != lanes_.end()) {
    lane->second->stop();
    lanes_.erase(lane);
  }
  lane_sizes_.erase(std::string(plugin));
}

const OpEntry* Registry::find_op(std::string_view name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

const ServiceEntry* Registry::find_service(std::string_view name) const {
  auto it = services_.find(name);
  return it == services_.end() ? nullptr : it->second.get();
}

std::vector<std::string> Registry::ops_of(std::string_view plugin) const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : ops_) {
    if (entry->plugin == plugin && entry->name == name) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace opbase::host
