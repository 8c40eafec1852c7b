-- scenario: upd_key
-- measures: collection.update strategy 1 (data with _key) with "@counter": "@inc(1)": find the
--           document by key, apply the change, write it back durably, answer it.
-- plugins: collection, auth
-- setup: upd_key.setup.sh inserts the document and keeps its _key
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

local key = bench.state("upd_key")
bench.user_call('{"op":"collection.update","collection":"bench_small","data":{"_key":"' .. key ..
                '","@counter":"@inc(1)"}}', "u0")
bench.expect_body = '"counter":'
