package matching

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// refBook is the reference model: the same rules as Book, written the
// obvious way (one slice of resting orders, linear scans for the best maker,
// sorting for canonical order) so that its correctness can be read off.
type refBook struct {
	cfg       BookConfig
	resting   []*refOrder
	stops     []*refOrder
	lastSeq   uint64
	seq       uint64
	lastPrice int64
	tradeID   uint64
	clock     uint64
	events    []Event
}

type refOrder struct {
	id, user                     uint64
	side                         Side
	tif                          TimeInForce
	stp                          STPMode
	price, qty, filled, fq, stop int64
	time                         uint64
	byQuote, capped              bool
	budget, limit                int64
	end                          Reason
}

func newRefBook(cfg BookConfig) *refBook {
	cfg.normalise()
	return &refBook{cfg: cfg}
}

func (r *refBook) emit(e Event) {
	e.Seq = r.seq
	e.Symbol = r.cfg.Symbol
	r.events = append(r.events, e)
}

func (r *refBook) orderEvent(kind EventKind, reason Reason, o *refOrder) {
	e := Event{Kind: kind, Reason: reason, OrderID: o.id, UserID: o.user, Side: o.side, Price: o.price, Qty: o.qty}
	if kind == EvDone {
		e.Filled, e.Quote = o.filled, o.fq
	}
	r.emit(e)
}

func (r *refBook) reject(c *Command, reason Reason) {
	r.emit(Event{Kind: EvRejected, Reason: reason, OrderID: c.OrderID, UserID: c.UserID})
}

func (r *refBook) find(id uint64) (*refOrder, bool) {
	for _, o := range r.resting {
		if o.id == id {
			return o, false
		}
	}
	for _, o := range r.stops {
		if o.id == id {
			return o, true
		}
	}
	return nil, false
}

func removeRef(list []*refOrder, o *refOrder) []*refOrder {
	for i, x := range list {
		if x == o {
			return append(list[:i], list[i+1:]...)
		}
	}
	panic("order not in list")
}

func (r *refBook) apply(c *Command) bool {
	if c.Seq <= r.lastSeq {
		return false
	}
	r.lastSeq, r.seq = c.Seq, c.Seq
	if c.Symbol != 0 && c.Symbol != r.cfg.Symbol {
		r.reject(c, ReasonWrongSymbol)
		return true
	}
	switch c.Kind {
	case CmdPlace:
		r.place(c)
	case CmdCancel:
		if c.OrderID == 0 {
			r.reject(c, ReasonInvalidCommand)
			break
		}
		o, _ := r.find(c.OrderID)
		if o == nil || o.user != c.UserID {
			r.reject(c, ReasonUnknownOrder)
			break
		}
		r.cancelOrder(o)
	case CmdCancelAll:
		for _, o := range r.canonical() {
			if o.user == c.UserID && (c.OrderID == 0 || o.id < c.OrderID) {
				r.cancelOrder(o)
			}
		}
	case CmdAmend:
		r.amend(c)
	default:
		r.reject(c, ReasonInvalidCommand)
	}
	r.triggers()
	return true
}

func (r *refBook) cancelOrder(o *refOrder) {
	r.orderEvent(EvDone, ReasonCancelled, o)
	if o.stop != 0 {
		r.stops = removeRef(r.stops, o)
	} else {
		r.resting = removeRef(r.resting, o)
	}
}

func (r *refBook) stopReached(side Side, stop int64) bool {
	if r.lastPrice == 0 {
		return false
	}
	if side == Buy {
		return r.lastPrice >= stop
	}
	return r.lastPrice <= stop
}

// crosses: is there an opposite resting order a limit at price would take?
func (r *refBook) crosses(side Side, price int64) bool {
	for _, o := range r.resting {
		if o.side != side && ((side == Buy && o.price <= price) || (side == Sell && o.price >= price)) {
			return true
		}
	}
	return false
}

