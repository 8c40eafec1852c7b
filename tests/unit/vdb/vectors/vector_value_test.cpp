// A vector given by a client: an array of finite numbers, not all zero, at most kMaxDimensions,
// each refusal naming its reason and component; the unit copy has length 1 and the direction of
// the original; the stored form (float32 little-endian, base64) reads back exactly and refuses
// text of the wrong size; the dot product agrees with a plain double sum at every length.
#include "vectors/vector_value.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "vectors/dot_product.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

std::string reason_of(const json& value) {
  auto read = read_vector(value, "vector");
  EXPECT_FALSE(read.is_ok()) << value;
  if (read.is_ok()) return "";
  EXPECT_EQ(read.status().code(), code::kValidationError);
  EXPECT_EQ(read.status().details()["field"], "vector");
  return read.status().details()["reason"].get<std::string>();
}

TEST(VdbVectorValue, ReadsNumbersAsFloat32) {
  auto read = read_vector(json::parse("[1, -2.5, 3e-2, 0]"), "vector");
  ASSERT_TRUE(read.is_ok()) << read.status().to_string();
  EXPECT_EQ(*read, (std::vector<float>{1.0f, -2.5f, 0.03f, 0.0f}));
}

TEST(VdbVectorValue, RefusesEachBadShapeWithItsReason) {
  EXPECT_EQ(reason_of(json::object()), "not_array");
  EXPECT_EQ(reason_of("[1,2]"), "not_base64");  // text is read as the base64 form
  EXPECT_EQ(reason_of(json::array()), "empty");
  EXPECT_EQ(reason_of(json(std::vector<int>(kMaxDimensions + 1, 1))), "too_many");
  EXPECT_EQ(reason_of(json::parse("[0, 0, 0]")), "zero_norm");
  EXPECT_EQ(reason_of(json::parse("[1e39]")), "not_finite");
  auto bad = read_vector(json::parse("[1, 2, \"3\"]"), "data[4].vector");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_EQ(bad.status().details()["reason"], "not_number");
  EXPECT_EQ(bad.status().details()["index"], 2);
  EXPECT_NE(bad.status().message().find("data[4].vector"), std::string::npos);
  EXPECT_EQ(reason_of(json::parse("[1, null]")), "not_number");
  EXPECT_EQ(reason_of(json::parse("[true]")), "not_number");
}

TEST(VdbVectorValue, TheUnitCopyHasLengthOneAndTheSameDirection) {
  const std::vector<float> v = {3, 4};
  const std::vector<float> u = unit(v);
  EXPECT_NEAR(norm(u), 1.0, 1e-6);
  EXPECT_NEAR(u[0], 0.6, 1e-6);
  EXPECT_NEAR(u[1], 0.8, 1e-6);
}

TEST(VdbVectorValue, TheStoredFormReadsBackExactly) {
  std::mt19937 random(7);
  std::normal_distribution<float> normal;
  std::vector<float> v(1536);
  for (float& x : v) x = normal(random);
  v[0] = -0.0f;
  v[1] = 3.4e38f;
  const std::string text = vector_text(v);
  EXPECT_EQ(text.size(), (1536 * 4 + 2) / 3 * 4);
  auto back = vector_from_text(text, 1536);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(std::memcmp(back->data(), v.data(), v.size() * sizeof(float)), 0);
  EXPECT_FALSE(vector_from_text(text, 1535).has_value());
  EXPECT_FALSE(vector_from_text("not base64!", 2).has_value());
  EXPECT_FALSE(vector_from_text(vector_text(std::vector<float>{1, 2}), 3).has_value());
  EXPECT_FALSE(vector_from_text("", 0).has_value());  // no vector has no component
}

TEST(VdbVectorValue, TheDotProductAgreesWithAPlainSumAtEveryLength) {
  std::mt19937 random(11);
  std::uniform_real_distribution<float> uniform(-1, 1);
  for (size_t n : {1, 7, 31, 32, 33, 100, 1536, 3072}) {
    std::vector<float> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = uniform(random);
      b[i] = uniform(random);
    }
    double expected = 0;
    for (size_t i = 0; i < n; ++i) expected += static_cast<double>(a[i]) * b[i];
    EXPECT_NEAR(dot_product(a.data(), b.data(), n), expected, 1e-4 * std::sqrt(n)) << n;
  }
}

TEST(VdbVectorValue, AVectorMayComeAsBase64OfFloat32) {
  const std::vector<float> given = {0.25f, -1.5f, 3e-8f};
  auto read = read_vector(vector_text(given), "vector");
  ASSERT_TRUE(read.is_ok()) << read.status().to_string();
  EXPECT_EQ(*read, given);
  auto reason = [](const nlohmann::json& value) {
    return read_vector(value, "v").status().details().value("reason", "");
  };
  EXPECT_EQ(reason("not base64!"), "not_base64");
  EXPECT_EQ(reason(""), "not_base64");
  EXPECT_EQ(reason("AAAAAAA="), "not_base64");  // 5 bytes: not whole floats
  EXPECT_EQ(reason(vector_text(std::vector<float>{0, 0})), "zero_norm");
  EXPECT_EQ(reason(vector_text(std::vector<float>(kMaxDimensions + 1, 1))), "too_many");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Status bad = read_vector(vector_text(std::vector<float>{1, nan}), "v").status();
  EXPECT_EQ(bad.details()["reason"], "not_finite");
  EXPECT_EQ(bad.details()["index"], 1);
}

TEST(VdbVectorValue, AFloatPrintsInItsShortestForm) {
  EXPECT_EQ(nlohmann::json(printable(0.1f)).dump(), "0.1");
  EXPECT_EQ(nlohmann::json(printable(-2.5e-7f)).dump(), "-2.5e-07");
  EXPECT_EQ(static_cast<float>(printable(0.7005725502967834f)), 0.7005725502967834f);
  std::mt19937 random(12);
  std::uniform_real_distribution<float> uniform(-1, 1);
  for (int i = 0; i < 1000; ++i) {
    const float x = uniform(random);
    EXPECT_EQ(static_cast<float>(printable(x)), x);  // the same float32 when read back
  }
}

}  // namespace
}  // namespace opbase::vdb
