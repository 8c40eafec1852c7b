#!/usr/bin/python3
"""A scripted mongod for the mongodb driver's wire tests (tests/unit/host/store/mongo/mongo_driver_test.cpp).

Listens on 127.0.0.1 on a free port and prints "PORT <n>" as the first line on stdout. It
answers the handshake and monitoring commands itself (hello/isMaster, buildInfo, endSessions,
...), and every other command from a script of replies, after appending the command as one line
of canonical extended JSON to the log file, so the test reads what the driver sent once the
driver's call has returned.

Usage: /usr/bin/python3 mock_mongod.py --replies FILE --log FILE [--lifetime SECONDS]

The replies file is extended JSON: {"<command name>": [reply, ...], ...}. Each command takes the
next reply scripted for its name, or a default success reply when none is left (an empty cursor
for find and aggregate, n = 0 for update and delete, n = all for insert). A cursor reply gets
id 0 and the command's namespace unless given. The server stops when its stdin reaches EOF (the
test closes it, or died) or after --lifetime seconds, whichever comes first.

Needs Debian's python3-mockupdb, which loads with /usr/bin/python3.
"""
import argparse
import datetime
import os
import select
import sys
import threading
import time

from bson import json_util
from bson.int64 import Int64
from bson.json_util import CANONICAL_JSON_OPTIONS
from mockupdb import MockupDB

HANDSHAKE = {"hello", "ismaster", "buildinfo", "endsessions", "getlasterror", "whatsmyuri",
             "getfreemonitoringstatus", "killcursors", "saslstart"}


def command_name(doc):
    """The command's name: the first key (inside $query for a legacy OP_QUERY)."""
    if "$query" in doc:
        doc = doc["$query"]
    return next(iter(doc), "")


def hello_reply():
    return {
        "ismaster": True, "isWritablePrimary": True, "helloOk": True,
        "maxBsonObjectSize": 16 * 1024 * 1024, "maxMessageSizeBytes": 48000000,
        "maxWriteBatchSize": 100000, "localTime": datetime.datetime.now(datetime.timezone.utc),
        "minWireVersion": 0, "maxWireVersion": 13, "ok": 1,
    }


def default_reply(name, doc):
    lower = name.lower()
    if lower in ("find", "aggregate", "listindexes"):
        return {"cursor": {"firstBatch": []}, "ok": 1}
    if lower == "insert":
        return {"n": len(doc.get("documents", [])), "ok": 1}
    if lower in ("update", "delete"):
        return {"n": 0, "nModified": 0, "ok": 1} if lower == "update" else {"n": 0, "ok": 1}
    return {"ok": 1}


class Script:
    """The scripted replies and the command log, shared by the server's connection threads."""

    def __init__(self, replies, log):
        self._replies = replies
        self._log = log
        self._lock = threading.Lock()

    def respond(self, request):
        doc = request.doc
        name = command_name(doc)
        if name.lower() in ("hello", "ismaster"):
            request.reply(hello_reply())
            return True
        if name.lower() in HANDSHAKE:
            request.reply({"ok": 1, "version": "5.0.0", "versionArray": [5, 0, 0, 0]})
            return True
        with self._lock:
            self._log.write(json_util.dumps(doc, json_options=CANONICAL_JSON_OPTIONS) + "\n")
            self._log.flush()
            queue = self._replies.get(name, [])
            reply = dict(queue.pop(0)) if queue else default_reply(name, doc)
        if "cursor" in reply:
            cursor = dict(reply["cursor"])
            cursor.setdefault("id", Int64(0))
            cursor.setdefault("ns", "%s.%s" % (doc.get("$db", "test"), doc[name]))
            reply["cursor"] = cursor
        request.reply(reply)
        return True


def wait_for_stdin_eof(lifetime):
    deadline = time.monotonic() + lifetime
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        readable, _, _ = select.select([sys.stdin], [], [], min(left, 1.0))
        if readable and not sys.stdin.buffer.read1(4096):
            return


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--replies", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=120.0)
    args = parser.parse_args()
    with open(args.replies, encoding="utf-8") as f:
        replies = json_util.loads(f.read())
    with open(args.log, "w", encoding="utf-8") as log:
        script = Script(replies, log)
        server = MockupDB(port=None, request_timeout=args.lifetime)
        server.autoresponds(script.respond)
        port = server.run()  # binds "localhost" for AF_INET only: 127.0.0.1
        print("PORT %d" % port, flush=True)
        wait_for_stdin_eof(args.lifetime)
        log.flush()
    # Exit at once: MockupDB.stop() waits up to a second for its accept loop, per test; the
    # process ending closes every socket just as well.
    os._exit(0)


if __name__ == "__main__":
    main()
