package futures

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/contracts"
	"tenger/internal/engine"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/perp"
	"tenger/internal/push"
	"tenger/internal/risk"
	"tenger/internal/spot"
	"tenger/internal/store"
)

// IndexFunc answers the index price of a contract: the reference price of
// its index pair (internal/refprice); ok is false while there is none.
type IndexFunc func(ctx context.Context, indexPair string) (price decimal.Decimal, ok bool, err error)

// Options configure the futures runtime.
type Options struct {
	Contracts *contracts.Catalogue
	// Decimals is a margin coin's engine unit (spot.EngineDecimals).
	Decimals func(coin string) int32
	Store    store.Store
	Index    IndexFunc
	// Feed receives the contracts' trades and depth (their market data,
	// under MarketSymbol); nil: none.
	Feed marketdata.Feed
	// Pusher receives each contract's mark channel (marks.go); nil: none.
	Pusher push.Pusher
	Log    zerolog.Logger
	Now    func() time.Time
	// Every is the price loop's period (default 1 s; < 0: no loop, Step
	// is called by the caller).
	Every time.Duration
}

// Runtime runs the futures side of the engine: it lists the contracts in
// it, writes their items behind it (Projection), publishes their market
// data, and runs the price loop: every second each contract's index (the
// reference price of its index pair), its book's impact prices and its
// mark (median of index + funding basis, index + moving-average basis,
// last price), sent to the engine (KindMark) whenever it moves; funding at
// each interval's end (KindFunding, once per contract and funding time);
// and the liquidation of the positions marks make due (KindLiquidate,
// two steps each).
type Runtime struct {
	o    Options
	proj *Projection
	pub  *spot.Publisher
	mcat *markets.Catalogue

	eng *spot.Runtime

	mu       sync.Mutex
	samplers map[string]*sampler
	devIndex map[string]decimal.Decimal
	// marks are the marks pushed on the mark channels (marks.go).
	marks marks

	steps   chan step
	stop    chan struct{}
	done    sync.WaitGroup
	started bool
}

// sampler is one contract's price state in the loop.
type sampler struct {
	perp.Sampler
	lastSample time.Time
	nextFund   time.Time
	mark       int64 // the last mark sent
	markSent   time.Time
	// quietUntil: no samples before it (after the simulator's jump, while
	// the book catches up with the new index).
	quietUntil time.Time
	// adl are the bands of the two auto-deleveraging queues (long, short)
	// as the price item keeps them, taken every ADLEvery.
	adl   [2]string
	adlAt time.Time
}

// ADLEvery is how often the price loop ranks a contract's positions for
// the auto-deleveraging indicator (O(positions) under the engine's lock).
const ADLEvery = 5 * time.Second

// adlBands ranks a contract's positions in their auto-deleveraging
// queues: each side's bands ("b1,b2,b3,b4", perp.ADLBands; empty when the
// side has no position).
func (r *Runtime) adlBands(id uint32) [2]string {
	var longs, shorts []int64
	r.read(func(s *engine.State) { longs, shorts = s.Futures().ADLScores(id, nil, nil) })
	var out [2]string
	for i, scores := range [][]int64{longs, shorts} {
		if b, ok := perp.NewADLBands(scores); ok {
			out[i] = fmt.Sprintf("%d,%d,%d,%d", b[0], b[1], b[2], b[3])
		}
	}
	return out
}

// devQuiet is how long the price loop takes no samples after the
// simulator moved an index: the book's distance to the old index would
// pull the mark back.
const devQuiet = 15 * time.Second

// New returns the runtime; Start it once the engine runs.
func New(o Options) (*Runtime, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Every == 0 {
		o.Every = time.Second
	}
	mcat, err := MarketCatalogue(o.Contracts)
	if err != nil {
		return nil, err
	}
	r := &Runtime{o: o, proj: NewProjection(o.Contracts, o.Decimals), mcat: mcat, samplers: map[string]*sampler{},
		devIndex: map[string]decimal.Decimal{}, steps: make(chan step, 4096), stop: make(chan struct{})}
	if o.Feed != nil {
		r.pub = spot.NewPublisher(o.Feed, mcat, r.read, o.Now)
	}
	return r, nil
}

