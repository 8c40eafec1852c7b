// The bodies of vdb.search and vdb.delete, read and checked before anything is embedded or
// read (docs/api.md#vector-search, #vector-delete). Refusals are VALIDATION_ERROR with
// details.field and details.reason, or CONTENT_EMPTY for a blank query.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/status.hpp"

namespace opbase::vdb {

inline constexpr size_t kDefaultSearchLimit = 10;
inline constexpr size_t kMaxSearchLimit = 100;

struct SearchRequest {
  std::string collection;
  std::optional<std::string> query;          // text to embed, or
  std::optional<std::vector<float>> vector;  // a vector as given
  size_t limit = kDefaultSearchLimit;
  query::Match filter;
  std::optional<float> min_score;
  bool include_vector = false;
};

Result<SearchRequest> read_search_request(const nlohmann::json& body);

struct DeleteRequest {
  std::string collection;
  query::Match match;
};

Result<DeleteRequest> read_delete_request(const nlohmann::json& body);

}  // namespace opbase::vdb
