#include "stream/sse_frame.hpp"

namespace opbase::realtime {

std::string sse_event(std::string_view id, std::string_view event, std::string_view data_json) {
  std::string out;
  out.reserve(id.size() + event.size() + data_json.size() + 24);
  if (!id.empty()) {
    out += "id: ";
    out += id;
    out += '\n';
  }
  out += "event: ";
  out += event;
  out += "\ndata: ";
  out += data_json;
  out += "\n\n";
  return out;
}

std::string sse_comment(std::string_view text) {
  std::string out = ": ";
  out += text;
  out += "\n\n";
  return out;
}

std::string sse_retry(int64_t ms) { return "retry: " + std::to_string(ms) + "\n\n"; }

}  // namespace opbase::realtime
