-- scenario: count_range
-- measures: collection.count with a range on "n", a field nobody declared, over one user's
--           100,000 documents among 1,000,000: 1,000 match. The set-up queries it until the
--           store has indexed "n" by itself, so this is the steady state of a field queried a
--           few times: the count is read from the automatic index.
-- plugins: collection, auth
-- set: datastore.indexes=bench_docs.category
-- setup: count_range.setup.sh seeds (or reuses) the 1,000,000 documents of find_idx and warms
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.count","collection":"bench_docs","match":{"n:$gte":50000,"n:$lt":51000}}', "u3")
bench.expect_body = '{"data":{"count":1000}}'
