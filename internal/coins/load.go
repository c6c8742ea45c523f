package coins

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// OperatorFile is the name of the operator's catalogue file in the data
// directory.
const OperatorFile = "coins.json"

//go:embed coins_default.json
var defaultJSON []byte

// catalogueFile is the on-disk format of the default catalogue.
type catalogueFile struct {
	Coins []Coin `json:"coins"`
}

// patchFile is the operator file: the same shape, every field optional, so
// the operator writes only what differs from the defaults.
type patchFile struct {
	Coins []coinPatch `json:"coins"`
}

type coinPatch struct {
	Symbol       string       `json:"symbol"`
	Name         *string      `json:"name,omitempty"`
	LongName     *string      `json:"longName,omitempty"`
	Precision    *int32       `json:"precision,omitempty"`
	Icon         *string      `json:"icon,omitempty"`
	IsFiat       *bool        `json:"isFiat,omitempty"`
	DepositCode  *string      `json:"depositCode,omitempty"`
	WithdrawCode *string      `json:"withdrawCode,omitempty"`
	Chains       []chainPatch `json:"chains,omitempty"`
}

type chainPatch struct {
	Name          string           `json:"name"`
	MainChainName *string          `json:"mainChainName,omitempty"`
	TagType       *int             `json:"tagType,omitempty"`
	DepositOpen   *bool            `json:"depositOpen,omitempty"`
	WithdrawOpen  *bool            `json:"withdrawOpen,omitempty"`
	Precision     *int32           `json:"precision,omitempty"`
	WithdrawFee   *decimal.Decimal `json:"withdrawFee,omitempty"`
	WithdrawMin   *decimal.Decimal `json:"withdrawMin,omitempty"`
	WithdrawMax   *decimal.Decimal `json:"withdrawMax,omitempty"`
	Confirmations *int             `json:"confirmations,omitempty"`
	DepositMin    *decimal.Decimal `json:"depositMin,omitempty"`
	BlockSeconds  *int             `json:"blockSeconds,omitempty"`
	ExplorerTxURL *string          `json:"explorerTxUrl,omitempty"`
}

// decodeStrict decodes JSON refusing unknown fields (a typo in an operator
// file must not be silently ignored) and trailing data.
func decodeStrict(name string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
			return invalid("%s: line %d: %v", name, line, err)
		}
		return invalid("%s: %v", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return invalid("%s: unexpected data after the catalogue object", name)
	}
	return nil
}

// Defaults returns the embedded default catalogue.
func Defaults() (*Catalogue, error) {
	coins, err := defaultCoins()
	if err != nil {
		return nil, err
	}
	return NewCatalogue(coins)
}

func defaultCoins() ([]Coin, error) {
	var f catalogueFile
	if err := decodeStrict("coins_default.json", defaultJSON, &f); err != nil {
		return nil, err
	}
	return f.Coins, nil
}

// Load returns the default catalogue merged with DIR/coins.json when that
// file exists (dataDir "" means defaults only). The result is validated as
// a whole; errors name the file, coin and chain at fault.
func Load(dataDir string) (*Catalogue, error) {
	if dataDir == "" {
		return Defaults()
	}
	path := filepath.Join(dataDir, OperatorFile)
	patch, err := readPatch(path)
	if err != nil {
		return nil, err
	}
	return merge(patch, path)
}

func readPatch(path string) (patchFile, error) {
	var p patchFile
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("coins: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return p, nil
	}
	err = decodeStrict(path, data, &p)
	return p, err
}

// merge applies an operator patch over the defaults and validates.
func merge(p patchFile, source string) (*Catalogue, error) {
	coins, err := defaultCoins()
	if err != nil {
		return nil, err
	}
	for _, cp := range p.Coins {
		sym := strings.ToUpper(strings.TrimSpace(cp.Symbol))
		if sym == "" {
			return nil, invalid("%s: a coin entry has no symbol", source)
		}
		i := indexOfCoin(coins, sym)
		if i < 0 {
			coins = append(coins, Coin{Symbol: sym})
			i = len(coins) - 1
		}
		applyCoin(&coins[i], cp)
		for _, chp := range cp.Chains {
			if strings.TrimSpace(chp.Name) == "" {
				return nil, invalid("%s: %s has a chain entry without a name", source, sym)
			}
			j := indexOfChain(coins[i].Chains, chp.Name)
			if j < 0 {
				coins[i].Chains = append(coins[i].Chains, ChainConfig{Name: strings.TrimSpace(chp.Name)})
				j = len(coins[i].Chains) - 1
			}
			applyChain(&coins[i].Chains[j], chp)
		}
	}
	cat, err := NewCatalogue(coins)
	if err != nil && source != "" {
		return nil, fmt.Errorf("%w (after merging %s)", err, source)
	}
	return cat, err
}