func (r *refBook) place(c *Command) {
	if reason := c.Validate(&r.cfg); reason != ReasonNone {
		r.reject(c, reason)
		return
	}
	if o, _ := r.find(c.OrderID); o != nil {
		r.reject(c, ReasonDuplicateOrderID)
		return
	}
	stp := c.STP
	if stp == STPDefault {
		stp = r.cfg.DefaultSTP
	}
	if c.StopPrice != 0 {
		if r.stopReached(c.Side, c.StopPrice) {
			r.reject(c, ReasonStopWouldTrigger)
			return
		}
		r.emit(Event{Kind: EvAccepted, OrderID: c.OrderID, UserID: c.UserID, Side: c.Side, Price: c.Price, Qty: c.Qty})
		r.clock++
		r.stops = append(r.stops, &refOrder{id: c.OrderID, user: c.UserID, side: c.Side, tif: c.TIF, stp: stp,
			price: c.Price, qty: c.Qty, stop: c.StopPrice, time: r.clock})
		return
	}
	if c.TIF == PostOnly && r.crosses(c.Side, c.Price) {
		r.reject(c, ReasonPostOnlyWouldTake)
		return
	}
	if c.Type == Market && c.Qty != 0 && r.cfg.MinNotional > 0 {
		// At the best opposite price: the highest bid, the lowest ask.
		best := int64(-1)
		for _, o := range r.resting {
			if o.side != c.Side && (best < 0 || (c.Side == Sell) == (o.price > best)) {
				best = o.price
			}
		}
		if best >= 0 && best*c.Qty < r.cfg.MinNotional {
			r.reject(c, ReasonBelowMinNotional)
			return
		}
	}
	r.emit(Event{Kind: EvAccepted, OrderID: c.OrderID, UserID: c.UserID, Side: c.Side, Price: c.Price, Qty: c.Qty, Quote: c.Quote})
	t := &refOrder{id: c.OrderID, user: c.UserID, side: c.Side, tif: c.TIF, stp: stp, price: c.Price, qty: c.Qty, limit: c.Price}
	if c.Type == Market {
		t.limit = 0
		if c.Side == Buy {
			t.limit = math.MaxInt64
		}
		if c.Quote != 0 {
			t.byQuote, t.budget, t.capped = true, c.Quote, c.Qty != 0
		}
	}
	r.exec(t)
}

// makers returns the resting orders a taker could meet, best first.
func (r *refBook) makers(t *refOrder) []*refOrder {
	var out []*refOrder
	for _, o := range r.resting {
		if o.side == t.side {
			continue
		}
		if (t.side == Buy && o.price <= t.limit) || (t.side == Sell && o.price >= t.limit) {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].price != out[j].price {
			return (t.side == Buy) == (out[i].price < out[j].price)
		}
		return out[i].time < out[j].time
	})
	return out
}

func (r *refBook) takerDone(t *refOrder, reason Reason) {
	rem := t.qty
	if t.byQuote && !t.capped {
		rem = 0
	}
	r.emit(Event{Kind: EvDone, Reason: reason, OrderID: t.id, UserID: t.user, Side: t.side, Price: t.price,
		Qty: rem, Filled: t.filled, Quote: t.fq})
}

func (r *refBook) makerGone(m *refOrder, reason Reason) {
	r.orderEvent(EvDone, reason, m)
	r.resting = removeRef(r.resting, m)
}

