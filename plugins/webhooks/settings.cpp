#include "settings.hpp"

#include <charconv>

#include "endpoints/webhook_signature.hpp"
#include "endpoints/webhook_target.hpp"

namespace opbase::webhooks {
namespace {

Status bad(std::string_view key, std::string_view what) {
  return Status::validation(std::string(key) + " " + std::string(what));
}

Result<bool> read_bool(const Host& host, std::string_view key, bool fallback) {
  const auto value = host.config(key);
  if (!value) return fallback;
  if (*value == "true") return true;
  if (*value == "false") return false;
  return bad(key, "must be true or false");
}

Result<int64_t> read_duration(const Host& host, std::string_view key, int64_t fallback) {
  const auto value = host.config(key);
  if (!value) return fallback;
  auto ms = parse_duration_ms(*value);
  if (!ms) return bad(key, "must be a duration such as 250ms, 15s, 2m or 1h");
  return ms;
}

}  // namespace

Result<int64_t> parse_duration_ms(std::string_view text) {
  int64_t number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || number < 0) return Status::validation("not a duration");
  const std::string_view unit(end, text.data() + text.size() - end);
  int64_t scale = 0;
  if (unit.empty() || unit == "ms") scale = 1;
  if (unit == "s") scale = 1'000;
  if (unit == "m") scale = 60'000;
  if (unit == "h") scale = 3'600'000;
  if (scale == 0 || number > INT64_MAX / scale / 2) return Status::validation("not a duration");
  return number * scale;
}

Result<WebhooksConfig> read_config(const Host& host) {
  WebhooksConfig c;
  c.url = host.config_or("webhooks.url", "");
  c.secret = host.config_or("webhooks.secret", "");
  if (!c.url.empty()) {
    if (auto parsed = parse_target_url(c.url); !parsed) {
      return bad("webhooks.url", "is not a webhook URL: " + parsed.status().message());
    }
  }
  if (!c.secret.empty() && !secret_key_bytes(c.secret)) {
    return bad("webhooks.secret", "must be whsec_ and the base64 of 24 to 64 bytes");
  }
  if (host.config("webhooks.events")) c.events = host.config_list("webhooks.events");
  c.signature_content = host.config_or("webhooks.signature_content", c.signature_content);
  if (!parse_signature_content(c.signature_content)) {
    return bad("webhooks.signature_content", "must be id.timestamp.body or timestamp.body");
  }
  if (host.config("webhooks.retry_delays")) {
    c.retry_delays_ms.clear();
    for (const std::string& item : host.config_list("webhooks.retry_delays")) {
      auto ms = parse_duration_ms(item);
      if (!ms) return bad("webhooks.retry_delays", "must list durations such as 5s, 30s, 2m");
      c.retry_delays_ms.push_back(*ms);
    }
    if (c.retry_delays_ms.empty() || c.retry_delays_ms.size() > 20) {
      return bad("webhooks.retry_delays", "must list 1 to 20 durations");
    }
  }
  auto timeout = read_duration(host, "webhooks.timeout", c.timeout_ms);
  auto lease = read_duration(host, "webhooks.lease", c.lease_ms);
  auto poll = read_duration(host, "webhooks.poll", c.poll_ms);
  auto retention = read_duration(host, "webhooks.retention", c.retention_ms);
  if (!retention) return retention.status();
  if (*retention < 60'000) return bad("webhooks.retention", "must be at least 1m");
  c.retention_ms = *retention;
  auto allow = read_bool(host, "webhooks.allow_private_targets", false);
  auto workers = host.config_int("webhooks.workers", c.workers);
  if (!timeout) return timeout.status();
  if (!lease) return lease.status();
  if (!poll) return poll.status();
  if (!allow) return allow.status();
  if (!workers) return workers.status();
  if (*timeout < 100 || *timeout > 600'000) return bad("webhooks.timeout", "must be 100ms to 10m");
  if (*lease <= *timeout) return bad("webhooks.lease", "must be longer than webhooks.timeout");
  if (*poll < 10 || *poll > 60'000) return bad("webhooks.poll", "must be 10ms to 1m");
  if (*workers < 1 || *workers > 64) return bad("webhooks.workers", "must be 1 to 64");
  c.timeout_ms = *timeout;
  c.lease_ms = *lease;
  c.poll_ms = *poll;
  c.allow_private_targets = *allow;
  c.workers = static_cast<int>(*workers);
  return c;
}

}  // namespace opbase::webhooks
