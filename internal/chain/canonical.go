package chain

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// Canonical returns the comparison form of a valid address of chain c: two
// spellings that the chain's format defines as the same destination have
// the same canonical form, and different destinations different ones. Use
// it for every equality test and lookup key of addresses; keep showing the
// user the address as typed or derived. It refuses, with Validate's error,
// any address Validate refuses (so a mixed-case bech32 address or a
// mixed-case EVM address with a wrong EIP-55 checksum has no canonical
// form). Per format:
//
//   - Bitcoin bech32 / bech32m (bc1...): all lower case. BIP173 allows the
//     all-upper form (BC1Q..., used in QR codes) for the same address.
//   - Bitcoin legacy base58check (1..., 3...): as given; base58 is
//     case-sensitive, so another case is another (or no) address.
//   - EVM (ETH, ERC20, BEP20): "0x" and 40 lower-case hex digits; the EIP-55
//     mixed case is only a checksum over the same 20 bytes.
//   - TRON (base58check) and XRP (Ripple base58 classic address): as given,
//     case-sensitive.
//   - TON: the raw form "workchain:hex" with lower-case hex ("0:..." or
//     "-1:..."). The user-friendly forms (base64 or base64url, bounceable or
//     non-bounceable) and the raw form in either hex case all name the same
//     account.
//
// Memos are not part of the address: compare them separately.
func Canonical(c Chain, address string) (string, error) {
	if err := Validate(c, address); err != nil {
		return "", err
	}
	fam, _ := c.Family()
	switch fam {
	case FamilyBitcoin:
		if isBech32Bitcoin(address) {
			return strings.ToLower(address), nil
		}
		return address, nil
	case FamilyEVM:
		return "0x" + strings.ToLower(address[2:]), nil
	case FamilyTON:
		wc, hash, err := tonAccount(address)
		if err != nil {
			return "", err
		}
		return strconv.Itoa(int(wc)) + ":" + hex.EncodeToString(hash), nil
	default: // FamilyTron, FamilyXRP
		return address, nil
	}
}

// SameAddress reports whether a and b are the same destination on chain c:
// equal canonical forms when both are valid, otherwise byte equality (an
// invalid address is equal only to itself).
func SameAddress(c Chain, a, b string) bool {
	if a == b {
		return true
	}
	ca, err := Canonical(c, a)
	if err != nil {
		return false
	}
	cb, err := Canonical(c, b)
	return err == nil && ca == cb
}

// isBech32Bitcoin reports whether a (valid) Bitcoin address is a SegWit
// bech32/bech32m address, as validateBitcoin tells them apart.
func isBech32Bitcoin(addr string) bool {
	lower := strings.ToLower(addr)
	i := strings.LastIndexByte(lower, '1')
	return i > 0 && lower[:i] == btcHRP
}
