"""trec_eval's z-score file (``-Z``): ``query measure mean stddev`` per line."""

from __future__ import annotations

import math

from reteval.errors import InputError

__all__ = ["read_zscores"]


def read_zscores(source) -> dict[tuple[str, str], tuple[float, float]]:
    """Read a z-score file into ``{(query id, trec_eval measure name): (mean, stddev)}``.

    Parameters
    ----------
    source : path or dict
        A text file of whitespace-separated ``query measure mean stddev`` lines (blank lines
        ignored), or a dict already in the returned shape.

    Raises
    ------
    InputError
        A line without 4 fields, a mean or deviation that is not a number, a pair given twice.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "z"
    >>> _ = path.write_text("301 map 0.12 0.15\\n301 P_5 0.4 0.2\\n")
    >>> read_zscores(path)[("301", "map")]
    (0.12, 0.15)
    """
    if isinstance(source, dict):
        return {(str(q), str(m)): (float(a), float(b)) for (q, m), (a, b) in source.items()}
    from reteval.io.textfile import as_path, decode, read_bytes

    path = as_path(source, "z-score file")
    table = {}
    for number, line in enumerate(decode(read_bytes(path), path).splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 4:
            raise InputError(f"{path}, line {number}: a z-score line is 'query measure mean "
                             f"stddev' (4 fields); got {len(fields)}: {line.strip()!r}")
        try:
            mean, stddev = float(fields[2]), float(fields[3])
        except ValueError:
            raise InputError(f"{path}, line {number}: mean and stddev must be numbers; got "
                             f"{fields[2]!r} {fields[3]!r}") from None
        if not (math.isfinite(mean) and math.isfinite(stddev)):
            raise InputError(f"{path}, line {number}: mean and stddev must be finite")
        key = (fields[0], fields[1])
        if key in table:
            raise InputError(f"{path}, line {number}: query {fields[0]!r} measure "
                             f"{fields[1]!r} is given twice")
        table[key] = (mean, stddev)
    return table
