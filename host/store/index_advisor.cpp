// The automatic index policy (see index_advisor.hpp).
#include "store/index_advisor.hpp"

#include <algorithm>

namespace opbase::host {
namespace {

std::string field_key(std::string_view ns, std::string_view collection, std::string_view path) {
  std::string key;
  key.reserve(ns.size() + collection.size() + path.size() + 2);
  key.append(ns).push_back('\0');
  key.append(collection).push_back('\0');
  key.append(path);
  return key;
}

// Whether an index holds values an operand of this type compares with (the query parser allows
// ranges on numbers and strings only).
bool indexable_operand(const nlohmann::json& value) {
  return value.is_number() || value.is_string() || value.is_boolean();
}

bool indexable(const query::Condition& c) {
  switch (c.op) {
    case query::Op::kEq:
    case query::Op::kGt:
    case query::Op::kGte:
    case query::Op::kLt:
    case query::Op::kLte:
      return indexable_operand(c.value);
    case query::Op::kIn:
      return c.value.is_array() && !c.value.empty() &&
             std::all_of(c.value.begin(), c.value.end(),
                         [&](const nlohmann::json& operand) { return indexable_operand(operand); });
    default:
      return false;
  }
}

}  // namespace

std::vector<std::string> index_candidates(const query::Match& match,
                                          const std::vector<query::SortKey>& sort,
                                          const std::function<bool(const std::string&)>& indexed) {
  std::vector<std::string> out;
  const auto add = [&](const std::string& path) {
    if (path == "_key" || path == "_created_at" || indexed(path)) return;
    if (std::find(out.begin(), out.end(), path) == out.end()) out.push_back(path);
  };
  for (const query::Condition& c : match) {
    if (indexable(c)) add(c.path.text);
  }
  if (sort.size() == 1) add(sort.front().path.text);
  return out;
}

std::vector<std::string> IndexAdvisor::note(std::string_view ns, std::string_view collection,
                                            const std::vector<std::string>& fields,
                                            int64_t rows_read, int64_t elapsed_us) {
  std::vector<std::string> ripe;
  if (!policy_.enabled || fields.empty() || rows_read < policy_.costly_rows) return ripe;
  std::lock_guard lock(mutex_);
  for (const std::string& path : fields) {
    std::string key = field_key(ns, collection, path);
    auto it = fields_.find(key);
    if (it == fields_.end()) {
      if (fields_.size() >= kMaxFields) fields_.clear();
      it = fields_.emplace(std::move(key), FieldCost{}).first;
    }
    FieldCost& cost = it->second;
    ++cost.costly_queries;
    cost.rows_read += rows_read;
    cost.elapsed_us += elapsed_us;
    if (cost.costly_queries >= policy_.after_queries) {
      ripe.push_back(path);
      fields_.erase(it);
    }
  }
  return ripe;
}

std::map<std::string, FieldCost> IndexAdvisor::costs(std::string_view ns,
                                                     std::string_view collection) const {
  const std::string prefix = field_key(ns, collection, "");
  std::map<std::string, FieldCost> out;
  std::lock_guard lock(mutex_);
  for (auto it = fields_.lower_bound(prefix);
       it != fields_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    out.emplace(it->first.substr(prefix.size()), it->second);
  }
  return out;
}

nlohmann::json IndexAdvisor::noticed(std::string_view ns, std::string_view collection) const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [path, cost] : costs(ns, collection)) {
    out.push_back({{"field", path},
                   {"costly_queries", cost.costly_queries},
                   {"rows_read", cost.rows_read},
                   {"time_ms", static_cast<double>(cost.elapsed_us) / 1000.0}});
  }
  return out;
}

}  // namespace opbase::host
