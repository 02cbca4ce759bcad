package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/app"
	"arbiter/lineup"
)

// Team membership: the antichess board lists (A12-A16), captains and
// replacements for sanctioned members (R14, R16, A15).

var boardsSub = &eventSub{name: "boards", synopsis: "boards SLUG TEAM (--rank USER:RATING,... [--comm-banned U,...] [--comparable X/Y,...] | --order U1,U2,... | --sub IN,OUT)",
	summary: "antichess board lineups: TDs' ranking, captain's order, fifth-member substitution (A12-A16)",
	min:     2, max: 2, new: withFlags[boardsCmd]}

// boardsCmd holds the flags of "event boards".
type boardsCmd struct {
	rank       string
	commBanned string
	comparable string
	order      string
	sub        string
}

func (cmd *boardsCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.rank, "rank", "", "TD: every member with a rating, e.g. a01:2100,cap01:2000")
	fs.StringVar(&cmd.commBanned, "comm-banned", "", "TD: members with a communication ban (A16)")
	fs.StringVar(&cmd.comparable, "comparable", "", "TD: pairs allowed to trade places, e.g. a01/cap01,c01/s01")
	fs.StringVar(&cmd.order, "order", "", "captain: the final board list, board 1 first (A12)")
	fs.StringVar(&cmd.sub, "sub", "", "captain: IN,OUT — the fifth member replaces OUT for the next round (A14)")
}

func (cmd *boardsCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	var bt app.BoardTeam
	var err error
	switch {
	case cmd.rank != "":
		banned := splitList(cmd.commBanned)
		var members []lineup.Member
		for _, item := range splitList(cmd.rank) {
			name, r, ok := strings.Cut(item, ":")
			rating, err := strconv.Atoi(r)
			if !ok || err != nil {
				return arbiter.FieldError("--rank", "cli.rank", "want USER:RATING, got %q", item)
			}
			members = append(members, lineup.Member{Name: name, Rating: rating, CommBanned: slices.Contains(banned, name)})
		}
		var comp lineup.Comparable
		for _, item := range splitList(cmd.comparable) {
			x, y, ok := strings.Cut(item, "/")
			if !ok {
				return arbiter.FieldError("--comparable", "cli.comparable", "want X/Y, got %q", item)
			}
			comp = append(comp, lineup.Pair{strings.ToLower(x), strings.ToLower(y)})
		}
		bt, err = c.svc.RankBoards(ctx, c.actor, pos[0], pos[1], members, comp)
	case cmd.order != "":
		bt, err = c.svc.SubmitBoards(ctx, c.actor, pos[0], pos[1], splitList(cmd.order))
	case cmd.sub != "":
		l := splitList(cmd.sub)
		if len(l) != 2 {
			return usagef("--sub takes IN,OUT")
		}
		bt, err = c.svc.SubstituteBoard(ctx, c.actor, pos[0], pos[1], l[0], l[1])
	default:
		return usagef("give exactly one of --rank, --order, --sub")
	}
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, bt)
	}
	fmt.Fprintf(e.stdout, "%s boards: %s (TDs' order %s)\n", bt.Entrant, strings.Join(bt.Team.Boards, ", "), strings.Join(bt.TDOrder, ", "))
	return nil
}

var captainChangeSub = &eventSub{name: "captain-change", synopsis: "captain-change SLUG TEAM USER [--reason TEXT]",
	summary: "a new captain from the next round (A13: the team once; TDs with a reason, A16)",
	min:     3, max: 3, new: withFlags[captainChangeCmd]}

// captainChangeCmd holds the flags of "event captain-change".
type captainChangeCmd struct {
	reasonFlag
}

func (cmd *captainChangeCmd) flags(fs *flag.FlagSet) {
	cmd.bindReason(fs)
}

func (cmd *captainChangeCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	bt, err := c.svc.ChangeCaptain(ctx, c.actor, pos[0], pos[1], pos[2], cmd.reason)
	if err != nil {
		return err
	}
	last := bt.Team.Captains[len(bt.Team.Captains)-1]
	fmt.Fprintf(e.stdout, "%s: captain %s from round %d\n", bt.Entrant, last.Name, last.From)
	return nil
}

var captainSub = &eventSub{name: "captain", synopsis: "captain SLUG TEAM USER",
	summary: "name a team's captain among its members (TD)",
	min:     3, max: 3, new: plain(evCaptain)}

func evCaptain(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en, err := c.svc.SetCaptain(ctx, c.actor, pos[0], pos[1], pos[2])
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: captain %s\n", en.ID, en.Captain)
	return nil
}

var replaceSub = &eventSub{name: "replace", synopsis: "replace SLUG TEAM --replaced USER --player USER [--rating N --replaced-rating N --eligible --willing] --reason TEXT",
	summary: "name a replacement for a team member removed by a sanction (R14, R16, A15; TD)",
	min:     2, max: 2, new: withFlags[replaceCmd]}

// replaceCmd holds the flags of "event replace".
type replaceCmd struct {
	replaced       string
	player         string
	rating         int
	replacedRating int
	eligible       bool
	willing        bool
	reasonFlag
}

func (cmd *replaceCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.replaced, "replaced", "", "the member removed by a sanction")
	fs.StringVar(&cmd.player, "player", "", "the replacement (Lichess username)")
	fs.IntVar(&cmd.rating, "rating", 0, "the replacement's rating (A15)")
	fs.IntVar(&cmd.replacedRating, "replaced-rating", 0, "the replaced player's rating (A15: at least 100 above the replacement)")
	fs.BoolVar(&cmd.eligible, "eligible", false, "the TDs checked the replacement's eligibility (A15)")
	fs.BoolVar(&cmd.willing, "willing", false, "the replacement is willing to play, reopened matches included (A15)")
	cmd.bindReason(fs)
}

func (cmd *replaceCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en, err := c.svc.NameReplacement(ctx, c.actor, pos[0], app.ReplacementRequest{Entrant: pos[1], Replaced: cmd.replaced, Player: cmd.player,
		Rating: cmd.rating, ReplacedRating: cmd.replacedRating, Eligible: cmd.eligible, Willing: cmd.willing, Reason: cmd.reason})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, en)
	}
	fmt.Fprintf(e.stdout, "%s: %s replaces %s; members %s\n", en.ID, normName(cmd.player), normName(cmd.replaced), strings.Join(en.Members, ", "))
	return nil
}

func normName(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
