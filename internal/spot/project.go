package spot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/engine"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/risk"
	"tenger/internal/store"
)

// When the engine owns the balances (package engine), spot journals with
// every order command what its items need beyond the engine's fields
// (orderNote, in engine.Command.Note), and Projection turns the engine's
// batches into spot's items as the store projection writes them
// (projector.Extra): each order the batch touched at its state after it
// (created whole by its Place; else updated by the batch's net fills, on
// condition that its "seq" is below the batch's, so a batch written twice
// changes nothing twice), a row per fill side, and the fee tier's daily
// volume items (guarded the same way).

// orderNote is what an order command carries for the projection.
type orderNote struct {
	Type string `json:"t,omitempty"`
	// ClientOrderID and the requested quote volume of a market buy by
	// quote amount.
	ClientOrderID string `json:"c,omitempty"`
	QuoteVolume   string `json:"q,omitempty"`
	// STP is the order's self-trade prevention mode when not cancel_taker.
	STP string `json:"s,omitempty"`
	// Volume is an amendment's new total volume.
	Volume string `json:"v,omitempty"`
	// Fingerprint is the order's parameters (fingerprint) when it has a
	// ClientOrderID: the client id's item keeps it, so that a retry with
	// other parameters is told the id is taken.
	Fingerprint string `json:"f,omitempty"`
}

func encodeNote(n orderNote) []byte {
	b, _ := json.Marshal(n)
	return b
}

// ProjectionOptions configure a Projection.
type ProjectionOptions struct {
	Markets *markets.Catalogue
	// Decimals is a coin's engine unit (10^-Decimals of the coin).
	Decimals func(coin string) int32
	// Prices value fills for the fee tier's volume (nil: USDT pairs count
	// their quote amount, the others nothing).
	Prices RefPrices
	// Other says a book symbol is another product's (a perpetual
	// contract's): its commands and events are not spot's, only their
	// trades' places in the batch's fees are counted. Nil: none.
	Other func(symbol uint32) bool
}

// Projection builds spot's items of engine batches.
type Projection struct{ o ProjectionOptions }

// NewProjection returns the projection.
func NewProjection(o ProjectionOptions) *Projection { return &Projection{o: o} }

// orderState is what a batch does to one order.
type orderState struct {
	item       store.Item // the whole item, for an order the batch created
	upd        *store.Update
	deal, cash decimal.Decimal // fills of the batch
	fee        decimal.Decimal
	lastSeq    uint64
}

