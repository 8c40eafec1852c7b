-- scenario: shape_count_ne
-- measures: collection.count {"g:$ne": 7} over one user's 10,000 documents (scan_docs): 9,900
--           match.
-- plugins: collection, auth
-- setup-hook: shapes.sh
-- setup: shapes.sh seeds scan_docs and warms the automatic indexes on g, n and tags
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.count","collection":"scan_docs","match":{"g:$ne":7}}', "s0")
bench.expect_body = '{"data":{"count":9900}}'
