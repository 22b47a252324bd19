"""An archive's events as tournaments: who played, standings and tie-breaks, the tables
written out, and FIDE's Tournament Report File in and out.

- :mod:`zrec.archive.tournament.event`: an event's players and rounds;
- :mod:`zrec.archive.tournament.tiebreaks`: FIDE tie-breaks and the ranking;
- :mod:`zrec.archive.tournament.tables`: standings and crosstables as text, CSV, JSON
  and HTML;
- :mod:`zrec.archive.tournament.trf` and :mod:`zrec.archive.tournament.roster`: TRF-16
  out, a roster in;
- :mod:`zrec.archive.tournament.byes`: byes recorded and taken back.
"""
