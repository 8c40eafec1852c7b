// A vector record as the store keeps it and as a client sees it (docs/api.md#vector-records).
// Stored: {_key, _userkey, _created_at, _modified_at, collection, content (string or null),
// metadata, model_version (string or null), dimensions, vector (the stored form of
// vectors/vector_value.hpp: base64 of float32, never JSON numbers), changed_ms (the time of the
// last write, by which other daemons find it; see store_feed/store_feed.hpp)}.
// A client sees the same without `vector` and `changed_ms`; with the vector as numbers when it
// asks for it. Filters (ops/record_filter.hpp) test the fields of filter_fields().
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>

namespace opbase::vdb {

// The store collection (in the plugin's own namespace) that holds every record of a project.
inline constexpr std::string_view kRecordsCollection = "records";

// A new record `_key`: the time (12 hex digits, so keys sort by age) and 80 random bits.
std::string new_record_key(int64_t now_ms);

struct NewRecord {
  std::string key;
  std::string user;
  std::string collection;
  std::optional<std::string> content;
  nlohmann::json metadata;
  std::optional<std::string> model_version;
  std::span<const float> vector;  // as given or embedded, not scaled
  int64_t now_ms = 0;
};

// The stored document of a new record.
nlohmann::json stored_record(const NewRecord& record);

// What a client sees of a stored record: without the stored vector and changed_ms, or with the
// vector as numbers when `include_vector`. A stored vector that cannot be read (never written by
// this plugin) is answered as null.
nlohmann::json client_record(nlohmann::json stored, bool include_vector);

// The fields a filter may test, as the in-memory index keeps them: _key, _created_at,
// _modified_at and metadata.
nlohmann::json filter_fields(const nlohmann::json& stored);

// The stored record's vector, or nullopt when it is missing or malformed.
std::optional<std::vector<float>> stored_vector(const nlohmann::json& stored);

}  // namespace opbase::vdb
