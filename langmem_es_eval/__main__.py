"""``python -m langmem_es_eval`` — the ``langmem-es eval`` command on its own."""

import sys

from langmem_es_eval.cli import main

sys.exit(main())
