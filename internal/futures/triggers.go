package futures

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/engine"
	"tenger/internal/matching"
	"tenger/internal/risk"
	"tenger/internal/store"
)

// TriggerRequest is a new stop or take-profit order: the order it places
// (Side, Type, Price, Volume, ReduceOnly, or ClosePosition for the whole
// position) once the mark (TriggerBy MARK, default) or last price (LAST)
// reaches TriggerPrice: rising to it when it is above the price now,
// falling to it when below.
type TriggerRequest struct {
	Symbol        string
	Side          string
	Type          string
	Price         string
	Volume        string
	TriggerPrice  string
	TriggerBy     string
	ReduceOnly    bool
	ClosePosition bool
	// PositionSide: as PlaceRequest's (the position a TP/SL closes in
	// hedge mode).
	PositionSide string
	// ParentOrderID ties a TP/SL to one of the caller's orders in the
	// contract: it waits, unarmed, until that order fills (in part), and
	// is cancelled if it ends unfilled; one already filled arms it now.
	ParentOrderID string
}

// CreateTrigger arms a trigger order.
func (s *Service) CreateTrigger(ctx context.Context, uid string, req TriggerRequest) (TriggerOrder, error) {
	if uid == "" {
		return TriggerOrder{}, apperr.New(apperr.CodeNotSignedIn)
	}
	c, err := s.Contract(req.Symbol)
	if err != nil {
		return TriggerOrder{}, err
	}
	opened, err := s.Opened(ctx, uid)
	if err != nil {
		return TriggerOrder{}, err
	}
	if !opened {
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesNotOpened)
	}
	g, err := c.Grid(s.o.Decimals(c.Quote))
	if err != nil {
		return TriggerOrder{}, err
	}
	onTick := func(raw string) (int64, bool) {
		p, err := decimal.NewFromString(strings.TrimSpace(raw))
		if err != nil || !p.IsPositive() || !p.Mod(c.PriceTick).IsZero() || p.Div(c.PriceTick).GreaterThan(decimal.NewFromInt(g.MaxPrice)) {
			return 0, false
		}
		return p.Div(c.PriceTick).IntPart(), true
	}
	tp, ok := onTick(req.TriggerPrice)
	if !ok {
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesPrice, c.PriceTick.String())
	}
	byLast := false
	switch strings.ToUpper(strings.TrimSpace(req.TriggerBy)) {
	case "", "MARK":
	case "LAST":
		byLast = true
	default:
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesType, req.TriggerBy)
	}
	pr, err := s.prices(ctx, c)
	if err != nil {
		return TriggerOrder{}, err
	}
	now := pr.markTicks
	if byLast && pr.last.IsPositive() {
		now = pr.last.Div(c.PriceTick).IntPart()
	}
	if now <= 0 {
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesNoPrice, c.Symbol)
	}
	if tp == now {
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesWouldTrigger)
	}
	posSide, err := parsePositionSide(req.PositionSide)
	if err != nil {
		return TriggerOrder{}, err
	}
	cmd := matching.Command{UserID: engine.UserNumber(uid), Symbol: BookSymbol(c), Type: matching.Market, TIF: matching.IOC}
	switch strings.ToUpper(strings.TrimSpace(req.Side)) {
	case Buy:
		cmd.Side = matching.Buy
	case Sell:
		cmd.Side = matching.Sell
	default:
		if !req.ClosePosition {
			return TriggerOrder{}, apperr.New(apperr.CodeFuturesSide)
		}
	}
	if req.ClosePosition {
		// Its side is the one that closes the position (shown; the engine
		// takes the position's when it fires).
		switch posSide {
		case risk.PosLong:
			cmd.Side = matching.Sell
		case risk.PosShort:
			cmd.Side = matching.Buy
		default:
			pos, err := s.position(ctx, uid, c, posSide)
			if err != nil {
				return TriggerOrder{}, err
			}
			if pos != nil && pos.Int("qty") > 0 {
				cmd.Side = matching.Sell
			} else if pos != nil && pos.Int("qty") < 0 {
				cmd.Side = matching.Buy
			}
		}
	}
	if !req.ClosePosition {
		switch typ := strings.ToUpper(strings.TrimSpace(req.Type)); typ {
		case "", TypeMarket:
		case TypeLimit:
			p, ok := onTick(req.Price)
			if !ok {
				return TriggerOrder{}, apperr.New(apperr.CodeFuturesPrice, c.PriceTick.String())
			}
			cmd.Type, cmd.TIF, cmd.Price = matching.Limit, matching.GTC, p
		default:
			return TriggerOrder{}, apperr.New(apperr.CodeFuturesType, typ)
		}
		v, err := strconv.ParseInt(strings.TrimSpace(req.Volume), 10, 64)
		if err != nil || v < max(c.MinQty, 1) || v > c.MaxOrderQty {
			return TriggerOrder{}, apperr.New(apperr.CodeFuturesVolume, strconv.FormatInt(max(c.MinQty, 1), 10), strconv.FormatInt(c.MaxOrderQty, 10))
		}
		cmd.Qty = v
	}
	spec := risk.OrderSpec{Kind: risk.KindFutures, Maker: risk.Rate(g.MakerFee), Taker: risk.Rate(g.TakerFee),
		ReduceOnly: req.ReduceOnly || req.ClosePosition || posSide.Closes(cmd.Side), PosSide: posSide}
	parent, err := s.parentOf(ctx, uid, c.Symbol, req.ParentOrderID)
	if err != nil {
		return TriggerOrder{}, err
	}
	cmd.OrderID = s.newOrderID()
	res, err := s.submit(ctx, engine.Command{Kind: engine.KindTrigger, User: engine.UserNumber(uid), UserID: uid, Order: cmd, Spec: spec,
		Trigger: engine.TriggerSpec{Price: tp, Above: tp > now, ByLast: byLast, Close: req.ClosePosition, Parent: parent}})
	if err != nil {
		return TriggerOrder{}, err
	}
	switch res.Code {
	case engine.OK:
		return s.Trigger(ctx, uid, fmtID(cmd.OrderID))
	case engine.WouldTrigger:
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesWouldTrigger)
	case engine.PositionLimit:
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesTooManyTriggers, strconv.Itoa(engine.MaxTriggersPerUser))
	case engine.Invalid:
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesVolume, strconv.FormatInt(max(c.MinQty, 1), 10), strconv.FormatInt(c.MaxOrderQty, 10))
	}
	return TriggerOrder{}, codeError(res.Code, c, c.MaxLeverage())
}

