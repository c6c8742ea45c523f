package marketdata

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/markets"
	"tenger/internal/wallet"
)

// Accounts is what the market maker needs from the account side; the lead
// implements it with auth and the ledger.
//
// The maker's funds are a "dev faucet": Fund credits the maker user from a
// ledger system account standing for money that came from outside the
// exchange (like a deposit), so `tenger audit` balances.
type Accounts interface {
	// EnsureMakerUser returns the user id of the system user with this name,
	// creating it on first use.
	EnsureMakerUser(ctx context.Context, name string) (uid string, err error)
	// Fund tops the user's spot balance of coin up to at least amount
	// (crediting only the difference), so calling it at every start does
	// not inflate the supply.
	Fund(ctx context.Context, uid, coin string, amount decimal.Decimal) error
}

// Maker user names.
const (
	MakerQuoter = "market-maker-a" // keeps the two-sided books
	MakerTaker  = "market-maker-b" // trades against them now and then
)

// MakerOptions configure the market-maker simulator.
type MakerOptions struct {
	Placer   OrderPlacer
	Accounts Accounts
	Markets  *markets.Catalogue
	// Seed prices the reference price of each pair; the seeded wallet table.
	Seed wallet.Prices
	// Last, when set, continues from the last traded price after a restart.
	Last func(symbol string) (decimal.Decimal, bool)
	// Symbols limits the pairs (default: every open pair).
	Symbols []string
	// Interval between rounds (default 2 s).
	Interval time.Duration
	// Levels per side (default 8).
	Levels int
	// Spread is the relative distance between levels (default 0.0008).
	Spread decimal.Decimal
	// TradeProb is the chance per round and pair that the taker trades (default 0.5).
	TradeProb float64
	// FundUSDT is the value each maker user holds of every coin (default 5,000,000 USDT).
	FundUSDT decimal.Decimal
	// Rand drives the simulation (default: seeded from the clock).
	Rand *rand.Rand
	Log  zerolog.Logger
}

// Maker keeps realistic two-sided books on the pairs so a fresh local
// exchange looks alive: the quoter user refreshes Levels bids and asks
// around a reference price that follows a mean-reverting random walk around
// the seed price, and the taker user occasionally crosses the best level.
type Maker struct {
	o      MakerOptions
	mu     sync.Mutex
	quoter string
	taker  string
	ref    map[string]decimal.Decimal
	seed   map[string]decimal.Decimal
	pairs  []markets.Pair
}

// NewMaker builds the simulator; call Run (or Setup and Step).
func NewMaker(o MakerOptions) *Maker {
	if o.Interval <= 0 {
		o.Interval = 2 * time.Second
	}
	if o.Levels <= 0 {
		o.Levels = 8
	}
	if !o.Spread.IsPositive() {
		o.Spread = decimal.RequireFromString("0.0008")
	}
	if o.TradeProb <= 0 {
		o.TradeProb = 0.5
	}
	if !o.FundUSDT.IsPositive() {
		o.FundUSDT = decimal.NewFromInt(5_000_000)
	}
	if o.Rand == nil {
		n := uint64(time.Now().UnixNano())
		o.Rand = rand.New(rand.NewPCG(n, n>>7|1))
	}
	return &Maker{o: o, ref: map[string]decimal.Decimal{}, seed: map[string]decimal.Decimal{}}
}

// usdValue is the USDT value of one unit of coin.
func (m *Maker) usdValue(ctx context.Context, coin string) (decimal.Decimal, bool) {
	switch strings.ToUpper(coin) {
	case "USDT":
		return decimal.NewFromInt(1), true
	}
	if p, ok, err := m.o.Seed.USDTPrice(ctx, coin); err == nil && ok && p.IsPositive() {
		return p, true
	}
	if strings.EqualFold(coin, "MNT") {
		if f, err := m.o.Seed.FiatPerUSDT(ctx); err == nil && f.IsPositive() {
			return decimal.NewFromInt(1).DivRound(f, 18), true
		}
	}
	return decimal.Zero, false
}

