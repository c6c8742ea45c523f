// Package coins is the catalogue of coins and the chains (or the bank) each
// is deposited and withdrawn on: display names and precisions, open flags,
// withdrawal fee, minimum and maximum, confirmations, deposit minimum, block
// time and block-explorer page per chain.
//
// The default catalogue is embedded (coins_default.json). Operators change
// it without code changes through coins.json in the data directory, in the
// same format, merged field by field over the defaults per coin and chain
// (see Load and Set). The package also holds the spec's precision rules,
// the user amount validator and the MNT bank account (IBAN) rules.
package coins

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/chain"
)

// Bank is the chain name of the fiat bank rail (spec §4 "Bank chain").
const Bank = "Bank"

// Tag types (spec §3 chain.tagType): a chain with a tag type allows a memo.
const (
	TagNone = 0
	TagMemo = 1
)

// MaxPrecision bounds every precision: the ledger keeps at most 18 decimals.
const MaxPrecision = 18

// ChainConfig is one way a coin moves in and out of the exchange.
type ChainConfig struct {
	// Name is the chain name as the product shows it: BTC, ETH, ERC20,
	// TRC20, BEP20, TRX, XRP, TON or Bank.
	Name string `json:"name"`
	// MainChainName names the network the chain runs on (ETH for ERC20,
	// TRON for TRC20, BSC for BEP20), shown as mainChainName(Tip).
	MainChainName string `json:"mainChainName"`
	// TagType is TagMemo on chains whose deposits carry a memo (XRP, TON).
	TagType      int  `json:"tagType"`
	DepositOpen  bool `json:"depositOpen"`
	WithdrawOpen bool `json:"withdrawOpen"`
	// Precision is the most decimals an amount on this chain may have.
	Precision   int32           `json:"precision"`
	WithdrawFee decimal.Decimal `json:"withdrawFee"`
	WithdrawMin decimal.Decimal `json:"withdrawMin"`
	WithdrawMax decimal.Decimal `json:"withdrawMax"`
	// Confirmations a deposit needs before it is credited (0 on Bank,
	// where the bank's own confirmation counts).
	Confirmations int `json:"confirmations"`
	// DepositMin is the smallest deposit credited on the chain (0: any).
	// A smaller transfer is recorded in the user's history as below the
	// minimum and not credited. Not used on Bank.
	DepositMin decimal.Decimal `json:"depositMin"`
	// BlockSeconds is the chain's average time between blocks (0:
	// unknown), which with Confirmations gives a deposit's expected
	// arrival time. Not used on Bank.
	BlockSeconds int `json:"blockSeconds"`
	// ExplorerTxURL is the chain's block-explorer page of a transaction,
	// with {txid} (and optionally {chain}) in place of its values: an
	// absolute http(s) URL or a path on this site ("" when there is none,
	// as on Bank).
	ExplorerTxURL string `json:"explorerTxUrl"`
}

// ArrivalSeconds is how long a deposit takes, on average, from its
// transfer until it is credited: its confirmations' worth of blocks. 0
// when the block time is not known.
func (c ChainConfig) ArrivalSeconds() int { return c.Confirmations * c.BlockSeconds }

// TxURL is the explorer page of a transaction on the chain, built from
// template (ExplorerTxURL, or a deployment's own explorer), "" without a
// template or a transaction id. The values are escaped, so a strange id
// can never change the page's address beyond its own place.
func TxURL(template, chainName, txid string) string {
	if template == "" || strings.TrimSpace(txid) == "" {
		return ""
	}
	return strings.NewReplacer("{txid}", url.QueryEscape(txid), "{chain}", url.QueryEscape(chainName)).Replace(template)
}

// HasMemo reports whether the chain takes a memo (tag).
func (c ChainConfig) HasMemo() bool { return c.TagType == TagMemo }

// IsBank reports whether this is the fiat bank rail.
func (c ChainConfig) IsBank() bool { return c.Name == Bank }

// AddressChain returns the chain package's name for an on-chain rail;
// false for Bank.
func (c ChainConfig) AddressChain() (chain.Chain, bool) {
	ch, err := chain.Parse(c.Name)
	return ch, err == nil
}

// Coin is one asset of the catalogue.
type Coin struct {
	// Symbol is the coin code balances are kept under (BTC, USDT, MNT).
	Symbol string `json:"symbol"`
	// Name is the showName.
	Name     string `json:"name"`
	LongName string `json:"longName"`
	// Precision is the showPrecision: decimals shown for balances.
	Precision int32  `json:"precision"`
	Icon      string `json:"icon"`
	IsFiat    bool   `json:"isFiat"`
	// DepositCode and WithdrawCode are the codes the deposit and withdraw
	// screens use when they differ from Symbol (the fiat: deposit MNT,
	// withdraw MONT, spec §4). Lookups by either code find the coin.
	DepositCode  string        `json:"depositCode,omitempty"`
	WithdrawCode string        `json:"withdrawCode,omitempty"`
	Chains       []ChainConfig `json:"chains"`
}

