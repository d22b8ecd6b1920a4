"""A folder shared by every worker of one pytest session, and folders in it built only once.

pytest-xdist runs the suite in several processes; each has its own temporary folder under
one parent per session. Things that cost minutes to make (an executed notebook, a sample of
a dataset, the embeddings of a corpus) are kept in ``<parent>/shared`` so that the first
process to need one makes it while the others wait on a lock (``fcntl``), then read it.
"""

import fcntl
import os
import shutil
from pathlib import Path

#: Set by tests/conftest.py at the start of each worker's session.
FOLDER_ENV = "RETEVAL_TEST_SHARED_DIR"


def session_folder():
    """The folder shared by this session's workers (tests/conftest.py names it)."""
    return Path(os.environ[FOLDER_ENV])


def build_once(folder, build):
    """Return ``folder`` after ``build(folder)`` made it, in this process or another one.

    The first caller builds while holding ``folder``'s lock; a caller that comes while it
    builds waits, then finds the folder complete. A build that raised leaves nothing behind,
    so the next caller tries again (and meets the same error).
    """
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    done = folder / ".complete"
    with open(folder.with_name(folder.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            try:
                build(folder)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            done.touch()
    return folder
