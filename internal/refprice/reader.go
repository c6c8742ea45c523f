package refprice

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// FiatIndex is the index of the local fiat: MNT per USDT.
const FiatIndex = "usdtmnt"

// FiatCoin is the local fiat's coin code.
const FiatCoin = "MNT"

// IndexOf is the index that prices a coin in USDT ("BTC" → "btcusdt"); the
// fiat's index is FiatIndex, the other way round.
func IndexOf(coin string) string {
	c := strings.ToLower(coin)
	if strings.EqualFold(coin, FiatCoin) {
		return FiatIndex
	}
	return c + "usdt"
}

// Indexes lists the indexes of a list of coins: one per coin other than
// USDT, the fiat's included.
func Indexes(coins []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range coins {
		if strings.EqualFold(c, "USDT") {
			continue
		}
		ix := IndexOf(c)
		if !seen[ix] {
			seen[ix] = true
			out = append(out, ix)
		}
	}
	return out
}

// DefaultReaderTTL is how long a Reader reuses what it read: the service
// writes at most once per step (5 s).
const DefaultReaderTTL = 2 * time.Second

// staleServe is how long a Reader keeps answering from what it last read
// when the store cannot be read.
const staleServe = time.Minute

// Reader answers reference prices from the store, in any process. It
// implements the wallet's price port (wallet.Prices) and values one coin in
// another (PairPrice) for the order checks. An index with no stored price
// yet answers its anchor (the seeded table).
type Reader struct {
	st      store.Store
	anchors map[string]decimal.Decimal
	ttl     time.Duration
	now     func() time.Time

	mu     sync.Mutex
	cache  map[string]Index
	readAt time.Time
}

// NewReader builds a reader; ttl 0 means DefaultReaderTTL, now nil time.Now.
func NewReader(st store.Store, anchors map[string]decimal.Decimal, ttl time.Duration, now func() time.Time) *Reader {
	if ttl <= 0 {
		ttl = DefaultReaderTTL
	}
	if now == nil {
		now = time.Now
	}
	return &Reader{st: st, anchors: anchors, ttl: ttl, now: now}
}

// Indexes returns every stored index (read again when older than the TTL).
func (r *Reader) Indexes(ctx context.Context) (map[string]Index, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if r.cache != nil && now.Sub(r.readAt) < r.ttl {
		return r.cache, nil
	}
	got, err := readAll(ctx, r.st)
	if err != nil {
		if r.cache != nil && now.Sub(r.readAt) < staleServe {
			return r.cache, nil
		}
		return nil, err
	}
	r.cache, r.readAt = got, now
	return got, nil
}

// Price is the reference price of an index, or its anchor; ok is false when
// it has neither.
func (r *Reader) Price(ctx context.Context, index string) (decimal.Decimal, bool, error) {
	all, err := r.Indexes(ctx)
	if err != nil {
		return decimal.Zero, false, err
	}
	if ix, ok := all[index]; ok && ix.Price.IsPositive() {
		return ix.Price, true, nil
	}
	if a := r.anchors[index]; a.IsPositive() {
		return a, true, nil
	}
	return decimal.Zero, false, nil
}

// USDTPrice implements wallet.Prices: the reference price of one unit of
// coin in USDT.
func (r *Reader) USDTPrice(ctx context.Context, coin string) (decimal.Decimal, bool, error) {
	if strings.EqualFold(coin, "USDT") {
		return decimal.NewFromInt(1), true, nil
	}
	if strings.EqualFold(coin, FiatCoin) {
		f, err := r.FiatPerUSDT(ctx)
		if err != nil || !f.IsPositive() {
			return decimal.Zero, false, err
		}
		return decimal.NewFromInt(1).DivRound(f, divScale), true, nil
	}
	return r.Price(ctx, IndexOf(coin))
}

// FiatPerUSDT implements wallet.Prices: the reference MNT per USDT (zero
// when there is none).
func (r *Reader) FiatPerUSDT(ctx context.Context) (decimal.Decimal, error) {
	p, _, err := r.Price(ctx, FiatIndex)
	return p, err
}

// PairPrice is the reference price of one base in quote (BTC in MNT is
// btcusdt × usdtmnt); ok is false when either coin has no price.
func (r *Reader) PairPrice(ctx context.Context, base, quote string) (decimal.Decimal, bool, error) {
	b, ok, err := r.USDTPrice(ctx, base)
	if err != nil || !ok {
		return decimal.Zero, false, err
	}
	if strings.EqualFold(quote, FiatCoin) {
		// Multiplying keeps the exact product instead of a rounded inverse.
		f, err := r.FiatPerUSDT(ctx)
		if err != nil || !f.IsPositive() {
			return decimal.Zero, false, err
		}
		return b.Mul(f), true, nil
	}
	q, ok, err := r.USDTPrice(ctx, quote)
	if err != nil || !ok {
		return decimal.Zero, false, err
	}
	return b.DivRound(q, divScale), true, nil
}

// All lists every index the reader answers, by symbol: the stored ones and
// those that have only their anchor (source "anchor", At zero).
func (r *Reader) All(ctx context.Context) ([]Index, error) {
	stored, err := r.Indexes(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Index, 0, len(stored)+len(r.anchors))
	for _, ix := range stored {
		out = append(out, ix)
	}
	for sym, p := range r.anchors {
		if _, ok := stored[sym]; !ok && p.IsPositive() {
			out = append(out, Index{Symbol: sym, Price: p, Computed: p, Sources: map[string]decimal.Decimal{SourceAnchor: p}})
		}
	}
	slices.SortFunc(out, func(a, b Index) int { return strings.Compare(a.Symbol, b.Symbol) })
	return out, nil
}

// SourceAnchor names an index's anchor (the seeded table) where no price
// was formed yet.
const SourceAnchor = "anchor"
