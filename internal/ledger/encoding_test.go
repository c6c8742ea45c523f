package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The posting record's hand-written encoders must produce exactly what the
// reflective ones did: the audit decodes the legs with encoding/json, and
// stored hashes are compared with newly computed ones on every replay.

func encodingCases() [][]Leg {
	return [][]Leg{
		{Move(ChainAccount("TRC20"), UserAccount("1001", Spot), "USDT", d("250.5"))},
		{HoldLeg(UserAccount("7", Spot), "BTC", d("0.00000001")), ReleaseLeg(UserAccount("7", Spot), "BTC", d("1.10"))},
		{Move(IsolatedAccount("9", "btcusdt"), FeeAccount(), "ETH", d("12345678901234567890.123456789012345678"))},
		// Strings json.Marshal escapes take the reflective path.
		{Move(UserAccount(`a"b`, Spot), UserAccount("<x&y>", OTC), "MNT", d("5"))},
		{Move(UserAccount("ünï", Spot), UserAccount("tab\t", OTC), "MNT", d("5"))},
	}
}

func TestLegsJSONMatchesEncodingJSON(t *testing.T) {
	for i, legs := range encodingCases() {
		want, err := json.Marshal(legs)
		if err != nil {
			t.Fatal(err)
		}
		if got := legsJSON(legs); got != string(want) {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, want)
		}
		var back []Leg
		if err := json.Unmarshal([]byte(legsJSON(legs)), &back); err != nil || len(back) != len(legs) || !back[0].Amount.Equal(legs[0].Amount) {
			t.Errorf("case %d: legs do not decode back: %v", i, err)
		}
	}
}

// referenceHash is the original, string-building posting hash.
func referenceHash(p Posting) string {
	var b strings.Builder
	b.WriteString(p.Reason)
	for _, lg := range p.Legs {
		b.WriteString("|" + lg.From.String() + "/" + string(lg.FromBucket) + ">" + lg.To.String() + "/" + string(lg.ToBucket) +
			":" + lg.Coin + ":" + lg.Amount.String())
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:16])
}

func TestPostingHashIsStable(t *testing.T) {
	for i, legs := range encodingCases() {
		p := Posting{ID: "x", Reason: "transfer", Legs: legs}
		if got, want := postingHash(p), referenceHash(p); got != want {
			t.Errorf("case %d: hash %s, want %s", i, got, want)
		}
	}
}

func TestPostingSortKey(t *testing.T) {
	for _, ms := range []int64{0, 7, 1700000000000, 9999999999999, 12345678901234} {
		if got, want := postingSortKey(ms, "id:1"), fmt.Sprintf("%013d#%s", ms, "id:1"); got != want {
			t.Errorf("%d: %s, want %s", ms, got, want)
		}
	}
}

func TestShardsSpread(t *testing.T) {
	var n [postingShards]int
	for i := 0; i < 16000; i++ {
		n[shardOf(fmt.Sprintf("trade:btcusdt:%d", i))]++
	}
	for s, c := range n {
		if c < 800 || c > 1200 {
			t.Errorf("shard %d holds %d of 16000 ids", s, c)
		}
	}
}
