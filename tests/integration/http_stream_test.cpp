// http_stream_test: the HTTP front's streamed requests (http/exchange.hpp, Stream), the way file
// uploads and downloads use them, on an HttpServer started in this process with a handler of
// the test's own, over real sockets: a body read in pieces as it arrives (10 MB, never held
// whole), Expect: 100-continue, a response written in pieces and one sent from a file with
// sendfile, HEAD, the connection kept for the next request only after a whole exchange, a
// refusal before the body closing the connection, chunked bodies refused with 411, a body with
// two Content-Types refused with 400, a body cut short by a half-close still answered, and a
// client that stops sending cut off after the idle time.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "http/http_server.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using host::http::Handler;
using host::http::Request;
using host::http::RequestHead;
using host::http::Response;
using host::http::Stream;
using namespace std::chrono_literals;

// FNV-1a of the bytes: enough to show every byte arrived in order.
uint64_t fnv(std::string_view bytes, uint64_t hash = 1469598103934665603ull) {
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return hash;
}

std::string pattern(size_t size) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  return bytes;
}

class StreamingHandler final : public Handler {
 public:
  explicit StreamingHandler(std::string file_path) : file_path_(std::move(file_path)) {}

  std::optional<Response> admit(const RequestHead&, std::string_view) const override {
    return std::nullopt;
  }
  void handle(Request&, host::http::Reply reply) const override {
    reply(Response{200, "text/plain", "whole", {}, false});
  }
  Response refuse(int status, const Status& why, const RequestHead*) const override {
    return Response{status, "text/plain", why.message(), {}, false};
  }
  bool streams(const RequestHead& head) const override {
    return head.path().starts_with("/stream/");
  }

  void stream(std::unique_ptr<Stream> stream) const override {
    const std::string_view path = stream->request().head.path();
    if (path == "/stream/upload") return upload(*stream);
    if (path == "/stream/refuse") {
      return stream->respond(Response{403, "text/plain", "no", {}, false});
    }
    if (path == "/stream/pieces") {
      if (stream->start(Response{200, "text/plain", "", {}, false}, 10) && stream->write("01234") &&
          stream->write("56789")) {
        stream->finish();
      }
      return;  // the destructor finishes a stream left unfinished
    }
    if (path == "/stream/file") return send_file(*stream);
    stream->respond(Response{404, "text/plain", "none", {}, false});
  }

  // Largest piece read() gave, over every upload.
  mutable std::atomic<size_t> largest_piece{0};

 private:
  void upload(Stream& stream) const {
    char buffer[65536];
    uint64_t hash = 1469598103934665603ull, total = 0;
    while (true) {
      const int64_t got = stream.read(buffer, sizeof buffer);
      if (got < 0 && stream.body_ended_early()) {  // it stopped sending, and still listens
        return stream.respond(Response{400, "text/plain", "cut short", {}, false});
      }
      if (got < 0) return stream.finish();  // the client is gone: nothing to answer
      if (got == 0) break;
      largest_piece = std::max(largest_piece.load(), static_cast<size_t>(got));
      hash = fnv(std::string_view(buffer, static_cast<size_t>(got)), hash);
      total += static_cast<uint64_t>(got);
    }
    stream.respond(
        Response{200, "text/plain", std::to_string(total) + " " + std::to_string(hash), {}, false});
  }

  void send_file(Stream& stream) const {
    const int fd = ::open(file_path_.c_str(), O_RDONLY | O_CLOEXEC);
    const off_t size = ::lseek(fd, 0, SEEK_END);
    // Bytes 100 to the end, as a Range request would ask.
    const uint64_t length = static_cast<uint64_t>(size) - 100;
    if (stream.start(Response{206, "application/octet-stream", "", {}, false}, length) &&
        stream.send_file(fd, 100, length)) {
      stream.finish();
    }
    ::close(fd);
  }

  std::string file_path_;
};

class HttpStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_path_ = ::testing::TempDir() + "/stream-file-" + std::to_string(::getpid());
    std::FILE* file = std::fopen(file_path_.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    file_bytes_ = pattern(3'000'000);
    std::fwrite(file_bytes_.data(), 1, file_bytes_.size(), file);
    std::fclose(file);
    handler_ = std::make_unique<StreamingHandler>(file_path_);
    host::http::ServerSettings settings;
    settings.host = "127.0.0.1";
    settings.port = 0;
    settings.threads = 4;
    settings.receive_timeout_s = 2;
    settings.max_body_bytes = 1 << 20;  // streamed bodies are not held, so not bounded by it
    server_ = std::make_unique<host::http::HttpServer>(settings, *handler_);
    ASSERT_TRUE(server_->start().is_ok());
    port_ = server_->port();
  }
  void TearDown() override {
    server_->stop(1);
    std::remove(file_path_.c_str());
  }

  std::string file_path_, file_bytes_;
  std::unique_ptr<StreamingHandler> handler_;
  std::unique_ptr<host::http::HttpServer> server_;
  int port_ = 0;
};

std::string body_of(const RawReply& reply) {
  const size_t end = reply.bytes.find("\r\n\r\n");
  return end == std::string::npos ? "" : reply.bytes.substr(end + 4);
}

