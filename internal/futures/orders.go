package futures

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/contracts"
	"tenger/internal/engine"
	"tenger/internal/matching"
	"tenger/internal/reqid"
	"tenger/internal/risk"
	"tenger/internal/store"
)

// PlaceRequest is a new order.
type PlaceRequest struct {
	Symbol      string
	Side        string
	Type        string
	TimeInForce string
	Price       string
	// Volume is whole contracts (ignored with ClosePosition).
	Volume string
	// ReduceOnly: the order may only reduce the position.
	ReduceOnly bool
	// ClosePosition: a market order closing the whole position.
	ClosePosition bool
	// PositionSide is empty (or BOTH) in one-way mode; in hedge mode the
	// position the order opens (BUY LONG, SELL SHORT) or closes (SELL
	// LONG, BUY SHORT: reduce-only by nature).
	PositionSide string
	ClientOid    string
}

// MaxClientOid bounds a client order id.
const MaxClientOid = 36

func (s *Service) newOrderID() uint64 {
	return uint64(s.o.Now().UnixMilli())<<16 | (s.ctr.Add(1) & 0xffff)
}

// PlaceOrder checks an order and places it in the engine; it answers the
// order as the store shows it.
func (s *Service) PlaceOrder(ctx context.Context, uid string, req PlaceRequest) (Order, error) {
	if uid == "" {
		return Order{}, apperr.New(apperr.CodeNotSignedIn)
	}
	c, err := s.Contract(req.Symbol)
	if err != nil {
		return Order{}, err
	}
	opened, err := s.Opened(ctx, uid)
	if err != nil {
		return Order{}, err
	}
	if !opened {
		return Order{}, apperr.New(apperr.CodeFuturesNotOpened)
	}
	posSide, err := parsePositionSide(req.PositionSide)
	if err != nil {
		return Order{}, err
	}
	cmd := matching.Command{UserID: engine.UserNumber(uid), Symbol: BookSymbol(c), Type: matching.Limit}
	switch strings.ToUpper(strings.TrimSpace(req.Side)) {
	case Buy:
		cmd.Side = matching.Buy
	case Sell:
		cmd.Side = matching.Sell
	default:
		if !req.ClosePosition {
			return Order{}, apperr.New(apperr.CodeFuturesSide)
		}
	}
	typ := strings.ToUpper(strings.TrimSpace(req.Type))
	tif := strings.ToUpper(strings.TrimSpace(req.TimeInForce))
	if req.ClosePosition {
		typ, tif = TypeMarket, ""
	}
	switch typ {
	case TypeLimit:
		switch tif {
		case "", TIFGTC:
			tif, cmd.TIF = TIFGTC, matching.GTC
		case TIFIOC:
			cmd.TIF = matching.IOC
		case TIFFOK:
			cmd.TIF = matching.FOK
		case TIFPostOnly:
			cmd.TIF = matching.PostOnly
		default:
			return Order{}, apperr.New(apperr.CodeFuturesType, tif)
		}
	case TypeMarket:
		if tif != "" && tif != TIFIOC {
			return Order{}, apperr.New(apperr.CodeFuturesType, typ+" "+tif)
		}
		tif, cmd.TIF = TIFIOC, matching.IOC
	default:
		return Order{}, apperr.New(apperr.CodeFuturesType, typ)
	}
	cid := strings.TrimSpace(req.ClientOid)
	if !reqid.Valid(cid, MaxClientOid) {
		return Order{}, apperr.Param("clientOid: at most 36 letters, digits, '-', '_' or '.'")
	}
	pr, err := s.prices(ctx, c)
	if err != nil {
		return Order{}, err
	}
	if pr.markTicks <= 0 {
		return Order{}, apperr.New(apperr.CodeFuturesNoPrice, c.Symbol)
	}
	g, err := c.Grid(s.o.Decimals(c.Quote))
	if err != nil {
		return Order{}, err
	}
	reduceOnly := req.ReduceOnly || posSide.Closes(cmd.Side)
	if req.ClosePosition {
		pos, err := s.position(ctx, uid, c, posSide)
		if err != nil {
			return Order{}, err
		}
		qty := int64(0)
		if pos != nil {
			qty = pos.Int("qty")
		}
		if qty == 0 {
			return Order{}, apperr.New(apperr.CodeFuturesNoPosition, c.Symbol)
		}
		cmd.Side, cmd.Qty, reduceOnly = matching.Sell, qty, true
		if qty < 0 {
			cmd.Side, cmd.Qty = matching.Buy, -qty
		}
	} else {
		v, err := strconv.ParseInt(strings.TrimSpace(req.Volume), 10, 64)
		if err != nil || v < max(c.MinQty, 1) || v > c.MaxOrderQty {
			return Order{}, apperr.New(apperr.CodeFuturesVolume, strconv.FormatInt(max(c.MinQty, 1), 10), strconv.FormatInt(c.MaxOrderQty, 10))
		}
		cmd.Qty = v
	}
	if c.Closed && !reduceOnly {
		return Order{}, apperr.New(apperr.CodeFuturesClosed, c.Symbol)
	}
	// The band: a limit order may not cross further than PriceBand from
	// the mark; a market order is sent as IOC at the band's edge.
	up := pr.mark.Mul(decimal.NewFromInt(1).Add(PriceBand))
	down := pr.mark.Mul(decimal.NewFromInt(1).Sub(PriceBand))
	if typ == TypeMarket {
		edge := up.Div(c.PriceTick).Floor()
		if cmd.Side == matching.Sell {
			edge = down.Div(c.PriceTick).Ceil()
		}
		cmd.Price = min(max(edge.IntPart(), 1), g.MaxPrice)
	} else {
		p, err := decimal.NewFromString(strings.TrimSpace(req.Price))
		if err != nil || !p.IsPositive() || !p.Mod(c.PriceTick).IsZero() || p.Div(c.PriceTick).GreaterThan(decimal.NewFromInt(g.MaxPrice)) {
			return Order{}, apperr.New(apperr.CodeFuturesPrice, c.PriceTick.String())
		}
		if (cmd.Side == matching.Buy && p.GreaterThan(up)) || (cmd.Side == matching.Sell && p.LessThan(down)) {
			return Order{}, apperr.New(apperr.CodeFuturesPriceBand, PriceBand.Shift(2).String()+"%", pr.mark.String())
		}
		cmd.Price = p.Div(c.PriceTick).IntPart()
	}
	n := orderNote{TIF: tif, ClientOid: cid, ClosePosition: req.ClosePosition}
	if typ == TypeMarket {
		n.Type = TypeMarket // sent as IOC at the band's edge
	}
	note, _ := json.Marshal(n)
	spec := risk.OrderSpec{Kind: risk.KindFutures, Maker: risk.Rate(g.MakerFee), Taker: risk.Rate(g.TakerFee), ReduceOnly: reduceOnly,
		PosSide: posSide}
	for attempt := 0; ; attempt++ {
		cmd.OrderID = s.newOrderID()
		res, err := s.submit(ctx, engine.Command{Kind: engine.KindPlace, Ref: cid, User: engine.UserNumber(uid), UserID: uid,
			Order: cmd, Spec: spec, Note: note})
		if err != nil {
			return Order{}, err
		}
		switch res.Code {
		case engine.Exists:
			return s.Order(ctx, uid, fmtID(res.OrderID))
		case engine.OK, engine.Rejected:
			if res.Code == engine.Rejected && res.Reason == matching.ReasonDuplicateOrderID && attempt < 3 {
				continue
			}
			return s.Order(ctx, uid, fmtID(cmd.OrderID))
		case engine.Invalid:
			return Order{}, apperr.New(apperr.CodeFuturesVolume, strconv.FormatInt(max(c.MinQty, 1), 10), strconv.FormatInt(c.MaxOrderQty, 10))
		}
		cfg, _ := s.UserConfig(ctx, uid, c.Symbol)
		return Order{}, codeError(res.Code, c, cfg.MaxLeverage)
	}
}

