-- scenario: healthz
-- measures: GET /healthz, the cheapest answer the server gives: Poco's HTTP parsing, the router's
--           first string compares, a fixed 15-byte body. No plugin, no JSON, no metrics. This is
--           the ceiling every other scenario is compared with.
-- plugins:
-- setup: none
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

wrk.method = "GET"
wrk.path = "/healthz"
bench.expect_body = '"status":"ok"'
