// Request and Reply: what an op handler of the C++ SDK receives and returns.
// A Request borrows the host's buffers for the duration of one handler call; copy what you keep.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "opbase/abi.h"
#include "opbase/status.hpp"

namespace opbase {

enum class Access {
  kApiKey = OPBASE_ACCESS_API_KEY,
  kUser = OPBASE_ACCESS_USER,
  kAdmin = OPBASE_ACCESS_ADMIN,
  kUserOptional = OPBASE_ACCESS_USER_OPTIONAL,
};

struct Request {
  std::string_view op;         // registered name
  std::string_view called_as;  // what the client sent (an alias, maybe)
  std::string_view raw_body;   // the body bytes as received
  const nlohmann::json& body;  // the same body, parsed: always an object; it has a string "op"
                               // except in the statement form ({query, variables})
  std::string_view project_id;
  std::string_view user_id;           // empty when anonymous
  std::string_view user_claims_text;  // the verified token's claims as JSON; empty when anonymous
  std::string_view request_id;
  std::string_view client_address;
  std::string_view bearer_token;

  bool signed_in() const { return !user_id.empty(); }

  // The claims parsed: an object, or null when anonymous. Parsed on first use only, because most
  // ops need no more than user_id and a token's claims are a few hundred bytes to parse.
  const nlohmann::json& user_claims() const {
    if (!parsed_claims_) {
      parsed_claims_ =
          user_claims_text.empty() ? nlohmann::json() : nlohmann::json::parse(user_claims_text);
    }
    return *parsed_claims_;
  }

  // user_claims()'s copy; a Request is used by one handler call on one thread.
  mutable std::optional<nlohmann::json> parsed_claims_ = std::nullopt;
};

// A successful answer: `data`, optional `meta`, optional fields set at the top level beside
// them (for results the API shows unwrapped, such as auth.verify_id_token).
struct Reply {
  nlohmann::json data;
  std::optional<nlohmann::json> meta;
  std::optional<nlohmann::json> top_level;
  // `data` already printed, such as a page of documents passed on from the store: sent instead
  // of `data`, so it is not parsed and printed again. The host still checks it is valid JSON.
  std::optional<std::string> data_text;

  Reply(nlohmann::json d = nullptr) : data(std::move(d)) {}  // NOLINT(google-explicit-constructor)
  static Reply from_text(std::string json_text) {
    Reply reply;
    reply.data_text = std::move(json_text);
    return reply;
  }
  // Reply({{"pong", true}}) builds the JSON in place.
  Reply(nlohmann::json::initializer_list_t init) : data(init) {}
  Reply& with_meta(nlohmann::json m) {
    meta = std::move(m);
    return *this;
  }
  Reply& with_top_level(nlohmann::json t) {
    top_level = std::move(t);
    return *this;
  }
};

using OpHandler = std::function<Result<Reply>(const Request&)>;

// A service other plugins call by name: JSON in, JSON "data" out, or a failed Status.
using ServiceHandler =
    std::function<Result<nlohmann::json>(std::string_view project_id, const nlohmann::json& input)>;

// The same for a service on a hot path that reads its input and prints its answer itself: the
// caller's JSON text in as it is, JSON text out (the host's callers check it is valid JSON).
using TextServiceHandler =
    std::function<Result<std::string>(std::string_view project_id, std::string_view input_json)>;

struct Event {
  std::string_view type;
  std::string_view project_id;
  const nlohmann::json& payload;
  int64_t time_ms;
};
using EventHandler = std::function<void(const Event&)>;

}  // namespace opbase
