package spot

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/engine"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/queue"
	"tenger/internal/store"
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
//   - the price never changes, and the order keeps its place in the queue;
//   - "current volume" includes amends accepted but not yet applied by the
//     engine: each accepted amend stores its volume on the order
//     ("amendTo"), conditional on being below the one before, so two
//     amends sent at once are never both answered success when the engine
//     can apply only the smaller (an amend never increases an order).
//
// The command goes to the engine through the orders queue, with an outbox
// record written in the same transaction as "amendTo" (amendOutboxKey), as
// a place has: a command the API never sent (its process died, or the
// queue refused it) is sent by the engine's sweep, so an accepted amend
// always reaches the engine and a pending "amendTo" never outlives it. The
// record goes when the engine has sequenced the amend (applied, refused or
// turned into a cancel), unless a newer amend of the order replaced it.
// The engine checks it again against the live book (the order may
// have filled further since the API read it): prepareAmend turns the new
// volume into the core's new remaining quantity, into a command the core
// refuses when it would not reduce the order, or into a cancel of the rest
// when the fills reached the new volume (or left less than the pair's
// minimum to rest), so the order never fills beyond an accepted amend.
// Settlement of the Amended event releases the hold the removed quantity no longer needs, with the
// posting "amend:<orderId>:<seq>" (idempotent), and stores the new volume
// and hold.

// AmendOrder asks the engine to reduce one of the user's open orders to
// volume (the new total quantity, filled part included). The freed funds
// are released when the engine's Amended event is settled.
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
	if s.eng != nil {
		err := s.orderOnEngine(ctx, uid, engine.KindAmend, cmd, encodeNote(orderNote{Volume: v.String()}))
		if errors.Is(err, errAmendRefused) {
			// It filled further meanwhile: judge it against the order now.
			if o, err = s.openOrder(ctx, uid, symbol, orderID); err != nil {
				return err
			}
			return apperr.New(apperr.CodeTradeAmendVolume, currentVolume(o).String(), o.DealVolume.String())
		}
		return err
	}
	body := make([]byte, matching.CommandSize)
	matching.EncodeCommand(body, &cmd)
	// The deduplication id names this request (its time): the sweep's
	// resends of it are dropped as duplicates, but a later amend to the
	// same volume (after the engine refused this one) is a new command.
	at := s.now().UnixMilli()
	dedup := "amend:" + fmtID(cmd.OrderID) + ":" + strconv.FormatInt(cmd.Qty, 10) + ":" + strconv.FormatInt(at, 10)
	// The pending amend and its outbox record in one transaction: a
	// command the API never gets to send is sent by the engine's sweep.
	err = s.st.Transact(ctx, []store.Op{
		store.UpdateOp(orderKey(cmd.OrderID), store.NewUpdate().Set(attrAmendTo, v),
			store.And(store.ItemExists(), store.NotExists("doneAt"),
				store.Or(store.NotExists(attrAmendTo), store.Compare(attrAmendTo, store.CmpGt, v)))),
		store.PutOp(store.Item{store.AttrPK: amendOutboxKey(o.Symbol, cmd.OrderID).PK, store.AttrSK: amendOutboxKey(o.Symbol, cmd.OrderID).SK,
			"cmd": body, "at": at, "dedup": dedup, "qty": cmd.Qty}, nil),
	})
	if errors.Is(err, store.ErrConditionFailed) {
		// Another amend (or the order's end) came first: judge this one
		// against what the order is now.
		if o, err = s.openOrder(ctx, uid, symbol, orderID); err != nil {
			return err
		}
		_, err = amendCommand(p, o, uid, volume)
		if err == nil {
			err = apperr.New(apperr.CodeTradeAmendVolume, currentVolume(o).String(), o.DealVolume.String())
		}
		return err
	}
	if err != nil {
		return err
	}
	// The amend is accepted: a client that hangs up now does not stop
	// the send, and a send that fails is the sweep's to repeat. Its outbox
	// record is durable, so the queue need not make the message durable
	// before answering (Backed).
	if err := s.orders.Send(context.WithoutCancel(ctx), queue.Message{Group: o.Symbol, DedupID: dedup, Body: body, Backed: true}); err != nil {
		s.log.Warn().Err(err).Str("order", orderID).Msg("spot: amend command not sent; the engine's sweeper will send it")
	}
	return nil
}

// currentVolume is the order's volume after the amends accepted so far.
func currentVolume(o Order) decimal.Decimal {
	if o.AmendTo.IsPositive() && o.AmendTo.LessThan(o.Volume) {
		return o.AmendTo
	}
	return o.Volume
}

