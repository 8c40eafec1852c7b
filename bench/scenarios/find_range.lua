-- scenario: find_range
-- measures: collection.find with a range on "n", a field nobody declared, limit 100, over one
--           user's 100,000 documents among 1,000,000: 100 match, newest first. Warmed like
--           count_range, so the automatic index on "n" selects them.
-- plugins: collection, auth
-- set: datastore.indexes=bench_docs.category
-- setup: find_range.setup.sh seeds (or reuses) the 1,000,000 documents of find_idx and warms
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.find","collection":"bench_docs","match":{"n:$gte":50000,"n:$lt":50100},"limit":100}', "u3")
bench.expect_body = '"size":100'
