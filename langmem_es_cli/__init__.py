"""The ``langmem-es`` command line (entry point :func:`langmem_es_cli.main.main`)."""
