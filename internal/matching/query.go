package matching

import "fmt"

// OrderInfo is a read-only view of a live order.
type OrderInfo struct {
	ID          uint64
	UserID      uint64
	Side        Side
	TIF         TimeInForce
	STP         STPMode
	Price       int64 // limit price (ticks)
	Qty         int64 // remaining lots
	Filled      int64 // lots executed
	FilledQuote int64 // quote units executed
	StopPrice   int64 // non-zero while a stop waits for its trigger
	Tag         int32 // Command.Tag
}

func (b *Book) info(o *order) OrderInfo {
	return OrderInfo{ID: o.id, UserID: o.user, Side: o.side, TIF: o.tif, STP: o.stp, Price: o.price,
		Qty: o.qty, Filled: o.filled, FilledQuote: o.filledQuote, StopPrice: o.stop, Tag: o.tag}
}

// Order returns the live order with this id.
func (b *Book) Order(id uint64) (OrderInfo, bool) {
	oi, ok := b.ids.Get(id)
	if !ok {
		return OrderInfo{}, false
	}
	return b.info(&b.orders[oi]), true
}

// ForEachOrder calls fn for every live order in canonical order: bids from
// the best price down, asks from the best price up (each level in time
// priority), then buy stops and sell stops in trigger order. This is the
// order of StateHash and Snapshot.
func (b *Book) ForEachOrder(fn func(OrderInfo)) {
	b.walk(func(o *order) { fn(b.info(o)) })
}

func (b *Book) walk(fn func(o *order)) {
	for _, x := range [2]*levelIndex{&b.bids, &b.asks} {
		x.forEach(func(ref levelRef) bool {
			for oi := b.levels[ref.idx].head; oi != nilIdx; oi = b.orders[oi].next {
				fn(&b.orders[oi])
			}
			return true
		})
	}
	for _, stops := range [2][]int32{b.buyStops, b.sellStops} {
		for i := len(stops) - 1; i >= 0; i-- {
			fn(&b.orders[stops[i]])
		}
	}
}

// DepthLevel is one aggregated price level.
type DepthLevel struct {
	Price  int64
	Qty    int64
	Orders int
}

// AppendDepth appends up to max levels of side, best first, to dst and
// returns it (no allocation when dst has room).
func (b *Book) AppendDepth(dst []DepthLevel, side Side, max int) []DepthLevel {
	if max <= 0 {
		return dst
	}
	b.sideLevels(side).forEach(func(ref levelRef) bool {
		lv := &b.levels[ref.idx]
		dst = append(dst, DepthLevel{Price: lv.price, Qty: lv.total, Orders: int(lv.count)})
		max--
		return max > 0
	})
	return dst
}

// AppendDepthBuckets appends the levels of side, best first, that fall in
// the side's first n buckets of span ticks that hold any level (bids
// grouped down, asks up, as merged depth groups them), at most max levels.
// Empty buckets do not count: an order far from the best price still shows
// when fewer than n buckets lie before it. A bucket that max would cut is
// left out whole, so a merge of what it returns onto span (or a finer grid
// that divides it) has complete quantities.
func (b *Book) AppendDepthBuckets(dst []DepthLevel, side Side, span int64, n, max int) []DepthLevel {
	if span < 1 || n <= 0 || max <= 0 {
		return dst
	}
	bucket := func(p int64) int64 {
		if side == Buy {
			return p / span
		}
		return (p + span - 1) / span
	}
	start, first, cur, buckets := len(dst), int64(0), int64(0), 0
	cut := false
	b.sideLevels(side).forEach(func(ref levelRef) bool {
		lv := &b.levels[ref.idx]
		k := bucket(lv.price)
		if len(dst) == start {
			first = k
		}
		if len(dst) == start || k != cur {
			if buckets++; buckets > n {
				return false
			}
			cur = k
		}
		if len(dst)-start == max {
			cut = true
			return false
		}
		dst = append(dst, DepthLevel{Price: lv.price, Qty: lv.total, Orders: int(lv.count)})
		return true
	})
	if !cut {
		return dst
	}
	if last := bucket(dst[len(dst)-1].Price); last != first {
		// (A first bucket of more than max levels is kept, cut: it is all
		// there is to show.)
		for bucket(dst[len(dst)-1].Price) == last {
			dst = dst[:len(dst)-1]
		}
	}
	return dst
}

