// OpenAiSettings: how to reach one OpenAI-compatible model server (OpenAI itself, an Azure-style
// deployment, Ollama, vLLM, the llama.cpp server, LM Studio) and how patiently to talk to it.
// from_config() reads them from flat keys ("base_url", "api_key", ...); the caller decides the
// prefix (ai.openai., a project's own keys). A bad value is a VALIDATION_ERROR naming its key.
//
// The API key is a secret: nothing here prints it, and the provider keeps it out of every
// message, log line and Status (see redact_secret()).
//
// Thread-safety: a plain value.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::ai {

struct OpenAiSettings {
  // Without a trailing '/': "{base_url}/chat/completions" and "{base_url}/embeddings".
  std::string base_url = "https://api.openai.com/v1";
  std::string api_key;  // empty: no key header at all (local servers)
  // "Authorization" sends "Authorization: Bearer <key>"; any other name (Azure: "api-key") sends
  // the key as that header's whole value.
  std::string api_key_header = "Authorization";
  std::string api_version;  // non-empty: "?api-version=<it>" on every URL (Azure style)
  // Empty: the server serves no such task (the call fails with error_type "unsupported").
  std::string chat_model = "gpt-4o-mini";
  std::string embedding_model = "text-embedding-3-small";
  std::optional<int> dimensions;  // sent as "dimensions" in embedding requests when set
  double timeout_s = 60;          // the whole call: waiting for a slot, every attempt, every wait
  double connect_timeout_s = 10;  // one connection attempt
  int max_retries = 3;            // attempts after the first, on 429, 5xx and connection errors
  int max_concurrency = 8;        // calls in flight at once per provider
  std::optional<double> temperature;  // unset: not sent (some models accept only their default)
  // The first back-off before a retry without Retry-After; doubled on each retry, with jitter.
  int retry_base_ms = 500;
};

// One value by key, or nothing when the key is not set.
using SettingLookup = std::function<std::optional<std::string>(std::string_view key)>;

// Reads every key it knows (base_url, api_key, api_key_header, api_version, chat_model,
// embedding_model, dimensions, timeout_s, connect_timeout_s, max_retries, max_concurrency,
// temperature, retry_base_ms); an unset key keeps its default.
Result<OpenAiSettings> from_config(const SettingLookup& get);

}  // namespace opbase::ai
