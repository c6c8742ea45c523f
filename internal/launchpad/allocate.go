// Package launchpad holds the launchpad's rules: how a sale's tokens are
// shared among the users' commitments.
package launchpad

import (
	"errors"
	"math"
	"math/big"
)

// Commitment is what one user committed to a sale, in the commitment
// coin's smallest units.
type Commitment struct {
	User   string
	Amount int64
}

// Allocation is one user's share of a sale: the tokens (in the token's
// smallest units) and what they cost (in the commitment coin's units, the
// price times the tokens, rounded up); the rest of the commitment goes
// back.
type Allocation struct {
	User     string
	Tokens   int64
	Cost     int64
	Returned int64
}

// Sale is what the allocation needs of a sale: the tokens offered and the
// most one user may get (0: no cap), in the token's units, and the price
// of one token unit as a fraction PriceNum ÷ PriceDen of a commitment unit.
type Sale struct {
	Offered  int64
	Cap      int64
	PriceNum int64
	PriceDen int64
}

// ErrSale reports a sale whose figures cannot be allocated.
var ErrSale = errors.New("launchpad: bad sale")

// Allocate shares a sale's tokens among commitments. Each user gets
// commitment ÷ total × offered, at most what the commitment pays for and
// at most the cap; what the capped (and the fully served) users leave is
// shared again, pro rata, among the others, until nothing is left to
// share or everyone is served. Every share is rounded down; the units the
// rounding leaves are not allocated (Remainder: they stay with the
// project's account). Exact integer arithmetic throughout; the answer is
// in the commitments' order, and the same for the same input.
func Allocate(sale Sale, commits []Commitment) (out []Allocation, remainder int64, err error) {
	if sale.Offered < 0 || sale.Cap < 0 || sale.PriceNum <= 0 || sale.PriceDen <= 0 {
		return nil, 0, ErrSale
	}
	n := len(commits)
	// limit[i] is the most user i may get: the cap, and what its
	// commitment pays for (commitment × den ÷ num, rounded down).
	limit := make([]int64, n)
	for i, c := range commits {
		if c.Amount < 0 {
			return nil, 0, ErrSale
		}
		afford := mulDiv(c.Amount, sale.PriceDen, sale.PriceNum)
		limit[i] = afford
		if sale.Cap > 0 && sale.Cap < afford {
			limit[i] = sale.Cap
		}
	}
	tokens := make([]int64, n)
	left := sale.Offered
	open := make([]int, 0, n) // users not yet at their limit
	for i := range commits {
		if limit[i] > 0 {
			open = append(open, i)
		}
	}
	for left > 0 && len(open) > 0 {
		var weight big.Int // Σ commitments: beyond int64 with many large ones
		for _, i := range open {
			weight.Add(&weight, big.NewInt(commits[i].Amount))
		}
		// Pro rata among the open users; those whose share reaches their
		// limit take the limit and leave the round, and the rest is shared
		// again (water-filling). A round where nobody reaches a limit
		// ends it.
		capped := false
		for _, i := range open {
			if share := shareOf(left, commits[i].Amount, &weight); share >= limit[i]-tokens[i] {
				capped = true
			}
		}
		if !capped {
			var given int64
			for _, i := range open {
				share := shareOf(left, commits[i].Amount, &weight)
				tokens[i] += share
				given += share
			}
			left -= given
			break
		}
		var given int64
		next := open[:0:0]
		for _, i := range open {
			if share := shareOf(left, commits[i].Amount, &weight); share >= limit[i]-tokens[i] {
				given += limit[i] - tokens[i]
				tokens[i] = limit[i]
				continue
			}
			next = append(next, i)
		}
		left -= given
		open = next
	}
	out = make([]Allocation, n)
	for i, c := range commits {
		cost := mulDivUp(tokens[i], sale.PriceNum, sale.PriceDen)
		out[i] = Allocation{User: c.User, Tokens: tokens[i], Cost: cost, Returned: c.Amount - cost}
	}
	return out, left, nil
}

// mulDiv is a × b ÷ c rounded down, for non-negative a, b and positive c,
// exact at any size; a result beyond int64 answers math.MaxInt64 (a limit
// nothing reaches).
func mulDiv(a, b, c int64) int64 {
	var x big.Int
	x.Mul(big.NewInt(a), big.NewInt(b))
	x.Quo(&x, big.NewInt(c))
	if !x.IsInt64() {
		return math.MaxInt64
	}
	return x.Int64()
}

// shareOf is left × amount ÷ weight rounded down (at most left, as
// amount ≤ weight).
func shareOf(left, amount int64, weight *big.Int) int64 {
	var x big.Int
	x.Mul(big.NewInt(left), big.NewInt(amount))
	x.Quo(&x, weight)
	return x.Int64()
}

// mulDivUp is a × b ÷ c rounded up.
func mulDivUp(a, b, c int64) int64 {
	var x, r big.Int
	x.Mul(big.NewInt(a), big.NewInt(b))
	x.QuoRem(&x, big.NewInt(c), &r)
	if r.Sign() > 0 {
		x.Add(&x, big.NewInt(1))
	}
	return x.Int64()
}
