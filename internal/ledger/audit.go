package ledger

import (
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// CoinReport is the audit of one coin.
type CoinReport struct {
	Coin string
	// Holdings is the sum over every non-external account: what the
	// exchange owes its users plus its own fee and insurance funds.
	Holdings decimal.Decimal
	// NetExternalInflow is deposits minus withdrawals, read from the
	// external (chain and bank) accounts.
	NetExternalInflow decimal.Decimal
	Accounts          int
}

// Report is the result of Audit.
type Report struct {
	Postings int
	Coins    []CoinReport
	// Problems lists every violated invariant; empty means the books are clean.
	Problems []string
}

// Clean reports whether no invariant is violated.
func (r Report) Clean() bool { return len(r.Problems) == 0 }

// Write prints the report for people.
func (r Report) Write(w io.Writer) {
	fmt.Fprintf(w, "postings replayed: %d\n", r.Postings)
	for _, c := range r.Coins {
		fmt.Fprintf(w, "%-8s holdings %s = net external inflow %s  (%d balances)\n",
			c.Coin, c.Holdings.String(), c.NetExternalInflow.String(), c.Accounts)
	}
	if r.Clean() {
		fmt.Fprintln(w, "audit clean: every coin's accounts sum to its net external flow, no balance is negative, every balance matches its postings")
		return
	}
	fmt.Fprintf(w, "audit FAILED: %d problem(s)\n", len(r.Problems))
	for _, p := range r.Problems {
		fmt.Fprintln(w, "  -", p)
	}
}

// Audit replays every posting and checks the books: each stored balance
// equals the sum of its postings' legs, no non-external balance or bucket is
// negative, and per coin the accounts sum to zero, i.e. holdings equal the
// net external inflow. Balances are checked for every coin that appears in a
// posting and every coin in coins (pass the catalogue's, so a balance of a
// coin no posting mentions cannot escape the audit). Run it on a quiet store
// (no postings in flight).
func (l *Ledger) Audit(ctx context.Context, coins ...string) (Report, error) {
	var rep Report
	expected := map[string]*delta{}
	for shard := 0; shard < postingShards; shard++ {
		q := store.Query{Index: store.IndexGSI2, PK: fmt.Sprintf("POSTSHARD#%02d", shard), Limit: 500}
		for {
			page, err := l.st.Query(ctx, q)
			if err != nil {
				return rep, err
			}
			for _, it := range page.Items {
				rep.Postings++
				var legs []Leg
				if legs, err = parseLegs(it.Str("legs")); err != nil {
					rep.Problems = append(rep.Problems, fmt.Sprintf("posting %s: unreadable legs: %v", it.Str(store.AttrPK), err))
					continue
				}
				for _, d := range mergeLegs(legs) {
					k := d.pk + "|" + d.sk
					e := expected[k]
					if e == nil {
						e = &delta{acct: d.acct, coin: d.coin, pk: d.pk, sk: d.sk}
						expected[k] = e
					}
					e.avail = e.avail.Add(d.avail)
					e.frozen = e.frozen.Add(d.frozen)
				}
			}
			if page.Cursor == "" {
				break
			}
			q.Cursor = page.Cursor
		}
	}
	coinSet := map[string]bool{}
	for _, e := range expected {
		coinSet[e.coin] = true
	}
	for _, c := range coins {
		coinSet[c] = true
	}
	names := make([]string, 0, len(coinSet))
	for c := range coinSet {
		names = append(names, c)
	}
	sort.Strings(names)
	seen := map[string]bool{}
	for _, coin := range names {
		cr := CoinReport{Coin: coin}
		q := store.Query{Index: store.IndexGSI1, PK: "BALCOIN#" + coin, Limit: 500}
		for {
			page, err := l.st.Query(ctx, q)
			if err != nil {
				return rep, err
			}
			for _, it := range page.Items {
				b := balanceOf(it)
				cr.Accounts++
				k := it.Str(store.AttrPK) + "|" + it.Str(store.AttrSK)
				seen[k] = true
				if b.Account.Kind.External() {
					cr.NetExternalInflow = cr.NetExternalInflow.Sub(b.Total())
				} else {
					cr.Holdings = cr.Holdings.Add(b.Total())
					if (b.Available.IsNegative() || b.Frozen.IsNegative()) && !b.Account.Kind.MayBeNegative() {
						rep.Problems = append(rep.Problems, fmt.Sprintf("%s %s is negative: available %s, frozen %s",
							b.Account, coin, b.Available, b.Frozen))
					}
				}
				e := expected[k]
				switch {
				case e == nil:
					rep.Problems = append(rep.Problems, fmt.Sprintf("%s %s has a balance no posting explains", b.Account, coin))
				case !e.avail.Equal(b.Available) || !e.frozen.Equal(b.Frozen):
					rep.Problems = append(rep.Problems, fmt.Sprintf("%s %s: stored %s/%s, postings give %s/%s",
						b.Account, coin, b.Available, b.Frozen, e.avail, e.frozen))
				}
			}
			if page.Cursor == "" {
				break
			}
			q.Cursor = page.Cursor
		}
		if cr.Accounts == 0 {
			continue // a catalogue coin nobody holds
		}
		if !cr.Holdings.Equal(cr.NetExternalInflow) {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: holdings %s differ from net external inflow %s",
				coin, cr.Holdings, cr.NetExternalInflow))
		}
		rep.Coins = append(rep.Coins, cr)
	}
	for k, e := range expected {
		if !seen[k] && (!e.avail.IsZero() || !e.frozen.IsZero()) {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s %s: postings give %s/%s but no balance is stored",
				e.acct, e.coin, e.avail, e.frozen))
		}
	}
	sort.Strings(rep.Problems)
	return rep, nil
}
