#!/usr/bin/python3
"""A webhook receiver for the webhooks tests (tests/support/webhook_receiver.hpp).

Listens on 127.0.0.1 on a free port and prints "PORT <n>" as the first line on stdout. Every
request to a path other than /_control* and /_deliveries is a delivery: it is recorded, then
answered as the behaviour says. A record is

  {"seq" (1, 2, ... in order of receipt), "received_ms" (wall-clock Unix time in ms: comparable
   with other processes' clocks, unlike a monotonic one), "method", "path" (with the query),
   "headers" ({lower-cased name: value}, repeated headers joined with ", "),
   "raw_headers" ([[name, value], ...] as sent), "body" (the raw body as UTF-8 text, undecodable
   bytes replaced), "body_valid_utf8", "id", "timestamp", "signature" (the Webhook-Id,
   Webhook-Timestamp and Webhook-Signature headers, "" when absent), "attempt" (the n-th request
   with this Webhook-Id), "status" (the status answered; 0 when the connection was dropped
   without an answer), "peer_port" (the client's port: equal on a reused connection),
   "answered_ms" (wall-clock time the answer was written; null until then, and for ever when
   the connection was dropped or writing the answer failed)}

It is added to the list when the request has been read, before any sleep_ms, so a test sees an
attempt while the sender still waits for its answer.

The behaviour, per attempt k of a Webhook-Id (requests without one share a counter):
  k <= close_first: drop the connection without answering;
  else k <= fail_first: answer fail_status;
  else: answer status.
Every delivery first sleeps sleep_ms (also before a drop).

Control requests (never recorded):
  GET  /_deliveries[?since=SEQ]  the JSON array of the records (those with seq > SEQ)
  GET  /_control                 {"behaviour": {...}, "count": records kept, "received": all}
  POST /_control                 JSON object with any of fail_first, fail_status, status,
                                 sleep_ms, close_first: changes those; answers the behaviour
  POST /_control/reset           forgets all records and attempt counts (seq restarts at 1)

Usage: /usr/bin/python3 webhook_receiver.py [--fail-first N] [--fail-status S] [--status S]
           [--sleep-ms MS] [--close-first N] [--max-records N] [--lifetime SECONDS]
           [--ignore-stdin] [--verbose]

At most --max-records (100000) records are kept, the oldest dropped first. Bodies larger than
16 MiB are answered 413 (and recorded without their body). The server stops when its stdin
reaches EOF (the test closes it, or died) or after --lifetime seconds, whichever comes first;
with --ignore-stdin only the lifetime (or a signal) stops it.

Standard library only (http.server), for /usr/bin/python3.
"""
import argparse
import collections
import http.server
import json
import os
import select
import sys
import threading
import time
import urllib.parse

MAX_BODY = 16 * 1024 * 1024
BEHAVIOUR_KEYS = ("fail_first", "fail_status", "status", "sleep_ms", "close_first")


def now_ms():
    return int(time.time() * 1000)


class BodyTooLarge(Exception):
    pass


class State:
    """The records, the attempt counts and the behaviour; every access under one lock."""

    def __init__(self, behaviour, max_records):
        self.lock = threading.Lock()
        self.behaviour = behaviour
        self.records = collections.deque(maxlen=max_records)
        self.attempts = {}
        self.seq = 0

    def admit(self, record, webhook_id):
        """Numbers the record, decides its answer, keeps it. Returns (status, sleep_ms)."""
        with self.lock:
            b = self.behaviour
            attempt = self.attempts.get(webhook_id, 0) + 1
            self.attempts[webhook_id] = attempt
            if attempt <= b["close_first"]:
                status = 0
            elif attempt <= b["fail_first"]:
                status = b["fail_status"]
            else:
                status = b["status"]
            self.seq += 1
            record.update(seq=self.seq, attempt=attempt, status=status)
            self.records.append(record)
            return status, b["sleep_ms"]

    def answered(self, record, when):
        with self.lock:
            record["answered_ms"] = when

    def listing(self, since):
        with self.lock:
            return json.dumps([r for r in self.records if r["seq"] > since], ensure_ascii=False)

    def summary(self):
        with self.lock:
            return {"behaviour": dict(self.behaviour), "count": len(self.records),
                    "received": self.seq}

    def change(self, changes):
        """Applies a /_control body; an error text, or None."""
        if not isinstance(changes, dict):
            return "the body must be a JSON object"
        for key, value in changes.items():
            if key not in BEHAVIOUR_KEYS:
                return "unknown key %r (known: %s)" % (key, ", ".join(BEHAVIOUR_KEYS))
            error = check(key, value)
            if error:
                return error
        with self.lock:
            self.behaviour.update(changes)
        return None

    def reset(self):
        with self.lock:
            self.records.clear()
            self.attempts.clear()
            self.seq = 0


