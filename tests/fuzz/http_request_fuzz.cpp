// Fuzzes the HTTP front's parsers with what a client may send: the head parser on the bytes up
// to the blank line, and the chunked decoder on the rest, fed in two pieces. Neither may crash,
// read out of bounds or disagree with itself: a parsed head has a method and a target starting
// with '/', and a decoder never takes more than it was given.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/chunked_decoder.hpp"
#include "http/request_head.hpp"

using opbase::host::http::ChunkedDecoder;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t head_end = opbase::host::http::head_length(input);
  const std::string_view head = input.substr(0, head_end ? head_end : input.size());
  const auto parsed = opbase::host::http::parse_request_head(head);
  if (parsed.head) {
    if (parsed.head->method.empty()) __builtin_trap();
    if (parsed.head->target != "*" && parsed.head->target.front() != '/') __builtin_trap();
    if (parsed.head->chunked && parsed.head->content_length) __builtin_trap();
  } else if (parsed.error.empty()) {
    __builtin_trap();
  }
  const std::string_view rest = input.substr(head.size());
  ChunkedDecoder decoder;
  std::string body;
  const size_t half = rest.size() / 2;
  size_t used = decoder.feed(rest.substr(0, half), body);
  if (used > half) __builtin_trap();
  if (!decoder.done() && !decoder.failed()) {
    const size_t more = decoder.feed(rest.substr(half), body);
    if (more > rest.size() - half) __builtin_trap();
    used += more;
  }
  if (body.size() > used) __builtin_trap();
  return 0;
}
