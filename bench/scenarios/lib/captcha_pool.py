"""Solved captchas for the captcha_insert scenario (bench/scenarios/captcha_insert.lua).

Fetches challenges from the bench daemon (captcha.challenge) on a few kept-alive connections,
solves each (the daemon runs with captcha.maxnumber=10, so a few hashes do), and writes
$BENCH_STATE_DIR/captcha_pool, one anonymous insert body per line, and captcha_pool.rate, the
solutions a wrk run takes per second of its length (BENCH_CAPTCHA_RATE, default 12000): enough
for every warm-up (BENCH_WARMUP_S) and measurement (BENCH_DURATION_S) of BENCH_CONNECTIONS and
BENCH_ROUNDS.
"""
import base64
import hashlib
import http.client
import json
import os
import threading
import urllib.parse

URL = urllib.parse.urlparse(os.environ["BENCH_URL"])
PATH = "/api/" + os.environ["BENCH_ENDPOINT_KEY"]
HEADERS = {"X-API-KEY": os.environ["BENCH_API_KEY"], "Content-Type": "application/json"}
STATE = os.environ["BENCH_STATE_DIR"]
FETCHERS = 4


def solved_body(challenge):
    salt = challenge["salt"]
    number = next(n for n in range(challenge["maxnumber"] + 1)
                  if hashlib.sha256((salt + str(n)).encode()).hexdigest() == challenge["challenge"])
    payload = {"algorithm": "SHA-256", "challenge": challenge["challenge"], "number": number,
               "salt": salt, "signature": challenge["signature"]}
    token = base64.b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode()
    return json.dumps({"op": "collection.insert", "collection": "guestbook",
                       "data": {"text": "a visitor's message"}, "captcha": token},
                      separators=(",", ":"))


def fetch(count, out):
    connection = http.client.HTTPConnection(URL.hostname, URL.port, timeout=60)
    body = json.dumps({"op": "captcha.challenge"})
    for _ in range(count):
        connection.request("POST", PATH, body, HEADERS)
        answer = json.loads(connection.getresponse().read())
        if "data" not in answer:
            raise SystemExit("captcha.challenge failed: %s" % answer)
        out.append(solved_body(answer["data"]))
    connection.close()


def main():
    rate = int(os.environ.get("BENCH_CAPTCHA_RATE", "12000"))
    seconds = int(os.environ["BENCH_DURATION_S"]) + int(os.environ["BENCH_WARMUP_S"])
    points = len(os.environ["BENCH_CONNECTIONS"].split()) * int(os.environ["BENCH_ROUNDS"])
    wanted = rate * seconds * points
    results = [[] for _ in range(FETCHERS)]
    threads = [threading.Thread(target=fetch, args=(wanted // FETCHERS + 1, results[i]))
               for i in range(FETCHERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = [line for part in results for line in part]
    with open(os.path.join(STATE, "captcha_pool"), "w") as out:
        out.write("\n".join(lines) + "\n")
    with open(os.path.join(STATE, "captcha_pool.rate"), "w") as out:
        out.write("%d\n" % rate)
    print("captcha pool: %d solved challenges, %d per second of a wrk run" % (len(lines), rate))


if __name__ == "__main__":
    main()
