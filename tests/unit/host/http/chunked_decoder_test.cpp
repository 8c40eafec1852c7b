// The HTTP front's chunked body decoder: bodies in any pieces, and each framing fault refused.
#include "http/chunked_decoder.hpp"

#include <gtest/gtest.h>

#include <string>

namespace opbase::host::http {
namespace {

struct Decoded {
  std::string body;
  size_t used = 0;
  bool done = false;
  std::string error;
};

// Feeds `input` in pieces of `piece` bytes, as a socket might deliver it.
Decoded decode(const std::string& input, size_t piece = SIZE_MAX) {
  ChunkedDecoder decoder;
  Decoded out;
  for (size_t at = 0; at < input.size() && !decoder.done() && !decoder.failed(); at += piece) {
    const std::string_view part = std::string_view(input).substr(at, piece);
    out.used += decoder.feed(part, out.body);
  }
  out.done = decoder.done();
  out.error = decoder.error();
  return out;
}

const std::string kTwoChunks = "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\n\r\n";

TEST(ChunkedDecoder, JoinsChunksInAnyPieces) {
  for (size_t piece : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, SIZE_MAX}) {
    const Decoded d = decode(kTwoChunks, piece);
    EXPECT_TRUE(d.done) << "piece " << piece << ": " << d.error;
    EXPECT_EQ(d.body, "hello, world") << "piece " << piece;
    EXPECT_EQ(d.used, kTwoChunks.size());
  }
}

TEST(ChunkedDecoder, StopsAtTheEndAndLeavesTheNextRequest) {
  const std::string body = "3\r\nabc\r\n0\r\n\r\n";
  const Decoded d = decode(body + "GET /healthz HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(d.done);
  EXPECT_EQ(d.body, "abc");
  EXPECT_EQ(d.used, body.size()) << "the bytes of the next request are not taken";
}

TEST(ChunkedDecoder, SkipsTrailerFields) {
  const Decoded d = decode("A\r\n0123456789\r\n0\r\nX-Sum: 1\r\nX-More: 2\r\n\r\n");
  EXPECT_TRUE(d.done) << d.error;
  EXPECT_EQ(d.body, "0123456789");
}

TEST(ChunkedDecoder, WaitsForMore) {
  const Decoded d = decode("5\r\nhel");
  EXPECT_FALSE(d.done);
  EXPECT_TRUE(d.error.empty());
  EXPECT_EQ(d.body, "hel");
}

TEST(ChunkedDecoder, FramingFaultsAreRefused) {
  const std::pair<std::string, std::string> cases[] = {
      {"x\r\n", "a chunk size is not a hex number"},
      {"\r\n", "a chunk size is not a hex number"},
      {"5 \r\nhello\r\n", "a chunk size is followed by something other than ';' or CRLF"},
      {"5\nhello\r\n", "a chunk size is followed by something other than ';' or CRLF"},
      {"5\r\nhello!\r\n", "a chunk's data is longer than its size"},
      {"5\r\nhello\rX", "a chunk's data does not end with CRLF"},
      {"11111111111111111\r\n", "a chunk size has more than 16 hex digits"},
      {"5;" + std::string(2000, 'e') + "\r\n", "a chunk extension is too long"},
      {"0\r\nX: 1\n", "a bare LF ends a trailer line"},
      {"0\r\n" + std::string(9000, 't'), "the trailer is too long"},
  };
  for (const auto& [input, why] : cases) {
    const Decoded d = decode(input);
    EXPECT_FALSE(d.done) << input.substr(0, 40);
    EXPECT_EQ(d.error, "the chunked body is malformed: " + why) << input.substr(0, 40);
  }
}

}  // namespace
}  // namespace opbase::host::http
