"""``python -m langmem_es.evaluation`` — the ``langmem-es eval`` command on its own."""

import sys

from langmem_es.evaluation.cli import main

sys.exit(main())
