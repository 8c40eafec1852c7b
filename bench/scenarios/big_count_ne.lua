-- scenario: big_count_ne
-- measures: collection.count {"category:$ne":"c7"} over one user's 100,000 documents among
--           1,000,000 (bench_docs): 99,000 match.
-- plugins: collection, auth
-- set: datastore.indexes=bench_docs.category
-- setup-hook: big_shapes.sh
-- setup: big_shapes.sh seeds bench_docs and warms the automatic indexes on n and tags
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.count","collection":"bench_docs","match":{"category:$ne":"c7"}}', "u3")
bench.expect_body = '{"data":{"count":99000}}'
