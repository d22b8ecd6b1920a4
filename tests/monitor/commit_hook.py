"""A history write interrupted just before its COMMIT, for the tests of partial entries.

A history entry is written in one transaction (``BEGIN IMMEDIATE``, the INSERTs, ``COMMIT``:
``reteval._util.sqlitefile.immediate``). :func:`connect_calling` is a ``sqlite3.connect`` whose
connections call a function after an entry's rows are inserted and before that ``COMMIT``: it
may raise (a write that fails half-way) or sleep (a process to kill while an entry is
half-written).

Run as a script, it runs the reteval command line so that every entry's write pauses for
SECONDS before its COMMIT and says so on stderr (:data:`PAUSE_MARK`)::

    python tests/monitor/commit_hook.py SECONDS monitor HISTORY --run RUN ...
"""

import sqlite3
import sys
import time

PAUSE_MARK = "pausing inside the write transaction"


def connect_calling(before_commit, connect=sqlite3.connect):
    """``connect``, whose connections call ``before_commit()`` before each entry's COMMIT."""

    class Connection(sqlite3.Connection):
        writing_entry = False

        def execute(self, sql, *args):
            if sql.lstrip().startswith("INSERT INTO entries"):
                self.writing_entry = True
            elif sql == "COMMIT" and self.writing_entry:
                self.writing_entry = False
                before_commit()
            return super().execute(sql, *args)

    def connect_hooked(*args, **kwargs):
        return connect(*args, factory=Connection, **kwargs)

    return connect_hooked


def main(seconds: float, argv: list[str]) -> int:
    def pause():
        print(PAUSE_MARK, file=sys.stderr, flush=True)
        time.sleep(seconds)

    sqlite3.connect = connect_calling(pause)
    from reteval.cli import main as reteval_main

    return reteval_main(argv)


if __name__ == "__main__":
    sys.exit(main(float(sys.argv[1]), sys.argv[2:]))
