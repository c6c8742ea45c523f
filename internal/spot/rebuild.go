package spot

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/shopspring/decimal"

	"tenger/internal/matching"
	"tenger/internal/store"
)

// Rebuilding the books from the store.
//
// The journal and the snapshots live on the engine's own disk (EFS on
// Fargate). When they are gone (a new task on empty storage, a lost
// volume) or cannot lead to the state the store has settled (a journal
// that does not continue its snapshots, a snapshot older than the store),
// the engine rebuilds every book from what settlement stored: the open
// orders with their remaining quantities, in their original priority, and
// each book's last trade id, last trade price and last sequence number.
//
// The store has no way to list all of a symbol's open orders (orders are
// indexed per user), so settlement keeps two book records per symbol, as
// jobs of the same batch as the events they follow:
//
//	open order  pk "SBOOK#<symbol>"  sk "<orderId 20d>"  prio, prioN, trig
//	marks       pk "SBOOKM#<symbol>" sk "M"              seq, tradeId, price
//
// An open-order record is written when an order starts resting (its
// Accepted event; again when a stop triggers, which moves it to the back of
// its price level) and deleted when it ends; an order that is accepted and
// ends within one batch (IOC, FOK, market, a taker filled at once) never
// gets one. prio/prioN (the command's seq and the event's index within it)
// order the orders as the book did; trig says a stop has triggered and
// rests. The marks record the last settled seq touching the symbol and its
// last trade; it only moves forward (a replay never lowers it).
//
// Priority is exact because nothing else reorders a resting order: an
// amend through the API only reduces the quantity, which keeps the place.
// The remaining quantity is volume − dealVolume of the stored order (an
// amend stores the reduced volume). The core's STP decrement, which removes
// quantity without a trade, is not used by the API.
//
// Commands that were journalled but whose batch was not settled are not in
// the store, but their queue messages were not deleted either (a batch is
// acknowledged only after settlement), so they are delivered again and
// sequenced anew after the rebuilt state.
const (
	pkBook      = "SBOOK#"
	pkBookMarks = "SBOOKM#"
	skBookMarks = "M"
)

func bookKey(symbol string, id uint64) store.Key {
	return store.Key{PK: pkBook + symbol, SK: fmt.Sprintf("%020d", id)}
}

func marksKey(symbol string) store.Key { return store.Key{PK: pkBookMarks + symbol, SK: skBookMarks} }

// bookRecordJobs appends the writes that keep the book records in step
// with the events of cmds (starts[i] is the index in evs of command i's
// first event). Each order gets at most one write per call: its state at
// the end of the batch, so the concurrent jobs never race on one record.
func (e *Engine) bookRecordJobs(cmds []matching.Command, starts []int, evs []matching.Event, jobs []job) []job {
	type rec struct {
		sym      uint32
		put, del bool
		prio     uint64
		n        int64
		trig     bool
		here     bool // accepted in this batch: no record exists before it
	}
	type mark struct {
		seq, trade uint64
		price      int64
	}
	recs := map[uint64]*rec{}
	var order []uint64
	marks := map[uint32]*mark{}
	var symOrder []uint32
	for i := range cmds {
		end := len(evs)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		for k := starts[i]; k < end; k++ {
			ev := &evs[k]
			if _, ok := e.set.pairs[ev.Symbol]; !ok {
				continue
			}
			m := marks[ev.Symbol]
			if m == nil {
				m = &mark{}
				marks[ev.Symbol] = m
				symOrder = append(symOrder, ev.Symbol)
			}
			m.seq = ev.Seq
			get := func() *rec {
				r := recs[ev.OrderID]
				if r == nil {
					r = &rec{sym: ev.Symbol}
					recs[ev.OrderID] = r
					order = append(order, ev.OrderID)
				}
				return r
			}
			switch ev.Kind {
			case matching.EvAccepted:
				r := get()
				*r = rec{sym: ev.Symbol, put: true, prio: ev.Seq, n: int64(k - starts[i]), here: true}
			case matching.EvTriggered:
				r := get()
				r.put, r.del, r.prio, r.n, r.trig = true, false, ev.Seq, int64(k-starts[i]), true
			case matching.EvDone:
				r := get()
				r.put, r.del = false, !r.here
			case matching.EvTrade:
				m.trade, m.price = ev.TradeID, ev.Price
			}
		}
	}
	// A batch's book records share transactions (each record is written
	// once), so they cost one store commit per batch, not one per order.
	// The marks only move forward: their update is conditional, and only a
	// replay of older batches makes that condition fail.
	var ops []store.Op
	for _, symID := range symOrder {
		m := marks[symID]
		upd := store.NewUpdate().Set("seq", int64(m.seq))
		if m.trade > 0 {
			upd.Set("tradeId", int64(m.trade)).Set("price", e.set.cfgs[symID].FromTicks(m.price))
		}
		ops = append(ops, store.UpdateOp(marksKey(e.set.pairs[symID].Symbol), upd,
			store.Or(store.NotExists("seq"), store.Compare("seq", store.CmpLt, int64(m.seq)))))
	}
	for _, id := range order {
		r := recs[id]
		key := bookKey(e.set.pairs[r.sym].Symbol, id)
		switch {
		case r.put:
			ops = append(ops, store.PutOp(store.Item{store.AttrPK: key.PK, store.AttrSK: key.SK,
				"prio": int64(r.prio), "prioN": r.n, "trig": r.trig}, nil))
		case r.del:
			ops = append(ops, store.DeleteOp(key, nil))
		}
	}
	st := e.o.Store
	for len(ops) > 0 {
		n := min(len(ops), store.MaxTransactItems)
		chunk := ops[:n:n]
		ops = ops[n:]
		jobs = append(jobs, func(ctx context.Context) error { return writeBookRecords(ctx, st, chunk) })
	}
	return jobs
}

