#include "downloads/media_type.hpp"

namespace opbase::file {

std::string media_type_essence(std::string_view content_type) {
  std::string_view essence = content_type.substr(0, content_type.find(';'));
  while (!essence.empty() && (essence.front() == ' ' || essence.front() == '\t')) {
    essence.remove_prefix(1);
  }
  while (!essence.empty() && (essence.back() == ' ' || essence.back() == '\t')) {
    essence.remove_suffix(1);
  }
  std::string lower(essence);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

bool has_media_type(std::string_view essence, std::string_view type) {
  return essence.size() > type.size() + 1 && essence.starts_with(type) &&
         essence[type.size()] == '/';
}

}  // namespace opbase::file
