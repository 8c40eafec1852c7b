#include "gateway/request_log.hpp"

#include "log/log.hpp"

namespace opbase::host {

std::string route_of(std::string_view path) {
  if (path == "/api" || path == "/api/") return "/api";
  if (path.starts_with("/api/")) {
    const std::string_view below = path.substr(5);
    const auto slash = below.find('/');
    if (slash == std::string_view::npos) return "/api/{endpoint_key}";
    return "/api/{endpoint_key}" + std::string(below.substr(slash, 64));
  }
  return std::string(path.substr(0, 128));
}

void log_request(const RequestRecord& record) {
  if (!log::enabled(log::Level::kInfo)) return;
  const std::string route = route_of(record.path);
  log::write(log::Level::kInfo, "http", "request",
             {{"method", record.method},
              {"route", route},
              {"op", record.op.empty() ? std::string_view("-") : record.op},
              {"project", record.project.empty() ? std::string_view("-") : record.project},
              {"status", record.status},
              {"code", record.code},
              {"duration_ms", record.seconds * 1000.0},
              {"request_id", record.request_id}});
}

}  // namespace opbase::host