// DepositOpen reports whether any chain of the coin accepts deposits.
func (c Coin) DepositOpen() bool {
	for _, ch := range c.Chains {
		if ch.DepositOpen {
			return true
		}
	}
	return false
}

// WithdrawOpen reports whether any chain of the coin allows withdrawals.
func (c Coin) WithdrawOpen() bool {
	for _, ch := range c.Chains {
		if ch.WithdrawOpen {
			return true
		}
	}
	return false
}

// Chain returns the coin's chain of that name (case-insensitive).
func (c Coin) Chain(name string) (ChainConfig, bool) {
	for _, ch := range c.Chains {
		if strings.EqualFold(ch.Name, strings.TrimSpace(name)) {
			return ch, true
		}
	}
	return ChainConfig{}, false
}

func (c Coin) clone() Coin {
	c.Chains = append([]ChainConfig(nil), c.Chains...)
	return c
}

// Catalogue is a validated, read-only set of coins. It is safe for
// concurrent use; lookups return copies.
type Catalogue struct {
	coins  []Coin
	byCode map[string]int
}

// Coin returns the coin with the given symbol, deposit code or withdraw
// code (case-insensitive): Coin("MONT") finds the fiat MNT.
func (c *Catalogue) Coin(symbol string) (Coin, bool) {
	i, ok := c.byCode[strings.ToUpper(strings.TrimSpace(symbol))]
	if !ok {
		return Coin{}, false
	}
	return c.coins[i].clone(), true
}

// Chain returns the settings of one coin on one chain.
func (c *Catalogue) Chain(symbol, chainName string) (ChainConfig, bool) {
	coin, ok := c.Coin(symbol)
	if !ok {
		return ChainConfig{}, false
	}
	return coin.Chain(chainName)
}

// List returns every coin in catalogue order (defaults first, then coins
// the operator added).
func (c *Catalogue) List() []Coin {
	out := make([]Coin, len(c.coins))
	for i, coin := range c.coins {
		out[i] = coin.clone()
	}
	return out
}

// Fiat returns the fiat coin (MNT in the default catalogue).
func (c *Catalogue) Fiat() (Coin, bool) {
	for _, coin := range c.coins {
		if coin.IsFiat {
			return coin.clone(), true
		}
	}
	return Coin{}, false
}

// ErrInvalidCatalogue wraps every validation failure of a catalogue file.
var ErrInvalidCatalogue = errors.New("coins: invalid catalogue")

var symbolRE = regexp.MustCompile(`^[A-Z0-9]{2,12}$`)

// knownChains lists the chain names a catalogue may use.
func knownChain(name string) bool {
	if name == Bank {
		return true
	}
	_, err := chain.Parse(name)
	return err == nil && strings.ToUpper(name) == name
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidCatalogue, fmt.Sprintf(format, args...))
}

// NewCatalogue validates coins and builds a catalogue from them.
func NewCatalogue(coins []Coin) (*Catalogue, error) {
	cat := &Catalogue{byCode: map[string]int{}}
	fiats := 0
	for i, coin := range coins {
		if err := validateCoin(coin); err != nil {
			return nil, err
		}
		if coin.IsFiat {
			fiats++
		}
		for _, code := range []string{coin.Symbol, coin.DepositCode, coin.WithdrawCode} {
			if code == "" {
				continue
			}
			if j, dup := cat.byCode[code]; dup && j != i {
				return nil, invalid("code %s is used by %s and %s", code, coins[j].Symbol, coin.Symbol)
			}
			cat.byCode[code] = i
		}
		cat.coins = append(cat.coins, coin.clone())
	}
	if fiats > 1 {
		return nil, invalid("%d fiat coins; at most one is supported", fiats)
	}
	return cat, nil
}

func validateCoin(c Coin) error {
	if !symbolRE.MatchString(c.Symbol) {
		return invalid("coin symbol %q must be 2-12 upper-case letters or digits", c.Symbol)
	}
	for _, code := range []string{c.DepositCode, c.WithdrawCode} {
		if code != "" && !symbolRE.MatchString(code) {
			return invalid("%s: code %q must be 2-12 upper-case letters or digits", c.Symbol, code)
		}
	}
	if strings.TrimSpace(c.Name) == "" {
		return invalid("%s: name (showName) is empty", c.Symbol)
	}
	if c.Precision < 0 || c.Precision > MaxPrecision {
		return invalid("%s: precision %d out of range 0..%d", c.Symbol, c.Precision, MaxPrecision)
	}
	if len(c.Chains) == 0 {
		return invalid("%s: no chains", c.Symbol)
	}
	seen := map[string]bool{}
	for _, ch := range c.Chains {
		if err := validateChain(c, ch); err != nil {
			return err
		}
		if seen[ch.Name] {
			return invalid("%s: chain %s listed twice", c.Symbol, ch.Name)
		}
		seen[ch.Name] = true
	}
	return nil
}

