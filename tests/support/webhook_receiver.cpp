// WebhookReceiver: the Python receiver in a child process, asked over HTTP with Poco's client;
// verify_signatures() runs node on a temporary JSON file. See webhook_receiver.hpp.
#include "webhook_receiver.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "temp_dir.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using std::chrono::steady_clock;

constexpr const char* kLoopback = "127.0.0.1";

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// A receiver that hung up must make the call fail, not SIGPIPE end the test binary.
void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

// One request to the receiver's control paths; the answer's body, or nothing on any failure
// (transport, status other than 200).
bool control(int port, const std::string& method, const std::string& path, const std::string& body,
             std::string* answer) {
  if (port <= 0) return false;
  ignore_sigpipe();
  try {
    Poco::Net::HTTPClientSession session(kLoopback, static_cast<Poco::UInt16>(port));
    session.setTimeout(Poco::Timespan(10, 0));
    Poco::Net::HTTPRequest request(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
    if (method == Poco::Net::HTTPRequest::HTTP_POST) {
      request.setContentType("application/json");
      request.setContentLength64(static_cast<Poco::Int64>(body.size()));
    }
    session.sendRequest(request) << body;
    Poco::Net::HTTPResponse response;
    std::istream& in = session.receiveResponse(response);
    std::string text;
    Poco::StreamCopier::copyToString(in, text);
    if (response.getStatus() != Poco::Net::HTTPResponse::HTTP_OK) return false;
    if (answer != nullptr) *answer = std::move(text);
    return true;
  } catch (const Poco::Exception&) {
    return false;
  } catch (const std::exception&) {
    return false;
  }
}

Delivery delivery_of(const json& record) {
  Delivery d;
  d.seq = record.value("seq", int64_t{0});
  d.method = record.value("method", "");
  d.path = record.value("path", "");
  d.id = record.value("id", "");
  d.timestamp = record.value("timestamp", "");
  d.signature = record.value("signature", "");
  d.body = record.value("body", "");
  d.body_valid_utf8 = record.value("body_valid_utf8", true);
  if (record.contains("headers") && record["headers"].is_object()) {
    for (const auto& [name, value] : record["headers"].items()) {
      if (value.is_string()) d.headers[lower(name)] = value.get<std::string>();
    }
  }
  d.received_ms = record.value("received_ms", int64_t{0});
  const json& answered = record.contains("answered_ms") ? record["answered_ms"] : json();
  d.answered_ms = answered.is_number_integer() ? answered.get<int64_t>() : 0;
  d.status = record.value("status", 0);
  d.attempt = record.value("attempt", 0);
  d.peer_port = record.value("peer_port", 0);
  return d;
}

// How many records the receiver keeps now, or -1 when it cannot be asked.
int64_t recorded_count(int port) {
  std::string text;
  if (!control(port, "GET", "/_control", "", &text)) return -1;
  const json summary = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return summary.is_object() ? summary.value("count", int64_t{-1}) : -1;
}

}  // namespace

std::string Delivery::header(std::string_view name) const {
  auto it = headers.find(lower(name));
  return it == headers.end() ? std::string() : it->second;
}

bool WebhookReceiver::start(const ReceiverOptions& options) {
  server_.reset();
  const ReceiverBehaviour& b = options.behaviour;
  server_ = std::make_unique<ChildServer>(
      std::vector<std::string>{
          kSystemPython, std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/support/webhook_receiver.py",
          "--fail-first", std::to_string(b.fail_first), "--fail-status",
          std::to_string(b.fail_status), "--status", std::to_string(b.status), "--sleep-ms",
          std::to_string(b.sleep_ms), "--close-first", std::to_string(b.close_first), "--lifetime",
          std::to_string(options.lifetime.count())},
      std::chrono::seconds(5));
  return port() > 0;
}

std::string WebhookReceiver::url(const std::string& path) const {
  return "http://" + std::string(kLoopback) + ":" + std::to_string(port()) + path;
}

std::vector<Delivery> WebhookReceiver::deliveries() const {
  std::vector<Delivery> found;
  std::string text;
  if (!control(port(), "GET", "/_deliveries", "", &text)) return found;
  const json records = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!records.is_array()) return found;
  found.reserve(records.size());
  for (const json& record : records) found.push_back(delivery_of(record));
  return found;
}

std::vector<Delivery> WebhookReceiver::wait_for(size_t count,
                                                std::chrono::milliseconds timeout) const {
  const auto deadline = steady_clock::now() + timeout;
  while (steady_clock::now() < deadline) {
    const int64_t now = recorded_count(port());
    if (now < 0) break;  // the receiver is gone: nothing more will come
    if (static_cast<size_t>(now) >= count) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return deliveries();
}

bool WebhookReceiver::set_behaviour(const ReceiverBehaviour& behaviour) {
  const json body = {{"fail_first", behaviour.fail_first},
                     {"fail_status", behaviour.fail_status},
                     {"status", behaviour.status},
                     {"sleep_ms", behaviour.sleep_ms},
                     {"close_first", behaviour.close_first}};
  return control(port(), "POST", "/_control", body.dump(), nullptr);
}

bool WebhookReceiver::reset() { return control(port(), "POST", "/_control/reset", "{}", nullptr); }

VerifierResult verify_signatures(const std::string& secret,
                                 const std::vector<Delivery>& deliveries) {
  VerifierResult result;
  TempDir dir("opbase-webhook-verify");
  if (dir.path().empty()) return result;
  json entries = json::array();
  for (const Delivery& d : deliveries) {
    entries.push_back({{"secret", secret},
                       {"id", d.id},
                       {"timestamp", d.timestamp},
                       {"signature", d.signature},
                       {"body", d.body}});
  }
  const std::string input = dir.path() + "/entries.json";
  std::ofstream(input) << entries.dump();
  const std::string output = dir.path() + "/output";
  result.exit_code = run_to_file(
      {"node", std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/support/verify_webhook_signatures.mjs",
       input},
      output, std::chrono::seconds(60));
  std::stringstream text;
  text << std::ifstream(output).rdbuf();
  result.output = text.str();
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);) {
    if (line == "ok" || line.starts_with("FAIL ")) result.lines.push_back(line);
  }
  return result;
}

}  // namespace opbase::test
