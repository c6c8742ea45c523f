// Package markets is the catalogue of trading pairs: which pairs exist, how
// they are grouped by quote coin and ordered, and the grid each trades on
// (price tick, lot size, minimum quantity and notional). The spot engine and
// the order validator read the grid from here; the web app reads the public
// lists (spec §3 market data: coinList, market grouped by quote coin,
// followCoinList).
//
// The defaults are embedded (markets_default.json); an operator replaces
// them with a markets.json in the data directory, without code changes.
package markets

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/shopspring/decimal"

	"tenger/internal/catalogue"
)

//go:embed markets_default.json
var defaultJSON []byte

// FileName is the operator file in the data directory.
const FileName = "markets.json"

// ErrInvalid reports a malformed catalogue.
var ErrInvalid = errors.New("markets: invalid catalogue")

// Pair is one trading pair.
type Pair struct {
	// Symbol is the lower-case id used in channels and orders ("btcusdt").
	Symbol          string          `json:"symbol"`
	Base            string          `json:"base"`
	Quote           string          `json:"quote"`
	Sort            int             `json:"sort"`
	PricePrecision  int32           `json:"pricePrecision"`
	VolumePrecision int32           `json:"volumePrecision"`
	PriceTick       decimal.Decimal `json:"priceTick"`
	LotSize         decimal.Decimal `json:"lotSize"`
	MinQty          decimal.Decimal `json:"minQty"`
	MinNotional     decimal.Decimal `json:"minNotional"`
	IsOpenCross     bool            `json:"isOpenCross"`
	ETFOpen         bool            `json:"etfOpen"`
	Recommend       bool            `json:"recommend"`
	// SelfTradePrevention is what happens when an order would trade with
	// an order of the same user, unless the order names its own mode:
	// cancel_taker (the default when empty), cancel_maker or cancel_both
	// (see matching.STPMode; the core's decrement is not offered, as
	// settlement and book rebuilds know quantities only from trades and
	// amends).
	SelfTradePrevention string `json:"selfTradePrevention,omitempty"`
	// DepthSteps are the price grids of the merged order book's steps 1
	// and 2 (step 0 is the tick): two increasing multiples of the tick.
	// Empty means tick × 10 and tick × 100.
	DepthSteps []decimal.Decimal `json:"depthSteps,omitempty"`
	// Closed pairs are listed nowhere and take no orders.
	Closed bool `json:"closed"`
}

// DepthStepCount is how many merge steps an order book offers (0, 1, 2).
const DepthStepCount = 3

// DepthStep is the price grid of the book's merge step n (0..2): the tick,
// then DepthSteps, or tick × 10^n when they are not set.
func (p Pair) DepthStep(n int) decimal.Decimal {
	if n <= 0 {
		return p.PriceTick
	}
	if len(p.DepthSteps) == DepthStepCount-1 && n < DepthStepCount {
		return p.DepthSteps[n-1]
	}
	return p.PriceTick.Shift(int32(n))
}

// STPModes are the self-trade prevention modes a pair or an order may name.
var STPModes = []string{"cancel_taker", "cancel_maker", "cancel_both"}

// Name is the display name "BTC/USDT".
func (p Pair) Name() string { return p.Base + "/" + p.Quote }

var symbolPattern = regexp.MustCompile(`^[a-z0-9]{2,20}$`)

// validate checks a pair; a spot pair's symbol (named) is its base and
// quote.
func (p Pair) validate(named bool) error {
	switch {
	case !symbolPattern.MatchString(p.Symbol):
		return fmt.Errorf("%w: symbol %q must be 2-20 lower-case letters or digits", ErrInvalid, p.Symbol)
	case p.Base == "" || p.Quote == "" || p.Base == p.Quote:
		return fmt.Errorf("%w: %s: base and quote must differ", ErrInvalid, p.Symbol)
	case named && strings.ToLower(p.Base+p.Quote) != p.Symbol:
		return fmt.Errorf("%w: %s: symbol must be base+quote in lower case", ErrInvalid, p.Symbol)
	case !p.PriceTick.IsPositive() || !p.LotSize.IsPositive():
		return fmt.Errorf("%w: %s: price tick and lot size must be positive", ErrInvalid, p.Symbol)
	case p.MinQty.IsNegative() || p.MinNotional.IsNegative():
		return fmt.Errorf("%w: %s: minimums must not be negative", ErrInvalid, p.Symbol)
	case -p.PriceTick.Exponent() > p.PricePrecision || -p.LotSize.Exponent() > p.VolumePrecision:
		return fmt.Errorf("%w: %s: tick or lot finer than the precision", ErrInvalid, p.Symbol)
	case p.SelfTradePrevention != "" && !slices.Contains(STPModes, p.SelfTradePrevention):
		return fmt.Errorf("%w: %s: selfTradePrevention must be one of %s", ErrInvalid, p.Symbol, strings.Join(STPModes, ", "))
	case len(p.DepthSteps) != 0 && len(p.DepthSteps) != DepthStepCount-1:
		return fmt.Errorf("%w: %s: depthSteps lists the grids of steps 1 and 2", ErrInvalid, p.Symbol)
	}
	prev := p.PriceTick
	for _, g := range p.DepthSteps {
		if !g.GreaterThan(prev) || !g.Mod(p.PriceTick).IsZero() {
			return fmt.Errorf("%w: %s: depthSteps must be increasing multiples of the price tick", ErrInvalid, p.Symbol)
		}
		prev = g
	}
	return nil
}

