package chain

import (
	"math"
	"strconv"
	"strings"

	"github.com/btcsuite/btcd/btcutil/hdkeychain"
)

// Config names the keys and shared addresses deposits are derived from.
// The xpubs are ACCOUNT-level extended public keys (depth 3):
//   - BTCXpub: BIP84 m/84'/0'/0' (xpub or zpub serialisation);
//   - ETHXpub: BIP44 m/44'/60'/0' (used for ETH, ERC20 and BEP20);
//   - TRONXpub: BIP44 m/44'/195'/0' (used for TRX and TRC20).
//
// Deposit i is the external-chain child 0/i of the account. XRPAddress and
// TONAddress are the exchange's single deposit address on those memo chains.
type Config struct {
	BTCXpub    string `json:"btcXpub"`
	ETHXpub    string `json:"ethXpub"`
	TRONXpub   string `json:"tronXpub"`
	XRPAddress string `json:"xrpAddress"`
	TONAddress string `json:"tonAddress"`
}

// Development keys. They are the account keys of the public BIP39 test
// mnemonic "abandon abandon abandon abandon abandon abandon abandon abandon
// abandon abandon abandon about" (no passphrase), whose private keys anyone
// can compute: they exist so a local `tenger serve` shows real-format
// addresses out of the box. NEVER use them for real funds; production must
// configure its own keys (see UsesDevelopmentKeys).
const (
	// DevBTCXpub is m/84'/0'/0' of the test mnemonic (the BIP84 vector).
	DevBTCXpub = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
	// DevETHXpub is m/44'/60'/0' of the test mnemonic.
	DevETHXpub = "xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt"
	// DevTRONXpub is m/44'/195'/0' of the test mnemonic.
	DevTRONXpub = "xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd"
	// DevXRPAddress is the XRP account of m/44'/144'/0'/0/0 of the test mnemonic.
	DevXRPAddress = "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3"
	// DevTONAddress is a well-formed non-bounceable basechain address whose
	// account hash is SHA-256("tenger development TON deposit address"): it
	// belongs to no wallet.
	DevTONAddress = "UQDn5Z_v1MEVAC6Okpigcd5Gg063kOyryMUcPMgCEJJD21U6"
)

// DevelopmentConfig returns the local-only configuration built from the
// public test mnemonic (see DevBTCXpub).
func DevelopmentConfig() Config {
	return Config{BTCXpub: DevBTCXpub, ETHXpub: DevETHXpub, TRONXpub: DevTRONXpub,
		XRPAddress: DevXRPAddress, TONAddress: DevTONAddress}
}

// WithDefaults fills every empty field with its development value.
func (c Config) WithDefaults() Config {
	d := DevelopmentConfig()
	if c.BTCXpub == "" {
		c.BTCXpub = d.BTCXpub
	}
	if c.ETHXpub == "" {
		c.ETHXpub = d.ETHXpub
	}
	if c.TRONXpub == "" {
		c.TRONXpub = d.TRONXpub
	}
	if c.XRPAddress == "" {
		c.XRPAddress = d.XRPAddress
	}
	if c.TONAddress == "" {
		c.TONAddress = d.TONAddress
	}
	return c
}

// UsesDevelopmentKeys reports whether any field still holds a development
// value, so a production start-up can refuse to run with them.
func (c Config) UsesDevelopmentKeys() bool {
	d := DevelopmentConfig()
	return c.BTCXpub == d.BTCXpub || c.ETHXpub == d.ETHXpub || c.TRONXpub == d.TRONXpub ||
		c.XRPAddress == d.XRPAddress || c.TONAddress == d.TONAddress
}

// Address is a deposit destination: the chain address, plus the memo the
// sender must attach on memo chains (empty elsewhere).
type Address struct {
	Address string `json:"address"`
	Memo    string `json:"memo,omitempty"`
}

// MemoBase is added to a user's index to form the memo on memo chains, so
// memos are never 0 (which some wallets treat as "no tag") and have at least
// six digits.
const MemoBase = 100000

// MaxMemoIndex is the largest index that still has an XRP destination tag.
const MaxMemoIndex = math.MaxUint32 - MemoBase

// Deriver computes deposit addresses. It is safe for concurrent use: the
// parsed keys are read-only after New.
type Deriver struct {
	cfg     Config
	btcExt  *hdkeychain.ExtendedKey // m/84'/0'/0'/0
	evmExt  *hdkeychain.ExtendedKey // m/44'/60'/0'/0
	tronExt *hdkeychain.ExtendedKey // m/44'/195'/0'/0
}

