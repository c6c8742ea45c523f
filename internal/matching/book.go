package matching

import (
	"math"

	"tenger/internal/idmap"
)

// nilIdx marks the end of an intrusive list or an empty free list.
const nilIdx int32 = -1

// Order states inside the pool.
const (
	stateFree    uint8 = 0
	stateResting uint8 = 1
	stateStop    uint8 = 2 // a stop order waiting for its trigger
)

// order is one slot of the order pool. It holds no pointers (links are
// pool indices), so the pool is invisible to the garbage collector and stays
// valid when the pool grows.
type order struct {
	id          uint64
	user        uint64
	price       int64
	qty         int64 // remaining lots
	filled      int64 // lots executed so far
	filledQuote int64 // quote units executed so far
	stop        int64 // stop price while waiting, 0 otherwise
	next, prev  int32 // FIFO links within the level (next is also the free-list link)
	level       int32
	tag         int32 // Command.Tag
	side        Side
	tif         TimeInForce
	stp         STPMode // resolved (never STPDefault)
	state       uint8
}

// level is one price level: an intrusive FIFO list of orders.
type level struct {
	price int64
	total int64 // sum of the orders' remaining lots
	head  int32
	tail  int32
	count int32
	next  int32 // free-list link
}

// levelRef is an entry of a side's price index (levelIndex). Both sides are
// kept sorted ascending by key with the best level last: bids use
// key = price and asks key = -price.
type levelRef struct {
	key int64
	idx int32
}

// taker is the state of an order while it is matched.
type taker struct {
	id          uint64
	user        uint64
	price       int64 // the order's limit price (0 for market), reported in events
	limit       int64 // worst acceptable price
	rem         int64
	budget      int64
	filled      int64
	filledQuote int64
	tag         int32
	side        Side
	tif         TimeInForce
	stp         STPMode
	byQuote     bool   // a market buy spending at most budget
	capped      bool   // byQuote with a quantity too: rem lots at most, budget the cap
	end         Reason // set when matching must stop with this terminal reason
}

// Book is the order book of one symbol. It is not safe for concurrent use:
// the engine drives each book from one goroutine.
type Book struct {
	cfg  BookConfig
	sink Sink
	ring *EventRing   // the sink when it is an EventRing (written in place)
	buf  *EventBuffer // the sink when it is an EventBuffer (written in place)
	ev   Event        // scratch event handed to other sinks

	orders    []order
	freeOrder int32
	levels    []level
	freeLevel int32
	bids      levelIndex
	asks      levelIndex
	buyStops  []int32 // next to trigger last: lowest stop, then earliest
	sellStops []int32 // next to trigger last: highest stop, then earliest
	ids       idmap.Map
	// px maps (price, side) to the level, so that resting at an existing
	// price (by far the common case) needs no search; the sorted index is
	// searched only to insert or remove a level.
	px idmap.Map

	lastSeq   uint64
	seq       uint64 // Seq of the command being applied
	lastPrice int64
	tradeID   uint64
}

// NewBook returns an empty book that sends its events to sink.
func NewBook(cfg BookConfig, sink Sink) *Book {
	cfg.normalise()
	b := &Book{cfg: cfg, freeOrder: nilIdx, freeLevel: nilIdx}
	b.SetSink(sink)
	b.growOrders(cfg.InitialOrders)
	b.growLevels(cfg.InitialLevels)
	b.bids.reserve(cfg.InitialLevels)
	b.asks.reserve(cfg.InitialLevels)
	b.buyStops = make([]int32, 0, 64)
	b.sellStops = make([]int32, 0, 64)
	b.ids = idmap.New(cfg.InitialOrders)
	b.px = idmap.New(cfg.InitialLevels)
	return b
}

// Config returns the book's normalised configuration.
func (b *Book) Config() BookConfig { return b.cfg }

