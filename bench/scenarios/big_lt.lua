-- scenario: big_lt
-- measures: collection.find {"n:$lt":50000}, limit 100, with the pagination total, over one
--           user's 100,000 documents among 1,000,000 (bench_docs): the oldest half match, so
--           the default order (newest first) meets 50,000 others before the first match.
-- plugins: collection, auth
-- set: datastore.indexes=bench_docs.category
-- setup-hook: big_shapes.sh
-- setup: big_shapes.sh seeds bench_docs and warms the automatic indexes on n and tags
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.find","collection":"bench_docs","match":{"n:$lt":50000},"limit":100}', "u3")
bench.expect_body = '"size":50000'
