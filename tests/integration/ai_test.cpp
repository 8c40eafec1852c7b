// ai_test: the ai plugin over HTTP with the offline provider (docs/api.md#ai-text-operations):
// every op and its baseai.* name, every output and meta field and every request error of
// docs/api.md#ai-text-operations for bad content and options, a signed-in user required, and
// semantic sanity on small labelled sets kept here (sentiment, categories, entities, vectors of
// paraphrases).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;

class Ai : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    DaemonOptions options;
    options.plugins = {"auth", "ai", "probe"};
    // One user makes every call here; ai_limits_test tests the per-user limits.
    options.config = {{"auth.rate.signup_per_address", "off"}, {"ai.rate_limit", "off"}};
    daemon_ = DaemonProcess::start(options).release();
  }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }

  // An op called by a signed-in user.
  static HttpResponse ask(json body) { return daemon_->call(body, daemon_->user("ada").bearer()); }

  // data.output and meta of a successful call.
  static std::pair<json, json> answer(json body) {
    const HttpResponse r = ask(std::move(body));
    EXPECT_EQ(r.status, 200) << r.describe();
    const json parsed = r.json();
    return {parsed["data"]["output"], parsed.value("meta", json())};
  }

  static void expect_error(const HttpResponse& r, int status, std::string_view code) {
    EXPECT_EQ(r.status, status) << r.describe();
    EXPECT_EQ(r.json()["error"]["code"], code) << r.describe();
  }

  static DaemonProcess* daemon_;
};
DaemonProcess* Ai::daemon_ = nullptr;

const std::string kArticle =
    "The city council approved a new budget on Tuesday that doubles spending on public transport. "
    "The plan adds forty electric buses and extends two tram lines to the northern suburbs. "
    "Council members argued for hours about the cost, which reaches 120 million euros over five "
    "years. Mayor Ana Ruiz said the investment would cut traffic and pollution in the centre. "
    "Opposition members warned that property taxes might rise to pay for it. The first buses are "
    "expected to arrive next spring, and the tram works will start in the autumn. Local "
    "businesses welcomed the decision. A cycling group asked for more bike lanes as well.";

TEST_F(Ai, EveryOpNeedsASignedInUser) {
  const HttpResponse r = daemon_->call({{"op", "ai.sentiment"}, {"content", "I love it"}});
  expect_error(r, 401, "AUTHENTICATION_FAILED");
}

TEST_F(Ai, SummarizeAnswersAShorterTextAndItsLengths) {
  auto [output, meta] = answer(
      {{"op", "ai.summarize"}, {"content", kArticle}, {"options", {{"content_length", 40}}}});
  ASSERT_TRUE(output.is_string());
  const std::string summary = output.get<std::string>();
  EXPECT_LT(summary.size(), kArticle.size());
  // Whole sentences of the article, within the target by at most one sentence's length.
  for (size_t at = 0, end; at < summary.size(); at = end + 2) {
    end = summary.find(". ", at);
    if (end == std::string::npos) end = summary.size() - 1;
    EXPECT_NE(kArticle.find(summary.substr(at, end - at + 1)), std::string::npos) << summary;
  }
  EXPECT_LE(std::count(summary.begin(), summary.end(), ' ') + 1, 40 + 20) << summary;
  EXPECT_EQ(meta["original_length"], kArticle.size());  // ASCII: bytes = code points
  EXPECT_EQ(meta["summary_length"], summary.size());
  EXPECT_NEAR(meta["compression_ratio"].get<double>(),
              static_cast<double>(summary.size()) / static_cast<double>(kArticle.size()), 1e-3);
  EXPECT_GE(meta["processing_time_ms"].get<double>(), 0.0);
  EXPECT_EQ(meta["provider"], "offline");
}

TEST_F(Ai, SummarizeHonoursBulletStyle) {
  auto [output, meta] = answer({{"op", "baseai.summarize"},
                                {"content", kArticle},
                                {"options", {{"content_style", "bullet points"}}}});
  EXPECT_EQ(output.get<std::string>().rfind("- ", 0), 0u) << output;
  EXPECT_EQ(meta["style_applied"], "bullet_points");
}

