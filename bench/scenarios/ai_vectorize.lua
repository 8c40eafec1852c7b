-- scenario: ai_vectorize
-- measures: ai.vectorize of 1 KB of English text with the offline provider: the gateway's
--           checks on a worker, the hop to the ai lane, tokenising, SIF-weighted GloVe vectors
--           mapped to 1536 dimensions, and printing 1536 numbers into the answer. The user's
--           rate limit and daily quota are counted as always (two conditional updates in the
--           store), with limits no run reaches; BENCH_SET="ai.rate_limit=off
--           ai.quota.calls_per_day=0 ai.quota.code_points_per_day=0" measures without them.
-- plugins: auth, ai
-- set: ai.rate_limit=1000000/86400
-- set: ai.quota.calls_per_day=1000000000000
-- set: ai.quota.code_points_per_day=1000000000000
-- setup: ai_vectorize.setup.sh signs user u0 up and in
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

local sentence = "The quick brown fox jumps over the lazy dog near the quiet river bank. "
local text = string.rep(sentence, 14):sub(1, 1024)
bench.user_call('{"op":"ai.vectorize","content":"' .. text .. '"}', "u0")
bench.expect_body = '"dimensions":1536'
