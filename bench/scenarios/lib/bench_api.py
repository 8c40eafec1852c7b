#!/usr/bin/env python3
"""The benchmarks' set-up calls through the API (stdlib only; any python3 works).

  bench_api.py user <name>  signs up <name>@bench.example.com (once) and writes an id token of a
                            fresh session to BENCH_STATE_DIR/token-<name>, for bench.user_call.
  bench_api.py sessions <name> <n>
                            signs the user in <n> times and prints "<id_token> <refresh_token>"
                            per line: the refresh scenario's sessions (each refresh rotates its
                            token, so every wrk run needs sessions nobody has refreshed yet).
  bench_api.py big          1,000,000 documents in collection "bench_docs": 10 users u0..u9 with
                            100,000 each, field "category" one of 100 values (c0..c99, so a
                            category matches 1,000 documents of one user), "n" a number, a name.
                            Idempotent: a marker in BENCH_STATE_DIR makes a second call a no-op.
  bench_api.py scan         20,000 documents in collection "scan_docs": users s0 and s1 with
                            10,000 each, "g" one of 100 numbers (so {"g": 7} matches 100 of one
                            user's), "n" 0..9999, a name and tags; no index is declared on them.
                            Idempotent like big.
  bench_api.py warm <user> <request json>
                            sends the request as <user> until it answers in under 20 ms (at
                            most 120 s): a field queried a few times gets an automatic index,
                            built in the background, and the scenario measures its steady state.
  bench_api.py indexed5     1,000 documents of user u1 in "bench_ins5" with fields a..e, then
                            three counts on each field, which read all 1,000: the store indexes
                            the five fields by itself (ins_one_idx5 then inserts there).
  bench_api.py people       100,000 accounts p0..p99999@bench.example.com (signed up from 8
                            threads; the admin scenarios run the daemon with cheap password
                            hashing for it) and 100,000 documents in "admin_docs", 1,000 for
                            each of 100 of them. Idempotent like big.
  bench_api.py one <file>   inserts one document for user "u0" in "bench_small" and writes
                            its _key to BENCH_STATE_DIR/<file>.
  bench_api.py rules        the collection rules scenarios' data (docs/api.md#collection-rules):
                            "rules_public", 10,000 documents of user w0 that every signed-in
                            user reads (read rule ["users"]), and "rules_private", 10,000 of each
                            reader r0..r7 under the default rules, "g" one of 100 numbers in
                            both; "rules_shared", 1,000 to-do lists of 10 documents (10 owners
                            with 100 lists each), read rule ["owner", "shared"], each list shared
                            with three users (one writer, two readers) so that each reader
                            r0..r7 sees three lists (30 documents) and the other places name
                            users without accounts; "rules_owned", the same 10,000 documents
                            under the default rules, 30 of them each reader's own. Writes the
                            readers' tokens to BENCH_STATE_DIR/readers, one per line, and warms
                            the automatic indexes the queries earn. Idempotent like big.
Users are real accounts of the auth plugin, signed in with a password; their tokens are real
ES256 id tokens, so every datastore figure includes the token check.
Reads BENCH_URL, BENCH_ENDPOINT_KEY, BENCH_API_KEY and BENCH_STATE_DIR from the environment.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

URL = os.environ["BENCH_URL"] + "/api/" + os.environ["BENCH_ENDPOINT_KEY"]
API_KEY = os.environ["BENCH_API_KEY"]
STATE = os.environ["BENCH_STATE_DIR"]
PASSWORD = "Bench-Pass-1"  # meets the default MEDIUM policy
USERS = 10
PER_USER = 100_000
BATCH = 1000
CATEGORIES = 100


def call(body, token=None, admin=False):
    """One API call: the answer's data; an error answer raises. admin: with the server admin key
    (BENCH_ADMIN_KEY) for admin ops."""
    headers = {"Content-Type": "application/json", "X-API-KEY": API_KEY}
    if token is not None:
        headers["Authorization"] = "Bearer " + token
    if admin:
        headers["X-Admin-Key"] = os.environ["BENCH_ADMIN_KEY"]
    request = urllib.request.Request(URL, data=json.dumps(body).encode(), method="POST",
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            payload = json.loads(answer.read())
    except urllib.error.HTTPError as failed:
        payload = json.loads(failed.read())
    if "error" in payload:
        raise RuntimeError("%s: %s" % (body["op"], payload["error"]))
    return payload["data"]


def email_of(user):
    return user + "@bench.example.com"


def sign_in(user):
    return call({"op": "auth.signin", "grant_type": "password", "email": email_of(user),
                 "password": PASSWORD})


def token_of(user):
    """The user's id token, signing the user up and in the first time."""
    path = os.path.join(STATE, "token-" + user)
    if os.path.exists(path):
        with open(path) as saved:
            return saved.read().strip()
    call({"op": "auth.signup", "email": email_of(user), "password": PASSWORD,
          "display_name": user})
    token = sign_in(user)["id_token"]
    with open(path, "w") as out:
        out.write(token + "\n")
    return token


