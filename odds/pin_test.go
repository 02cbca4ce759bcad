package odds

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
)

// The answers for fixed inputs and seeds, pinned as digests of their JSON:
// a change made for speed must not change any figure. The digests were
// taken before the speed work of issue 17 (commit 6f2cf42); a change that
// means to change an answer updates them and says why.
func TestPinnedAnswers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		preset        string
		n             int
		stage, rounds int
		sims          int
		seed          uint64
		want          string
	}{
		{"acwc40-r4", "acwc-2023", 40, 0, 4, 300, 1, "2ed3487eb61b22ed"},
		{"acwc40-r5", "acwc-2023", 40, 0, 5, 300, 7, "0fdbd529628e5133"},
		{"acwc23-r2", "acwc-2023", 23, 0, 2, 200, 3, "7b291634f7578cc0"},
		{"acwc16-pools", "acwc-2023", 16, 1, 4, 300, 9, "875b2d117cb1c44d"},
		{"acwc16-ko", "acwc-2023", 16, 2, 1, 300, 9, "2350a048b9bfc598"},
		{"cup20-swiss", "antichess-team-cup", 20, 0, 3, 200, 5, "f96f9c7cfe8c615c"},
		{"cup20-ko", "antichess-team-cup", 20, 1, 1, 200, 5, "57a02459c48b9275"},
		{"swiss200-r4", "acwc-2023", 200, 0, 4, 20, 1, "fe249d9ed1973c8b"},
		{"rkcc8-swiss", "rkcc-team-three-tc", 8, 0, 4, 200, 2, "65fae4a159c4037a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			in := newEvent(t, c.preset, c.n)
			playTo(t, in, c.stage, c.rounds, 3)
			res, err := Run(in, Options{Sims: c.sims, Seed: c.seed})
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			if got := hex.EncodeToString(sum[:8]); got != c.want {
				t.Errorf("answer digest %s, want %s", got, c.want)
			}
		})
	}
}
