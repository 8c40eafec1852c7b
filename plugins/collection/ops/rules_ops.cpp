// The collection rules ops (see ops/rules_ops.hpp).
#include "ops/rules_ops.hpp"

#include "ops/request_fields.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

Reply answer(const std::string& collection, const Rules& rules) {
  return Reply(json{{"collection", collection}, {"rules", rules.to_json()}});
}

}  // namespace

Result<Reply> RulesOps::get(const Request& request) const {
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  auto rules = rules_.of(request.project_id, *collection, host_.now_ms());
  if (!rules) return rules.status();
  return answer(*collection, *rules);
}

Result<Reply> RulesOps::update(const Request& request) const {
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  const auto changes = request.body.find("rules");
  if (changes == request.body.end()) {
    return missing("rules", "an object of read, create, update and delete");
  }
  auto rules = rules_.change(request.project_id, *collection, *changes, host_.now_ms());
  if (!rules) return rules.status();
  return answer(*collection, *rules);
}

}  // namespace opbase::collection
