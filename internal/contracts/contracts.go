// Package contracts is the catalogue of perpetual futures contracts, as
// package markets is of spot pairs: which USDT-margined perpetuals exist,
// the grid each trades on (price tick, contract value, order sizes in
// contracts), its maintenance-margin tiers, fees and funding settings.
// The futures engine and the /fe-co-api routes read it; internal/perp
// does the arithmetic in the units it yields (TickValue, Tiers, rates in
// 10^-8).
//
// The defaults are embedded (contracts_default.json, BTCUSDT and ETHUSDT
// with tier tables after Binance's); an operator replaces them with a
// contracts.json in the data directory. Contracts may be added, closed,
// re-tiered and re-priced (fees, funding) while the exchange runs, but
// never removed or re-gridded (Replace): positions and books are held in
// its ticks and contracts.
package contracts

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/shopspring/decimal"

	"tenger/internal/catalogue"
	"tenger/internal/perp"
)

//go:embed contracts_default.json
var defaultJSON []byte

// FileName is the operator file in the data directory.
const FileName = "contracts.json"

// DefaultQuoteDecimals are the engine decimals of USDT (spot.EngineDecimals),
// used to check a catalogue's grids when it is read; the engine checks again
// with the coin's own when it lists a contract.
const DefaultQuoteDecimals = 8

// Errors.
var (
	// ErrInvalid reports a malformed catalogue.
	ErrInvalid = errors.New("contracts: invalid catalogue")
	// ErrIncompatible reports a new catalogue that drops a contract or
	// changes the grid of one; the running catalogue stays as it was.
	ErrIncompatible = errors.New("contracts: incompatible catalogue change")
)

// TierSpec is one maintenance tier as the operator writes it: the notional
// cap in the quote coin, the maintenance margin rate and the highest
// leverage up to that cap.
type TierSpec struct {
	Cap         decimal.Decimal `json:"cap"`
	MMR         decimal.Decimal `json:"mmr"`
	MaxLeverage int64           `json:"maxLeverage"`
}

// Contract is one perpetual contract.
type Contract struct {
	// Symbol is the id in routes, orders and channels ("BTCUSDT").
	Symbol string `json:"symbol"`
	// ID is the contract's number (the spec's contractId), never reused.
	ID    int    `json:"id"`
	Base  string `json:"base"`
	Quote string `json:"quote" doc:"the margin and settlement coin"`
	Sort  int    `json:"sort"`
	// IndexPair is the spot pair whose reference price (internal/refprice)
	// is the contract's index.
	IndexPair string `json:"indexPair"`
	// ContractValue is the base coin one contract is worth (0.001 BTC).
	ContractValue decimal.Decimal `json:"contractValue"`
	PriceTick     decimal.Decimal `json:"priceTick"`
	// MinQty and MaxOrderQty bound one order, in contracts.
	MinQty      int64 `json:"minQty"`
	MaxOrderQty int64 `json:"maxOrderQty"`
	// Fees are rates of the notional; LiquidationFee goes to the
	// insurance fund from a liquidated position's remaining margin.
	MakerFee       decimal.Decimal `json:"makerFee"`
	TakerFee       decimal.Decimal `json:"takerFee"`
	LiquidationFee decimal.Decimal `json:"liquidationFee"`
	// Funding: paid every FundingIntervalHours from 00:00 UTC; the
	// interest rate I of the formula per interval; the rate is held
	// within ±FundingCap.
	FundingIntervalHours int             `json:"fundingIntervalHours"`
	InterestRate         decimal.Decimal `json:"interestRate"`
	FundingCap           decimal.Decimal `json:"fundingCap"`
	Tiers                []TierSpec      `json:"tiers"`
	// Closed contracts take no orders that open or add to positions.
	Closed bool `json:"closed"`
}

var symbolPattern = regexp.MustCompile(`^[A-Z0-9]{4,20}$`)

// Grid is a contract in the engine's units (internal/perp): what one
// contract is worth per tick in quote units, the tiers with caps in quote
// units, and the rates in 10^-8.
type Grid struct {
	TickValue      int64
	Tiers          perp.Tiers
	MakerFee       int64
	TakerFee       int64
	LiquidationFee int64
	InterestRate   int64
	FundingCap     int64
	// MaxPrice is the highest price in ticks the contract accepts (a
	// notional of one contract at the last tier's cap).
	MaxPrice int64
}

