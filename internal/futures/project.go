package futures

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/shopspring/decimal"

	"tenger/internal/contracts"
	"tenger/internal/engine"
	"tenger/internal/matching"
	"tenger/internal/risk"
	"tenger/internal/store"
)

// Storage layout (single table), written by the projection (Projection)
// behind the engine, one batch at a time:
//
//	order     pk "FORD#<id>"        sk "O"    gsi1 "FORDU#<uid>" / "<ctime 13d>#<id>" (history)
//	                                          gsi2 "FOPEN#<uid>" / "<symbol>#<id>" while open
//	fill      pk "FTRDU#<uid>"      sk "<at 13d>#<tradeId 20d>#<B|S>"
//	                                          gsi1 "FTRDO#<orderId>" / "<tradeId 20d>#<B|S>" (an order's fills)
//	position  pk "FPOS#<uid>"       sk "<symbol>" (hedge mode: "<symbol>#LONG", "<symbol>#SHORT")   as the last batch left it
//	closed    pk "FPOSH#<uid>"      sk "<closed 13d>#<symbol>#<batch seq>#<n>"  a position's history once flat
//	funding   pk "FFUND#<uid>"      sk "<at 13d>#<symbol>"
//	trigger   pk "FTRIG#<id>"       sk "T"    gsi1 "FTRIGU#<uid>" / "<ctime 13d>#<id>" (history)
//	                                          gsi2 "FTRIGOPEN#<uid>" / "<symbol>#<id>" while waiting
//	prices    pk "FPRICE#<symbol>"  sk "P"    mark, index, last, funding (the price loop, runtime.go)
//	settings  pk "FUSER#<uid>"      sk "CONFIG"  page preferences, futures account opened
const (
	pkOrder      = "FORD#"
	skOrder      = "O"
	pkUserOrders = "FORDU#"
	pkOpen       = "FOPEN#"
	pkFills      = "FTRDU#"
	pkOrderFills = "FTRDO#"
	pkPosition   = "FPOS#"
	pkPosHistory = "FPOSH#"
	pkFunding    = "FFUND#"
	pkPrice      = "FPRICE#"
	skPrice      = "P"
	pkUser       = "FUSER#"
	pkTrigger    = "FTRIG#"
	skTrigger    = "T"
	pkUserTrigs  = "FTRIGU#"
	pkOpenTrigs  = "FTRIGOPEN#"
	skUserConfig = "CONFIG"
)

func orderKey(id uint64) store.Key { return store.Key{PK: pkOrder + fmtID(id), SK: skOrder} }

func fmtID(id uint64) string { return strconv.FormatUint(id, 10) }

// sortKey is a time in ms (13 digits) and an id: newest last.
func sortKey(ms int64, rest string) string { return fmt.Sprintf("%013d#%s", ms, rest) }

// orderNote is what a futures order command carries for the projection.
type orderNote struct {
	// Type is MARKET for a market order (sent to the book as IOC at the
	// price band's edge); empty for a limit order.
	Type          string `json:"t,omitempty"`
	TIF           string `json:"f,omitempty"`
	ClientOid     string `json:"c,omitempty"`
	ClosePosition bool   `json:"x,omitempty"`
}

// Projection turns the engine's batches into the futures items
// (projector.Extra): each order the batch touched at its state after it, a
// row per fill side, the positions the batch changed, the funding paid.
// Idempotent: a batch written twice writes the same items (an order's
// update is conditioned on its seq being below the batch's).
type Projection struct {
	cat *contracts.Catalogue
	// decimals is the margin coin's engine unit.
	decimals func(coin string) int32
	// ids are the contracts' book ids as of a catalogue version
	// (IsBook runs for every spot command the projection reads).
	ids atomic.Pointer[bookIDs]
}

type bookIDs struct {
	version uint64
	set     map[uint32]bool
}

// NewProjection returns the projection of the catalogue's contracts.
func NewProjection(cat *contracts.Catalogue, decimals func(coin string) int32) *Projection {
	return &Projection{cat: cat, decimals: decimals}
}

