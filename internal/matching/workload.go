package matching

import (
	"math/rand/v2"
	"slices"
)

// WorkloadConfig shapes a synthetic order flow for benchmarks (issue 6,
// speed benchmark 1): new orders at prices around a drifting mid, a share
// of them IOC, some of the resting ones amended, most eventually cancelled.
type WorkloadConfig struct {
	Seed      uint64
	Orders    int // new orders
	IOCPct    int // percent of new orders that are IOC (default 15)
	AmendPct  int // percent of the other (GTC) orders amended once (default 20)
	CancelPct int // percent of GTC orders cancelled at the end of their life (default 95)
	Users     int // distinct users (default 1000)
	// MeanLife is the mean life of a GTC order, counted in new orders
	// arriving meanwhile (default 1000): it sets the size of the live book.
	MeanLife int
	Symbol   uint32
	StartMid int64 // ticks (default 1,000,000)
}

func (c *WorkloadConfig) defaults() {
	if c.IOCPct == 0 {
		c.IOCPct = 15
	}
	if c.AmendPct == 0 {
		c.AmendPct = 20
	}
	if c.CancelPct == 0 {
		c.CancelPct = 95
	}
	if c.Users == 0 {
		c.Users = 1000
	}
	if c.MeanLife == 0 {
		c.MeanLife = 1000
	}
	if c.StartMid == 0 {
		c.StartMid = 1_000_000
	}
}

type timedCommand struct {
	at  float64
	cmd Command
}

// GenerateWorkload returns the command stream of cfg with sequence numbers
// 1, 2, 3 ... It is deterministic in cfg.
//
// New order i arrives at time i. Its price is drawn around the mid, which
// moves by a random walk: passive GTC orders sit a geometric number of
// ticks behind the mid (10% of GTC orders cross it and take); IOC orders
// cross the mid by a few ticks. Quantities are 1..100 lots. A GTC order
// chosen for amendment is amended after a random part of its life, half of
// the time down in quantity (keeping priority) and half of the time to a
// new price (losing it); its cancel, if any, comes at the end of its
// exponentially distributed life. Follow-ups of orders that already filled
// are sent anyway and rejected as unknown, as happens in real flow.
func GenerateWorkload(cfg WorkloadConfig) []Command {
	cfg.defaults()
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	msgs := make([]timedCommand, 0, cfg.Orders*2)
	mid := cfg.StartMid
	geom := func(mean float64) int64 { return int64(rng.ExpFloat64() * mean) }
	for i := 0; i < cfg.Orders; i++ {
		// Random walk of the mid: a tick every few orders.
		switch rng.IntN(8) {
		case 0:
			mid++
		case 1:
			mid--
		}
		id := uint64(i + 1)
		user := uint64(1 + rng.IntN(cfg.Users))
		side := Buy
		if rng.IntN(2) == 1 {
			side = Sell
		}
		sign := int64(1) // towards the other side
		if side == Sell {
			sign = -1
		}
		c := Command{Kind: CmdPlace, OrderID: id, UserID: user, Side: side, Type: Limit, Qty: 1 + rng.Int64N(100), Symbol: cfg.Symbol}
		at := float64(i)
		if rng.IntN(100) < cfg.IOCPct {
			c.TIF = IOC
			c.Price = mid + sign*(1+rng.Int64N(5))
			msgs = append(msgs, timedCommand{at, c})
			continue
		}
		c.TIF = GTC
		if rng.IntN(10) == 0 {
			c.Price = mid + sign*rng.Int64N(4) // marketable
		} else {
			c.Price = mid - sign*(1+geom(12))
		}
		if c.Price < 1 {
			c.Price = 1
		}
		msgs = append(msgs, timedCommand{at, c})
		life := rng.ExpFloat64()*float64(cfg.MeanLife) + 1
		if rng.IntN(100) < cfg.AmendPct {
			a := Command{Kind: CmdAmend, OrderID: id, UserID: user, Symbol: cfg.Symbol}
			if rng.IntN(2) == 0 {
				a.Qty = 1 + rng.Int64N(c.Qty) // down (or equal): keeps priority
			} else {
				a.Qty = c.Qty
				a.Price = c.Price - sign*(1+rng.Int64N(3))
				if a.Price < 1 {
					a.Price = 1
				}
			}
			msgs = append(msgs, timedCommand{at + life*rng.Float64(), a})
		}
		if rng.IntN(100) < cfg.CancelPct {
			msgs = append(msgs, timedCommand{at + life, Command{Kind: CmdCancel, OrderID: id, UserID: user, Symbol: cfg.Symbol}})
		}
	}
	slices.SortStableFunc(msgs, func(a, b timedCommand) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		}
		return 0
	})
	out := make([]Command, len(msgs))
	for i := range msgs {
		out[i] = msgs[i].cmd
		out[i].Seq = uint64(i + 1)
	}
	return out
}
