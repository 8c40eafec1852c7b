#include "records/record_document.hpp"

#include "opbase/crypto.hpp"
#include "opbase/hex.hpp"
#include "opbase/iso_time.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {

using nlohmann::json;

std::string new_record_key(int64_t now_ms) { return time_hex(now_ms) + random_hex(10); }

json stored_record(const NewRecord& record) {
  const std::string now = iso_time(record.now_ms);
  return json{{"_key", record.key},
              {"_userkey", record.user},
              {"_created_at", now},
              {"_modified_at", now},
              {"collection", record.collection},
              {"content", record.content ? json(*record.content) : json()},
              {"metadata", record.metadata},
              {"model_version", record.model_version ? json(*record.model_version) : json()},
              {"dimensions", record.vector.size()},
              {"vector", vector_text(record.vector)},
              {"changed_ms", record.now_ms}};
}

std::optional<std::vector<float>> stored_vector(const json& stored) {
  const auto text = stored.find("vector");
  const auto dimensions = stored.find("dimensions");
  if (text == stored.end() || !text->is_string() || dimensions == stored.end() ||
      !dimensions->is_number_unsigned()) {
    return std::nullopt;
  }
  return vector_from_text(text->get_ref<const std::string&>(), dimensions->get<size_t>());
}

json client_record(json stored, bool include_vector) {
  if (include_vector) {
    const auto vector = stored_vector(stored);
    json numbers = json::array();
    if (vector) {
      for (const float x : *vector) numbers.push_back(printable(x));
    }
    stored["vector"] = vector ? std::move(numbers) : json();
  } else {
    stored.erase("vector");
  }
  stored.erase("changed_ms");
  return stored;
}

json filter_fields(const json& stored) {
  json fields = json::object();
  for (const char* name : {"_key", "_created_at", "_modified_at", "metadata"}) {
    if (const auto found = stored.find(name); found != stored.end()) fields[name] = *found;
  }
  return fields;
}

}  // namespace opbase::vdb
