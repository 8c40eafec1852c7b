-- scenario: shape_gt
-- measures: collection.find {"n:$gt":5000}, limit 100, with the pagination total, over one user's
--           10,000 documents among another user's 10,000 (scan_docs): a range that half the
--           documents meet, the newest of them first (n grows with the insertion order, so the
--           default order meets the matches at once).
-- plugins: collection, auth
-- setup-hook: shapes.sh
-- setup: shapes.sh seeds scan_docs and warms the automatic indexes on g, n and tags
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.find","collection":"scan_docs","match":{"n:$gt":5000},"limit":100}', "s0")
bench.expect_body = '"size":4999'
