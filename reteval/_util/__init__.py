"""Plumbing that knows nothing of retrieval: files, checks, progress, fonts, optional extras,
one record per language and the machinery of the text catalogue (the words themselves belong
to the packages that say them).

Not API: the modules here serve the layers above and may change without notice.
"""
