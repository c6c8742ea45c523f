package refprice

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// SourceBook names the exchange's own order book as a source.
const SourceBook = "book"

// Book is the exchange's own order book as the price service sees it: the
// best bid and ask of a pair (the engine's latest published depth).
type Book interface {
	BestBidAsk(symbol string) (bid, ask decimal.Decimal, ok bool)
}

// Source is an external market-data source: it quotes the indexes it
// knows (keyed by index symbol, "btcusdt") and leaves out the others.
type Source interface {
	Name() string
	Fetch(ctx context.Context, symbols []string) (map[string]Quote, error)
}

// Options configure the Service.
type Options struct {
	Store store.Store
	// Symbols lists the indexes to keep (Indexes builds it from the coin
	// catalogue); it is asked on every step, so coins added later join.
	Symbols func() []string
	// Book is the exchange's own book; nil when this process has none.
	Book Book
	// Sources are the external sources (none by default).
	Sources []Source
	// Pins are the operator's pinned prices; nil means none.
	Pins PinSource
	// Anchors are the prices an index starts from when nothing was stored
	// yet (the seeded table), so the first prices the book shows are
	// bounded too.
	Anchors map[string]decimal.Decimal
	Config  Config
	Now     func() time.Time
	Log     zerolog.Logger
}

// pollEvery is the least time between two fetches of the external sources.
const pollEvery = 10 * time.Second

// fetchTimeout bounds one fetch of an external source.
const fetchTimeout = 3 * time.Second

// refreshStored is the age at which an unchanged price is written again,
// so readers can tell a running service from a stopped one.
const refreshStored = time.Minute

// Service forms the reference prices. One process runs it: the one that
// runs the engine (tenger serve, the engine task in AWS), since it sees the
// book. It writes each index's price to the store, where Readers in every
// process read it.
type Service struct {
	o Options

	mu       sync.Mutex
	series   map[string]*series
	quotes   map[string][]Quote // index → the latest external quotes
	polledAt time.Time
	stored   map[string]storedState
	pinStamp string
	pins     map[string]Pin

	stop chan struct{}
	done chan struct{}
}

type storedState struct {
	price  decimal.Decimal
	raw    decimal.Decimal
	pinned bool
	at     time.Time
}

// New builds the service and loads the stored prices.
func New(ctx context.Context, o Options) (*Service, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Config.Interval <= 0 {
		o.Config = DefaultConfig()
	}
	s := &Service{o: o, series: map[string]*series{}, quotes: map[string][]Quote{}, stored: map[string]storedState{}}
	items, err := readAll(ctx, o.Store)
	if err != nil {
		return nil, fmt.Errorf("refprice: load: %w", err)
	}
	for sym, it := range items {
		// The computed price goes on from where it was, even when a pin
		// was published over it.
		s.series[sym] = &series{ref: it.Computed, refAt: it.At}
		s.stored[sym] = storedState{price: it.Price, raw: it.Raw, pinned: it.Pinned, at: it.At}
	}
	return s, nil
}

// Start runs Step every Config.Interval until Stop.
func (s *Service) Start() {
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(s.done)
		t := time.NewTicker(s.o.Config.Interval)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), s.o.Config.Interval*2)
			if err := s.Step(ctx); err != nil {
				s.o.Log.Warn().Err(err).Msg("refprice: step")
			}
			cancel()
		}
	}()
}

// Stop ends the loop started by Start.
func (s *Service) Stop() {
	if s.stop == nil {
		return
	}
	close(s.stop)
	<-s.done
	s.stop = nil
}

// Step samples the book, fetches the external sources when due, recomputes
// every index and writes the prices that changed. The loop calls it; tests
// call it with their clock.
func (s *Service) Step(ctx context.Context) error {
	now := s.o.Now()
	symbols := s.o.Symbols()
	s.poll(ctx, now, symbols)
	pins, err := s.readPins(ctx)
	if err != nil {
		s.o.Log.Warn().Err(err).Msg("refprice: pins unreadable; the last ones read stay")
	}
	s.mu.Lock()
	var ops []store.Op
	for _, sym := range symbols {
		se := s.series[sym]
		if se == nil {
			se = &series{ref: s.o.Anchors[sym]}
			s.series[sym] = se
		}
		var bid, ask decimal.Decimal
		var hasBook bool
		if s.o.Book != nil {
			bid, ask, hasBook = s.o.Book.BestBidAsk(sym)
		}
		m, hasMid := decimal.Zero, false
		if hasBook {
			m, hasMid = mid(bid, ask, s.o.Config.MaxSpread)
		}
		before := se.ref
		res := se.step(s.o.Config, now, m, hasMid, s.quotes[sym])
		if res.Bounded {
			s.o.Log.Debug().Str("index", sym).Stringer("raw", res.Raw).Stringer("price", res.Price).
				Msg("refprice: the bound held the price back")
		}
		if !res.Price.IsPositive() {
			continue
		}
		pub, pinned := res.Price, false
		if p, ok := pins[sym]; ok {
			pub, pinned = p.Price, true
		}
		last := s.stored[sym]
		if !res.Raw.IsPositive() && !last.price.IsPositive() && !pinned {
			continue // an anchor no source has confirmed yet: readers have it too
		}
		if pub.Equal(last.price) && pinned == last.pinned && se.ref.Equal(before) && res.Raw.Equal(last.raw) &&
			now.Sub(last.at) < refreshStored {
			continue
		}
		ops = append(ops, store.PutOp(itemOf(sym, pub, se.ref, res.Raw, pinned, res.Sources, now), nil))
		s.stored[sym] = storedState{price: pub, raw: res.Raw, pinned: pinned, at: now}
	}
	s.mu.Unlock()
	for len(ops) > 0 {
		n := min(len(ops), store.MaxTransactItems)
		if err := s.o.Store.Transact(ctx, ops[:n]); err != nil {
			s.mu.Lock()
			clear(s.stored) // written again next step
			s.mu.Unlock()
			return fmt.Errorf("refprice: store: %w", err)
		}
		ops = ops[n:]
	}
	return nil
}