// Ops implements projector.Extra.
func (p *Projection) Ops(ctx context.Context, b *engine.Batch) ([]store.Op, error) {
	pairs := pairsByID(p.o.Markets)
	first := b.Results[0].Seq
	orders := map[uint64]*orderState{}
	var order []uint64 // first-touch order, for a deterministic result
	var ops []store.Op
	vols := map[store.Key]decimal.Decimal{}
	volTTL := map[store.Key]int64{}
	var volOrder []store.Key
	state := func(id uint64) *orderState {
		o := orders[id]
		if o == nil {
			o = &orderState{upd: store.NewUpdate()}
			orders[id] = o
			order = append(order, id)
		}
		return o
	}
	fee := 0
	// marks is each pair's last trade of the batch (the book marks item:
	// the last price stop orders are checked against at entry).
	type mark struct {
		symbol       string
		trade, price int64
		cfg          matching.SymbolConfig
	}
	marks := map[uint32]*mark{}
	var markOrder []uint32
	for i := range b.Commands {
		c := &b.Commands[i]
		res := b.Results[i]
		if evs := b.EventsOf(i); p.o.Other != nil && (p.o.Other(c.Order.Symbol) || len(evs) > 0 && p.o.Other(evs[0].Symbol)) {
			// Another product's command (a book command's events are all
			// its book's): its trades take their places in the fees.
			for j := range evs {
				if evs[j].Kind == matching.EvTrade {
					fee++
				}
			}
			continue
		}
		if c.Kind != engine.KindPlace && c.Kind != engine.KindCancel && c.Kind != engine.KindAmend && c.Kind != engine.KindCancelAll {
			continue
		}
		var note orderNote
		if len(c.Note) > 0 {
			if err := json.Unmarshal(c.Note, &note); err != nil {
				return nil, fmt.Errorf("spot: order note of command %d: %w", res.Seq, err)
			}
		}
		// A place the book refused for its id (a live order has it) must
		// not touch that order's item.
		if c.Kind == engine.KindPlace && (res.Code == engine.OK || res.Code == engine.Rejected && res.Reason != matching.ReasonDuplicateOrderID) {
			pr, ok := pairs[c.Order.Symbol]
			if !ok {
				return nil, fmt.Errorf("spot: command %d names symbol %d, which no pair has", res.Seq, c.Order.Symbol)
			}
			it, err := newOrderItem(c, pr, note)
			if err != nil {
				return nil, fmt.Errorf("spot: command %d: %w", res.Seq, err)
			}
			state(c.Order.OrderID).item = it
			if note.ClientOrderID != "" {
				ops = append(ops, store.PutOp(store.Item{store.AttrPK: pkClientID + c.UserID, store.AttrSK: note.ClientOrderID,
					"orderId": fmtID(c.Order.OrderID), "fp": note.Fingerprint}, nil))
			}
		}
		for _, e := range b.EventsOf(i) {
			pr, ok := pairs[e.Symbol]
			if !ok {
				return nil, fmt.Errorf("spot: event of symbol %d, which no pair has", e.Symbol)
			}
			cfg := symbolConfig(pr)
			switch e.Kind {
			case matching.EvTrade:
				if fee >= len(b.Fees) {
					return nil, fmt.Errorf("spot: trade %d of batch %d has no fees", e.TradeID, b.Last())
				}
				tf := b.Fees[fee]
				fee++
				m := marks[e.Symbol]
				if m == nil {
					m = &mark{symbol: pr.Symbol, cfg: cfg}
					marks[e.Symbol] = m
					markOrder = append(markOrder, e.Symbol)
				}
				m.trade, m.price = int64(e.TradeID), e.Price
				rows, err := p.trade(ctx, b, c, &e, tf, pr, cfg, state)
				if err != nil {
					return nil, err
				}
				ops = append(ops, rows.ops...)
				for _, v := range rows.vols {
					if _, seen := vols[v.key]; !seen {
						volOrder = append(volOrder, v.key)
						// Kept a little longer than the fee window after
						// its day ends (the expiry depends on the day only).
						volTTL[v.key] = (c.At/86_400_000+1)*86_400 + int64(volumeWindow/time.Second) + 7*86400
					}
					vols[v.key] = vols[v.key].Add(v.vol)
				}
			case matching.EvDone:
				status := StatusCancelled
				if e.Reason == matching.ReasonFilled {
					status = StatusFilled
				}
				end(state(e.OrderID), status, e.Reason, cfg.FromLots(e.Filled), c.At)
			case matching.EvRejected:
				if c.Kind == engine.KindPlace && e.OrderID == c.Order.OrderID && e.Tag != 0 && e.Reason != matching.ReasonDuplicateOrderID {
					end(state(e.OrderID), StatusRejected, e.Reason, decimal.Zero, c.At)
				}
			case matching.EvAmended:
				if c.Kind == engine.KindAmend && e.Reason == matching.ReasonNone && note.Volume != "" {
					total, err := decimal.NewFromString(note.Volume)
					if err != nil {
						return nil, fmt.Errorf("spot: amend of order %d: %w", e.OrderID, err)
					}
					hold := total
					coin := pr.Base
					if e.Side == matching.Buy {
						lots, err := cfg.ToLots(total)
						if err != nil {
							return nil, fmt.Errorf("spot: amend of order %d: %w", e.OrderID, err)
						}
						hold, coin = cfg.FromQuoteUnits(e.Price*lots), pr.Quote
					}
					o := state(e.OrderID)
					set(o, "volume", total)
					set(o, "hold", hold)
					set(o, "holdCoin", coin)
					set(o, "updatedAt", c.At)
				}
			case matching.EvTriggered:
				set(state(e.OrderID), attrTriggeredAt, c.At)
			}
			state(e.OrderID).lastSeq = res.Seq
		}
	}
	last := int64(b.Last())
	for _, id := range order {
		o := orders[id]
		if o.item != nil {
			it := o.item
			if o.deal.IsPositive() {
				it["dealVolume"], it["dealMoney"], it["fee"] = o.deal, o.cash, o.fee
				if st, _ := it["status"].(int64); Status(st) == StatusNew {
					it["status"] = int64(StatusPartiallyFilled)
				}
			}
			for _, a := range o.upd.Actions {
				if a.Kind == store.ActRemove {
					delete(it, a.Attr)
				} else {
					it[a.Attr] = a.Value
				}
			}
			it["seq"] = last
			ops = append(ops, store.PutOp(it, nil))
			continue
		}
		upd := o.upd
		if o.deal.IsPositive() {
			upd.Add("dealVolume", o.deal).Add("dealMoney", o.cash).Add("fee", o.fee)
			if !hasAction(upd, "status") {
				upd.Set("status", int64(StatusPartiallyFilled))
			}
		}
		if !hasAction(upd, "updatedAt") {
			upd.Set("updatedAt", b.Commands[len(b.Commands)-1].At)
		}
		upd.Set("seq", last)
		ops = append(ops, store.UpdateOp(orderKey(id), upd, store.And(store.ItemExists(),
			store.Or(store.NotExists("seq"), store.Compare("seq", store.CmpLt, int64(first))))))
	}
	for _, id := range markOrder {
		m := marks[id]
		ops = append(ops, store.UpdateOp(marksKey(m.symbol), store.NewUpdate().Set("seq", last).Set("tradeId", m.trade).
			Set("price", m.cfg.FromTicks(m.price)), store.Or(store.NotExists("seq"), store.Compare("seq", store.CmpLt, int64(first)))))
	}
	for _, k := range volOrder {
		ops = append(ops, store.UpdateOp(k, store.NewUpdate().Add("vol", vols[k]).Set(store.AttrTTL, volTTL[k]).Set("seq", last),
			store.Or(store.NotExists("seq"), store.Compare("seq", store.CmpLt, int64(first)))))
	}
	return ops, nil
}

