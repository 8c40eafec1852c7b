-- scenario: find_scan
-- measures: collection.find {"g": 7}, limit 100, with the pagination total, over one user's
--           10,000 documents among another user's 10,000, on a field no index covers: every one
--           of the user's documents is read once to answer the page (100) and the total.
-- plugins: collection, auth
-- setup: find_scan.setup.sh seeds the 20,000 documents
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.find","collection":"scan_docs","match":{"g":7},"limit":100}', "s0")
bench.expect_body = '"size":100'
