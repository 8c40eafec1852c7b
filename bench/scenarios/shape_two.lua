-- scenario: shape_two
-- measures: collection.find {"g":7,"n:$gt":5000}, limit 100, with the pagination total, over one
--           user's 10,000 documents among another user's 10,000 (scan_docs): two conditions on two
--           fields: 100 meet the first, 50 both.
-- plugins: collection, auth
-- setup-hook: shapes.sh
-- setup: shapes.sh seeds scan_docs and warms the automatic indexes on g, n and tags
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.find","collection":"scan_docs","match":{"g":7,"n:$gt":5000},"limit":100}', "s0")
bench.expect_body = '"size":50'