// CancelOrder cancels one of the caller's open orders.
func (s *Service) CancelOrder(ctx context.Context, uid, symbol, orderID string) (Order, error) {
	o, err := s.Order(ctx, uid, orderID)
	if err != nil {
		return Order{}, err
	}
	if o.Status != StatusNew && o.Status != StatusPartiallyFilled {
		return Order{}, apperr.New(apperr.CodeFuturesOrderNotFound)
	}
	c, err := s.Contract(o.Symbol)
	if err != nil {
		return Order{}, err
	}
	if symbol = strings.TrimSpace(symbol); symbol != "" {
		if k, err := s.Contract(symbol); err != nil || k.Symbol != c.Symbol {
			return Order{}, apperr.New(apperr.CodeFuturesOrderNotFound)
		}
	}
	id, _ := strconv.ParseUint(o.OrderID, 10, 64)
	res, err := s.submit(ctx, engine.Command{Kind: engine.KindCancel, User: engine.UserNumber(uid), UserID: uid,
		Order: matching.Command{OrderID: id, UserID: engine.UserNumber(uid), Symbol: BookSymbol(c)}})
	if err != nil {
		return Order{}, err
	}
	if res.Code != engine.OK {
		return Order{}, apperr.New(apperr.CodeFuturesOrderNotFound)
	}
	return s.Order(ctx, uid, orderID)
}