// MarketCatalogue is the catalogue the contracts' market data is kept
// under.
func (r *Runtime) MarketCatalogue() *markets.Catalogue { return r.mcat }

// read is the engine's Read once it runs.
func (r *Runtime) read(fn func(s *engine.State)) {
	if r.eng != nil {
		r.eng.Engine.Read(fn)
	}
}

// EngineOptions sets what the engine's runtime needs of futures: which
// books are contracts', the projection of their items, and the hooks that
// publish their market data and liquidate.
func (r *Runtime) EngineOptions(o *spot.RuntimeOptions) {
	o.Other = r.proj.IsBook
	o.Extras = append(o.Extras, r.proj.Ops)
	if r.pub != nil {
		o.Hooks = append(o.Hooks, r.pub.OnBatch)
	}
	o.Hooks = append(o.Hooks, r.onBatch)
}

// step is a command a batch asks for: a position's liquidation or a
// trigger order's fire.
type step struct {
	liq  *risk.PositionRef
	trig *engine.TriggerRef
}

// onBatch queues the liquidations of the positions a batch's marks made
// due and the fires of the trigger orders its prices reached (a full
// queue drops them: the next mark finds them again).
func (r *Runtime) onBatch(b *engine.Batch) {
	for i := range b.Liquidatable {
		select {
		case r.steps <- step{liq: &b.Liquidatable[i]}:
		default:
		}
	}
	for i := range b.Triggered {
		select {
		case r.steps <- step{trig: &b.Triggered[i]}:
		default:
		}
	}
}

// Start lists the contracts the engine lacks and starts the loops.
func (r *Runtime) Start(ctx context.Context, eng *spot.Runtime) error {
	r.eng = eng
	if err := r.list(ctx); err != nil {
		return err
	}
	if err := r.restoreRates(ctx); err != nil {
		return err
	}
	r.started = true
	r.done.Add(1)
	go r.stepper()
	if r.pub != nil {
		r.pub.MarkAll()
		r.pub.Depth(true)
	}
	if r.o.Every > 0 {
		r.done.Add(1)
		go func() {
			defer r.done.Done()
			prices := time.NewTicker(r.o.Every)
			depth := time.NewTicker(100 * time.Millisecond)
			defer prices.Stop()
			defer depth.Stop()
			for {
				select {
				case <-r.stop:
					return
				case <-depth.C:
					if r.pub != nil {
						r.pub.Depth(false)
					}
				case <-prices.C:
					if err := r.Step(context.Background()); err != nil {
						r.o.Log.Error().Err(err).Msg("futures: price step")
					}
				}
			}
		}()
	}
	return nil
}

// Close stops the loops (before the engine closes).
func (r *Runtime) Close() {
	if !r.started {
		return
	}
	r.started = false
	close(r.stop)
	r.done.Wait()
}

// list lists every contract the engine does not have yet.
func (r *Runtime) list(ctx context.Context) error {
	have := map[uint32]bool{}
	r.read(func(s *engine.State) {
		for _, k := range s.Contracts() {
			have[k.Symbol] = true
		}
	})
	for _, c := range r.o.Contracts.List() {
		spec, err := Spec(c, r.o.Decimals(c.Quote))
		if err != nil {
			return err
		}
		if have[spec.Symbol] {
			continue
		}
		res := r.eng.Submit(ctx, engine.Command{Kind: engine.KindAddContract, Contract: spec})
		if res.Code != engine.OK && res.Code != engine.Exists {
			return fmt.Errorf("futures: listing %s in the engine: %s", c.Symbol, res.Code)
		}
	}
	return nil
}

// restoreRates reads the last funding rates paid (the marks' funding
// basis) from the price items.
func (r *Runtime) restoreRates(ctx context.Context) error {
	for _, c := range r.o.Contracts.List() {
		it, err := r.o.Store.Get(ctx, store.Key{PK: pkPrice + c.Symbol, SK: skPrice})
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		s := r.sampler(c)
		s.SetLastRate(it.Int("lastRateUnits"))
	}
	return nil
}

func (r *Runtime) sampler(c contracts.Contract) *sampler {
	s := r.samplers[c.Symbol]
	if s == nil {
		s = &sampler{Sampler: perp.Sampler{Interval: time.Duration(max(c.FundingIntervalHours, 1)) * time.Hour, BasisWindow: 60}}
		r.samplers[c.Symbol] = s
	}
	return s
}

