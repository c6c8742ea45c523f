// Package chain derives deposit addresses and validates withdrawal addresses
// in the real formats of the chains the exchange supports: Bitcoin (bech32 /
// bech32m SegWit and legacy base58check), Ethereum and BNB Smart Chain
// (EIP-55 checksummed hex), TRON (base58check, 0x41 prefix), XRP (Ripple
// base58 classic addresses with a destination tag) and TON (user-friendly
// base64 with CRC16, or raw workchain:hex, with a comment memo).
//
// Canonical gives the form in which two spellings of one destination are
// equal (lower-case bech32 and EVM hex, base58 as given, raw TON); compare
// and key addresses only in that form.
//
// Deposit addresses come from account-level extended public keys (BIP32), so
// the service never holds a private key: it only needs the xpub of the
// account whose private key lives in cold storage or a signer.
package chain

import (
	"errors"
	"strings"
)

// Chain is a chain name as the product shows it (spec §3 "chains[].name").
// Several names share one address family: ETH, ERC20 and BEP20 use the same
// EVM address; TRX and TRC20 the same TRON address.
type Chain string

// Chain names of the catalogue.
const (
	BTC   Chain = "BTC"
	ETH   Chain = "ETH"
	ERC20 Chain = "ERC20"
	BEP20 Chain = "BEP20"
	TRX   Chain = "TRX"
	TRC20 Chain = "TRC20"
	XRP   Chain = "XRP"
	TON   Chain = "TON"
)

// Family is the address format (and derivation scheme) a chain uses.
type Family string

// Address families.
const (
	FamilyBitcoin Family = "bitcoin"
	FamilyEVM     Family = "evm"
	FamilyTron    Family = "tron"
	FamilyXRP     Family = "xrp"
	FamilyTON     Family = "ton"
)

// Errors returned by validation and derivation. Callers test them with
// errors.Is; the wrapped message says what exactly is wrong.
var (
	// ErrUnknownChain: the chain name is not one this package handles.
	ErrUnknownChain = errors.New("chain: unknown chain")
	// ErrEmpty: no address was given.
	ErrEmpty = errors.New("chain: empty address")
	// ErrLength: the address has the wrong length for its format.
	ErrLength = errors.New("chain: wrong address length")
	// ErrCharacter: the address contains a character its encoding does not use.
	ErrCharacter = errors.New("chain: invalid character in address")
	// ErrChecksum: the address checksum does not match.
	ErrChecksum = errors.New("chain: bad address checksum")
	// ErrPrefix: the address does not start with the prefix of its chain.
	ErrPrefix = errors.New("chain: wrong address prefix")
	// ErrNetwork: the address is for another network (testnet, another chain).
	ErrNetwork = errors.New("chain: address is for another network")
	// ErrFormat: the address is malformed in another way.
	ErrFormat = errors.New("chain: malformed address")
	// ErrMemo: the memo (destination tag / comment) is invalid for the chain.
	ErrMemo = errors.New("chain: invalid memo")
	// ErrNoMemo: the chain has no memo.
	ErrNoMemo = errors.New("chain: chain takes no memo")
	// ErrConfig: the deriver configuration is unusable.
	ErrConfig = errors.New("chain: bad configuration")
	// ErrIndex: the derivation index is out of range.
	ErrIndex = errors.New("chain: derivation index out of range")
)

// All lists every chain this package handles, in catalogue order.
func All() []Chain {
	return []Chain{BTC, ETH, ERC20, BEP20, TRX, TRC20, XRP, TON}
}

// Parse maps a chain name, case-insensitively, to a Chain.
func Parse(name string) (Chain, error) {
	c := Chain(strings.ToUpper(strings.TrimSpace(name)))
	if _, err := c.Family(); err != nil {
		return "", err
	}
	return c, nil
}

// Family returns the address family of the chain.
func (c Chain) Family() (Family, error) {
	switch c {
	case BTC:
		return FamilyBitcoin, nil
	case ETH, ERC20, BEP20:
		return FamilyEVM, nil
	case TRX, TRC20:
		return FamilyTron, nil
	case XRP:
		return FamilyXRP, nil
	case TON:
		return FamilyTON, nil
	}
	return "", errorf(ErrUnknownChain, "%q", string(c))
}

// IsMemoChain reports whether deposits on the chain go to one shared
// exchange address and are told apart by a per-user memo (tag).
func (c Chain) IsMemoChain() bool {
	return c == XRP || c == TON
}

// Validate checks that address is a well-formed mainnet address of chain,
// including its checksum. The returned error wraps one of the Err values.
func Validate(c Chain, address string) error {
	fam, err := c.Family()
	if err != nil {
		return err
	}
	if address == "" {
		return ErrEmpty
	}
	switch fam {
	case FamilyBitcoin:
		return validateBitcoin(address)
	case FamilyEVM:
		return validateEVM(address)
	case FamilyTron:
		return validateTron(address)
	case FamilyXRP:
		return validateXRP(address)
	default:
		return validateTON(address)
	}
}

// ValidateMemo checks a memo given with a withdrawal address. An empty memo
// is always accepted (the memo is optional for the sender; the receiver may
// require it). XRP destination tags are unsigned 32-bit integers; TON
// comments are printable text of at most MaxTONCommentLen bytes. Chains
// without memos accept only the empty memo.
func ValidateMemo(c Chain, memo string) error {
	if _, err := c.Family(); err != nil {
		return err
	}
	if memo == "" {
		return nil
	}
	switch c {
	case XRP:
		_, err := parseDestinationTag(memo)
		return err
	case TON:
		return validateTONComment(memo)
	}
	return errorf(ErrNoMemo, "%s", string(c))
}
