// SmtpSink: a real SMTP server for tests (tests/support/smtp_sink.py on Debian's python3-aiosmtpd)
// in a child process. It decodes every message with Python's email package and stores it as
// JSON, so a test reads what a mail reader would; STARTTLS uses test_certificate().
//
//   SmtpSink sink({});
//   ... point mail.smtp.port at sink.port() and send ...
//   std::vector<json> mails = sink.messages();  // {"from","to","subject","text",...}
//
// Thread-safety: messages() may be called from any thread.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "child_server.hpp"
#include "temp_dir.hpp"

namespace opbase::test {

// A self-signed certificate for localhost and 127.0.0.1, made once per binary with openssl.
struct Certificate {
  std::string cert;
  std::string key;
  bool ok = false;
};
const Certificate& test_certificate();

struct SinkOptions {
  std::string user{};  // non-empty: login required with this user and password
  std::string password{};
  std::string mechanisms = "PLAIN,LOGIN";
  bool tls = false;  // offer STARTTLS with test_certificate()
  bool auth_requires_tls = false;
  bool silent = false;  // accept connections and never answer
};

class SmtpSink {
 public:
  explicit SmtpSink(const SinkOptions& options);

  // 0 when the sink did not start.
  int port() const { return server_ ? server_->port() : 0; }

  // The messages received so far, in order.
  std::vector<nlohmann::json> messages() const;

 private:
  std::vector<std::string> arguments(const SinkOptions& options) const;

  TempDir dir_{"opbase-mail"};
  std::unique_ptr<ChildServer> server_;  // after dir_: stops before the folder goes
};

}  // namespace opbase::test