// seedPrice is the price the maker quotes a pair around (the seed table's
// USDT values of its coins) and those values; ok is false when a coin has
// none.
func (m *Maker) seedPrice(ctx context.Context, p markets.Pair) (seed, base, quote decimal.Decimal, ok bool) {
	bu, ok1 := m.usdValue(ctx, p.Base)
	qu, ok2 := m.usdValue(ctx, p.Quote)
	if !ok1 || !ok2 {
		return decimal.Zero, decimal.Zero, decimal.Zero, false
	}
	seed = bu.DivRound(qu, p.PricePrecision)
	return seed, bu, qu, seed.IsPositive()
}

// SeedPrices are the prices the maker quotes the pairs around, by symbol,
// for the history a new install starts with (Service.SeedHistory).
func (m *Maker) SeedPrices(ctx context.Context) map[string]decimal.Decimal {
	want := map[string]bool{}
	for _, s := range m.o.Symbols {
		want[strings.ToLower(s)] = true
	}
	out := map[string]decimal.Decimal{}
	for _, p := range m.o.Markets.List() {
		if len(want) > 0 && !want[p.Symbol] {
			continue
		}
		if seed, _, _, ok := m.seedPrice(ctx, p); ok {
			out[p.Symbol] = seed
		}
	}
	return out
}

// Setup creates and funds the maker users and fixes the reference prices.
// Pairs without a seed price are left out.
func (m *Maker) Setup(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var err error
	if m.quoter, err = m.o.Accounts.EnsureMakerUser(ctx, MakerQuoter); err != nil {
		return fmt.Errorf("maker: user: %w", err)
	}
	if m.taker, err = m.o.Accounts.EnsureMakerUser(ctx, MakerTaker); err != nil {
		return fmt.Errorf("maker: user: %w", err)
	}
	want := map[string]bool{}
	for _, s := range m.o.Symbols {
		want[strings.ToLower(s)] = true
	}
	funded := map[string]bool{}
	for _, p := range m.o.Markets.List() {
		if len(want) > 0 && !want[p.Symbol] {
			continue
		}
		seed, bu, qu, ok := m.seedPrice(ctx, p)
		if !ok {
			m.o.Log.Info().Str("symbol", p.Symbol).Msg("maker: no seed price, pair skipped")
			continue
		}
		m.seed[p.Symbol] = seed
		m.ref[p.Symbol] = seed
		if m.o.Last != nil {
			if l, ok := m.o.Last(p.Symbol); ok && l.IsPositive() {
				m.ref[p.Symbol] = l
			}
		}
		m.pairs = append(m.pairs, p)
		for _, c := range []struct {
			coin string
			usd  decimal.Decimal
		}{{p.Base, bu}, {p.Quote, qu}} {
			if funded[c.coin] {
				continue
			}
			funded[c.coin] = true
			amt := m.o.FundUSDT.DivRound(c.usd, 8)
			for _, uid := range []string{m.quoter, m.taker} {
				if err := m.o.Accounts.Fund(ctx, uid, c.coin, amt); err != nil {
					return fmt.Errorf("maker: fund %s: %w", c.coin, err)
				}
			}
		}
	}
	return nil
}

