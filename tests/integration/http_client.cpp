// http_client: Poco's HTTPClientSession and StreamSocket, wrapped so that tests see plain
// values and never an exception. See http_client.hpp.
#include "http_client.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/StreamCopier.h>
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <mutex>

namespace opbase::test {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kLoopback = "127.0.0.1";

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

Poco::Timespan timespan_of(std::chrono::milliseconds ms) {
  return Poco::Timespan(static_cast<Poco::Timespan::TimeDiff>(ms.count()) * 1000);
}

// Writing to a connection the daemon already closed (a refused oversized body, say) must be a
// failed call, not SIGPIPE killing the test binary. The daemon's own disposition is restored in
// the child before exec (daemon_process.cpp).
void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

// Chunked bodies go out in several small chunks, so the server sees a real chunked stream.
void write_body(std::ostream& out, const std::string& body, BodyEncoding encoding) {
  if (encoding == BodyEncoding::kContentLength) {
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
    return;
  }
  constexpr size_t kChunk = 4096;
  for (size_t at = 0; at < body.size() && out; at += kChunk) {
    out.write(body.data() + at, static_cast<std::streamsize>(std::min(kChunk, body.size() - at)));
    out.flush();
  }
}

Poco::Net::HTTPRequest make_request(const std::string& method, const std::string& path,
                                    const std::string& body, const Headers& headers,
                                    BodyEncoding encoding) {
  Poco::Net::HTTPRequest request(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
  request.setKeepAlive(true);
  if (encoding == BodyEncoding::kChunked) {
    request.setChunkedTransferEncoding(true);
  } else if (!body.empty() || method == Poco::Net::HTTPRequest::HTTP_POST) {
    request.setContentLength64(static_cast<Poco::Int64>(body.size()));
  }
  for (const auto& [name, value] : headers) request.set(name, value);
  return request;
}

HttpResponse exchange(Poco::Net::HTTPClientSession& session, const std::string& method,
                      const std::string& path, const std::string& body, const Headers& headers,
                      BodyEncoding encoding) {
  ignore_sigpipe();
  HttpResponse out;
  try {
    Poco::Net::HTTPRequest request = make_request(method, path, body, headers, encoding);
    write_body(session.sendRequest(request), body, encoding);
    Poco::Net::HTTPResponse response;
    std::istream& in = session.receiveResponse(response);
    out.status = static_cast<int>(response.getStatus());
    for (const auto& [name, value] : response) out.headers[lower(name)] = value;
    Poco::StreamCopier::copyToString(in, out.body);
  } catch (const Poco::Exception& e) {
    out.status = 0;
    out.error = e.displayText();
    session.reset();  // a half-used connection is no use for the next request
  } catch (const std::exception& e) {
    out.status = 0;
    out.error = e.what();
    session.reset();
  }
  return out;
}

std::unique_ptr<Poco::Net::HTTPClientSession> make_session(int port,
                                                           std::chrono::milliseconds timeout) {
  auto session =
      std::make_unique<Poco::Net::HTTPClientSession>(kLoopback, static_cast<Poco::UInt16>(port));
  session->setTimeout(timespan_of(timeout));
  session->setKeepAlive(true);
  return session;
}

}  // namespace

nlohmann::json HttpResponse::json() const {
  auto parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    ADD_FAILURE() << "the response body is not JSON: " << describe();
    return nullptr;
  }
  return parsed;
}

std::string HttpResponse::header(std::string_view name) const {
  auto it = headers.find(lower(name));
  return it == headers.end() ? std::string() : it->second;
}

bool HttpResponse::has_header(std::string_view name) const {
  return headers.count(lower(name)) > 0;
}

std::string HttpResponse::error_code() const {
  const nlohmann::json body = nlohmann::json::parse(this->body, nullptr, false);
  if (!body.is_object() || !body.contains("error") || !body["error"].is_object()) return "OK";
  return body["error"].value("code", "");
}

std::string HttpResponse::describe() const {
  std::string text = "HTTP " + std::to_string(status);
  if (!error.empty()) text += " (transport error: " + error + ")";
  text += " body: " + body.substr(0, 600);
  if (body.size() > 600) text += "...";
  return text;
}

Client::Client(int port, std::chrono::milliseconds timeout)
    : session_(make_session(port, timeout)) {}

Client::~Client() = default;

HttpResponse Client::send(const std::string& method, const std::string& path,
                          const std::string& body, const Headers& headers, BodyEncoding encoding) {
  return exchange(*session_, method, path, body, headers, encoding);
}

void Client::reset() { session_->reset(); }

HttpResponse http_request(int port, const std::string& method, const std::string& path,
                          const std::string& body, const Headers& headers, BodyEncoding encoding,
                          std::chrono::milliseconds timeout) {
  auto session = make_session(port, timeout);
  session->setKeepAlive(false);
  return exchange(*session, method, path, body, headers, encoding);
}

int RawReply::status() const {
  // "HTTP/1.1 400 Bad Request": the three digits after the first space.
  if (!bytes.starts_with("HTTP/")) return 0;
  const auto space = bytes.find(' ');
  if (space == std::string::npos || bytes.size() < space + 4) return 0;
  int code = 0;
  for (size_t i = space + 1; i < space + 4; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(bytes[i]))) return 0;
    code = code * 10 + (bytes[i] - '0');
  }
  return code;
}

