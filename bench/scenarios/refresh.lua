-- scenario: refresh
-- measures: auth.refresh_token: the id token's signature (cached after its first check), the
--           refresh token's SHA-256 compared with the session's, the session rotated by a
--           conditional, durable update, a new ES256 id token signed.
--           Not a static request: a refresh token works once (a second use ends the session), so
--           each connection follows its own chain, sending the tokens the previous answer gave.
--           That needs a Lua request() and response() in the measured run, which cost wrk some
--           CPU (see bench/README.md), so this figure is a little low beside the static ones.
-- plugins: auth
-- setup: refresh.setup.sh signs user r0 in once per connection of every wrk run to come
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.api_call('{}')  -- the path and headers; each body is built by next_request below

local ready = {}  -- token pairs {id, refresh} this thread may send next

-- Each thread takes unused sessions from the pool the setup hook wrote: one per connection, and
-- one more because wrk calls the first thread's request() once before the run to see what it
-- returns, and sends nothing of it.
function init(args)
  local connections = tonumber(bench.env("BENCH_WRK_CONNECTIONS"))
  local threads = tonumber(bench.env("BENCH_WRK_THREADS"))
  local wanted = math.ceil(connections / threads) + 1
  for _, line in ipairs(bench.take_from_pool("refresh_sessions", wanted)) do
    local id, refresh = line:match("^(%S+) (%S+)$")
    table.insert(ready, {id, refresh})
  end
end

local function next_request()
  -- An empty queue means an answer carried no tokens (an error, counted by wrk): send a token
  -- that fails, which keeps the connection busy and is counted too.
  local pair = table.remove(ready) or {"none", "none.none"}
  return wrk.format(nil, nil, nil, '{"op":"auth.refresh_token","refresh_token":"' .. pair[2] ..
                    '","id_token":"' .. pair[1] .. '"}')
end

local function on_answer(status, body)
  if status ~= 200 then return end
  local id = body:match('"id_token":"([^"]+)"')
  local refresh = body:match('"refresh_token":"([^"]+)"')
  if id and refresh then table.insert(ready, {id, refresh}) end
end

bench.chained(next_request, on_answer)
bench.expect_body = '"refresh_token":"'
