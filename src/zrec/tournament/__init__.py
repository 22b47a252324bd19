"""Tournaments as computation, apart from where they are kept: an event's players and
rounds, standings and tie-breaks, the tables written out, FIDE's Tournament Report
File in and out, rounds paired, and players rated.  Nothing here reads or writes an
archive (:mod:`zrec.archive.events` and :mod:`zrec.archive.rated` do, over this layer),
so ``zrec pair FILE.trf`` runs without one.

- :mod:`zrec.tournament.event`: an event's players and rounds, and the layer's error;
- :mod:`zrec.tournament.tiebreaks`: FIDE tie-breaks and the ranking;
- :mod:`zrec.tournament.tables`: standings and crosstables as text, CSV (through
  :mod:`~zrec.tournament.csvtext`), JSON and HTML;
- :mod:`zrec.tournament.trf` and :mod:`~zrec.tournament.trfwrite`: TRF-16 in and out;
- :mod:`zrec.tournament.boards`, :mod:`~zrec.tournament.paired`: the boards of a
  round, and games checked against them; :mod:`~zrec.tournament.progress`: how far a
  round has got; :mod:`~zrec.tournament.pairing_tables`: the boards shown;
- :mod:`zrec.tournament.swiss`: the FIDE Dutch system (through
  :mod:`~zrec.tournament.dutch`, :mod:`~zrec.tournament.dutch_weights` and the
  weighted matching of :mod:`~zrec.tournament.matching`); the Berger tables of
  :mod:`~zrec.tournament.berger`; the tables of :mod:`~zrec.tournament.seating`;
- :mod:`zrec.tournament.pairtools`: a TRF file's rounds paired and checked
  (``zrec pair``); :mod:`~zrec.tournament.randomswiss`: a random Swiss event;
- :mod:`zrec.tournament.ratings`: Glicko-2 and Plackett-Luce ratings.
"""
