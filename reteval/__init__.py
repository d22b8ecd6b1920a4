"""reteval: evaluation of retrieval systems."""