// SetSink replaces the event sink.
func (b *Book) SetSink(s Sink) {
	b.sink = s
	b.ring, _ = s.(*EventRing)
	b.buf, _ = s.(*EventBuffer)
}

// newEvent returns the event to fill: the next slot of the ring when the
// sink is an EventRing, a new last element when it is an EventBuffer
// (saving a copy and an interface call per event, a sizeable share of the
// cost of a command), else the scratch event. Fill every field (assign a
// whole Event) and hand it to flush.
func (b *Book) newEvent() *Event {
	if r := b.ring; r != nil {
		return &r.buf[r.tail&r.mask]
	}
	if eb := b.buf; eb != nil {
		eb.Events = append(eb.Events, Event{})
		return &eb.Events[len(eb.Events)-1]
	}
	return &b.ev
}

func (b *Book) flush(e *Event) {
	if r := b.ring; r != nil {
		r.commit()
		return
	}
	if b.buf != nil {
		return // written in place by newEvent
	}
	b.sink.Emit(e)
}

// LastSeq returns the Seq of the last applied command.
func (b *Book) LastSeq() uint64 { return b.lastSeq }

// LastPrice returns the price of the last trade in ticks (0 before any).
func (b *Book) LastPrice() int64 { return b.lastPrice }

// LastTradeID returns the id of the last trade (trade ids are 1, 2, 3 ...
// per book).
func (b *Book) LastTradeID() uint64 { return b.tradeID }

// Len returns the number of live orders (resting and waiting stops).
func (b *Book) Len() int { return b.ids.Len() }

// Apply applies one command and emits its events. It returns false, and
// does nothing, when c.Seq is not above the last applied Seq (a replayed
// duplicate).
func (b *Book) Apply(c *Command) bool {
	if c.Seq <= b.lastSeq {
		return false
	}
	b.lastSeq = c.Seq
	b.seq = c.Seq
	b.apply(c)
	return true
}

// Follow applies c as a part of the command applied last, whose Seq its
// events carry (c.Seq is not read): a follow-up the caller's risk checks
// ask for within that command, such as cancelling orders a fill left
// without a purpose. It returns false, and does nothing, before any
// command.
func (b *Book) Follow(c *Command) bool {
	if b.lastSeq == 0 {
		return false
	}
	b.seq = b.lastSeq
	b.apply(c)
	return true
}

func (b *Book) apply(c *Command) {
	if c.Symbol != 0 && c.Symbol != b.cfg.Symbol {
		b.reject(c, ReasonWrongSymbol)
		return
	}
	switch c.Kind {
	case CmdPlace:
		b.place(c)
	case CmdCancel:
		b.cancel(c)
	case CmdCancelAll:
		b.cancelAll(c.UserID, c.OrderID)
	case CmdAmend:
		b.amend(c)
	default:
		b.reject(c, ReasonInvalidCommand)
	}
	if len(b.buyStops)+len(b.sellStops) != 0 {
		b.triggerStops()
	}
}

// --- pools ---------------------------------------------------------------

func (b *Book) growOrders(n int) {
	if n < 64 {
		n = 64
	}
	start := len(b.orders)
	b.orders = append(b.orders, make([]order, n)...)
	// Link the new slots so that the lowest index is handed out first.
	for i := len(b.orders) - 1; i >= start; i-- {
		b.orders[i].next = b.freeOrder
		b.freeOrder = int32(i)
	}
}

func (b *Book) allocOrder() int32 {
	if b.freeOrder == nilIdx {
		b.growOrders(len(b.orders))
	}
	i := b.freeOrder
	b.freeOrder = b.orders[i].next
	return i
}

// releaseOrder returns a slot to the free list. The slot is not cleared:
// every allocation overwrites all fields, and nothing reads a free slot.
func (b *Book) releaseOrder(i int32) {
	o := &b.orders[i]
	o.state = stateFree
	o.next = b.freeOrder
	b.freeOrder = i
}

