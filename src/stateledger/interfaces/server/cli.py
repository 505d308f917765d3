"""``stateledger serve`` and ``stateledger keys create|list|revoke``.

Importing this module needs neither FastAPI nor uvicorn: key management works without the
``server`` extra, and ``serve`` says how to install it when it is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from stateledger.core.validate import BODY_TIMEOUT_S, MAX_BODY_BYTES
from stateledger.errors import MissingDependencyError
from stateledger.interfaces.llm_options import add_llm_arguments, memory_options
from stateledger.interfaces.server.keys import KeyStore, default_keys_path

__all__ = ["add_commands"]


def _keys_path(args: argparse.Namespace) -> Path:
    return Path(args.keys) if args.keys else default_keys_path(args.db)


def cmd_serve(args: argparse.Namespace) -> None:
    try:
        import uvicorn
    except ImportError as exc:
        raise MissingDependencyError(
            "the REST server needs FastAPI and uvicorn: pip install 'stateledger[server]'"
        ) from exc
    from stateledger.interfaces.server.app import create_app
    from stateledger.memory import Memory

    keys = KeyStore(_keys_path(args))
    if not keys.list_keys():
        print(f"warning: {keys.path} holds no API keys yet; every request will get 401. "
              "Create one with: stateledger keys create --tenant NAME "
              f"--keys {keys.path}", file=sys.stderr)
    options = memory_options(args)
    app = create_app(lambda: Memory(args.db, **options), keys, max_body_bytes=args.max_body,
                     body_timeout_s=args.body_timeout)
    print(f"stateledger serving {args.db or 'the default store'} on "
          f"http://{args.host}:{args.port} (inspector /inspector, API docs /docs; "
          f"keys {keys.path})", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                server_header=False)


def cmd_keys_create(args: argparse.Namespace) -> None:
    keys = KeyStore(_keys_path(args))
    issued = keys.create(args.tenant, note=args.note)
    if args.json:
        print(json.dumps({"key": issued.key, "key_id": issued.key_id, "tenant": issued.tenant,
                          "created_at": issued.created_at, "keys_file": str(keys.path)}))
        return
    print(issued.key)
    print(f"key {issued.key_id} for tenant {issued.tenant!r} stored (hashed) in {keys.path}; "
          "the key is shown only now, keep it safe", file=sys.stderr)


def cmd_keys_list(args: argparse.Namespace) -> None:
    rows = KeyStore(_keys_path(args)).list_keys(args.tenant)
    payload: list[dict[str, Any]] = [
        {"key_id": k.key_id, "tenant": k.tenant, "created_at": k.created_at,
         "revoked_at": k.revoked_at, "note": k.note}
        for k in rows
    ]
    if args.json:
        print(json.dumps(payload))
        return
    for k in payload:
        state = f"revoked {k['revoked_at']}" if k["revoked_at"] else "active"
        note = f"  {k['note']}" if k["note"] else ""
        print(f"{k['key_id']}  {k['tenant']:<20} {k['created_at']}  {state}{note}")


def cmd_keys_revoke(args: argparse.Namespace) -> None:
    done = KeyStore(_keys_path(args)).revoke(args.key_id)
    if args.json:
        print(json.dumps({"key_id": args.key_id, "revoked": done}))
    else:
        print(f"revoked {args.key_id}" if done else f"no active key {args.key_id}")
    if not done:
        raise SystemExit(1)


def _store_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None, help="SQLite file or postgresql:// URL")
    p.add_argument("--keys", default=None, metavar="PATH",
                   help="API keys file (default: beside the SQLite db, NAME.keys.db)")


def add_commands(sub: Any) -> None:
    p = sub.add_parser("serve", help="run the REST server (API keys, tenants, inspector)")
    _store_args(p)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", default=8765, type=int)
    p.add_argument("--max-body", default=MAX_BODY_BYTES, type=int, metavar="BYTES",
                   help=f"largest request body accepted (default {MAX_BODY_BYTES}; larger "
                   "gets 413)")
    p.add_argument("--body-timeout", default=BODY_TIMEOUT_S, type=float, metavar="SECONDS",
                   help=f"time a request body may take to arrive (default {BODY_TIMEOUT_S:g}; "
                   "slower gets 408)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    add_llm_arguments(p)
    p.set_defaults(func=cmd_serve)

    keys = sub.add_parser("keys", help="manage the REST server's API keys")
    ksub = keys.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    p = ksub.add_parser("create", help="issue a key for a tenant (printed once)")
    p.add_argument("--tenant", required=True, help="tenant name: letters, digits, _ or -")
    p.add_argument("--note", default=None, help="free text kept with the key")
    _store_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_keys_create)
    p = ksub.add_parser("list", help="list keys (ids and tenants, never secrets)")
    p.add_argument("--tenant", default=None)
    _store_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_keys_list)
    p = ksub.add_parser("revoke", help="revoke a key by its id")
    p.add_argument("key_id")
    _store_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_keys_revoke)