def check(key, value):
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        return "%s must be a non-negative integer, not %r" % (key, value)
    if key in ("status", "fail_status") and not 200 <= value <= 599:
        return "%s must be an HTTP status 200..599, not %d" % (key, value)
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as senders may reuse connections
    # The status line and headers go out in one write and the body in another: with Nagle's
    # algorithm on, the body waited for the client's delayed ACK, 40 ms per answer on a kept-alive
    # connection (173 answers/s from 8 connections).
    disable_nagle_algorithm = True
    server_version = "opbase-test-receiver"

    def version_string(self):
        return self.server_version

    def do_GET(self):
        self.route()

    def do_POST(self):
        self.route()

    def do_PUT(self):
        self.route()

    def do_PATCH(self):
        self.route()

    def do_DELETE(self):
        self.route()

    def route(self):
        path = urllib.parse.urlsplit(self.path).path
        if path.startswith("/_control") or path == "/_deliveries":
            self.control(path)
        else:
            self.delivery()

    # --- control ---

    def control(self, path):
        state = self.server.state
        try:
            body = self.read_body()
        except (BodyTooLarge, ValueError) as error:
            return self.answer(400, {"error": str(error)}, close=True)
        if self.command == "GET" and path == "/_deliveries":
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            try:
                since = int(query.get("since", ["0"])[0])
            except ValueError:
                return self.answer(400, {"error": "since must be an integer"})
            return self.answer_text(200, state.listing(since))
        if self.command == "GET" and path == "/_control":
            return self.answer(200, state.summary())
        if self.command == "POST" and path == "/_control/reset":
            state.reset()
            return self.answer(200, state.summary())
        if self.command == "POST" and path == "/_control":
            try:
                changes = json.loads(body.decode("utf-8"))
            except ValueError as error:
                return self.answer(400, {"error": "the body is not JSON: %s" % error})
            error = state.change(changes)
            if error:
                return self.answer(400, {"error": error})
            return self.answer(200, state.summary())
        return self.answer(404, {"error": "no control %s %s" % (self.command, path)})

    # --- deliveries ---

    def delivery(self):
        received = now_ms()
        too_large = False
        try:
            body = self.read_body()
        except BodyTooLarge:
            body, too_large = b"", True
        except ValueError as error:
            return self.answer(400, {"error": str(error)}, close=True)
        raw_headers = [[name, value] for name, value in self.headers.items()]
        headers = {}
        for name, value in raw_headers:
            key = name.lower()
            headers[key] = headers[key] + ", " + value if key in headers else value
        try:
            text, valid = body.decode("utf-8"), True
        except UnicodeDecodeError:
            text, valid = body.decode("utf-8", "replace"), False
        record = {
            "received_ms": received, "method": self.command, "path": self.path,
            "headers": headers, "raw_headers": raw_headers, "body": text,
            "body_valid_utf8": valid, "id": headers.get("webhook-id", ""),
            "timestamp": headers.get("webhook-timestamp", ""),
            "signature": headers.get("webhook-signature", ""),
            "peer_port": self.client_address[1], "answered_ms": None,
        }
        status, sleep_ms = self.server.state.admit(record, record["id"])
        if too_large:
            status = record["status"] = 413
        if sleep_ms:
            time.sleep(sleep_ms / 1000.0)
        if status == 0:
            # No status line at all: the handler returns, the server closes the socket.
            self.close_connection = True
            return
        # Stamped before the answer goes out, so the sender never sees its answer before the
        # record says it was answered.
        self.server.state.answered(record, now_ms())
        try:
            if too_large:
                self.answer(413, {"error": "body over %d bytes" % MAX_BODY}, close=True)
            else:
                self.answer(status, {"received": record["seq"]})
        except OSError:
            self.close_connection = True  # the sender gave up first
            self.server.state.answered(record, None)

    # --- plumbing ---

    def read_body(self):
        """The request body, by Content-Length or chunked; ValueError when malformed."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self.read_chunked()
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0:
            raise ValueError("negative Content-Length")
        if length > MAX_BODY:
            self.close_connection = True
            raise BodyTooLarge()
        body = self.rfile.read(length)
        if len(body) != length:
            raise ValueError("the body ended after %d of %d bytes" % (len(body), length))
        return body

    def read_chunked(self):
        parts, total = [], 0
        while True:
            line = self.rfile.readline(1024)
            size = int(line.split(b";", 1)[0].strip(), 16)
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(parts)
            total += size
            if total > MAX_BODY:
                self.close_connection = True
                raise BodyTooLarge()
            parts.append(self.rfile.read(size))
            self.rfile.readline(1024)

    def answer(self, status, value, close=False):
        self.answer_text(status, json.dumps(value, ensure_ascii=False), close)

    def answer_text(self, status, text, close=False):
        data = text.encode("utf-8")
        self.send_response(status)
        if status in (204, 304):
            data = b""
        else:
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)
        self.wfile.flush()

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True  # open connections never hold up the exit

    def handle_error(self, request, client_address):
        # A sender that hangs up mid-request is normal here (time-outs are tested); say nothing
        # on the test's stderr unless asked.
        if self.verbose:
            super().handle_error(request, client_address)


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
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--fail-status", type=int, default=500)
    parser.add_argument("--status", type=int, default=200)
    parser.add_argument("--sleep-ms", type=int, default=0)
    parser.add_argument("--close-first", type=int, default=0)
    parser.add_argument("--max-records", type=int, default=100000)
    parser.add_argument("--lifetime", type=float, default=600.0)
    parser.add_argument("--ignore-stdin", action="store_true",
                        help="run until killed or --lifetime (a benchmark's background helper)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    behaviour = {key: getattr(args, key) for key in BEHAVIOUR_KEYS}
    for key, value in behaviour.items():
        error = check(key, value)
        if error:
            parser.error(error)
    # Port 0 binds a free port with no race; the test reads it from our first line.
    server = Server(("127.0.0.1", 0), Handler)
    server.state = State(behaviour, max(1, args.max_records))
    server.verbose = args.verbose
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    if args.ignore_stdin:
        time.sleep(args.lifetime)
    else:
        wait_for_stdin_eof(args.lifetime)
    # Exit at once, open connections and sleeping handlers all: the process ending closes every
    # socket.
    os._exit(0)


if __name__ == "__main__":
    main()
