"""A test helper: an archive's games' rows turned back into those of schema 3 (texts
as text, every tag in ``game_tags``, material one row a count with its place, rule
options as text), and (``indexes``) its index tables to schema 3's, empty (a migration
to 4 builds them again from the texts), as an archive made before version 4 holds them,
to test the migration."""

from __future__ import annotations

from zrec.archive import Archive
from zrec.archive.store.packing import tags_of_text
from zrec.archive.store.schema import _statements

_V3_INDEXES = """
DROP TABLE positions;
DROP TABLE openings;
DROP TABLE openings_long;
CREATE TABLE positions (part INTEGER NOT NULL, bucket INTEGER NOT NULL,
    entries {blob} NOT NULL, PRIMARY KEY (part, bucket)){without_rowid};
CREATE TABLE openings (path BIGINT NOT NULL, game BIGINT NOT NULL,
    PRIMARY KEY (path, game)){without_rowid}
"""


def rows_back_to_v3(archive: Archive, indexes: bool = True) -> None:
    db = archive.db
    with db.transaction():
        db.execute("DROP TABLE IF EXISTS tree_lines")  # (version 6: filled again by its migration)
        if indexes:
            for statement in _statements(db, _V3_INDEXES):
                db.execute(statement)
        texts = [
            (int(gid), archive.texts.unpack(t))
            for gid, t in db.rows("SELECT id, text FROM games ORDER BY id")
        ]
        tagged = {int(g) for (g,) in db.rows("SELECT DISTINCT game FROM game_tags")}
        db.copy_rows(
            "game_tags",
            "game, idx, name, value",
            [
                (gid, i, k, v)
                for gid, text in texts
                if gid not in tagged
                for i, (k, v) in enumerate(tags_of_text(text))
            ],
        )
        material = [
            (int(gid), c, ply)
            for gid, counts in db.rows("SELECT game, counts FROM material")
            for ply, c in enumerate(str(counts).split())
        ]
        db.execute("DROP TABLE material")
        db.execute("DROP TABLE dictionaries")
        for statement in _statements(
            db,
            "CREATE TABLE material (game BIGINT NOT NULL, counts TEXT NOT NULL, "
            "ply INTEGER NOT NULL, PRIMARY KEY (game, counts)){without_rowid}",
        ):
            db.execute(statement)
        db.copy_rows("material", "game, counts, ply", material)
        db.execute("ALTER TABLE games ADD COLUMN plain TEXT NOT NULL DEFAULT ''")
        db.executemany("UPDATE games SET plain = ? WHERE id = ?", [(t, g) for g, t in texts])
        db.execute("ALTER TABLE games DROP COLUMN text")
        db.execute("ALTER TABLE games RENAME COLUMN plain TO text")
        db.execute("ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT ''")
        db.execute(
            "UPDATE games SET options = (SELECT o.options FROM rule_options o "
            "WHERE o.id = games.options_id)"
        )
        db.execute("ALTER TABLE games DROP COLUMN options_id")
        db.execute("DROP TABLE rule_options")
        db.execute("UPDATE meta SET value = '3' WHERE name = 'schema'")
    archive.texts.forget()
