"""Version 4 of the archive's schema, the games' rows: the statements that add the
new tables and columns, and :func:`rows_to_v4`, which converts the rows of an archive
of version 3 (kept apart from :mod:`zrec.archive.store.schema`, which runs them).
"""

from __future__ import annotations

from zrec.archive.store.db import Database

__all__ = ["V4_ROWS", "rows_to_v4"]

# version 4, the games' rows: texts packed (zrec.archive.store.packing), tags read
# from the text, material one row a game (the rows of version 3 are converted by
# rows_to_v4, which then drops material_v3 and games' old text column), rule options
# an id into rule_options
V4_ROWS = """
CREATE TABLE dictionaries (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    data {blob} NOT NULL
);
ALTER TABLE games ADD COLUMN packed {blob} NOT NULL DEFAULT '';
ALTER TABLE material RENAME TO material_v3;
CREATE TABLE material (
    game BIGINT PRIMARY KEY,
    counts TEXT NOT NULL
){without_rowid};
CREATE TABLE rule_options (id {id}, options TEXT NOT NULL UNIQUE);
INSERT INTO rule_options (options) SELECT DISTINCT options FROM games ORDER BY options;
ALTER TABLE games ADD COLUMN options_id BIGINT NOT NULL DEFAULT 0;
UPDATE games SET options_id = (SELECT r.id FROM rule_options r WHERE r.options = games.options);
ALTER TABLE games DROP COLUMN options
"""


def rows_to_v4(db: Database) -> None:
    """Version 4, the games' rows: material one row a game (its counts in game order,
    each between spaces), each game's text packed (a dictionary made for each game
    from its first stored games), and the tags its text gives back dropped from
    ``game_tags``; a page of games at a time."""
    from zrec.archive.store.packing import Texts, tags_of_text

    texts = Texts(db)
    for (name,) in db.rows("SELECT DISTINCT game FROM games ORDER BY game"):
        first = db.rows("SELECT text FROM games WHERE game = ? ORDER BY id LIMIT 1000", (name,))
        texts.train((str(name), str(t)) for (t,) in first)
    last = 0
    while True:
        page = db.rows(
            "SELECT id, game, text FROM games WHERE id > ? ORDER BY id LIMIT 2000", (last,)
        )
        if not page:
            break
        last = int(page[-1][0])
        low = int(page[0][0]) - 1
        counts: dict[int, list[str]] = {}
        for game, held in db.rows(
            "SELECT game, counts FROM material_v3 WHERE game > ? AND game <= ? ORDER BY game, ply",
            (low, last),
        ):
            counts.setdefault(int(game), []).append(str(held))
        db.copy_rows(
            "material", "game, counts", [(g, f" {' '.join(c)} ") for g, c in counts.items()]
        )
        tags: dict[int, list[tuple[str, str]]] = {}
        for gid, name, value in db.rows(
            "SELECT game, name, value FROM game_tags WHERE game > ? AND game <= ? "
            "ORDER BY game, idx",
            (low, last),
        ):
            tags.setdefault(int(gid), []).append((str(name), str(value)))
        packed = [(texts.pack(str(name), str(text)), int(gid)) for gid, name, text in page]
        db.executemany("UPDATE games SET packed = ? WHERE id = ?", packed)
        given = [
            (int(gid),)
            for gid, _, text in page
            if tuple(tags.get(int(gid), ())) == tags_of_text(str(text))
        ]
        db.executemany("DELETE FROM game_tags WHERE game = ?", given)
    db.execute("DROP TABLE material_v3")
    db.execute("ALTER TABLE games DROP COLUMN text")
    db.execute("ALTER TABLE games RENAME COLUMN packed TO text")
