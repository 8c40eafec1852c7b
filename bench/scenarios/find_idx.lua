-- scenario: find_idx
-- measures: collection.find on an indexed field (datastore.indexes=bench_docs.category), limit
--           100, over the 100,000 documents of one user among 1,000,000: the match selects the
--           1,000 documents of one category, which are sorted newest first; the page of 100 and
--           the total (1,000) are answered.
-- plugins: collection, auth
-- set: datastore.indexes=bench_docs.category
-- setup: find_idx.setup.sh seeds 1,000,000 documents (10 users x 100,000)
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.find","collection":"bench_docs","match":{"category":"c42"},"limit":100}', "u3")
bench.expect_body = '"size":1000'
