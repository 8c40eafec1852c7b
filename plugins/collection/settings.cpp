// Reading the collection plugin's settings.
#include "settings.hpp"

namespace opbase::collection {
namespace {

Status read_int(const Host& host, std::string_view key, int64_t min, int64_t max, int64_t* out) {
  auto value = host.config_int(key, *out);
  if (!value) return value.status();
  if (*value < min || *value > max) {
    return Status::validation(std::string(key) + " must be between " + std::to_string(min) +
                              " and " + std::to_string(max));
  }
  *out = *value;
  return Status::ok();
}

}  // namespace

Result<Settings> Settings::load(const Host& host) {
  Settings s;
  for (auto [key, min, max, out] :
       {std::tuple{"datastore.max_document_bytes", int64_t{64}, int64_t{16'777'216},
                   &s.max_document_bytes},
        std::tuple{"datastore.max_batch", int64_t{1}, int64_t{100'000}, &s.max_batch},
        std::tuple{"datastore.limit_cap", int64_t{1}, int64_t{100'000}, &s.limit_cap},
        std::tuple{"datastore.max_lookup_scan", int64_t{1}, int64_t{1'000'000}, &s.max_lookup_scan},
        std::tuple{"datastore.deleted_retention_s", int64_t{0}, int64_t{315'360'000},
                   &s.deleted_retention_s},
        std::tuple{"datastore.max_sharing_entries", int64_t{1}, int64_t{10'000},
                   &s.max_sharing_entries}}) {
    if (Status st = read_int(host, key, min, max, out); !st) return st;
  }
  s.anonymous_collections = host.config_list("datastore.anonymous_insert");
  s.captcha_service = host.config_or("datastore.captcha_service", s.captcha_service);
  return s;
}

}  // namespace opbase::collection