// pairsByID maps the engine's symbol ids to the catalogue's pairs.
func pairsByID(cat *markets.Catalogue) map[uint32]markets.Pair {
	out := map[uint32]markets.Pair{}
	for _, pr := range cat.List() {
		out[symbolNum(pr.Symbol)] = pr
	}
	return out
}

// newOrderItem is an order's item as its Place creates it.
func newOrderItem(c *engine.Command, pr markets.Pair, n orderNote) (store.Item, error) {
	cfg := symbolConfig(pr)
	o := &c.Order
	ids := fmtID(o.OrderID)
	side, holdCoin, feeCoin := "BUY", pr.Quote, pr.Base
	var hold decimal.Decimal
	switch {
	case o.Side == matching.Sell:
		side, holdCoin, feeCoin = "SELL", pr.Base, pr.Quote
		hold = cfg.FromLots(o.Qty)
	case o.Type == matching.Market:
		hold = cfg.FromQuoteUnits(o.Quote)
	default:
		hold = cfg.FromQuoteUnits(o.Price * o.Qty)
	}
	it := store.Item{
		store.AttrPK: pkOrder + ids, store.AttrSK: skOrder,
		"id": ids, "uid": c.UserID, "symbol": pr.Symbol, "side": side, "type": n.Type,
		"price": decimal.Zero, "feeCoin": feeCoin, "status": int64(StatusNew), "hold": hold, "holdCoin": holdCoin,
		"makerRate": rate(c.Spec.Maker), "takerRate": rate(c.Spec.Taker), "createdAt": c.At, "updatedAt": c.At,
		store.AttrGSI1PK: pkUserOrds + c.UserID, store.AttrGSI1SK: historySK(c.At, ids),
		store.AttrGSI2PK: pkOpen + c.UserID, store.AttrGSI2SK: pr.Symbol + "#" + ids,
	}
	if o.Price != 0 {
		it["price"] = cfg.FromTicks(o.Price)
	}
	if o.Qty > 0 {
		it["volume"] = cfg.FromLots(o.Qty)
	}
	if n.QuoteVolume != "" {
		qv, err := decimal.NewFromString(n.QuoteVolume)
		if err != nil {
			return nil, fmt.Errorf("order %d's quote volume: %w", o.OrderID, err)
		}
		it["quoteVolume"] = qv
	}
	if o.StopPrice > 0 {
		it["stopPrice"] = cfg.FromTicks(o.StopPrice)
	}
	if n.ClientOrderID != "" {
		it["clientOrderId"] = n.ClientOrderID
	}
	if n.STP != "" {
		it["stp"] = n.STP
	}
	return it, nil
}

