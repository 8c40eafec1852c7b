-- scenario: find_sort
-- measures: collection.find with an empty match sorted by "n desc", limit 10, over one user's
--           10,000 documents of scan_docs: the store indexes "n" by itself after the warm-up's
--           first queries, then reads the index in order and only the ten documents answered.
-- plugins: collection, auth
-- setup: find_sort.setup.sh seeds (or reuses) the 20,000 documents of find_scan
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.find","collection":"scan_docs","match":{},"sort":"n desc","limit":10}', "s0")
bench.expect_body = '"size":10'
