"""The database fixtures of conftest.py work: ``pg_url`` is a fresh PostgreSQL database
one can write to, and ``db_url`` gives a SQLite path and a PostgreSQL URL."""

from __future__ import annotations

import psycopg


def test_pg_url_is_a_fresh_database_to_write_to(pg_url: str) -> None:
    with psycopg.connect(pg_url) as conn:
        row = conn.execute("SELECT current_database()").fetchone()
        assert row is not None
        assert row[0].startswith("zrec_t_")
        conn.execute("CREATE TABLE probe (id integer PRIMARY KEY, word text NOT NULL)")
        conn.execute("INSERT INTO probe (id, word) VALUES (%s, %s)", (1, "héllo"))
        assert conn.execute("SELECT word FROM probe WHERE id = 1").fetchall() == [("héllo",)]


def test_db_url_is_a_sqlite_file_or_a_postgresql_url(db_url: str) -> None:
    if db_url.startswith("postgresql://"):
        assert db_url.rsplit("/", 1)[1].startswith("zrec_t_")
    else:
        assert db_url.endswith("archive.sqlite")
