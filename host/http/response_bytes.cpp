#include <ctime>
#include <optional>

#include "http/exchange.hpp"

namespace opbase::host::http {
namespace {

std::string_view reason_phrase(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 204:
      return "No Content";
    case 206:
      return "Partial Content";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 411:
      return "Length Required";
    case 412:
      return "Precondition Failed";
    case 413:
      return "Content Too Large";
    case 416:
      return "Range Not Satisfiable";
    case 422:
      return "Unprocessable Content";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    default:
      return status < 400 ? "OK" : status < 500 ? "Bad Request" : "Server Error";
  }
}

// The Date header's value, formatted once a second per thread rather than once a response.
const std::string& http_date() {
  thread_local std::time_t formatted_at = 0;
  thread_local std::string text;
  const std::time_t now = std::time(nullptr);
  if (now != formatted_at) {
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buffer[64];
    const size_t n = std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S GMT", &utc);
    text.assign(buffer, n);
    formatted_at = now;
  }
  return text;
}

// The head; without Content-Length when `content_length` is nullopt (a body the close ends).
std::string head_bytes(const Response& response, std::optional<uint64_t> content_length,
                       bool close) {
  std::string out;
  out.reserve(192);
  out += "HTTP/1.1 ";
  out += std::to_string(response.status);
  out += ' ';
  out += reason_phrase(response.status);
  out += "\r\nDate: ";
  out += http_date();
  out += "\r\nServer: opbase\r\nContent-Type: ";
  out += response.content_type;
  out += "\r\n";
  if (content_length) {
    out += "Content-Length: ";
    out += std::to_string(*content_length);
    out += "\r\n";
  }
  for (const auto& [name, value] : response.headers) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  if (close) out += "Connection: close\r\n";
  out += "\r\n";
  return out;
}

}  // namespace

std::string response_head_bytes(const Response& response, uint64_t content_length, bool close) {
  return head_bytes(response, content_length, close);
}

std::string held_head_bytes(const Response& response) {
  return head_bytes(response, std::nullopt, /*close=*/true);
}

std::string response_bytes(const Response& response, bool close, bool head_only) {
  std::string out = response_head_bytes(response, response.body.size(), close);
  if (!head_only) out += response.body;
  return out;
}

}  // namespace opbase::host::http