// indexOfCoin finds a coin by symbol, or else by its deposit or withdraw
// code (an operator may write MONT for the fiat MNT).
func indexOfCoin(coins []Coin, sym string) int {
	for i, c := range coins {
		if c.Symbol == sym {
			return i
		}
	}
	for i, c := range coins {
		if c.DepositCode == sym || c.WithdrawCode == sym {
			return i
		}
	}
	return -1
}

func indexOfChain(chains []ChainConfig, name string) int {
	for i, c := range chains {
		if strings.EqualFold(c.Name, strings.TrimSpace(name)) {
			return i
		}
	}
	return -1
}

func applyCoin(c *Coin, p coinPatch) {
	set(&c.Name, p.Name)
	set(&c.LongName, p.LongName)
	set(&c.Precision, p.Precision)
	set(&c.Icon, p.Icon)
	set(&c.IsFiat, p.IsFiat)
	set(&c.DepositCode, p.DepositCode)
	set(&c.WithdrawCode, p.WithdrawCode)
}

func applyChain(c *ChainConfig, p chainPatch) {
	set(&c.MainChainName, p.MainChainName)
	set(&c.TagType, p.TagType)
	set(&c.DepositOpen, p.DepositOpen)
	set(&c.WithdrawOpen, p.WithdrawOpen)
	set(&c.Precision, p.Precision)
	set(&c.WithdrawFee, p.WithdrawFee)
	set(&c.WithdrawMin, p.WithdrawMin)
	set(&c.WithdrawMax, p.WithdrawMax)
	set(&c.Confirmations, p.Confirmations)
	set(&c.DepositMin, p.DepositMin)
	set(&c.BlockSeconds, p.BlockSeconds)
	set(&c.ExplorerTxURL, p.ExplorerTxURL)
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// Field names Set accepts (the JSON names, matched case-insensitively).
var (
	coinFields  = []string{"name", "longName", "precision", "icon", "isFiat", "depositCode", "withdrawCode"}
	chainFields = []string{"mainChainName", "tagType", "depositOpen", "withdrawOpen", "precision",
		"withdrawFee", "withdrawMin", "withdrawMax", "confirmations", "depositMin", "blockSeconds", "explorerTxUrl"}
)

// Set changes one field in the operator file at path (creating the file,
// coin or chain entry as needed) — the engine of `tenger coins set`. With
// chainName empty the field is a coin field (name, longName, precision,
// icon, isFiat, depositCode, withdrawCode); otherwise a chain field
// (mainChainName, tagType, depositOpen, withdrawOpen, precision,
// withdrawFee, withdrawMin, withdrawMax, confirmations, depositMin,
// blockSeconds, explorerTxUrl). The merged
// catalogue is validated before the file is replaced, so a bad edit leaves
// the file untouched.
func Set(path, symbol, chainName, field, value string) error {
	p, err := readPatch(path)
	if err != nil {
		return err
	}
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	if sym == "" {
		return invalid("no coin symbol given")
	}
	if coins, err := defaultCoins(); err == nil {
		if i := indexOfCoin(coins, sym); i >= 0 {
			sym = coins[i].Symbol
		}
	}
	ci := -1
	for i, c := range p.Coins {
		if strings.EqualFold(c.Symbol, sym) {
			ci = i
			break
		}
	}
	if ci < 0 {
		p.Coins = append(p.Coins, coinPatch{Symbol: sym})
		ci = len(p.Coins) - 1
	}
	value = strings.TrimSpace(value)
	if chainName = strings.TrimSpace(chainName); chainName == "" {
		err = setCoinField(&p.Coins[ci], field, value)
	} else {
		cp := &p.Coins[ci]
		chi := -1
		for i, c := range cp.Chains {
			if strings.EqualFold(c.Name, chainName) {
				chi = i
				break
			}
		}
		if chi < 0 {
			cp.Chains = append(cp.Chains, chainPatch{Name: canonicalChainName(sym, chainName)})
			chi = len(cp.Chains) - 1
		}
		err = setChainField(&cp.Chains[chi], field, value)
	}
	if err != nil {
		return err
	}
	if _, err := merge(p, path); err != nil {
		return err
	}
	return writeAtomic(path, p)
}

// canonicalChainName spells a chain name as the defaults do (Bank, TRC20)
// whatever case the operator typed.
func canonicalChainName(sym, name string) string {
	if coins, err := defaultCoins(); err == nil {
		if i := indexOfCoin(coins, sym); i >= 0 {
			if j := indexOfChain(coins[i].Chains, name); j >= 0 {
				return coins[i].Chains[j].Name
			}
		}
	}
	if strings.EqualFold(name, Bank) {
		return Bank
	}
	return strings.ToUpper(name)
}

func fieldErr(field string, valid []string) error {
	return invalid("unknown field %q; valid fields: %s", field, strings.Join(valid, ", "))
}

func valueErr(field, value, want string) error {
	return invalid("field %s: %q is not %s", field, value, want)
}

func parseBool(field, v string) (*bool, error) {
	switch strings.ToLower(v) {
	case "true", "1", "yes", "on", "open":
		b := true
		return &b, nil
	case "false", "0", "no", "off", "closed":
		b := false
		return &b, nil
	}
	return nil, valueErr(field, v, "a boolean (true/false)")
}

func parseInt(field, v string) (*int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil, valueErr(field, v, "an integer")
	}
	return &n, nil
}