func (r *refBook) exec(t *refOrder) {
	if t.tif == FOK {
		need := t.qty
		ok := false
		for _, m := range r.makers(t) {
			if m.user == t.user {
				if t.stp == STPCancelMaker {
					continue
				}
				break
			}
			need -= m.qty
			if need <= 0 {
				ok = true
				break
			}
		}
		if !ok {
			r.takerDone(t, ReasonFOKNotFilled)
			return
		}
	}
	for (t.byQuote && !t.capped) || t.qty > 0 {
		ms := r.makers(t)
		if len(ms) == 0 {
			break
		}
		m := ms[0]
		if m.user == t.user {
			mode := t.stp
			if mode == STPDecrement && t.byQuote {
				mode = STPCancelTaker
			}
			if mode == STPCancelMaker {
				r.makerGone(m, ReasonSelfTrade)
				continue
			}
			if mode == STPCancelBoth {
				r.makerGone(m, ReasonSelfTrade)
				t.end = ReasonSelfTrade
				break
			}
			if mode == STPDecrement {
				if m.qty > t.qty {
					m.qty -= t.qty
					r.orderEvent(EvAmended, ReasonSelfTrade, m)
					if m.qty < r.cfg.MinQty {
						r.makerGone(m, ReasonDust)
					}
					t.end = ReasonSelfTrade
					break
				}
				if m.qty < t.qty {
					t.qty -= m.qty
					r.makerGone(m, ReasonSelfTrade)
					continue
				}
				r.makerGone(m, ReasonSelfTrade)
				t.end = ReasonSelfTrade
				break
			}
			t.end = ReasonSelfTrade
			break
		}
		q := m.qty
		if (!t.byQuote || t.capped) && t.qty < q {
			q = t.qty
		}
		if t.byQuote {
			afford := t.budget / m.price
			if afford == 0 {
				if t.capped && t.filled > 0 {
					t.end = ReasonIOCRemainder
				} else if t.filled > 0 {
					t.end = ReasonFilled
				} else {
					t.end = ReasonDust
				}
				break
			}
			if afford < q {
				q = afford
			}
			t.budget -= m.price * q
		}
		if !t.byQuote || t.capped {
			t.qty -= q
		}
		r.tradeID++
		quote := m.price * q
		m.qty -= q
		m.filled += q
		m.fq += quote
		t.filled += q
		t.fq += quote
		r.lastPrice = m.price
		r.emit(Event{Kind: EvTrade, TradeID: r.tradeID, OrderID: t.id, UserID: t.user, MakerOrderID: m.id,
			MakerUserID: m.user, Side: t.side, Price: m.price, Qty: q, Quote: quote})
		if m.qty == 0 {
			r.makerGone(m, ReasonFilled)
		} else if m.qty < r.cfg.MinQty {
			r.makerGone(m, ReasonDust)
		}
	}
	switch {
	case t.end != ReasonNone:
		r.takerDone(t, t.end)
	case t.capped && t.qty == 0:
		r.takerDone(t, ReasonFilled)
	case t.capped:
		r.takerDone(t, ReasonIOCRemainder)
	case t.byQuote && t.budget == 0:
		r.takerDone(t, ReasonFilled)
	case t.byQuote:
		r.takerDone(t, ReasonIOCRemainder)
	case t.qty == 0:
		r.takerDone(t, ReasonFilled)
	case t.tif == IOC || t.tif == FOK:
		r.takerDone(t, ReasonIOCRemainder)
	case t.qty < r.cfg.MinQty:
		r.takerDone(t, ReasonDust)
	default:
		r.clock++
		t.time = r.clock
		t.stop = 0
		r.resting = append(r.resting, t)
	}
}

func (r *refBook) amend(c *Command) {
	if reason := c.Validate(&r.cfg); reason != ReasonNone {
		r.reject(c, reason)
		return
	}
	o, isStop := r.find(c.OrderID)
	if o == nil || o.user != c.UserID {
		r.reject(c, ReasonUnknownOrder)
		return
	}
	price := c.Price
	if price == 0 {
		price = o.price
	}
	if c.Qty < r.cfg.MinQty {
		r.reject(c, ReasonBelowMinQty)
		return
	}
	if price*c.Qty < r.cfg.MinNotional {
		r.reject(c, ReasonBelowMinNotional)
		return
	}
	if isStop || (price == o.price && c.Qty <= o.qty) {
		o.price, o.qty = price, c.Qty
		r.orderEvent(EvAmended, ReasonNone, o)
		return
	}
	if o.tif == PostOnly && r.crosses(o.side, price) {
		r.reject(c, ReasonPostOnlyWouldTake)
		return
	}
	r.resting = removeRef(r.resting, o)
	o.price, o.qty, o.limit = price, c.Qty, price
	r.orderEvent(EvAmended, ReasonNone, o)
	r.exec(o)
}

func (r *refBook) triggers() {
	for r.lastPrice != 0 {
		var pick *refOrder
		for _, o := range r.stops {
			if o.side == Buy && o.stop <= r.lastPrice {
				if pick == nil || o.stop < pick.stop || (o.stop == pick.stop && o.time < pick.time) {
					pick = o
				}
			}
		}
		if pick == nil {
			for _, o := range r.stops {
				if o.side == Sell && o.stop >= r.lastPrice {
					if pick == nil || o.stop > pick.stop || (o.stop == pick.stop && o.time < pick.time) {
						pick = o
					}
				}
			}
		}
		if pick == nil {
			return
		}
		r.stops = removeRef(r.stops, pick)
		pick.stop = 0
		pick.limit = pick.price
		r.orderEvent(EvTriggered, ReasonNone, pick)
		r.exec(pick)
	}
}

