#include "http/request_reader.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>

#include "opbase/error_code.hpp"

namespace opbase::host::http {
namespace {

using std::chrono::seconds;
using Outcome = RequestReader::Outcome;

}  // namespace

Outcome RequestReader::read_request(Connection& c) {
  const ReadResult read = c.read_some();
  if (read == ReadResult::kBroken) {
    writer_.schedule_close(c);
    return Outcome::kDealtWith;
  }
  if (read == ReadResult::kEnd) return read_to_end(c);
  return advance(c, /*at_end=*/false);
}

// The client ended its side: what arrived may still finish the request, else it is cut short.
Outcome RequestReader::read_to_end(Connection& c) {
  if (c.in.empty() && !c.request_started) {
    writer_.schedule_close(c);
    return Outcome::kDealtWith;
  }
  const Outcome outcome = advance(c, /*at_end=*/true);
  if (outcome != Outcome::kWaiting) return outcome;
  // The client stopped sending in the middle of a request.
  counters_.malformed.fetch_add(1, std::memory_order_relaxed);
  writer_.answer_and_close(c, 400,
                           Status::validation(c.phase == Connection::Phase::kBody
                                                  ? "the request body ended before it was complete"
                                                  : "the connection ended inside a request head"),
                           Connection::Then::kClose);
  return Outcome::kDealtWith;
}

Outcome RequestReader::advance(Connection& c, bool at_end) {
  if (c.phase == Connection::Phase::kHead) {
    if (std::optional<Outcome> head = read_head(c, at_end)) return *head;
  }
  const Outcome body = take_body(c);
  return body == Outcome::kWaiting ? wait_for_bytes(c, at_end) : body;
}

std::optional<Outcome> RequestReader::read_head(Connection& c, bool at_end) {
  if (c.in.empty()) return wait_for_bytes(c, at_end);
  if (!c.request_started) {
    c.request_started = true;
    c.deadline = SteadyClock::now() + seconds(settings_.header_timeout_s);
    c.request.head = {};
  }
  const std::string_view window = std::string_view(c.in).substr(0, settings_.max_header_bytes);
  const size_t length = head_length(window, c.head_scanned);
  if (length == 0) return head_incomplete(c, window.size(), at_end);
  return take_head(c, length);
}

// No end of the head within the first `scanned` bytes: wait for more, or refuse a head too large.
Outcome RequestReader::head_incomplete(Connection& c, size_t scanned, bool at_end) {
  c.head_scanned = scanned;
  if (c.in.size() <= settings_.max_header_bytes) return wait_for_bytes(c, at_end);
  counters_.malformed.fetch_add(1, std::memory_order_relaxed);
  writer_.answer_and_close(
      c, 400,
      Status::validation("the request head is larger than " +
                         std::to_string(settings_.max_header_bytes) + " bytes"),
      Connection::Then::kLinger);
  return Outcome::kDealtWith;
}

// Parses the head at the start of `c.in`.
std::optional<Outcome> RequestReader::take_head(Connection& c, size_t length) {
  HeadParse parsed = parse_request_head(std::string_view(c.in).substr(0, length));
  c.in.erase(0, length);
  c.head_scanned = 0;
  if (!parsed.head) {
    counters_.malformed.fetch_add(1, std::memory_order_relaxed);
    writer_.answer_and_close(c, 400, Status::validation(parsed.error), Connection::Then::kLinger);
    return Outcome::kDealtWith;
  }
  c.request.head = std::move(*parsed.head);
  c.request.client_address = c.address;
  return admit_head(c);
}

std::optional<Outcome> RequestReader::admit_head(Connection& c) {
  const RequestHead& head = c.request.head;
  if (std::optional<Response> refusal = handler_.admit(head, c.address)) {
    // The body, if any, was never read: the connection cannot carry another request.
    writer_.queue_response(
        c, std::move(*refusal),
        head.has_body() ? Connection::Then::kLinger : Connection::Then::kNextRequest);
    return Outcome::kDealtWith;
  }
  if (handler_.streams(head)) return check_stream_head(c);
  return start_body(c);
}

// A streamed body is read by its route, unchecked by the front: only its framing is refused here.
Outcome RequestReader::check_stream_head(Connection& c) {
  const RequestHead& head = c.request.head;
  if (head.chunked) {
    writer_.answer_and_close(
        c, 411, Status::validation("this route needs the body's Content-Length, not chunks"),
        Connection::Then::kLinger, &head);
    return Outcome::kDealtWith;
  }
  // A route reads one value of a header (the first: abi.h stream_header), so a body with two
  // types would be checked as one and could be taken as the other by whoever reads it next.
  if (head.has_body() && head.field_count("Content-Type") > 1) {
    writer_.answer_and_close(
        c, 400,
        Status::validation("the request has more than one Content-Type header",
                           {{"reason", "duplicate_header"}, {"header", "Content-Type"}}),
        Connection::Then::kLinger, &head);
    return Outcome::kDealtWith;
  }
  return Outcome::kStream;
}

// Checks the body's announced size against the limits and gets ready to collect it.
std::optional<Outcome> RequestReader::start_body(Connection& c) {
  const RequestHead& head = c.request.head;
  if (head.content_length && *head.content_length > settings_.max_body_bytes) {
    writer_.answer_and_close(c, 413, too_large(), Connection::Then::kLinger, &head);
    return Outcome::kDealtWith;
  }
  if (head.content_length && !reserve(c, *head.content_length)) return Outcome::kDealtWith;
  if (head.expect_continue && head.has_body() && c.in.empty()) {
    // The client waits for this before sending the body; the socket has room for 25 bytes
    // (nothing else is being sent on it now).
    [[maybe_unused]] ssize_t sent =
        ::send(c.fd, kContinueBytes.data(), kContinueBytes.size(), MSG_NOSIGNAL);
  }
  c.phase = Connection::Phase::kBody;
  c.chunked = ChunkedDecoder();
  c.request.body.clear();
  if (head.content_length) c.request.body.reserve(*head.content_length);
  c.deadline = SteadyClock::now() + seconds(settings_.receive_timeout_s);
  return std::nullopt;
}

// Moves body bytes from `c.in`: kWhole once the body is, kWaiting (not armed) while more is owed.
Outcome RequestReader::take_body(Connection& c) {
  return c.request.head.chunked ? take_chunks(c) : take_sized(c);
}

Outcome RequestReader::take_chunks(Connection& c) {
  const RequestHead& head = c.request.head;
  std::string& body = c.request.body;
  const size_t used = c.chunked.feed(c.in, body);
  c.in.erase(0, used);
  if (body.size() > settings_.max_body_bytes) {
    writer_.answer_and_close(c, 413, too_large(), Connection::Then::kLinger, &head);
    return Outcome::kDealtWith;
  }
  if (body.size() > c.reserved_body_bytes &&
      !reserve(c, std::max<size_t>(body.size() - c.reserved_body_bytes, 65536))) {
    return Outcome::kDealtWith;
  }
  if (c.chunked.failed()) {
    counters_.malformed.fetch_add(1, std::memory_order_relaxed);
    writer_.answer_and_close(c, 400, Status::validation(c.chunked.error()),
                             Connection::Then::kLinger, &head);
    return Outcome::kDealtWith;
  }
  return c.chunked.done() ? Outcome::kWhole : Outcome::kWaiting;
}

Outcome RequestReader::take_sized(Connection& c) {
  std::string& body = c.request.body;
  const size_t want = static_cast<size_t>(c.request.head.content_length.value_or(0)) - body.size();
  const size_t take = std::min(want, c.in.size());
  body.append(c.in, 0, take);
  c.in.erase(0, take);
  return take < want ? Outcome::kWaiting : Outcome::kWhole;
}

// Takes `bytes` more of the budget for bodies in flight; responds 503 when it is used up.
bool RequestReader::reserve(Connection& c, size_t bytes) {
  if (budget_.reserve(c, bytes)) return true;
  counters_.refused_busy.fetch_add(1, std::memory_order_relaxed);
  writer_.answer_and_close(
      c, 503, busy("the server holds as many request bodies as it may; try again", "body_memory"),
      Connection::Then::kLinger, &c.request.head);
  return false;
}

Outcome RequestReader::wait_for_bytes(Connection& c, bool at_end) {
  if (!at_end) epoll_.arm(c, EPOLLIN);
  return Outcome::kWaiting;
}

Status RequestReader::too_large() const {
  return Status(
      code::kPayloadTooLarge,
      "the request body is larger than " + std::to_string(settings_.max_body_bytes) + " bytes",
      {{"max_bytes", settings_.max_body_bytes}});
}

}  // namespace opbase::host::http
