"""``zrec archive users``: the accounts of an archive that ``zrec serve`` shares.

``add``, ``list``, ``remove``, ``password`` and ``token`` (a new API token, or
``--revoke``); the work is done by :mod:`zrec.serve.accounts`.  A password is asked
twice, unseen, on a terminal, or read as one line from standard input when that is not
a terminal (a script's pipe).  No password, hash or stored token is ever printed.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from zrec.cli._app import EXIT_USAGE, check_format, fail
from zrec.cli.archive import DEFAULT_DB, DbOpt, archive_app, opened

if TYPE_CHECKING:
    from zrec.archive import Archive
    from zrec.serve.accounts import User

users_app = typer.Typer(
    name="users",
    help="The accounts of a shared archive (zrec serve): add, list, remove, password, "
    "token. Anonymous visitors read; editors import games and record results; admins "
    "also manage users and remove games.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
archive_app.add_typer(users_app, name="users")

NameArg = Annotated[str, typer.Argument(metavar="NAME", help="The user's name (any case).")]


def _refuse(exc: Exception) -> NoReturn:
    """An account's error (a bad name, a short password): exit 2 with its message."""
    from zrec.serve.accounts import AccountError

    if isinstance(exc, AccountError):
        fail(str(exc), EXIT_USAGE)
    raise exc


def _read_password(name: str) -> str:
    """A new password for ``name``: asked twice, unseen, on a terminal; else one line of
    standard input (its line ending dropped).  Exit 2 for a short one, two that differ,
    or none."""
    from zrec.serve.accounts import AccountError, check_password

    if sys.stdin.isatty():
        import getpass

        try:
            first = getpass.getpass(f'New password for "{name}": ')
            try:
                check_password(first)
            except AccountError as exc:
                _refuse(exc)
            again = getpass.getpass("The same password again: ")
        except EOFError:  # Ctrl-D: the line the prompt is on is ended first
            typer.echo(err=True)
            fail("no password given: nothing was changed")
        if again != first:
            fail("the two passwords differ: nothing was changed")
        return first
    try:
        line = sys.stdin.readline()
    except UnicodeDecodeError:
        fail("the password is not UTF-8 text")
    if not line:
        fail("no password on standard input (a line is read from it when it is not a terminal)")
    return line.removesuffix("\n").removesuffix("\r")


def _known(archive: Archive, name: str) -> User:
    from zrec.serve.accounts import find_user

    found = find_user(archive, name)
    if found is None:
        fail(
            f'there is no user "{name}" in {archive.db.target} (zrec archive users list '
            "lists them)"
        )
    return found


@users_app.command("add")
def add_command(
    name: NameArg,
    role: Annotated[
        str, typer.Option("--role", metavar="editor|admin", help="What the user may do.")
    ] = "editor",
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Add a user with a password (asked twice on a terminal, else one line of standard
    input).

    A name is 1 to 64 printable characters without spaces at either end; names are
    compared without case. A password has at least 8 characters. An editor imports
    games and records results and byes; an admin also manages users and removes games.
    Example: zrec archive users add ada --role admin
    """
    from zrec.serve.accounts import ROLES, AccountError, add_user, check_name, find_user

    if role not in ROLES:
        fail(f"--role is editor or admin, not {role!r}")
    try:
        name = check_name(name)
    except AccountError as exc:
        _refuse(exc)
    with opened(db) as archive:
        found = find_user(archive, name)
        if found is not None:
            fail(f'there is already a user "{found.name}" in {archive.db.target}')
        # an account's error (AccountError, an ArchiveError) is exit 2, as opened says
        user = add_user(archive, name, role, _read_password(name))
    typer.echo(f'added the user "{user.name}" ({user.role})')


@users_app.command("list")
def list_command(
    db: DbOpt = DEFAULT_DB,
    output_format: Annotated[
        str, typer.Option("--format", metavar="text|json", help="What to print.")
    ] = "text",
) -> None:
    """List the users: name, role, when it was added (UTC), its API tokens that have
    not expired and when the first of them expires (UTC), sorted by name."""
    from zrec.serve.accounts import list_users

    output_format = check_format(output_format, ("text", "json"))
    with opened(db, write=False) as archive:
        users = list_users(archive)
    if output_format == "json":
        typer.echo(json.dumps([u.to_json() for u in users], ensure_ascii=False, indent=2))
        return
    if not users:
        typer.echo("no users (zrec archive users add NAME adds one)")
        return
    width = max([len("name"), *(len(u.name) for u in users)])
    typer.echo(f"{'name':<{width}}  role    {'created':<25}  tokens  next token expires")
    for user in users:
        soonest = user.expires[0] if user.expires else "-"
        typer.echo(f"{user.name:<{width}}  {user.role:<6}  {user.created:<25}  "
                   f"{user.tokens:>6}  {soonest}")


@users_app.command("remove")
def remove_command(name: NameArg, db: DbOpt = DEFAULT_DB) -> None:
    """Remove a user, its API tokens and its sessions on zrec serve (the games it
    imported stay). The only admin is not removed: add another admin first."""
    from zrec.serve.accounts import remove_user

    with opened(db) as archive:
        user = remove_user(archive, name)
    tokens = f"{user.tokens} token{'s' * (user.tokens != 1)}"
    typer.echo(f'removed the user "{user.name}" ({user.role}, {tokens})')


@users_app.command("password")
def password_command(name: NameArg, db: DbOpt = DEFAULT_DB) -> None:
    """Give a user a new password (asked twice on a terminal, else one line of standard
    input). Its sessions on zrec serve end; its API tokens stay valid: zrec archive
    users token NAME --revoke ends them."""
    from zrec.serve.accounts import set_password

    with opened(db) as archive:
        user = _known(archive, name)
        set_password(archive, user.name, _read_password(user.name))
    typer.echo(f'changed the password of "{user.name}"')


@users_app.command("token")
def token_command(
    name: NameArg,
    db: DbOpt = DEFAULT_DB,
    revoke: Annotated[
        bool, typer.Option("--revoke", help="End every API token of the user instead.")
    ] = False,
    days: Annotated[
        int,
        typer.Option("--days", min=1, max=3660, metavar="N",
                     help="Days the new token lasts (then it is refused)."),
    ] = 90,
) -> None:
    """Print a new API token for a user, for scripts: they send it as the header
    Authorization: Bearer TOKEN. It is shown this once (the archive keeps only its
    SHA-256 hash); a user may have several. It expires after --days days (90 unless
    told; standard error says when); zrec archive users list shows when each user's
    tokens expire. --revoke ends all of them.

    Example: TOKEN=$(zrec archive users token ada --days 30)
    """
    import time

    from zrec.serve.accounts import new_token, revoke_tokens, token_expiry, when

    now = time.time()
    with opened(db) as archive:
        user = _known(archive, name)
        if revoke:
            count = revoke_tokens(archive, user.name)
        else:
            token = new_token(archive, user.name, days, now)
    if revoke:
        typer.echo(f'revoked {count} token{"s" * (count != 1)} of "{user.name}"')
        return
    typer.echo(token)
    typer.echo(f'zrec: the token of "{user.name}" expires on '
               f"{when(token_expiry(days, now))} (in {days} day{'s' * (days != 1)})", err=True)
