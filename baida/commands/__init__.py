"""The faces of ``baida``: one module per subcommand that is not a program of its own
(``score``, ``replay``, ``arena``, ``review``), each with ``add_arguments(parser)`` and
``run(args) -> int``; ``baida.cli`` wires them. They sit above everything they call (the
engine, the bots), so that no lower layer has a face and reaches up for it.
"""
