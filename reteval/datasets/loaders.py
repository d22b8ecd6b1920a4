"""Test collections: the bundled teaching collection, BEIR folders, BEIR downloads.

A test collection is three things: a corpus of documents, a set of queries and
relevance judgments (qrels) saying how useful each judged document is for each
query. :class:`Dataset` holds the three; :func:`load_beir` reads them from a
folder in the BEIR layout::

    corpus.jsonl        {"_id": "d1", "title": "...", "text": "..."}   one per line
    queries.jsonl       {"_id": "q1", "text": "..."}                   one per line
    qrels/test.tsv      query-id <TAB> corpus-id <TAB> score           header line first

Any of these files may also be gzip-compressed (``corpus.jsonl.gz`` ...).
:func:`load` is the front door: ``"teaching"`` gives the small bilingual
collection shipped with reteval, a folder path gives :func:`load_beir`, and the
name of a public BEIR dataset (``"scifact"``, ``"nfcorpus"``, ...) downloads it
once into a cache folder and reads it from there.

Decisions, made once:

- Only queries that have at least one judgment in the chosen split are kept (a
  query without judgments cannot be scored). Judgments of grade 0 count as
  judgments.
- Judgments for a query id that is not in ``queries.jsonl`` are dropped with a
  :class:`DatasetWarning` (no text to run them with). Judgments for a document
  id that is not in the corpus are kept, with a :class:`DatasetWarning`: the
  assessors said the document is relevant, so dropping it would make recall
  look better than it is.
- The qrels file is read by :func:`reteval.io.read_qrels` (fields separated by
  tabs or spaces) with the duplicate policy :data:`QRELS_DUPLICATES`: a
  (query, document) pair judged twice keeps the last grade, with a
  :class:`DatasetWarning` (published BEIR files hold a few such pairs;
  :func:`reteval.io.read_qrels` alone raises on them by default).
- Duplicate document or query ids, malformed JSON lines, non-integer grades,
  an empty corpus and an empty split are errors (:class:`~reteval.errors.InputError`
  naming the file and the line).
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import warnings
import zipfile
import zlib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pandas as pd

from reteval._util.progress import progress_counter
from reteval.datasets.collection import Dataset, DatasetWarning, DownloadError
from reteval.errors import InputError
from reteval.io import read_qrels
from reteval.io.textfile import as_path, decode, iter_lines, parse_json

__all__ = [
    "BEIR_DATASETS",
    "BEIR_URL",
    "QRELS_DUPLICATES",
    "Dataset",
    "DatasetWarning",
    "DownloadError",
    "datasheet",
    "default_cache_dir",
    "load",
    "load_beir",
    "read_queries",
]

#: Where the public BEIR zips live; ``{name}`` is the dataset name.
BEIR_URL = "https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/{name}.zip"

#: Public BEIR datasets :func:`load` can download, with the md5 of the zip as
#: listed in the BEIR benchmark's README table (``None``: no published checksum
#: we trust, see :func:`load`). ``webis-touche2020`` was re-issued (v2) after its
#: md5 was published, so it is verified by a sha256 recorded on first download.
#: ``cqadupstack`` is left out: its zip holds twelve sub-forum collections, so
#: download it by hand and pass a sub-forum folder to :func:`load_beir`.
BEIR_DATASETS: dict[str, str | None] = {
    "msmarco": "444067daf65d982533ea17ebd59501e4",
    "trec-covid": "ce62140cb23feb9becf6270d0d1fe6d1",
    "nfcorpus": "a89dba18a62ef92f7d323ec890a0d38d",
    "nq": "d4d3d2e48787a744b6f6e691ff534307",
    "hotpotqa": "f412724f78b0d91183a0e86805e16114",
    "fiqa": "17918ed23cd04fb15047f73e6c3bd9d9",
    "arguana": "8ad3e3c2a5867cdced806d6503f29b99",
    "webis-touche2020": None,
    "quora": "18fb154900ba42a600f84b839c173167",
    "dbpedia-entity": "c2a39eb420a3164af735795df012ac2c",
    "scidocs": "38121350fc3a4d2f48850f6aff52e4a9",
    "fever": "5a818580227bfb4b35bb6fa46d9b6c03",
    "climate-fever": "8b66f0a9126c521bae2bde127b4dc99d",
    "scifact": "5f7d1de60b170fc8027bb7898e2efca1",
}

# The function that opens URLs; a module attribute so tests can serve files
# without a network.
_urlopen = urllib.request.urlopen
_TIMEOUT = 60.0
_CHUNK = 1 << 20

#: The duplicate policy of :func:`reteval.io.read_qrels` for BEIR qrels: the last grade.
QRELS_DUPLICATES = "last"


# --------------------------------------------------------------------------- reading


def _find(folder: Path, relative: str) -> Path:
    for candidate in (folder / relative, folder / (relative + ".gz")):
        if candidate.is_file():
            return candidate
    raise InputError(
        f"expected a file {relative!r} (or {relative + '.gz'!r}) in the BEIR folder; "
        "it is not there",
        path=folder,
    )


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """Decoded lines, by the rule of :mod:`reteval.io.textfile` (gzip, BOM, LF/CR LF/CR)."""
    for number, raw in iter_lines(path):
        yield number, decode(raw, path, first_line=number)


def _string_field(record: dict, key: str, path: Path, line: int, *, required: bool) -> str:
    value = record.get(key)
    if value is None:
        if required:
            raise InputError(f"record has no {key!r} field: {record!r:.80}", path=path, line=line)
        return ""
    if key == "_id" and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise InputError(
            f"expected field {key!r} to be a string, got {type(value).__name__} {value!r:.40}",
            path=path,
            line=line,
        )
    return value


def _read_jsonl(path: Path, kind: str) -> Iterator[tuple[int, dict]]:
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            record = parse_json(line)
        except InputError as exc:
            raise InputError(f"malformed JSON in the {kind} file ({exc}): {line.strip()!r:.80}",
                             path=path, line=number) from None
        if not isinstance(record, dict):
            raise InputError(
                f"expected a JSON object per line, got {type(record).__name__}",
                path=path,
                line=number,
            )
        yield number, record


def _read_corpus(path: Path) -> dict[str, dict[str, str]]:
    corpus: dict[str, dict[str, str]] = {}
    for number, record in _read_jsonl(path, "corpus"):
        doc_id = _string_field(record, "_id", path, number, required=True)
        if doc_id in corpus:
            raise InputError(f"duplicate document id {doc_id!r}", path=path, line=number)
        corpus[doc_id] = {
            "title": _string_field(record, "title", path, number, required=False),
            "text": _string_field(record, "text", path, number, required=False),
        }
    if not corpus:
        raise InputError("the corpus is empty: expected at least one document", path=path)
    return corpus


def read_queries(path: str | os.PathLike) -> dict[str, str]:
    """Read a BEIR ``queries.jsonl`` (``_id``, ``text`` per line): query id -> text.

    Raises :class:`~reteval.errors.InputError` naming the file and line of a bad
    record or a duplicated id.
    """
    path = as_path(path, "queries path")
    queries: dict[str, str] = {}
    for number, record in _read_jsonl(path, "queries"):
        query_id = _string_field(record, "_id", path, number, required=True)
        if query_id in queries:
            raise InputError(f"duplicate query id {query_id!r}", path=path, line=number)
        queries[query_id] = _string_field(record, "text", path, number, required=True)
    return queries


def _read_qrels(path: Path) -> pd.DataFrame:
    """Read a BEIR qrels file with :func:`reteval.io.read_qrels`; a pair judged twice keeps its
    last grade, with a :class:`DatasetWarning`."""
    frame = read_qrels(path, layout="beir", duplicates=QRELS_DUPLICATES)
    if frame.attrs["duplicates"]:
        warnings.warn(
            f"{path}: {frame.attrs['duplicates']} (query, document) pair(s) judged more than "
            "once; the last grade is kept",
            DatasetWarning,
            stacklevel=4,
        )
    return pd.DataFrame(
        {
            "query_id": pd.Series(frame["query_id"].to_numpy(dtype=object), dtype="str"),
            "doc_id": pd.Series(frame["doc_id"].to_numpy(dtype=object), dtype="str"),
            "relevance": pd.Series(frame["relevance"].to_numpy()),
        }
    )


def load_beir(path: str | os.PathLike, split: str = "test", *, name: str | None = None) -> Dataset:
    """Read a test collection stored in the BEIR layout.

    Parameters
    ----------
    path : str or path-like
        Folder holding ``corpus.jsonl``, ``queries.jsonl`` and ``qrels/<split>.tsv``
        (each may be gzip-compressed, with a ``.gz`` suffix).
    split : str, default "test"
        Which qrels file to read, e.g. ``"test"``, ``"dev"``, ``"train"``.
    name : str, optional
        Name of the returned dataset; defaults to the folder's name.

    Returns
    -------
    Dataset
        Queries restricted to those judged in ``split``; qrels in file order.

    Raises
    ------
    InputError
        When the folder or a file is missing, a JSON line is malformed, an id
        is duplicated, a score is not an integer, the corpus is empty, or the
        split holds no judgment for a known query. The message names the file
        and, for a bad record, the line.

    Warns
    -----
    DatasetWarning
        For judgments of unknown queries (dropped), of unknown documents
        (kept) and for pairs judged twice (last grade kept: the policy
        :data:`QRELS_DUPLICATES` of :func:`reteval.io.read_qrels`).

    Notes
    -----
    The first line of the qrels file is a header when its third field holds
    no digit (BEIR files start with ``query-id<TAB>corpus-id<TAB>score``);
    otherwise it is read as a judgment. Scores must be integers (negative
    ones are kept). Missing ``title`` or ``text`` fields of a document read
    as empty strings; integer ``_id`` values are turned into strings.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> folder = pathlib.Path(tmp.name)
    >>> _ = (folder / "corpus.jsonl").write_text(
    ...     '{"_id": "d1", "title": "Tea", "text": "Green tea."}\\n'
    ...     '{"_id": "d2", "title": "Coffee", "text": "Black coffee."}\\n')
    >>> _ = (folder / "queries.jsonl").write_text(
    ...     '{"_id": "q1", "text": "tea"}\\n{"_id": "q2", "text": "milk"}\\n')
    >>> (folder / "qrels").mkdir()
    >>> _ = (folder / "qrels" / "test.tsv").write_text(
    ...     "query-id\\tcorpus-id\\tscore\\nq1\\td1\\t2\\nq1\\td2\\t0\\n")
    >>> ds = load_beir(folder, name="toy")
    >>> ds
    Dataset(name='toy', documents=2, queries=1, judgments=2)
    >>> ds.qrels
      query_id doc_id  relevance
    0       q1     d1          2
    1       q1     d2          0
    >>> tmp.cleanup()
    """
    folder = as_path(path, "BEIR folder")
    if not folder.is_dir():
        what = "a file, not a folder" if folder.exists() else "no such folder"
        raise InputError(f"expected a BEIR folder (corpus.jsonl, queries.jsonl, qrels/); {what}",
                         path=folder)
    try:
        qrels_path = _find(folder, f"qrels/{split}.tsv")
    except InputError:
        qrels_dir = folder / "qrels"
        splits = sorted(
            {p.name.split(".")[0] for p in qrels_dir.glob("*.tsv*")} if qrels_dir.is_dir() else []
        )
        raise InputError(
            f"split={split!r}: expected qrels/{split}.tsv; the splits found are {splits}",
            path=folder,
        ) from None
    corpus = _read_corpus(_find(folder, "corpus.jsonl"))
    queries_path = _find(folder, "queries.jsonl")
    all_queries = read_queries(queries_path)
    qrels = _read_qrels(qrels_path)

    known_query = qrels["query_id"].isin(all_queries.keys())
    if not known_query.all():
        unknown = pd.unique(qrels.loc[~known_query, "query_id"])
        warnings.warn(
            f"{qrels_path}: {int((~known_query).sum())} judgment(s) for {len(unknown)} query id(s) "
            f"not in {queries_path.name} (e.g. {unknown[0]!r}); they are dropped",
            DatasetWarning,
            stacklevel=2,
        )
        qrels = qrels.loc[known_query].reset_index(drop=True)
    if qrels.empty:
        raise InputError(
            f"split={split!r} holds no judgment for any query in {queries_path.name}",
            path=qrels_path,
        )
    known_doc = qrels["doc_id"].isin(corpus.keys())
    if not known_doc.all():
        unknown = pd.unique(qrels.loc[~known_doc, "doc_id"])
        warnings.warn(
            f"{qrels_path}: {int((~known_doc).sum())} judgment(s) for {len(unknown)} "
            "document id(s) "
            f"not in the corpus (e.g. {unknown[0]!r}); they are kept (they count as relevant "
            "documents that no system can retrieve)",
            DatasetWarning,
            stacklevel=2,
        )
    judged = set(qrels["query_id"])
    queries = {qid: text for qid, text in all_queries.items() if qid in judged}
    return Dataset(name=name if name is not None else folder.name, corpus=corpus,
                   queries=queries, qrels=qrels)


# --------------------------------------------------------------------------- downloading


def default_cache_dir() -> Path:
    """Folder for downloaded datasets: ``$RETEVAL_CACHE``, else ``~/.cache/reteval``.

    Examples
    --------
    >>> isinstance(default_cache_dir(), Path)
    True
    """
    env = os.environ.get("RETEVAL_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "reteval"


def _download(url: str, target: Path) -> tuple[str, str]:
    """Stream ``url`` into ``target``; return its (md5, sha256) hex digests.

    A response cut short (fewer bytes than its ``Content-Length``, or a broken
    connection) raises :class:`OSError`.
    """
    md5, sha256 = hashlib.md5(), hashlib.sha256()
    received = 0
    try:
        with _urlopen(url, timeout=_TIMEOUT) as response, open(target, "wb") as out:
            headers = getattr(response, "headers", None)
            length = headers.get("Content-Length") if headers is not None else None
            total = int(length) if length and length.isdigit() else None
            with progress_counter(total, desc=f"downloading {target.name}", unit="B",
                                  unit_scale=True) as advance:
                while chunk := response.read(_CHUNK):
                    received += len(chunk)
                    md5.update(chunk)
                    sha256.update(chunk)
                    out.write(chunk)
                    advance(len(chunk))
    except http.client.HTTPException as exc:  # e.g. IncompleteRead: the server hung up
        raise OSError(f"the response was interrupted after {received} bytes "
                      f"({type(exc).__name__})") from None
    if total is not None and received != total:
        raise OSError(f"the response was interrupted: {received} of {total} bytes")
    return md5.hexdigest(), sha256.hexdigest()


def _recorded_sha256(cache: Path) -> dict[str, str]:
    record = cache / "checksums.json"
    if not record.is_file():
        return {}
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed checksum record: {exc}", path=record) from None
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _record_sha256(cache: Path, name: str, digest: str) -> None:
    data = _recorded_sha256(cache)
    data[name] = digest
    tmp = cache / "checksums.json.part"
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, cache / "checksums.json")


#: An archive may expand to at most this many times its own size (a "zip bomb" is refused).
MAX_EXPANSION = 200


def _safe_extract(archive: zipfile.ZipFile, destination: Path, archive_size: int) -> None:
    root = destination.resolve()
    total = 0
    for member in archive.infolist():
        target = (destination / member.filename).resolve()
        if target != root and root not in target.parents:
            raise DownloadError(f"refusing to extract {member.filename!r}: it points outside "
                                f"the extraction folder {destination}")
        total += member.file_size
    if total > MAX_EXPANSION * max(archive_size, 1):
        raise DownloadError(f"refusing to extract an archive of {archive_size} bytes that "
                            f"expands to {total} bytes (more than {MAX_EXPANSION} times its size)")
    archive.extractall(destination)  # zipfile stops at each member's declared size


def _check_layout(source: Path, url: str) -> None:
    """A BEIR folder: corpus, queries and at least one qrels split, before it is cached."""
    def has(name):
        return any((source / f).is_file() for f in (name, name + ".gz"))

    missing = [name for name in ("corpus.jsonl", "queries.jsonl") if not has(name)]
    qrels = source / "qrels"
    if not qrels.is_dir() or not any(p.name.endswith((".tsv", ".tsv.gz")) for p in qrels.iterdir()):
        missing.append("qrels/<split>.tsv")
    if missing:
        raise DownloadError(f"{url} does not hold a BEIR folder: no {', '.join(missing)}; "
                            "nothing was written to the cache")


def _fetch_beir(name: str, cache: Path) -> Path:
    """Download, verify and unzip BEIR dataset ``name`` into ``cache / name``."""
    url = BEIR_URL.format(name=name)
    final = cache / name
    try:
        cache.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=cache))
    except OSError as exc:  # a file where the cache folder should be, no permission ...
        raise InputError(f"cannot use the dataset cache folder: {exc.strerror or exc} (set "
                         "RETEVAL_CACHE or cache_dir to a writable folder)", path=cache) from None
    try:
        zip_path = work / f"{name}.zip"
        try:
            md5, sha256 = _download(url, zip_path)
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise DownloadError(
                f"could not download dataset {name!r} from {url} into {final} ({reason}). "
                f"If this machine is offline, fetch the zip elsewhere and unzip it so that "
                f"{final / 'corpus.jsonl'} exists, or pass a folder path instead of a name."
            ) from exc
        expected_md5 = BEIR_DATASETS.get(name)
        recorded = _recorded_sha256(cache).get(name)
        if expected_md5 is not None and md5 != expected_md5:
            raise DownloadError(
                f"checksum mismatch for {url}: expected md5 {expected_md5}, got {md5}. "
                f"Nothing was written to {final}; try again later."
            )
        if expected_md5 is None and recorded is not None and sha256 != recorded:
            raise DownloadError(
                f"checksum mismatch for {url}: expected the sha256 recorded on the first "
                f"download, {recorded} (in {cache / 'checksums.json'}), got {sha256}. "
                f"Nothing was written to {final}; delete that entry if the file was re-issued."
            )
        unpacked = work / "unpacked"
        try:
            with zipfile.ZipFile(zip_path) as archive:
                _safe_extract(archive, unpacked, zip_path.stat().st_size)
        except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
            raise DownloadError(f"{url} is not a valid zip file: {exc}") from None
        source = unpacked / name
        if not source.is_dir():
            source = unpacked
        _check_layout(source, url)
        try:
            os.rename(source, final)  # atomic: readers see no folder or a whole one
        except OSError as exc:
            if not final.is_dir():  # not a concurrent download finishing first
                raise InputError(f"cannot put the dataset in the cache: {exc.strerror or exc}",
                                 path=final) from None
        if expected_md5 is None and recorded is None:
            _record_sha256(cache, name, sha256)
        return final
    finally:
        shutil.rmtree(work, ignore_errors=True)


def datasheet(name_or_path: str | os.PathLike = "teaching", *, lang: str = "en") -> Path | None:
    """The datasheet of a collection in ``lang``, or None when it has none.

    For ``"teaching"``, the bundled ``DATASHEET.md`` (English) or ``DATASHEET.zh.md``
    (Chinese); for a folder, its ``DATASHEET.zh.md`` (with ``lang="zh"``),
    ``DATASHEET.md`` or ``README.md``, the first that exists.

    Examples
    --------
    >>> datasheet("teaching", lang="zh").name
    'DATASHEET.zh.md'
    >>> datasheet("teaching").read_text(encoding="utf-8").splitlines()[0]
    '# Datasheet: the reteval teaching collection'
    """
    from reteval._util.catalogue import check_lang

    names = (["DATASHEET.zh.md"] if check_lang(lang) == "zh" else []) + ["DATASHEET.md",
                                                                          "README.md"]
    if str(name_or_path) == "teaching":
        folder = Path(str(resources.files("reteval") / "datasets" / "data" / "teaching"))
    else:
        folder = Path(name_or_path)
    return next((folder / name for name in names if (folder / name).is_file()), None)


def load(
    name_or_path: str | os.PathLike,
    *,
    split: str = "test",
    cache_dir: str | os.PathLike | None = None,
) -> Dataset:
    """Load a test collection by name or from a folder.

    Parameters
    ----------
    name_or_path : str or path-like
        ``"teaching"`` for the collection bundled with reteval (about 170
        English and Chinese documents on programming, machine learning,
        databases, the web and search; see its ``DATASHEET.md``); the path of
        an existing BEIR-layout folder; the name of a public BEIR dataset
        (a key of :data:`BEIR_DATASETS`, e.g. ``"scifact"``, ``"nfcorpus"``);
        or ``"irds:<id>"`` for an ir_datasets collection (see
        :func:`reteval.datasets.irds.load_irds`; ``split`` and ``cache_dir`` do not
        apply: the id names the split and ir_datasets keeps its own cache).
    split : str, default "test"
        Which qrels split to read.
    cache_dir : str or path-like, optional
        Where downloaded BEIR datasets are kept, under ``<cache_dir>/beir/<name>``.
        Defaults to :func:`default_cache_dir` (``$RETEVAL_CACHE`` or
        ``~/.cache/reteval``).

    Returns
    -------
    Dataset

    Raises
    ------
    InputError
        For an unknown name, a missing folder, or a malformed collection
        (see :func:`load_beir`).
    DownloadError
        When a BEIR dataset cannot be downloaded (offline: the message names
        the URL and the cache folder) or its checksum does not match.

    Notes
    -----
    A BEIR dataset is downloaded once from ``BEIR_URL`` and checked against
    the md5 published for it. The zip is written and unpacked in a temporary
    folder inside the cache, and the unpacked folder is renamed into place
    only when complete, so an interrupted or failed download leaves nothing
    half-written. For a name without a published md5 (``webis-touche2020``)
    the sha256 of the first download is recorded in
    ``<cache_dir>/beir/checksums.json`` and later downloads must match it
    (trust on first use). A folder already in the cache is used as is, with
    no network access.

    ``"teaching"`` always means the bundled collection; an existing folder
    wins over a BEIR dataset name (write ``"./teaching"`` for a folder of
    that name).

    Examples
    --------
    >>> ds = load("teaching")
    >>> len(ds.corpus) >= 150, len(ds.queries) >= 30
    (True, True)
    >>> sorted(ds.qrels["relevance"].unique().tolist())
    [0, 1, 2, 3]
    """
    if isinstance(name_or_path, str) and name_or_path == "teaching":
        bundled = resources.files("reteval") / "datasets" / "data" / "teaching"
        with resources.as_file(bundled) as folder:
            return load_beir(folder, split=split, name="teaching")
    if isinstance(name_or_path, str) and name_or_path.startswith("irds:"):
        from reteval.datasets.irds import load_irds

        return load_irds(name_or_path.removeprefix("irds:"))
    path = as_path(name_or_path, "name_or_path")
    if path.is_dir():
        return load_beir(path, split=split)
    text = os.fspath(name_or_path)
    if text in BEIR_DATASETS:
        cache = Path(cache_dir if cache_dir is not None else default_cache_dir()) / "beir"
        folder = cache / text
        if folder.exists() and not folder.is_dir() or cache.exists() and not cache.is_dir():
            place = cache if not cache.is_dir() else folder
            raise InputError(f"dataset {text!r}: its cache place is a file, not a folder; "
                             "move the file away, or set RETEVAL_CACHE or cache_dir to "
                             "another folder", path=place)
        if not folder.is_dir():
            folder = _fetch_beir(text, cache)
        return load_beir(folder, split=split, name=text)
    if path.exists():
        raise InputError(f"name_or_path={text!r}: expected a BEIR folder, got a file")
    raise InputError(
        f"name_or_path={text!r}: expected 'teaching', an existing BEIR folder, or one of the "
        f"public BEIR datasets {sorted(BEIR_DATASETS)}; it is none of these (no such folder)"
    )
