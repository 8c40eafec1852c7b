#include "smtp_sink.hpp"

#include <fstream>
#include <memory>

namespace opbase::test {

using nlohmann::json;

const Certificate& test_certificate() {
  static TempDir dir("opbase-cert");
  static const Certificate made = [] {
    Certificate c{dir.path() + "/cert.pem", dir.path() + "/key.pem", false};
    c.ok = run_command({"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-keyout", c.key, "-out", c.cert, "-days", "1", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"},
                       std::chrono::seconds(30));
    return c;
  }();
  return made;
}

SmtpSink::SmtpSink(const SinkOptions& options) {
  if (dir_.path().empty()) return;
  server_ = std::make_unique<ChildServer>(arguments(options), std::chrono::seconds(5));
}

std::vector<json> SmtpSink::messages() const {
  std::vector<json> found;
  for (int n = 1;; ++n) {
    std::ifstream file(dir_.path() + "/" + std::to_string(n) + ".json");
    if (!file) return found;
    found.push_back(json::parse(file, nullptr, false));
  }
}

std::vector<std::string> SmtpSink::arguments(const SinkOptions& options) const {
  std::vector<std::string> args = {
      kSystemPython, std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/support/smtp_sink.py",
      "--dir",       dir_.path(),
      "--lifetime",  "120"};
  if (!options.user.empty()) {
    args.insert(args.end(),
                {"--auth", options.user, options.password, "--mechanisms", options.mechanisms});
  }
  if (options.tls) {
    args.insert(args.end(), {"--tls", test_certificate().cert, test_certificate().key});
  }
  if (options.auth_requires_tls) args.push_back("--auth-requires-tls");
  if (options.silent) args.push_back("--silent");
  return args;
}

}  // namespace opbase::test