// New parses and checks the configuration. Empty fields are an error; use
// Config.WithDefaults for local development.
func New(cfg Config) (*Deriver, error) {
	d := &Deriver{cfg: cfg}
	var err error
	if d.btcExt, err = externalChain("BTCXpub", cfg.BTCXpub); err != nil {
		return nil, err
	}
	if d.evmExt, err = externalChain("ETHXpub", cfg.ETHXpub); err != nil {
		return nil, err
	}
	if d.tronExt, err = externalChain("TRONXpub", cfg.TRONXpub); err != nil {
		return nil, err
	}
	if err := Validate(XRP, cfg.XRPAddress); err != nil {
		return nil, errorf(ErrConfig, "XRPAddress: %v", err)
	}
	if err := Validate(TON, cfg.TONAddress); err != nil {
		return nil, errorf(ErrConfig, "TONAddress: %v", err)
	}
	return d, nil
}

// externalChain parses an account xpub and derives its external (receive)
// chain key, child 0.
func externalChain(field, xpub string) (*hdkeychain.ExtendedKey, error) {
	if xpub == "" {
		return nil, errorf(ErrConfig, "%s is empty", field)
	}
	k, err := hdkeychain.NewKeyFromString(strings.TrimSpace(xpub))
	if err != nil {
		return nil, errorf(ErrConfig, "%s: %v", field, err)
	}
	if k.IsPrivate() {
		// The service must never hold spending keys.
		return nil, errorf(ErrConfig, "%s is a private key; configure the account's extended PUBLIC key", field)
	}
	if k.Depth() != 3 {
		return nil, errorf(ErrConfig, "%s has depth %d; want an account key (depth 3, m/purpose'/coin'/account')", field, k.Depth())
	}
	ext, err := k.Derive(0)
	if err != nil {
		return nil, errorf(ErrConfig, "%s: %v", field, err)
	}
	return ext, nil
}

// DepositAddress returns the deposit destination of the user with the given
// index on chain. The same (chain family, index) always yields the same
// address, and different indexes different addresses (or memos).
func (d *Deriver) DepositAddress(c Chain, index uint32) (Address, error) {
	fam, err := c.Family()
	if err != nil {
		return Address{}, err
	}
	switch fam {
	case FamilyXRP:
		memo, err := Memo(c, index)
		return Address{Address: d.cfg.XRPAddress, Memo: memo}, err
	case FamilyTON:
		memo, err := Memo(c, index)
		return Address{Address: d.cfg.TONAddress, Memo: memo}, err
	}
	if index >= hdkeychain.HardenedKeyStart {
		return Address{}, errorf(ErrIndex, "%d is not a non-hardened child index", index)
	}
	switch fam {
	case FamilyBitcoin:
		k, err := d.btcExt.Derive(index)
		if err != nil {
			return Address{}, err
		}
		pub, err := k.ECPubKey()
		if err != nil {
			return Address{}, err
		}
		a, err := bitcoinP2WPKH(pub.SerializeCompressed())
		return Address{Address: a}, err
	case FamilyEVM:
		k, err := d.evmExt.Derive(index)
		if err != nil {
			return Address{}, err
		}
		pub, err := k.ECPubKey()
		if err != nil {
			return Address{}, err
		}
		return Address{Address: eip55(evmAccount(pub.SerializeUncompressed()))}, nil
	default: // FamilyTron
		k, err := d.tronExt.Derive(index)
		if err != nil {
			return Address{}, err
		}
		pub, err := k.ECPubKey()
		if err != nil {
			return Address{}, err
		}
		return Address{Address: tronAddress(pub.SerializeUncompressed())}, nil
	}
}

// Memo returns the memo of the user with the given index on a memo chain:
// the decimal string of MemoBase+index (an XRP destination tag, or a TON
// text comment made of digits).
func Memo(c Chain, index uint32) (string, error) {
	if !c.IsMemoChain() {
		return "", errorf(ErrNoMemo, "%s", string(c))
	}
	if index > MaxMemoIndex {
		return "", errorf(ErrIndex, "%d exceeds the largest memo index %d", index, uint32(MaxMemoIndex))
	}
	return strconv.FormatUint(uint64(index)+MemoBase, 10), nil
}

// MemoIndex inverts Memo: it returns the user index a deposit memo names,
// or an error when the memo is not one the exchange issued.
func MemoIndex(c Chain, memo string) (uint32, error) {
	if !c.IsMemoChain() {
		return 0, errorf(ErrNoMemo, "%s", string(c))
	}
	v, err := parseDestinationTag(strings.TrimSpace(memo))
	if err != nil {
		return 0, err
	}
	if v < MemoBase {
		return 0, errorf(ErrMemo, "memo %s was not issued by the exchange", memo)
	}
	return v - MemoBase, nil
}
