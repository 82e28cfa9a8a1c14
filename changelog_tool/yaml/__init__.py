"""Reading YAML, in one place: the bounded event source (the only depth and alias
limits, :mod:`.limits`), the master-config loader built on it (:mod:`.safeload`),
the changelog's strict loader (:mod:`.strict`, what it builds: :mod:`.items`), the
YAML 1.1 reading benchmark CI sees (:mod:`.yaml11`), the composer the lints walk
(:mod:`.tree`) and YAML data equality (:mod:`.values`)."""