// canonical lists live orders in the book's canonical order.
func (r *refBook) canonical() []*refOrder {
	var bids, asks, bstops, sstops []*refOrder
	for _, o := range r.resting {
		if o.side == Buy {
			bids = append(bids, o)
		} else {
			asks = append(asks, o)
		}
	}
	for _, o := range r.stops {
		if o.side == Buy {
			bstops = append(bstops, o)
		} else {
			sstops = append(sstops, o)
		}
	}
	by := func(list []*refOrder, less func(a, b *refOrder) bool) {
		sort.Slice(list, func(i, j int) bool { return less(list[i], list[j]) })
	}
	by(bids, func(a, b *refOrder) bool { return a.price > b.price || (a.price == b.price && a.time < b.time) })
	by(asks, func(a, b *refOrder) bool { return a.price < b.price || (a.price == b.price && a.time < b.time) })
	by(bstops, func(a, b *refOrder) bool { return a.stop < b.stop || (a.stop == b.stop && a.time < b.time) })
	by(sstops, func(a, b *refOrder) bool { return a.stop > b.stop || (a.stop == b.stop && a.time < b.time) })
	out := append(bids, asks...)
	out = append(out, bstops...)
	return append(out, sstops...)
}

func (r *refBook) infos() []OrderInfo {
	var out []OrderInfo
	for _, o := range r.canonical() {
		out = append(out, OrderInfo{ID: o.id, UserID: o.user, Side: o.side, TIF: o.tif, STP: o.stp, Price: o.price,
			Qty: o.qty, Filled: o.filled, FilledQuote: o.fq, StopPrice: o.stop})
	}
	return out
}

func bookInfos(b *Book) []OrderInfo {
	var out []OrderInfo
	b.ForEachOrder(func(o OrderInfo) { out = append(out, o) })
	return out
}

// genCommands produces a random command stream that exercises every path:
// a narrow price band and few users (so crossing and self-trades are
// common), duplicate and unknown ids, malformed commands.
type cmdGen struct {
	rng    *rand.Rand
	seq    uint64
	nextID uint64
	live   []uint64 // ids that were placed (some may be finished by now)
	owner  map[uint64]uint64
	mid    int64
	spread int // prices are mid ± spread
	symbol uint32
}

func newCmdGen(seed uint64) *cmdGen {
	return &cmdGen{rng: rand.New(rand.NewPCG(seed, seed^0x5eed)), owner: map[uint64]uint64{}, mid: 1000, spread: 6}
}

