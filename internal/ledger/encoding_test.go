package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// The posting record's legs text must read back as the legs it was made of
// (the audit replays it), records of the JSON format must still be read, and
// the hash of those records must stay what it was (a replay compares it).

func encodingCases() [][]Leg {
	return [][]Leg{
		{Move(ChainAccount("TRC20"), UserAccount("1001", Spot), "USDT", d("250.5"))},
		{HoldLeg(UserAccount("7", Spot), "BTC", d("0.00000001")), ReleaseLeg(UserAccount("7", Spot), "BTC", d("1.10"))},
		{Move(IsolatedAccount("9", "btcusdt"), FeeAccount(), "ETH", d("12345678901234567890.123456789012345678"))},
		// Strings json.Marshal escapes take the reflective path.
		{Move(UserAccount(`a"b`, Spot), UserAccount("<x&y>", OTC), "MNT", d("5"))},
		{Move(UserAccount("ünï", Spot), UserAccount("tab\t", OTC), "MNT", d("5"))},
		// The compact text's separators inside names.
		{Move(IsolatedAccount("a/b>c", "x:y|z%"), UserAccount("%41", Spot), "U|S:", d("1"))},
	}
}

func TestLegsTextRoundTrip(t *testing.T) {
	for i, legs := range encodingCases() {
		text := legsText(legs)
		back, err := parseLegs(text)
		if err != nil {
			t.Fatalf("case %d: %q: %v", i, text, err)
		}
		if !sameLegs(back, legs) {
			t.Errorf("case %d: %q reads back as %+v", i, text, back)
		}
	}
	if got := legsText(encodingCases()[0]); got != "SYS/chain/TRC20/avail>1001/spot/avail:USDT:250.5" {
		t.Errorf("compact text %q", got)
	}
}

// Records written before the compact text hold the legs as JSON.
func TestLegsJSONStillRead(t *testing.T) {
	for i, legs := range encodingCases() {
		js, err := json.Marshal(legs)
		if err != nil {
			t.Fatal(err)
		}
		back, err := parseLegs(string(js))
		if err != nil || !sameLegs(back, legs) {
			t.Errorf("case %d: %s reads back as %+v (%v)", i, js, back, err)
		}
	}
}

func TestParseLegsRejectsGarbage(t *testing.T) {
	for _, s := range []string{"", "x", "a/spot/avail", "a/spot/avail>b/spot/avail:USDT", "a/spot/avail>b/spot/avail:USDT:x",
		"a/spot/avail>b:USDT:1", "a%2/spot/avail>b/spot/avail:USDT:1", "a%zz/spot/avail>b/spot/avail:USDT:1"} {
		if legs, err := parseLegs(s); err == nil {
			t.Errorf("%q parsed as %+v", s, legs)
		}
	}
}

func FuzzLegsText(f *testing.F) {
	f.Add("1001", "TRC20", "USDT", "250.5")
	f.Add("a/b>c", "x:y|z%", "U|S", "0.00000001")
	f.Fuzz(func(t *testing.T, owner, sub, coin, amount string) {
		amt, err := decimal.NewFromString(amount)
		if err != nil || owner == "" || coin == "" {
			return
		}
		legs := []Leg{{From: Account{Owner: owner, Kind: MarginIsolated, Sub: sub}, FromBucket: Frozen,
			To: Account{Owner: owner, Kind: Spot}, ToBucket: Available, Coin: coin, Amount: amt}}
		back, err := parseLegs(legsText(legs))
		if err != nil || !sameLegs(back, legs) {
			t.Fatalf("%q reads back as %+v (%v)", legsText(legs), back, err)
		}
	})
}

func sameLegs(a, b []Leg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.From != y.From || x.To != y.To || x.FromBucket != y.FromBucket || x.ToBucket != y.ToBucket ||
			x.Coin != y.Coin || !x.Amount.Equal(y.Amount) {
			return false
		}
	}
	return true
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