func (b *Book) growLevels(n int) {
	if n < 16 {
		n = 16
	}
	start := len(b.levels)
	b.levels = append(b.levels, make([]level, n)...)
	for i := len(b.levels) - 1; i >= start; i-- {
		b.levels[i].next = b.freeLevel
		b.freeLevel = int32(i)
	}
}

func (b *Book) allocLevel(price int64) int32 {
	if b.freeLevel == nilIdx {
		b.growLevels(len(b.levels))
	}
	i := b.freeLevel
	b.freeLevel = b.levels[i].next
	b.levels[i] = level{price: price, head: nilIdx, tail: nilIdx}
	return i
}

func (b *Book) releaseLevel(i int32) {
	b.levels[i] = level{next: b.freeLevel}
	b.freeLevel = i
}

// --- price index ---------------------------------------------------------

// pxKey is the key of a level in the px map (never 0: prices are positive).
func pxKey(side Side, price int64) uint64 {
	return uint64(price)<<1 | uint64(side-Buy)
}

func sideKey(side Side, price int64) int64 {
	if side == Buy {
		return price
	}
	return -price
}

func (b *Book) sideLevels(side Side) *levelIndex {
	if side == Buy {
		return &b.bids
	}
	return &b.asks
}

// levelFor returns the level of side at price, creating it if needed.
func (b *Book) levelFor(side Side, price int64) int32 {
	pk := pxKey(side, price)
	if li, ok := b.px.Get(pk); ok {
		return li
	}
	li := b.allocLevel(price)
	b.px.Put(pk, li)
	b.sideLevels(side).insert(levelRef{key: sideKey(side, price), idx: li})
	return li
}

// dropLevel removes an empty level from its side and frees it.
func (b *Book) dropLevel(side Side, li int32) {
	x := b.sideLevels(side)
	price := b.levels[li].price
	b.px.Del(pxKey(side, price))
	if best, _ := x.best(); best.idx == li {
		x.popBest()
	} else {
		x.remove(sideKey(side, price))
	}
	b.releaseLevel(li)
}

// crosses reports whether a limit order of side at price would take.
func (b *Book) crosses(side Side, price int64) bool {
	if side == Buy {
		ref, ok := b.asks.best()
		return ok && -ref.key <= price
	}
	ref, ok := b.bids.best()
	return ok && ref.key >= price
}

// --- list operations -----------------------------------------------------

func (b *Book) pushBack(li, oi int32) {
	lv := &b.levels[li]
	o := &b.orders[oi]
	o.level = li
	o.next = nilIdx
	o.prev = lv.tail
	if lv.tail != nilIdx {
		b.orders[lv.tail].next = oi
	} else {
		lv.head = oi
	}
	lv.tail = oi
	lv.count++
	lv.total += o.qty
}

// unlink takes an order out of its level, subtracting its remaining
// quantity from the level's total.
func (b *Book) unlink(lv *level, oi int32) {
	o := &b.orders[oi]
	if o.prev != nilIdx {
		b.orders[o.prev].next = o.next
	} else {
		lv.head = o.next
	}
	if o.next != nilIdx {
		b.orders[o.next].prev = o.prev
	} else {
		lv.tail = o.prev
	}
	lv.count--
	lv.total -= o.qty
}

// --- events --------------------------------------------------------------

func (b *Book) reject(c *Command, r Reason) {
	e := b.newEvent()
	*e = Event{Seq: b.seq, Symbol: b.cfg.Symbol, Kind: EvRejected, Reason: r, OrderID: c.OrderID, UserID: c.UserID, Tag: c.Tag}
	b.flush(e)
}

func (b *Book) emitOrder(kind EventKind, r Reason, o *order) {
	e := b.newEvent()
	*e = Event{Seq: b.seq, Symbol: b.cfg.Symbol, Kind: kind, Reason: r, OrderID: o.id, UserID: o.user,
		Side: o.side, Price: o.price, Qty: o.qty, Tag: o.tag}
	if kind == EvDone {
		e.Filled = o.filled
		e.Quote = o.filledQuote
	}
	b.flush(e)
}

