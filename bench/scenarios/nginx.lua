-- scenario: nginx
-- measures: GET /healthz from nginx (Debian's, a worker per core, no access log) returning the
--           same 15-byte body as the daemon's /healthz: the machine's ceiling for any HTTP
--           server, which the daemon's own ceiling and the no-op are compared with by hand (the
--           ratio column is still against the daemon's /healthz).
-- plugins:
-- setup: nginx.setup.sh unpacks and starts nginx on a free port
-- url-state: nginx_url
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

wrk.method = "GET"
wrk.path = "/healthz"
bench.expect_body = '"status":"ok"'
