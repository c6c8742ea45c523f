package spot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/coins"
	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/projector"
	"tenger/internal/risk"
	"tenger/internal/store"
)

// RuntimeOptions configure the engine that owns the balances orders trade
// against, with the store projection and market data behind it.
type RuntimeOptions struct {
	// Dir holds the engine's journal and snapshots.
	Dir     string
	Policy  journal.Policy
	Store   store.Store
	Coins   *coins.Catalogue
	Markets *markets.Catalogue
	// Feed receives trades and depth (nil: none).
	Feed marketdata.Feed
	// Prices value fills for the fee tier's volume.
	Prices RefPrices
	// Counter names the other sides of the money commands (projector).
	Counter projector.Counter
	// Fence is carried by every write of the projection
	// (projector.Options.Fence); nil: none.
	Fence *store.Op
	// SnapshotEvery is the snapshot interval (default 30 s; < 0 never).
	SnapshotEvery time.Duration
	// The engine's other products (perpetual futures): Other says a book
	// symbol is theirs (spot's projection leaves it alone), Extras write
	// their items with each batch, Hooks see each batch once it is in the
	// store (their market data, their liquidations).
	Other  func(symbol uint32) bool
	Extras []projector.Extra
	Hooks  []func(*engine.Batch)
	Log    zerolog.Logger
	Now    func() time.Time
}

// Runtime runs the engine, its projection and its market data: Submit
// answers at the journal, SubmitProjected once the store holds the
// command's batch (read-your-writes for the REST routes). Coins and pairs
// of the catalogues are listed in the engine at start and when the pair
// catalogue grows.
type Runtime struct {
	o      RuntimeOptions
	Engine *engine.Engine
	runner *projector.Runner
	pub    *Publisher
	stop   chan struct{}
	done   sync.WaitGroup
	// listed is the pair catalogue version the engine has every pair of.
	listed uint64
	// closed makes Close run once (the engine task closes the runtime
	// before its lease is given up, and again with the rest).
	closed   sync.Once
	closeErr error
}

// EngineDecimals is a coin's engine unit: 8 decimals, more when one of its
// chains moves finer amounts (TON's 9), so every deposit is exact.
func EngineDecimals(c coins.Coin) int32 {
	d := int32(8)
	for _, ch := range c.Chains {
		d = max(d, ch.Precision)
	}
	return d
}

// StartRuntime opens the engine (recovering it from its snapshots and
// journal, and handing the projection what it lacks), lists the
// catalogues' coins and pairs, and starts the loops.
func StartRuntime(ctx context.Context, o RuntimeOptions) (*Runtime, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SnapshotEvery == 0 {
		o.SnapshotEvery = 30 * time.Second
	}
	decimals := map[string]int32{}
	for _, c := range o.Coins.List() {
		decimals[c.Symbol] = EngineDecimals(c)
	}
	r := &Runtime{o: o, stop: make(chan struct{})}
	proj := NewProjection(ProjectionOptions{Markets: o.Markets, Prices: o.Prices, Other: o.Other,
		Decimals: func(coin string) int32 { return decimals[coin] }})
	p := projector.New(projector.Options{Store: o.Store, Counter: o.Counter, Extras: append([]projector.Extra{proj.Ops}, o.Extras...),
		Fence: o.Fence})
	start, err := p.Checkpoint(ctx)
	if err != nil {
		return nil, err
	}
	var hooks []func(*engine.Batch)
	if o.Feed != nil {
		r.pub = NewPublisher(o.Feed, o.Markets, nil, o.Now)
		hooks = append(hooks, r.pub.OnBatch)
	}
	hooks = append(hooks, o.Hooks...)
	r.runner = projector.NewRunner(p, start, o.Log, hooks...)
	eo := engine.Options{Dir: o.Dir, Policy: o.Policy, Checkpoint: p.Checkpoint, Resume: p.Resume,
		Deliver: r.runner.Enqueue, Now: o.Now, Log: o.Log}
	if r.pub != nil {
		// Market data stores trades a moment after the projection: the
		// trades of the journal it may have lost are published again (it
		// skips those it has).
		eo.Replayed = r.pub.OnBatch
	}
	r.Engine, err = engine.Open(ctx, eo)
	if err != nil {
		r.runner.Close()
		return nil, err
	}
	if r.pub != nil {
		r.pub.read = r.Engine.Read
	}
	if err := r.list(ctx, decimals); err != nil {
		_ = r.Close()
		return nil, err
	}
	r.PublishDepth()
	r.loop(50*time.Millisecond, func() {
		if r.pub != nil {
			r.pub.Depth(false)
		}
		if v := o.Markets.Version(); v != r.listed {
			if err := r.list(context.Background(), decimals); err != nil {
				o.Log.Error().Err(err).Msg("spot: pairs not listed in the engine")
			}
		}
	})
	if o.SnapshotEvery > 0 {
		r.loop(o.SnapshotEvery, func() {
			if err := r.syncFeed(); err != nil {
				o.Log.Error().Err(err).Msg("spot: market data not stored; snapshot postponed")
				return
			}
			if err := r.Engine.Snapshot(r.runner.Projected()); err != nil {
				o.Log.Error().Err(err).Msg("spot: engine snapshot")
			}
		})
	}
	return r, nil
}

