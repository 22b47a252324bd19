/*
 * ZrecLudii: a small driver that asks Ludii (the Digital Ludeme Project's general game
 * system) about a game's .lud file, so that zrec's readings of the Zuni games can be checked
 * against Ludii's own rules.  It is zrec's code; Ludii itself is not part of zrec and is
 * built outside the checkout (benchmarks/ludii_compare.py says how it is found).
 *
 *   java ZrecLudii graph  FILE.lud            sites (index, x, y, Ludii's label, the player
 *                                             on it at the start), edges, and two-seat
 *                                             games' steps and hops from crafted boards
 *   java ZrecLudii perft  FILE.lud N          move sequences of each depth 1..N from the
 *                                             start, and how many moves Ludii listed twice
 *   java ZrecLudii trials FILE.lud K SEED DIR K uniform random playouts, each saved in DIR
 *                                             as Ludii's trial text (RandomTrial_i.txt), and
 *                                             one line a trial: moves, turns, winner,
 *                                             end type, legal moves summed over the
 *                                             positions played, positions played, ranking
 *
 * Class path: the driver, Ludii's classes, its resources (res/ with lud/ and def/) and
 * the jars of its Common/lib, e.g. java -cp 'driver:classes:res:lib/*' ZrecLudii ...
 */

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import game.Game;
import game.types.board.SiteType;
import main.collections.FastArrayList;
import other.GameLoader;
import other.action.move.ActionAdd;
import other.action.move.remove.ActionRemove;
import other.context.Context;
import other.move.Move;
import other.state.container.ContainerState;
import other.topology.Edge;
import other.topology.Topology;
import other.topology.Vertex;
import other.trial.Trial;
import org.apache.commons.rng.core.RandomProviderDefaultState;

public final class ZrecLudii
{
	private ZrecLudii() {}

