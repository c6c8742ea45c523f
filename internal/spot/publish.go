package spot

import (
	"strconv"
	"sync"
	"time"

	"tenger/internal/engine"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/matching"
)

// Publisher hands what the engine did to market data: each batch's trades
// at once (per pair, in the order they happened), and the depth of every
// book a batch changed at most every 100 ms per pair, read from the engine
// between groups.
type Publisher struct {
	feed marketdata.Feed
	cat  *markets.Catalogue
	// read runs fn on the engine's state between groups (engine.Read).
	read func(fn func(s *engine.State))
	now  func() time.Time

	mu        sync.Mutex
	dirty     map[uint32]bool
	lastDepth map[uint32]time.Time
	buf       []matching.DepthLevel
}

// NewPublisher returns a publisher to feed; read is the engine's Read.
func NewPublisher(feed marketdata.Feed, cat *markets.Catalogue, read func(fn func(s *engine.State)), now func() time.Time) *Publisher {
	if now == nil {
		now = time.Now
	}
	return &Publisher{feed: feed, cat: cat, read: read, now: now, dirty: map[uint32]bool{}, lastDepth: map[uint32]time.Time{}}
}

// OnBatch publishes a durable batch's trades and notes the books it
// changed. Batches come in order.
func (p *Publisher) OnBatch(b *engine.Batch) {
	pairs := pairsByID(p.cat)
	var trades []marketdata.Trade
	var cur uint32
	flush := func() {
		if len(trades) > 0 {
			p.feed.OnTrades(pairs[cur].Symbol, trades)
		}
		trades = nil
	}
	p.mu.Lock()
	for i := range b.Commands {
		at := time.UnixMilli(b.Commands[i].At).UTC()
		for _, e := range b.EventsOf(i) {
			pr, ok := pairs[e.Symbol]
			if !ok {
				continue
			}
			p.dirty[e.Symbol] = true
			if e.Kind != matching.EvTrade {
				continue
			}
			if e.Symbol != cur {
				flush()
				cur = e.Symbol
			}
			cfg := symbolConfig(pr)
			trades = append(trades, marketdata.Trade{ID: strconv.FormatUint(e.TradeID, 10), Symbol: pr.Symbol,
				Price: cfg.FromTicks(e.Price), Qty: cfg.FromLots(e.Qty), TakerSide: sideText(e.Side), At: at})
		}
	}
	p.mu.Unlock()
	flush()
}

// MarkAll marks every listed pair's book for the next Depth: after a
// start, the books recovered from the journal are published whether or
// not a command moves them.
func (p *Publisher) MarkAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.cat.List() {
		p.dirty[symbolNum(pr.Symbol)] = true
	}
}

// Depth publishes the depth of the books changed since they were last
// published, those published less than 100 ms ago excepted unless force;
// the runtime calls it every 50 ms.
func (p *Publisher) Depth(force bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.dirty) == 0 {
		return
	}
	now := p.now()
	type out struct {
		symbol     string
		bids, asks []marketdata.Level
	}
	var due []out
	pairs := pairsByID(p.cat)
	p.read(func(s *engine.State) {
		for id := range p.dirty {
			if !force && now.Sub(p.lastDepth[id]) < 100*time.Millisecond {
				continue
			}
			delete(p.dirty, id)
			b := s.Book(id)
			pr, found := pairs[id]
			if b == nil || !found {
				continue
			}
			var o out
			o.symbol = pr.Symbol
			o.bids, o.asks, p.buf = depthOf(b, pr, p.buf)
			due = append(due, o)
			p.lastDepth[id] = now
		}
	})
	// Handed on outside the engine's lock.
	for _, o := range due {
		p.feed.OnDepth(o.symbol, o.bids, o.asks, now)
	}
}

// maxDepthLevels bounds the price levels a depth update carries per side
// (merged steps need more than the MaxDepthLimit levels step 0 shows; a
// bucket the bound would cut is left out whole).
const maxDepthLevels = 5_000

// depthOf is a book's levels as market data publishes them: every level
// the merged steps group (whole buckets of the coarsest step, at most
// maxDepthLevels per side). buf is scratch space, returned for reuse.
func depthOf(b *matching.Book, p markets.Pair, buf []matching.DepthLevel) (bids, asks []marketdata.Level, _ []matching.DepthLevel) {
	cfg := symbolConfig(p)
	// Enough levels for every view: the merged steps group the levels of
	// the first MaxDepthLimit buckets of the coarsest step's grid that hold
	// any, whole (however far apart they lie).
	span, err := cfg.ToTicks(p.DepthStep(marketdata.MaxDepthStep))
	if err != nil {
		span = 1
	}
	conv := func(side matching.Side) []marketdata.Level {
		buf = b.AppendDepthBuckets(buf[:0], side, span, marketdata.MaxDepthLimit, maxDepthLevels)
		out := make([]marketdata.Level, len(buf))
		for i, l := range buf {
			out[i] = marketdata.Level{Price: cfg.FromTicks(l.Price), Qty: cfg.FromLots(l.Qty)}
		}
		return out
	}
	bids = conv(matching.Buy)
	asks = conv(matching.Sell)
	return bids, asks, buf
}
