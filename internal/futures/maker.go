package futures

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/engine"
	"tenger/internal/matching"
	"tenger/internal/risk"
)

// Funder tops a local user's futures account up (the simulator's faucet).
type Funder interface {
	FundFutures(ctx context.Context, uid, coin string, amount decimal.Decimal) error
}

// Maker is the local market-maker simulator of the contracts (--dev): a
// user that keeps a few bids and asks around each contract's mark, so that
// a new install has books to trade against. Its position is closed when
// it grows beyond MaxNotional.
type Maker struct {
	svc   *Service
	fund  Funder
	log   zerolog.Logger
	rnd   *rand.Rand
	Every time.Duration
}

// MakerUser is the simulator's user id (real users' are 8 digits).
const MakerUser = "mm-futures"

// makerBalance is what the simulator's futures account is kept at.
var makerBalance = decimal.NewFromInt(5_000_000)

// NewMaker returns the simulator.
func NewMaker(svc *Service, fund Funder, log zerolog.Logger) *Maker {
	n := uint64(time.Now().UnixNano())
	return &Maker{svc: svc, fund: fund, log: log, rnd: rand.New(rand.NewPCG(n, n>>7|1)), Every: 2 * time.Second}
}

// Run quotes until ctx ends.
func (m *Maker) Run(ctx context.Context) error {
	if err := m.svc.Open(ctx, MakerUser); err != nil {
		return err
	}
	t := time.NewTicker(m.Every)
	defer t.Stop()
	for {
		if err := m.Step(ctx); err != nil && ctx.Err() == nil {
			m.log.Warn().Err(err).Msg("futures maker")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Step requotes every open contract once.
func (m *Maker) Step(ctx context.Context) error {
	for _, c := range m.svc.o.Contracts.List() {
		if c.Closed {
			continue
		}
		if err := m.fund.FundFutures(ctx, MakerUser, c.Quote, makerBalance); err != nil {
			return err
		}
		pr, err := m.svc.prices(ctx, c)
		if err != nil {
			return err
		}
		// Quoted around the index, as makers hedged on the spot markets
		// quote: the book follows the index, and the mark follows both;
		// within 8% of the mark (orders beyond the 10% band are refused),
		// so a book far from a jumped index closes the gap round by round.
		center := pr.index.Div(c.PriceTick).Round(0).IntPart()
		if center <= 0 {
			continue
		}
		center = min(max(center, pr.markTicks*92/100), pr.markTicks*108/100)
		if _, err := m.svc.submit(ctx, engine.Command{Kind: engine.KindCancelAll, User: engine.UserNumber(MakerUser), UserID: MakerUser,
			Order: matching.Command{UserID: engine.UserNumber(MakerUser), Symbol: BookSymbol(c)}}); err != nil {
			return err
		}
		pos, err := m.svc.position(ctx, MakerUser, c, risk.PosBoth)
		if err != nil {
			return err
		}
		if pos != nil && pos.Dec("cost").GreaterThan(decimal.NewFromInt(1_000_000)) {
			if _, err := m.svc.PlaceOrder(ctx, MakerUser, PlaceRequest{Symbol: c.Symbol, ClosePosition: true}); err != nil {
				return err
			}
		}
		for level := int64(1); level <= 5; level++ {
			// 0.02 % apart, the first a tick or more from the mark.
			off := max(center*2*level/10_000, level)
			for _, side := range []string{Buy, Sell} {
				price := center - off
				if side == Sell {
					price = center + off
				}
				qty := (300 + m.rnd.Int64N(500)) * max(c.MinQty, 1) // some 1.5–4 BTC a side on BTCUSDT
				_, err := m.svc.PlaceOrder(ctx, MakerUser, PlaceRequest{Symbol: c.Symbol, Side: side, Type: TypeLimit, TimeInForce: TIFPostOnly,
					Price: c.PriceTick.Mul(decimal.NewFromInt(price)).String(), Volume: strconv.FormatInt(qty, 10)})
				if err != nil {
					return fmt.Errorf("%s %s: %w", c.Symbol, side, err)
				}
			}
		}
	}
	return nil
}