// book is a contract with what the projection needs of it.
type book struct {
	contracts.Contract
	decimals int32
}

func (b *book) price(ticks int64) decimal.Decimal { return b.PriceTick.Mul(decimal.NewFromInt(ticks)) }

func (b *book) money(units int64) decimal.Decimal { return decimal.New(units, -b.decimals) }

// notional is contracts × price × contract value.
func (b *book) notional(qty, ticks int64) decimal.Decimal {
	return b.price(ticks).Mul(b.ContractValue).Mul(decimal.NewFromInt(qty))
}

func (p *Projection) books() map[uint32]*book {
	out := map[uint32]*book{}
	for _, c := range p.cat.List() {
		out[BookSymbol(c)] = &book{Contract: c, decimals: p.decimals(c.Quote)}
	}
	return out
}

// IsBook says a book symbol is a contract's (spot.RuntimeOptions.Other).
func (p *Projection) IsBook(symbol uint32) bool {
	ids := p.ids.Load()
	if v := p.cat.Version(); ids == nil || ids.version != v {
		ids = &bookIDs{version: v, set: map[uint32]bool{}}
		for _, c := range p.cat.List() {
			ids.set[BookSymbol(c)] = true
		}
		p.ids.Store(ids)
	}
	return ids.set[symbol]
}

// orderState is what a batch does to one order.
type orderState struct {
	item       store.Item // the whole item, for an order the batch created
	upd        *store.Update
	deal       int64
	cash       decimal.Decimal
	fee, pnl   decimal.Decimal
	ended      bool
	lastUpdate int64
}

func (o *orderState) set(name string, v any) {
	for i := range o.upd.Actions {
		if a := &o.upd.Actions[i]; a.Attr == name && a.Kind == store.ActSet {
			a.Value = v
			return
		}
	}
	o.upd.Set(name, v)
}