TEST_F(Ai, SentimentLabelsClearReviews) {
  const std::vector<std::string> positive = {
      "I absolutely love this phone, the camera is amazing!",
      "Wonderful service and friendly staff, highly recommended.",
      "The best pizza I have had in years. Fantastic!",
      "Great value, works perfectly and arrived early.", "A delightful, beautifully written book."};
  const std::vector<std::string> negative = {
      "Terrible experience, the product broke after one day.",
      "The staff were rude and the room was dirty. Awful.",
      "Worst purchase ever, a complete waste of money.", "I hate how slow and buggy this app is.",
      "Disappointing and boring film, I regret watching it."};
  int hits = 0;
  for (const std::string& text : positive) {
    auto [output, meta] = answer({{"op", "ai.sentiment"}, {"content", text}});
    hits += output["overall_sentiment"] == "positive";
    EXPECT_GT(output["sentiment_score"].get<double>(), 0.0) << text;
  }
  for (const std::string& text : negative) {
    auto [output, meta] = answer({{"op", "baseai.analyze_sentiment"}, {"content", text}});
    hits += output["overall_sentiment"] == "negative";
    EXPECT_LT(output["sentiment_score"].get<double>(), 0.0) << text;
  }
  EXPECT_GE(hits, 9) << "of 10 labelled reviews";
}

TEST_F(Ai, SentimentHasEveryFieldAndScoresAspects) {
  auto [output, meta] =
      answer({{"op", "ai.sentiment"},
              {"content",
               "The food was delicious, but the service was slow "
               "and the waiter was rude."},
              {"options",
               {{"analysis_depth", "detailed"}, {"specific_aspects", "food, service, price"}}}});
  EXPECT_TRUE(output["overall_sentiment"].is_string());
  const double score = output["sentiment_score"].get<double>();
  EXPECT_GE(score, -1.0);
  EXPECT_LE(score, 1.0);
  EXPECT_TRUE(output["emotional_indicators"].is_object());
  EXPECT_TRUE(output["key_phrases"].is_array());
  EXPECT_TRUE(output["tone_analysis"].is_string());
  EXPECT_EQ(output["aspect_sentiments"]["food"]["sentiment"], "positive");
  EXPECT_EQ(output["aspect_sentiments"]["service"]["sentiment"], "negative");
  EXPECT_EQ(output["aspect_sentiments"]["price"]["sentiment"], "not_mentioned");
  EXPECT_TRUE(meta["analysis_confidence"].is_number());
  EXPECT_TRUE(meta["processing_time_ms"].is_number());
}

TEST_F(Ai, ClassifyPicksObviousCategories) {
  const std::vector<std::pair<std::string, std::string>> labelled = {
      {"The striker scored twice and the team won the championship final.", "sports"},
      {"The central bank raised interest rates as inflation hit markets.", "business"},
      {"The new smartphone chip runs software faster using less battery.", "technology"},
      {"Doctors say regular exercise lowers the risk of heart disease.", "health"},
      {"The senate passed the bill after the president's election promise.", "politics"}};
  int hits = 0;
  for (const auto& [text, category] : labelled) {
    auto [output, meta] = answer({{"op", "ai.classify"}, {"content", text}});
    hits += output["primary_classification"] == category;
    double sum = 0;
    for (const auto& [name, confidence] : output["confidence_scores"].items()) {
      sum += confidence.get<double>();
    }
    EXPECT_NEAR(sum, 1.0, 1e-6);
    EXPECT_TRUE(output["secondary_classifications"].is_array());
    EXPECT_TRUE(output["reasoning"].is_string());
    EXPECT_EQ(meta["classification_method"], "embedding_similarity");
    EXPECT_EQ(meta["confidence_threshold"], 0.3);
  }
  EXPECT_GE(hits, 4) << "of 5 labelled texts";
}

TEST_F(Ai, ClassifyUsesTheCallersCategoriesAndLevel) {
  auto [output, meta] =
      answer({{"op", "baseai.categorize"},
              {"content", "The parcel was shipped by courier and the delivery takes three days."},
              {"options",
               {{"classification_categories", "billing, shipping, returns"},
                {"confidence_level", "high"}}}});
  EXPECT_EQ(output["primary_classification"], "shipping");
  EXPECT_EQ(output["confidence_scores"].size(), 3u);
  EXPECT_EQ(meta["confidence_threshold"], 0.5);
}

