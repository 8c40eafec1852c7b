#include "translate/apertium_translator.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "translate/apertium_stream.hpp"
#include "translate/child_process.hpp"
#include "translate/text_pieces.hpp"
#include "translate/translate_errors.hpp"

namespace opbase::ai {

namespace {

// A line longer than this is cut at sentence ends; a call lends a pipeline for at most this
// much text at a time, so one huge text does not hold it while others wait.
constexpr size_t kMaxPieceBytes = 1000;
constexpr size_t kMaxBatchBytes = 8000;
constexpr int kModeReadTimeoutMs = 10000;
constexpr const char* kPivot = "eng-cat";

struct Route {
  std::string_view code;
  std::string_view direction;  // from Catalan
  std::string_view package;
};

constexpr Route kRoutes[] = {
    {"es", "cat-spa", "apertium-spa-cat"},
    {"fr", "cat-fra", "apertium-fra-cat"},
    {"pt", "cat-por", "apertium-por-cat"},
    {"it", "cat-ita", "apertium-cat-ita"},
};

const Route* route_to(const Language& target) {
  for (const Route& route : kRoutes) {
    if (route.code == target.code) return &route;
  }
  return nullptr;
}

std::string default_search_path() {
  const char* path = std::getenv("PATH");
  return path != nullptr && *path != '\0' ? path : "/usr/local/bin:/usr/bin:/bin";
}

Status unavailable(std::string message) {
  return translation_failure("unavailable", std::move(message), false);
}

Status no_offline_route(const Language& target) {
  const std::string name = target.name.empty() ? target.code : target.name;
  return translation_failure("unsupported_offline",
                             "translation into " + name +
                                 " needs a model provider: no offline (Apertium) translation "
                                 "from English into " +
                                 name +
                                 " exists; configure one with ai.provider.translate = openai",
                             false);
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string trimmed(std::string text) {
  size_t end = text.size();
  while (end > 0 && is_blank(text[end - 1])) --end;
  size_t begin = 0;
  while (begin < end && is_blank(text[begin])) ++begin;
  return text.substr(begin, end - begin);
}

bool has_words(const TextPiece& piece) {
  return piece.translate && count_apertium_words(piece.text) != 0;
}

// The indexes of the next pieces to translate from `*next` on, up to kMaxBatchBytes of text;
// moves `*next` past them.
std::vector<size_t> next_batch(const std::vector<TextPiece>& pieces, size_t* next) {
  std::vector<size_t> batch;
  size_t bytes = 0;
  for (; *next < pieces.size() && bytes < kMaxBatchBytes; ++*next) {
    if (!has_words(pieces[*next])) continue;
    batch.push_back(*next);
    bytes += pieces[*next].text.size();
  }
  return batch;
}

// 1 - unknown / words, in [0, 1], two decimals; a text without words is fully known.
double known_share(size_t words, int unknown) {
  if (words == 0) return 1.0;
  const double known = 1.0 - static_cast<double>(unknown) / static_cast<double>(words);
  return std::round(std::max(0.0, known) * 100.0) / 100.0;
}

// Checks the files a stage reads: its arguments that are absolute paths.
Status check_data_files(const Stage& stage, const std::string& mode_file,
                        const std::string& package) {
  for (size_t i = 1; i < stage.size(); ++i) {
    const std::string& argument = stage[i];
    if (argument.empty() || argument[0] != '/') continue;
    if (access(argument.c_str(), R_OK) != 0) {
      return unavailable("the Apertium data file " + argument + " named in " + mode_file +
                         " is missing: reinstall the Debian package " + package);
    }
  }
  return Status::ok();
}

}  // namespace

ApertiumTranslator::ApertiumTranslator(Settings settings)
    : settings_(std::move(settings)),
      search_path_(settings_.search_path.empty() ? default_search_path() : settings_.search_path),
      environment_(child_environment(search_path_)),
      hops_([] {
        std::vector<Hop> hops = {{kPivot, "apertium-eng-cat", false}};
        for (const Route& route : kRoutes) {
          hops.push_back({std::string(route.direction), std::string(route.package), true});
        }
        return hops;
      }()) {
  for (const Hop& hop : hops_) {
    const Hop* kept = &hop;
    PoolSettings pool;
    pool.name = hop.direction;
    pool.size = settings_.pipelines_per_direction;
    pool.startup_timeout_ms = settings_.startup_timeout_ms;
    pool.idle_stop_ms = settings_.idle_stop_ms;
    pools_.emplace(hop.direction,
                   std::make_unique<PipelinePool>(
                       std::move(pool), [this, kept]() -> Result<std::unique_ptr<ProcessPipeline>> {
                         Result<std::vector<Stage>> stages = stages_for(*kept);
                         if (!stages) return stages.status();
                         return ProcessPipeline::start(kept->direction, *stages, environment_);
                       }));
  }
}

ApertiumTranslator::~ApertiumTranslator() { shutdown(); }

void ApertiumTranslator::shutdown() {
  for (auto& [direction, pool] : pools_) pool->shutdown();
}

bool ApertiumTranslator::supports(const Language& target) const {
  return route_to(target) != nullptr;
}

PipelinePool& ApertiumTranslator::pool_for(const std::string& direction) const {
  return *pools_.at(direction);
}

Result<std::vector<Stage>> ApertiumTranslator::stages_for(const Hop& hop) const {
  std::lock_guard<std::mutex> lock(stages_mutex_);
  const auto known = stages_.find(hop.direction);
  if (known != stages_.end()) return known->second;
  Result<std::vector<Stage>> loaded = load_stages(hop);
  // Kept: the stages, and a missing installation (which only a restart after installing
  // changes). A failure to run apertium-wblank-mode is tried again on the next call.
  if (loaded || translation_error_type(loaded.status()) == "unavailable") {
    stages_.emplace(hop.direction, loaded);
  }
  return loaded;
}

Result<std::vector<Stage>> ApertiumTranslator::load_stages(const Hop& hop) const {
  const std::string mode_file = settings_.modes_dir + "/" + hop.direction + ".mode";
  if (access(mode_file.c_str(), R_OK) != 0) {
    return unavailable("the Apertium mode file " + mode_file +
                       " is missing: install the Debian package " + hop.package);
  }
  const auto tool = find_program("apertium-wblank-mode", search_path_);
  if (!tool) {
    return unavailable("apertium-wblank-mode is not in " + search_path_ +
                       ": install the Debian package apertium");
  }
  Result<std::string> command =
      run_for_output({*tool, "-z", mode_file}, environment_, kModeReadTimeoutMs);
  if (!command) {
    return translation_failure(
        "engine_failed", "cannot read " + mode_file + ": " + command.status().message(), true);
  }
  // $1 is the generator's flag: -g marks unknown words (counted, then dropped), -n does not.
  Result<std::vector<Stage>> stages =
      parse_pipeline(*command, {hop.marks_unknown ? "-g" : "-n", ""});
  if (!stages) return unavailable(mode_file + ": " + stages.status().message());
  for (Stage& stage : *stages) {
    const auto program = find_program(stage[0], search_path_);
    if (!program) {
      return unavailable("the program " + stage[0] + " named in " + mode_file + " is not in " +
                         search_path_ + ": install the Debian package " + hop.package +
                         " and what it depends on");
    }
    stage[0] = *program;
    Status files = check_data_files(stage, mode_file, hop.package);
    if (!files.is_ok()) return files;
  }
  return stages;
}

Result<std::vector<std::string>> ApertiumTranslator::run_hops(
    const std::vector<const Hop*>& hops, std::vector<std::string> messages,
    PipelinePool::Clock::time_point deadline) const {
  for (const Hop* hop : hops) {
    Result<std::vector<std::string>> answers = pool_for(hop->direction).run(messages, deadline);
    if (!answers) return answers.status();
    messages = std::move(*answers);
  }
  return messages;
}

Result<TranslationAnswer> ApertiumTranslator::translate(std::string_view english_text,
                                                        const Language& target) const {
  Result<TranslationAnswer> answer =
      translate_until(english_text, target,
                      PipelinePool::Clock::now() + std::chrono::milliseconds(settings_.timeout_ms));
  if (answer || translation_error_type(answer.status()) != "timeout") return answer;
  return translation_failure(
      "timeout",
      answer.status().message() + " (" + std::to_string(settings_.timeout_ms) + " ms a call)",
      true);
}

Result<TranslationAnswer> ApertiumTranslator::translate_until(
    std::string_view english_text, const Language& target,
    PipelinePool::Clock::time_point deadline) const {
  const Route* route = route_to(target);
  if (route == nullptr) return no_offline_route(target);
  std::vector<const Hop*> hops;
  for (const Hop& hop : hops_) {
    if (hop.direction == kPivot || hop.direction == route->direction) hops.push_back(&hop);
  }
  // Checked first, so that a missing pair is named even for a text with nothing to translate.
  for (const Hop* hop : hops) {
    Result<std::vector<Stage>> stages = stages_for(*hop);
    if (!stages) return stages.status();
  }
  // Both hops start together on first use rather than one after the other.
  for (const Hop* hop : hops) pool_for(hop->direction).start_early();

  const std::vector<TextPiece> pieces = split_for_translation(english_text, kMaxPieceBytes);
  std::vector<std::string> translated(pieces.size());
  TranslationAnswer answer;
  answer.route = std::string(kPivot) + "|" + std::string(route->direction);
  for (size_t next = 0; next < pieces.size();) {
    const std::vector<size_t> batch = next_batch(pieces, &next);
    if (batch.empty()) continue;
    std::vector<std::string> messages;
    for (const size_t index : batch) messages.push_back(to_stream(pieces[index].text));
    Result<std::vector<std::string>> answers = run_hops(hops, std::move(messages), deadline);
    if (!answers) return answers.status();
    for (size_t i = 0; i < batch.size(); ++i) {
      StreamText plain = from_stream((*answers)[i]);
      translated[batch[i]] = trimmed(std::move(plain.text));
      answer.unknown_words += plain.unknown_marks;
    }
  }
  for (size_t i = 0; i < pieces.size(); ++i) {
    answer.text += has_words(pieces[i]) ? translated[i] : std::string(pieces[i].text);
  }
  answer.confidence = known_share(count_apertium_words(english_text), answer.unknown_words);
  return answer;
}

Status ApertiumTranslator::warm_up() const {
  for (const Route& route : kRoutes) {
    const auto deadline =
        PipelinePool::Clock::now() + std::chrono::milliseconds(settings_.startup_timeout_ms);
    Result<TranslationAnswer> answer =
        translate_until("Hello.", Language{"", std::string(route.code)}, deadline);
    if (!answer) return answer.status();
  }
  return Status::ok();
}

}  // namespace opbase::ai