// rate turns an engine fee rate into the fraction orders store.
func rate(r risk.Rate) decimal.Decimal { return decimal.New(int64(r), -8) }

// set records an attribute the batch sets on an order.
func set(o *orderState, name string, v any) {
	for i := range o.upd.Actions {
		if a := &o.upd.Actions[i]; a.Attr == name && a.Kind == store.ActSet {
			a.Value = v
			return
		}
	}
	o.upd.Set(name, v)
}

func hasAction(u *store.Update, name string) bool {
	for _, a := range u.Actions {
		if a.Attr == name {
			return true
		}
	}
	return false
}

// end records an order's end.
func end(o *orderState, status Status, reason matching.Reason, traded decimal.Decimal, at int64) {
	set(o, "status", int64(status))
	set(o, "reason", reason.String())
	set(o, "doneAt", at)
	set(o, "updatedAt", at)
	set(o, AttrEndDeal, traded)
	o.upd.Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK)
}

type fillRows struct {
	ops  []store.Op
	vols []struct {
		key store.Key
		vol decimal.Decimal
	}
}

// trade records one fill: both orders' deal figures and fees, a row per
// side, and each side's fee tier volume.
func (p *Projection) trade(ctx context.Context, b *engine.Batch, c *engine.Command, e *matching.Event, tf risk.TradeFee, pr markets.Pair,
	cfg matching.SymbolConfig, state func(uint64) *orderState) (fillRows, error) {
	var out fillRows
	qty, money, price := cfg.FromLots(e.Qty), cfg.FromQuoteUnits(e.Quote), cfg.FromTicks(e.Price)
	buyID, sellID, buyUser, sellUser := e.OrderID, e.MakerOrderID, e.UserID, e.MakerUserID
	if e.Side == matching.Sell {
		buyID, sellID, buyUser, sellUser = e.MakerOrderID, e.OrderID, e.MakerUserID, e.UserID
	}
	buyFee := decimal.New(tf.Buy, -p.o.Decimals(pr.Base))
	sellFee := decimal.New(tf.Sell, -p.o.Decimals(pr.Quote))
	vol, hasVol, err := tradeVolume(ctx, p.o.Prices, pr, qty, money)
	if err != nil {
		return out, err
	}
	tid := fmt.Sprintf("%020d", e.TradeID)
	tidShort := strconv.FormatUint(e.TradeID, 10)
	side := func(id, user uint64, fee decimal.Decimal, feeCoin, sideName, role string) error {
		o := state(id)
		o.deal, o.cash, o.fee = o.deal.Add(qty), o.cash.Add(money), o.fee.Add(fee)
		uid := b.Users[user]
		if uid == "" {
			return fmt.Errorf("spot: fill of order %d by user %d, whom the batch does not name", id, user)
		}
		ids := fmtID(id)
		out.ops = append(out.ops, store.PutOp(store.Item{
			store.AttrPK: pkTrades + ids, store.AttrSK: tid,
			"tradeId": pr.Symbol + "-" + tidShort, "orderId": ids, "symbol": pr.Symbol, "side": sideName, "role": role,
			"price": price, "volume": qty, "money": money, "fee": fee, "feeCoin": feeCoin, "at": c.At, "uid": uid,
			store.AttrGSI1PK: pkUserTrds + uid, store.AttrGSI1SK: fmt.Sprintf("%013d#%s#%s", c.At, pr.Symbol, tid),
		}, nil))
		if hasVol {
			out.vols = append(out.vols, struct {
				key store.Key
				vol decimal.Decimal
			}{volumeKey(uid, c.At, e.TradeID), vol})
		}
		return nil
	}
	role := func(id uint64) string {
		if id == e.OrderID {
			return "TAKER"
		}
		return "MAKER"
	}
	if err := side(buyID, buyUser, buyFee, pr.Base, "BUY", role(buyID)); err != nil {
		return out, err
	}
	return out, side(sellID, sellUser, sellFee, pr.Quote, "SELL", role(sellID))
}