// SetDevIndex sets a contract's index price (the simulator's, in --dev:
// /dev/index), as a market that jumped there: the basis samples start over
// and none is taken for devQuiet (the book's distance to the old index
// says nothing of the new one), so the mark follows at once (the median of
// two prices at the index and the last); a zero price gives the index back
// to the reference price.
func (r *Runtime) SetDevIndex(symbol string, price decimal.Decimal) error {
	c, ok := r.o.Contracts.Contract(symbol)
	if !ok {
		return fmt.Errorf("futures: no contract %s", symbol)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if price.IsZero() {
		delete(r.devIndex, c.Symbol)
	} else {
		r.devIndex[c.Symbol] = price
	}
	s := r.sampler(c)
	s.ResetBasis()
	s.quietUntil = r.o.Now().Add(devQuiet)
	return nil
}

// FundNow has a contract's next price step pay its funding round now (the
// simulator's, in --dev: /dev/funding), as at the end of its interval;
// the round's reference is its time, so it is paid once.
func (r *Runtime) FundNow(symbol string) error {
	c, ok := r.o.Contracts.Contract(symbol)
	if !ok {
		return fmt.Errorf("futures: no contract %s", symbol)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.sampler(c)
	s.nextFund = r.o.Now()
	return nil
}

// index is a contract's index price in ticks (0: none yet).
func (r *Runtime) index(ctx context.Context, c contracts.Contract) (int64, error) {
	r.mu.Lock()
	p, dev := r.devIndex[c.Symbol]
	r.mu.Unlock()
	if !dev {
		if r.o.Index == nil {
			return 0, nil
		}
		var ok bool
		var err error
		if p, ok, err = r.o.Index(ctx, strings.ToLower(c.IndexPair)); err != nil || !ok {
			return 0, err
		}
	}
	return p.Div(c.PriceTick).Round(0).IntPart(), nil
}

// bookState is what the price step reads of a contract's book.
type bookState struct {
	bid, ask, last int64
	bids, asks     []perp.Level
	insurance      int64
	openInterest   int64
}

func (r *Runtime) bookOf(id uint32) bookState {
	var out bookState
	r.read(func(s *engine.State) {
		b := s.Book(id)
		if b == nil {
			return
		}
		out.bid, _, _ = b.BestBid()
		out.ask, _, _ = b.BestAsk()
		out.last = b.LastPrice()
		var buf []matching.DepthLevel
		buf = b.AppendDepth(buf[:0], matching.Buy, 50)
		for _, l := range buf {
			out.bids = append(out.bids, perp.Level{Price: l.Price, Qty: l.Qty})
		}
		buf = b.AppendDepth(buf[:0], matching.Sell, 50)
		for _, l := range buf {
			out.asks = append(out.asks, perp.Level{Price: l.Price, Qty: l.Qty})
		}
		out.insurance = s.Futures().Insurance(id)
		out.openInterest = s.Futures().OpenInterest(id)
	})
	return out
}

// Step runs the price loop once for every contract: samples, the mark
// sent when it moved (or every 10 s), funding when its time has come, the
// price item written.
func (r *Runtime) Step(ctx context.Context) error {
	var errs []error
	for _, c := range r.o.Contracts.List() {
		if err := r.step(ctx, c); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Symbol, err))
		}
	}
	return errors.Join(errs...)
}