// CancelTrigger disarms one of the caller's waiting trigger orders.
func (s *Service) CancelTrigger(ctx context.Context, uid, triggerID string) (TriggerOrder, error) {
	t, err := s.Trigger(ctx, uid, triggerID)
	if err != nil {
		return TriggerOrder{}, err
	}
	if t.Status != TriggerWaiting {
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesOrderNotFound)
	}
	c, err := s.Contract(t.Symbol)
	if err != nil {
		return TriggerOrder{}, err
	}
	id, _ := strconv.ParseUint(t.TriggerID, 10, 64)
	res, err := s.submit(ctx, engine.Command{Kind: engine.KindTriggerCancel, User: engine.UserNumber(uid), UserID: uid,
		Order: matching.Command{OrderID: id, Symbol: BookSymbol(c)}})
	if err != nil {
		return TriggerOrder{}, err
	}
	if res.Code != engine.OK {
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesOrderNotFound)
	}
	return s.Trigger(ctx, uid, triggerID)
}

// Trigger is one of the caller's trigger orders.
func (s *Service) Trigger(ctx context.Context, uid, triggerID string) (TriggerOrder, error) {
	id, err := strconv.ParseUint(strings.TrimSpace(triggerID), 10, 64)
	if err != nil {
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesOrderNotFound)
	}
	it, err := s.o.Store.Get(ctx, triggerKey(id))
	if errors.Is(err, store.ErrNotFound) || (err == nil && it.Str("uid") != uid) {
		return TriggerOrder{}, apperr.New(apperr.CodeFuturesOrderNotFound)
	}
	if err != nil {
		return TriggerOrder{}, err
	}
	return s.triggerOf(it), nil
}

// parentOf is the order a TP/SL waits for (0: none, or one that filled
// already: the trigger is armed at once); the caller's, in the contract,
// not ended unfilled.
func (s *Service) parentOf(ctx context.Context, uid, symbol, orderID string) (uint64, error) {
	if strings.TrimSpace(orderID) == "" {
		return 0, nil
	}
	o, err := s.Order(ctx, uid, orderID)
	if err != nil {
		return 0, err
	}
	if o.Symbol != symbol {
		return 0, apperr.New(apperr.CodeFuturesOrderNotFound)
	}
	switch {
	case o.DealVolume > 0:
		return 0, nil
	case o.Status == StatusNew:
		return strconv.ParseUint(o.OrderID, 10, 64)
	}
	return 0, apperr.New(apperr.CodeFuturesParentEnded)
}

func (s *Service) triggerOf(it store.Item) TriggerOrder {
	c, _ := s.o.Contracts.Contract(it.Str("symbol"))
	pp := decimalsOf(c.PriceTick)
	t := TriggerOrder{TriggerID: it.Str("id"), Symbol: it.Str("symbol"), Side: it.Str("side"), Type: it.Str("type"), Volume: it.Int("volume"),
		TriggerPrice: it.Dec("triggerPrice").StringFixed(pp), TriggerBy: it.Str("triggerBy"), Direction: it.Str("direction"),
		ClosePosition: it.Bool("closePosition"), ReduceOnly: it.Bool("reduceOnly"), PositionSide: positionSideOf(it), Status: it.Str("status"),
		Reason: it.Str("reason"), ParentOrderID: it.Str("parentOrderId"),
		Ctime: it.Int("ctime"), Mtime: it.Int("mtime")}
	if p := it.Dec("price"); p.IsPositive() {
		t.Price = p.StringFixed(pp)
	}
	return t
}

// Triggers are the caller's waiting trigger orders, newest first.
func (s *Service) Triggers(ctx context.Context, uid, symbol string, pageNo, size int) (TriggerList, error) {
	n, list, err := live(ctx, s, pkOpenTrigs+uid, symbol, pageNo, size, s.triggerOf, func(t TriggerOrder) (bool, int64) {
		return t.Status == TriggerWaiting, t.Ctime
	})
	return TriggerList{Count: n, List: list}, err
}

// TriggerHistory are the caller's trigger orders, newest first (the
// latest 1,000).
func (s *Service) TriggerHistory(ctx context.Context, uid, symbol string, pageNo, size int) (TriggerList, error) {
	n, list, err := history(ctx, s, store.Query{Index: store.IndexGSI1, PK: pkUserTrigs + uid}, symbol, pageNo, size, s.triggerOf)
	return TriggerList{Count: n, List: list}, err
}
