#include "ops/search_request.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "opbase/field_error.hpp"
#include "ops/collection_field.hpp"
#include "ops/record_filter.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

Status refused(std::string_view field, std::string_view reason, const std::string& message,
               json more = json::object()) {
  more["field"] = field;
  more["reason"] = reason;
  return Status::validation(std::string(field) + " " + message, std::move(more));
}

bool blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return std::isspace(c) != 0; });
}

const json* field(const json& body, const char* name) {
  const auto found = body.find(name);
  return found == body.end() || found->is_null() ? nullptr : &*found;
}

Status read_query_or_vector(const json& body, SearchRequest& request) {
  const json* text = field(body, "query");
  const json* vector = field(body, "vector");
  if ((text != nullptr) == (vector != nullptr)) {
    return refused("query", "query_or_vector", "or vector: give exactly one of them");
  }
  if (vector != nullptr) {
    auto read = read_vector(*vector, "vector");
    if (!read) return read.status();
    request.vector = std::move(*read);
    return Status::ok();
  }
  if (!text->is_string()) return refused("query", "not_string", "must be a string");
  if (blank(text->get_ref<const std::string&>())) {
    return field_error("query", "query is empty: there is nothing to search by", {},
                       code::kContentEmpty);
  }
  request.query = text->get<std::string>();
  return Status::ok();
}

Status read_options(const json& body, SearchRequest& request) {
  if (const json* limit = field(body, "limit")) {
    if (!limit->is_number_integer() || limit->get<int64_t>() < 1 ||
        limit->get<int64_t>() > static_cast<int64_t>(kMaxSearchLimit)) {
      return refused("limit", "out_of_range",
                     "must be an integer from 1 to " + std::to_string(kMaxSearchLimit),
                     {{"max", kMaxSearchLimit}});
    }
    request.limit = limit->get<size_t>();
  }
  if (const json* min_score = field(body, "min_score")) {
    if (!min_score->is_number() || !(min_score->get<double>() >= -1) ||
        !(min_score->get<double>() <= 1)) {
      return refused("min_score", "out_of_range", "must be a number from -1 to 1");
    }
    request.min_score = min_score->get<float>();
  }
  if (const json* include = field(body, "include_vector")) {
    if (!include->is_boolean())
      return refused("include_vector", "not_boolean", "must be true or false");
    request.include_vector = include->get<bool>();
  }
  if (const json* filter = field(body, "filter")) {
    auto match = read_record_filter(*filter, "filter");
    if (!match) return match.status();
    request.filter = std::move(*match);
  }
  return Status::ok();
}

}  // namespace

Result<SearchRequest> read_search_request(const json& body) {
  SearchRequest request;
  auto collection = read_collection_field(body);
  if (!collection) return collection.status();
  request.collection = std::move(*collection);
  if (Status s = read_query_or_vector(body, request); !s) return s;
  if (Status s = read_options(body, request); !s) return s;
  return request;
}

Result<DeleteRequest> read_delete_request(const json& body) {
  DeleteRequest request;
  auto collection = read_collection_field(body);
  if (!collection) return collection.status();
  request.collection = std::move(*collection);
  const json* match = field(body, "match");
  if (match == nullptr) {
    return refused("match", "missing",
                   "must select the records to delete ({} deletes every record of the collection)");
  }
  auto read = read_record_filter(*match, "match");
  if (!read) return read.status();
  request.match = std::move(*read);
  return request;
}

}  // namespace opbase::vdb
