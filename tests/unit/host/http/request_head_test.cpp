// The strict HTTP/1.1 head parser of the HTTP front: what it reads, and each way a head that two
// parsers could read differently is refused.
#include "http/request_head.hpp"

#include <gtest/gtest.h>

#include <string>

namespace opbase::host::http {
namespace {

RequestHead parsed(const std::string& head) {
  HeadParse result = parse_request_head(head);
  EXPECT_TRUE(result.head.has_value()) << result.error << " for:\n" << head;
  return result.head.value_or(RequestHead{});
}

// The parser's refusal of `head`, or "" when it took it.
std::string refusal(const std::string& head) {
  HeadParse result = parse_request_head(head);
  EXPECT_FALSE(result.head.has_value()) << "taken:\n" << head;
  return result.error;
}

const std::string kLine = "POST /api/ep?x=1 HTTP/1.1\r\n";

TEST(RequestHead, ReadsTheRequestLineAndFields) {
  const RequestHead head =
      parsed(kLine + "Host: a\r\nX-API-KEY:  key one \r\nContent-Length: 12\r\n\r\n");
  EXPECT_EQ(head.method, "POST");
  EXPECT_EQ(head.target, "/api/ep?x=1");
  EXPECT_EQ(head.path(), "/api/ep");
  EXPECT_EQ(head.minor_version, 1);
  EXPECT_EQ(head.field("x-api-key"), "key one") << "any case, value trimmed";
  EXPECT_EQ(head.field("Absent"), "");
  EXPECT_EQ(head.content_length, 12u);
  EXPECT_FALSE(head.chunked);
  EXPECT_TRUE(head.keep_alive);
  EXPECT_TRUE(head.has_body());
}

TEST(RequestHead, CountsRepeatedFieldsInAnyCase) {
  const RequestHead head = parsed(kLine +
                                  "Content-Type: text/plain\r\nHost: a\r\ncontent-type: "
                                  "text/html\r\nCONTENT-TYPE: text/plain\r\n\r\n");
  EXPECT_EQ(head.field_count("Content-Type"), 3u);
  EXPECT_EQ(head.field("content-type"), "text/plain") << "the first";
  EXPECT_EQ(head.field_count("host"), 1u);
  EXPECT_EQ(head.field_count("Absent"), 0u);
}

TEST(RequestHead, KeepAliveFollowsTheVersionAndConnectionField) {
  EXPECT_FALSE(parsed(kLine + "Connection: close\r\n\r\n").keep_alive);
  EXPECT_FALSE(parsed(kLine + "Connection: foo, Close\r\n\r\n").keep_alive);
  EXPECT_FALSE(parsed("GET / HTTP/1.0\r\n\r\n").keep_alive);
  EXPECT_TRUE(parsed("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keep_alive);
}

TEST(RequestHead, ChunkedAndExpectContinue) {
  const RequestHead head =
      parsed(kLine + "Transfer-Encoding: Chunked\r\nExpect: 100-continue\r\n\r\n");
  EXPECT_TRUE(head.chunked);
  EXPECT_TRUE(head.has_body());
  EXPECT_TRUE(head.expect_continue);
  EXPECT_FALSE(head.content_length.has_value());
}

TEST(RequestHead, RepeatedEqualContentLengthsAreOne) {
  EXPECT_EQ(parsed(kLine + "Content-Length: 5\r\ncontent-length: 5\r\n\r\n").content_length, 5u);
}

TEST(RequestHead, LeadingEmptyLinesAreSkipped) {
  EXPECT_EQ(parsed("\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n").path(), "/healthz");
}

TEST(RequestHead, SmugglingShapesAreRefused) {
  EXPECT_EQ(refusal(kLine + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n"),
            "the request has two different Content-Length headers");
  EXPECT_EQ(refusal(kLine + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"),
            "the request has both Content-Length and Transfer-Encoding");
  EXPECT_EQ(refusal(kLine + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"),
            "the request has more than one Transfer-Encoding header");
  EXPECT_EQ(refusal(kLine + "Transfer-Encoding: gzip, chunked\r\n\r\n"),
            "the only Transfer-Encoding served is 'chunked'");
  EXPECT_EQ(refusal("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"),
            "HTTP/1.0 requests cannot use Transfer-Encoding");
  EXPECT_EQ(refusal(kLine + "Content-Length : 5\r\n\r\n"),
            "a header name is not a token (or has white space before its ':')");
  EXPECT_EQ(refusal(kLine + "X-A: 1\r\n folded\r\n\r\n"),
            "a header field is folded onto a second line");
  EXPECT_EQ(refusal(kLine + "X-A: 1\nX-B: 2\r\n\r\n"), "the request head holds a bare CR or LF");
}

TEST(RequestHead, ContentLengthMustBeAPlainNumber) {
  for (const std::string value : {"-5", "+5", "5 5", "0x10", "abc", "", "1234567890123456789"}) {
    EXPECT_EQ(refusal(kLine + "Content-Length: " + value + "\r\n\r\n"),
              "the Content-Length header is not a whole number of bytes")
        << "'" << value << "'";
  }
}

TEST(RequestHead, ControlCharactersInValuesAreRefused) {
  for (const char c : {'\0', '\x01', '\x1f', '\x7f', '\r'}) {
    const std::string head = kLine + "X-Bad: a" + std::string(1, c) + "b\r\n\r\n";
    EXPECT_FALSE(parse_request_head(head).head.has_value()) << "byte " << int(c);
  }
  EXPECT_TRUE(parse_request_head(kLine + "X-Ok: tab\there \xc3\xa9\r\n\r\n").head.has_value())
      << "tabs and bytes above 0x7f are allowed";
}

TEST(RequestHead, MalformedRequestLinesAreRefused) {
  for (const std::string line :
       {"GARBAGE", "POST", " / HTTP/1.1", "GET\t/ HTTP/1.1", "GET  / HTTP/1.1", "GET / HTTP/2.0",
        "GET / http/1.1", "GET relative HTTP/1.1", "GET * HTTP/1.1", "G(T / HTTP/1.1",
        "GET / HTTP/1.1 extra"}) {
    EXPECT_FALSE(parse_request_head(line + "\r\n\r\n").head.has_value()) << line;
  }
  EXPECT_EQ(parsed("OPTIONS * HTTP/1.1\r\n\r\n").target, "*");
}

TEST(RequestHead, AtMostAHundredFields) {
  std::string fields;
  for (size_t i = 0; i < kMaxFields; ++i) fields += "X-" + std::to_string(i) + ": v\r\n";
  EXPECT_EQ(parsed(kLine + fields + "\r\n").fields.size(), kMaxFields);
  EXPECT_EQ(refusal(kLine + fields + "X-One-More: v\r\n\r\n"),
            "the request has more than 100 header fields");
}

TEST(HeadLength, FindsTheBlankLineAndNothingBefore) {
  EXPECT_EQ(head_length("GET / HTTP/1.1\r\nA: b\r\n"), 0u);
  const std::string head = "GET / HTTP/1.1\r\nA: b\r\n\r\n";
  EXPECT_EQ(head_length(head + "body"), head.size());
  EXPECT_EQ(head_length("\r\n\r\n"), 0u) << "leading empty lines are not the end of a head";
  EXPECT_EQ(head_length("\r\nGET / HTTP/1.1\r\n\r\n"), 20u);
}

TEST(HeadLength, SearchesOnlyWhatIsNewAcrossPieces) {
  const std::string head = "GET / HTTP/1.1\r\nA: b\r\n\r\n";
  // Fed a byte at a time, with what was already searched: the end is found exactly once, even
  // when the blank line straddles two pieces.
  size_t searched = 0;
  for (size_t n = 1; n <= head.size(); ++n) {
    const size_t found = head_length(std::string_view(head).substr(0, n), searched);
    EXPECT_EQ(found, n == head.size() ? head.size() : 0u) << "after " << n << " bytes";
    searched = n;
  }
}

}  // namespace
}  // namespace opbase::host::http
