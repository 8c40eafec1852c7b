-- scenario: ai_vectorize
-- measures: ai.vectorize of 1 KB of English text with the offline provider: the gateway's
--           checks on a worker, the hop to the ai lane, tokenising, SIF-weighted GloVe vectors
--           mapped to 1536 dimensions, and printing 1536 numbers into the answer.
-- plugins: auth, ai
-- setup: ai_vectorize.setup.sh signs user u0 up and in
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

local sentence = "The quick brown fox jumps over the lazy dog near the quiet river bank. "
local text = string.rep(sentence, 14):sub(1, 1024)
bench.user_call('{"op":"ai.vectorize","content":"' .. text .. '"}', "u0")
bench.expect_body = '"dimensions":1536'
