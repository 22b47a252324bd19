"""Studying the rules themselves (perft counts, self-play studies of several readings
of the rules, and their chart) and, by the same players, one record's moves.

- :mod:`zrec.research.perft`: numbers of legal move sequences from the start;
- :mod:`zrec.research.study` and :mod:`zrec.research.study_runs`: many random games
  under each reading, counted, in one process or several;
- :mod:`zrec.research.fit`: how well each reading explains recorded games;
- :mod:`zrec.research.pieces` (with :mod:`zrec.research.cluster`): pieces of a study's
  or a fit's work run here, in worker processes or on a Dask cluster, in order;
- :mod:`zrec.research.study_chart`: the readings side by side as an SVG chart, built of
  the parts in :mod:`zrec.research.chart_parts`;
- :mod:`zrec.research.analysis`: one record's moves judged by a search player, with the
  luck of its rolls (:mod:`zrec.research.luck`), written into the record by
  :mod:`zrec.research.annotate`.
"""
