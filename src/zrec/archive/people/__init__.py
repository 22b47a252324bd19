"""An archive's players: names as the archive matches them, likely duplicates, merges.

- :mod:`zrec.archive.people.names`: normal forms of names and their comparison;
- :mod:`zrec.archive.people.players`: listing players, suggesting merges;
- :mod:`zrec.archive.people.merging`: making them.
"""