// writeBookRecords commits ops in one transaction. When a conditional op
// (a marks update) fails, the marks are ahead (a replay): the conditional
// ops are then tried one by one, their failures ignored, and the rest
// committed without them.
func writeBookRecords(ctx context.Context, st store.Store, ops []store.Op) error {
	err := st.Transact(ctx, ops)
	if !errors.Is(err, store.ErrConditionFailed) {
		return err
	}
	var plain []store.Op
	for _, op := range ops {
		if op.Cond == nil {
			plain = append(plain, op)
			continue
		}
		if err := st.Transact(ctx, []store.Op{op}); err != nil && !errors.Is(err, store.ErrConditionFailed) {
			return err
		}
	}
	if len(plain) == 0 {
		return nil
	}
	return st.Transact(ctx, plain)
}

// bookMarks is a symbol's marks record.
type bookMarks struct {
	seq     uint64
	tradeID uint64
	price   decimal.Decimal
}

func (e *Engine) readMarks(ctx context.Context, symbol string) (bookMarks, bool, error) {
	it, err := e.o.Store.Get(ctx, marksKey(symbol))
	if errors.Is(err, store.ErrNotFound) {
		return bookMarks{}, false, nil
	}
	if err != nil {
		return bookMarks{}, false, err
	}
	return bookMarks{seq: uint64(it.Int("seq")), tradeID: uint64(it.Int("tradeId")), price: it.Dec("price")}, true, nil
}

// storeAhead reports whether the store has settled commands the recovered
// books do not hold: a symbol's marks beyond the books' last seq or last
// trade id.
func (e *Engine) storeAhead(ctx context.Context) (bool, error) {
	for sym, id := range e.bySym {
		mk, ok, err := e.readMarks(ctx, sym)
		if err != nil {
			return false, err
		}
		if !ok {
			continue
		}
		if b := e.books.Book(id); mk.seq > e.seq || mk.tradeID > b.LastTradeID() {
			e.o.Log.Warn().Str("symbol", sym).Uint64("storeSeq", mk.seq).Uint64("engineSeq", e.seq).
				Uint64("storeTrade", mk.tradeID).Uint64("bookTrade", b.LastTradeID()).
				Msg("spot: the store is ahead of the journal; rebuilding the books from the store")
			return true, nil
		}
	}
	return false, nil
}

// rebuildFromStore replaces every book with one rebuilt from the stored
// open orders and marks, and continues the sequence after the highest
// stored seq.
func (e *Engine) rebuildFromStore(ctx context.Context) error {
	if err := e.resetBooks(); err != nil {
		return err
	}
	e.set.meta = map[uint64]*orderMeta{}
	seq := e.seq
	history := false
	marks := map[uint32]bookMarks{}
	total := 0
	for sym, id := range e.bySym {
		mk, ok, err := e.readMarks(ctx, sym)
		if err != nil {
			return err
		}
		if ok {
			history = true
			marks[id] = mk
			seq = max(seq, mk.seq)
		}
		orders, hi, err := e.storedOpenOrders(ctx, sym, id)
		if err != nil {
			return fmt.Errorf("spot: rebuild %s: %w", sym, err)
		}
		seq = max(seq, hi)
		b := e.books.Book(id)
		for _, o := range orders {
			if err := b.LoadOrder(o); err != nil {
				return fmt.Errorf("spot: rebuild %s: %w", sym, err)
			}
		}
		total += len(orders)
		history = history || len(orders) > 0
	}
	e.rebuilt = true
	if !history {
		// Nothing settled with book records: a first start, unless trades
		// were settled before the records existed.
		return e.checkNoHistory(ctx)
	}
	e.seq = seq
	for sym, id := range e.bySym {
		mk := marks[id]
		var last int64
		if mk.price.IsPositive() {
			var err error
			if last, err = e.set.cfgs[id].ToTicks(mk.price); err != nil {
				return fmt.Errorf("spot: rebuild %s: last price %s: %w", sym, mk.price, err)
			}
		}
		e.books.Book(id).SetMarks(e.seq, last, mk.tradeID)
	}
	e.o.Log.Info().Int("orders", total).Uint64("seq", e.seq).Msg("spot: books rebuilt from the stored open orders")
	return nil
}