// Grid converts the contract to engine units for a quote coin with the
// given engine decimals. It fails when a value is not whole in those units
// (a contract value × tick finer than the coin's unit, a rate finer than
// 10^-8) or a tier table is not valid.
func (c Contract) Grid(quoteDecimals int32) (Grid, error) {
	scale := decimal.New(1, quoteDecimals)
	whole := func(name string, d decimal.Decimal, by decimal.Decimal) (int64, error) {
		v := d.Mul(by)
		if !v.IsInteger() || v.IsNegative() || !v.LessThanOrEqual(decimal.NewFromInt(1<<62)) {
			return 0, fmt.Errorf("%w: %s %s: %s is not a whole number of units", ErrInvalid, c.Symbol, name, d)
		}
		return v.IntPart(), nil
	}
	var g Grid
	var err error
	if g.TickValue, err = whole("contractValue × priceTick", c.ContractValue.Mul(c.PriceTick), scale); err != nil {
		return g, err
	}
	if g.TickValue == 0 {
		return g, fmt.Errorf("%w: %s: a contract is worth nothing per tick", ErrInvalid, c.Symbol)
	}
	rate := decimal.NewFromInt(perp.RateScale)
	for _, r := range []struct {
		name string
		d    decimal.Decimal
		to   *int64
	}{
		{"makerFee", c.MakerFee, &g.MakerFee}, {"takerFee", c.TakerFee, &g.TakerFee},
		{"liquidationFee", c.LiquidationFee, &g.LiquidationFee}, {"interestRate", c.InterestRate, &g.InterestRate},
		{"fundingCap", c.FundingCap, &g.FundingCap},
	} {
		if *r.to, err = whole(r.name, r.d, rate); err != nil {
			return g, err
		}
	}
	specs := make([]perp.Tier, len(c.Tiers))
	for i, t := range c.Tiers {
		capUnits, err := whole(fmt.Sprintf("tier %d cap", i+1), t.Cap, scale)
		if err != nil {
			return g, err
		}
		mmr, err := whole(fmt.Sprintf("tier %d mmr", i+1), t.MMR, rate)
		if err != nil {
			return g, err
		}
		specs[i] = perp.Tier{Cap: capUnits, MMR: mmr, MaxLeverage: t.MaxLeverage}
	}
	if g.Tiers, err = perp.NewTiers(specs); err != nil {
		return g, fmt.Errorf("%w: %s: %v", ErrInvalid, c.Symbol, err)
	}
	g.MaxPrice = g.Tiers.Limit() / g.TickValue
	return g, nil
}

// MaxLeverage is the highest leverage of the first tier.
func (c Contract) MaxLeverage() int64 {
	if len(c.Tiers) == 0 {
		return 0
	}
	return c.Tiers[0].MaxLeverage
}

func (c Contract) validate() error {
	bad := func(what string) error { return fmt.Errorf("%w: %s: %s", ErrInvalid, c.Symbol, what) }
	switch {
	case !symbolPattern.MatchString(c.Symbol):
		return fmt.Errorf("%w: symbol %q (upper-case letters and digits, 4–20)", ErrInvalid, c.Symbol)
	case c.ID <= 0:
		return bad("id must be positive")
	case c.Base == "" || c.Quote == "" || c.Base == c.Quote:
		return bad("base and quote coins")
	case c.IndexPair == "":
		return bad("indexPair (the spot pair of the index price)")
	case !c.ContractValue.IsPositive() || !c.PriceTick.IsPositive():
		return bad("contractValue and priceTick must be positive")
	case c.MinQty < 1 || c.MaxOrderQty < c.MinQty:
		return bad("minQty at least 1, maxOrderQty at least minQty")
	case c.FundingIntervalHours < 1 || 24%c.FundingIntervalHours != 0:
		return bad("fundingIntervalHours must divide 24")
	case !c.FundingCap.IsPositive() || c.InterestRate.Abs().GreaterThan(c.FundingCap):
		return bad("fundingCap must be positive and at least the interest rate")
	case c.MakerFee.IsNegative() || c.TakerFee.IsNegative() || c.LiquidationFee.IsNegative():
		return bad("fees cannot be negative (no rebates yet)")
	}
	_, err := c.Grid(DefaultQuoteDecimals)
	return err
}

