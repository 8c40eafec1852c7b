#include "event_stream.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace opbase::test {

using namespace std::chrono_literals;

EventStream::EventStream(const DaemonProcess& daemon, const std::string& headers)
    : connection_(daemon.port()) {
  connection_.send("GET " + daemon.api_path() + "/realtime HTTP/1.1\r\nHost: x\r\nX-API-KEY: " +
                   daemon.api_key() + "\r\n" + headers + "\r\n");
  if (!connection_.receive_until("\r\n\r\n", 5s)) return;
  const size_t end = connection_.received.find("\r\n\r\n");
  head_ = connection_.received.substr(0, end);
  buffer_ = connection_.received.substr(end + 4);
  connection_.received.clear();
}

std::optional<Event> EventStream::next(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto event = take()) return event;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left <= 0ms) return std::nullopt;
    connection_.receive_until("\n\n", std::min<std::chrono::milliseconds>(left, 200ms));
    buffer_ += connection_.received;
    connection_.received.clear();
  }
}

Event EventStream::expect(const std::string& name, std::chrono::milliseconds timeout) {
  auto event = next(timeout);
  EXPECT_TRUE(event.has_value()) << "no " << name << " event";
  if (!event) return {};
  EXPECT_EQ(event->name, name) << event->data.dump();
  return *event;
}

std::optional<Event> EventStream::take() {
  for (;;) {
    const size_t end = buffer_.find("\n\n");
    if (end == std::string::npos) return std::nullopt;
    const std::string block = buffer_.substr(0, end);
    buffer_.erase(0, end + 2);
    if (block.starts_with(":")) ++comments_;
    Event event;
    bool named = false;
    size_t at = 0;
    while (at <= block.size()) {
      const size_t line_end = std::min(block.find('\n', at), block.size());
      const std::string line = block.substr(at, line_end - at);
      at = line_end + 1;
      if (line.starts_with("id: ")) event.id = line.substr(4);
      if (line.starts_with("event: ")) {
        event.name = line.substr(7);
        named = true;
      }
      if (line.starts_with("data: ")) event.data = nlohmann::json::parse(line.substr(6));
    }
    if (named) return event;
  }
}

}  // namespace opbase::test