// CloseAll cancels the caller's open orders and closes every position at
// market, in one contract or (symbol empty) all of them.
func (s *Service) CloseAll(ctx context.Context, uid, symbol string) ([]Order, error) {
	var list []contracts.Contract
	if strings.TrimSpace(symbol) != "" {
		c, err := s.Contract(symbol)
		if err != nil {
			return nil, err
		}
		list = []contracts.Contract{c}
	} else {
		list = s.o.Contracts.List()
	}
	out := []Order{}
	for _, c := range list {
		if _, err := s.submit(ctx, engine.Command{Kind: engine.KindCancelAll, User: engine.UserNumber(uid), UserID: uid,
			Order: matching.Command{UserID: engine.UserNumber(uid), Symbol: BookSymbol(c)}}); err != nil {
			return out, err
		}
		items, err := s.positions(ctx, uid, c)
		if err != nil {
			return out, err
		}
		for _, pos := range items {
			if pos.Int("qty") == 0 {
				continue
			}
			side := positionSideOf(pos)
			if side == PositionBoth {
				side = ""
			}
			o, err := s.PlaceOrder(ctx, uid, PlaceRequest{Symbol: c.Symbol, ClosePosition: true, PositionSide: side})
			if err != nil {
				return out, err
			}
			out = append(out, o)
		}
	}
	return out, nil
}

// ---- queries ----

// Order is one of the caller's orders.
func (s *Service) Order(ctx context.Context, uid, orderID string) (Order, error) {
	id, err := strconv.ParseUint(strings.TrimSpace(orderID), 10, 64)
	if err != nil {
		return Order{}, apperr.New(apperr.CodeFuturesOrderNotFound)
	}
	it, err := s.o.Store.Get(ctx, orderKey(id))
	if errors.Is(err, store.ErrNotFound) || (err == nil && it.Str("uid") != uid) {
		return Order{}, apperr.New(apperr.CodeFuturesOrderNotFound)
	}
	if err != nil {
		return Order{}, err
	}
	return s.orderOf(it), nil
}

func (s *Service) orderOf(it store.Item) Order {
	c, _ := s.o.Contracts.Contract(it.Str("symbol"))
	pp := decimalsOf(c.PriceTick)
	dec := s.o.Decimals(c.Quote)
	money := func(d decimal.Decimal) string { return d.StringFixed(min(dec, 8)) }
	o := Order{OrderID: it.Str("id"), ClientOid: it.Str("clientOid"), Symbol: it.Str("symbol"), Side: it.Str("side"),
		Type: it.Str("type"), TimeInForce: it.Str("tif"), Volume: it.Int("volume"), DealVolume: it.Int("dealVolume"),
		Fee: money(it.Dec("fee")), RealizedPnl: money(it.Dec("pnl")), ReduceOnly: it.Bool("reduceOnly"),
		ClosePosition: it.Bool("closePosition"), PositionSide: positionSideOf(it), Liquidation: it.Bool("liquidation"), Status: it.Str("status"),
		Reason: it.Str("reason"), Ctime: it.Int("ctime"), Mtime: it.Int("mtime")}
	if p := it.Dec("price"); p.IsPositive() {
		o.Price = p.StringFixed(pp)
	}
	if o.DealVolume > 0 && c.ContractValue.IsPositive() {
		o.AvgPrice = it.Dec("dealMoney").Div(c.ContractValue.Mul(decimal.NewFromInt(o.DealVolume))).Round(pp).StringFixed(pp)
	}
	return o
}

// page bounds paging (page ≥ 1, size 1–100, default 20).
func page(p, size int) (int, int) {
	if p < 1 {
		p = 1
	}
	if size < 1 {
		size = 20
	}
	return p, min(size, 100)
}

