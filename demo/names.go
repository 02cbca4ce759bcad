package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Word lists for Lichess-style usernames and team names. They are data,
// not state: nothing writes to them.
var (
	nameHeads = []string{"Dark", "Silent", "Swift", "Lazy", "Crazy", "Blitz", "Bullet", "Zug", "Pawn", "Rook",
		"Knight", "Bishop", "Queen", "King", "Grand", "Tiny", "Iron", "Frozen", "Lucky", "Sneaky", "Happy",
		"Tactical", "Endgame", "Gambit", "Sicilian", "Anti", "Giveaway", "Losing", "Sac", "Fianchetto"}
	nameTails = []string{"Knight", "Master", "Pusher", "Eater", "Hunter", "Wizard", "Fox", "Owl", "Tiger",
		"Bear", "Shark", "Panda", "Dragon", "Storm", "Lover", "Slayer", "Monk", "Pilot", "Bot", "Fan",
		"Mate", "Tempo", "Zwang", "Fork", "Pin", "Skewer", "Castle", "Promoter", "Blunder", "Grinder"}
	teamHeads = []string{"Pawnstorm", "Zugzwang", "Fianchetto", "Back Rank", "En Passant", "Forced Capture",
		"Stalemate", "Opposition", "Gambit", "Perpetual", "Outpost", "Open File", "Long Diagonal", "Tempo",
		"Triangulation", "Windmill", "Smothered", "Poisoned Pawn", "Desperado", "Zwischenzug"}
	teamTails = []string{"Collective", "Club", "Knights", "Rooks", "Society", "Squad", "United", "Academy",
		"Brigade", "Circle", "Giants", "Rebels", "Wanderers", "Alliance", "Legion", "Dragons"}
)

// names hands out unique Lichess-style usernames (3 to 20 characters of
// letters, digits, '_' and '-') and team names from a seeded source.
type names struct {
	rng   *rand.Rand
	users map[string]bool // lower-case
	teams map[string]bool
}

func newNames(rng *rand.Rand) *names {
	return &names{rng: rng, users: map[string]bool{}, teams: map[string]bool{}}
}

func (n *names) pick(words []string) string { return words[n.rng.IntN(len(words))] }

// user returns a new username such as "SneakyFox_77" or "zugmaster2004".
func (n *names) user() string {
	for {
		var s string
		switch n.rng.IntN(4) {
		case 0:
			s = n.pick(nameHeads) + n.pick(nameTails)
		case 1:
			s = fmt.Sprintf("%s%s_%d", n.pick(nameHeads), n.pick(nameTails), n.rng.IntN(100))
		case 2:
			s = strings.ToLower(n.pick(nameHeads) + n.pick(nameTails) + fmt.Sprint(1970+n.rng.IntN(40)))
		default:
			s = fmt.Sprintf("%s_%s%d", n.pick(nameTails), n.pick(nameHeads), n.rng.IntN(10))
		}
		if len(s) > 20 {
			s = s[:20]
		}
		if k := strings.ToLower(s); !n.users[k] {
			n.users[k] = true
			return s
		}
	}
}

// team returns a new team name such as "Zugzwang Rebels".
func (n *names) team() string {
	for {
		s := n.pick(teamHeads) + " " + n.pick(teamTails)
		if len(n.teams) >= len(teamHeads)*len(teamTails)/2 {
			s += fmt.Sprintf(" %d", n.rng.IntN(1000))
		}
		if k := strings.ToLower(s); !n.teams[k] {
			n.teams[k] = true
			return s
		}
	}
}

// rating draws a Lichess-like rating: around 1900, spread 250, within
// 1200..2900.
func rating(rng *rand.Rand) int {
	r := 1900 + rng.NormFloat64()*250
	return int(math.Round(min(2900, max(1200, r))))
}
