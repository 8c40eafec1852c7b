-- scenario: find_key
-- measures: collection.find with match {_key} (the primary key), default sort, with the
--           pagination total: one indexed row read plus the count, and the answer envelope.
-- plugins: collection, auth
-- setup: find_key.setup.sh inserts the document and keeps its _key
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

local key = bench.state("find_key")
bench.user_call('{"op":"collection.find","collection":"bench_small","match":{"_key":"' .. key .. '"}}', "u0")
bench.expect_body = '"size":1'