// OpenOrders are the caller's open orders, newest first.
func (s *Service) OpenOrders(ctx context.Context, uid, symbol string, pageNo, size int) (OrderList, error) {
	n, list, err := live(ctx, s, pkOpen+uid, symbol, pageNo, size, s.orderOf, func(o Order) (bool, int64) {
		return o.Status == StatusNew || o.Status == StatusPartiallyFilled, o.Ctime
	})
	return OrderList{Count: n, List: list}, err
}

// live pages through what a user's index of live items (open orders,
// waiting triggers: whole items under pk in gsi2, sorted "<symbol>#<id>")
// holds in a contract or all, newest first: conv reads an item, keep says
// whether it is still live and when it was created.
func live[T any](ctx context.Context, s *Service, pk, symbol string, pageNo, size int, conv func(store.Item) T,
	keep func(T) (bool, int64)) (int, []T, error) {
	q := store.Query{Index: store.IndexGSI2, PK: pk}
	if strings.TrimSpace(symbol) != "" {
		c, err := s.Contract(symbol)
		if err != nil {
			return 0, nil, err
		}
		q.SK = store.SKPrefixed(c.Symbol + "#")
	}
	hits, err := s.queryAll(ctx, q)
	if err != nil {
		return 0, nil, err
	}
	// The index holds whole items (projection ALL): no read per item.
	type entry struct {
		v  T
		at int64
	}
	var all []entry
	for _, it := range hits {
		v := conv(it)
		if ok, at := keep(v); ok {
			all = append(all, entry{v, at})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at > all[j].at })
	pageNo, size = page(pageNo, size)
	from := min((pageNo-1)*size, len(all))
	out := make([]T, 0, min(size, len(all)-from))
	for _, e := range all[from:min(from+size, len(all))] {
		out = append(out, e.v)
	}
	return len(all), out, nil
}

// MaxHistory bounds the orders and fills the history lists page through
// (the newest ones).
const MaxHistory = 1000

// queryUpTo reads at most n items of a query.
func (s *Service) queryUpTo(ctx context.Context, q store.Query, n int) ([]store.Item, error) {
	var out []store.Item
	q.Limit = 100
	for len(out) < n {
		p, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if p.Cursor == "" {
			break
		}
		q.Cursor = p.Cursor
	}
	return out[:min(len(out), n)], nil
}

// history is a page of the newest MaxHistory items of a query, those of
// one contract when symbol names one (empty: all), each turned into a
// view by of; count is how many match.
func history[T any](ctx context.Context, s *Service, q store.Query, symbol string, pageNo, size int, of func(store.Item) T) (int, []T, error) {
	want := ""
	if strings.TrimSpace(symbol) != "" {
		c, err := s.Contract(symbol)
		if err != nil {
			return 0, nil, err
		}
		want = c.Symbol
	}
	pageNo, size = page(pageNo, size)
	q.Desc = true
	items, err := s.queryUpTo(ctx, q, MaxHistory)
	if err != nil {
		return 0, nil, err
	}
	out := []T{}
	count, skip := 0, (pageNo-1)*size
	for _, it := range items {
		if want != "" && it.Str("symbol") != want {
			continue
		}
		count++
		if count > skip && len(out) < size {
			out = append(out, of(it))
		}
	}
	return count, out, nil
}

// HistoryOrders are the caller's orders, newest first (finished ones and
// open ones alike).
func (s *Service) HistoryOrders(ctx context.Context, uid, symbol string, pageNo, size int) (OrderList, error) {
	n, list, err := history(ctx, s, store.Query{Index: store.IndexGSI1, PK: pkUserOrders + uid}, symbol, pageNo, size, s.orderOf)
	return OrderList{Count: n, List: list}, err
}

func (s *Service) tradeOf(it store.Item) Trade {
	c, _ := s.o.Contracts.Contract(it.Str("symbol"))
	dec := s.o.Decimals(c.Quote)
	money := func(d decimal.Decimal) string { return d.StringFixed(min(dec, 8)) }
	return Trade{TradeID: it.Str("tradeId"), OrderID: it.Str("orderId"), Symbol: it.Str("symbol"), Side: it.Str("side"),
		Price: it.Dec("price").StringFixed(decimalsOf(c.PriceTick)), Volume: it.Int("volume"), Fee: money(it.Dec("fee")),
		RealizedPnl: money(it.Dec("pnl")), Role: it.Str("role"), Liquidation: it.Bool("liquidation"), Ctime: it.Int("at")}
}