TEST_F(Ai, ExtractFindsEachRequestedType) {
  auto [output, meta] =
      answer({{"op", "ai.extract"},
              {"content",
               "Email Maria Lopez at maria.lopez@example.com or call +1 415 555 2671 before "
               "March 15, 2025. She said Initech Corporation in Berlin paid $5 million; see "
               "https://example.org."},
              {"options",
               {{"entity_types",
                 "email, phone, date, money, person, location, "
                 "organization, url"}}}});
  EXPECT_EQ(output["email"][0]["value"], "maria.lopez@example.com");
  EXPECT_EQ(output["phone"][0]["value"], "+14155552671");
  EXPECT_EQ(output["date"][0]["value"], "2025-03-15");
  EXPECT_EQ(output["money"][0]["amount"], 5000000);
  EXPECT_EQ(output["money"][0]["currency"], "USD");
  EXPECT_EQ(output["person"][0]["name"], "Maria Lopez");
  EXPECT_EQ(output["location"][0]["name"], "Berlin");
  EXPECT_EQ(output["organization"][0]["name"], "Initech Corporation");
  EXPECT_EQ(output["url"][0]["value"], "https://example.org");
  EXPECT_EQ(meta["entities_found"], 8);
  EXPECT_TRUE(meta["extraction_confidence"].is_number());
}

TEST_F(Ai, ExtractAnswersAnEmptyArrayPerTypeFoundNowhere) {
  auto [output, meta] = answer({{"op", "baseai.extract_entities"},
                                {"content", "nothing to see here"},
                                {"options", {{"entity_types", "emails,people"}}}});
  EXPECT_EQ(output, json({{"emails", json::array()}, {"people", json::array()}}));
  EXPECT_EQ(meta["entities_found"], 0);
}

TEST_F(Ai, ExtractRefusesAnUnknownType) {
  const HttpResponse r = ask({{"op", "ai.extract"},
                              {"content", "text"},
                              {"options", {{"entity_types", "email, spaceships"}}}});
  expect_error(r, 400, "INVALID_OPTIONS");
  EXPECT_EQ(r.json()["error"]["details"]["unknown"], json({"spaceships"}));
}

TEST_F(Ai, VectorizeAnswersAUnitVectorOf1536) {
  auto [output, meta] = answer({{"op", "ai.vectorize"}, {"content", "a small brown dog"}});
  ASSERT_EQ(output["vector"].size(), 1536u);
  EXPECT_EQ(output["dimensions"], 1536);
  EXPECT_EQ(output["model_version"], "offline-glove-6b-100d-sif-v1");
  double norm = 0;
  for (const json& x : output["vector"]) norm += x.get<double>() * x.get<double>();
  EXPECT_NEAR(std::sqrt(norm), 1.0, 1e-4);
  EXPECT_NEAR(meta["vector_norm"].get<double>(), 1.0, 1e-4);
  EXPECT_EQ(meta["content_length"], 17);
}

TEST_F(Ai, VectorsOfParaphrasesAreCloserThanUnrelatedTexts) {
  auto vector = [](const std::string& text) {
    return answer({{"op", "baseai.vectorize"}, {"content", text}}).first["vector"];
  };
  auto cosine = [](const json& a, const json& b) {
    double dot = 0;
    for (size_t i = 0; i < a.size(); ++i) dot += a[i].get<double>() * b[i].get<double>();
    return dot;
  };
  const std::vector<std::pair<std::string, std::string>> paraphrases = {
      {"The cat sat on the mat.", "A kitten was sitting on the rug."},
      {"He bought a new car yesterday.", "Yesterday he purchased a new automobile."},
      {"The weather is cold and rainy today.", "It is a chilly, wet day."}};
  const std::vector<std::pair<std::string, std::string>> unrelated = {
      {"The cat sat on the mat.", "Interest rates rose again this quarter."},
      {"He bought a new car yesterday.", "The recipe needs two cups of flour."},
      {"The weather is cold and rainy today.", "The software update fixed a security bug."}};
  double related = 0, apart = 0;
  for (const auto& [a, b] : paraphrases) related += cosine(vector(a), vector(b));
  for (const auto& [a, b] : unrelated) apart += cosine(vector(a), vector(b));
  EXPECT_GT(related / 3, apart / 3 + 0.3)
      << "related " << related / 3 << ", unrelated " << apart / 3;
}

