"""Reading the parameters file of ``reteval run``; its shape: :mod:`reteval.book.pipeline`."""

from __future__ import annotations

import os
from pathlib import Path

from reteval._util.languages import LANGUAGES
from reteval.errors import InputError

__all__ = ["LANG_CHOICES", "load_params", "parse_assignments"]

#: The editions ``reteval run`` accepts: each language, or ``all`` of them.
LANG_CHOICES = (*LANGUAGES, "all")


def load_params(path: str | os.PathLike | None) -> dict:
    """Read a pipeline parameters file; ``None`` gives empty parameters.

    Returns
    -------
    dict
        ``{"lang": str or None, "common": {...}, "notebooks": {name: {...}}, "order": [...]}``.

    Raises
    ------
    InputError
        The file is missing, is not YAML, or has another shape than
        ``{lang: zh|en|all, common: {...}, notebooks: {name: {...}}, order: [...]}``;
        or it sets ``lang`` inside ``common`` or a notebook's section.
    """
    if path is None:
        return {"lang": None, "common": {}, "notebooks": {}, "order": []}
    import yaml

    path = Path(path)
    try:
        data = _load_yaml(path.read_text(encoding="utf-8"), path) or {}
    except FileNotFoundError:
        raise InputError("no such parameters file", path=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a parameters file", path=path) from None
    except UnicodeDecodeError:
        raise InputError("not a text (UTF-8) parameters file", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=path) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(f"not valid YAML: {getattr(exc, 'problem', exc)}", path=path,
                         line=None if mark is None else mark.line + 1) from None
    data = _plain(data, path, "the file")
    if not isinstance(data, dict) or set(data) - {"lang", "common", "notebooks", "order"}:
        raise InputError("expected top-level keys 'lang', 'common', 'notebooks' and 'order' only",
                         path=path)
    lang = data.get("lang")
    if lang is not None and lang not in LANG_CHOICES:
        raise InputError(f"'lang' must be one of {list(LANG_CHOICES)}; got {lang!r}", path=path)
    order = data.get("order") or []
    if not isinstance(order, list) or not all(isinstance(name, str) for name in order):
        raise InputError("'order' must be a list of notebook names", path=path)
    common = data.get("common") or {}
    notebooks = data.get("notebooks") or {}
    if not isinstance(common, dict) or not isinstance(notebooks, dict) or not all(
        isinstance(v, dict) for v in notebooks.values() if v is not None
    ):
        raise InputError("'common' and each entry of 'notebooks' must be mappings", path=path)
    notebooks = {k: v or {} for k, v in notebooks.items()}
    where = ["common"] * ("lang" in common) + [f"notebooks: {k}" for k, v in notebooks.items()
                                                if "lang" in v]
    if where:
        raise InputError(f"'lang' is set in {where}; the edition is chosen by the top-level "
                         "'lang' key or --lang", path=path)
    return {"lang": lang, "common": common, "notebooks": notebooks, "order": order}


def parse_assignments(pairs) -> dict:
    """Parameters given as ``key=value`` texts (``reteval run -p``); each value is YAML.

    A value is read as one YAML value, as in a parameters file: ``k=10`` is the
    number 10, ``flag=true`` a boolean, ``name=bm25`` and ``date=2026-06-01`` text,
    ``ks=[5, 10]`` a list. A later assignment of a key replaces an earlier one.

    Raises
    ------
    InputError
        A text without ``=`` or with an empty key, the key ``lang`` (the edition
        is chosen by ``--lang``), or a value that is not valid YAML; the message
        names the key.

    Examples
    --------
    >>> parse_assignments(["k=10", "ks=[5, 10]", "name=bm25", "note=a=b", "x="])
    {'k': 10, 'ks': [5, 10], 'name': 'bm25', 'note': 'a=b', 'x': None}
    """
    import yaml

    values = {}
    for pair in pairs or ():
        key, equals, text = pair.partition("=")
        key = key.strip()
        if not equals or not key:
            raise InputError(f"-p expects key=value; got {pair!r}")
        if key == "lang":
            raise InputError("-p lang: the edition is chosen by --lang, not by a parameter")
        where = f"-p {key}"
        try:
            value = _load_yaml(text, where)
        except yaml.YAMLError as exc:
            raise InputError(f"{where}: the value {text!r} is not valid YAML: "
                             f"{getattr(exc, 'problem', None) or exc}") from None
        if isinstance(value, dict):
            raise InputError(f"{where}: the value {text!r} is a mapping; give a text, a "
                             "number, a boolean or a list (quote a text holding ': ')")
        values[key] = _plain(value, where, key)
    return values


_MAX_DEPTH = 100  # nesting of YAML collections in a parameters file

def _load_yaml(text: str, path: Path | str):
    """``yaml.safe_load`` without aliases and with bounded nesting.

    An alias (``*name``) repeats a node; a few nested ones expand into billions
    of values ("billion laughs"), so a parameters file must write every value out.
    """
    import yaml

    class Loader(yaml.SafeLoader):
        depth = 0

        def compose_node(self, parent, index):
            if self.check_event(yaml.AliasEvent):
                mark = self.peek_event().start_mark
                raise InputError(f"YAML aliases (*{self.peek_event().anchor}) are not accepted "
                                 "in a parameters file: write the value out", path=path,
                                 line=mark.line + 1)
            if self.depth >= _MAX_DEPTH:
                raise InputError(f"nested more than {_MAX_DEPTH} levels deep", path=path,
                                 line=self.peek_event().start_mark.line + 1)
            self.depth += 1
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    loader = Loader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _plain(value, path: Path | str, where: str):
    """Parameters as JSON-like values: a date becomes its ISO text, keys are strings.

    Anything else YAML can build (a set, bytes, a mapping with a number or a
    list as key) is an error naming where it is.
    """
    import datetime

    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()  # an unquoted 2026-06-01 is the text "2026-06-01"
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, list):
        return [_plain(v, path, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        bad = [k for k in value if not isinstance(k, str)]
        if bad:
            raise InputError(f"keys must be text; {where} has the key {bad[0]!r:.60} "
                             f"({type(bad[0]).__name__}): quote it", path=path)
        return {k: _plain(v, path, f"{where}: {k}" if where != "the file" else k)
                for k, v in value.items()}
    kind = "a set" if isinstance(value, (set, frozenset)) else type(value).__name__
    raise InputError(f"{where} is {kind}; parameters are text, numbers, booleans, dates, "
                     "lists and mappings", path=path)
