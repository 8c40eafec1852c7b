-- scenario: find_key_siege
-- measures: find_key (collection.find by _key) while 10,000 idle connections and 1,000 that send
--           a request head one field every 5 s are held against the daemon (SIEGE_IDLE,
--           SIEGE_SLOW), each opened again as soon as the daemon's deadlines close it. The
--           /healthz ceiling of the same run is measured under the siege too.
-- plugins: collection, auth
-- setup: find_key_siege.setup.sh inserts the document and starts the siege
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

local key = bench.state("find_key")
bench.user_call('{"op":"collection.find","collection":"bench_small","match":{"_key":"' .. key .. '"}}', "u0")
bench.expect_body = '"size":1'
