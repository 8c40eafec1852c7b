-- scenario: find_key_ai_waiting
-- measures: find_key (collection.find by _key) while 64 ai.generate calls wait on a model server
--           that answers each in 2 s (AI_WAITERS), each sent again as soon as it is answered.
--           They wait on the ai plugin's lane, not on the HTTP workers. Run by bench/ai_waiting.sh,
--           which starts the model server and points the daemon at it.
-- plugins: collection, auth, ai
-- setup: find_key_ai_waiting.setup.sh inserts the document and starts the waiting calls
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

local key = bench.state("find_key")
bench.user_call('{"op":"collection.find","collection":"bench_small","match":{"_key":"' .. key .. '"}}', "u0")
bench.expect_body = '"size":1'
