package earn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// Savings products are the operator's: one flexible product per coin, with
// a rate quoted per period (spec §9), optional tiers by amount, the least
// a subscription may be and the most one user may hold. They are items of
// the table (a config item per product), set with `tenger earn savings set`
// locally and by the admin function in AWS.

// Languages of a product's names.
const (
	LangEN = "en_US"
	LangMN = "mn_MN"
)

// idPattern is what a product's id may be.
var idPattern = regexp.MustCompile(`^[a-z0-9-]{1,32}$`)

// TierConfig is one tier as the operator writes it: the rate (percent,
// per the product's period) of the part of a balance up to UpTo (coin
// amount; empty or zero for the last tier: the rest).
type TierConfig struct {
	UpTo decimal.Decimal `json:"upTo"`
	Rate decimal.Decimal `json:"rate"`
}

// SavingsProduct is a flexible savings product.
type SavingsProduct struct {
	ID    string            `json:"id"`
	Coin  string            `json:"coin"`
	Names map[string]string `json:"names"`
	// Period is how Rate and the tiers' rates are quoted.
	Period Period `json:"period"`
	// Rate is the rate in percent per Period, when there are no Tiers.
	Rate  decimal.Decimal `json:"rate"`
	Tiers []TierConfig    `json:"tiers,omitempty"`
	// MinAmount is the least one subscription may be (0: the coin's unit).
	MinAmount decimal.Decimal `json:"minAmount"`
	// MaxPerUser is the most one user may hold in the product (0: no cap).
	MaxPerUser decimal.Decimal `json:"maxPerUser"`
	// Open says new subscriptions are taken (redemptions always are).
	Open bool `json:"open"`
	// Sort orders the products in lists (ascending).
	Sort int `json:"sort"`
}

// Name is the product's name in a language (English otherwise).
func (p SavingsProduct) Name(lang string) string {
	if n := p.Names[lang]; n != "" {
		return n
	}
	if n := p.Names[LangEN]; n != "" {
		return n
	}
	return p.Coin + " Flexible"
}

// tiers turns the operator's table into the interest rule's, in the
// coin's smallest units (precision decimals) and yearly fractions.
func (p SavingsProduct) tiers(precision int32) ([]Tier, error) {
	rows := p.Tiers
	if len(rows) == 0 {
		rows = []TierConfig{{Rate: p.Rate}}
	}
	out := make([]Tier, 0, len(rows))
	for _, r := range rows {
		apr, err := APR(r.Rate.Div(decimal.NewFromInt(100)), p.Period)
		if err != nil {
			return nil, err
		}
		u := r.UpTo.Shift(precision)
		if !u.IsInteger() || u.IsNegative() || u.GreaterThan(decimal.NewFromInt(maxUnits)) {
			return nil, fmt.Errorf("%w: tier cap %s", ErrRate, r.UpTo)
		}
		out = append(out, Tier{UpTo: u.IntPart(), APR: apr})
	}
	return out, CheckTiers(out)
}

// YearRate is the product's first tier's yearly rate in percent (what a
// list shows), two decimals.
func (p SavingsProduct) YearRate() decimal.Decimal {
	r := p.Rate
	if len(p.Tiers) > 0 {
		r = p.Tiers[0].Rate
	}
	apr, err := APR(r, p.Period)
	if err != nil {
		return decimal.Zero
	}
	return apr.Round(2)
}

// maxUnits bounds every amount in units (the ledger's int64 headroom).
const maxUnits = int64(1) << 62

// Check validates a product against its coin's precision.
func (p SavingsProduct) Check(precision int32) error {
	switch {
	case !idPattern.MatchString(p.ID):
		return fmt.Errorf("earn: product id %q: 1-32 of a-z, 0-9, '-'", p.ID)
	case p.Coin == "" || strings.ToUpper(p.Coin) != p.Coin:
		return fmt.Errorf("earn: product %s: coin %q must be an upper-case symbol", p.ID, p.Coin)
	case p.MinAmount.IsNegative() || p.MaxPerUser.IsNegative():
		return fmt.Errorf("earn: product %s: negative minimum or cap", p.ID)
	case !p.MinAmount.Equal(p.MinAmount.Truncate(precision)) || !p.MaxPerUser.Equal(p.MaxPerUser.Truncate(precision)):
		return fmt.Errorf("earn: product %s: minimum or cap finer than %d decimals", p.ID, precision)
	case p.MaxPerUser.IsPositive() && p.MinAmount.GreaterThan(p.MaxPerUser):
		return fmt.Errorf("earn: product %s: minimum above the cap", p.ID)
	}
	if _, err := p.tiers(precision); err != nil {
		return fmt.Errorf("earn: product %s: %w (periods: daily, weekly, monthly, yearly; tier caps rising, the last without one)", p.ID, err)
	}
	return nil
}

