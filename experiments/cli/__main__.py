"""``python -m experiments.cli``: the ``cardsim`` command line."""

import sys

from experiments.cli import main

sys.exit(main())
