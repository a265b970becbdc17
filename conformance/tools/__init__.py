"""The tools built on the harness: identify, fuzz, perft, replay, export, engine reports, merge, pinning, the site's tables."""
