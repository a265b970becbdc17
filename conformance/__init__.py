"""gammonspec's conformance layers above the model: the harness (cases, runner, engines in processes), the tools
(identify, fuzz, perft, replay, export, reports) and, on top, the command line."""
