// Ids derived from their content, for documents that must come out the same when made twice
// (a message of an event for an endpoint, a bundle of events): `prefix`, the time in milliseconds
// as 12 hex digits, then 80 bits of SHA-256(`content`) in hex. Time first, so new ids are appended
// to the store's key index rather than written on a random page of it.
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace opbase::webhooks {

std::string derived_id(std::string_view prefix, int64_t time_ms, std::string_view content);

// The message id of (event, endpoint): "msg_", the event's time and a digest of both ids. The same
// event fanned out twice to one endpoint (a crash before its removal) makes the same message.
std::string message_id(std::string_view event_id, std::string_view endpoint_id, int64_t event_ms);

}  // namespace opbase::webhooks