func validateChain(c Coin, ch ChainConfig) error {
	at := c.Symbol + "/" + ch.Name
	if !knownChain(ch.Name) {
		return invalid("%s: unknown chain %q (known: BTC, ETH, ERC20, TRC20, BEP20, TRX, XRP, TON, Bank)", at, ch.Name)
	}
	if ch.IsBank() != c.IsFiat {
		if c.IsFiat {
			return invalid("%s: the fiat coin moves only on the Bank chain", at)
		}
		return invalid("%s: only the fiat coin uses the Bank chain", at)
	}
	if strings.TrimSpace(ch.MainChainName) == "" {
		return invalid("%s: mainChainName is empty", at)
	}
	if ch.TagType != TagNone && ch.TagType != TagMemo {
		return invalid("%s: tagType %d must be 0 (no memo) or 1 (memo)", at, ch.TagType)
	}
	if ac, ok := ch.AddressChain(); ok && ac.IsMemoChain() != ch.HasMemo() {
		// Memo chains share one deposit address, so the memo is what
		// identifies the user: the flag must follow the chain.
		return invalid("%s: tagType must be %d on this chain", at, map[bool]int{true: TagMemo, false: TagNone}[ac.IsMemoChain()])
	}
	if ch.Precision < 0 || ch.Precision > MaxPrecision {
		return invalid("%s: precision %d out of range 0..%d", at, ch.Precision, MaxPrecision)
	}
	if ch.Confirmations < 0 || ch.Confirmations > 10000 {
		return invalid("%s: confirmations %d out of range 0..10000", at, ch.Confirmations)
	}
	if ch.BlockSeconds < 0 || ch.BlockSeconds > 86400 {
		return invalid("%s: blockSeconds %d out of range 0..86400", at, ch.BlockSeconds)
	}
	if err := validateExplorer(at, ch.ExplorerTxURL); err != nil {
		return err
	}
	if ch.IsBank() && (ch.DepositMin.IsPositive() || ch.BlockSeconds != 0 || ch.ExplorerTxURL != "") {
		// Bank deposits are matched by reference, not watched on a chain:
		// a setting here would be shown and never applied.
		return invalid("%s: depositMin, blockSeconds and explorerTxUrl are chain settings, not used on Bank", at)
	}
	for _, f := range []struct {
		name string
		v    decimal.Decimal
	}{{"withdrawFee", ch.WithdrawFee}, {"withdrawMin", ch.WithdrawMin}, {"withdrawMax", ch.WithdrawMax}, {"depositMin", ch.DepositMin}} {
		if f.v.IsNegative() {
			return invalid("%s: %s %s is negative", at, f.name, f.v)
		}
		if -f.v.Exponent() > ch.Precision && !f.v.Equal(f.v.Truncate(ch.Precision)) {
			return invalid("%s: %s %s has more than %d decimals", at, f.name, f.v, ch.Precision)
		}
	}
	if !ch.WithdrawMax.IsPositive() {
		return invalid("%s: withdrawMax must be above 0", at)
	}
	if ch.WithdrawMin.GreaterThan(ch.WithdrawMax) {
		return invalid("%s: withdrawMin %s is greater than withdrawMax %s", at, ch.WithdrawMin, ch.WithdrawMax)
	}
	if ch.WithdrawFee.GreaterThan(ch.WithdrawMin) {
		// The amount sent is the typed amount minus the fee (spec §5);
		// a minimum below the fee would allow sending nothing.
		return invalid("%s: withdrawFee %s is greater than withdrawMin %s", at, ch.WithdrawFee, ch.WithdrawMin)
	}
	return nil
}

// validateExplorer accepts an empty template, or an absolute http(s) URL or
// a path on this site ("/dev/chain/tx?...") holding {txid}.
func validateExplorer(at, template string) error {
	if template == "" {
		return nil
	}
	if !strings.Contains(template, "{txid}") {
		return invalid("%s: explorerTxUrl %q has no {txid}", at, template)
	}
	u, err := url.Parse(strings.NewReplacer("{txid}", "t", "{chain}", "c").Replace(template))
	switch {
	case err != nil:
		return invalid("%s: explorerTxUrl %q: %v", at, template, err)
	case (u.Scheme == "https" || u.Scheme == "http") && u.Host != "":
		return nil
	case u.Scheme == "" && u.Host == "" && strings.HasPrefix(template, "/") && !strings.HasPrefix(template, "//"):
		return nil
	}
	return invalid("%s: explorerTxUrl %q must be an http(s) URL or a path starting with /", at, template)
}
