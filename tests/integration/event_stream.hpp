// EventStream: an event stream of the realtime plugin (GET /api/{endpoint_key}/realtime) read over
// a raw socket as a browser's EventSource reads it: the head, then each server-sent event
// parsed as it arrives (comments counted, not returned). For the integration tests.
// Thread-safety: one test thread.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon_process.hpp"
#include "http_client.hpp"

namespace opbase::test {

// One server-sent event as a client parses it.
struct Event {
  std::string id;
  std::string name;
  nlohmann::json data;
};

class EventStream {
 public:
  // Opens the stream with the project's API key; `headers`: more header lines ("Name: v\r\n").
  explicit EventStream(const DaemonProcess& daemon, const std::string& headers = "");
  const std::string& head() const { return head_; }

  // The next event (comments and retry lines skipped), or nullopt after `timeout`.
  std::optional<Event> next(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // The next event, which must be named `name`: a test failure when another comes first.
  Event expect(const std::string& name,
               std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Whether nothing more arrives within `quiet`.
  bool silent(std::chrono::milliseconds quiet = std::chrono::milliseconds(500)) {
    return !next(quiet).has_value();
  }
  bool closed(std::chrono::milliseconds timeout) { return connection_.closed_by_server(timeout); }
  std::string raw() const { return buffer_ + connection_.received; }
  int comments() const { return comments_; }
  void close() { connection_.close(); }

 private:
  std::optional<Event> take();

  RawConnection connection_;
  std::string head_;
  std::string buffer_;
  int comments_ = 0;  // comment blocks read (heartbeats)
};

}  // namespace opbase::test
