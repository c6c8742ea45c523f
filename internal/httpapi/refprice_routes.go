package httpapi

import "tenger/internal/refprice"

// IndexPriceView is one reference (index) price as index_price lists it.
type IndexPriceView struct {
	Symbol    string            `json:"symbol" doc:"the index: <coin>usdt is the coin's price in USDT, usdtmnt the MNT per USDT rate"`
	Price     string            `json:"price" doc:"the reference price every limit and valuation uses"`
	Computed  string            `json:"computed" doc:"the price the sources and the bound give; differs from price while an operator's pin is in force"`
	Pinned    bool              `json:"pinned"`
	Sources   map[string]string `json:"sources" doc:"the sources that counted in the last step: book (median of the exchange's own book mids over 5 min), binance, okx; anchor before any source"`
	UpdatedAt int64             `json:"updatedAt" doc:"when the price was last formed, Unix ms (0 for an anchor)"`
}

// NewIndexPriceRouter serves the reference prices (package refprice):
// public, so traders and operators see what the limits are valued at.
func NewIndexPriceRouter(ref *refprice.Reader, opts Options) *Router {
	r := NewRouter(opts)
	Handle(r, "/fe-ex-api/common/index_price", RouteOpts{Summary: "Reference (index) prices: what withdrawal limits, valuations and fee tiers use, never the last trade price"},
		func(c *Call, _ *Empty) ([]IndexPriceView, error) {
			all, err := ref.All(c.Ctx)
			if err != nil {
				return nil, err
			}
			return IndexPriceViews(all), nil
		})
	return r
}

// IndexPriceViews turns reference prices into their views.
func IndexPriceViews(all []refprice.Index) []IndexPriceView {
	out := make([]IndexPriceView, 0, len(all))
	for _, ix := range all {
		v := IndexPriceView{Symbol: ix.Symbol, Price: ix.Price.String(), Computed: ix.Computed.String(), Pinned: ix.Pinned,
			Sources: map[string]string{}}
		if !ix.At.IsZero() {
			v.UpdatedAt = ix.At.UnixMilli()
		}
		for k, p := range ix.Sources {
			v.Sources[k] = p.String()
		}
		out = append(out, v)
	}
	return out
}
