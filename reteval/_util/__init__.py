"""Plumbing that knows nothing of retrieval: files, checks, progress, fonts, the text
catalogue of both languages, optional extras.

Not API: the modules here serve the layers above and may change without notice.
"""
