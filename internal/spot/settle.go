package spot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/store"
)

// orderMeta is what settlement needs of an order; it never changes after
// entry (the fee rates are fixed when the order is placed), so settling the
// same event twice builds the same posting.
type orderMeta struct {
	uid        string
	side       matching.Side
	hold       decimal.Decimal
	holdCoin   string
	maker      decimal.Decimal
	taker      decimal.Decimal
	symbol     string
	placedSeen bool // a place command for it was sequenced by this process
}

// settler applies engine events to the store. All its writes are
// idempotent: trades by the posting id "trade:<symbol>:<tradeId>" (the
// order and trade rows ride in the same transaction, so a replay writes
// nothing), the end of an order by "done:<orderId>" or a doneAt condition.
type settler struct {
	st    store.Store
	led   *ledger.Ledger
	pairs map[uint32]markets.Pair
	cfgs  map[uint32]matching.SymbolConfig
	meta  map[uint64]*orderMeta
	// prices value a trade for the fee tier's volume (nil: USDT pairs
	// count their quote amount, the others nothing).
	prices RefPrices
	now    func() int64
	// tx combines the plain transactions of concurrent jobs (settle_tx.go).
	tx *txCombiner
}

var errNoOrder = errors.New("spot: order not stored")

func (s *settler) load(ctx context.Context, id uint64) (*orderMeta, error) {
	if m := s.meta[id]; m != nil {
		return m, nil
	}
	it, err := s.st.Get(ctx, orderKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: %d", errNoOrder, id)
	}
	if err != nil {
		return nil, err
	}
	m := metaOf(it)
	s.meta[id] = m
	return m, nil
}

func metaOf(it store.Item) *orderMeta {
	side := matching.Sell
	if it.Str("side") == "BUY" {
		side = matching.Buy
	}
	return &orderMeta{uid: it.Str("uid"), side: side, hold: it.Dec("hold"), holdCoin: it.Str("holdCoin"),
		maker: it.Dec("makerRate"), taker: it.Dec("takerRate"), symbol: it.Str("symbol"), placedSeen: it.Has("seq")}
}

// job is one idempotent store write of settlement.
type job func(ctx context.Context) error

// plan turns the events of one command (cmd) into jobs. It runs on the
// engine goroutine (it reads and fills the order cache); the jobs it
// returns touch only the store, so a batch's jobs run concurrently: every
// write commutes (balances and fills are added, an order's end is set once
// and holds only what its trades do not take), and the store's group commit
// then shares one fsync among them.
//
// An order that is accepted and ends in the same batch (IOC, FOK, market,
// a taker filled at once) needs no write for its Accepted event: the end
// sets the same attributes. pending maps such orders to their Accepted job.
func (s *settler) plan(ctx context.Context, cmd *matching.Command, evs []matching.Event, jobs []job, done *[]uint64,
	pending map[uint64]int) ([]job, error) {
	for i := range evs {
		e := evs[i]
		var j job
		var err error
		switch e.Kind {
		case matching.EvAccepted:
			j, err = s.accepted(ctx, &e)
			if j != nil {
				pending[e.OrderID] = len(jobs)
			}
		case matching.EvTrade:
			j, err = s.trade(ctx, &e)
		case matching.EvAmended:
			j, err = s.amended(ctx, cmd, &e) // amend.go
		case matching.EvTriggered:
			j = s.triggered(&e)
		case matching.EvDone:
			j, err = s.finish(ctx, &e, false)
			*done = append(*done, e.OrderID)
			if k, ok := pending[e.OrderID]; ok && j != nil {
				jobs[k] = nil
			}
		case matching.EvRejected:
			// Only a refused Place ends an order; a refused cancel (unknown
			// or already finished order) changes nothing, and a duplicate
			// id means the order is live and must keep its hold. A refused
			// amend withdraws the order's pending amend.
			if cmd.Kind == matching.CmdPlace && e.Reason != matching.ReasonDuplicateOrderID {
				j, err = s.finish(ctx, &e, true)
				*done = append(*done, e.OrderID)
			}
			if cmd.Kind == matching.CmdAmend {
				j = s.amendRefused(cmd) // amend.go
			}
		}
		if errors.Is(err, errNoOrder) {
			// A command naming an order the store never had (cannot come
			// from the API); nothing to settle.
			err = nil
		}
		if err != nil {
			return jobs, err
		}
		if j != nil {
			jobs = append(jobs, j)
		}
	}
	if cmd.Kind == matching.CmdCancel && cmd.Quote > 0 {
		// An amend the order's fills overtook, turned into a cancel
		// (prepareAmend): its outbox record goes.
		jobs = append(jobs, s.amendSent(cmd))
	}
	return jobs, nil
}