TEST_F(HttpStreamTest, ABodyLargerThanTheLimitIsReadInPiecesAndTheConnectionKept) {
  const std::string body = pattern(10'000'000);
  RawConnection client(port_);
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(client.send("PUT /stream/upload HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\n\r\n"));
  ASSERT_TRUE(client.send(body));
  const RawReply reply = client.read_response(10s);
  EXPECT_EQ(reply.status(), 200) << reply.bytes.substr(0, 200);
  EXPECT_EQ(body_of(reply), std::to_string(body.size()) + " " + std::to_string(fnv(body)));
  EXPECT_EQ(reply.bytes.find("Connection: close"), std::string::npos);
  EXPECT_LE(handler_->largest_piece.load(), 65536u);
  // The same connection takes the next request, an ordinary one.
  ASSERT_TRUE(client.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n"));
  const RawReply next = client.read_response(5s);
  EXPECT_EQ(next.status(), 200);
  EXPECT_EQ(body_of(next), "whole");
}

TEST_F(HttpStreamTest, TheClientWaitingForContinueGetsItBeforeTheBody) {
  RawConnection client(port_);
  ASSERT_TRUE(
      client.send("PUT /stream/upload HTTP/1.1\r\nHost: x\r\nExpect: "
                  "100-continue\r\nContent-Length: 5\r\n\r\n"));
  // Nothing more is sent until the server asks for the body.
  client.receive_until("100 Continue\r\n\r\n", 5s);
  ASSERT_NE(client.received.find("HTTP/1.1 100 Continue\r\n\r\n"), std::string::npos);
  client.received.erase(0, client.received.find("\r\n\r\n") + 4);
  ASSERT_TRUE(client.send("hello"));
  const RawReply reply = client.read_response(5s);
  EXPECT_EQ(body_of(reply), "5 " + std::to_string(fnv("hello")));
}

TEST_F(HttpStreamTest, AResponseInPiecesAndOneFromAFile) {
  RawConnection client(port_);
  ASSERT_TRUE(client.send("GET /stream/pieces HTTP/1.1\r\nHost: x\r\n\r\n"));
  const RawReply pieces = client.read_response(5s);
  EXPECT_EQ(pieces.status(), 200);
  EXPECT_EQ(body_of(pieces), "0123456789");
  ASSERT_TRUE(client.send("GET /stream/file HTTP/1.1\r\nHost: x\r\n\r\n"));
  const RawReply file = client.read_response(10s);
  EXPECT_EQ(file.status(), 206);
  EXPECT_NE(file.bytes.find("Content-Length: 2999900\r\n"), std::string::npos);
  EXPECT_TRUE(body_of(file) == file_bytes_.substr(100)) << body_of(file).size();
  // HEAD: the head alone, the same length announced, and the connection still usable.
  ASSERT_TRUE(client.send("HEAD /stream/file HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(client.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n"));
  client.receive_until("whole", 5s);
  EXPECT_NE(client.received.find("Content-Length: 2999900\r\n"), std::string::npos);
  EXPECT_EQ(client.received.find(file_bytes_.substr(100, 50)), std::string::npos);
  EXPECT_NE(client.received.find("whole"), std::string::npos);
}

TEST_F(HttpStreamTest, ARefusalBeforeTheBodyClosesTheConnection) {
  RawConnection client(port_);
  ASSERT_TRUE(client.send("PUT /stream/refuse HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"));
  const RawReply reply = client.read_response(5s);
  EXPECT_EQ(reply.status(), 403);
  EXPECT_NE(reply.bytes.find("Connection: close"), std::string::npos);
  EXPECT_TRUE(client.closed_by_server(5s));
}

TEST_F(HttpStreamTest, ChunkedBodiesAreRefused) {
  const RawReply reply =
      raw_exchange(port_,
                   "PUT /stream/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                   "5\r\nhello\r\n0\r\n\r\n");
  EXPECT_EQ(reply.status(), 411);
}

TEST_F(HttpStreamTest, ABodyWithTwoContentTypesIsRefusedBeforeTheHandler) {
  RawConnection client(port_);
  ASSERT_TRUE(
      client.send("PUT /stream/upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                  "Content-Length: 5\r\ncontent-type: text/html\r\n\r\nhello"));
  const RawReply reply = client.read_response(5s);
  EXPECT_EQ(reply.status(), 400);
  EXPECT_EQ(body_of(reply), "the request has more than one Content-Type header");
  EXPECT_TRUE(client.closed_by_server(5s));
  // One type is fine, and a request without a body has none to be unsure of.
  EXPECT_EQ(raw_exchange(port_,
                         "PUT /stream/upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                         "Content-Length: 5\r\nConnection: close\r\n\r\nhello")
                .status(),
            200);
  EXPECT_EQ(raw_exchange(port_,
                         "GET /stream/pieces HTTP/1.1\r\nHost: x\r\nContent-Type: a/b\r\n"
                         "Content-Type: c/d\r\nConnection: close\r\n\r\n")
                .status(),
            200);
}

TEST_F(HttpStreamTest, ABodyCutShortByAHalfCloseIsStillAnswered) {
  // raw_exchange shuts its sending side down (SHUT_WR) after the bytes, and reads on.
  const RawReply reply =
      raw_exchange(port_, "PUT /stream/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" +
                              std::string(10, 'x'));
  EXPECT_EQ(reply.status(), 400);
  EXPECT_EQ(body_of(reply), "cut short");
  EXPECT_NE(reply.bytes.find("Connection: close"), std::string::npos);
  EXPECT_TRUE(reply.closed_by_peer);
}

TEST_F(HttpStreamTest, AClientThatStopsSendingIsCutOffAfterTheIdleTime) {
  RawConnection client(port_);
  ASSERT_TRUE(
      client.send("PUT /stream/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n"));
  ASSERT_TRUE(client.send(std::string(10, 'x')));
  // receive_timeout_s is 2: the upload gives up and the connection is closed unanswered.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(client.closed_by_server(8s));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1500ms);
  EXPECT_EQ(client.received.find("HTTP/1.1 200"), std::string::npos);
  // The server still serves others.
  EXPECT_EQ(
      raw_exchange(port_, "GET /plain HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").status(),
      200);
}

}  // namespace
}  // namespace opbase::test
