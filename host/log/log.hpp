// Log: the host's one logger. Lines go to standard error as
// "2026-11-22T10:00:00.123Z INFO  [component] message key=value ...", or with log.format=json as
// one JSON object per line: {"time":..,"level":..,"component":..,"message":.., key: value, ...}.
// Each line is written with a single call so lines from concurrent threads never interleave.
// Never pass secrets (keys, tokens, passwords).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace opbase::host::log {

enum class Level { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };
enum class Format { kText, kJson };

// A named value of a line, for the fields a machine reads (a request's status, its duration).
struct Field {
  Field(std::string_view key, std::string_view text) : key(key), text(text) {}
  Field(std::string_view key, double number) : key(key), number(number), is_number(true) {}
  Field(std::string_view key, int number) : Field(key, static_cast<double>(number)) {}

  std::string_view key;
  std::string_view text;
  double number = 0;
  bool is_number = false;
};

// Lines below `level` are dropped. Set once at start-up.
void set_level(Level level);
// Appends lines to `path` instead of standard error (a detached daemon has none). Set once at
// start-up, before other threads log; returns false with errno set when the file cannot be opened.
bool set_file(const std::string& path);
bool parse_level(std::string_view text, Level* out);
bool enabled(Level level);
// Text (the default) or JSON lines. Set once at start-up.
void set_format(Format format);
bool parse_format(std::string_view text, Format* out);

void write(Level level, std::string_view component, std::string_view message,
           std::initializer_list<Field> fields = {});
inline void debug(std::string_view c, std::string_view m) { write(Level::kDebug, c, m); }
inline void info(std::string_view c, std::string_view m) { write(Level::kInfo, c, m); }
inline void warn(std::string_view c, std::string_view m) { write(Level::kWarning, c, m); }
inline void error(std::string_view c, std::string_view m) { write(Level::kError, c, m); }

}  // namespace opbase::host::log
