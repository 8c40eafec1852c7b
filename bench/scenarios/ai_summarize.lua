-- scenario: ai_summarize
-- measures: ai.summarize of 10 KB of English text (92 sentences) with the offline provider:
--           sentence splitting, stemming, TF-IDF, TextRank and the selection; its p99 is the
--           figure the issue's target (under 20 ms) is about.
-- plugins: auth, ai
-- set: ai.rate_limit=1000000/86400
-- set: ai.quota.calls_per_day=1000000000000
-- set: ai.quota.code_points_per_day=1000000000000
-- setup: ai_summarize.setup.sh signs user u0 up and in
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

local sentences = {
  "The city council approved a new budget on Tuesday that doubles spending on public transport.",
  "The plan adds forty electric buses and extends two tram lines to the northern suburbs.",
  "Council members argued for hours about the cost, which reaches a large sum over five years.",
  "The mayor said the investment would cut traffic and pollution in the centre of the city.",
  "Opposition members warned that property taxes might rise to pay for the whole programme.",
  "The first buses are expected to arrive next spring, and the tram works start in autumn.",
  "Local businesses welcomed the decision, saying customers would find the shops more easily.",
  "A cycling group asked for more bike lanes and safer crossings near the schools as well.",
}
local parts = {}
local size, i = 0, 0
while size < 10240 do
  local s = sentences[(i % #sentences) + 1] .. " Item " .. i .. " of the report. "
  parts[#parts + 1] = s
  size = size + #s
  i = i + 1
end
bench.user_call('{"op":"ai.summarize","content":"' .. table.concat(parts):sub(1, 10240) .. '"}', "u0")
bench.expect_body = '"compression_ratio"'
