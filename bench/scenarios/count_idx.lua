-- scenario: count_idx
-- measures: collection.count with a match on the indexed field and a range on an unindexed one,
--           over one user's 100,000 documents: the index selects 1,000, the range is evaluated on
--           each of them.
-- plugins: collection, auth
-- set: datastore.indexes=bench_docs.category
-- setup: count_idx.setup.sh seeds (or reuses) the 1,000,000 documents of find_idx
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.count","collection":"bench_docs","match":{"category":"c7","n:$lt":50000}}', "u4")
bench.expect_body = '{"data":{"count":500}}'