// BestBid returns the best bid's price and total quantity.
func (b *Book) BestBid() (price, qty int64, ok bool) { return b.best(&b.bids) }

// BestAsk returns the best ask's price and total quantity.
func (b *Book) BestAsk() (price, qty int64, ok bool) { return b.best(&b.asks) }

func (b *Book) best(x *levelIndex) (int64, int64, bool) {
	ref, ok := x.best()
	if !ok {
		return 0, 0, false
	}
	lv := &b.levels[ref.idx]
	return lv.price, lv.total, true
}

// Check verifies the book's internal invariants: sorted, non-empty levels
// whose totals and counts match their orders; a book that is not crossed;
// every live order in the id map and nothing else; stops in trigger order;
// no remainder below the minimum quantity resting. Tests and the engine's
// audit call it; it is O(n).
func (b *Book) Check() error {
	live := 0
	for si, x := range [2]*levelIndex{&b.bids, &b.asks} {
		side := Buy
		if si == 1 {
			side = Sell
		}
		var arr []levelRef
		for ci, c := range x.chunks {
			if len(c) == 0 || len(c) > chunkMax {
				return fmt.Errorf("%s level chunk %d has %d entries", side, ci, len(c))
			}
			arr = append(arr, c...)
		}
		if len(arr) != x.n {
			return fmt.Errorf("%s level index counts %d, holds %d", side, x.n, len(arr))
		}
		for i, ref := range arr {
			lv := &b.levels[ref.idx]
			if got, ok := b.px.Get(pxKey(side, lv.price)); !ok || got != ref.idx {
				return fmt.Errorf("%s level %d missing from the price map", side, lv.price)
			}
			if ref.key != sideKey(side, lv.price) {
				return fmt.Errorf("%s level %d: key %d does not match price %d", side, i, ref.key, lv.price)
			}
			if i > 0 && arr[i-1].key >= ref.key {
				return fmt.Errorf("%s levels not strictly sorted at %d", side, i)
			}
			var total int64
			var count int32
			prev := nilIdx
			for oi := lv.head; oi != nilIdx; oi = b.orders[oi].next {
				o := &b.orders[oi]
				if o.state != stateResting || o.side != side || o.price != lv.price || o.level != ref.idx || o.prev != prev {
					return fmt.Errorf("order %d inconsistent with its level %d", o.id, lv.price)
				}
				if o.qty < b.cfg.MinQty {
					return fmt.Errorf("order %d rests with %d lots, below the minimum", o.id, o.qty)
				}
				if got, ok := b.ids.Get(o.id); !ok || got != oi {
					return fmt.Errorf("order %d missing from the id map", o.id)
				}
				total += o.qty
				count++
				prev = oi
			}
			if count == 0 || lv.tail != prev || total != lv.total || count != lv.count {
				return fmt.Errorf("%s level %d: count %d/%d total %d/%d", side, lv.price, count, lv.count, total, lv.total)
			}
			live += int(count)
		}
	}
	if b.px.Len() != b.bids.len()+b.asks.len() {
		return fmt.Errorf("price map holds %d levels, book %d", b.px.Len(), b.bids.len()+b.asks.len())
	}
	if bp, _, ok := b.BestBid(); ok {
		if ap, _, ok := b.BestAsk(); ok && bp >= ap {
			return fmt.Errorf("book crossed: bid %d >= ask %d", bp, ap)
		}
	}
	for si, stops := range [2][]int32{b.buyStops, b.sellStops} {
		for i, oi := range stops {
			o := &b.orders[oi]
			if o.state != stateStop || (si == 0) != (o.side == Buy) {
				return fmt.Errorf("stop order %d misplaced", o.id)
			}
			if got, ok := b.ids.Get(o.id); !ok || got != oi {
				return fmt.Errorf("stop order %d missing from the id map", o.id)
			}
			if i > 0 {
				p := b.orders[stops[i-1]].stop
				if (si == 0 && p < o.stop) || (si == 1 && p > o.stop) {
					return fmt.Errorf("stops out of trigger order at %d", i)
				}
			}
			if b.stopReached(o.side, o.stop) {
				return fmt.Errorf("stop order %d reached but not triggered", o.id)
			}
		}
		live += len(stops)
	}
	if live != b.ids.Len() {
		return fmt.Errorf("id map holds %d orders, book %d", b.ids.Len(), live)
	}
	return nil
}
