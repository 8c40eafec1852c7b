-- scenario: count_scan
-- measures: collection.count {"n:$gt": 5000} over one user's 10,000 documents among another
--           user's 10,000, on a field no index covers: every one of the user's documents is read
--           once. Documents scanned per second of CPU = 10,000 / (cpu us/op) x 1,000,000.
-- plugins: collection, auth
-- setup: count_scan.setup.sh seeds (or reuses) the 20,000 documents of find_scan
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.count","collection":"scan_docs","match":{"n:$gt":5000}}', "s0")
bench.expect_body = '{"data":{"count":4999}}'
