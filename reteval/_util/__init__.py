"""Plumbing that knows nothing of retrieval (not API: import from the public modules instead)."""
