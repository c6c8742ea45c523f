package wallet

import "strings"

// Pair is an isolated margin pair.
type Pair struct {
	// Symbol is the pair code used as the isolated account's sub (BTCUSDT).
	Symbol string `json:"symbol"`
	Base   string `json:"baseCoin"`
	Quote  string `json:"quoteCoin"`
	// Multiple is the pair's leverage.
	Multiple int `json:"multiple"`
}

// Name is the pair's display name (BTC/USDT).
func (p Pair) Name() string { return p.Base + "/" + p.Quote }

// EarnCoin is a coin of the earn (savings) account with its yearly rate.
type EarnCoin struct {
	Coin string
	// YearRate is the yearly rate in percent, as the savings projects will quote it.
	YearRate string
}

// Markets says which coins each account kind holds. Margin, futures and
// earn arrive with their own issues; until then these seeded lists define
// what the balance pages and the transfer modal offer.
type Markets struct {
	CrossCoins   []string
	Isolated     []Pair
	OTCCoins     []string
	FuturesCoins []string
	EarnCoins    []EarnCoin
	// RemindRiskRate is the margin risk rate below which the user is warned.
	RemindRiskRate string
}

// DefaultMarkets is the seeded configuration.
func DefaultMarkets() Markets {
	return Markets{
		CrossCoins: []string{"BTC", "ETH", "USDT", "TRX", "XRP", "TON"},
		Isolated: []Pair{
			{Symbol: "BTCUSDT", Base: "BTC", Quote: "USDT", Multiple: 5},
			{Symbol: "ETHUSDT", Base: "ETH", Quote: "USDT", Multiple: 5},
			{Symbol: "TRXUSDT", Base: "TRX", Quote: "USDT", Multiple: 3},
			{Symbol: "XRPUSDT", Base: "XRP", Quote: "USDT", Multiple: 3},
			{Symbol: "TONUSDT", Base: "TON", Quote: "USDT", Multiple: 3},
		},
		OTCCoins:     []string{"USDT", "BTC", "ETH"},
		FuturesCoins: []string{"USDT"},
		EarnCoins: []EarnCoin{
			{Coin: "USDT", YearRate: "6.5"}, {Coin: "BTC", YearRate: "1.2"}, {Coin: "ETH", YearRate: "2.4"},
			{Coin: "TRX", YearRate: "4.8"}, {Coin: "TON", YearRate: "3.6"},
		},
		RemindRiskRate: "1.5",
	}
}

// pair finds an isolated pair by symbol (BTCUSDT, BTC/USDT, btc_usdt).
func (m Markets) pair(symbol string) (Pair, bool) {
	s := strings.ToUpper(strings.NewReplacer("/", "", "_", "", "-", "").Replace(strings.TrimSpace(symbol)))
	for _, p := range m.Isolated {
		if p.Symbol == s {
			return p, true
		}
	}
	return Pair{}, false
}

// earnRate is the seeded yearly rate of an earn coin ("0" when unlisted).
func (m Markets) earnRate(coin string) string {
	for _, ec := range m.EarnCoins {
		if ec.Coin == coin {
			return ec.YearRate
		}
	}
	return "0"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
