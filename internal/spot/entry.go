package spot

import (
	"context"
	"errors"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/engine"
	"tenger/internal/matching"
	"tenger/internal/risk"
)

// Order entry on the engine that owns the balances (Options.Engine): an
// order, a cancel, an amendment or a cancel-all is one engine command,
// checked against the balances in the engine and answered from there. The
// REST routes answer once the store shows the command (read-your-writes: the
// open orders the page reloads include it); the WebSocket and batch
// routes, whose callers keep many commands in flight, answer once the
// command is in the engine's journal (AckAtJournal).

// EngineClient applies commands in the engine: Runtime in one process, the
// engine task's private endpoint in AWS.
type EngineClient interface {
	// Submit answers once the command is durable in the journal.
	Submit(ctx context.Context, c engine.Command) engine.Result
	// SubmitProjected answers once the store shows it too.
	SubmitProjected(ctx context.Context, c engine.Command) (engine.Result, error)
}

type ackKey struct{}

// AckAtJournal marks a request whose answer need not wait for the store
// projection (the WebSocket and batch order entry).
func AckAtJournal(ctx context.Context) context.Context { return context.WithValue(ctx, ackKey{}, true) }

func (s *Service) submit(ctx context.Context, c engine.Command) (engine.Result, error) {
	if v, _ := ctx.Value(ackKey{}).(bool); v {
		return s.eng.Submit(ctx, c), nil
	}
	res, err := s.eng.SubmitProjected(ctx, c)
	if errors.Is(err, ErrNotProjected) {
		// Applied and durable; the store shows it a little later.
		s.log.Warn().Err(err).Uint64("seq", res.Seq).Msg("spot: answered before the store shows the command")
		err = nil
	}
	return res, err
}

// toRate is a fee fraction in the engine's parts per 10^8.
func toRate(d decimal.Decimal) risk.Rate { return risk.Rate(d.Shift(8).IntPart()) }

// placeOnEngine checks an order and places it in the engine (PlaceOrder).
func (s *Service) placeOnEngine(ctx context.Context, uid string, req PlaceRequest, maker, taker decimal.Decimal) (string, error) {
	var fp string
	if req.ClientOrderID != "" {
		fp = fingerprint(req)
	}
	for attempt := 0; ; attempt++ {
		id := s.newOrderID()
		c, err := s.check(ctx, uid, req, id)
		if err != nil {
			return "", err
		}
		spec := risk.OrderSpec{Kind: risk.KindSpot, Maker: toRate(maker), Taker: toRate(taker)}
		if c.byBase {
			band, err := s.bandPrice(ctx, c.pair)
			if err != nil {
				return "", err
			}
			// The engine holds what the user can spend, at most this.
			c.cmd.Quote, spec.UpToAvailable = budgetLimit(&c, band), true
		}
		note := orderNote{Type: c.typ, ClientOrderID: req.ClientOrderID, Fingerprint: fp}
		if c.cmd.Quote > 0 && !c.byBase {
			note.QuoteVolume = c.cfg.FromQuoteUnits(c.cmd.Quote).String()
		}
		if c.stp != matching.STPCancelTaker.String() {
			note.STP = c.stp
		}
		// The client order id is the command's Ref: the engine places one
		// order per id within its window, for every process that submits,
		// and answers a retry with the first order (Exists) or refuses
		// another order under the same id (Conflict); the store's client id
		// item answers retries after that (existingClientOrder).
		res, err := s.submit(ctx, engine.Command{Kind: engine.KindPlace, Ref: req.ClientOrderID, User: userNum(uid), UserID: uid,
			Order: c.cmd, Spec: spec, Note: encodeNote(note)})
		if err != nil {
			return "", apperr.New(apperr.CodeTradeBusy).WithCause(err)
		}
		switch res.Code {
		case engine.Exists:
			return fmtID(res.OrderID), nil
		case engine.Conflict:
			return "", apperr.New(apperr.CodeTradeClientOrderReused)
		case engine.OK, engine.Rejected:
			// A rejected order is stored as REJECTED with the book's
			// reason; unless the book refused its id as a duplicate (a
			// live order has it): then another id is tried.
			if res.Code == engine.Rejected && res.Reason == matching.ReasonDuplicateOrderID && attempt < 3 {
				continue
			}
			return fmtID(id), nil
		case engine.Insufficient:
			return "", apperr.New(apperr.CodeTradeInsufficient)
		case engine.UnknownPair:
			return "", apperr.New(apperr.CodeTradeSymbolClosed, c.pair.Name())
		case engine.Invalid:
			return "", apperr.New(apperr.CodeTradeTooLarge)
		default:
			return "", apperr.New(apperr.CodeTradeBusy)
		}
	}
}

// orderOnEngine sends a cancel, an amendment or a cancel-all of an order
// the store shows open; the engine refusing it means the order ended
// meanwhile.
func (s *Service) orderOnEngine(ctx context.Context, uid string, kind engine.Kind, cmd matching.Command, note []byte) error {
	res, err := s.submit(ctx, engine.Command{Kind: kind, User: userNum(uid), UserID: uid, Order: cmd, Note: note})
	if err != nil {
		return apperr.New(apperr.CodeTradeBusy).WithCause(err)
	}
	switch res.Code {
	case engine.OK:
		return nil
	case engine.Rejected, engine.UnknownOrder:
		if kind == engine.KindAmend && res.Code == engine.Rejected && res.Reason != matching.ReasonUnknownOrder {
			return errAmendRefused
		}
		return apperr.New(apperr.CodeTradeOrderFinished)
	case engine.UnknownPair:
		return apperr.New(apperr.CodeTradeOrderFinished)
	case engine.Insufficient:
		return apperr.New(apperr.CodeTradeInsufficient)
	default:
		return apperr.New(apperr.CodeTradeBusy)
	}
}

// errAmendRefused: the book refused an amendment of a live order (it
// would no longer reduce it).
var errAmendRefused = errors.New("spot: the amendment would not reduce the order")