namespace {

std::chrono::milliseconds remaining(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return std::max(left, std::chrono::milliseconds(1));
}

void send_all(Poco::Net::StreamSocket& socket, std::string_view bytes, Clock::time_point deadline) {
  size_t sent = 0;
  while (sent < bytes.size() && Clock::now() < deadline) {
    socket.setSendTimeout(timespan_of(remaining(deadline)));
    const size_t piece = std::min<size_t>(bytes.size() - sent, 64 * 1024);
    const int n = socket.sendBytes(bytes.data() + sent, static_cast<int>(piece));
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
}

// Reads until the peer closes (or resets) the connection, or the deadline.
void read_until_closed(Poco::Net::StreamSocket& socket, RawReply& reply,
                       Clock::time_point deadline) {
  char buffer[8192];
  while (Clock::now() < deadline) {
    try {
      socket.setReceiveTimeout(timespan_of(remaining(deadline)));
      const int n = socket.receiveBytes(buffer, sizeof buffer);
      if (n <= 0) {
        reply.closed_by_peer = true;
        return;
      }
      reply.bytes.append(buffer, static_cast<size_t>(n));
    } catch (const Poco::TimeoutException&) {
      return;
    } catch (const Poco::Net::ConnectionResetException&) {
      reply.closed_by_peer = true;
      return;
    }
  }
}

}  // namespace

RawReply raw_exchange(int port, std::string_view bytes, std::chrono::milliseconds timeout,
                      bool half_close) {
  ignore_sigpipe();
  RawReply reply;
  const auto deadline = Clock::now() + timeout;
  try {
    Poco::Net::StreamSocket socket;
    socket.connect(Poco::Net::SocketAddress(kLoopback, static_cast<Poco::UInt16>(port)),
                   timespan_of(timeout));
    reply.connected = true;
    try {
      send_all(socket, bytes, deadline);
      if (half_close) socket.shutdownSend();
    } catch (const Poco::Exception& e) {
      // The server may have responded and closed before taking all of it: still read the response.
      reply.error = "send: " + e.displayText();
    }
    read_until_closed(socket, reply, deadline);
  } catch (const Poco::Exception& e) {
    reply.error += (reply.error.empty() ? "" : "; ") + e.displayText();
  }
  return reply;
}

bool accepts_connections(int port, std::chrono::milliseconds timeout) {
  try {
    Poco::Net::StreamSocket socket;
    socket.connect(Poco::Net::SocketAddress(kLoopback, static_cast<Poco::UInt16>(port)),
                   timespan_of(timeout));
    socket.close();
    return true;
  } catch (const Poco::Exception&) {
    return false;
  }
}

// ---- RawConnection ----

namespace {

// Waits at most `timeout` for `fd` to be readable (or closed); false on time-out.
bool wait_readable(int fd, std::chrono::milliseconds timeout) {
  pollfd p{fd, POLLIN, 0};
  int ready;
  do {
    ready = ::poll(&p, 1, static_cast<int>(timeout.count()));
  } while (ready < 0 && errno == EINTR);
  return ready > 0;
}

// The length of a whole response at the start of `bytes` (head and Content-Length body), or 0.
size_t whole_response_length(const std::string& bytes) {
  const size_t head_end = bytes.find("\r\n\r\n");
  if (head_end == std::string::npos) return 0;
  size_t length = 0;
  const std::string head = lower(bytes.substr(0, head_end));
  if (const size_t at = head.find("\r\ncontent-length:"); at != std::string::npos) {
    length = std::stoul(head.substr(at + 17));
  }
  const size_t total = head_end + 4 + length;
  return bytes.size() >= total ? total : 0;
}

}  // namespace

RawConnection::RawConnection(int port, const std::string& source,
                             std::chrono::milliseconds timeout) {
  ignore_sigpipe();
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  if (!source.empty()) {
    sockaddr_in from{};
    from.sin_family = AF_INET;
    ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0) {
      ::close(fd);
      return;
    }
  }
  timeval tv{static_cast<time_t>(timeout.count() / 1000),
             static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, kLoopback, &to.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    ::close(fd);
    return;
  }
  fd_ = fd;
}

RawConnection::~RawConnection() { close(); }

void RawConnection::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool RawConnection::send(std::string_view bytes) {
  while (fd_ >= 0 && !bytes.empty()) {
    const ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return fd_ >= 0;
}

RawReply RawConnection::read_response(std::chrono::milliseconds timeout) {
  RawReply reply;
  reply.connected = fd_ >= 0;
  const auto deadline = Clock::now() + timeout;
  char buffer[16384];
  while (fd_ >= 0 && whole_response_length(received) == 0 && Clock::now() < deadline) {
    if (!wait_readable(fd_, remaining(deadline))) break;
    const ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
    if (got <= 0) {
      reply.closed_by_peer = true;
      break;
    }
    received.append(buffer, static_cast<size_t>(got));
  }
  const size_t whole = whole_response_length(received);
  const size_t take = whole ? whole : received.size();
  reply.bytes = received.substr(0, take);
  received.erase(0, take);
  return reply;
}

bool RawConnection::receive_until(std::string_view text, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  char buffer[16384];
  // Looked for again after each read, so it returns as soon as the text is in.
  while (received.find(text) == std::string::npos && fd_ >= 0 && Clock::now() < deadline) {
    if (!wait_readable(fd_, remaining(deadline))) break;
    const ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
    if (got <= 0) break;
    received.append(buffer, static_cast<size_t>(got));
  }
  return received.find(text) != std::string::npos;
}

bool RawConnection::closed_by_server(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  char buffer[16384];
  while (fd_ >= 0 && Clock::now() < deadline) {
    if (!wait_readable(fd_, remaining(deadline))) return false;
    const ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
    if (got <= 0) return true;
    received.append(buffer, static_cast<size_t>(got));
  }
  return false;
}

}  // namespace opbase::test
