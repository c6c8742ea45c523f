package chain

import (
	"strconv"

	"github.com/btcsuite/btcd/btcutil"
)

// xrpVersion is the type prefix of an XRP classic account address.
const xrpVersion = 0x00

// xrpAddress encodes a compressed secp256k1 public key as an XRP classic
// address: Ripple-alphabet base58check(0x00 || RIPEMD160(SHA256(pubkey))).
func xrpAddress(compressedPubKey []byte) string {
	return encodeBase58Check(btcutil.Hash160(compressedPubKey), xrpVersion, rippleAlphabet)
}

// validateXRP accepts classic addresses: 25 to 35 characters in the Ripple
// base58 alphabet, starting with r, version 0x00, 20-byte account id and a
// valid double-SHA256 checksum.
func validateXRP(addr string) error {
	if len(addr) < 25 || len(addr) > 35 {
		return errorf(ErrLength, "address has %d characters, want 25 to 35", len(addr))
	}
	if addr[0] != 'r' {
		if addr[0] == 'X' || addr[0] == 'T' {
			return errorf(ErrFormat, "X-addresses are not accepted; give the classic r... address and the destination tag")
		}
		return errorf(ErrPrefix, "XRP classic addresses start with r")
	}
	payload, version, err := decodeBase58Check(addr, rippleAlphabet)
	if err != nil {
		return err
	}
	if version != xrpVersion {
		return errorf(ErrPrefix, "version byte 0x%02x, want 0x00", version)
	}
	if len(payload) != 20 {
		return errorf(ErrLength, "account id is %d bytes, want 20", len(payload))
	}
	return nil
}

// parseDestinationTag parses an XRP destination tag: decimal digits of an
// unsigned 32-bit integer, without sign, spaces or leading zeros.
func parseDestinationTag(memo string) (uint32, error) {
	if len(memo) > 10 {
		return 0, errorf(ErrMemo, "destination tag has more than 10 digits")
	}
	for i := 0; i < len(memo); i++ {
		if memo[i] < '0' || memo[i] > '9' {
			return 0, errorf(ErrMemo, "destination tag must be digits only")
		}
	}
	if len(memo) > 1 && memo[0] == '0' {
		return 0, errorf(ErrMemo, "destination tag has a leading zero")
	}
	v, err := strconv.ParseUint(memo, 10, 32)
	if err != nil {
		return 0, errorf(ErrMemo, "destination tag must be at most 4294967295")
	}
	return uint32(v), nil
}