// loop runs fn every interval until Close.
func (r *Runtime) loop(every time.Duration, fn func()) {
	r.done.Add(1)
	go func() {
		defer r.done.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-t.C:
				fn()
			}
		}
	}()
}

// list lists every coin and pair the engine does not have yet.
func (r *Runtime) list(ctx context.Context, decimals map[string]int32) error {
	version := r.o.Markets.Version()
	// What the engine lists already is not submitted again: every command
	// takes a place in the journal.
	haveCoin, haveBook := map[string]bool{}, map[uint32]bool{}
	r.Engine.Read(func(s *engine.State) {
		for _, c := range s.Accounts().Coins() {
			haveCoin[c.Code] = true
		}
		for _, p := range r.o.Markets.List() {
			haveBook[symbolNum(p.Symbol)] = s.Book(symbolNum(p.Symbol)) != nil
		}
	})
	for _, c := range r.o.Coins.List() {
		if haveCoin[c.Symbol] {
			continue
		}
		res := r.Engine.Submit(ctx, engine.Command{Kind: engine.KindAddCoin, Coin: c.Symbol, Decimals: decimals[c.Symbol]})
		if res.Code != engine.OK && res.Code != engine.Exists {
			return fmt.Errorf("spot: listing coin %s in the engine: %s", c.Symbol, res.Code)
		}
	}
	for _, p := range r.o.Markets.List() {
		if haveBook[symbolNum(p.Symbol)] {
			continue
		}
		spec, err := pairSpec(p, decimals)
		if err != nil {
			return err
		}
		res := r.Engine.Submit(ctx, engine.Command{Kind: engine.KindAddPair, Pair: spec})
		if res.Code != engine.OK && res.Code != engine.Exists {
			return fmt.Errorf("spot: listing pair %s in the engine: %s", p.Symbol, res.Code)
		}
	}
	r.listed = version
	return nil
}

// pairSpec is a pair in engine units: a lot in base units and a quote
// unit (tick × lot) in quote units must be whole.
func pairSpec(p markets.Pair, decimals map[string]int32) (engine.PairSpec, error) {
	cfg := symbolConfig(p)
	bd, ok1 := decimals[p.Base]
	qd, ok2 := decimals[p.Quote]
	if !ok1 || !ok2 {
		return engine.PairSpec{}, fmt.Errorf("spot: pair %s trades a coin the coin catalogue lacks", p.Symbol)
	}
	lot := p.LotSize.Shift(bd)
	qu := cfg.QuoteUnit().Shift(qd)
	if !lot.IsInteger() || !qu.IsInteger() || !lot.IsPositive() || !qu.IsPositive() {
		return engine.PairSpec{}, fmt.Errorf("spot: pair %s: its lot or tick × lot is finer than its coins' engine units", p.Symbol)
	}
	id := symbolNum(p.Symbol)
	bc, err := cfg.BookConfig(id)
	if err != nil {
		return engine.PairSpec{}, err
	}
	return engine.PairSpec{Symbol: id, Name: p.Symbol, Base: p.Base, Quote: p.Quote, LotUnits: lot.IntPart(),
		QuoteUnitUnits: qu.IntPart(), Book: bc}, nil
}

// syncFeed has market data store the trades handed to it: a snapshot
// drops the journal that could publish them again.
func (r *Runtime) syncFeed() error {
	if f, ok := r.o.Feed.(interface{ Sync(context.Context) error }); ok {
		return f.Sync(context.Background())
	}
	return nil
}

// PublishDepth publishes every book's depth now, whether or not a command
// moved it: after a start, and once the market data has loaded what it
// stored (its stored depth is older than the recovered books).
func (r *Runtime) PublishDepth() {
	if r.pub != nil {
		r.pub.MarkAll()
		r.pub.Depth(true)
	}
}

// Decimals is a coin's engine unit; ok is false for a coin the catalogue
// lacks (the engine lists every coin of it).
func (r *Runtime) Decimals(coin string) (int32, bool) { return CoinDecimals(r.o.Coins, coin) }

