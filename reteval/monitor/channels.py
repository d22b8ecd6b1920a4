"""Delivering an alert: a shell command, or an HTTP POST of a JSON payload.

The monitor always reports an alert on stderr and with its exit status; these
channels are optional extras. A channel that fails (the command exits non-zero
or times out, the server is down or answers with an error) is *reported*, as
a :class:`Delivery` with ``ok=False``; it never raises and never undoes the
history entry, which is committed before any channel runs.

The payload is the JSON document of
:meth:`reteval.monitor.runner.MonitorResult.payload`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass

from reteval._util.validation import check_number
from reteval.errors import InputError

__all__ = ["Delivery", "check_url", "post_json", "run_command"]

#: Environment variables the alert command receives, besides the payload on stdin.
COMMAND_ENV = (
    "RETEVAL_ALERT_COUNT",
    "RETEVAL_ALERT_SUMMARY",
    "RETEVAL_ENTRY_ID",
    "RETEVAL_HISTORY",
    "RETEVAL_RETRIEVER",
)


@dataclass(frozen=True)
class Delivery:
    """What happened to one alert channel.

    Attributes
    ----------
    channel : {"command", "url"}
    target : str
        The command line or the URL.
    ok : bool
    detail : str
        ``"exit status 0"``, ``"HTTP 200"``, or what went wrong.
    """

    channel: str
    target: str
    ok: bool
    detail: str


def _check_timeout(timeout) -> float:
    return check_number(timeout, "timeout", minimum=0.0, strict=True,
                        requirement="a positive number of seconds")


def check_url(url: str) -> str:
    """Return ``url`` if it is an ``http`` or ``https`` URL with a host.

    Examples
    --------
    >>> check_url("http://127.0.0.1:8080/hook")
    'http://127.0.0.1:8080/hook'
    >>> check_url("file:///etc/passwd")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: alert URL must be an http:// or https:// URL; got 'file:///etc/passwd'
    """
    parts = urllib.parse.urlsplit(str(url))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError(f"alert URL must be an http:// or https:// URL; got {url!r}")
    return str(url)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # urllib then raises HTTPError with the 3xx code


_OPENER = urllib.request.build_opener(_NoRedirect)


def _payload_bytes(payload: Mapping) -> bytes:
    return json.dumps(payload, ensure_ascii=False, indent=2, default=str).encode("utf-8")


def post_json(url: str, payload: Mapping, *, timeout: float = 10.0) -> Delivery:
    """POST ``payload`` as JSON (UTF-8) to ``url``; a 2xx answer is a delivery.

    Parameters
    ----------
    url : str
        An ``http://`` or ``https://`` URL.
    payload : mapping
        JSON-serialisable document.
    timeout : float, default 10
        Deadline in seconds for the whole request: connection, sending and
        the complete answer.

    Returns
    -------
    Delivery
        ``ok`` for a 2xx answer. Redirects are not followed: a 3xx answer is
        a failed delivery (a redirected POST would be resent, or turned into
        a GET, by the client).
    """
    url = check_url(url)
    timeout = _check_timeout(timeout)
    request = urllib.request.Request(
        url,
        data=_payload_bytes(payload),
        method="POST",
        headers={"Content-Type": "application/json; charset=utf-8",
                 "User-Agent": "reteval-monitor"},
    )
    outcome: list[Delivery] = []

    def deliver() -> None:
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                status = response.status
                response.read(1 << 16)  # the answer is part of the delivery
        except urllib.error.HTTPError as exc:
            detail = f"HTTP {exc.code} {exc.reason}"
            if 300 <= exc.code < 400:
                detail += " (redirects are not followed: give the final URL)"
            outcome.append(Delivery("url", url, False, detail))
        except urllib.error.URLError as exc:
            outcome.append(Delivery("url", url, False, f"cannot reach the server: {exc.reason}"))
        except (TimeoutError, OSError, ValueError) as exc:
            outcome.append(Delivery("url", url, False, f"cannot deliver: {exc}"))
        else:
            outcome.append(Delivery("url", url, 200 <= status < 300, f"HTTP {status}"))

    # The timeout is a deadline for the whole request (a server that answers one byte at
    # a time would otherwise reset a per-read timeout forever).
    worker = threading.Thread(target=deliver, name="reteval-alert-url", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        return Delivery("url", url, False, f"no complete answer within {timeout:g} s")
    return outcome[0]


def run_command(command: str, payload: Mapping, *, env: Mapping[str, str] | None = None,
                timeout: float = 60.0) -> Delivery:
    """Run ``command`` through the shell with the JSON payload on its stdin.

    Parameters
    ----------
    command : str
        A shell command line, e.g. ``'mail -s "retrieval alert" team@example.org'``.
    payload : mapping
        JSON-serialisable document written to the command's stdin.
    env : mapping, optional
        Extra environment variables (added to the current environment).
    timeout : float, default 60
        Seconds before the command, and every process it started (its process
        group), is killed and the delivery counted failed. Background children
        that outlive a command that finished in time are left alone, and never
        waited for.

    Returns
    -------
    Delivery
        ``ok`` when the command exits with status 0.

    Examples
    --------
    >>> run_command("cat > /dev/null", {"alerts": []}).ok
    True
    >>> run_command("exit 4", {}).detail
    'exit status 4'
    """
    if not isinstance(command, str) or not command.strip():
        raise InputError(f"alert command must be a non-empty str; got {command!r}")
    timeout = _check_timeout(timeout)
    full_env = dict(os.environ)
    full_env.update({str(k): str(v) for k, v in (env or {}).items()})
    # stdin and stderr are files, not pipes: a background child that inherits them
    # cannot make reteval wait, and a command that does not read stdin cannot block it.
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stderr:
        stdin.write(_payload_bytes(payload))
        stdin.seek(0)
        try:
            proc = subprocess.Popen(  # the user's own command line
                command, shell=True, stdin=stdin, stdout=subprocess.DEVNULL, stderr=stderr,
                env=full_env, start_new_session=True,
            )
        except OSError as exc:
            return Delivery("command", command, False, f"cannot run: {exc}")
        try:
            returncode = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            return Delivery("command", command, False,
                            f"timed out after {timeout:g} s (its process group was killed)")
        if returncode == 0:
            return Delivery("command", command, True, "exit status 0")
        stderr.seek(0)
        err = stderr.read().decode("utf-8", "replace").strip().splitlines()
    tail = f": {err[-1]}" if err else ""
    return Delivery("command", command, False, f"exit status {returncode}{tail}")


def _kill_group(proc: subprocess.Popen) -> None:
    """End the command and every process it started (its own session and group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()
