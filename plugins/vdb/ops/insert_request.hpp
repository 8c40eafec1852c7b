// The body of vdb.insert, read and checked before anything is embedded or stored: `collection`
// (a collection name of the datastore's rules) and `data`, one record or an array of 1 to
// kMaxInsertRecords, each either {"content", "metadata"?} (embedded by the project's model) or
// {"vector", "metadata"?, "content"?} (a vector as given). A refusal is VALIDATION_ERROR with
// details.field naming the place and details.reason what is wrong, or CONTENT_EMPTY for a record
// to embed whose content is missing or blank (details.index).
//
// Thread-safety: a pure function.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::vdb {

inline constexpr size_t kMaxInsertRecords = 100;
// A record's metadata as JSON text at most (the datastore's profile metadata has the same bound).
inline constexpr size_t kMaxMetadataBytes = 16 * 1024;

struct InsertItem {
  std::optional<std::string> content;        // none: absent or null
  std::optional<std::vector<float>> vector;  // none: to be embedded from content
  nlohmann::json metadata = nlohmann::json::object();
};

struct InsertRequest {
  std::string collection;
  std::vector<InsertItem> items;  // in the order given
  bool many = false;              // data was an array (the answer is one too)
};

Result<InsertRequest> read_insert_request(const nlohmann::json& body);

}  // namespace opbase::vdb
