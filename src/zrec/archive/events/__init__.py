"""An archive's events as tournaments (:mod:`zrec.tournament`): what reads them from
the archive and what writes them there.

- :mod:`zrec.archive.events.loading`: an event loaded as a
  :class:`~zrec.tournament.event.Tournament`, and the stored games checked against
  their stored pairings;
- :mod:`zrec.archive.events.pairstore`: the stored pairings of an event's rounds;
- :mod:`zrec.archive.events.roster`: a TRF file's roster read into an event;
- :mod:`zrec.archive.events.byes`: byes recorded and taken back;
- :mod:`zrec.archive.events.drawing`: rounds drawn and stored (the Dutch system of
  :mod:`zrec.tournament.swiss`, the Berger tables of :mod:`zrec.tournament.berger`,
  the tables of :mod:`zrec.tournament.seating`).
"""
