#!/usr/bin/env python3
"""FerretDB for the tests, in ChildServer's way (child_server.hpp): starts the FerretDB binary
given on the command line over its SQLite backend in the given folder, on 127.0.0.1 and a free
port, prints "PORT <n>" once the server accepts connections, and stops it when standard input
closes. Its log goes to <folder>/ferretdb.log, and to standard error when it does not start.

  ferretdb_server.py <ferretdb binary> <folder>
"""
import os
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def accepts(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def start(binary, folder, log):
    """The server and its port; another port when the one picked was taken meanwhile."""
    for _ in range(3):
        port = free_port()
        server = subprocess.Popen(
            [binary, "--handler=sqlite", "--sqlite-url=file:%s/" % folder,
             "--listen-addr=127.0.0.1:%d" % port, "--state-dir=%s" % folder,
             "--telemetry=disable", "--debug-addr=-", "--log-level=ERROR"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and server.poll() is None:
            if accepts(port):
                return server, port
            time.sleep(0.05)
        server.kill()
        server.wait()
    log.flush()
    with open(log.name, "rb") as written:
        sys.stderr.write(written.read()[-4000:].decode("utf-8", "replace"))
    sys.exit("ferretdb_server.py: FerretDB did not start (its log is above)")


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "ferretdb.log"), "ab") as log:
        server, port = start(binary, folder, log)
        print("PORT %d" % port, flush=True)
        sys.stdin.read()  # until the test closes it
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