// Catalogue holds the contracts. It is safe for concurrent use and can be
// replaced while the exchange runs: readers always see one whole version.
type Catalogue struct {
	cur     atomic.Pointer[snapshot]
	version atomic.Uint64
	mu      sync.Mutex // serialises Replace
}

type snapshot struct {
	list []Contract          // open contracts by sort, then symbol
	by   map[string]Contract // every contract by symbol, open or closed
}

// Defaults returns the embedded catalogue.
func Defaults() *Catalogue {
	c, err := Parse(defaultJSON)
	if err != nil {
		panic("contracts: embedded defaults: " + err.Error())
	}
	return c
}

// Load returns the operator's catalogue from dataDir/contracts.json when
// it exists, the defaults otherwise.
func Load(dataDir string) (*Catalogue, error) {
	return catalogue.Load(dataDir, FileName, Defaults, Parse)
}

// Parse reads a catalogue in the JSON of contracts.json.
func Parse(b []byte) (*Catalogue, error) {
	var list []Contract
	if err := catalogue.Decode(b, &list); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	s := &snapshot{by: map[string]Contract{}}
	ids := map[int]string{}
	for _, c := range list {
		if err := c.validate(); err != nil {
			return nil, err
		}
		if _, dup := s.by[c.Symbol]; dup {
			return nil, fmt.Errorf("%w: %s listed twice", ErrInvalid, c.Symbol)
		}
		if other, dup := ids[c.ID]; dup {
			return nil, fmt.Errorf("%w: %s and %s share id %d", ErrInvalid, other, c.Symbol, c.ID)
		}
		ids[c.ID] = c.Symbol
		s.by[c.Symbol] = c
		if !c.Closed {
			s.list = append(s.list, c)
		}
	}
	slices.SortStableFunc(s.list, func(a, b Contract) int {
		if a.Sort != b.Sort {
			return a.Sort - b.Sort
		}
		return strings.Compare(a.Symbol, b.Symbol)
	})
	c := &Catalogue{}
	c.cur.Store(s)
	c.version.Store(1)
	return c, nil
}

// List is the open contracts in display order.
func (c *Catalogue) List() []Contract { return slices.Clone(c.cur.Load().list) }

// Contract finds a contract, open or closed, by symbol in any case and
// with or without a separator ("btcusdt", "BTC-USDT", "BTC_USDT").
func (c *Catalogue) Contract(symbol string) (Contract, bool) {
	k, ok := c.cur.Load().by[normalize(symbol)]
	return k, ok
}

var separators = strings.NewReplacer("/", "", "_", "", "-", "")

func normalize(s string) string { return strings.ToUpper(separators.Replace(strings.TrimSpace(s))) }

// ByID finds a contract by its number.
func (c *Catalogue) ByID(id int) (Contract, bool) {
	for _, k := range c.cur.Load().by {
		if k.ID == id {
			return k, true
		}
	}
	return Contract{}, false
}

// Version counts replacements; it starts at 1.
func (c *Catalogue) Version() uint64 { return c.version.Load() }

// Replace installs next's contracts and returns those that became open
// (added or reopened). It refuses, with ErrIncompatible, a catalogue that
// drops a contract or changes one's id, coins, contract value or tick.
func (c *Catalogue) Replace(next *Catalogue) ([]Contract, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, nw := c.cur.Load(), next.cur.Load()
	for sym, k := range old.by {
		n, ok := nw.by[sym]
		if !ok {
			return nil, fmt.Errorf("%w: %s is missing (close a contract instead of removing it)", ErrIncompatible, sym)
		}
		if k.ID != n.ID || k.Base != n.Base || k.Quote != n.Quote || !k.ContractValue.Equal(n.ContractValue) || !k.PriceTick.Equal(n.PriceTick) {
			return nil, fmt.Errorf("%w: %s changes its id, coins, contract value or tick", ErrIncompatible, sym)
		}
	}
	var opened []Contract
	for _, n := range nw.list {
		if k, ok := old.by[n.Symbol]; !ok || k.Closed {
			opened = append(opened, n)
		}
	}
	c.cur.Store(nw)
	c.version.Add(1)
	return opened, nil
}
