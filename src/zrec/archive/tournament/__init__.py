"""An archive's events as tournaments: who played, standings and tie-breaks, the tables
written out, and FIDE's Tournament Report File in and out.

- :mod:`zrec.archive.tournament.event`: an event's players and rounds;
- :mod:`zrec.archive.tournament.tiebreaks`: FIDE tie-breaks and the ranking;
- :mod:`zrec.archive.tournament.tables`: standings and crosstables as text, CSV, JSON
  and HTML;
- :mod:`zrec.archive.tournament.trf` and :mod:`zrec.archive.tournament.roster`: TRF-16
  out, a roster in;
- :mod:`zrec.archive.tournament.byes`: byes recorded and taken back;
- :mod:`zrec.archive.tournament.pairstore`, :mod:`~zrec.archive.tournament.paired`:
  the stored pairings of an event's rounds, and its games checked against them;
- :mod:`zrec.archive.tournament.drawing`: rounds drawn (the Dutch system of
  :mod:`~zrec.archive.tournament.swiss`, the Berger tables of
  :mod:`~zrec.archive.tournament.berger`, the tables of
  :mod:`~zrec.archive.tournament.seating`), shown by
  :mod:`~zrec.archive.tournament.pairing_tables`.
"""
