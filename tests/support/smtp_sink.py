#!/usr/bin/python3
"""An SMTP server for the mailer's tests (tests/unit/host/mail/mailer_test.cpp).

Listens on 127.0.0.1 on a free port and prints "PORT <n>" as the first line on stdout. Every
message it accepts becomes one file <n>.json in the directory given with --dir, written before
the server answers the DATA command, so it is there once the client's send has returned:

  {"mail_from", "rcpt_tos", "tls" (STARTTLS was used), "login" (the AUTH user, or null),
   "header_names" (in order), "headers" ({name: value}, RFC 2047 words decoded),
   "raw_headers" (the header block as sent), "subject", "text" (the body, transfer encoding and
   charset decoded, line ends as "\\n")}

The message is decoded with Python's email package, so the test checks what a real mail reader
sees, not what the mailer thinks it wrote.

Usage: /usr/bin/python3 smtp_sink.py --dir DIR [--auth USER PASSWORD [--mechanisms PLAIN,LOGIN]]
           [--tls CERT KEY [--auth-requires-tls]] [--silent] [--lifetime SECONDS] [--verbose]

--auth makes login required (and offered without TLS unless --auth-requires-tls); --tls offers
STARTTLS with that certificate; --silent accepts connections and never says a word (for the
client's time-outs); --verbose keeps aiosmtpd's warnings and log on stderr. The server stops when its stdin reaches EOF (the test closes it, or died)
or after --lifetime seconds, whichever comes first.

Needs Debian's python3-aiosmtpd, which loads with /usr/bin/python3.
"""
import argparse
import asyncio
import email
import email.policy
import json
import logging
import os
import ssl
import sys
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

MECHANISMS = ("PLAIN", "LOGIN")


class Store:
    """The aiosmtpd handler: writes each message to <dir>/<n>.json."""

    def __init__(self, directory):
        self._dir = directory
        self._count = 0

    async def handle_DATA(self, server, session, envelope):
        self._count += 1
        path = os.path.join(self._dir, "%d.json" % self._count)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(describe(session, envelope), f, ensure_ascii=False)
        os.rename(path + ".tmp", path)  # whole or absent, never half written
        return "250 2.0.0 stored"


def describe(session, envelope):
    raw = envelope.original_content
    message = email.message_from_bytes(raw, policy=email.policy.default)
    return {
        "mail_from": envelope.mail_from,
        "rcpt_tos": envelope.rcpt_tos,
        "tls": session.ssl is not None,
        "login": session.auth_data if session.authenticated else None,
        "header_names": list(message.keys()),
        "headers": {name: str(value) for name, value in message.items()},
        "raw_headers": raw.split(b"\r\n\r\n", 1)[0].decode("ascii", "replace"),
        "subject": str(message["subject"]),
        "text": message.get_content().replace("\r\n", "\n"),
    }


class Authenticator:
    """Accepts exactly one user and password."""

    def __init__(self, user, password):
        self._user = user.encode()
        self._password = password.encode()

    def __call__(self, server, session, envelope, mechanism, auth_data):
        good = (isinstance(auth_data, LoginPassword) and auth_data.login == self._user
                and auth_data.password == self._password)
        if not good:
            return AuthResult(success=False, handled=False)  # aiosmtpd answers 535
        return AuthResult(success=True, auth_data=self._user.decode())


def tls_context(cert, key):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def smtp_factory(args):
    options = {"hostname": "sink.test", "timeout": args.lifetime}
    if args.auth:
        excluded = [m for m in MECHANISMS if m not in args.mechanisms.split(",")]
        options.update(authenticator=Authenticator(*args.auth), auth_required=True,
                       auth_require_tls=args.auth_requires_tls,
                       auth_exclude_mechanism=excluded)
    if args.tls:
        options["tls_context"] = tls_context(*args.tls)
    store = Store(args.dir)
    return lambda: SMTP(store, **options)


class Silent(asyncio.Protocol):
    """Accepts and says nothing: the client must give up on its own."""


async def wait_for_stdin_eof(loop, lifetime):
    eof = loop.create_future()

    def readable():
        if not os.read(sys.stdin.fileno(), 4096) and not eof.done():
            eof.set_result(None)

    loop.add_reader(sys.stdin.fileno(), readable)
    try:
        await asyncio.wait_for(eof, lifetime)
    except asyncio.TimeoutError:
        pass


async def serve(args):
    loop = asyncio.get_running_loop()
    factory = Silent if args.silent else smtp_factory(args)
    # Port 0 binds a free port with no race; the test reads it from our first line.
    server = await loop.create_server(factory, "127.0.0.1", 0)
    print("PORT %d" % server.sockets[0].getsockname()[1], flush=True)
    await wait_for_stdin_eof(loop, args.lifetime)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--auth", nargs=2, metavar=("USER", "PASSWORD"))
    parser.add_argument("--mechanisms", default="PLAIN,LOGIN")
    parser.add_argument("--auth-requires-tls", action="store_true")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--silent", action="store_true")
    parser.add_argument("--lifetime", type=float, default=120.0)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    # Quiet unless asked: aiosmtpd warns about AUTH without TLS (which the tests want), about its
    # own deprecated Session.login_data, and logs a traceback for every refused TLS handshake.
    if not args.verbose:
        warnings.filterwarnings("ignore")
        logging.getLogger("mail.log").setLevel(logging.CRITICAL)
    asyncio.run(serve(args))
    # Exit at once, open connections and all: the process ending closes every socket.
    os._exit(0)


if __name__ == "__main__":
    main()
