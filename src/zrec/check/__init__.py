"""Checking records: every problem of a record found by replaying it through its rules.

- :mod:`zrec.check.validate`: diagnostics for a record, a file, standard input;
- :mod:`zrec.check.diagnostics`: the diagnostics themselves and the report that shows them;
- :mod:`zrec.check.tally`: counts that add up (the totals of a validation, of an import);
- :mod:`zrec.check.parallel`: the same for a large file, in several processes;
- :mod:`zrec.check.readings`: a record under every combination of its rule options.
"""
