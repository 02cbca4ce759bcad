package trf

import "arbiter"

// File is a parsed Tournament Report File. Header fields hold the trimmed
// text of their record; numbers that engines need are decoded. Records keeps
// every non-blank line in file order so that unmodelled records survive a
// round trip (see Write).
type File struct {
	// Version is 2026 when the file uses a record or comment that exists
	// only in TRF-2026 (142, 152, 162, 192, 240, 310, "###", ...), else 2016.
	Version int

	Name               string   // 012
	City               string   // 022
	Federation         string   // 032
	StartDate          string   // 042 (TRF-2026: YYYY/MM/DD; free text in old files)
	EndDate            string   // 052
	NumPlayers         string   // 062 (free text seen: "15 (12)")
	NumRated           string   // 072
	NumTeams           string   // 082
	Type               string   // 092 type of tournament, free text
	ChiefArbiter       string   // 102
	DeputyArbiters     []string // 112, one per line
	TimeControl        string   // 122 allotted time, free text
	RoundDates         []string // 132, one entry per round (YY/MM/DD), "" when blank
	StartingRankMethod string   // 172, e.g. "IND FIDE"
	PairingController  string   // 182
	TournamentCode     string   // 192, e.g. FIDE_DUTCH_2025, FIDE_TEAM_BAKU
	TieBreaks          []string // 202 descriptors, e.g. "EDET/P"
	StandingTieBreaks  []string // 212 descriptors, e.g. "PTS", "BH"
	EncodedTimeControl string   // 222, e.g. "40/6000+30:1500+30"
	BoardColours       string   // 352, e.g. "WBWB"

	// TotalRounds is the number of rounds (XXR or 142); 0 when unknown.
	TotalRounds int
	// InitialColour is the colour of the top player in round 1: 'w', 'b',
	// or 0 when neither XXC nor 152 gives it (see InferredInitialColour).
	InitialColour byte
	// RankColour is the XXC "rank" flag (JaVaFo: pair by rating order).
	RankColour bool

	// PointSystem holds the individual scoring from BBW..BBU, 162 and XXS.
	PointSystem PointSystem
	// TeamPoints holds the 362 match-point system (TW, TD, TL).
	TeamPoints TeamPointSystem

	// ForbiddenPairs are groups of players (or teams) who must not meet:
	// XXP (every round) and 260 (a round range).
	ForbiddenPairs []Forbidden
	// Accelerations are the XXA per-player, per-round fictitious points.
	Accelerations []Acceleration
	// AccelerationRanges are the TRF-2026 250 records.
	AccelerationRanges []AccelerationRange
	// Byes are the TRF-2026 240 records (F, H, Z byes given in advance).
	Byes []ByeRecord
	// Absent are the XXZ start numbers: absent in the round to be paired.
	Absent []int

	// Teams are the 310 records (TRF-2026) and the legacy 013 records.
	Teams []Team
	// TeamByes are the 320 records (team pairing-allocated byes).
	TeamByes []TeamBye
	// TeamForfeits are the 330 records (forfeited matches).
	TeamForfeits []TeamForfeit
	// BoardOrders are the 300 records (team played out of its default board order).
	BoardOrders []BoardOrder

	Players []Player // 001 records in file order

	// Records lists every non-blank line in file order. Unknown records
	// (Known false: comments, national-rating records, 299, 801/802, ...)
	// are written back verbatim; known ones are regenerated from the fields
	// above at the place where their kind first appeared.
	Records []Record
}

// Record is one line of the file.
type Record struct {
	Line  int    // 1-based line number in the parsed input (0 for records built in code)
	ID    string // columns 1-3, e.g. "001", "XXR", "###"
	Text  string // the whole line without its line ending
	Known bool   // decoded into File fields (and regenerated on Write)
}

// Player is an 001 record.
type Player struct {
	ID     int    // starting rank (pairing number), cols 5-8
	Sex    string // col 10: "m", "w" (or "f" in old files), "" unknown
	Title  string // cols 11-13: GM, IM, WGM, ... (old files: g, m, f)
	Name   string // cols 15-47
	Rating int    // cols 49-52, 0 = unrated
	Fed    string // cols 54-56
	FideID string // cols 58-68
	Birth  string // cols 70-79 (YYYY/MM/DD, or old styles such as 1969.12.06)
	Points arbiter.Points
	Rank   int     // cols 86-89, 0 when blank
	Rounds []Round // Rounds[r-1] is round r; trailing blank rounds are trimmed
}

