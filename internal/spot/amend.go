package spot

import (
	"context"
	"errors"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/engine"
	"tenger/internal/markets"
	"tenger/internal/matching"
)

// Amending an order: reducing its quantity.
//
// AmendOrder takes the order's new total quantity ("volume", as the order
// shows it). The rules:
//
//   - only a resting kind of order (LIMIT, POST_ONLY, STOP_LIMIT) that is
//     still open can be amended; a finished one answers
//     CodeTradeOrderFinished, as a cancel does;
//   - the new volume must be strictly below the current volume (an
//     increase, or the same volume, is refused with CodeTradeAmendVolume)
//     and strictly above the filled quantity (deal_volume): reducing to the
//     filled quantity or below is a cancel;
//   - it must be on the pair's lot grid, and the remaining quantity
//     (volume − deal_volume) must meet the pair's minimum quantity and, at
//     the order's price, its minimum notional;
//   - the price never changes, and the order keeps its place in the queue.
//
// The command goes to the engine, which checks it again against the live
// order (it may have filled further since the store showed it): it turns
// the new total into the book's new remaining quantity, refuses it when it
// would no longer reduce the order (the caller is told
// CodeTradeAmendVolume against the order as it is then), and cancels the
// rest when the fills reached the new total (or left less than the pair's
// minimum to rest), so the order never fills beyond an amend answered
// success. The engine releases what the order holds beyond what its rest
// needs (a buy's price improvement so far included), and the projection
// stores the new volume and hold.

// AmendOrder asks the engine to reduce one of the user's open orders to
// volume (the new total quantity, filled part included).
func (s *Service) AmendOrder(ctx context.Context, uid, symbol, orderID, volume string) error {
	o, err := s.openOrder(ctx, uid, symbol, orderID)
	if err != nil {
		return err
	}
	p, ok := s.cat.Pair(o.Symbol)
	if !ok {
		return apperr.New(apperr.CodeTradeSymbolUnknown, clip(o.Symbol, 40))
	}
	cmd, err := amendCommand(p, o, uid, volume)
	if err != nil {
		return err
	}
	v := symbolConfig(p).FromLots(cmd.Qty)
	err = s.orderOnEngine(ctx, uid, engine.KindAmend, cmd, encodeNote(orderNote{Volume: v.String()}))
	if errors.Is(err, errAmendRefused) {
		// It filled further meanwhile: judge it against the order now.
		if o, err = s.openOrder(ctx, uid, symbol, orderID); err != nil {
			return err
		}
		return apperr.New(apperr.CodeTradeAmendVolume, o.Volume.String(), o.DealVolume.String())
	}
	return err
}

// amendCommand validates an amend of o to volume against the pair's grid
// and returns the command the API sends: Qty is the new total quantity in
// lots (the engine converts it into the book's remaining quantity).
func amendCommand(p markets.Pair, o Order, uid, volume string) (matching.Command, error) {
	cfg := symbolConfig(p)
	switch o.Type {
	case TypeLimit, TypePostOnly, TypeStopLimit:
	default:
		return matching.Command{}, apperr.New(apperr.CodeTradeAmendType)
	}
	volume = strings.TrimSpace(volume)
	if volume == "" {
		return matching.Command{}, apperr.New(apperr.CodeTradeVolumeRequired)
	}
	if !plainNumber(volume) {
		return matching.Command{}, apperr.New(apperr.CodeTradeNumber)
	}
	v, err := decimal.NewFromString(volume)
	if err != nil {
		return matching.Command{}, apperr.New(apperr.CodeTradeNumber)
	}
	if !v.LessThan(o.Volume) || !v.GreaterThan(o.DealVolume) {
		return matching.Command{}, apperr.New(apperr.CodeTradeAmendVolume, o.Volume.String(), o.DealVolume.String())
	}
	lots, err := cfg.ToLots(v)
	if err != nil {
		return matching.Command{}, reasonError(p, matching.ReasonFor(err))
	}
	var filled int64
	if o.DealVolume.IsPositive() {
		if filled, err = cfg.ToLots(o.DealVolume); err != nil {
			return matching.Command{}, apperr.New(apperr.CodeTradeNumber).WithCause(err)
		}
	}
	id, err := parseOrderID(o.ID)
	if err != nil {
		return matching.Command{}, err
	}
	sym := symbolNum(o.Symbol)
	bc, err := cfg.BookConfig(sym)
	if err != nil {
		return matching.Command{}, apperr.New(apperr.CodeTradeSymbolClosed, o.Symbol).WithCause(err)
	}
	price, err := cfg.ToTicks(o.Price)
	if err != nil {
		return matching.Command{}, apperr.New(apperr.CodeTradeNumber).WithCause(err)
	}
	if price > bc.MaxPrice || lots > bc.MaxQty {
		// A stored order is inside the core's bounds; this only keeps the
		// products below from overflowing.
		return matching.Command{}, apperr.New(apperr.CodeTradeTooLarge)
	}
	// The core refuses the same (remaining quantity below the minimum, or
	// below the minimum notional at the order's price); saying so here
	// gives the user the reason.
	rem := lots - filled
	if rem < bc.MinQty {
		return matching.Command{}, reasonError(p, matching.ReasonBelowMinQty)
	}
	if price*rem < bc.MinNotional {
		return matching.Command{}, reasonError(p, matching.ReasonBelowMinNotional)
	}
	return matching.Command{Kind: matching.CmdAmend, OrderID: id, UserID: userNum(uid), Symbol: sym, Qty: lots}, nil
}