// poll fetches the external sources when they are due.
func (s *Service) poll(ctx context.Context, now time.Time, symbols []string) {
	if len(s.o.Sources) == 0 || now.Sub(s.polledAt) < pollEvery {
		return
	}
	s.polledAt = now
	fresh := map[string][]Quote{}
	for _, src := range s.o.Sources {
		fctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		got, err := src.Fetch(fctx, symbols)
		cancel()
		if err != nil {
			s.o.Log.Warn().Err(err).Str("source", src.Name()).Msg("refprice: source unreachable; its last quotes count until they are stale")
			s.mu.Lock()
			for sym, qs := range s.quotes {
				for _, q := range qs {
					if q.Source == src.Name() {
						fresh[sym] = append(fresh[sym], q)
					}
				}
			}
			s.mu.Unlock()
			continue
		}
		for sym, q := range got {
			q.Source = src.Name()
			fresh[sym] = append(fresh[sym], q)
		}
	}
	s.mu.Lock()
	s.quotes = fresh
	s.mu.Unlock()
}

// readPins reads the operator's pins when they changed.
func (s *Service) readPins(ctx context.Context) (map[string]Pin, error) {
	if s.o.Pins == nil {
		return nil, nil
	}
	pins, stamp, err := s.o.Pins.Read(ctx)
	if err != nil {
		return s.pins, err
	}
	if stamp != s.pinStamp {
		names := make([]string, 0, len(pins))
		for sym, p := range pins {
			names = append(names, sym+"="+p.Price.String())
		}
		sort.Strings(names)
		s.o.Log.Info().Str("pins", strings.Join(names, " ")).Msg("refprice: pins read")
		s.pinStamp, s.pins = stamp, pins
	}
	return s.pins, nil
}

// The store layout: one item per index under pk "refprice", sk the index
// symbol, holding the published price ("p"), the computed one ("c", which
// differs from p while a pin is in force), the sources' combination before
// the bound ("raw"), whether p is pinned, the sources that counted and the
// time of the step that wrote it (Unix ms).
const pkPrices = "refprice"

func itemOf(sym string, pub, computed, raw decimal.Decimal, pinned bool, sources []Quote, now time.Time) store.Item {
	src := map[string]any{}
	for _, q := range sources {
		src[q.Source] = q.Price.Round(divScale)
	}
	it := store.Item{store.AttrPK: pkPrices, store.AttrSK: sym, "p": pub, "c": computed,
		"at": now.UnixMilli(), "pinned": pinned, "src": src}
	if raw.IsPositive() {
		it["raw"] = raw.Round(divScale)
	}
	return it
}

// Index is one stored reference price, as readers and operators see it.
type Index struct {
	Symbol string
	// Price is the published reference price.
	Price decimal.Decimal
	// Computed is the price the sources and the bound give (Price unless
	// a pin is in force).
	Computed decimal.Decimal
	// Raw is the sources' combination before the bound (zero when none
	// counted in the last step).
	Raw decimal.Decimal
	// Pinned says an operator's pin is in force.
	Pinned bool
	// Sources are the prices of the sources that counted in the last step.
	Sources map[string]decimal.Decimal
	// At is when the service last wrote the price.
	At time.Time
}

func indexOf(it store.Item) Index {
	ix := Index{Symbol: it.Str(store.AttrSK), Price: it.Dec("p"), Computed: it.Dec("c"), Raw: it.Dec("raw"),
		Pinned: it.Bool("pinned"), At: time.UnixMilli(it.Int("at")).UTC(), Sources: map[string]decimal.Decimal{}}
	if m, ok := it["src"].(map[string]any); ok {
		for k := range m {
			ix.Sources[k] = store.Item(m).Dec(k)
		}
	}
	if !ix.Computed.IsPositive() {
		ix.Computed = ix.Price
	}
	return ix
}

// readAll reads every stored index.
func readAll(ctx context.Context, st store.Store) (map[string]Index, error) {
	out := map[string]Index{}
	q := store.Query{PK: pkPrices, Limit: 500}
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			ix := indexOf(it)
			if ix.Price.IsPositive() {
				out[ix.Symbol] = ix
			}
		}
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// ErrUnknownIndex is a pin of an index the exchange does not keep.
var ErrUnknownIndex = errors.New("refprice: unknown index")
