package trf

import (
	"strings"
	"testing"

	"arbiter"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// One table row per record type: hand-written lines and the value the
// spec (reference/fide-rules.md section 3, JaVaFo TRF(x), bbpPairings)
// says they mean. Every row is also written and parsed back.
func TestRecords(t *testing.T) {
	p := arbiter.P
	def := DefaultPointSystem()
	tests := []struct {
		name    string
		src     string
		get     func(f *File) any
		want    any
		version int
	}{
		{"012 name", "012 Grandmommy's Cup ", func(f *File) any { return f.Name }, "Grandmommy's Cup", 2016},
		{"022 032 042 052", "022 Donostia\n032 ESP\n042 2010/09/24\n052 2010/10/02",
			func(f *File) any { return []string{f.City, f.Federation, f.StartDate, f.EndDate} },
			[]string{"Donostia", "ESP", "2010/09/24", "2010/10/02"}, 2016},
		{"062 free text", "062 15 (12)\n072 8\n082 0", func(f *File) any { return []string{f.NumPlayers, f.NumRated, f.NumTeams} }, []string{"15 (12)", "8", "0"}, 2016},
		{"092 102 122", "092 Individual: Swiss-System\n102 IA Mikel (22232540)\n122 moves/time, increment",
			func(f *File) any { return []string{f.Type, f.ChiefArbiter, f.TimeControl} },
			[]string{"Individual: Swiss-System", "IA Mikel (22232540)", "moves/time, increment"}, 2016},
		{"112 one per line", "112 The First Deputy Arbiter\n112 The Second Deputy Arbiter",
			func(f *File) any { return f.DeputyArbiters }, []string{"The First Deputy Arbiter", "The Second Deputy Arbiter"}, 2016},
		{"112 empty", "112", func(f *File) any { return f.DeputyArbiters }, []string{""}, 2016},
		{"132 dates on the round grid", "132" + strings.Repeat(" ", 88) + "24/12/01            24/12/03",
			func(f *File) any { return f.RoundDates }, []string{"24/12/01", "", "24/12/03"}, 2016},
		{"142 rounds", "142 14", func(f *File) any { return f.TotalRounds }, 14, 2026},
		{"XXR rounds", "XXR 9", func(f *File) any { return f.TotalRounds }, 9, 2016},
		{"XXR and 142 agree", "XXR 7\n142 7", func(f *File) any { return f.TotalRounds }, 7, 2026},
		{"152 B", "152 B", func(f *File) any { return f.InitialColour }, byte('b'), 2026},
		{"152 lower case", "152 w", func(f *File) any { return f.InitialColour }, byte('w'), 2026},
		{"XXC white1", "XXC white1", func(f *File) any { return f.InitialColour }, byte('w'), 2016},
		{"XXC rank black1", "XXC rank black1", func(f *File) any { return []any{f.InitialColour, f.RankColour} }, []any{byte('b'), true}, 2016},
		{"162 TRF-2026 grid", "162  W 3.0    D 1.0    L 0.0",
			func(f *File) any { return f.PointSystem },
			PointSystem{Win: p(3), Draw: p(1), ForfeitWin: p(3), PAB: p(3), FullBye: p(3), HalfBye: p(1)}, 2026},
		{"162 chess-results layout", "162 W    1.0  D    0.5  L    0.0", func(f *File) any { return f.PointSystem }, def, 2026},
		{"162 PAB only", "162  P 0.5", func(f *File) any { return f.PointSystem.PAB }, p(0.5), 2026},
		{"162 absence", "162  A 0.5", func(f *File) any { return []arbiter.Points{f.PointSystem.ZeroBye, f.PointSystem.ForfeitLoss} }, []arbiter.Points{p(0.5), p(0.5)}, 2026},
		{"BB codes", "BBW  3.0\nBBD  1.0", func(f *File) any { return f.PointSystem },
			PointSystem{Win: p(3), Draw: p(1), ForfeitWin: p(3), PAB: p(3), FullBye: p(3), HalfBye: p(1)}, 2016},
		{"BBZ BBF BBU BBL", "BBZ  0.5\nBBF  0.25\nBBU  0.5\nBBL  0.1",
			func(f *File) any { return f.PointSystem },
			PointSystem{Win: p(1), Draw: p(0.5), Loss: p(0.1), ForfeitWin: p(1), ForfeitLoss: p(0.25), PAB: p(0.5), FullBye: p(1), HalfBye: p(0.5), ZeroBye: p(0.5)}, 2016},
		{"XXS", "XXS WW=2 BW=2 D=1 HPB=0.5 FPB=1.5 FW=1 FL=-1",
			func(f *File) any { return f.PointSystem },
			PointSystem{Win: p(2), Draw: p(1), ForfeitWin: p(1), ForfeitLoss: p(-1), PAB: p(2), FullBye: p(1.5), HalfBye: p(0.5)}, 2016},
		{"default point system", "012 x", func(f *File) any { return f.PointSystem }, def, 2016},
		{"172 182 192 222 352", "172 IND FIDE\n182 Sharly Chess\n192 FIDE_TEAM_BAKU\n222 40/6000+30:1500+30\n352 WBWB",
			func(f *File) any {
				return []string{f.StartingRankMethod, f.PairingController, f.TournamentCode, f.EncodedTimeControl, f.BoardColours}
			},
			[]string{"IND FIDE", "Sharly Chess", "FIDE_TEAM_BAKU", "40/6000+30:1500+30", "WBWB"}, 2026},
		{"202 212 tie-breaks", "202 EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP\n212 PTS, WIN,BH,AOB",
			func(f *File) any { return [][]string{f.TieBreaks, f.StandingTieBreaks} },
			[][]string{{"EDET/P", "EMGSB/C1/P", "BH:MP/C1/P", "MPvGP"}, {"PTS", "WIN", "BH", "AOB"}}, 2026},
		{"362 team points", "362 TW 3.0   TD 1.0   TL 0.0", func(f *File) any { return f.TeamPoints }, TeamPointSystem{p(3), p(1), 0}, 2026},
		{"362 defaults", "012 x", func(f *File) any { return f.TeamPoints }, TeamPointSystem{p(2), p(1), 0}, 2016},
		{"240 byes", "240 H   3   26   47\n240 F   1    3\t  \n240 z 003   11    5",
			func(f *File) any { return f.Byes },
			[]ByeRecord{{'H', 3, []int{26, 47}}, {'F', 1, []int{3}}, {'Z', 3, []int{11, 5}}}, 2026},
		{"250 acceleration", "250      01.0 001 003 0001 0024\n250  1          5   7    1   25",
			func(f *File) any { return f.AccelerationRanges },
			[]AccelerationRange{{0, p(1), 1, 3, 1, 24}, {p(1), 0, 5, 7, 1, 25}}, 2026},
		{"260 prohibited", "260   1   3    1    2    3\n260 003 003   11    2",
			func(f *File) any { return f.ForbiddenPairs },
			[]Forbidden{{1, 3, []int{1, 2, 3}, "260"}, {3, 3, []int{11, 2}, "260"}}, 2026},
		{"XXP", "XXP 1 7\nXXP 3 4 5", func(f *File) any { return f.ForbiddenPairs },
			[]Forbidden{{0, 0, []int{1, 7}, "XXP"}, {0, 0, []int{3, 4, 5}, "XXP"}}, 2016},
		{"XXZ", "XXZ 3 9\nXXZ 12", func(f *File) any { return f.Absent }, []int{3, 9, 12}, 2016},
		{"XXA", "XXA    1  1.0  1.0  0.5", func(f *File) any { return f.Accelerations },
			[]Acceleration{{1, []arbiter.Points{p(1), p(1), p(0.5)}}}, 2016},
		{"310 team (spec example)", "310   1 India                            IND     2486   15.0   28.0  11     1    5   15   28   44",
			func(f *File) any { return f.Teams },
			[]Team{{Number: 1, Name: "India", Nickname: "IND", Strength: "2486", MatchPoints: p(15), GamePoints: p(28), Rank: 11, Members: []int{1, 5, 15, 28, 44}, Record: "310"}}, 2026},
		{"310 blank rank", "310   1 ERP A                            ERP A      0    3.0    3.5         7   10   15   14",
			func(f *File) any { return f.Teams },
			[]Team{{Number: 1, Name: "ERP A", Nickname: "ERP A", Strength: "0", MatchPoints: p(3), GamePoints: p(3.5), Members: []int{7, 10, 15, 14}, Record: "310"}}, 2026},
		{"013 teams", "013 Armenia                           16   56   38   96  109\n013 Indonesia                         45   42  234  114",
			func(f *File) any { return f.Teams },
			[]Team{{Number: 1, Name: "Armenia", Members: []int{16, 56, 38, 96, 109}, Record: "013"}, {Number: 2, Name: "Indonesia", Members: []int{45, 42, 234, 114}, Record: "013"}}, 2016},
		{"320 team byes", "320  2.0  4.0 011 009 006\n320  1    2.0          50  49",
			func(f *File) any { return f.TeamByes },
			[]TeamBye{{p(2), p(4), []int{11, 9, 6}}, {p(1), p(2), []int{0, 0, 50, 49}}}, 2026},
		{"330 forfeit", "330 +-   4  23  33", func(f *File) any { return f.TeamForfeits }, []TeamForfeit{{"+-", 4, 23, 33}}, 2026},
		{"300 board order", "300   2   1   4   10    7 0000 0000", func(f *File) any { return f.BoardOrders },
			[]BoardOrder{{2, 1, 4, []int{10, 7, 0, 0}}}, 2026},
		{"### comment", "### SSS NNNN\n012 x", func(f *File) any { return unknownTexts(f) }, []string{"### SSS NNNN"}, 2026},
		{"unknown records kept", "FRA    7    A                                        ARA      Y02046\n299 x\n1234567890",
			func(f *File) any { return unknownTexts(f) },
			[]string{"FRA    7    A                                        ARA      Y02046", "299 x", "1234567890"}, 2026},
		{"001 old style title and birth", "001    1    g Vasquez,Rodrigo                   2558 CHI     3400042 1969.12.06  6.0    4   141 w 1",
			func(f *File) any { p := f.Players[0]; return []any{p.Title, p.Name, p.Birth, p.Rank, p.Rounds} },
			[]any{"g", "Vasquez,Rodrigo", "1969.12.06", 4, []Round{{141, 'w', '1'}}}, 2016},
		{"001 Lichess blank opponent", "001    5      nowosibirsk                                                        6.0              U     9 b 1",
			func(f *File) any { return f.Players[0].Rounds }, []Round{{0, '-', 'U'}, {9, 'b', '1'}}, 2016},
		{"001 trailing blank rounds trimmed", "001    1 m  g Mirzoev Azer                      2527 AZE    13400304 1978        4.0    1    26 w 1          ",
			func(f *File) any { return f.Players[0].Rounds }, []Round{{26, 'w', '1'}}, 2016},
		{"001 paired, no result; blank middle round", "001    2 w    BERTRAND, Christine               1980 FRA                         0.0   21               1 b",
			func(f *File) any { return f.Players[0].Rounds }, []Round{{0, '-', ' '}, {1, 'b', ' '}}, 2016},
		{"001 upper-case codes", "001    1                                                                         1.0          2 W d     3 B h",
			func(f *File) any { return f.Players[0].Rounds }, []Round{{2, 'w', 'D'}, {3, 'b', 'H'}}, 2016},
		{"001 UTF-8 name counts characters", "001    3 m    Käding, Taro                      1944 GER    34679880 2008/00/00  4.5    4    11 b 1",
			func(f *File) any { p := f.Players[0]; return []any{p.Name, p.Rating, p.Fed, p.FideID, p.Rounds} },
			[]any{"Käding, Taro", 1944, "GER", "34679880", []Round{{11, 'b', '1'}}}, 2016},
		{"001 Latin-1 name counts bytes", "001    3 m    K\xe4ding, Taro                      1944 GER    34679880 2008/00/00  4.5    4    11 b 1",
			func(f *File) any { p := f.Players[0]; return []any{p.Name, p.Rating, p.Rounds} },
			[]any{"K\xe4ding, Taro", 1944, []Round{{11, 'b', '1'}}}, 2016},
		{"001 Latin-1 line with a UTF-8 title", setCols(setCols(base, 11, " \xc3\xa9"), 15, "K\xe4 Jane  "),
			func(f *File) any { p := f.Players[0]; return []any{p.Title, p.Name, p.Rating} },
			[]any{"\xc3\xa9", "K\xe4 Jane", 2345}, 2016},
		{"teams keep their order across 013 and 310", "013 A                                  1\n310   2 B                                                                      2\n013 C                                  3",
			func(f *File) any { return []string{f.Teams[0].Name, f.Teams[1].Name, f.Teams[2].Name} }, []string{"A", "B", "C"}, 2026},
		{"forbidden pairs keep their order across XXP and 260", "XXP 1 2\n260   1   3    5    6\nXXP 3 4",
			func(f *File) any {
				return []int{f.ForbiddenPairs[0].IDs[0], f.ForbiddenPairs[1].IDs[0], f.ForbiddenPairs[2].IDs[0]}
			}, []int{1, 5, 3}, 2026},
		{"line endings mixed", "012 a\r\n022 b\r032 c\n\n   \n042 d", func(f *File) any { return []string{f.Name, f.City, f.Federation, f.StartDate} },
			[]string{"a", "b", "c", "d"}, 2016},
		{"byte order mark", "\ufeff012 a", func(f *File) any { return f.Name }, "a", 2016},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, tc.src)
			opts := cmpopts.EquateEmpty()
			if d := cmp.Diff(tc.want, tc.get(f), opts); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if f.Version != tc.version {
				t.Errorf("version %d, want %d", f.Version, tc.version)
			}
			g, out := roundTrip(t, f)
			if d := cmp.Diff(tc.want, tc.get(g), opts); d != "" {
				t.Errorf("after round trip (-want +got):\n%s\n%s", d, out)
			}
			if d := diffFiles(f, g); d != "" {
				t.Errorf("round trip differs:\n%s\n%s", d, out)
			}
		})
	}
}