// Run sets up and then runs a round every Interval until ctx ends. Errors
// of a round are logged, not fatal.
func (m *Maker) Run(ctx context.Context) error {
	if err := m.Setup(ctx); err != nil {
		return err
	}
	t := time.NewTicker(m.o.Interval)
	defer t.Stop()
	for {
		if err := m.Step(ctx); err != nil && ctx.Err() == nil {
			m.o.Log.Warn().Err(err).Msg("maker: round")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Step runs one round on every pair: move the reference price, replace the
// quoter's orders, and maybe let the taker cross the best level.
func (m *Maker) Step(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var first error
	for _, p := range m.pairs {
		if err := m.stepPair(ctx, p); err != nil && first == nil {
			first = fmt.Errorf("%s: %w", p.Symbol, err)
		}
	}
	return first
}

// Reference returns the current reference price of a pair.
func (m *Maker) Reference(symbol string) (decimal.Decimal, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.ref[symbol]
	return r, ok
}

func (m *Maker) stepPair(ctx context.Context, p markets.Pair) (rerr error) {
	r := m.o.Rand
	// Mean-reverting random walk: 5% pull to the seed, ~0.15% noise.
	ref, seed := m.ref[p.Symbol], m.seed[p.Symbol]
	noise := decimal.NewFromFloat(r.NormFloat64() * 0.0015).Round(8)
	ref = ref.Add(seed.Sub(ref).Mul(decimal.RequireFromString("0.05"))).Mul(decimal.NewFromInt(1).Add(noise))
	ref = roundTo(ref, p.PriceTick, false)
	if !ref.IsPositive() {
		ref = seed
	}
	m.ref[p.Symbol] = ref

	// The new quotes go in before the old ones are cancelled, so the book
	// is never empty between two steps (a trader's order placed in such a
	// moment would rest far from the market, and the next step's taker
	// would fill it there). A new quote that crosses an old one of the
	// quoter is cancelled by self-trade prevention instead of trading.
	old, err := m.o.Placer.OpenOrders(ctx, m.quoter, p.Symbol)
	if err != nil {
		return err
	}
	defer func() {
		for _, id := range old {
			if err := m.cancel(ctx, m.quoter, p.Symbol, id); err != nil && rerr == nil {
				rerr = err
			}
		}
	}()
	ids, err := m.o.Placer.OpenOrders(ctx, m.taker, p.Symbol)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := m.cancel(ctx, m.taker, p.Symbol, id); err != nil {
			return err
		}
	}
	one := decimal.NewFromInt(1)
	var bestBid, bestAsk decimal.Decimal
	for i := 1; i <= m.o.Levels; i++ {
		off := m.o.Spread.Mul(decimal.NewFromInt(int64(i)))
		bid := roundTo(ref.Mul(one.Sub(off)), p.PriceTick, false)
		ask := roundTo(ref.Mul(one.Add(off)), p.PriceTick, true)
		if !ask.GreaterThan(bid) {
			ask = bid.Add(p.PriceTick)
		}
		if i == 1 {
			bestBid, bestAsk = bid, ask
		}
		if bid.IsPositive() {
			if _, err := m.o.Placer.PlaceLimit(ctx, m.quoter, p.Symbol, "BUY", bid, m.qty(p, bid, 1+float64(i)/2)); err != nil {
				return err
			}
		}
		if _, err := m.o.Placer.PlaceLimit(ctx, m.quoter, p.Symbol, "SELL", ask, m.qty(p, ask, 1+float64(i)/2)); err != nil {
			return err
		}
	}
	if r.Float64() < m.o.TradeProb {
		side, price := "BUY", bestAsk
		if r.IntN(2) == 0 {
			side, price = "SELL", bestBid
		}
		if price.IsPositive() {
			if _, err := m.o.Placer.PlaceLimit(ctx, m.taker, p.Symbol, side, price, m.qty(p, price, 0.5)); err != nil {
				return err
			}
		}
	}
	return nil
}

// cancel cancels one of the maker's orders. One that filled since it was
// listed is refused as already finished (14015): it is gone, as wanted.
func (m *Maker) cancel(ctx context.Context, uid, symbol, id string) error {
	err := m.o.Placer.Cancel(ctx, uid, symbol, id)
	if errors.Is(err, apperr.New(apperr.CodeTradeOrderFinished)) {
		return nil
	}
	return err
}

// qty is a random quantity on the lot grid worth a few times the minimum
// notional, never below the minimum quantity.
func (m *Maker) qty(p markets.Pair, price decimal.Decimal, scale float64) decimal.Decimal {
	minN := p.MinNotional
	if !minN.IsPositive() {
		minN = decimal.NewFromInt(10)
	}
	mult := decimal.NewFromFloat((1.2 + m.o.Rand.Float64()*4) * scale).Round(4)
	q := roundTo(minN.Mul(mult).DivRound(price, 18), p.LotSize, true)
	if q.LessThan(p.MinQty) {
		q = roundTo(p.MinQty, p.LotSize, true)
	}
	if floor := roundTo(minN.DivRound(price, 18), p.LotSize, true); q.LessThan(floor) {
		q = floor
	}
	return q
}

// roundTo puts v on the grid of step, rounding up or down.
func roundTo(v, step decimal.Decimal, up bool) decimal.Decimal {
	if !step.IsPositive() {
		return v
	}
	n := v.Div(step)
	if up {
		n = n.Ceil()
	} else {
		n = n.Floor()
	}
	return n.Mul(step)
}
