package perp

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// model is the index as a plain map, checked by scanning.
type model map[int32]struct {
	side  Side
	price int64
}

// due is what Due must answer: longs at or above mark, highest first,
// then shorts at or below, lowest first; ties by id.
func (m model) due(mark int64) []int32 {
	type e struct {
		id    int32
		price int64
	}
	var longs, shorts []e
	for id, p := range m {
		if p.side == Long && p.price >= mark {
			longs = append(longs, e{id, p.price})
		}
		if p.side == Short && p.price <= mark {
			shorts = append(shorts, e{id, p.price})
		}
	}
	slices.SortFunc(longs, func(a, b e) int { return cmp.Or(cmp.Compare(b.price, a.price), cmp.Compare(a.id, b.id)) })
	slices.SortFunc(shorts, func(a, b e) int { return cmp.Or(cmp.Compare(a.price, b.price), cmp.Compare(a.id, b.id)) })
	var out []int32
	for _, x := range append(longs, shorts...) {
		out = append(out, x.id)
		delete(m, x.id)
	}
	return out
}

// Random adds, moves, side changes, removals and ticks: the index answers
// what a scan of every position answers, in the same order.
func TestIndexMatchesAScan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	x := NewIndex()
	m := model{}
	for step := 0; step < 40_000; step++ {
		id := int32(r.IntN(300))
		switch op := r.IntN(10); {
		case op < 6:
			side := Long
			if r.IntN(2) == 0 {
				side = Short
			}
			price := 900 + r.Int64N(200) // many ties
			x.Set(id, side, price)
			m[id] = struct {
				side  Side
				price int64
			}{side, price}
		case op < 8:
			x.Remove(id)
			delete(m, id)
		default:
			mark := 900 + r.Int64N(200)
			got := x.Due(mark, nil)
			want := m.due(mark)
			if !slices.Equal(got, want) {
				t.Fatalf("step %d mark %d: due %v, a scan says %v", step, mark, got, want)
			}
		}
		if x.Len() != len(m) {
			t.Fatalf("step %d: %d held, want %d", step, x.Len(), len(m))
		}
		if p, ok := x.Price(id); ok != (m[id].side != 0) || (ok && p != m[id].price) {
			t.Fatalf("step %d: price of %d %d %v", step, id, p, ok)
		}
	}
}

// BenchmarkMarkTick: a mark-price tick against n open positions whose
// liquidation prices lie 0.05–5 % from the mark, half long, half short.
// Each tick moves the mark by up to ±0.1 % (a random walk drawn back to
// its start) and liquidates what it reaches; each liquidated position is
// replaced by a new one, so n stays n. The work per tick follows the
// number liquidated (liquidated/op grows with n here, as the positions
// are denser; each costs two heap operations, O(log n)); a tick that reaches nobody ("quiet") costs the same at any n. "scan" is
// the design to avoid: every position looked at on every tick.
func BenchmarkMarkTick(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		setup := func(b *testing.B) (x *Index, place func(id int32, mark int64), r *rand.Rand) {
			r = rand.New(rand.NewPCG(3, uint64(n)))
			x = NewIndex()
			place = func(id int32, mark int64) {
				off := mark * (5 + r.Int64N(495)) / 10_000
				if r.IntN(2) == 0 {
					x.Set(id, Long, mark-off)
				} else {
					x.Set(id, Short, mark+off)
				}
			}
			for id := int32(0); id < int32(n); id++ {
				place(id, 50_000_00)
			}
			return x, place, r
		}
		b.Run(fmt.Sprintf("moving/positions=%d", n), func(b *testing.B) {
			x, place, r := setup(b)
			const start = 50_000_00
			mark := int64(start)
			due := make([]int32, 0, n)
			liquidated := 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				mark += mark * (r.Int64N(21) - 10) / 10_000
				mark += (start - mark) / 100
				due = x.Due(mark, due[:0])
				liquidated += len(due)
				for _, id := range due {
					place(id, mark)
				}
			}
			b.ReportMetric(float64(liquidated)/float64(b.N), "liquidated/op")
		})
		b.Run(fmt.Sprintf("quiet/positions=%d", n), func(b *testing.B) {
			x, _, _ := setup(b)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if due := x.Due(50_000_00, nil); len(due) != 0 {
					b.Fatal("a quiet tick liquidated")
				}
			}
		})
		b.Run(fmt.Sprintf("scan/positions=%d", n), func(b *testing.B) {
			x, _, _ := setup(b)
			prices := make([]int64, n)
			sides := make([]Side, n)
			for id := range n {
				prices[id], _ = x.Price(int32(id))
				sides[id] = x.side[id]
			}
			hits := 0
			b.ResetTimer()
			for b.Loop() {
				for i, p := range prices {
					if (sides[i] == Long && p >= 50_000_00) || (sides[i] == Short && p <= 50_000_00) {
						hits++
					}
				}
			}
			if hits != 0 {
				b.Fatal("the scan found positions to liquidate at the start")
			}
		})
	}
}

// BenchmarkLiquidationPrice: computing one position's price after a fill
// or a margin change (the closed form, then the exact boundary).
func BenchmarkLiquidationPrice(b *testing.B) {
	tiers := btcTiers(b)
	p := Position{Side: Long, Qty: 100_000, Cost: 5_000_000 * usdt}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.LiquidationPrice(500_000*usdt, tickValue, 1<<40, tiers); err != nil {
			b.Fatal(err)
		}
	}
}