func (r *Runtime) step(ctx context.Context, c contracts.Contract) error {
	now := r.o.Now()
	index, err := r.index(ctx, c)
	if err != nil || index <= 0 {
		return err // no index yet: nothing to mark
	}
	id := BookSymbol(c)
	g, err := c.Grid(r.o.Decimals(c.Quote))
	if err != nil {
		return err
	}
	bs := r.bookOf(id)
	r.mu.Lock()
	s := r.sampler(c)
	r.mu.Unlock()
	if s.nextFund.IsZero() {
		s.nextFund = s.NextFunding(now)
	}
	if now.Sub(s.lastSample) >= perp.SampleEvery && !now.Before(s.quietUntil) {
		impact, err := perp.ImpactNotional(decimal.New(200, r.o.Decimals(c.Quote)).IntPart(), c.MaxLeverage())
		if err != nil {
			return err
		}
		ib, err := perp.ImpactPrice(bs.bids, impact, g.TickValue)
		if err != nil {
			return err
		}
		ia, err := perp.ImpactPrice(bs.asks, impact, g.TickValue)
		if err != nil {
			return err
		}
		if err := s.Sample(index, bs.bid, bs.ask, ib, ia); err != nil {
			return err
		}
		s.lastSample = now
	}
	last := bs.last
	if last == 0 {
		last = index
	}
	mark, err := s.Mark(now, index, last)
	if err != nil {
		return err
	}
	mark = min(max(mark, 1), g.MaxPrice)
	if mark != s.mark || now.Sub(s.markSent) >= 10*time.Second {
		res := r.eng.Submit(ctx, engine.Command{Kind: engine.KindMark, Amount: mark, Order: matching.Command{Symbol: id}})
		if res.Code != engine.OK {
			return fmt.Errorf("mark: %s", res.Code)
		}
		s.mark, s.markSent = mark, now
	}
	if !now.Before(s.nextFund) {
		rate, err := s.Funding(g.InterestRate, g.FundingCap)
		if err != nil {
			return err
		}
		at := s.nextFund
		s.nextFund = s.NextFunding(now)
		res := r.eng.Submit(ctx, engine.Command{Kind: engine.KindFunding, Ref: fmt.Sprintf("funding:%s:%d", c.Symbol, at.UnixMilli()),
			Amount: rate, Order: matching.Command{Symbol: id}})
		if res.Code != engine.OK && res.Code != engine.Exists {
			return fmt.Errorf("funding: %s", res.Code)
		}
	}
	est, err := s.Estimate(g.InterestRate, g.FundingCap)
	if err != nil {
		return err
	}
	if now.Sub(s.adlAt) >= ADLEvery {
		s.adl, s.adlAt = r.adlBands(id), now
	}
	it := store.Item{store.AttrPK: pkPrice + c.Symbol, store.AttrSK: skPrice, "symbol": c.Symbol,
		"mark": c.PriceTick.Mul(decimal.NewFromInt(mark)), "index": c.PriceTick.Mul(decimal.NewFromInt(index)),
		"rate": decimal.New(est, -8), "lastRate": decimal.New(s.LastRate(), -8), "lastRateUnits": s.LastRate(),
		"nextFunding": s.nextFund.UnixMilli(), "insurance": decimal.New(bs.insurance, -r.o.Decimals(c.Quote)),
		"openInterest": bs.openInterest, "at": now.UnixMilli()}
	if bs.last > 0 {
		it["last"] = c.PriceTick.Mul(decimal.NewFromInt(bs.last))
	}
	if s.adl[0] != "" {
		it["adlLong"] = s.adl[0]
	}
	if s.adl[1] != "" {
		it["adlShort"] = s.adl[1]
	}
	if err := r.o.Store.Put(ctx, it, nil); err != nil {
		return err
	}
	r.publishMark(ctx, c, it, now)
	return nil
}

// stepper sends the commands batches asked for, one at a time: the two
// liquidation steps of each position marks made due (a position no longer
// due by then is left alone by the engine), and the fire of each trigger
// order a price reached (one fired already answers UnknownOrder).
func (r *Runtime) stepper() {
	defer r.done.Done()
	for {
		select {
		case <-r.stop:
			return
		case s := <-r.steps:
			ctx := context.Background()
			if t := s.trig; t != nil {
				r.eng.Submit(ctx, engine.Command{Kind: engine.KindTriggerFire, Order: matching.Command{OrderID: t.ID, Symbol: t.Contract}})
				continue
			}
			p := s.liq
			for _, n := range []int64{1, 2} {
				res := r.eng.Submit(ctx, engine.Command{Kind: engine.KindLiquidate, User: p.User, Amount: n,
					Order: matching.Command{Symbol: p.Contract}, Spec: risk.OrderSpec{PosSide: p.Side}})
				if res.Code != engine.OK {
					r.o.Log.Error().Str("code", res.Code.String()).Uint64("user", p.User).Msg("futures: liquidation step refused")
					break
				}
			}
		}
	}
}