// amendCommand validates an amend of o to volume against the pair's grid
// and returns the command the API sends: Qty is the new total quantity in
// lots (prepareAmend converts it for the core).
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
	if cur := currentVolume(o); !v.LessThan(cur) || !v.GreaterThan(o.DealVolume) {
		return matching.Command{}, apperr.New(apperr.CodeTradeAmendVolume, cur.String(), o.DealVolume.String())
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

// prepareAmend converts an amend from the API (Qty = the new total
// quantity) into the core's form against the live book, before it is
// journalled: Qty becomes the new remaining quantity, and two fields the
// core ignores for an amend carry what settlement needs, so a replayed
// journal settles it the same way: Quote the new total and StopPrice the
// total before, both in lots. An amend that would not reduce the order
// (it filled further since the API checked, or a redelivered message
// already applied) gets Qty 0, which the core refuses with no change
// (Quote still carries the new total it asked for).
// An order that is not live is left for the core to refuse.
//
// An amend the order's fills overtook (it filled, since the API accepted
// the amend, up to the new total or so close to it that the rest is below
// the pair's minimum quantity or notional) cancels the rest instead: the
// user asked for at most that total, so the order must not go on filling
// its old volume. (Refusing it, as before, left the order in the book with
// its old volume after the amend was answered success.)
func (e *Engine) prepareAmend(c *matching.Command) {
	total := c.Qty
	// Quote carries the new total whatever happens, so settlement can
	// withdraw the amend's outbox record (and a refused amend's pending
	// volume) by it.
	c.Price, c.Quote, c.StopPrice = 0, total, 0
	b := e.books.Book(c.Symbol)
	if b == nil {
		return
	}
	o, ok := b.Order(c.OrderID)
	if !ok || o.UserID != c.UserID {
		return
	}
	before := o.Filled + o.Qty
	if total >= before {
		// Quote keeps the refused total, so settlement of the refusal can
		// withdraw the order's pending amend of it (amendRefused).
		c.Qty, c.Quote = 0, total
		return
	}
	rest := total - o.Filled
	if cfg := b.Config(); o.Filled > 0 && (rest < 1 || rest < cfg.MinQty || o.Price*rest < cfg.MinNotional) {
		// (Quote, which a cancel ignores, still names the amend.)
		*c = matching.Command{Kind: matching.CmdCancel, Seq: c.Seq, OrderID: c.OrderID, UserID: c.UserID, Symbol: c.Symbol, Quote: total}
		return
	}
	c.Qty, c.Quote, c.StopPrice = rest, total, before
}

// amended settles the Amended event of an API amend: the hold of the
// removed quantity is released and the order's volume and hold are stored,
// in one posting "amend:<orderId>:<seq>". Other Amended events (the core's
// STP decrement) change no hold: the order's end releases what it left.
//
// The new hold is computed from the command (the order's price times the
// new total for a buy, the new total for a sell: what PlaceOrder held), so
// it does not depend on what the store holds when a batch is settled again;
// the order cache gets it at once for a later Done of the same batch.
func (s *settler) amended(ctx context.Context, cmd *matching.Command, e *matching.Event) (job, error) {
	if cmd.Kind != matching.CmdAmend || e.Reason != matching.ReasonNone || e.OrderID != cmd.OrderID ||
		cmd.Quote <= 0 || cmd.StopPrice <= cmd.Quote {
		return nil, nil
	}
	m, err := s.load(ctx, e.OrderID)
	if err != nil {
		return nil, err
	}
	cfg := s.cfgs[e.Symbol]
	holdOf := func(lots int64) decimal.Decimal {
		if m.side == matching.Buy {
			return cfg.FromQuoteUnits(e.Price * lots)
		}
		return cfg.FromLots(lots)
	}
	before, after := holdOf(cmd.StopPrice), holdOf(cmd.Quote)
	m.hold = after
	ids := fmtID(e.OrderID)
	upd := store.NewUpdate().Set("volume", cfg.FromLots(cmd.Quote)).Set("hold", after).
		Set("amendSeq", int64(e.Seq)).Set("updatedAt", s.now())
	// Two amends of one order settled concurrently (one batch): the later
	// one's values must stay.
	cond := store.And(store.ItemExists(),
		store.Or(store.NotExists("amendSeq"), store.Compare("amendSeq", store.CmpLt, int64(e.Seq))))
	post := ledger.Posting{ID: "amend:" + ids + ":" + fmtID(e.Seq), Reason: "order_release",
		Legs:  []ledger.Leg{ledger.ReleaseLeg(spotAccount(m.uid), m.holdCoin, before.Sub(after))},
		Meta:  map[string]string{"order": ids, "amend": "1"},
		Extra: []store.Op{store.UpdateOp(orderKey(e.OrderID), upd, cond)}}
	sent := s.amendSent(cmd)
	return func(ctx context.Context) error {
		_, err := s.led.Post(ctx, post)
		var xf *ledger.ExtraFailedError
		if errors.As(err, &xf) {
			// A later amend is stored already: only the release is left.
			post.Extra = nil
			_, err = s.led.Post(ctx, post)
		}
		if err != nil {
			return err
		}
		return sent(ctx)
	}, nil
}

// amendSent is the job that deletes an amend's outbox record once the
// engine has sequenced the amend (applied, refused or turned into a
// cancel): cmd.Quote is its new total, and a record of a newer amend of
// the order (another total) stays.
func (s *settler) amendSent(cmd *matching.Command) job {
	p, ok := s.pairs[cmd.Symbol]
	if !ok || cmd.Quote <= 0 {
		return func(context.Context) error { return nil } // journalled before amends had records
	}
	return s.markOnce(store.DeleteOp(amendOutboxKey(p.Symbol, cmd.OrderID), store.Eq("qty", cmd.Quote)))
}

// amendRefused settles the engine's refusal of an amend: the order's
// pending amend of that volume ("amendTo", set by AmendOrder) did not
// happen, so it no longer bounds the next amend. A refusal of an older
// amend leaves a newer, smaller pending amend alone.
func (s *settler) amendRefused(cmd *matching.Command) job {
	cfg, ok := s.cfgs[cmd.Symbol]
	if !ok || cmd.Quote <= 0 {
		return nil // journalled before refusals carried the volume
	}
	withdraw := s.markOnce(store.UpdateOp(orderKey(cmd.OrderID), store.NewUpdate().Remove(attrAmendTo),
		store.And(store.ItemExists(), store.Eq(attrAmendTo, cfg.FromLots(cmd.Quote)))))
	sent := s.amendSent(cmd)
	return func(ctx context.Context) error {
		if err := withdraw(ctx); err != nil {
			return err
		}
		return sent(ctx)
	}
}
