package launchpad

import (
	"math/rand/v2"
	"testing"
)

// Oversubscribed with a cap: pro rata 3 : 1 : 1 of 1,000,000 gives A
// 600,000, above the 400,000 cap; A takes the cap and its excess is
// shared between B and C pro rata (300,000 each); each pays its tokens
// at the price and gets the rest of its commitment back.
func TestAllocateCapsAndSharesTheExcess(t *testing.T) {
	got, rest, err := Allocate(Sale{Offered: 1_000_000, Cap: 400_000, PriceNum: 1, PriceDen: 1},
		[]Commitment{{"A", 3_000_000}, {"B", 1_000_000}, {"C", 1_000_000}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Allocation{{"A", 400_000, 400_000, 2_600_000}, {"B", 300_000, 300_000, 700_000}, {"C", 300_000, 300_000, 700_000}}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("allocation %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if rest != 0 {
		t.Fatalf("remainder %d", rest)
	}
}

// Rounding: 100 units among three equal commitments give 33 each and 1
// unit to the project; a token unit costs 1/1000 of a commitment unit, so
// 33 of them cost 1 (rounded up), never more than was committed.
func TestAllocateRoundsDown(t *testing.T) {
	got, rest, err := Allocate(Sale{Offered: 100, PriceNum: 1, PriceDen: 1_000}, []Commitment{{"A", 1}, {"B", 1}, {"C", 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range got {
		if a.Tokens != 33 || a.Cost != 1 || a.Returned != 0 {
			t.Fatalf("%+v", a)
		}
	}
	if rest != 1 {
		t.Fatalf("remainder %d, want 1", rest)
	}
}

// Undersubscribed: each gets what its commitment pays for (at 2 units a
// token unit), and the unsold tokens stay with the project.
func TestAllocateUndersubscribed(t *testing.T) {
	got, rest, err := Allocate(Sale{Offered: 1_000, PriceNum: 2, PriceDen: 1}, []Commitment{{"A", 101}, {"B", 40}, {"C", 0}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Allocation{{"A", 50, 100, 1}, {"B", 20, 40, 0}, {"C", 0, 0, 0}}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("allocation %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if rest != 930 {
		t.Fatalf("remainder %d, want 930", rest)
	}
	if _, _, err := Allocate(Sale{Offered: 1, PriceNum: 0, PriceDen: 1}, nil); err == nil {
		t.Fatal("a price of 0 accepted")
	}
}

// Random sales: every token is allocated or left over, nobody gets more
// than the cap or pays more than committed, cost and refund make up the
// commitment, and while anyone is below its limit no more is left over
// than the rounding down of one unit per user.
func TestAllocateProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for range 2_000 {
		sale := Sale{Offered: r.Int64N(1e12), Cap: r.Int64N(3) * r.Int64N(1e11), PriceNum: 1 + r.Int64N(1e6), PriceDen: 1 + r.Int64N(1e6)}
		commits := make([]Commitment, 1+r.IntN(12))
		for i := range commits {
			commits[i] = Commitment{User: string(rune('a' + i)), Amount: r.Int64N(1e12)}
		}
		got, rest, err := Allocate(sale, commits)
		if err != nil {
			t.Fatal(err)
		}
		sum := rest
		for i, a := range got {
			sum += a.Tokens
			if a.Tokens < 0 || (sale.Cap > 0 && a.Tokens > sale.Cap) || a.Cost > commits[i].Amount || a.Cost+a.Returned != commits[i].Amount {
				t.Fatalf("sale %+v: %+v of %+v", sale, a, commits[i])
			}
		}
		if sum != sale.Offered || rest < 0 {
			t.Fatalf("sale %+v: %d allocated with the remainder, offered %d", sale, sum, sale.Offered)
		}
		// Never more left over than the rounding leaves while someone is
		// below its limit: at most one unit per user.
		below := 0
		for i, a := range got {
			limit := mulDiv(commits[i].Amount, sale.PriceDen, sale.PriceNum)
			if sale.Cap > 0 && sale.Cap < limit {
				limit = sale.Cap
			}
			if a.Tokens < limit {
				below++
			}
		}
		if below > 0 && rest > int64(len(commits)) {
			t.Fatalf("sale %+v, commitments %+v: %d left over with %d users below their limit", sale, commits, rest, below)
		}
	}
}
