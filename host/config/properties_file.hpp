// Reads a Java-style properties file: "key = value" or "key=value" lines, '#' or '!' comments,
// blank lines ignored, whitespace around key and value trimmed. No escapes or continuations:
// a line either is a comment, blank, or holds '='. Anything else is an error naming the line.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::host {

using Properties = std::vector<std::pair<std::string, std::string>>;

Result<Properties> parse_properties(std::string_view text, std::string_view file_name);
Result<Properties> read_properties_file(const std::string& path);
// Writes properties (mode 0600, via a temp file and rename, fsynced) — for generated secrets.
Status write_properties_file(const std::string& path, const Properties& properties,
                             std::string_view header_comment);

}  // namespace opbase::host
