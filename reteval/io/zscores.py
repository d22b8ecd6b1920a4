"""trec_eval's z-score file (``-Z``): ``query measure mean stddev`` per line."""

from __future__ import annotations

from reteval.errors import InputError

__all__ = ["read_zscores"]


def read_zscores(source) -> dict[tuple[str, str], tuple[float, float]]:
    """Read a z-score file into ``{(query id, trec_eval measure name): (mean, stddev)}``.

    Parameters
    ----------
    source : path or dict
        A text file of ``query measure mean stddev`` lines (blank lines ignored), or a
        dict already in the returned shape. The grammar is the runs' and qrels'
        (:mod:`reteval.io.textfile`): lines end at LF, CR LF or CR, fields are split on
        ASCII white space only (a no-break space or U+0085 is part of a field), and the
        numbers are trec_eval's decimals, whole fields (``1_0`` or ``inf`` is refused).

    Raises
    ------
    InputError
        A line without 4 fields, a mean or deviation that is not a finite decimal, a pair
        given twice; each names the file and the line.

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
    from reteval.io.textfile import (
        as_path,
        decode,
        parse_decimal,
        read_bytes,
        split_fields,
        split_lines,
    )

    path = as_path(source, "z-score file")
    table = {}
    for number, line in enumerate(split_lines(decode(read_bytes(path), path)), 1):
        fields = split_fields(line)
        if not fields:
            continue
        if len(fields) != 4:
            raise InputError(f"a z-score line is 'query measure mean stddev' (4 fields); got "
                             f"{len(fields)}: {line.strip()!r}", path=path, line=number)
        query, measure = fields[0], fields[1]
        mean, stddev = (parse_decimal(text, what=f"the {what} of query {query!r} measure "
                                                 f"{measure!r}", path=path, line=number)
                        for text, what in ((fields[2], "mean"), (fields[3], "stddev")))
        key = (query, measure)
        if key in table:
            raise InputError(f"query {query!r} measure {measure!r} is given twice",
                             path=path, line=number)
        table[key] = (mean, stddev)
    return table