// CoinDecimals is the engine unit of the catalogue's coin; ok is false for
// a coin the catalogue lacks.
func CoinDecimals(cat *coins.Catalogue, coin string) (int32, bool) {
	c, ok := cat.Coin(coin)
	if !ok {
		return 0, false
	}
	return EngineDecimals(c), true
}

// Submit applies a command and answers once it is durable.
func (r *Runtime) Submit(ctx context.Context, c engine.Command) engine.Result {
	return r.Engine.Submit(ctx, c)
}

// ErrNotProjected says a command was applied but the store did not show
// it within the wait.
var ErrNotProjected = errors.New("spot: the store does not show the command yet")

// SubmitProjected applies a command and answers once the store shows it.
func (r *Runtime) SubmitProjected(ctx context.Context, c engine.Command) (engine.Result, error) {
	res := r.Engine.Submit(ctx, c)
	if res.Code == engine.Unavailable {
		return res, nil
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := r.runner.WaitProjected(wctx, res.Seq); err != nil {
		return res, fmt.Errorf("%w: %v", ErrNotProjected, err)
	}
	return res, nil
}

// Seq is the engine's last applied command.
func (r *Runtime) Seq() uint64 {
	var seq uint64
	r.Engine.Read(func(s *engine.State) { seq = s.Seq() })
	return seq
}

// ProjectionLag is the projection's lag quantiles since the last reset.
func (r *Runtime) ProjectionLag(reset bool, qs ...float64) []time.Duration {
	return r.runner.Lag(reset, qs...)
}

// Close stops the loops, writes a last snapshot, closes the engine and
// writes what the projection has queued. Callers stop submitting first.
// Later calls answer the first's error.
func (r *Runtime) Close() error {
	r.closed.Do(func() { r.closeErr = r.close() })
	return r.closeErr
}

func (r *Runtime) close() error {
	close(r.stop)
	r.done.Wait()
	var errs []error
	if r.pub != nil {
		r.pub.Depth(true)
	}
	if r.o.SnapshotEvery > 0 {
		errs = append(errs, r.Engine.Snapshot(r.runner.Projected()))
	}
	errs = append(errs, r.Engine.Close())
	r.runner.Close()
	return errors.Join(errs...)
}

// Verify waits until the store shows every command the engine has applied,
// then compares every balance the engine owns with the store's: the
// engine's journal-derived balances and the store's projection must agree
// (the ledger's audit then proves the postings explain the store). It
// returns one line per disagreement.
func (r *Runtime) Verify(ctx context.Context) ([]string, error) {
	var seq uint64
	type bal struct {
		acct        ledger.Account
		coin        string
		avail, held int64
		decimals    int32
	}
	var bals []bal
	r.Engine.Read(func(s *engine.State) {
		seq = s.Seq()
		a := s.Accounts()
		for i, u := range a.Users() {
			for c, ci := range a.Coins() {
				for _, k := range []risk.Kind{risk.KindSpot, risk.KindFutures} {
					b := a.At(risk.Slot(i), k, risk.Coin(c))
					bals = append(bals, bal{acct: projector.Account(u.ID, k), coin: ci.Code, avail: b.Avail, held: b.Held, decimals: ci.Decimals})
				}
			}
		}
		// The futures stage's own balances: settlement per coin, a fund per contract.
		f := s.Futures()
		for c, ci := range a.Coins() {
			if v := f.Settlement(risk.Coin(c)); v != 0 {
				bals = append(bals, bal{acct: ledger.SettlementAccount(), coin: ci.Code, avail: v, decimals: ci.Decimals})
			}
		}
		for _, k := range s.Contracts() {
			if c, ok := s.Coin(k.Quote); ok {
				bals = append(bals, bal{acct: ledger.InsuranceAccount(k.Name), coin: k.Quote, avail: f.Insurance(k.Symbol),
					decimals: a.Coins()[c].Decimals})
			}
		}
	})
	if err := r.runner.WaitProjected(ctx, seq); err != nil {
		return nil, fmt.Errorf("spot: the projection did not reach the engine's sequence %d: %w", seq, err)
	}
	led := ledger.New(r.o.Store, nil)
	var problems []string
	for _, b := range bals {
		got, err := led.Balance(ctx, b.acct, b.coin)
		if err != nil {
			return nil, err
		}
		avail, held := decimal.New(b.avail, -b.decimals), decimal.New(b.held, -b.decimals)
		if !got.Available.Equal(avail) || !got.Frozen.Equal(held) {
			problems = append(problems, fmt.Sprintf("%s %s: the engine holds %s/%s, the store %s/%s",
				b.acct, b.coin, avail, held, got.Available, got.Frozen))
		}
	}
	return problems, nil
}
