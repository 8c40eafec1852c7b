// Fuzzes the readers of a model server's answers (plugins/ai/openai/answer_readers.hpp) and the
// prompt template parser: any bytes must give a value or a PROCESSING_FAILED bad_answer, never a
// crash or an exception. Whatever is read must be in the spec's shape: classification scores in
// [0, 1] summing to 1 with the primary and secondary categories among those asked for; a
// sentiment score in [-1, 1], the eight emotions in [0, 1] and exactly the asked aspects; one
// list per asked entity type with non-empty texts; a non-empty translation; as many embeddings as
// texts, all finite and of one length. Every value and message must be valid UTF-8 (dump() would
// throw otherwise), shortened texts must fit their bound and redacted ones lack the secret.
// A failure traps; add the input to tests/unit/ai/openai/openai_test.cpp once fixed.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "openai/answer_readers.hpp"
#include "openai/model_failure.hpp"
#include "openai/output_schemas.hpp"
#include "openai/prompt_template.hpp"

namespace {

using nlohmann::json;
using opbase::Result;
using opbase::Status;

const std::vector<std::string> kCategories = {"a", "b", "Sports"};
const std::vector<std::string> kAspects = {"battery", "screen"};
const std::vector<std::string> kTypes = {"person", "email"};

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// A failure of a reader: bad_answer, a message that is valid UTF-8.
void check_failure(const Status& st) {
  check(st.code() == "PROCESSING_FAILED");
  check(st.details().value("error_type", "") == "bad_answer");
  check(!st.message().empty());
  (void)json(st.message()).dump();  // throws (and so crashes the fuzzer) on invalid UTF-8
}

bool in(double x, double low, double high) { return std::isfinite(x) && x >= low && x <= high; }

bool is_category(const json& name) {
  return name.is_string() && std::find(kCategories.begin(), kCategories.end(),
                                       name.get<std::string>()) != kCategories.end();
}

void check_classification(std::string_view text, double threshold) {
  auto r = opbase::ai::read_classification(text, kCategories, threshold);
  if (!r) return check_failure(r.status());
  const json& out = r->output;
  (void)out.dump();
  check(is_category(out["primary_classification"]));
  double sum = 0;
  check(out["confidence_scores"].size() == kCategories.size());
  for (const auto& [name, score] : out["confidence_scores"].items()) {
    check(score.is_number() && in(score.get<double>(), 0, 1));
    sum += score.get<double>();
  }
  check(std::abs(sum - 1) < 1e-9);
  for (const json& name : out["secondary_classifications"]) {
    check(is_category(name) && name != out["primary_classification"]);
    check(out["confidence_scores"][name.get<std::string>()].get<double>() >= threshold);
  }
  check(out["reasoning"].is_string());
}

void check_sentiment(std::string_view text) {
  auto r = opbase::ai::read_sentiment(text, kAspects);
  if (!r) return check_failure(r.status());
  const json& out = r->output;
  (void)out.dump();
  check(in(out["sentiment_score"].get<double>(), -1, 1));
  check(out["emotional_indicators"].size() == opbase::ai::kEmotions.size());
  for (const auto& [name, score] : out["emotional_indicators"].items()) {
    check(in(score.get<double>(), 0, 1));
  }
  check(out["aspect_sentiments"].size() == kAspects.size());
  for (const std::string& aspect : kAspects) {
    check(in(out["aspect_sentiments"][aspect]["score"].get<double>(), -1, 1));
  }
  check(in(r->meta["analysis_confidence"].get<double>(), 0, 1));
}

void check_extraction(std::string_view text) {
  auto r = opbase::ai::read_extraction(text, kTypes);
  if (!r) return check_failure(r.status());
  (void)r->output.dump();
  check(r->output.size() == kTypes.size());
  for (const std::string& type : kTypes) {
    for (const json& entity : r->output[type]) {
      check(!entity["text"].get<std::string>().empty());
      check(in(entity["confidence"].get<double>(), 0, 1));
    }
  }
  check(in(r->meta["extraction_confidence"].get<double>(), 0, 1));
}

void check_embeddings(std::string_view text, size_t count) {
  auto r = opbase::ai::read_embeddings(text, count);
  if (!r) return check_failure(r.status());
  check(r->vectors.size() == count);
  for (const auto& vector : r->vectors) {
    check(static_cast<int>(vector.size()) == r->dimensions && r->dimensions > 0);
    for (float x : vector) check(std::isfinite(x));
  }
  (void)json(r->model).dump();
}

void check_text_helpers(std::string_view text) {
  const std::string short_text = opbase::ai::shorten(text, 40);
  check(short_text.size() <= 40);
  (void)json(short_text).dump();
  // A key made of the input's first bytes (as letters and digits), put into the text as well.
  std::string secret = "sk-";
  for (char c : text.substr(0, std::min<size_t>(text.size(), 12))) {
    secret += std::isalnum(static_cast<unsigned char>(c)) ? c : 'x';
  }
  const std::string with_key =
      std::string(text) + secret + std::string(text.substr(text.size() / 2));
  check(opbase::ai::redact_secret(with_key, secret).find(secret) == std::string::npos);
  const std::string quoted = opbase::ai::quote_server_text(with_key, secret, 64);
  check(quoted.size() <= 64);
  check(quoted.find(secret) == std::string::npos);
  (void)json(quoted).dump();
}

void check_template(std::string_view text) {
  static const std::set<std::string> names = {"a", "content_length"};
  auto t = opbase::ai::PromptTemplate::parse(text, names, "fuzz");
  if (!t) return check(t.status().code() == "INTERNAL_ERROR");
  (void)t->render({{"a", "x"}});
  (void)t->render({});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const double threshold = size > 0 ? (data[0] % 5) / 4.0 : 0.0;

  auto chat = opbase::ai::read_chat_reply(text);
  if (chat) {
    (void)json(chat->content).dump();
    (void)json(chat->model).dump();
    check_classification(chat->content, threshold);
  } else {
    check(chat.status().code() == "PROCESSING_FAILED");
  }
  auto plain = opbase::ai::read_text_answer(text);
  if (plain) {
    check(!plain->output.get<std::string>().empty());
  } else {
    check_failure(plain.status());
  }
  check_classification(text, threshold);
  check_sentiment(text);
  check_extraction(text);
  auto translation = opbase::ai::read_translation(text);
  if (translation) {
    check(!translation->output.get<std::string>().empty());
    (void)translation->meta.dump();
  } else {
    check_failure(translation.status());
  }
  check_embeddings(text, size > 0 ? data[size - 1] % 4 : 1);
  (void)opbase::ai::read_error_message(text);
  (void)opbase::ai::read_error_code(text);
  check_text_helpers(text);
  check_template(text);
  return 0;
}