func (b *Book) emitTakerDone(t *taker, r Reason) {
	rem := t.rem
	if t.byQuote && !t.capped {
		rem = 0
	}
	e := b.newEvent()
	*e = Event{Seq: b.seq, Symbol: b.cfg.Symbol, Kind: EvDone, Reason: r, OrderID: t.id, UserID: t.user,
		Side: t.side, Price: t.price, Qty: rem, Filled: t.filled, Quote: t.filledQuote, Tag: t.tag}
	b.flush(e)
}

// --- commands ------------------------------------------------------------

func (b *Book) resolveSTP(m STPMode) STPMode {
	if m == STPDefault {
		return b.cfg.DefaultSTP
	}
	return m
}

func (b *Book) place(c *Command) {
	if r := c.validatePlace(&b.cfg); r != ReasonNone {
		b.reject(c, r)
		return
	}
	if _, dup := b.ids.Get(c.OrderID); dup {
		b.reject(c, ReasonDuplicateOrderID)
		return
	}
	if c.StopPrice != 0 {
		b.placeStop(c)
		return
	}
	crosses := c.Type == Limit && b.crosses(c.Side, c.Price)
	if c.TIF == PostOnly && crosses {
		b.reject(c, ReasonPostOnlyWouldTake)
		return
	}
	if c.Type == Market && c.Qty != 0 && b.cfg.MinNotional > 0 {
		// A market order by quantity has no price of its own: a sell can
		// fetch at most its quantity at the best bid, a buy costs at least
		// its quantity at the best ask, so one worth less than the minimum
		// there is refused like a limit order below it.
		best, ok := b.bids.best()
		price := best.key
		if c.Side == Buy {
			best, ok = b.asks.best()
			price = -best.key // asks are keyed by -price
		}
		if ok && price*c.Qty < b.cfg.MinNotional {
			b.reject(c, ReasonBelowMinNotional)
			return
		}
	}
	e := b.newEvent()
	*e = Event{Seq: b.seq, Symbol: b.cfg.Symbol, Kind: EvAccepted, OrderID: c.OrderID, UserID: c.UserID,
		Side: c.Side, Price: c.Price, Qty: c.Qty, Quote: c.Quote, Tag: c.Tag}
	b.flush(e)
	if c.Type == Limit && !crosses && (c.TIF == GTC || c.TIF == PostOnly) {
		// Fast path for the most common command: a passive limit order
		// rests at once (validation guarantees it is not below MinQty).
		slot := b.allocOrder()
		li := b.levelFor(c.Side, c.Price)
		o := &b.orders[slot]
		*o = order{id: c.OrderID, user: c.UserID, price: c.Price, qty: c.Qty, tag: c.Tag,
			side: c.Side, tif: c.TIF, stp: b.resolveSTP(c.STP), state: stateResting}
		b.pushBack(li, slot)
		b.ids.Put(c.OrderID, slot)
		return
	}

	t := taker{id: c.OrderID, user: c.UserID, price: c.Price, limit: c.Price, rem: c.Qty, tag: c.Tag,
		side: c.Side, tif: c.TIF, stp: b.resolveSTP(c.STP)}
	if c.Type == Market {
		if c.Side == Buy {
			t.limit = math.MaxInt64
		} else {
			t.limit = 0
		}
		if c.Quote != 0 {
			t.byQuote = true
			t.budget = c.Quote
			if c.Qty == 0 {
				t.rem = math.MaxInt64
			} else {
				t.capped = true
			}
		}
	}
	b.execute(&t, nilIdx)
}

