-- scenario: shape_lt
-- measures: collection.find {"n:$lt":5000}, limit 100, with the pagination total, over one user's
--           10,000 documents among another user's 10,000 (scan_docs): a range that half the
--           documents meet, the oldest half: the default order (newest first) meets 5,000 others
--           before the first match.
-- plugins: collection, auth
-- setup-hook: shapes.sh
-- setup: shapes.sh seeds scan_docs and warms the automatic indexes on g, n and tags
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.find","collection":"scan_docs","match":{"n:$lt":5000},"limit":100}', "s0")
bench.expect_body = '"size":5000'