TEST_F(Ai, TranslateIntoSpanishWithApertium) {
  auto [output, meta] = answer({{"op", "ai.translate"},
                                {"content", "The house is big."},
                                {"options", {{"target_language", "es"}}}});
  EXPECT_NE(output.get<std::string>().find("casa"), std::string::npos) << output;
  EXPECT_EQ(meta["source_language"], "English");
  EXPECT_EQ(meta["target_language"], "Spanish");
  EXPECT_TRUE(meta["translation_confidence"].is_number());
  EXPECT_EQ(meta["style_applied"], "default");
}

TEST_F(Ai, TranslateIntoGermanNeedsAModelProvider) {
  const HttpResponse r = ask({{"op", "ai.translate"},
                              {"content", "The house is big."},
                              {"options", {{"target_language", "German"}}}});
  expect_error(r, 502, "PROCESSING_FAILED");
  EXPECT_EQ(r.json()["error"]["details"]["retry_recommended"], false);
  EXPECT_TRUE(r.json()["error"]["details"]["error_type"].is_string());
}

TEST_F(Ai, GenerateNeedsAModelProviderAndMakesNoText) {
  const HttpResponse r = ask({{"op", "baseai.create"}, {"user_input", "Write a poem"}});
  expect_error(r, 502, "PROCESSING_FAILED");
  const json details = r.json()["error"]["details"];
  EXPECT_EQ(details["error_type"], "unsupported_offline");
  EXPECT_EQ(details["retry_recommended"], false);
}

