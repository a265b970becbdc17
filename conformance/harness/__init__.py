"""The harness: cases and scenarios loaded, engines started (in-process or over the protocol), cases run and judged, reports written."""
