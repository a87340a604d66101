"""``python -m baida.server.store``: run the schema migrations by hand."""

import sys

from .migrate import main

sys.exit(main())