TEST_F(Ai, ContentChecks) {
  expect_error(ask({{"op", "ai.summarize"}}), 400, "CONTENT_EMPTY");
  expect_error(ask({{"op", "ai.summarize"}, {"content", ""}}), 400, "CONTENT_EMPTY");
  expect_error(ask({{"op", "ai.summarize"}, {"content", " \n\t\u00a0"}}), 400, "CONTENT_EMPTY");
  expect_error(ask({{"op", "ai.generate"}, {"content", "ignored"}}), 400, "CONTENT_EMPTY");
  expect_error(ask({{"op", "ai.summarize"}, {"content", 42}}), 400, "VALIDATION_ERROR");
  // 50,001 code points, each two bytes: over the limit by code points, not by bytes.
  std::string long_text;
  for (int i = 0; i < 50'001; ++i) long_text += "\xC3\xA9";
  const HttpResponse r = ask({{"op", "ai.sentiment"}, {"content", long_text}});
  expect_error(r, 413, "CONTENT_TOO_LONG");
  EXPECT_EQ(r.json()["error"]["details"]["max_length"], 50000);
  EXPECT_EQ(r.json()["error"]["details"]["provided_length"], 50001);
  // 50,000 code points are fine.
  long_text.resize(100'000);
  EXPECT_EQ(ask({{"op", "ai.vectorize"}, {"content", long_text}}).status, 200);
}

TEST_F(Ai, OptionChecks) {
  const std::string text = "Some text to work on.";
  expect_error(ask({{"op", "ai.summarize"}, {"content", text}, {"options", "short"}}), 400,
               "INVALID_OPTIONS");
  expect_error(
      ask({{"op", "ai.summarize"}, {"content", text}, {"options", {{"content_length", "5"}}}}), 400,
      "INVALID_OPTIONS");
  expect_error(
      ask({{"op", "ai.summarize"}, {"content", text}, {"options", {{"content_length", 0}}}}), 400,
      "INVALID_OPTIONS");
  expect_error(
      ask({{"op", "ai.classify"}, {"content", text}, {"options", {{"confidence_level", "very"}}}}),
      400, "INVALID_OPTIONS");
  expect_error(
      ask({{"op", "ai.sentiment"}, {"content", text}, {"options", {{"analysis_depth", 3}}}}), 400,
      "INVALID_OPTIONS");
  expect_error(ask({{"op", "ai.translate"}, {"content", text}}), 400, "INVALID_OPTIONS");
  expect_error(ask({{"op", "ai.translate"}, {"content", text}, {"options", json::object()}}), 400,
               "INVALID_OPTIONS");
  const HttpResponse klingon = ask(
      {{"op", "ai.translate"}, {"content", text}, {"options", {{"target_language", "Klingon"}}}});
  expect_error(klingon, 422, "INVALID_LANGUAGE");
  const json details = klingon.json()["error"]["details"];
  EXPECT_EQ(details["provided_language"], "Klingon");
  EXPECT_EQ(details["supported_languages"], json({"Spanish", "French", "German", "Japanese",
                                                  "Chinese", "Portuguese", "Italian", "Russian"}));
  // Options vectorize does not read are ignored; null options are none.
  EXPECT_EQ(ask({{"op", "ai.vectorize"}, {"content", text}, {"options", {{"x", 1}}}}).status, 200);
  EXPECT_EQ(ask({{"op", "ai.sentiment"}, {"content", text}, {"options", nullptr}}).status, 200);
}

TEST_F(Ai, EmbedServiceServesOtherPlugins) {
  // The probe plugin calls the service the vdb area uses, as any plugin would.
  const HttpResponse r = daemon_->call({{"op", "probe.call"},
                                        {"service", "ai.embed"},
                                        {"input", {{"texts", {"one dog", "a cat"}}}}});
  ASSERT_EQ(r.status, 200) << r.describe();
  const json data = r.json()["data"];
  ASSERT_EQ(data["vectors"].size(), 2u);
  EXPECT_EQ(data["vectors"][1].size(), 1536u);
  EXPECT_EQ(data["dimensions"], 1536);
  EXPECT_EQ(data["model"], "offline-glove-6b-100d-sif-v1");
  // The same vector as ai.vectorize gives.
  auto [output, meta] = answer({{"op", "ai.vectorize"}, {"content", "a cat"}});
  EXPECT_NEAR(output["vector"][7].get<double>(), data["vectors"][1][7].get<double>(), 1e-6);

  const HttpResponse blank = daemon_->call(
      {{"op", "probe.call"}, {"service", "ai.embed"}, {"input", {{"texts", {"fine", " "}}}}});
  EXPECT_EQ(blank.json()["error"]["code"], "CONTENT_EMPTY") << blank.describe();
  EXPECT_EQ(blank.json()["error"]["details"]["index"], 1);
}

TEST_F(Ai, EmbedServiceRefusesABadInputShape) {
  for (const json& input : {json({{"texts", "one text"}}), json({{"texts", json::array()}}),
                            json({{"text", {"a"}}}), json({{"texts", {"a", 7}}})}) {
    const HttpResponse r =
        daemon_->call({{"op", "probe.call"}, {"service", "ai.embed"}, {"input", input}});
    EXPECT_EQ(r.json()["error"]["code"], "VALIDATION_ERROR") << input << ": " << r.describe();
  }
}

TEST(AiConfiguration, ABadKeyRefusesThePluginNamingIt) {
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"ai.provider.classify", "gpt"},
           {"ai.lane_threads", "0"},
           {"ai.openai.max_retries", "many"},
           {"projects.test.ai.openai.timeout_s", "soon"},
           {"ai.rate_limit", "fast"},
           {"ai.quota.calls_per_day", "-5"}}) {
    DaemonOptions options;
    options.plugins = {"auth", "ai"};
    options.config = {{key, value}};
    auto daemon = DaemonProcess::start(options);
    const HttpResponse ready = daemon->request("GET", "/readyz");
    EXPECT_EQ(ready.status, 503) << key;
    EXPECT_EQ(ready.json()["checks"]["plugins"]["ai"], "refused") << ready.body;
    EXPECT_NE(daemon->log().find(key), std::string::npos) << key << ": " << daemon->log();
  }
}

}  // namespace
}  // namespace opbase::test
