"""The tools' local servers: where they run and as whom (:mod:`.runtime`)."""
