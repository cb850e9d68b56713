"""``POST /api/commands``: one command, one transaction, one receipt.

Invariants: the body is size-limited before it is parsed, and a large one is parsed, validated and
hashed in a worker thread; malformed JSON, wrong types and unknown
command types are ``400 invalid_command``; the receipt's body hash is the SHA-256 of the command's
canonical JSON (sorted keys, compact), so key order and whitespace do not count as a change. A
``provider`` choice is remembered by the provider router once its command is accepted; a server
with a single provider accepts and ignores it (its events and snapshots then name no provider).
The choice is stored in the command's own transaction (``provider_choices``), never in a file.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from composer_app.core.contracts.wire import Command, decode_command
from composer_app.core.errors import ContractError, StorageError
from composer_app.server.auth import refused
from composer_app.server.errors import ApiError, error_response, invalid
from composer_app.server.json_body import off_loop, parse_json
from composer_app.server.json_text import canonical, strict
from composer_app.server.ledger import CommandOutcome, execute_command, prefetch_command
from composer_app.server.providers.registry import PROVIDER_NAMES
from composer_app.server.routes.attachments import remove_files
from composer_app.server.services import device_of, read_limited, services_of
from composer_app.server.snapshots import choice_key, provider_of
from composer_app.server.store.base import Transaction
from composer_app.server.workspace.roots import check_command_workspace


def request_hash(obj: object) -> str:
    return hashlib.sha256(canonical(obj).encode("utf-8", "surrogatepass")).hexdigest()


async def serve_command(scope: Scope, receive: Receive, send: Send) -> None:
    """``POST /api/commands`` as a plain ASGI app, answering every failure the way the app's
    error handlers do (``error_response``); an unexpected one is answered ``500`` and raised
    again to the server, as Starlette's ``ServerErrorMiddleware`` does."""
    try:
        response = await post_command(Request(scope, receive, send))
    except (ApiError, ContractError, StorageError) as exc:
        response = error_response(exc)
    except Exception as exc:
        await error_response(exc)(scope, receive, send)
        raise
    await response(scope, receive, send)


async def post_command(request: Request) -> Response:
    svc = services_of(request)
    device = await device_of(request, cached=True)
    body = await read_limited(request, svc.settings.max_command_bytes)
    parsed = await off_loop(body, _parse_command)
    command, digest = parsed.command, parsed.digest
    check_command_workspace(svc.settings, command)
    names = provider_of(svc.settings.provider)
    remembers = (getattr(command, "provider", None) is not None
                 and hasattr(svc.settings.provider, "use_database"))

    def run(tx: Transaction) -> CommandOutcome:
        prefetch_command(tx, device, command)  # with the device check: one round trip
        if not tx.device_active(device.device_id):  # revoked since it was cached
            raise refused()
        outcome = execute_command(tx, device, command, digest, names)
        if remembers and outcome.status < 300:
            tx.set_provider_choice(device.user_id, command.thread_id,
                                   str(getattr(command, "provider", "")))
        return outcome

    outcome = await svc.store.write(run, group=(device.user_id, command.thread_id))
    _select_provider(svc, choice_key(device.user_id, command.thread_id), command,
                     outcome.status)
    if outcome.turn is not None:
        svc.runner.start(outcome.turn)
    if outcome.interrupted_turn is not None:
        svc.runner.interrupt(outcome.interrupted_turn)
    if outcome.released_files:  # a deleted thread's attachments: no longer served, now gone
        await asyncio.to_thread(remove_files, svc.settings.attachments_dir,
                                outcome.released_files)
    # what JSONResponse writes, from an encoder made once
    return Response(strict(outcome.body).encode("utf-8"), status_code=outcome.status,
                    media_type="application/json")


@dataclass(frozen=True)
class _ParsedCommand:
    command: Command
    digest: str


def _parse_command(body: bytes) -> _ParsedCommand:
    """Parse, validate and hash one command body (CPU work, off the loop when large)."""
    obj = parse_json(body)
    command = decode_command(obj)
    _check_provider(command)
    return _ParsedCommand(command, request_hash(obj))


def _check_provider(command: object) -> None:
    name = getattr(command, "provider", None)
    if name is not None and name not in PROVIDER_NAMES:
        names = ", ".join(PROVIDER_NAMES)
        raise invalid(f"Unknown assistant provider {name!r}; use one of {names}.")


def _select_provider(svc: object, key: str, command: object, status: int) -> None:
    """Remember a thread's provider choice (under its ``choice_key``) once its command succeeded
    (names only)."""
    name = getattr(command, "provider", None)
    provider = getattr(getattr(svc, "settings", None), "provider", None)
    select = getattr(provider, "select", None)
    if name is None or status >= 300 or select is None:
        return
    select(key, name)


PATH = "/api/commands"
# Registered by ``build_app`` as a plain Starlette route (the hot path; ``app.ServerApp`` serves
# its POST ahead of the middleware stack with ``serve_command``).
route = Route(PATH, post_command, methods=["POST"])
