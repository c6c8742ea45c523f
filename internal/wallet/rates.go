package wallet

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"
	"sync"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
)

// Prices is where valuations come from. Until spot trading exists the
// seeded table answers (SeededPrices); the spot issue plugs in the engine's
// last prices by implementing this interface (last price of <COIN>/USDT, and
// of USDT/MNT for FiatPerUSDT).
type Prices interface {
	// USDTPrice is the last price of one unit of coin in USDT; ok is false
	// when the coin has no price. It is not asked for the fiat coin, whose
	// value comes from FiatPerUSDT.
	USDTPrice(ctx context.Context, coin string) (price decimal.Decimal, ok bool, err error)
	// FiatPerUSDT is how many units of the local fiat (MNT) one USDT buys.
	// USDT counts as USD for valuations.
	FiatPerUSDT(ctx context.Context) (decimal.Decimal, error)
}

// StaticPrices is a fixed price table (the seeded one, or one a test sets).
type StaticPrices struct {
	mu   sync.RWMutex
	usdt map[string]decimal.Decimal
	fiat decimal.Decimal
}

var _ Prices = (*StaticPrices)(nil)

//go:embed rates_seed.json
var ratesSeed []byte

type seedFile struct {
	FiatPerUSDT decimal.Decimal            `json:"fiatPerUSDT"`
	USDT        map[string]decimal.Decimal `json:"usdt"`
}

// SeededPrices returns the embedded seeded table (rates_seed.json): realistic
// prices until the spot engine has traded.
func SeededPrices() *StaticPrices {
	var f seedFile
	if err := json.Unmarshal(ratesSeed, &f); err != nil {
		panic("wallet: bad rates_seed.json: " + err.Error())
	}
	return NewStaticPrices(f.USDT, f.FiatPerUSDT)
}

// NewStaticPrices builds a table from USDT prices per coin and the MNT per USDT rate.
func NewStaticPrices(usdt map[string]decimal.Decimal, fiatPerUSDT decimal.Decimal) *StaticPrices {
	p := &StaticPrices{usdt: map[string]decimal.Decimal{}, fiat: fiatPerUSDT}
	for k, v := range usdt {
		p.usdt[strings.ToUpper(k)] = v
	}
	return p
}

// Set changes one coin's USDT price.
func (p *StaticPrices) Set(coin string, usdt decimal.Decimal) {
	p.mu.Lock()
	p.usdt[strings.ToUpper(coin)] = usdt
	p.mu.Unlock()
}

// USDTPrice implements Prices.
func (p *StaticPrices) USDTPrice(_ context.Context, coin string) (decimal.Decimal, bool, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	v, ok := p.usdt[strings.ToUpper(coin)]
	return v, ok && v.IsPositive(), nil
}

// FiatPerUSDT implements Prices.
func (p *StaticPrices) FiatPerUSDT(context.Context) (decimal.Decimal, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.fiat, nil
}

// Locales of the rate tables (spec §3 "Rate table per locale").
const (
	LocaleEN = "en_US"
	LocaleMN = "mn_MN"
)

// Currencies the valuation can be shown in (the user_Currency cookie).
const (
	CurrencyUSD = "USD"
	CurrencyMNT = "MNT"
)

// divScale is the scale of intermediate divisions (the ledger keeps 18).
const divScale = 18

// Currency is a valuation currency of the currency picker (spec §3
// "Currency items: text, id").
type Currency struct {
	ID       string `json:"id"`
	Text     string `json:"text"`
	LangLogo string `json:"lang_logo" doc:"the currency sign"`
	Locale   string `json:"locale" doc:"the rate table the currency is valued with"`
}

// Currencies lists the valuation currencies: USD (en_US rates, the
// default) and MNT (mn_MN rates).
func Currencies() []Currency {
	return []Currency{
		{ID: CurrencyUSD, Text: "USD", LangLogo: "$", Locale: LocaleEN},
		{ID: CurrencyMNT, Text: "MNT", LangLogo: "₮", Locale: LocaleMN},
	}
}

// NormalizeCurrency maps a requested currency to a supported one: MNT (and
// its withdraw code MONT) uses the mn_MN rates, anything else is USD with
// the en_US rates (spec §1: "MNT uses the mn_MN rates, otherwise the en_US
// rates"; default USD).
func NormalizeCurrency(c string) Currency {
	switch strings.ToUpper(strings.TrimSpace(c)) {
	case CurrencyMNT, "MONT":
		return Currencies()[1]
	}
	return Currencies()[0]
}

// valuer holds one consistent set of prices for one answer.
type valuer struct {
	usdt map[string]decimal.Decimal // catalogue symbol → USDT price (fiat: 1/fiatPerUSDT)
	fiat decimal.Decimal            // MNT per USDT
	sym  map[string]string          // any code (MONT) → catalogue symbol
}

