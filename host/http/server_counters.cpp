#include "http/server_counters.hpp"

#include <string_view>

namespace opbase::host::http {
namespace {

// Appends Prometheus text: a family's HELP and TYPE lines, and its samples.
class MetricsText {
 public:
  void family(std::string_view name, std::string_view type, std::string_view help) {
    text_.append("# HELP ").append(name).append(" ").append(help).append("\n");
    text_.append("# TYPE ").append(name).append(" ").append(type).append("\n");
  }
  template <typename Value>
  void sample(std::string_view series, Value value) {
    text_.append(series).append(" ").append(std::to_string(value)).append("\n");
  }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
};

void connection_series(const ServerCounters& c, MetricsText& out) {
  out.family("opbase_http_connections_open", "gauge", "Client connections open now.");
  out.sample("opbase_http_connections_open", c.open.load());
  out.family("opbase_http_connections_total", "counter", "Client connections accepted.");
  out.sample("opbase_http_connections_total", c.accepted.load());
}

void limit_series(const ServerCounters& c, MetricsText& out) {
  out.family("opbase_http_refused_total", "counter",
             "Connections and requests refused for a limit.");
  out.sample("opbase_http_refused_total{reason=\"server_full\"}", c.refused_server_full.load());
  out.sample("opbase_http_refused_total{reason=\"address_full\"}", c.refused_address_full.load());
  out.sample("opbase_http_refused_total{reason=\"busy\"}", c.refused_busy.load());
  out.family("opbase_http_timeouts_total", "counter", "Connections closed for a deadline.");
  out.sample("opbase_http_timeouts_total{phase=\"idle\"}", c.timed_out_idle.load());
  out.sample("opbase_http_timeouts_total{phase=\"request\"}", c.timed_out_request.load());
  out.sample("opbase_http_timeouts_total{phase=\"send\"}", c.timed_out_send.load());
}

void request_series(const ServerCounters& c, MetricsText& out) {
  out.family("opbase_http_malformed_total", "counter", "Requests refused as malformed HTTP.");
  out.sample("opbase_http_malformed_total", c.malformed.load());
  out.family("opbase_http_inflight_body_bytes", "gauge", "Bytes of request bodies held now.");
  out.sample("opbase_http_inflight_body_bytes", c.inflight_body_bytes.load());
}

void held_series(const ServerCounters& c, MetricsText& out) {
  out.family("opbase_http_held_open", "gauge", "Responses held open now (event streams).");
  out.sample("opbase_http_held_open", c.held_open.load());
  out.family("opbase_http_held_too_slow_total", "counter",
             "Held responses ended because their client read too slowly.");
  out.sample("opbase_http_held_too_slow_total", c.held_too_slow.load());
}

}  // namespace

std::string metrics_text(const ServerCounters& counters) {
  MetricsText out;
  connection_series(counters, out);
  limit_series(counters, out);
  request_series(counters, out);
  held_series(counters, out);
  return out.take();
}

}  // namespace opbase::host::http