// storedOpenOrders reads a symbol's open-order records and their orders,
// and returns them in book priority with the highest seq they carry.
// Records of orders that are no longer open are skipped.
func (e *Engine) storedOpenOrders(ctx context.Context, sym string, id uint32) ([]matching.OrderInfo, uint64, error) {
	type rec struct {
		oid      uint64
		prio     uint64
		n        int64
		trig     bool
		info     matching.OrderInfo
		open     bool
		hi       uint64
		parseErr error
	}
	var recs []*rec
	q := store.Query{PK: pkBook + sym, Limit: 500}
	for {
		page, err := e.o.Store.Query(ctx, q)
		if err != nil {
			return nil, 0, err
		}
		for _, it := range page.Items {
			oid, err := strconv.ParseUint(it.Str(store.AttrSK), 10, 64)
			if err != nil {
				continue
			}
			recs = append(recs, &rec{oid: oid, prio: uint64(it.Int("prio")), n: it.Int("prioN"), trig: it.Bool("trig")})
		}
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	cfg := e.set.cfgs[id]
	var mu sync.Mutex
	jobs := make([]job, len(recs))
	for i, r := range recs {
		jobs[i] = func(ctx context.Context) error {
			it, err := e.o.Store.Get(ctx, orderKey(r.oid))
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			if it.Has("doneAt") || !Status(it.Int("status")).Open() {
				return nil
			}
			info, perr := openOrderInfo(cfg, it, r.trig)
			mu.Lock()
			r.info, r.open, r.parseErr = info, true, perr
			r.hi = max(r.prio, uint64(it.Int("seq")), uint64(it.Int("amendSeq")))
			mu.Unlock()
			return nil
		}
	}
	if err := run(ctx, jobs, settleWorkers); err != nil {
		return nil, 0, err
	}
	sort.Slice(recs, func(a, b int) bool {
		x, y := recs[a], recs[b]
		if x.prio != y.prio {
			return x.prio < y.prio
		}
		if x.n != y.n {
			return x.n < y.n
		}
		return x.oid < y.oid
	})
	var out []matching.OrderInfo
	var hi uint64
	for _, r := range recs {
		if !r.open {
			continue
		}
		if r.parseErr != nil {
			return nil, 0, fmt.Errorf("order %d: %w", r.oid, r.parseErr)
		}
		out = append(out, r.info)
		hi = max(hi, r.hi)
	}
	return out, hi, nil
}

// openOrderInfo converts a stored open order into the core's view of it:
// the remaining quantity is volume − dealVolume, and a stop that has not
// triggered keeps its stop price.
func openOrderInfo(cfg matching.SymbolConfig, it store.Item, triggered bool) (matching.OrderInfo, error) {
	id, err := strconv.ParseUint(it.Str("id"), 10, 64)
	if err != nil {
		return matching.OrderInfo{}, fmt.Errorf("bad id %q", it.Str("id"))
	}
	o := matching.OrderInfo{ID: id, UserID: userNum(it.Str("uid")), Side: matching.Sell, TIF: matching.GTC, STP: matching.STPCancelTaker}
	if it.Str("side") == "BUY" {
		o.Side = matching.Buy
	}
	if s := it.Str("stp"); s != "" {
		var ok bool
		if o.STP, ok = matching.ParseSTP(s); !ok {
			return o, fmt.Errorf("self-trade prevention %q", s)
		}
	}
	switch it.Str("type") {
	case TypeLimit, TypeStopLimit:
	case TypePostOnly:
		o.TIF = matching.PostOnly
	default:
		return o, fmt.Errorf("a %s order never rests", it.Str("type"))
	}
	if o.Price, err = cfg.ToTicks(it.Dec("price")); err != nil {
		return o, fmt.Errorf("price: %w", err)
	}
	deal := it.Dec("dealVolume")
	if o.Qty, err = cfg.ToLots(it.Dec("volume").Sub(deal)); err != nil {
		return o, fmt.Errorf("remaining quantity: %w", err)
	}
	if deal.IsPositive() {
		if o.Filled, err = cfg.ToLots(deal); err != nil {
			return o, fmt.Errorf("filled quantity: %w", err)
		}
	}
	if money := it.Dec("dealMoney"); money.IsPositive() {
		if o.FilledQuote, err = cfg.QuoteToUnits(money); err != nil {
			return o, fmt.Errorf("filled money: %w", err)
		}
	}
	if sp := it.Dec("stopPrice"); sp.IsPositive() && !triggered {
		if o.StopPrice, err = cfg.ToTicks(sp); err != nil {
			return o, fmt.Errorf("stop price: %w", err)
		}
	}
	return o, nil
}