def print_sessions(user, count):
    token_of(user)  # the account
    for _ in range(count):
        tokens = sign_in(user)
        print(tokens["id_token"], tokens["refresh_token"])


def seed_big():
    marker = os.path.join(STATE, "bench_docs.seeded")
    if os.path.exists(marker):
        return
    started = time.time()
    for user in range(USERS):
        token = token_of("u%d" % user)
        for first in range(0, PER_USER, BATCH):
            docs = [{"name": "doc %d" % i, "category": "c%d" % (i % CATEGORIES), "n": i,
                     "tags": ["t%d" % (i % 7)]} for i in range(first, first + BATCH)]
            call({"op": "collection.insert", "collection": "bench_docs", "data": docs}, token)
    seconds = time.time() - started
    print("seeded %d documents in %.1f s (%.0f documents/s)"
          % (USERS * PER_USER, seconds, USERS * PER_USER / seconds))
    open(marker, "w").close()


def seed_scan():
    marker = os.path.join(STATE, "scan_docs.seeded")
    if os.path.exists(marker):
        return
    for user in ("s0", "s1"):
        token = token_of(user)
        for first in range(0, 10_000, BATCH):
            docs = [{"name": "doc %d" % i, "g": i % 100, "n": i, "tags": ["t%d" % (i % 7)]}
                    for i in range(first, first + BATCH)]
            call({"op": "collection.insert", "collection": "scan_docs", "data": docs}, token)
    open(marker, "w").close()


def seed_people():
    marker = os.path.join(STATE, "people.seeded")
    if os.path.exists(marker):
        return
    from concurrent.futures import ThreadPoolExecutor
    started = time.time()

    def sign_up(first):
        for i in range(first, 100_000, 8):
            call({"op": "auth.signup", "email": email_of("p%d" % i), "password": PASSWORD,
                  "display_name": "p%d" % i})

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(sign_up, range(8)))
    for owner in range(100):
        token = sign_in("p%d" % owner)["id_token"]
        docs = [{"name": "doc %d" % i, "n": i, "owner_no": owner} for i in range(1000)]
        call({"op": "collection.insert", "collection": "admin_docs", "data": docs}, token)
    print("seeded 100,000 accounts and 100,000 documents in %.1f s" % (time.time() - started))
    open(marker, "w").close()


def index_ready(collection, field):
    """Whether the collection's index on field is ready (collection.index.list, an admin op)."""
    listed = call({"op": "collection.index.list", "collection": collection}, admin=True)
    return any(index["field"] == field and index["state"] == "ready"
               for index in listed["indexes"])


def warm(user, request_text):
    """Sends the request until the automatic index on its first condition's field is ready: a
    query fast without one (10,000 documents read in a few milliseconds) earns it all the same,
    since what counts is the documents read."""
    token = token_of(user)
    request = json.loads(request_text)
    field = next(iter(request["match"])).split(":")[0]
    deadline = time.time() + 300
    queries = 0
    while time.time() < deadline:
        call(request, token)
        queries += 1
        if index_ready(request["collection"], field):
            print("index on %s ready after %d queries" % (field, queries))
            return
        time.sleep(0.1)
    raise SystemExit("no index on %s after %d queries in 300 s" % (field, queries))


