"""Ludii's trial files read by ``zrec convert --from ludii``: small trials written by
hand in Ludii's trial format (as Ludii 1.3.13 saves them), the exact records they give,
and a clear error, naming the line, for a trial that cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app
from zrec.notation.ludii import LudiiTrialError, read_trial
from zrec.play.ludii import trial_text
from zrec.rules import find_game
from zrec.rules.ludii import LudiiBoard

runner = CliRunner()

MOSONA_LUD = "game=/lud/board/war/leaping/lines/Awithlaknan Mosona.lud"
KOLOWIS_LUD = "game=../Common/res/lud/board/war/leaping/lines/Kolowis Awithlaknannai.lud"


def step(mover: int, source: int, target: int) -> str:
    return (
        f"Move=[Move:mover={mover},from={source},to={target},actions=[Move:typeFrom=Vertex,"
        f"from={source},typeTo=Vertex,to={target},decision=true]]"
    )


def hop(mover: int, source: int, over: int, target: int) -> str:
    return (
        f"Move=[Move:mover={mover},from={source},to={target},actions=[Remove:type=Vertex,"
        f"to={over}],[Move:typeFrom=Vertex,from={source},typeTo=Vertex,to={target},"
        "decision=true]]"
    )


def placements(sites: dict[int, int]) -> list[str]:
    return [
        f"Move=[Move:mover=0,from={s},to={s},actions=[Add:type=Vertex,to={s},what={w}]]"
        for s, w in sites.items()
    ]


#: Ludii's Mosona start: player 1 on sites 0,1,3,4,5,17-23, player 2 on 2,7-16,24.
MOSONA_START = {s: 1 for s in (0, 1, 3, 4, 5, *range(17, 24))} | {
    s: 2 for s in (2, *range(7, 17), 24)
}


def trial(game: str, moves: list[str], end: list[str], start: dict[int, int]) -> str:
    head = [game, "START GAME OPTIONS", "END GAME OPTIONS", "RNG internal state=1,-2,3,4"]
    tail = [f"numInitialPlacementMoves={len(start)}", *end, "SANDBOX=false"]
    tail.append("LUDII_VERSION=1.3.13")
    return "\n".join([*head, *placements(start), *moves, *tail]) + "\n"


#: a5-b5, then Black jumps it from c4 to a5, then b4-b5 (Ludii's sites 20-6, 12x6 -> 20, 5-6).
MOSONA = trial(
    MOSONA_LUD,
    [step(1, 20, 6), hop(2, 12, 6, 20), step(1, 5, 6)],
    ["winner=1", "endtype=NaturalEnd", "rankings=0.0,1.0,2.0"],
    MOSONA_START,
)

MOSONA_RECORD = (
    '[Game "mosona"]\n[Reading "ludii"]\n[Result "1-0"]\n\n1. a5-b5 c4xa5 2. b4-b5 1-0\n'
)


def convert(path: Path, *extra: str) -> Result:
    return runner.invoke(app, ["convert", "--from", "ludii", str(path), *extra])


def test_a_mosona_trial_becomes_a_record_of_ludii_s_reading(tmp_path: Path) -> None:
    path = tmp_path / "RandomTrial_0.txt"
    path.write_text(MOSONA, encoding="utf-8")
    result = convert(path, "--to", "zrec")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == MOSONA_RECORD


def test_a_trial_converts_to_json_with_the_same_tags_and_moves(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text(MOSONA, encoding="utf-8")
    result = convert(path, "--to", "json")
    assert result.exit_code == 0, result.stderr
    (game,) = json.loads(result.stdout)
    assert game["tags"] == [["Game", "mosona"], ["Reading", "ludii"], ["Result", "1-0"]]
    assert [m["move"] for m in game["moves"]] == ["a5-b5", "c4xa5", "b4-b5"]


def test_a_kolowis_trial_maps_ludii_s_48_sites_and_a_turn_limit_is_unfinished(
    tmp_path: Path,
) -> None:
    # Ludii's Kolowis: site 0 is b1 (the west end), 10 is b9 (the centre), 47 is a16,
    # 32 is c16: the sites of the two ends and the centre.  (The conversion maps the
    # sites; whether the moves are legal is validation's business.)
    moves = [step(1, 9, 10), hop(2, 11, 10, 9), step(1, 3, 0), step(2, 32, 31)]
    moves.append(step(1, 47, 46))
    text = trial(KOLOWIS_LUD, moves, ["winner=0", "endtype=TurnLimit"], {})
    path = tmp_path / "k.txt"
    path.write_text(text, encoding="utf-8")
    result = convert(path, "--to", "zrec")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[Game "kolowis"]\n[Reading "ludii"]\n[Result "*"]\n\n'
        "1. b8-b9 b10xb8 2. a1-b1 c16-c15 3. a16-a15 *\n"
    )


@pytest.mark.parametrize(
    ("end", "result"),
    [
        (["winner=2", "endtype=NaturalEnd"], "0-1"),
        (["winner=0", "endtype=NaturalEnd"], "1/2-1/2"),
        (["winner=0", "endtype=MoveLimit"], "*"),
        ([], "*"),  # a trial saved before the game ended says nothing of its end
    ],
)
def test_the_result_is_the_trial_s_end(end: list[str], result: str) -> None:
    text = trial(MOSONA_LUD, [step(1, 20, 6)], end, {})
    record = trial_text(read_trial(text, "t.txt"), "t.txt")
    assert record == (
        f'[Game "mosona"]\n[Reading "ludii"]\n[Result "{result}"]\n\n1. a5-b5 {result}\n'
    )


def test_placements_and_stored_legal_moves_are_not_moves_played() -> None:
    text = MOSONA.replace(
        "numInitialPlacementMoves=24\n",
        "LEGAL MOVES LIST SIZE = 3\nNEW LEGAL MOVES LIST\n[Move:mover=1,from=19,to=6,"
        "actions=[Move:typeFrom=Vertex,from=19,typeTo=Vertex,to=6,decision=true]]\n"
        "END LEGAL MOVES LIST\nnumInitialPlacementMoves=24\n",
    )
    parsed = read_trial(text, "t.txt")
    assert (parsed.name, len(parsed.placements), len(parsed.moves)) == (
        "Awithlaknan Mosona",
        24,
        3,
    )
    assert parsed.moves[1].removed == (6,)
    assert (parsed.winner, parsed.endtype, parsed.version) == (1, "NaturalEnd", "1.3.13")
    # without numInitialPlacementMoves, the placements are the leading mover-0 moves
    older = read_trial(text.replace("numInitialPlacementMoves=24\n", ""), "t.txt")
    assert (len(older.placements), len(older.moves)) == (24, 3)


LINE_OF_FIRST_MOVE = 4 + len(MOSONA_START) + 1


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (
            lambda t: t.replace("Move=[Move:mover=1,from=20", "Mvoe=[Move:mover=1,from=20"),
            f"t.txt:{LINE_OF_FIRST_MOVE}: not a line of a Ludii trial: "
            "'Mvoe=[Move:mover=1,from=20,to=6,actions=[Move:typeFrom=Ve...'",
        ),
        (
            lambda t: t.replace("mover=1,from=20,to=6,", "mover=1,from=20,to=x,"),
            f"t.txt:{LINE_OF_FIRST_MOVE}: not a Ludii move: "
            "'[Move:mover=1,from=20,to=x,actions=[Move:typeFrom=Vertex,...'",
        ),
        (
            lambda t: t.replace("[Remove:type=Vertex,to=6]", "[Remove:type=Vertex,to=six]"),
            f"t.txt:{LINE_OF_FIRST_MOVE + 1}: Remove's to is not a number: 'six'",
        ),
        (
            lambda t: t.replace("mover=1,from=20,to=6,", "mover=1,from=20,to=25,"),
            f"t.txt:{LINE_OF_FIRST_MOVE}: site 25 is not on Ludii's board of "
            "Awithlaknan Mosona (sites 0 to 24)",
        ),
        (
            lambda t: t.replace("Move=[Move:mover=2,", "Move=[Move:mover=1,"),
            f"t.txt:{LINE_OF_FIRST_MOVE + 1}: mover 1 moves where mover 2 should: "
            "a record's sides alternate",
        ),
        (
            lambda t: t.replace("Awithlaknan Mosona.lud", "Tablut.lud"),
            "t.txt:1: Ludii's game 'Tablut' is none that zrec reads Ludii trials of "
            "('Awithlaknan Mosona', 'Kolowis Awithlaknannai', 'Awithlaknakwe')",
        ),
        (
            lambda t: t.replace(MOSONA_LUD + "\n", ""),
            "t.txt: no game= line: this is not a Ludii trial",
        ),
        (
            lambda t: t.replace("END GAME OPTIONS", "Board Size/9x9\nEND GAME OPTIONS"),
            "t.txt: the trial was played with Ludii game options (Board Size/9x9); "
            "zrec reads trials of Ludii's default rules only",
        ),
        (
            lambda t: t.replace("winner=1", "winner=one"),
            f"t.txt:{LINE_OF_FIRST_MOVE + 4}: winner is not a number: 'one'",
        ),
        (
            lambda t: t.replace("numInitialPlacementMoves=24", "numInitialPlacementMoves=99"),
            "t.txt: numInitialPlacementMoves=99, but the trial has 27 moves",
        ),
    ],
)
def test_a_damaged_trial_is_refused_naming_the_line(
    tmp_path: Path, damage: object, message: str
) -> None:
    path = tmp_path / "t.txt"
    path.write_text(damage(MOSONA), encoding="utf-8")  # type: ignore[operator]
    result = runner.invoke(
        app, ["convert", "--from", "ludii", str(path), "--to", "zrec"], catch_exceptions=False
    )
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"zrec: {str(path)[: -len('t.txt')]}{message}\n"
    with pytest.raises(LudiiTrialError):
        trial_text(read_trial(damage(MOSONA), "t.txt"), "t.txt")  # type: ignore[operator]


def test_a_trial_that_breaks_its_reading_gets_the_usual_diagnostics(tmp_path: Path) -> None:
    # b5 is empty at the start under every reading: a step from it is illegal
    text = trial(MOSONA_LUD, [step(1, 6, 20)], ["winner=1", "endtype=NaturalEnd"], {})
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    converted = convert(path, "--to", "zrec", "-o", str(tmp_path / "t.zrec"))
    assert converted.exit_code == 0, converted.stderr
    result = runner.invoke(app, ["validate", str(tmp_path / "t.zrec")])
    assert result.exit_code == 1
    assert result.stdout.startswith(
        f"{tmp_path / 't.zrec'}:5:4: error[illegal-move] game 1, ply 1: move 1 (White): "
        "b5-a5 is illegal: there is no White piece on b5; legal moves: "
    )
    assert result.stdout.endswith("1 game read, 0 valid, 1 invalid, 0 warnings\n")


def test_every_serpent_game_declares_ludii_s_board_as_its_sites() -> None:
    mosona, kolowis = find_game("mosona"), find_game("kolowis")
    boards = [getattr(g, "ludii", None) for g in (mosona, kolowis)]
    assert all(isinstance(b, LudiiBoard) for b in boards)
    m, k = boards
    assert isinstance(m, LudiiBoard) and isinstance(k, LudiiBoard)
    assert (m.name, len(m.points), len(set(m.points))) == ("Awithlaknan Mosona", 25, 25)
    assert (k.name, len(k.points), len(set(k.points))) == ("Kolowis Awithlaknannai", 48, 48)
    assert "b17" not in k.points  # Ludii's Kolowis has no east end point
    assert (m.points[6], k.points[10], k.points[0], k.points[17]) == ("b5", "b9", "b1", "b16")


def test_an_awithlaknakwe_trial_has_four_seats_listed_captures_and_passes(
    tmp_path: Path,
) -> None:
    game = find_game("stone-warriors")
    board = getattr(game, "ludii", None)
    assert isinstance(board, LudiiBoard)
    assert (board.name, len(board.points), len(set(board.points))) == ("Awithlaknakwe", 365, 365)
    # Ludii's players 1-4 start on sites 320-325, 339-344, 326-331, 359-364: the centres
    # of the south, west, north and east arms
    assert [board.points[s] for s in (320, 325, 339, 344, 326, 331, 359, 364)] == [
        "e2", "j2", "a10", "a20", "e28", "j28", "n10", "n20"
    ]  # fmt: skip
    site = board.points.index
    capture = (
        f"Move=[Move:mover=1,from={site('f3')},to={site('g4')},actions=[Move:typeFrom=Vertex,"
        f"from={site('f3')},typeTo=Vertex,to={site('g4')},decision=true],[Remove:type=Vertex,"
        f"to={site('g6')}],[Move:typeFrom=Cell,from=672,typeTo=Vertex,to={site('g6')}],"
        "[SetScore:player=1,score=1,add=true]]"
    )
    moves = [
        step(1, 320, site("f3")),
        "Move=[Move:mover=2,actions=[Pass:decision=true,forced=true]]",
        step(3, 326, site("f27")),
        step(4, 359, site("m11")),
        capture,
    ]
    teams = [f"Move=[Move:mover=0,actions=[AddPlayerToTeam:team={t},player={p}]]" for t, p in
             ((1, 1), (1, 4), (2, 2), (2, 3))]  # fmt: skip
    lud = "game=/lud/board/war/custodial/Awithlaknakwe.lud"
    won = ["winner=0", "endtype=NaturalEnd", "rankings=0.0,1.0,2.0,2.0,1.0"]
    text = trial(lud, [*teams, *moves], won, {})
    text = text.replace("numInitialPlacementMoves=0", "numInitialPlacementMoves=4")
    path = tmp_path / "a.txt"
    path.write_text(text, encoding="utf-8")
    result = convert(path, "--to", "zrec")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[Game "stone-warriors"]\n[Reading "ludii"]\n[Result "1-0-0-1"]\n\n'
        "1. e2-f3 -- e28-f27 n10-m11 2. f3-g4xg6 1-0-0-1\n"
    )
    # under Ludii's reading zrec ends the game at Ludii's turn limit too: a draw there
    limit = ["winner=0", "endtype=TurnLimit", "rankings=0.0,2.5,2.5,2.5,2.5"]
    record = trial_text(read_trial(trial(lud, moves[:1], limit, {}), "a.txt"), "a.txt")
    assert record.endswith("1. e2-f3 1/2-1/2-1/2-1/2\n")
    # a serpent game has no pass
    serpent = trial(MOSONA_LUD, [step(1, 20, 6), moves[1]], [], {})
    with pytest.raises(
        LudiiTrialError, match=r"^s.txt:6: a pass, and Awithlaknan Mosona has none$"
    ):
        trial_text(read_trial(serpent, "s.txt"), "s.txt")