// execute matches a taker and settles its remainder. slot is the taker's
// pool slot when it already has one (an amended or triggered order, still
// in the id map), nilIdx for a new order.
func (b *Book) execute(t *taker, slot int32) {
	if t.tif == FOK && !b.canFill(t) {
		b.finishDone(t, slot, ReasonFOKNotFilled)
		return
	}
	b.match(t)
	switch {
	case t.end != ReasonNone:
		b.finishDone(t, slot, t.end)
	case t.capped:
		if t.rem == 0 {
			b.finishDone(t, slot, ReasonFilled)
		} else {
			b.finishDone(t, slot, ReasonIOCRemainder)
		}
	case t.byQuote:
		if t.budget == 0 {
			b.finishDone(t, slot, ReasonFilled)
		} else {
			b.finishDone(t, slot, ReasonIOCRemainder)
		}
	case t.rem == 0:
		b.finishDone(t, slot, ReasonFilled)
	case t.tif == IOC || t.tif == FOK:
		b.finishDone(t, slot, ReasonIOCRemainder)
	case t.rem < b.cfg.MinQty:
		b.finishDone(t, slot, ReasonDust)
	default:
		b.rest(t, slot)
	}
}

func (b *Book) finishDone(t *taker, slot int32, r Reason) {
	b.emitTakerDone(t, r)
	if slot != nilIdx {
		b.ids.Del(t.id)
		b.releaseOrder(slot)
	}
}

func (b *Book) rest(t *taker, slot int32) {
	fresh := slot == nilIdx
	if fresh {
		slot = b.allocOrder()
	}
	li := b.levelFor(t.side, t.price)
	o := &b.orders[slot]
	*o = order{id: t.id, user: t.user, price: t.price, qty: t.rem, filled: t.filled, filledQuote: t.filledQuote,
		tag: t.tag, side: t.side, tif: t.tif, stp: t.stp, state: stateResting}
	b.pushBack(li, slot)
	if fresh {
		b.ids.Put(t.id, slot)
	}
}

// match trades the taker against the opposite side in price-time priority.
func (b *Book) match(t *taker) {
	opp := &b.asks
	if t.side == Sell {
		opp = &b.bids
	}
	for t.rem > 0 {
		ref, ok := opp.best()
		if !ok {
			return
		}
		li := ref.idx
		lv := &b.levels[li]
		price := lv.price
		if t.side == Buy {
			if price > t.limit {
				return
			}
		} else if price < t.limit {
			return
		}
		for lv.head != nilIdx {
			mi := lv.head
			m := &b.orders[mi]
			if m.user == t.user {
				if !b.selfTrade(t, lv, mi) {
					break
				}
				continue
			}
			q := m.qty
			if q > t.rem {
				q = t.rem
			}
			if t.byQuote {
				afford := t.budget / price
				if afford == 0 {
					if t.capped && t.filled > 0 {
						// Out of budget before the quantity is bought.
						t.end = ReasonIOCRemainder
					} else if t.filled > 0 {
						t.end = ReasonFilled
					} else {
						t.end = ReasonDust
					}
					break
				}
				if q > afford {
					q = afford
				}
			}
			b.trade(t, lv, mi, q)
			if t.rem == 0 {
				break
			}
		}
		if lv.head == nilIdx {
			opp.popBest()
			b.px.Del(pxKey(Buy+Sell-t.side, price))
			b.releaseLevel(li)
		}
		if t.end != ReasonNone {
			return
		}
	}
}

func (b *Book) trade(t *taker, lv *level, mi int32, q int64) {
	m := &b.orders[mi]
	price := lv.price
	quote := price * q
	b.tradeID++
	m.qty -= q
	m.filled += q
	m.filledQuote += quote
	lv.total -= q
	t.rem -= q
	t.filled += q
	t.filledQuote += quote
	if t.byQuote {
		t.budget -= quote
	}
	b.lastPrice = price
	e := b.newEvent()
	*e = Event{Seq: b.seq, Symbol: b.cfg.Symbol, Kind: EvTrade, TradeID: b.tradeID, OrderID: t.id, UserID: t.user,
		MakerOrderID: m.id, MakerUserID: m.user, Side: t.side, Price: price, Qty: q, Quote: quote, Tag: t.tag, MakerTag: m.tag}
	b.flush(e)
	if m.qty == 0 {
		b.removeMaker(lv, mi, ReasonFilled)
	} else if m.qty < b.cfg.MinQty {
		b.removeMaker(lv, mi, ReasonDust)
	}
}