// Ops implements projector.Extra.
func (p *Projection) Ops(_ context.Context, b *engine.Batch) ([]store.Op, error) {
	books := p.books()
	first, last := b.Results[0].Seq, int64(b.Last())
	orders := map[uint64]*orderState{}
	var order []uint64
	state := func(id uint64) *orderState {
		o := orders[id]
		if o == nil {
			o = &orderState{upd: store.NewUpdate()}
			orders[id] = o
			order = append(order, id)
		}
		return o
	}
	var ops []store.Op
	// What the batch does to each trigger order: one write each.
	trigs := map[uint64]*trigState{}
	var trigOrder []uint64
	trig := func(id uint64) *trigState {
		t := trigs[id]
		if t == nil {
			t = &trigState{}
			trigs[id] = t
			trigOrder = append(trigOrder, id)
		}
		return t
	}
	fee := 0
	for i := range b.Commands {
		c := &b.Commands[i]
		res := b.Results[i]
		evs := b.EventsOf(i)
		if c.Kind == engine.KindPositionMode {
			if res.Code == engine.OK && c.UserID != "" {
				mode := PositionOneWay
				if c.Amount == 1 {
					mode = PositionHedge
				}
				ops = append(ops, store.UpdateOp(userConfigKey(c.UserID), store.NewUpdate().Set("positionMode", int64(mode)), nil))
			}
			continue
		}
		bk := books[c.Order.Symbol]
		if bk == nil && len(evs) > 0 {
			bk = books[evs[0].Symbol]
		}
		if bk == nil {
			// Another product's command: its trades take their places in the fees.
			for j := range evs {
				if evs[j].Kind == matching.EvTrade {
					fee++
				}
			}
			continue
		}
		switch c.Kind {
		case engine.KindTrigger:
			if res.Code == engine.OK {
				trig(c.Order.OrderID).item = triggerItem(bk, c)
			}
			continue
		case engine.KindTriggerCancel:
			if res.Code == engine.OK {
				trig(c.Order.OrderID).end(TriggerCanceled, "", c.At)
			}
			continue
		case engine.KindTriggerFire:
			switch res.Code {
			case engine.OK, engine.Rejected:
				trig(c.Order.OrderID).end(TriggerTriggered, "", c.At)
			case engine.UnknownOrder:
			default:
				trig(c.Order.OrderID).end(TriggerFailed, res.Code.String(), c.At)
			}
		}
		if (c.Kind == engine.KindPlace || c.Kind == engine.KindTriggerFire) &&
			(res.Code == engine.OK || res.Code == engine.Rejected && res.Reason != matching.ReasonDuplicateOrderID) {
			var n orderNote
			if len(c.Note) > 0 {
				if err := json.Unmarshal(c.Note, &n); err != nil {
					return nil, fmt.Errorf("futures: order note of command %d: %w", res.Seq, err)
				}
			}
			it := newOrderItem(bk, c.UserID, c.Order, n, c.Spec.ReduceOnly, false, c.At)
			if c.Spec.PosSide != risk.PosBoth {
				it["positionSide"] = posSideName(c.Spec.PosSide)
			}
			state(c.Order.OrderID).item = it
		}
		for j := range evs {
			e := &evs[j]
			switch e.Kind {
			case matching.EvTrade:
				if fee >= len(b.Fees) {
					return nil, fmt.Errorf("futures: trade %d of batch %d has no fees", e.TradeID, b.Last())
				}
				tf := b.Fees[fee]
				fee++
				takerFee, makerFee, takerPnL, makerPnL := tf.Buy, tf.Sell, tf.BuyPnL, tf.SellPnL
				if e.Side == matching.Sell {
					takerFee, makerFee, takerPnL, makerPnL = tf.Sell, tf.Buy, tf.SellPnL, tf.BuyPnL
				}
				makerSide := matching.Sell
				if e.Side == matching.Sell {
					makerSide = matching.Buy
				}
				for _, f := range []struct {
					order, user uint64
					side        matching.Side
					fee, pnl    int64
					role        string
				}{{e.OrderID, e.UserID, e.Side, takerFee, takerPnL, "TAKER"}, {e.MakerOrderID, e.MakerUserID, makerSide, makerFee, makerPnL, "MAKER"}} {
					uid := b.Users[f.user]
					o := state(f.order)
					if c.Kind == engine.KindLiquidate && f.order == e.OrderID && o.item == nil {
						// The liquidation order: the engine's, created and
						// ended in this command.
						o.item = newOrderItem(bk, uid, matching.Command{OrderID: e.OrderID, Side: e.Side, Type: matching.Limit,
							TIF: matching.IOC, Price: e.Price}, orderNote{}, true, true, c.At)
					}
					o.deal += e.Qty
					o.cash = o.cash.Add(bk.notional(e.Qty, e.Price))
					o.fee = o.fee.Add(bk.money(f.fee))
					o.pnl = o.pnl.Add(bk.money(f.pnl))
					o.lastUpdate = c.At
					ops = append(ops, fillOp(bk, uid, e, f.order, f.side, f.fee, f.pnl, f.role, c.At, c.Kind == engine.KindLiquidate && f.order == e.OrderID))
				}
			case matching.EvDone:
				o := state(e.OrderID)
				if c.Kind == engine.KindLiquidate && o.item == nil {
					// A liquidation order that found nothing to trade with.
					o.item = newOrderItem(bk, b.Users[e.UserID], matching.Command{OrderID: e.OrderID, Side: e.Side, Type: matching.Limit,
						TIF: matching.IOC, Price: e.Price}, orderNote{}, true, true, c.At)
				}
				status := StatusCanceled
				if e.Reason == matching.ReasonFilled {
					status = StatusFilled
				}
				endOrder(o, status, e.Reason, c.At)
			case matching.EvRejected:
				if (c.Kind == engine.KindPlace || c.Kind == engine.KindTriggerFire) && e.OrderID == c.Order.OrderID && e.Tag != 0 &&
					e.Reason != matching.ReasonDuplicateOrderID {
					endOrder(state(e.OrderID), StatusRejected, e.Reason, c.At)
				}
			}
		}
	}
	for _, id := range order {
		o := orders[id]
		if o.item != nil {
			it := o.item
			if o.deal > 0 {
				it["dealVolume"], it["dealMoney"], it["fee"], it["pnl"] = o.deal, o.cash, o.fee, o.pnl
				if it.Str("status") == StatusNew {
					it["status"] = StatusPartiallyFilled
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
		if o.deal > 0 {
			upd.AddInt("dealVolume", o.deal).Add("dealMoney", o.cash).Add("fee", o.fee).Add("pnl", o.pnl)
			if !o.ended {
				upd.Set("status", StatusPartiallyFilled)
			}
		}
		if o.lastUpdate != 0 && !o.ended {
			upd.Set("mtime", o.lastUpdate)
		}
		upd.Set("seq", last)
		ops = append(ops, store.UpdateOp(orderKey(id), upd, store.And(store.ItemExists(),
			store.Or(store.NotExists("seq"), store.Compare("seq", store.CmpLt, int64(first))))))
	}
	// Triggers cancelled with the unfilled order they waited for.
	for _, d := range b.Dropped {
		if books[d.Contract] != nil {
			trig(d.ID).end(TriggerCanceled, "order_canceled", b.Commands[len(b.Commands)-1].At)
		}
	}
	for _, id := range trigOrder {
		t := trigs[id]
		switch {
		case t.item != nil:
			if t.status != "" {
				t.item["status"], t.item["mtime"] = t.status, t.at
				if t.reason != "" {
					t.item["reason"] = t.reason
				}
				delete(t.item, store.AttrGSI2PK)
				delete(t.item, store.AttrGSI2SK)
			}
			ops = append(ops, store.PutOp(t.item, nil))
		case t.status != "":
			ops = append(ops, triggerEnd(id, t.status, t.reason, t.at, first))
		}
	}
	for _, ps := range b.Positions {
		bk := books[ps.Contract]
		if bk == nil || ps.UserID == "" {
			continue
		}
		ops = append(ops, store.PutOp(positionItem(bk, ps.UserID, ps.Side, ps.Qty, ps.Cost, ps.Margin, ps.Leverage, ps.Isolated,
			ps.Liquidation, last, b.Commands[len(b.Commands)-1].At), nil))
	}
	for i, cp := range b.Closed {
		bk := books[cp.Contract]
		if bk == nil || cp.UserID == "" {
			continue
		}
		ops = append(ops, store.PutOp(closedItem(bk, &cp, fmt.Sprintf("%s#%d#%d", bk.Symbol, last, i)), nil))
	}
	for i := range b.Commands {
		c := &b.Commands[i]
		if c.Kind != engine.KindFunding || b.Results[i].Code != engine.OK {
			continue
		}
		bk := books[c.Order.Symbol]
		if bk == nil {
			continue
		}
		for _, f := range b.Funding {
			if f.Contract != c.Order.Symbol {
				continue
			}
			ops = append(ops, store.PutOp(store.Item{store.AttrPK: pkFunding + f.UserID, store.AttrSK: sortKey(c.At, bk.Symbol),
				"symbol": bk.Symbol, "qty": f.Qty, "amount": bk.money(f.Amount), "rate": decimal.New(c.Amount, -8), "at": c.At}, nil))
		}
	}
	return ops, nil
}

// newOrderItem is an order's item as its Place (or a liquidation) creates it.
func newOrderItem(bk *book, uid string, o matching.Command, n orderNote, reduceOnly, liq bool, at int64) store.Item {
	ids := fmtID(o.OrderID)
	typ, tif := TypeLimit, n.TIF
	if o.Type == matching.Market || n.Type == TypeMarket {
		typ = TypeMarket
	}
	if tif == "" {
		tif = tifName(o.TIF)
	}
	side := Buy
	if o.Side == matching.Sell {
		side = Sell
	}
	it := store.Item{store.AttrPK: pkOrder + ids, store.AttrSK: skOrder,
		"id": ids, "uid": uid, "symbol": bk.Symbol, "side": side, "type": typ, "tif": tif, "volume": o.Qty,
		"dealVolume": int64(0), "dealMoney": decimal.Zero, "fee": decimal.Zero, "pnl": decimal.Zero,
		"status": StatusNew, "ctime": at, "mtime": at,
		store.AttrGSI1PK: pkUserOrders + uid, store.AttrGSI1SK: sortKey(at, ids),
		store.AttrGSI2PK: pkOpen + uid, store.AttrGSI2SK: bk.Symbol + "#" + ids}
	if typ == TypeLimit && o.Price > 0 {
		it["price"] = bk.price(o.Price)
	}
	if reduceOnly {
		it["reduceOnly"] = true
	}
	if n.ClosePosition {
		it["closePosition"] = true
	}
	if liq {
		it["liquidation"] = true
	}
	if n.ClientOid != "" {
		it["clientOid"] = n.ClientOid
	}
	return it
}

func tifName(t matching.TimeInForce) string {
	switch t {
	case matching.IOC:
		return TIFIOC
	case matching.FOK:
		return TIFFOK
	case matching.PostOnly:
		return TIFPostOnly
	}
	return TIFGTC
}

// endOrder records an order's end: it leaves the open index.
func endOrder(o *orderState, status string, reason matching.Reason, at int64) {
	o.ended = true
	o.set("status", status)
	if reason != matching.ReasonFilled && reason != matching.ReasonNone {
		o.set("reason", reasonText(reason))
	}
	o.set("mtime", at)
	o.upd.Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK)
}

// reasonText names why an order ended unfilled.
func reasonText(r matching.Reason) string {
	switch r {
	case matching.ReasonCancelled:
		return "canceled"
	case matching.ReasonPostOnlyWouldTake:
		return "post_only"
	case matching.ReasonFOKNotFilled:
		return "fok"
	case matching.ReasonSelfTrade:
		return "self_trade"
	case matching.ReasonIOCRemainder:
		return "no_liquidity"
	}
	return r.String()
}

// fillOp is one side's fill row.
func fillOp(bk *book, uid string, e *matching.Event, orderID uint64, side matching.Side, feeUnits, pnlUnits int64, role string,
	at int64, liq bool) store.Op {
	s, letter := Buy, "B"
	if side == matching.Sell {
		s, letter = Sell, "S"
	}
	tid := fmt.Sprintf("%020d", e.TradeID)
	it := store.Item{store.AttrPK: pkFills + uid, store.AttrSK: sortKey(at, tid+"#"+letter),
		"tradeId": fmtID(e.TradeID), "orderId": fmtID(orderID), "symbol": bk.Symbol, "side": s, "price": bk.price(e.Price),
		"volume": e.Qty, "fee": bk.money(feeUnits), "pnl": bk.money(pnlUnits), "role": role, "at": at,
		store.AttrGSI1PK: pkOrderFills + fmtID(orderID), store.AttrGSI1SK: tid + "#" + letter}
	if liq {
		it["liquidation"] = true
	}
	return store.PutOp(it, nil)
}

// positionItem is a position as a batch left it.
func positionItem(bk *book, uid string, side risk.PosSide, qty, cost, margin, lev int64, isolated bool, liq, seq, at int64) store.Item {
	it := store.Item{store.AttrPK: pkPosition + uid, store.AttrSK: positionSK(bk.Symbol, side), "symbol": bk.Symbol,
		"positionSide": posSideName(side), "qty": qty,
		"cost": bk.money(cost), "margin": bk.money(margin), "leverage": lev, "isolated": isolated, "seq": seq, "mtime": at}
	if liq > 0 {
		it["liq"] = bk.price(liq)
	}
	return it
}

// positionSK is a position item's sort key: the contract's symbol, and in
// hedge mode its side.
func positionSK(symbol string, side risk.PosSide) string {
	if side == risk.PosBoth {
		return symbol
	}
	return symbol + "#" + posSideName(side)
}

// Position sides as the routes name them.
const (
	PositionBoth  = "BOTH"
	PositionLong  = "LONG"
	PositionShort = "SHORT"
)

func posSideName(s risk.PosSide) string {
	switch s {
	case risk.PosLong:
		return PositionLong
	case risk.PosShort:
		return PositionShort
	}
	return PositionBoth
}

// trigState is what a batch does to one trigger order.
type trigState struct {
	item           store.Item // created by the batch
	status, reason string     // its end in the batch
	at             int64
}

func (t *trigState) end(status, reason string, at int64) {
	t.status, t.reason, t.at = status, reason, at
}

func triggerKey(id uint64) store.Key { return store.Key{PK: pkTrigger + fmtID(id), SK: skTrigger} }

// triggerItem is a trigger order as its arming command creates it.
func triggerItem(bk *book, c *engine.Command) store.Item {
	o := &c.Order
	ids := fmtID(o.OrderID)
	side, typ, by, dir := Buy, TypeLimit, "MARK", "FALL"
	if o.Side == matching.Sell {
		side = Sell
	}
	if o.Type == matching.Market {
		typ = TypeMarket
	}
	if c.Trigger.ByLast {
		by = "LAST"
	}
	if c.Trigger.Above {
		dir = "RISE"
	}
	it := store.Item{store.AttrPK: pkTrigger + ids, store.AttrSK: skTrigger, "id": ids, "uid": c.UserID, "symbol": bk.Symbol,
		"side": side, "type": typ, "volume": o.Qty, "triggerPrice": bk.price(c.Trigger.Price), "triggerBy": by, "direction": dir,
		"status": TriggerWaiting, "ctime": c.At, "mtime": c.At,
		store.AttrGSI1PK: pkUserTrigs + c.UserID, store.AttrGSI1SK: sortKey(c.At, ids),
		store.AttrGSI2PK: pkOpenTrigs + c.UserID, store.AttrGSI2SK: bk.Symbol + "#" + ids}
	if typ == TypeLimit && o.Price > 0 {
		it["price"] = bk.price(o.Price)
	}
	if c.Trigger.Close {
		it["closePosition"] = true
	}
	if c.Spec.ReduceOnly {
		it["reduceOnly"] = true
	}
	if c.Spec.PosSide != risk.PosBoth {
		it["positionSide"] = posSideName(c.Spec.PosSide)
	}
	if c.Trigger.Parent != 0 {
		it["parentOrderId"] = fmtID(c.Trigger.Parent)
	}
	return it
}

// triggerEnd ends a trigger order (it leaves the waiting index), once: a
// batch written again finds it ended.
func triggerEnd(id uint64, status, reason string, at int64, first uint64) store.Op {
	upd := store.NewUpdate().Set("status", status).Set("mtime", at).Set("seq", int64(first)).
		Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK)
	if reason != "" {
		upd.Set("reason", reason)
	}
	return store.UpdateOp(triggerKey(id), upd, store.And(store.ItemExists(), store.Eq("status", TriggerWaiting)))
}

// closedItem is a closed position's history record.
func closedItem(bk *book, cp *engine.ClosedPosition, tail string) store.Item {
	side := "LONG"
	if !cp.Long {
		side = "SHORT"
	}
	avg := func(value, qty int64) decimal.Decimal {
		if qty <= 0 {
			return decimal.Zero
		}
		return bk.money(value).Div(bk.ContractValue.Mul(decimal.NewFromInt(qty))).Round(decimalsOf(bk.PriceTick))
	}
	it := store.Item{store.AttrPK: pkPosHistory + cp.UserID, store.AttrSK: sortKey(cp.Closed, tail), "symbol": bk.Symbol, "side": side,
		"maxQty": cp.MaxQty, "openPrice": avg(cp.OpenValue, cp.OpenQty), "closePrice": avg(cp.CloseValue, cp.CloseQty),
		"closeQty": cp.CloseQty, "pnl": bk.money(cp.Realized), "fee": bk.money(cp.Fees), "opened": cp.Opened, "closed": cp.Closed,
		"positionSide": posSideName(cp.Side)}
	if cp.Liquidated {
		it["liquidated"] = true
	}
	return it
}