func (g *cmdGen) next() Command {
	r := g.rng
	g.seq++
	c := Command{Seq: g.seq, UserID: uint64(1 + r.IntN(4))}
	if r.IntN(200) == 0 {
		c.Seq += uint64(r.IntN(2)) // sometimes skip a sequence number
		g.seq = c.Seq
	}
	if r.IntN(50) == 0 {
		g.mid += int64(r.IntN(11) - 5)
		if g.mid < 20 {
			g.mid = 20
		}
	}
	price := func() int64 { return max(1, g.mid+int64(r.IntN(2*g.spread+1)-g.spread)) }
	pickLive := func() uint64 {
		if len(g.live) == 0 || r.IntN(20) == 0 {
			return uint64(1 + r.IntN(int(g.nextID+2)))
		}
		// Prefer recent ids: they are more likely still live.
		i := len(g.live) - 1 - r.IntN(min(len(g.live), 40))
		return g.live[i]
	}
	p := r.IntN(100)
	if g.spread > 50 && p >= 62 && p < 99 && r.IntN(10) != 0 {
		p = 0 // wide books: fewer cancels and amends, so the book grows
	}
	switch {
	case p < 62:
		c.Kind = CmdPlace
		g.nextID++
		c.OrderID = g.nextID
		if r.IntN(100) == 0 && len(g.live) > 0 {
			c.OrderID = pickLive() // duplicate
		}
		c.Side = Side(1 + r.IntN(2))
		c.Type = Limit
		c.TIF = GTC
		c.Price = price()
		if g.spread > 50 && r.IntN(30) != 0 {
			// Wide books: mostly passive orders on their own side of the
			// mid, so hundreds of levels build up.
			off := int64(1 + r.IntN(g.spread))
			if c.Side == Buy {
				c.Price = max(1, g.mid-off)
			} else {
				c.Price = g.mid + off
			}
		}
		c.Qty = int64(1 + r.IntN(12))
		c.STP = STPMode(r.IntN(5))
		switch q := r.IntN(100); {
		case q < 10:
			c.TIF = IOC
		case q < 18:
			c.TIF = FOK
			c.Qty = int64(1 + r.IntN(30))
		case q < 28:
			c.TIF = PostOnly
		case q < 36:
			c.Type, c.TIF, c.Price = Market, IOC, 0
			if c.Side == Buy && r.IntN(2) == 0 {
				c.Qty = 0
				c.Quote = int64(1 + r.IntN(20000))
			} else if c.Side == Buy && r.IntN(2) == 0 {
				// By quantity, capped by a budget that may run out first.
				c.Qty = int64(1 + r.IntN(25))
				c.Quote = int64(1 + r.IntN(30000))
			} else {
				c.Qty = int64(1 + r.IntN(25))
			}
		case q < 46:
			// Stop-limit: half of them on the "would trigger" side.
			c.TIF = TimeInForce(1 + r.IntN(3))
			c.StopPrice = price()
		}
		if r.IntN(60) == 0 {
			// Malformed in some way.
			switch r.IntN(5) {
			case 0:
				c.Price = -c.Price
			case 1:
				c.Qty = 0
			case 2:
				c.Side = 0
			case 3:
				c.TIF = 9
			case 4:
				c.Type = Market
			}
		}
		if c.OrderID != 0 {
			if _, seen := g.owner[c.OrderID]; !seen {
				g.owner[c.OrderID] = c.UserID
				g.live = append(g.live, c.OrderID)
			}
		}
	case p < 80:
		c.Kind = CmdCancel
		c.OrderID = pickLive()
		if u, ok := g.owner[c.OrderID]; ok && r.IntN(15) != 0 {
			c.UserID = u
		}
	case p < 97:
		c.Kind = CmdAmend
		c.OrderID = pickLive()
		if u, ok := g.owner[c.OrderID]; ok && r.IntN(15) != 0 {
			c.UserID = u
		}
		c.Qty = int64(1 + r.IntN(12))
		if r.IntN(2) == 0 {
			c.Price = price()
		}
	case p < 99:
		c.Kind = CmdCancelAll
		if r.IntN(2) == 0 {
			c.OrderID = 0 // unbounded; otherwise orders from c.OrderID on stay
		}
	default:
		c.Kind = CommandKind(r.IntN(7))
		c.OrderID = pickLive()
	}
	if r.IntN(300) == 0 {
		c.Symbol = g.symbol + 1 // wrong book
	}
	return c
}

func modelConfigs() []BookConfig {
	return []BookConfig{
		{Symbol: 7},
		{Symbol: 7, MinQty: 3, DefaultSTP: STPCancelMaker},
		{Symbol: 7, MinNotional: 3000, DefaultSTP: STPDecrement, InitialOrders: 1, InitialLevels: 1},
		{Symbol: 7, MinQty: 2, MinNotional: 1500, DefaultSTP: STPCancelBoth},
	}
}