// Storage of the products: one item each under pk "EARNCFG", which only
// operators write; what the service keeps of its own beside them (the
// staking totals, the sales' states, the settings loans were last
// checked with) is under pk "EARNSTATE".
const (
	cfgPK   = "EARNCFG"
	statePK = "EARNSTATE"
)

// ErrUnknownProduct reports a product id that is not configured.
var ErrUnknownProduct = errors.New("earn: unknown product")

// PutSavingsProduct creates or replaces a product (the operator's call).
// A product's coin cannot change once set, and a coin has one product.
func (s *Service) PutSavingsProduct(ctx context.Context, p SavingsProduct) error {
	c, ok := s.coins.Coin(p.Coin)
	if !ok {
		return fmt.Errorf("earn: product %s: unknown coin %s", p.ID, p.Coin)
	}
	if err := p.Check(c.Precision); err != nil {
		return err
	}
	all, err := s.SavingsProducts(ctx)
	if err != nil {
		return err
	}
	for _, o := range all {
		if o.ID == p.ID && o.Coin != p.Coin {
			return fmt.Errorf("earn: product %s holds %s: its coin cannot change", p.ID, o.Coin)
		}
		if o.ID != p.ID && o.Coin == p.Coin {
			return fmt.Errorf("earn: %s already has a flexible product (%s)", p.Coin, o.ID)
		}
	}
	return putConfig(ctx, s.st, savingsPrefix+p.ID, p)
}

// SavingsProducts lists the products, by Sort then id.
func (s *Service) SavingsProducts(ctx context.Context) ([]SavingsProduct, error) {
	out, err := listConfig[SavingsProduct](ctx, s.st, savingsPrefix)
	sortConfig(out, func(p SavingsProduct) (int, string) { return p.Sort, p.ID })
	return out, err
}

// SavingsProduct reads one product (ErrUnknownProduct when there is none).
func (s *Service) SavingsProduct(ctx context.Context, id string) (SavingsProduct, error) {
	return getConfig[SavingsProduct](ctx, s.st, savingsPrefix+id)
}

// Config items: one per product, its JSON in "doc", under pk cfgPK.
const (
	savingsPrefix = "SAV#"
	stakingPrefix = "STK#"
)

func putConfig(ctx context.Context, st store.Store, sk string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return st.Put(ctx, store.Item{store.AttrPK: cfgPK, store.AttrSK: sk, "doc": string(b)}, nil)
}

func getConfig[T any](ctx context.Context, st store.Store, sk string) (T, error) {
	var v T
	it, err := st.Get(ctx, store.Key{PK: cfgPK, SK: sk})
	if errors.Is(err, store.ErrNotFound) {
		return v, ErrUnknownProduct
	}
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal([]byte(it.Str("doc")), &v); err != nil {
		return v, fmt.Errorf("earn: config %s: %w", sk, err)
	}
	return v, nil
}

// sortConfig orders config items by their sort number, then id.
func sortConfig[T any](xs []T, key func(T) (int, string)) {
	sort.Slice(xs, func(i, j int) bool {
		a, ai := key(xs[i])
		b, bi := key(xs[j])
		if a != b {
			return a < b
		}
		return ai < bi
	})
}

func listConfig[T any](ctx context.Context, st store.Store, prefix string) ([]T, error) {
	var out []T
	q := store.Query{PK: cfgPK, SK: store.SKCond{Kind: store.SKPrefix, A: prefix}}
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			var v T
			if err := json.Unmarshal([]byte(it.Str("doc")), &v); err != nil {
				return nil, fmt.Errorf("earn: config %s: %w", it.Key().SK, err)
			}
			out = append(out, v)
		}
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// DevSavingsProducts are the products a development install starts with
// (tenger serve --dev, when none is configured): USDT with two tiers, and
// one product per other earn coin, each rate quoted yearly.
func DevSavingsProducts() []SavingsProduct {
	d := decimal.RequireFromString
	mk := func(id, coin, rate, min string, sort int) SavingsProduct {
		return SavingsProduct{ID: id, Coin: coin, Period: Yearly, Rate: d(rate), MinAmount: d(min), Open: true, Sort: sort,
			Names: map[string]string{LangEN: coin + " Flexible", LangMN: coin + " Уян хатан хадгаламж"}}
	}
	usdt := mk("usdt", "USDT", "6.5", "1", 1)
	usdt.Tiers = []TierConfig{{UpTo: d("10000"), Rate: d("6.5")}, {Rate: d("3")}}
	usdt.MaxPerUser = d("1000000")
	return []SavingsProduct{usdt, mk("btc", "BTC", "1.2", "0.0001", 2), mk("eth", "ETH", "2.4", "0.001", 3),
		mk("trx", "TRX", "4.8", "10", 4), mk("ton", "TON", "3.6", "1", 5)}
}