// run executes jobs on up to workers goroutines and returns the first error.
func run(ctx context.Context, jobs []job, workers int) error {
	n := 0
	for _, j := range jobs {
		if j != nil {
			jobs[n] = j
			n++
		}
	}
	jobs = jobs[:n]
	if n == 0 {
		return nil
	}
	if n == 1 {
		return jobs[0](ctx)
	}
	var (
		wg    sync.WaitGroup
		next  atomic.Int64
		errMu sync.Mutex
		first error
	)
	if workers > len(jobs) {
		workers = len(jobs)
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) {
					return
				}
				if err := jobs[i](ctx); err != nil {
					errMu.Lock()
					if first == nil {
						first = err
					}
					errMu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

func (s *settler) accepted(ctx context.Context, e *matching.Event) (job, error) {
	m, err := s.load(ctx, e.OrderID)
	if err != nil {
		return nil, err
	}
	m.placedSeen = true
	ops := []store.Op{
		store.UpdateOp(orderKey(e.OrderID), store.NewUpdate().Set("seq", int64(e.Seq)), store.ItemExists()),
		store.DeleteOp(outboxKey(m.symbol, e.OrderID), nil),
	}
	return func(ctx context.Context) error { return s.tx.Do(ctx, ops) }, nil
}

// triggered marks a stop order whose stop was reached (it now rests as a
// limit order), once: a replay finds the mark set and writes nothing.
func (s *settler) triggered(e *matching.Event) job {
	return s.markOnce(store.UpdateOp(orderKey(e.OrderID), store.NewUpdate().Set(attrTriggeredAt, s.now()),
		store.And(store.ItemExists(), store.NotExists(attrTriggeredAt))))
}

// markOnce is the job of one conditional write whose failed condition
// means there is nothing (more) to do: it was done before, or a later
// change made it moot.
func (s *settler) markOnce(op store.Op) job {
	ops := []store.Op{op}
	return func(ctx context.Context) error {
		if err := s.tx.Do(ctx, ops); err != nil && !errors.Is(err, store.ErrConditionFailed) {
			return err
		}
		return nil
	}
}

func (s *settler) trade(ctx context.Context, e *matching.Event) (job, error) {
	p, cfg := s.pairs[e.Symbol], s.cfgs[e.Symbol]
	taker, err := s.load(ctx, e.OrderID)
	if err != nil {
		return nil, err
	}
	maker, err := s.load(ctx, e.MakerOrderID)
	if err != nil {
		return nil, err
	}
	buyer, seller := taker, maker
	buyID, sellID := e.OrderID, e.MakerOrderID
	buyRate, sellRate := taker.taker, maker.maker
	if e.Side == matching.Sell {
		buyer, seller = maker, taker
		buyID, sellID = e.MakerOrderID, e.OrderID
		buyRate, sellRate = maker.maker, taker.taker
	}
	qty, money, price := cfg.FromLots(e.Qty), cfg.FromQuoteUnits(e.Quote), cfg.FromTicks(e.Price)
	buyFee, sellFee := feeOf(qty, buyRate), feeOf(money, sellRate)
	ba, sa, fa := spotAccount(buyer.uid), spotAccount(seller.uid), ledger.FeeAccount()
	var legs []ledger.Leg
	add := func(from, to ledger.Account, tb ledger.Bucket, coin string, amt decimal.Decimal) {
		if amt.IsPositive() {
			legs = append(legs, ledger.Leg{From: from, FromBucket: ledger.Frozen, To: to, ToBucket: tb, Coin: coin, Amount: amt})
		}
	}
	add(ba, sa, ledger.Available, p.Quote, money.Sub(sellFee))
	add(ba, fa, ledger.Available, p.Quote, sellFee)
	add(sa, ba, ledger.Available, p.Base, qty.Sub(buyFee))
	add(sa, fa, ledger.Available, p.Base, buyFee)
	vol, hasVol, err := s.volume(ctx, p, qty, money)
	if err != nil {
		return nil, err
	}
	now := s.now()
	tid := fmt.Sprintf("%020d", e.TradeID)
	tidShort := fmt.Sprintf("%d", e.TradeID)
	var extra []store.Op
	side := func(id uint64, m *orderMeta, fee decimal.Decimal, feeCoin, role string) {
		ids := fmtID(id)
		upd := store.NewUpdate().Add("dealVolume", qty).Add("dealMoney", money).Add("fee", fee).
			Set("updatedAt", now)
		extra = append(extra, store.UpdateOp(orderKey(id), upd, store.ItemExists()))
		extra = append(extra, store.PutOp(store.Item{
			store.AttrPK: pkTrades + ids, store.AttrSK: tid,
			"tradeId": p.Symbol + "-" + tidShort, "orderId": ids, "symbol": p.Symbol, "side": sideText(m.side), "role": role,
			"price": price, "volume": qty, "money": money, "fee": fee, "feeCoin": feeCoin, "at": now, "uid": m.uid,
			store.AttrGSI1PK: pkUserTrds + m.uid, store.AttrGSI1SK: fmt.Sprintf("%013d#%s#%s", now, p.Symbol, tid),
		}, nil))
		if hasVol {
			day := volumeKey(m.uid, now, e.TradeID)
			// Kept a little longer than the fee window after its day ends,
			// then expired by the store. The expiry depends on the day only,
			// so the day's later trades rewrite it unchanged and the store's
			// expiry index is written once per day, not on every trade.
			dayEnd := (now/86_400_000 + 1) * 86_400
			ttl := dayEnd + int64(volumeWindow/time.Second) + 7*86400
			extra = append(extra, store.UpdateOp(day, store.NewUpdate().Add("vol", vol).Set(store.AttrTTL, ttl), nil))
		}
	}
	role := func(id uint64) string {
		if id == e.OrderID {
			return "TAKER"
		}
		return "MAKER"
	}
	side(buyID, buyer, buyFee, p.Base, role(buyID))
	side(sellID, seller, sellFee, p.Quote, role(sellID))
	post := ledger.Posting{ID: "trade:" + p.Symbol + ":" + tidShort, Reason: "trade", Legs: legs,
		Meta: map[string]string{"symbol": p.Symbol, "buyOrder": fmtID(buyID), "sellOrder": fmtID(sellID)}, Extra: extra}
	return func(ctx context.Context) error {
		_, err := s.led.Post(ctx, post)
		return err
	}, nil
}

// finish ends an order: releases what is left of its hold and sets the
// final status, once.
func (s *settler) finish(ctx context.Context, e *matching.Event, rejected bool) (job, error) {
	m, err := s.load(ctx, e.OrderID)
	if err != nil {
		return nil, err
	}
	cfg := s.cfgs[e.Symbol]
	consumed := cfg.FromLots(e.Filled)
	if m.side == matching.Buy {
		consumed = cfg.FromQuoteUnits(e.Quote)
	}
	status := StatusCancelled
	switch {
	case rejected:
		status, consumed = StatusRejected, decimal.Zero
	case e.Reason == matching.ReasonFilled:
		status = StatusFilled
	}
	release := m.hold.Sub(consumed)
	now := s.now()
	// endDeal is the quantity the order traded in its life (the core's
	// count). The batch's trade postings land concurrently with this end,
	// in any order: a reader of the order (the private order feed) knows
	// its fill figures are final once dealVolume has reached endDeal.
	upd := store.NewUpdate().Set("status", int64(status)).Set("updatedAt", now).Set("doneAt", now).
		Set("reason", e.Reason.String()).Set("seq", int64(e.Seq)).Set(AttrEndDeal, cfg.FromLots(e.Filled)).
		Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK)
	ops := []store.Op{
		store.UpdateOp(orderKey(e.OrderID), upd, store.And(store.ItemExists(), store.NotExists("doneAt"))),
		store.DeleteOp(outboxKey(m.symbol, e.OrderID), nil),
	}
	if release.IsNegative() {
		return nil, fmt.Errorf("spot: order %d consumed %s of a %s hold", e.OrderID, consumed, m.hold)
	}
	if release.IsZero() {
		return func(ctx context.Context) error {
			err := s.tx.Do(ctx, ops)
			if errors.Is(err, store.ErrConditionFailed) {
				return nil // already finished: a replay
			}
			return err
		}, nil
	}
	post := ledger.Posting{ID: "done:" + fmtID(e.OrderID), Reason: "order_release",
		Legs:  []ledger.Leg{ledger.ReleaseLeg(spotAccount(m.uid), m.holdCoin, release)},
		Meta:  map[string]string{"order": fmtID(e.OrderID), "status": status.Text()},
		Extra: ops}
	return func(ctx context.Context) error {
		_, err := s.led.Post(ctx, post)
		return err
	}, nil
}

// volume is what a trade adds to each side's 30-day volume, in USDT: the
// lower of its value at the trade price (the quote amount, valued at the
// quote's reference price unless the quote is USDT) and its value at the
// base's reference price. Two accounts of one person trading with each
// other far from the market gain nothing by it: above the market the
// reference value caps the volume, below it the fee they pay shrinks with
// the volume. ok is false when the trade cannot be valued (its quote has
// no price).
func (s *settler) volume(ctx context.Context, p markets.Pair, qty, money decimal.Decimal) (decimal.Decimal, bool, error) {
	return tradeVolume(ctx, s.prices, p, qty, money)
}

// tradeVolume is settler.volume with the prices given.
func tradeVolume(ctx context.Context, prices RefPrices, p markets.Pair, qty, money decimal.Decimal) (decimal.Decimal, bool, error) {
	atTrade, ok := money, p.Quote == "USDT"
	if prices == nil {
		return atTrade, ok, nil
	}
	if !ok {
		q, has, err := prices.USDTPrice(ctx, p.Quote)
		if err != nil || !has {
			return decimal.Zero, false, err
		}
		atTrade = money.Mul(q)
	}
	b, has, err := prices.USDTPrice(ctx, p.Base)
	if err != nil {
		return decimal.Zero, false, err
	}
	if has {
		atTrade = decimal.Min(atTrade, qty.Mul(b))
	}
	return atTrade.RoundFloor(feeScale), true, nil
}

func timeDay(ms int64) string { return time.UnixMilli(ms).UTC().Format("20060102") }

// volumeShards spreads a user's daily volume over several items. Every
// trade adds to the volume of both users in its ledger posting, and the
// ledger can put two postings in one store transaction only if their extra
// writes touch different items: with one item per user and day, a busy
// user's trades (a market maker's) were committed a few at a time. The fee
// tier sums at most 31 days × volumeShards small items, once a minute per
// user (Service.rates).
const volumeShards = 16

// volumeKey is the daily volume item a trade adds to.
func volumeKey(uid string, ms int64, tradeID uint64) store.Key {
	return store.Key{PK: pkVolume + uid, SK: timeDay(ms) + "#" + strconv.FormatUint(tradeID%volumeShards, 10)}
}