def seed_indexed5():
    marker = os.path.join(STATE, "bench_ins5.seeded")
    if os.path.exists(marker):
        return
    token = token_of("u1")
    docs = [{"name": "doc %d" % i, "a": i, "b": "b%d" % (i % 10), "c": i % 3 == 0, "d": -i,
             "e": "e%d" % i} for i in range(1000)]
    call({"op": "collection.insert", "collection": "bench_ins5", "data": docs}, token)
    for field, value in (("a", 5), ("b", "b5"), ("c", True), ("d", -5), ("e", "e5")):
        for _ in range(3):
            call({"op": "collection.count", "collection": "bench_ins5", "match": {field: value}},
                 token)
    time.sleep(3)  # the five builds of 1,000 documents each take milliseconds
    open(marker, "w").close()


READERS = ["r%d" % i for i in range(8)]


def insert_all(collection, docs, token):
    for first in range(0, len(docs), BATCH):
        call({"op": "collection.insert", "collection": collection,
              "data": docs[first:first + BATCH]}, token)


def seed_rules():
    marker = os.path.join(STATE, "rules.seeded")
    if os.path.exists(marker):
        return
    started = time.time()
    tokens = {user: token_of(user) for user in READERS + ["w0"] + ["o%d" % i for i in range(10)]}
    keys = {user: call({"op": "auth.verify_id_token", "id_token": token})["_userkey"]
            for user, token in tokens.items() if user in READERS}
    with open(os.path.join(STATE, "readers"), "w") as out:
        out.write("".join(tokens[user] + "\n" for user in READERS))
    shape = lambda i: {"name": "doc %d" % i, "g": i % 100, "n": i}
    call({"op": "collection.rules.update", "collection": "rules_public",
          "rules": {"read": ["users"]}}, admin=True)
    insert_all("rules_public", [shape(i) for i in range(10_000)], tokens["w0"])
    for reader in READERS:
        insert_all("rules_private", [shape(i) for i in range(10_000)], tokens[reader])
    # List l (0..999) is owned by o<l // 100>; its three members are readers for the lists
    # 3r, 3r+1 and 3r+2 of the first 24, and users without accounts for the others.
    members = {}
    for reader_no, reader in enumerate(READERS):
        for l in range(3 * reader_no, 3 * reader_no + 3):
            members.setdefault(l, []).append(keys[reader])
    call({"op": "collection.rules.update", "collection": "rules_shared",
          "rules": {"read": ["owner", "shared"], "update": ["owner", "shared"]}}, admin=True)
    for owner in range(10):
        shared, owned = [], []
        for l in range(100 * owner, 100 * owner + 100):
            names = (members.get(l, []) + ["nobody%04d%d" % (l, k) for k in range(3)])[:3]
            for item in range(10):
                doc = {"name": "list %d item %d" % (l, item), "list": l, "done": item % 2 == 0}
                shared.append(dict(doc, _writers=names[:1], _readers=names[1:]))
                owned.append(doc)
        insert_all("rules_shared", shared, tokens["o%d" % owner])
        # Owner-only: as many documents, 30 of them each reader's own (owner o0 has 240 fewer).
        insert_all("rules_owned", owned[240:] if owner == 0 else owned, tokens["o%d" % owner])
    for reader_no, reader in enumerate(READERS):
        mine = [{"name": "mine %d" % i, "list": 3 * reader_no + i // 10, "done": i % 2 == 0}
                for i in range(30)]
        insert_all("rules_owned", mine, tokens[reader])
    for collection, request in (("rules_public", {"g": 7}), ("rules_private", {"g": 7})):
        warm("r0", json.dumps({"op": "collection.count", "collection": collection,
                               "match": request}))
    print("seeded the rules scenarios in %.1f s" % (time.time() - started))
    open(marker, "w").close()


def seed_one(file_name):
    doc = call({"op": "collection.insert", "collection": "bench_small",
                "data": {"name": "one", "counter": 0, "text": "a small document"}},
               token_of("u0"))[0]
    with open(os.path.join(STATE, file_name), "w") as out:
        out.write(doc["_key"] + "\n")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "user":
        token_of(sys.argv[2])
    elif command == "sessions":
        print_sessions(sys.argv[2], int(sys.argv[3]))
    elif command == "big":
        seed_big()
    elif command == "scan":
        seed_scan()
    elif command == "warm":
        warm(sys.argv[2], sys.argv[3])
    elif command == "indexed5":
        seed_indexed5()
    elif command == "people":
        seed_people()
    elif command == "one":
        seed_one(sys.argv[2])
    elif command == "rules":
        seed_rules()
    else:
        raise SystemExit("bench_api.py: unknown command " + command)
