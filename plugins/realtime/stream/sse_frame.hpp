// The bytes of server-sent events (the WHATWG HTML standard, "Server-sent events"): an event is
// "id:", "event:" and "data:" lines and a blank line; a line starting with ':' is a comment,
// which clients ignore (the heartbeat). The data is one line of JSON: JSON text printed by
// nlohmann has no line break, and a "\n" inside a string is printed as the two characters.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace opbase::realtime {

// One event; `id` empty: none (the client's Last-Event-ID stays what it was).
std::string sse_event(std::string_view id, std::string_view event, std::string_view data_json);
// A comment line, for heartbeats: clients ignore it, proxies see traffic.
std::string sse_comment(std::string_view text);
// How long a client waits before it reconnects after the stream ends.
std::string sse_retry(int64_t ms);

}  // namespace opbase::realtime