// removeMaker ends a resting order met during matching. The caller drops the
// level when it becomes empty.
func (b *Book) removeMaker(lv *level, mi int32, r Reason) {
	m := &b.orders[mi]
	b.emitOrder(EvDone, r, m)
	b.unlink(lv, mi)
	b.ids.Del(m.id)
	b.releaseOrder(mi)
}

// selfTrade applies self-trade prevention when the taker meets its own
// resting order mi at the head of lv. It reports whether matching goes on.
func (b *Book) selfTrade(t *taker, lv *level, mi int32) bool {
	mode := t.stp
	if mode == STPDecrement && t.byQuote {
		mode = STPCancelTaker
	}
	switch mode {
	case STPCancelMaker:
		b.removeMaker(lv, mi, ReasonSelfTrade)
		return true
	case STPCancelBoth:
		b.removeMaker(lv, mi, ReasonSelfTrade)
		t.end = ReasonSelfTrade
		return false
	case STPDecrement:
		m := &b.orders[mi]
		switch {
		case m.qty > t.rem:
			m.qty -= t.rem
			lv.total -= t.rem
			b.emitOrder(EvAmended, ReasonSelfTrade, m)
			if m.qty < b.cfg.MinQty {
				b.removeMaker(lv, mi, ReasonDust)
			}
			t.end = ReasonSelfTrade
			return false
		case m.qty < t.rem:
			t.rem -= m.qty
			b.removeMaker(lv, mi, ReasonSelfTrade)
			return true
		default:
			b.removeMaker(lv, mi, ReasonSelfTrade)
			t.end = ReasonSelfTrade
			return false
		}
	default:
		t.end = ReasonSelfTrade
		return false
	}
}

// canFill reports whether a FOK taker would fill entirely. It walks the
// opposite side the way match would: own orders are skipped when they would
// be cancelled as makers, and end the walk under every other STP mode
// (those modes end the taker before it fills).
func (b *Book) canFill(t *taker) bool {
	need := t.rem
	opp := &b.asks
	if t.side == Sell {
		opp = &b.bids
	}
	for ci := len(opp.chunks) - 1; ci >= 0; ci-- {
		c := opp.chunks[ci]
		for j := len(c) - 1; j >= 0; j-- {
			lv := &b.levels[c[j].idx]
			if t.side == Buy {
				if lv.price > t.limit {
					return false
				}
			} else if lv.price < t.limit {
				return false
			}
			for oi := lv.head; oi != nilIdx; oi = b.orders[oi].next {
				m := &b.orders[oi]
				if m.user == t.user {
					if t.stp == STPCancelMaker {
						continue
					}
					return false
				}
				need -= m.qty
				if need <= 0 {
					return true
				}
			}
		}
	}
	return false
}

func (b *Book) lookup(c *Command) (int32, bool) {
	oi, ok := b.ids.Get(c.OrderID)
	if !ok || b.orders[oi].user != c.UserID {
		return 0, false
	}
	return oi, true
}

func (b *Book) cancel(c *Command) {
	if c.OrderID == 0 {
		b.reject(c, ReasonInvalidCommand)
		return
	}
	oi, ok := b.lookup(c)
	if !ok {
		b.reject(c, ReasonUnknownOrder)
		return
	}
	b.cancelOrder(oi, ReasonCancelled)
}

