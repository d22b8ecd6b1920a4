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
import math
import os
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass

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
    try:
        value = float(timeout)
    except (TypeError, ValueError):
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise InputError(f"timeout must be a positive number of seconds; got {timeout!r}")
    return value


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
        Seconds to wait for the connection and the answer.

    Returns
    -------
    Delivery
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
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        return Delivery("url", url, False, f"HTTP {exc.code} {exc.reason}")
    except urllib.error.URLError as exc:
        return Delivery("url", url, False, f"cannot reach the server: {exc.reason}")
    except (TimeoutError, OSError) as exc:
        return Delivery("url", url, False, f"cannot deliver: {exc}")
    ok = 200 <= status < 300
    return Delivery("url", url, ok, f"HTTP {status}")


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
        Seconds before the command is killed and the delivery counted failed.

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
    try:
        done = subprocess.run(  # the user's own command line
            command, shell=True, input=_payload_bytes(payload), env=full_env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout, check=False,
        )
    except subprocess.TimeoutExpired:
        return Delivery("command", command, False, f"timed out after {timeout:g} s")
    except OSError as exc:
        return Delivery("command", command, False, f"cannot run: {exc}")
    if done.returncode == 0:
        return Delivery("command", command, True, "exit status 0")
    err = done.stderr.decode("utf-8", "replace").strip().splitlines()
    tail = f": {err[-1]}" if err else ""
    return Delivery("command", command, False, f"exit status {done.returncode}{tail}")