	public static void main(final String[] args) throws Exception
	{
		Locale.setDefault(Locale.ROOT);
		if (args.length < 2)
		{
			System.err.println("usage: ZrecLudii graph|perft|trials FILE.lud [args]");
			System.exit(2);
		}
		final Game game = GameLoader.loadGameFromFile(new File(args[1]));
		switch (args[0])
		{
		case "graph":
			graph(game);
			break;
		case "perft":
			perft(game, Integer.parseInt(args[2]));
			break;
		case "trials":
			trials(game, args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]), new File(args[4]));
			break;
		default:
			System.err.println("unknown command " + args[0]);
			System.exit(2);
		}
	}

	static Context started(final Game game)
	{
		final Context context = new Context(game, new Trial(game));
		game.start(context);
		return context;
	}

	/** The legal moves of the position, as Ludii's play rule lists them (no cache). */
	static FastArrayList<Move> legal(final Game game, final Context context)
	{
		return game.moves(context).moves();
	}

	static final Pattern REMOVE = Pattern.compile("\\[Remove:type=Vertex,to=(\\d+)");

	/** The sites a move removes a piece from (its actions nest, so its trial text is read). */
	static List<Integer> removals(final Move move, final Context context)
	{
		final List<Integer> out = new ArrayList<>();
		final Matcher m = REMOVE.matcher(move.toTrialFormat(context));
		while (m.find())
			out.add(Integer.valueOf(m.group(1)));
		return out;
	}

	// --------------------------------------------------------------------- graph

	static void graph(final Game game)
	{
		final Context start = started(game);
		final Topology topo = game.board().topology();
		final List<Vertex> vs = topo.vertices();
		final ContainerState cs = start.containerState(0);
		System.out.println("# game " + game.name() + ": " + vs.size() + " sites, players " + game.players().count());
		System.out.println("# site INDEX X Y LABEL START(who at the start, 0 empty)");
		for (final Vertex v : vs)
			System.out.printf("site %d %.4f %.4f %s %d%n", v.index(), v.centroid().getX(), v.centroid().getY(),
					v.label(), cs.who(v.index(), SiteType.Vertex));
		System.out.println("# edge A B (the board's drawn lines)");
		for (final Edge e : topo.edges())
			System.out.println("edge " + e.vA().index() + " " + e.vB().index());
		System.out.println("# mover " + start.state().mover() + " moves first");
		if (game.players().count() != 2)
			return;
		// Steps: each site alone on the board, the legal moves of its piece.
		System.out.println("# step FROM TO: player 1's piece alone on an empty board");
		for (final Vertex v : vs)
		{
			final Context c = cleared(game, start);
			add(c, v.index(), 1);
			final Set<Integer> tos = new TreeSet<>();
			for (final Move m : legal(game, c))
				tos.add(m.to());
			for (final int to : tos)
				System.out.println("step " + v.index() + " " + to);
		}
		// Hops: player 1's piece at FROM, player 2's at OVER, nothing else.
		System.out.println("# hop FROM OVER TO: player 1 at FROM, player 2 at OVER, the rest empty");
		for (final Vertex f : vs)
			for (final Vertex o : vs)
			{
				if (f.index() == o.index())
					continue;
				final Context c = cleared(game, start);
				add(c, f.index(), 1);
				add(c, o.index(), 2);
				for (final Move m : legal(game, c))
				{
					final List<Integer> r = removals(m, c);
					if (!r.isEmpty())
						System.out.println("hop " + m.from() + " " + r.get(0) + " " + m.to() + (r.size() > 1 ? " MORE" + r : ""));
				}
			}
	}

	static Context cleared(final Game game, final Context start)
	{
		final Context c = new Context(start);
		final ContainerState cs = c.containerState(0);
		for (final Vertex v : game.board().topology().vertices())
			if (cs.who(v.index(), SiteType.Vertex) != 0)
				ActionRemove.construct("[Remove:type=Vertex,to=" + v.index() + "]").apply(c, true);
		c.trial().clearLegalMoves();
		return c;
	}

	static void add(final Context c, final int site, final int what)
	{
		new ActionAdd("[Add:type=Vertex,to=" + site + ",what=" + what + "]").apply(c, true);
		c.trial().clearLegalMoves();
	}

	// --------------------------------------------------------------------- perft

	static long duplicates = 0;

	static void perft(final Game game, final int depth)
	{
		final Context start = started(game);
		System.out.println("# game " + game.name() + ", first mover " + start.state().mover());
		for (int d = 1; d <= depth; d++)
		{
			final long t0 = System.nanoTime();
			duplicates = 0;
			final long n = count(game, start, d);
			System.out.printf("perft %d %d duplicates %d seconds %.1f%n", d, n, duplicates, (System.nanoTime() - t0) / 1e9);
			System.out.flush();
		}
	}

	static long count(final Game game, final Context context, final int depth)
	{
		if (context.trial().over())
			return 0;
		final FastArrayList<Move> moves = legal(game, context);
		final Set<String> seen = new HashSet<>();
		for (final Move m : moves)
			if (!seen.add(m.toTrialFormat(context)))
				duplicates++;
		if (depth == 1)
			return moves.size();
		long total = 0;
		for (final Move m : moves)
		{
			final Context child = new Context(context);
			game.apply(child, m);
			total += count(game, child, depth - 1);
		}
		return total;
	}

	// --------------------------------------------------------------------- trials

	static void trials(final Game game, final String path, final int k, final long seed, final File dir) throws Exception
	{
		dir.mkdirs();
		final Random rng = new Random(seed);
		final int players = game.players().count();
		System.out.println("# trial LENGTH(moves after placement) TURNS WINNER ENDTYPE LEGAL_SUM DECISIONS RANKINGS");
		System.out.println("# turn limit " + game.getMaxTurnLimit() + " per player (" + game.getMaxTurnLimit() * players
				+ " turns), move limit " + game.getMaxMoveLimit());
		for (int i = 0; i < k; i++)
		{
			final Context context = new Context(game, new Trial(game));
			context.rng().restoreState(new RandomProviderDefaultState(longBytes(rng.nextLong())));
			final RandomProviderDefaultState startState = (RandomProviderDefaultState) context.rng().saveState();
			game.start(context);
			long legalSum = 0;
			int decisions = 0;
			final Trial trial = context.trial();
			while (!trial.over())
			{
				final FastArrayList<Move> moves = legal(game, context);
				legalSum += moves.size();
				decisions++;
				if (moves.isEmpty())
					break;
				game.apply(context, moves.get(rng.nextInt(moves.size())));
			}
			trial.saveTrialToTextFile(new File(dir, "RandomTrial_" + i + ".txt"), path, new ArrayList<String>(), startState);
			System.out.println("trial " + trial.numberRealMoves() + " " + trial.numTurns() + " "
					+ (trial.status() == null ? "none" : trial.status().winner() + " " + trial.status().endType())
					+ " " + legalSum + " " + decisions + " " + Arrays.toString(trial.ranking()).replace(" ", ""));
		}
	}

	static byte[] longBytes(final long x)
	{
		final byte[] b = new byte[8];
		for (int i = 0; i < 8; i++)
			b[i] = (byte) (x >>> (8 * i));
		return b;
	}
}