// TestModelEquivalence runs random command streams through Book and the
// reference model and requires identical events after every command, and
// identical live orders, a valid book, and snapshot/replay equivalence
// along the way.
func TestModelEquivalence(t *testing.T) {
	const commands = 20000
	// Seeds 9 and 10 spread prices over ±400 ticks: hundreds of levels per
	// side, so the level index splits and merges chunks.
	seeds := []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, seed := range seeds {
		cfg := modelConfigs()[seed%uint64(len(modelConfigs()))]
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			// Even seeds collect events through an EventBuffer (the Sink
			// interface), odd ones through an EventRing (written in place).
			sink := NewEventBuffer(64)
			ring := NewEventRing(1 << 14)
			var book *Book
			if seed%2 == 0 {
				book = NewBook(cfg, sink)
			} else {
				book = NewBook(cfg, ring)
			}
			ref := newRefBook(cfg)
			gen := newCmdGen(seed)
			gen.symbol = cfg.Symbol
			if seed >= 9 {
				gen.spread = 400
			}
			var cmds []Command
			maxChunks := 0
			counts := map[string]int{}
			for i := 0; i < commands; i++ {
				c := gen.next()
				cmds = append(cmds, c)
				sink.Reset()
				ref.events = ref.events[:0]
				got := book.Apply(&c)
				want := ref.apply(&c)
				for ring.Len() > 0 {
					e, _ := ring.Pop()
					sink.Events = append(sink.Events, e)
				}
				if ring.Dropped != 0 {
					t.Fatal("event ring overflowed: the test needs a bigger ring")
				}
				if got != want {
					t.Fatalf("cmd %d %+v: applied %v, model %v", i, c, got, want)
				}
				if !eventsEqual(sink.Events, ref.events) {
					t.Fatalf("cmd %d %+v:\n book  %s\n model %s", i, c, fmtEvents(sink.Events), fmtEvents(ref.events))
				}
				for _, e := range sink.Events {
					counts[e.Kind.String()+"/"+e.Reason.String()]++
				}
				maxChunks = max(maxChunks, len(book.bids.chunks), len(book.asks.chunks))
				if i%500 == 0 || i == commands-1 {
					if err := book.Check(); err != nil {
						t.Fatalf("cmd %d: %v", i, err)
					}
					if g, w := bookInfos(book), ref.infos(); !infosEqual(g, w) {
						t.Fatalf("cmd %d: live orders differ:\n book  %+v\n model %+v", i, g, w)
					}
					if book.LastPrice() != ref.lastPrice || book.LastTradeID() != ref.tradeID {
						t.Fatalf("cmd %d: last price/trade %d/%d, model %d/%d", i, book.LastPrice(), book.LastTradeID(), ref.lastPrice, ref.tradeID)
					}
				}
			}
			// Every interesting path must have been exercised, or the test
			// proves little.
			for _, k := range []string{"trade/none", "done/filled", "done/cancelled", "done/ioc_remainder",
				"done/fok_not_filled", "done/stp", "rejected/post_only_would_take", "rejected/unknown_order",
				"rejected/duplicate_order_id", "amended/none", "triggered/none", "rejected/stop_would_trigger",
				"rejected/invalid_command", "rejected/wrong_symbol"} {
				if counts[k] == 0 {
					t.Errorf("path %s never exercised: %v", k, counts)
				}
			}
			if seed >= 9 && maxChunks < 3 {
				t.Errorf("at most %d chunks per side: the level index never split", maxChunks)
			}
			if cfg.MinQty > 1 && counts["done/dust"] == 0 {
				t.Errorf("dust never exercised: %v", counts)
			}
			// Replay: the same journal into a fresh book gives the same hash.
			replay := NewBook(cfg, NewEventBuffer(0))
			replay.SetSink(discard{})
			for i := range cmds {
				replay.Apply(&cmds[i])
			}
			if replay.StateHash() != book.StateHash() {
				t.Fatalf("replay hash %x, original %x", replay.StateHash(), book.StateHash())
			}
			// Snapshot from the middle plus the rest of the journal gives
			// the same hash too.
			half := NewBook(cfg, discard{})
			for i := range cmds[:commands/2] {
				half.Apply(&cmds[i])
			}
			var buf bytes.Buffer
			if err := half.Snapshot(&buf); err != nil {
				t.Fatal(err)
			}
			restored := NewBook(cfg, discard{})
			if err := restored.Restore(&buf); err != nil {
				t.Fatal(err)
			}
			if restored.StateHash() != half.StateHash() {
				t.Fatalf("restored hash differs")
			}
			for i := range cmds {
				restored.Apply(&cmds[i]) // the first half is skipped by Seq
			}
			if restored.StateHash() != book.StateHash() {
				t.Fatalf("snapshot+replay hash %x, original %x", restored.StateHash(), book.StateHash())
			}
		})
	}
}

type discard struct{}

func (discard) Emit(*Event) {}

func eventsEqual(a, b []Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func infosEqual(a, b []OrderInfo) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func fmtEvents(es []Event) string {
	var buf bytes.Buffer
	for _, e := range es {
		fmt.Fprintf(&buf, "\n   %s/%s id=%d u=%d maker=%d/%d side=%s p=%d q=%d quote=%d filled=%d tid=%d",
			e.Kind, e.Reason, e.OrderID, e.UserID, e.MakerOrderID, e.MakerUserID, e.Side, e.Price, e.Qty, e.Quote, e.Filled, e.TradeID)
	}
	return buf.String()
}