// Round is one round field of an 001 record (cols 92-99 for round 1, then
// every 10 columns).
type Round struct {
	Opponent int  // opponent's start number, 0 for none (bye, absence)
	Colour   byte // 'w', 'b' or '-' (no colour; a blank column reads as '-')
	// Result is '1', '0', '=' (over the board), '+', '-' (forfeit win/loss),
	// 'W', 'D', 'L' (unrated win/draw/loss), 'H', 'F', 'U', 'Z' (half-point,
	// full-point, pairing-allocated, zero-point bye), or ' ' (blank: a game
	// paired but not played yet, or with no opponent an absence).
	Result byte
}

// PointSystem is the individual scoring of the tournament. The zero value is
// not meaningful; use DefaultPointSystem.
type PointSystem struct {
	Win, Draw, Loss arbiter.Points // over the board (and unrated W/D/L)
	ForfeitWin      arbiter.Points // '+'
	ForfeitLoss     arbiter.Points // '-'
	PAB             arbiter.Points // 'U' pairing-allocated bye
	FullBye         arbiter.Points // 'F'
	HalfBye         arbiter.Points // 'H'
	ZeroBye         arbiter.Points // 'Z' and absences
}

// DefaultPointSystem is 1 / ½ / 0 with byes and forfeit wins worth a win
// (TRF-2016 and bbpPairings defaults).
func DefaultPointSystem() PointSystem {
	return PointSystem{
		Win: arbiter.Point, Draw: arbiter.Point / 2, Loss: 0,
		ForfeitWin: arbiter.Point, ForfeitLoss: 0,
		PAB: arbiter.Point, FullBye: arbiter.Point, HalfBye: arbiter.Point / 2, ZeroBye: 0,
	}
}

// TeamPointSystem is record 362: match points for a won, drawn, lost match.
type TeamPointSystem struct {
	Win, Draw, Loss arbiter.Points
}

// DefaultTeamPointSystem is 2 / 1 / 0 (TRF-2026 362 defaults).
func DefaultTeamPointSystem() TeamPointSystem {
	return TeamPointSystem{Win: 2 * arbiter.Point, Draw: arbiter.Point, Loss: 0}
}

// Forbidden is a group of players (or teams) no two of whom may be paired
// against each other in rounds FirstRound..LastRound (0, 0 = every round).
// XXP lines give every-round groups; 260 records give round ranges.
type Forbidden struct {
	FirstRound, LastRound int
	IDs                   []int
	Record                string // "XXP" or "260"
}

// Applies reports whether the prohibition holds in round r.
func (f Forbidden) Applies(r int) bool {
	return (f.FirstRound == 0 || r >= f.FirstRound) && (f.LastRound == 0 || r <= f.LastRound)
}

// Acceleration is an XXA line: fictitious points added to Player's score
// for pairing purposes, Points[r-1] in round r.
type Acceleration struct {
	Player int
	Points []arbiter.Points
}

// AccelerationRange is a 250 record: participants FirstID..LastID get
// MatchPoints (teams) and GamePoints fictitious points in rounds
// FirstRound..LastRound.
type AccelerationRange struct {
	MatchPoints, GamePoints arbiter.Points
	FirstRound, LastRound   int
	FirstID, LastID         int
}

// ByeRecord is a 240 record: participants IDs get a bye of Type 'F', 'H'
// or 'Z' in Round.
type ByeRecord struct {
	Type  byte
	Round int
	IDs   []int
}

// Team is a 310 record (TRF-2026) or a legacy 013 record (Record "013":
// only Name and Members are set, Number is the line order among 013 lines).
type Team struct {
	Number      int // 310 cols 5-7
	Name        string
	Nickname    string // 310 cols 42-46
	Strength    string // 310 cols 48-53, e.g. average rating
	MatchPoints arbiter.Points
	GamePoints  arbiter.Points
	Rank        int
	Members     []int // player start numbers in board order
	Record      string
}

// TeamBye is a 320 record: the team PAB value and the team given the PAB
// in each round (Teams[r-1], 0 = none).
type TeamBye struct {
	MatchPoints, GamePoints arbiter.Points
	Teams                   []int
}

// TeamForfeit is a 330 record.
type TeamForfeit struct {
	Result       string // "+-" White team wins, "-+", "--"
	Round        int
	White, Black int
}

// BoardOrder is a 300 record: Team played Round against Opponent with
// Players on the boards in order (0 = empty board).
type BoardOrder struct {
	Round, Team, Opponent int
	Players               []int
}