// Catalogue holds the pairs. It is safe for concurrent use, and it can be
// replaced while the exchange runs (Replace, reload.go): readers always see
// one whole version.
type Catalogue struct {
	cur     atomic.Pointer[snapshot]
	version atomic.Uint64
	mu      sync.Mutex // serialises Replace
}

// snapshot is one immutable version of the catalogue.
type snapshot struct {
	pairs []Pair          // open pairs, grouped by quote coin and sorted
	by    map[string]Pair // every pair by symbol, open or closed
}

func newCatalogue(s *snapshot) *Catalogue {
	c := &Catalogue{}
	c.cur.Store(s)
	c.version.Store(1)
	return c
}

// Defaults returns the embedded catalogue.
func Defaults() *Catalogue {
	c, err := parse(defaultJSON)
	if err != nil {
		panic("markets: embedded defaults: " + err.Error())
	}
	return c
}

// Load returns the operator's catalogue from dataDir/markets.json when it
// exists, the defaults otherwise.
func Load(dataDir string) (*Catalogue, error) {
	return catalogue.Load(dataDir, FileName, Defaults, parse)
}

func parse(b []byte) (*Catalogue, error) {
	var pairs []Pair
	if err := catalogue.Decode(b, &pairs); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	for _, p := range pairs {
		if err := p.validate(true); err != nil {
			return nil, err
		}
	}
	return FromPairs(pairs)
}

// FromPairs builds a catalogue of pairs, validated as a file's are except
// that a symbol need not be the base and quote: the market data of books
// that are not spot pairs (the perpetual contracts', "btcusdtperp") is
// kept under pairs of their own.
func FromPairs(pairs []Pair) (*Catalogue, error) {
	c := &snapshot{by: map[string]Pair{}}
	for _, p := range pairs {
		if err := p.validate(false); err != nil {
			return nil, err
		}
		if _, dup := c.by[p.Symbol]; dup {
			return nil, fmt.Errorf("%w: %s listed twice", ErrInvalid, p.Symbol)
		}
		c.by[p.Symbol] = p
		if !p.Closed {
			c.pairs = append(c.pairs, p)
		}
	}
	sort.SliceStable(c.pairs, func(i, j int) bool {
		if c.pairs[i].Quote != c.pairs[j].Quote {
			return quoteRank(c.pairs[i].Quote) < quoteRank(c.pairs[j].Quote)
		}
		return c.pairs[i].Sort < c.pairs[j].Sort
	})
	return newCatalogue(c), nil
}

// quoteRank orders the quote groups: USDT first, then MNT, then the rest.
func quoteRank(q string) string {
	switch q {
	case "USDT":
		return "0"
	case "MNT":
		return "1"
	}
	return "2" + q
}

// List returns the open pairs, grouped by quote coin and sorted.
func (c *Catalogue) List() []Pair { return append([]Pair(nil), c.cur.Load().pairs...) }

// Pair finds a pair by symbol ("btcusdt", also "BTC/USDT" or "BTC_USDT"),
// open or closed.
func (c *Catalogue) Pair(symbol string) (Pair, bool) {
	p, ok := c.cur.Load().by[symbol]
	if !ok {
		p, ok = c.cur.Load().by[strings.ToLower(symbolSeparators.Replace(symbol))]
	}
	return p, ok
}

// symbolSeparators strips the separators of "BTC/USDT" and "BTC_USDT". It is
// built once: a Replacer builds its lookup table on first use, and Pair runs
// on every order.
var symbolSeparators = strings.NewReplacer("/", "", "_", "", "-", "")

// Quotes lists the quote coins in display order.
func (c *Catalogue) Quotes() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range c.cur.Load().pairs {
		if !seen[p.Quote] {
			seen[p.Quote] = true
			out = append(out, p.Quote)
		}
	}
	return out
}