func parsePrecision(field, v string) (*int32, error) {
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return nil, valueErr(field, v, "an integer")
	}
	p := int32(n)
	return &p, nil
}

func parseDecimal(field, v string) (*decimal.Decimal, error) {
	// Plain decimal notation only, sign allowed so validation can say
	// "negative" rather than "not a number".
	body := strings.TrimPrefix(v, "-")
	if body == "" || !IsPlainDecimal(body) {
		return nil, valueErr(field, v, "a decimal number")
	}
	d, err := decimal.NewFromString(v)
	if err != nil {
		return nil, valueErr(field, v, "a decimal number")
	}
	return &d, nil
}

func setCoinField(c *coinPatch, field, v string) error {
	var err error
	switch strings.ToLower(field) {
	case "name":
		c.Name = &v
	case "longname":
		c.LongName = &v
	case "icon":
		c.Icon = &v
	case "depositcode":
		v = strings.ToUpper(v)
		c.DepositCode = &v
	case "withdrawcode":
		v = strings.ToUpper(v)
		c.WithdrawCode = &v
	case "precision":
		c.Precision, err = parsePrecision(field, v)
	case "isfiat":
		c.IsFiat, err = parseBool(field, v)
	default:
		return fieldErr(field, coinFields)
	}
	return err
}

func setChainField(c *chainPatch, field, v string) error {
	var err error
	switch strings.ToLower(field) {
	case "mainchainname":
		c.MainChainName = &v
	case "tagtype":
		c.TagType, err = parseInt(field, v)
	case "depositopen":
		c.DepositOpen, err = parseBool(field, v)
	case "withdrawopen":
		c.WithdrawOpen, err = parseBool(field, v)
	case "precision":
		c.Precision, err = parsePrecision(field, v)
	case "withdrawfee":
		c.WithdrawFee, err = parseDecimal(field, v)
	case "withdrawmin":
		c.WithdrawMin, err = parseDecimal(field, v)
	case "withdrawmax":
		c.WithdrawMax, err = parseDecimal(field, v)
	case "confirmations":
		c.Confirmations, err = parseInt(field, v)
	case "depositmin":
		c.DepositMin, err = parseDecimal(field, v)
	case "blockseconds":
		c.BlockSeconds, err = parseInt(field, v)
	case "explorertxurl":
		c.ExplorerTxURL = &v
	default:
		return fieldErr(field, chainFields)
	}
	return err
}

// writeAtomic replaces path with the patch, via a temporary file and a
// rename so a crash never leaves a half-written catalogue.
func writeAtomic(path string, p patchFile) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("coins: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".coins-*.json")
	if err != nil {
		return fmt.Errorf("coins: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("coins: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("coins: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("coins: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("coins: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("coins: %w", err)
	}
	return nil
}
