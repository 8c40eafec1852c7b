#include "log/log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "opbase/iso_time.hpp"
#include "util/clock.hpp"

namespace opbase::host::log {
namespace {

std::atomic<int> g_level{static_cast<int>(Level::kInfo)};
std::atomic<int> g_fd{STDERR_FILENO};
std::atomic<bool> g_json{false};

const char* name_of(Level level) {
  switch (level) {
    case Level::kDebug:
      return "DEBUG";
    case Level::kInfo:
      return "INFO ";
    case Level::kWarning:
      return "WARN ";
    case Level::kError:
      return "ERROR";
  }
  return "?    ";
}

const char* json_name_of(Level level) {
  switch (level) {
    case Level::kDebug:
      return "debug";
    case Level::kInfo:
      return "info";
    case Level::kWarning:
      return "warning";
    case Level::kError:
      return "error";
  }
  return "?";
}

// One line per entry: newlines inside a message would let input forge log lines.
void append_on_one_line(std::string& line, std::string_view text) {
  for (char c : text) line += (c == '\n' || c == '\r') ? ' ' : c;
}

// A number as a person reads it: integers without a fraction, others to the microsecond.
std::string number_text(double number) {
  char buffer[32];
  const bool integral = number == static_cast<double>(static_cast<long long>(number));
  std::snprintf(buffer, sizeof buffer, integral ? "%.0f" : "%.3f", number);
  return buffer;
}

std::string text_line(Level level, std::string_view component, std::string_view message,
                      std::initializer_list<Field> fields) {
  std::string line = iso_time(system_now_ms());
  line += ' ';
  line += name_of(level);
  line += " [";
  line += component;
  line += "] ";
  append_on_one_line(line, message);
  for (const Field& field : fields) {
    line += ' ';
    line += field.key;
    line += '=';
    append_on_one_line(line, field.is_number ? number_text(field.number) : field.text);
  }
  line += '\n';
  return line;
}

// Invalid UTF-8 (a message quoting what a client sent) is replaced, so every line parses.
std::string json_line(Level level, std::string_view component, std::string_view message,
                      std::initializer_list<Field> fields) {
  nlohmann::ordered_json entry;
  entry["time"] = iso_time(system_now_ms());
  entry["level"] = json_name_of(level);
  entry["component"] = component;
  entry["message"] = message;
  for (const Field& field : fields) {
    if (field.is_number) {
      entry[std::string(field.key)] = field.number;
    } else {
      entry[std::string(field.key)] = field.text;
    }
  }
  return entry.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + '\n';
}

}  // namespace

void set_level(Level level) { g_level.store(static_cast<int>(level)); }

bool set_file(const std::string& path) {
  // O_APPEND keeps each line whole among writers and works with copy-and-truncate rotation.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
  if (fd < 0) return false;
  g_fd.store(fd);
  return true;
}

bool parse_level(std::string_view text, Level* out) {
  if (text == "debug")
    *out = Level::kDebug;
  else if (text == "info")
    *out = Level::kInfo;
  else if (text == "warning" || text == "warn")
    *out = Level::kWarning;
  else if (text == "error")
    *out = Level::kError;
  else
    return false;
  return true;
}

void set_format(Format format) { g_json.store(format == Format::kJson); }

bool parse_format(std::string_view text, Format* out) {
  if (text == "text") {
    *out = Format::kText;
  } else if (text == "json") {
    *out = Format::kJson;
  } else {
    return false;
  }
  return true;
}

bool enabled(Level level) {
  return static_cast<int>(level) >= g_level.load(std::memory_order_relaxed);
}

void write(Level level, std::string_view component, std::string_view message,
           std::initializer_list<Field> fields) {
  if (!enabled(level)) return;
  const std::string line = g_json.load(std::memory_order_relaxed)
                               ? json_line(level, component, message, fields)
                               : text_line(level, component, message, fields);
  // A single write() per line keeps concurrent lines whole.
  ssize_t ignored = ::write(g_fd.load(std::memory_order_relaxed), line.data(), line.size());
  (void)ignored;
}

}  // namespace opbase::host::log