// Trades are the caller's fills, newest first.
func (s *Service) Trades(ctx context.Context, uid, symbol string, pageNo, size int) (TradeList, error) {
	n, list, err := history(ctx, s, store.Query{PK: pkFills + uid}, symbol, pageNo, size, s.tradeOf)
	return TradeList{Count: n, List: list}, err
}

// OrderDetail is one of the caller's orders with its fills.
func (s *Service) OrderDetail(ctx context.Context, uid, orderID string) (OrderDetail, error) {
	o, err := s.Order(ctx, uid, orderID)
	if err != nil {
		return OrderDetail{}, err
	}
	hits, err := s.queryAll(ctx, store.Query{Index: store.IndexGSI1, PK: pkOrderFills + o.OrderID})
	if err != nil {
		return OrderDetail{}, err
	}
	out := OrderDetail{Order: o, Trades: []Trade{}}
	for _, it := range hits {
		out.Trades = append(out.Trades, s.tradeOf(it))
	}
	return out, nil
}

// ClosedPositions are the caller's positions that went back to flat,
// newest first (the latest 1,000).
func (s *Service) ClosedPositions(ctx context.Context, uid, symbol string, pageNo, size int) (ClosedList, error) {
	n, list, err := history(ctx, s, store.Query{PK: pkPosHistory + uid}, symbol, pageNo, size, s.closedOf)
	return ClosedList{Count: n, List: list}, err
}

func (s *Service) closedOf(it store.Item) ClosedPosition {
	c, _ := s.o.Contracts.Contract(it.Str("symbol"))
	pp, dec := decimalsOf(c.PriceTick), min(s.o.Decimals(c.Quote), 8)
	return ClosedPosition{Symbol: it.Str("symbol"), Side: it.Str("side"), PositionSide: positionSideOf(it), MaxVolume: it.Int("maxQty"),
		OpenPrice: it.Dec("openPrice").StringFixed(pp), ClosePrice: it.Dec("closePrice").StringFixed(pp),
		RealizedPnl: it.Dec("pnl").StringFixed(dec), Fee: it.Dec("fee").StringFixed(dec), Liquidated: it.Bool("liquidated"),
		OpenTime: it.Int("opened"), CloseTime: it.Int("closed")}
}

// Statistics are the caller's futures results over the last days (1, 7
// or 30; default 7) in a margin coin (default USDT).
func (s *Service) Statistics(ctx context.Context, uid, coin string, days int) (Statistics, error) {
	if days == 0 {
		days = 7
	}
	if days != 1 && days != 7 && days != 30 {
		return Statistics{}, apperr.Param("days: 1, 7 or 30")
	}
	if coin = strings.ToUpper(strings.TrimSpace(coin)); coin == "" {
		coin = "USDT"
	}
	to := s.o.Now().UnixMilli()
	from := to - int64(days)*86_400_000
	out := Statistics{Coin: coin, Days: days, From: from, To: to}
	quote := map[string]contracts.Contract{}
	for _, c := range s.o.Contracts.List() {
		if c.Quote == coin {
			quote[c.Symbol] = c
		}
	}
	var pnl, fee, funding, volume decimal.Decimal
	span := store.SKRange(sortKey(from, ""), sortKey(to, "~"))
	fills, err := s.queryAll(ctx, store.Query{PK: pkFills + uid, SK: span})
	if err != nil {
		return Statistics{}, err
	}
	for _, it := range fills {
		c, ok := quote[it.Str("symbol")]
		if !ok {
			continue
		}
		out.Trades++
		pnl, fee = pnl.Add(it.Dec("pnl")), fee.Add(it.Dec("fee"))
		volume = volume.Add(it.Dec("price").Mul(c.ContractValue).Mul(decimal.NewFromInt(it.Int("volume"))))
	}
	paid, err := s.queryAll(ctx, store.Query{PK: pkFunding + uid, SK: span})
	if err != nil {
		return Statistics{}, err
	}
	for _, it := range paid {
		if _, ok := quote[it.Str("symbol")]; ok {
			funding = funding.Add(it.Dec("amount"))
		}
	}
	places := min(s.o.Decimals(coin), 8)
	out.RealizedPnl, out.Fee, out.Funding = pnl.StringFixed(places), fee.StringFixed(places), funding.StringFixed(places)
	out.NetPnl, out.Volume = pnl.Sub(fee).Add(funding).StringFixed(places), volume.StringFixed(places)
	return out, nil
}