// cancelOrder ends a live order (resting or waiting stop).
func (b *Book) cancelOrder(oi int32, r Reason) {
	o := &b.orders[oi]
	b.emitOrder(EvDone, r, o)
	if o.state == stateStop {
		b.removeStop(oi)
	} else {
		li := o.level
		lv := &b.levels[li]
		b.unlink(lv, oi)
		if lv.count == 0 {
			b.dropLevel(o.side, li)
		}
	}
	b.ids.Del(o.id)
	b.releaseOrder(oi)
}

// cancelAll cancels every live order of user in canonical order: bids best
// to worst, asks best to worst, then buy and sell stops in trigger order.
// cancelAll cancels the user's orders; a non-zero before limits it to
// orders with smaller ids. The API sets it to an order id taken when the
// user asked, so a cancel-all delivered again after a crash cancels what
// the first delivery did and never an order placed after the request.
func (b *Book) cancelAll(user, before uint64) {
	for _, side := range [2]Side{Buy, Sell} {
		x := b.sideLevels(side)
		// Walk by key, since cancelling may remove the current level.
		ref, ok := x.best()
		for ok {
			oi := b.levels[ref.idx].head
			for oi != nilIdx {
				next := b.orders[oi].next
				if b.orders[oi].user == user && (before == 0 || b.orders[oi].id < before) {
					b.cancelOrder(oi, ReasonCancelled)
				}
				oi = next
			}
			ref, ok = x.below(ref.key)
		}
	}
	for _, stops := range [2]*[]int32{&b.buyStops, &b.sellStops} {
		for i := len(*stops) - 1; i >= 0; i-- {
			if i >= len(*stops) {
				continue
			}
			oi := (*stops)[i]
			if b.orders[oi].user == user && (before == 0 || b.orders[oi].id < before) {
				b.cancelOrder(oi, ReasonCancelled)
			}
		}
	}
}

func (b *Book) amend(c *Command) {
	if r := c.Validate(&b.cfg); r != ReasonNone {
		b.reject(c, r)
		return
	}
	oi, ok := b.lookup(c)
	if !ok {
		b.reject(c, ReasonUnknownOrder)
		return
	}
	o := &b.orders[oi]
	price := c.Price
	if price == 0 {
		price = o.price
	}
	if c.Qty < b.cfg.MinQty {
		b.reject(c, ReasonBelowMinQty)
		return
	}
	if price*c.Qty < b.cfg.MinNotional {
		b.reject(c, ReasonBelowMinNotional)
		return
	}
	if o.state == stateStop {
		// A waiting stop has no queue position among makers; its place
		// among stops of the same stop price is kept.
		o.price = price
		o.qty = c.Qty
		b.emitOrder(EvAmended, ReasonNone, o)
		return
	}
	lv := &b.levels[o.level]
	if price == o.price && c.Qty <= o.qty {
		lv.total -= o.qty - c.Qty
		o.qty = c.Qty
		b.emitOrder(EvAmended, ReasonNone, o)
		return
	}
	if o.tif == PostOnly && b.crosses(o.side, price) {
		b.reject(c, ReasonPostOnlyWouldTake)
		return
	}
	// Losing priority: out of the book, then in again as a taker.
	li := o.level
	b.unlink(lv, oi)
	if lv.count == 0 {
		b.dropLevel(o.side, li)
	}
	o.price = price
	o.qty = c.Qty
	b.emitOrder(EvAmended, ReasonNone, o)
	t := taker{id: o.id, user: o.user, price: price, limit: price, rem: o.qty, filled: o.filled,
		filledQuote: o.filledQuote, tag: o.tag, side: o.side, tif: o.tif, stp: o.stp}
	b.execute(&t, oi)
}

// --- stops ---------------------------------------------------------------

func (b *Book) stopReached(side Side, stop int64) bool { return StopReached(side, stop, b.lastPrice) }

