"""Games as JSON: the values, a streaming reader for documents of any size, the check
against the JSON Schema, and conversion between JSON and the text notation.

- :mod:`zrec.notation.json.values`: a game as JSON values and back, losing nothing;
- :mod:`zrec.notation.json.stream`: a JSON document read a value at a time;
- :mod:`zrec.notation.json.schema`: the check against the schema (the only importer of
  jsonschema);
- :mod:`zrec.notation.json.convert`: files of games, JSON to text and text to JSON.
"""
