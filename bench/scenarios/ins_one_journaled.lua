-- scenario: ins_one_journaled
-- measures: ins_one with the webhooks plugin loaded and no endpoint: every insert also keeps its
--           document.created event for webhooks in the same transaction (one more row), which
--           the plugin then turns into nothing. Against ins_one, the price of the journal. Not
--           in scenarios.txt: loading webhooks would change every scenario of the run. Run it
--           alone: BENCH_SCENARIOS=ins_one_journaled make bench
-- plugins: collection, auth, webhooks
-- setup: ins_one_journaled.setup.sh signs user u1 up and in
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.insert","collection":"bench_ins","data":{"name":"one","n":1,"tags":["a","b"]}}', "u1")
bench.expect_body = '"_key":'