// valuer reads the prices of every catalogue coin.
func (s *Service) valuer(ctx context.Context) (*valuer, error) {
	fiat, err := s.prices.FiatPerUSDT(ctx)
	if err != nil {
		return nil, internal(err)
	}
	v := &valuer{usdt: map[string]decimal.Decimal{}, fiat: fiat, sym: map[string]string{}}
	for _, c := range s.cat.List() {
		for _, code := range []string{c.Symbol, c.DepositCode, c.WithdrawCode} {
			if code != "" {
				v.sym[code] = c.Symbol
			}
		}
		if c.IsFiat {
			if fiat.IsPositive() {
				v.usdt[c.Symbol] = decimal.NewFromInt(1).DivRound(fiat, divScale)
			}
			continue
		}
		p, ok, err := s.prices.USDTPrice(ctx, c.Symbol)
		if err != nil {
			return nil, internal(err)
		}
		if ok {
			v.usdt[c.Symbol] = p
		}
	}
	return v, nil
}

func (v *valuer) symbol(code string) string {
	if s, ok := v.sym[strings.ToUpper(code)]; ok {
		return s
	}
	return strings.ToUpper(code)
}

// inUSDT values amount of coin in USDT (false when the coin has no price).
func (v *valuer) inUSDT(coin string, amount decimal.Decimal) (decimal.Decimal, bool) {
	coin = v.symbol(coin)
	if amount.IsZero() {
		return zero, true
	}
	if coin == "USDT" {
		return amount, true
	}
	if coins, ok := v.fiatSymbol(); ok && coin == coins {
		if !v.fiat.IsPositive() {
			return zero, false
		}
		return amount.DivRound(v.fiat, divScale), true
	}
	p, ok := v.usdt[coin]
	if !ok {
		return zero, false
	}
	return amount.Mul(p), true
}

func (v *valuer) fiatSymbol() (string, bool) {
	s, ok := v.sym["MONT"]
	if ok {
		return s, true
	}
	s, ok = v.sym["MNT"]
	return s, ok
}

// in values amount of coin in another coin (BTC for the usual valuations);
// zero when either has no price.
func (v *valuer) in(target, coin string, amount decimal.Decimal) decimal.Decimal {
	target, coin = v.symbol(target), v.symbol(coin)
	if target == coin {
		return amount
	}
	u, ok := v.inUSDT(coin, amount)
	if !ok || u.IsZero() {
		return zero
	}
	per, ok := v.inUSDT(target, decimal.NewFromInt(1))
	if !ok || !per.IsPositive() {
		return zero
	}
	return u.DivRound(per, divScale)
}

// rate is the price of one unit of coin in the locale's fiat (USD for
// en_US, MNT for mn_MN); false when the coin has no price.
func (v *valuer) rate(locale, coin string) (decimal.Decimal, bool) {
	coin = v.symbol(coin)
	fs, _ := v.fiatSymbol()
	if locale == LocaleMN {
		if coin == fs {
			return decimal.NewFromInt(1), true
		}
		u, ok := v.inUSDT(coin, decimal.NewFromInt(1))
		if !ok {
			return zero, false
		}
		return u.Mul(v.fiat), true
	}
	return v.inUSDT(coin, decimal.NewFromInt(1))
}

// toFiat converts value (an amount of coin valueCoin, BTC normally) to the
// currency through the locale's rate of valueCoin (spec §1), formatted at
// the fiat valuation precision.
func (v *valuer) toFiat(cur Currency, valueCoin string, value decimal.Decimal) string {
	r, ok := v.rate(cur.Locale, valueCoin)
	if !ok {
		return coins.FormatFixed(zero, coins.PrecisionFiatValuation)
	}
	return coins.FormatFixed(value.Mul(r), coins.PrecisionFiatValuation)
}

// RateTable is the rate table of one locale: the price of each coin in the
// locale's fiat (USD for en_US, MNT for mn_MN) and the currency sign.
type RateTable map[string]string

// Rates returns the rate tables per locale (spec §3: en_US and mn_MN, each
// with BTC, MONT, USDT ... and lang_logo). Coins without a price are left out.
func (s *Service) Rates(ctx context.Context) (map[string]RateTable, error) {
	v, err := s.valuer(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]RateTable{}
	for _, cur := range Currencies() {
		t := RateTable{"lang_logo": cur.LangLogo}
		for _, c := range s.cat.List() {
			r, ok := v.rate(cur.Locale, c.Symbol)
			if !ok {
				continue
			}
			str := r.Round(8).String()
			for _, code := range []string{c.Symbol, c.DepositCode, c.WithdrawCode} {
				if code != "" {
					t[code] = str
				}
			}
		}
		out[cur.Locale] = t
	}
	return out, nil
}

// USDTValue is the USDT value of amount of coin (any of its codes), exact
// up to 18 decimals; the withdrawal's 24 h limit is kept in USDT.
func (s *Service) USDTValue(ctx context.Context, coin string, amount decimal.Decimal) (decimal.Decimal, error) {
	c, err := s.coin(coin)
	if err != nil {
		return zero, err
	}
	v, err := s.valuer(ctx)
	if err != nil {
		return zero, err
	}
	u, ok := v.inUSDT(c.Symbol, amount)
	if !ok {
		return zero, apperr.New(apperr.CodeWalletNoPrice, c.Symbol)
	}
	return u, nil
}
