package binance

import (
	"net/http"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/coins"
)

// The /sapi calls clients make while loading markets: the coins and their
// networks (CCXT's fetchCurrencies), and the margin pairs, of which there
// are none until margin trading exists.

type network struct {
	AddressRegex            string `json:"addressRegex"`
	Coin                    string `json:"coin"`
	DepositDesc             string `json:"depositDesc,omitempty"`
	DepositEnable           bool   `json:"depositEnable"`
	IsDefault               bool   `json:"isDefault"`
	MemoRegex               string `json:"memoRegex"`
	MinConfirm              int    `json:"minConfirm"`
	Name                    string `json:"name"`
	Network                 string `json:"network"`
	SpecialTips             string `json:"specialTips"`
	UnLockConfirm           int    `json:"unLockConfirm"`
	WithdrawDesc            string `json:"withdrawDesc,omitempty"`
	WithdrawEnable          bool   `json:"withdrawEnable"`
	WithdrawFee             string `json:"withdrawFee"`
	WithdrawIntegerMultiple string `json:"withdrawIntegerMultiple"`
	WithdrawMax             string `json:"withdrawMax"`
	WithdrawMin             string `json:"withdrawMin"`
	DepositDust             string `json:"depositDust"`
	SameAddress             bool   `json:"sameAddress"`
	EstimatedArrivalTime    int    `json:"estimatedArrivalTime"`
	Busy                    bool   `json:"busy"`
	ContractAddressURL      string `json:"contractAddressUrl"`
	ContractAddress         string `json:"contractAddress"`
}

type coinConfig struct {
	Coin              string    `json:"coin"`
	DepositAllEnable  bool      `json:"depositAllEnable"`
	Free              string    `json:"free"`
	Freeze            string    `json:"freeze"`
	Ipoable           string    `json:"ipoable"`
	Ipoing            string    `json:"ipoing"`
	IsLegalMoney      bool      `json:"isLegalMoney"`
	Locked            string    `json:"locked"`
	Name              string    `json:"name"`
	NetworkList       []network `json:"networkList"`
	Storage           string    `json:"storage"`
	Trading           bool      `json:"trading"`
	WithdrawAllEnable bool      `json:"withdrawAllEnable"`
	Withdrawing       string    `json:"withdrawing"`
}

func (s *Server) addSapiRoutes() {
	s.route(http.MethodGet, "/sapi/v1/capital/config/getall", 10, SecUserData, s.capitalConfig)
	empty := func(*Call) (any, error) { return []struct{}{}, nil }
	s.route(http.MethodGet, "/sapi/v1/margin/allPairs", 1, SecMarketData, empty).params("symbol")
	s.route(http.MethodGet, "/sapi/v1/margin/isolated/allPairs", 10, SecMarketData, empty).params("symbol")
}

// capitalConfig is GET /sapi/v1/capital/config/getall: every coin with the
// user's spot balance and its networks' rules.
func (s *Server) capitalConfig(c *Call) (any, error) {
	bals, err := s.opts.Balances.Balances(c.Ctx, account(c).UserID, "spot")
	if err != nil {
		return nil, err
	}
	free, locked := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
	for _, b := range bals {
		free[strings.ToUpper(b.Coin)], locked[strings.ToUpper(b.Coin)] = b.Available, b.Frozen
	}
	out := []coinConfig{}
	for _, coin := range s.coins.List() {
		sym := strings.ToUpper(coin.Symbol)
		cc := coinConfig{Coin: sym, DepositAllEnable: coin.DepositOpen(), WithdrawAllEnable: coin.WithdrawOpen(),
			Free: fixed(free[sym]), Freeze: fixed(decimal.Zero), Locked: fixed(locked[sym]), Ipoable: fixed(decimal.Zero),
			Ipoing: fixed(decimal.Zero), Storage: fixed(decimal.Zero), Withdrawing: fixed(decimal.Zero),
			IsLegalMoney: coin.IsFiat, Name: coin.LongName, Trading: s.tradesCoin(coin), NetworkList: []network{}}
		if cc.Name == "" {
			cc.Name = coin.Name
		}
		for i, ch := range coin.Chains {
			cc.NetworkList = append(cc.NetworkList, networkOf(sym, ch, i == 0))
		}
		out = append(out, cc)
	}
	return out, nil
}

// tradesCoin reports whether an open pair trades the coin.
func (s *Server) tradesCoin(coin coins.Coin) bool {
	for _, p := range s.mk.List() {
		if !p.Closed && (strings.EqualFold(p.Base, coin.Symbol) || strings.EqualFold(p.Quote, coin.Symbol)) {
			return true
		}
	}
	return false
}

func networkOf(sym string, ch coins.ChainConfig, first bool) network {
	step := decimal.New(1, -ch.Precision)
	memo := ""
	if ch.TagType != 0 {
		memo = ".*"
	}
	name := ch.MainChainName
	if name == "" {
		name = ch.Name
	}
	return network{Coin: sym, Network: NetworkID(ch.Name), Name: name, IsDefault: first, DepositEnable: ch.DepositOpen,
		WithdrawEnable: ch.WithdrawOpen, WithdrawFee: fixed(ch.WithdrawFee), WithdrawMin: fixed(ch.WithdrawMin),
		WithdrawMax: fixed(ch.WithdrawMax), WithdrawIntegerMultiple: fixed(step), MinConfirm: ch.Confirmations,
		UnLockConfirm: ch.Confirmations, DepositDust: fixed(ch.DepositMin), MemoRegex: memo,
		EstimatedArrivalTime: ch.ArrivalSeconds() / 60}
}

// binanceNetworks are Binance's network ids of the token standards Tenger
// names its chains by.
var binanceNetworks = map[string]string{"ERC20": "ETH", "TRC20": "TRX", "BEP20": "BSC"}

// NetworkID is a chain's network id as Binance names it (BEP20 is BSC).
func NetworkID(chainName string) string {
	up := strings.ToUpper(chainName)
	if id, ok := binanceNetworks[up]; ok {
		return id
	}
	return up
}

// chainOf finds the coin's chain a Binance network id (or Tenger's own
// chain name) names; "" for none given, and the network as sent when no
// chain matches (the wallet then refuses it with its own message).
func (s *Server) chainOf(coin, network string) string {
	if network == "" {
		return ""
	}
	if c, ok := s.coins.Coin(coin); ok {
		for _, ch := range c.Chains {
			if NetworkID(ch.Name) == strings.ToUpper(network) {
				return ch.Name
			}
		}
		for _, ch := range c.Chains {
			if strings.EqualFold(ch.Name, network) {
				return ch.Name
			}
		}
	}
	return network
}
