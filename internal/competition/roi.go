package competition

import (
	"sort"

	"github.com/shopspring/decimal"
)

// The ranking's arithmetic, in decimals only (never float64): what a
// participant made since joining and the return on what it had at stake.

// ROIPlaces are the decimal places ROI (a fraction: 0.1234 is 12.34 %)
// is kept to and ranked by; AmountPlaces those of the time-weighted
// deposits.
const (
	ROIPlaces    = 8
	AmountPlaces = 8
)

// Transfer is one transfer between a participant's spot and futures
// accounts, as the wallet's records show it.
type Transfer struct {
	// At is when it was made (Unix ms).
	At int64
	// Amount is positive.
	Amount decimal.Decimal
	// In says it went into the futures account (else out of it).
	In bool
	// Pending says it is on its way (the wallet finishes it within a
	// minute).
	Pending bool
}

// Flow is a net movement into the futures account (negative: out of it)
// at a time (Unix ms).
type Flow struct {
	At     int64
	Amount decimal.Decimal
}

// Flows are the movements transfers make, leaving none that would inflate
// a profit while it is on its way: a pending transfer in counts (the
// money may already be in the account; if not yet, the profit shows less
// for a minute), a pending transfer out does not (the money may still be
// in the account; if it has left, the profit shows less for a minute).
func Flows(ts []Transfer) []Flow {
	out := make([]Flow, 0, len(ts))
	for _, t := range ts {
		switch {
		case !t.Amount.IsPositive():
		case t.In:
			out = append(out, Flow{At: t.At, Amount: t.Amount})
		case !t.Pending:
			out = append(out, Flow{At: t.At, Amount: t.Amount.Neg()})
		}
	}
	return out
}

// Standing is a participant's result at a refresh.
type Standing struct {
	// Equity is the futures margin balance now (wallet balance +
	// unrealized PnL at mark); Initial the margin balance at joining.
	Equity, Initial decimal.Decimal
	// NetIn is the sum of the flows since joining (transfers in less
	// transfers out).
	NetIn decimal.Decimal
	// Weighted is the time-weighted net deposits: each flow times the
	// fraction of the competition left when it came (AmountPlaces).
	Weighted decimal.Decimal
	// Profit is Equity − Initial − NetIn: transfers in are no profit,
	// transfers out no loss.
	Profit decimal.Decimal
	// ROI is Profit ÷ (Initial + Weighted) to ROIPlaces; zero when
	// Ranked is false.
	ROI decimal.Decimal
	// Ranked says the denominator is positive. A participant whose is
	// zero or below (nothing at stake: everything taken out early) is
	// ranked after every participant with an ROI.
	Ranked bool
}

// Compute is a participant's standing: initial is the margin balance at
// joining, equity the margin balance now, flows the net transfers since
// joining, start and end the competition's (Unix ms).
//
//	profit   = equity − initial − Σ flow
//	weighted = Σ flow × (end − max(at, start)) ÷ (end − start)   (each fraction within [0, 1])
//	ROI      = profit ÷ (initial + weighted)                      (when the denominator is positive)
func Compute(initial, equity decimal.Decimal, flows []Flow, start, end int64) Standing {
	s := Standing{Equity: equity, Initial: initial, NetIn: decimal.Zero, Weighted: decimal.Zero, ROI: decimal.Zero}
	span := end - start
	weighted := decimal.Zero // Σ flow × ms left, divided once at the end
	for _, f := range flows {
		s.NetIn = s.NetIn.Add(f.Amount)
		if span <= 0 {
			continue
		}
		left := end - max(f.At, start)
		left = min(max(left, 0), span)
		weighted = weighted.Add(f.Amount.Mul(decimal.NewFromInt(left)))
	}
	if span > 0 {
		s.Weighted = weighted.DivRound(decimal.NewFromInt(span), AmountPlaces)
	}
	s.Profit = equity.Sub(initial).Sub(s.NetIn)
	den := initial.Add(s.Weighted)
	if den.IsPositive() {
		s.Ranked = true
		s.ROI = s.Profit.DivRound(den, ROIPlaces)
	}
	return s
}

// Entry is one participant in a ranking.
type Entry struct {
	UID      string
	JoinedAt int64
	Standing
}

// Rank orders entries best first: those with an ROI by it, highest
// first, then those without (zero denominators); ties by profit, then
// the earlier joiner, then the user id, so that the same standings always
// give the same ranks. Rank i+1 is entries[i] afterwards.
func Rank(entries []Entry) {
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.Ranked != b.Ranked {
			return a.Ranked
		}
		if c := a.ROI.Cmp(b.ROI); a.Ranked && c != 0 {
			return c > 0
		}
		if c := a.Profit.Cmp(b.Profit); c != 0 {
			return c > 0
		}
		if a.JoinedAt != b.JoinedAt {
			return a.JoinedAt < b.JoinedAt
		}
		return a.UID < b.UID
	})
}

// ROIPercent is an ROI as the pages show it: percent, 2 decimals.
func ROIPercent(roi decimal.Decimal) string {
	return roi.Mul(decimal.NewFromInt(100)).StringFixed(2)
}
