// Per-project file limits (see project_limits.hpp).
#include "quota/project_limits.hpp"

#include <string>

#include "opbase/field_error.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

// Each setting with the range its configuration key accepts (settings.cpp).
struct Limit {
  const char* name;
  int64_t min, max;
};
constexpr Limit kLimits[] = {{"max_size", 1, int64_t{1} << 42},
                             {"quota_bytes_per_user", 1, int64_t{1} << 50},
                             {"quota_files_per_user", 1, 1'000'000'000}};

Result<FileLimits> from_values(const json& values) {
  int64_t read[3] = {};
  for (size_t i = 0; i < std::size(kLimits); ++i) {
    const Limit& limit = kLimits[i];
    const json& value = values.at(limit.name);
    if (!value.is_number_integer() || value.get<int64_t>() < limit.min ||
        value.get<int64_t>() > limit.max) {
      return field_error(limit.name, std::string("data.") + limit.name +
                                         " must be an integer from " + std::to_string(limit.min) +
                                         " to " + std::to_string(limit.max));
    }
    read[i] = value.get<int64_t>();
  }
  return FileLimits{read[0], {read[1], read[2]}};
}

}  // namespace

ProjectLimits::ProjectLimits(const DocumentStore& store, const FileSettings& configured)
    : stored_(store, "settings_file",
              {{"max_size", configured.max_size},
               {"quota_bytes_per_user", configured.quota_bytes_per_user},
               {"quota_files_per_user", configured.quota_files_per_user}}) {}

Result<FileLimits> ProjectLimits::of(std::string_view project, int64_t now_ms) const {
  auto snapshot = stored_.of(project, now_ms);
  if (!snapshot) return snapshot.status();
  auto limits = from_values((*snapshot)->values);
  if (!limits) return Status::internal("stored file settings: " + limits.status().message());
  return limits;
}

Result<json> ProjectLimits::admin_view(std::string_view project, int64_t now_ms) const {
  auto snapshot = stored_.of(project, now_ms);
  if (!snapshot) return snapshot.status();
  return (*snapshot)->view();
}

Result<json> ProjectLimits::change(std::string_view project, const json& data,
                                   int64_t now_ms) const {
  auto snapshot = stored_.change(project, data, now_ms, [](const json& values) {
    auto limits = from_values(values);
    return limits ? Status::ok() : limits.status();
  });
  if (!snapshot) return snapshot.status();
  return (*snapshot)->view();
}

}  // namespace opbase::file