// StopReached reports whether a stop of side at stop ticks is reached by
// the last trade price last (0: no trade yet, never reached): a buy stop at
// or below it, a sell stop at or above it. A stop order placed when its stop
// is reached is rejected (ReasonStopWouldTrigger); the API checks the same
// rule at entry.
func StopReached(side Side, stop, last int64) bool {
	if last == 0 {
		return false
	}
	if side == Buy {
		return last >= stop
	}
	return last <= stop
}

func (b *Book) placeStop(c *Command) {
	if b.stopReached(c.Side, c.StopPrice) {
		b.reject(c, ReasonStopWouldTrigger)
		return
	}
	oi := b.allocOrder()
	o := &b.orders[oi]
	*o = order{id: c.OrderID, user: c.UserID, price: c.Price, qty: c.Qty, stop: c.StopPrice, tag: c.Tag,
		side: c.Side, tif: c.TIF, stp: b.resolveSTP(c.STP), state: stateStop, next: nilIdx, prev: nilIdx, level: nilIdx}
	b.ids.Put(c.OrderID, oi)
	e := b.newEvent()
	*e = Event{Seq: b.seq, Symbol: b.cfg.Symbol, Kind: EvAccepted, OrderID: c.OrderID, UserID: c.UserID,
		Side: c.Side, Price: c.Price, Qty: c.Qty, Tag: c.Tag}
	b.flush(e)
	b.insertStop(oi)
}

// insertStop puts a stop in its trigger queue: behind (closer to the front
// than) nothing of the same stop price that came earlier.
func (b *Book) insertStop(oi int32) {
	o := &b.orders[oi]
	s := o.stop
	var arr *[]int32
	var pos int
	if o.side == Buy {
		// Sorted by stop descending; the first index with stop <= s.
		arr = &b.buyStops
		a := *arr
		l, h := 0, len(a)
		for l < h {
			m := int(uint(l+h) >> 1)
			if b.orders[a[m]].stop > s {
				l = m + 1
			} else {
				h = m
			}
		}
		pos = l
	} else {
		// Sorted by stop ascending; the first index with stop >= s.
		arr = &b.sellStops
		a := *arr
		l, h := 0, len(a)
		for l < h {
			m := int(uint(l+h) >> 1)
			if b.orders[a[m]].stop < s {
				l = m + 1
			} else {
				h = m
			}
		}
		pos = l
	}
	a := append(*arr, 0)
	copy(a[pos+1:], a[pos:])
	a[pos] = oi
	*arr = a
}

func (b *Book) removeStop(oi int32) {
	arr := &b.sellStops
	if b.orders[oi].side == Buy {
		arr = &b.buyStops
	}
	a := *arr
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] == oi {
			copy(a[i:], a[i+1:])
			*arr = a[:len(a)-1]
			return
		}
	}
}

// triggerStops activates every stop reached by the last price. Buy stops
// are checked first; each activation may trade and move the price, so the
// scan restarts after each one.
func (b *Book) triggerStops() {
	for b.lastPrice != 0 {
		if n := len(b.buyStops); n > 0 && b.orders[b.buyStops[n-1]].stop <= b.lastPrice {
			oi := b.buyStops[n-1]
			b.buyStops = b.buyStops[:n-1]
			b.trigger(oi)
			continue
		}
		if n := len(b.sellStops); n > 0 && b.orders[b.sellStops[n-1]].stop >= b.lastPrice {
			oi := b.sellStops[n-1]
			b.sellStops = b.sellStops[:n-1]
			b.trigger(oi)
			continue
		}
		return
	}
}

func (b *Book) trigger(oi int32) {
	o := &b.orders[oi]
	o.stop = 0
	o.state = stateResting
	b.emitOrder(EvTriggered, ReasonNone, o)
	t := taker{id: o.id, user: o.user, price: o.price, limit: o.price, rem: o.qty, tag: o.tag,
		side: o.side, tif: o.tif, stp: o.stp}
	b.execute(&t, oi)
}
