package chain

import (
	"fmt"
	"strings"

	"github.com/btcsuite/btcd/btcutil"
	"github.com/btcsuite/btcd/btcutil/base58"
	"github.com/btcsuite/btcd/btcutil/bech32"
)

// errorf wraps a sentinel error with detail.
func errorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))
}

// Bitcoin mainnet encodings.
const (
	btcHRP          = "bc"
	btcP2PKHVersion = 0x00
	btcP2SHVersion  = 0x05
)

// Human-readable parts and base58 versions of other Bitcoin networks, so a
// testnet address gets a "wrong network" error rather than a generic one.
var (
	btcOtherHRPs     = map[string]bool{"tb": true, "bcrt": true, "sb": true}
	btcOtherVersions = map[byte]bool{0x6f: true, 0xc4: true}
)

// bitcoinP2WPKH encodes a compressed public key as a native SegWit v0
// pay-to-witness-public-key-hash address (BIP141/BIP173).
func bitcoinP2WPKH(compressedPubKey []byte) (string, error) {
	prog := btcutil.Hash160(compressedPubKey)
	return segwitEncode(btcHRP, 0, prog)
}

// segwitEncode builds a SegWit address: witness version as the first 5-bit
// group, then the program regrouped to 5 bits; bech32 for v0, bech32m above.
func segwitEncode(hrp string, version byte, program []byte) (string, error) {
	conv, err := bech32.ConvertBits(program, 8, 5, true)
	if err != nil {
		return "", err
	}
	data := append([]byte{version}, conv...)
	if version == 0 {
		return bech32.Encode(hrp, data)
	}
	return bech32.EncodeM(hrp, data)
}

// validateBitcoin accepts mainnet P2WPKH, P2WSH (bech32, witness v0), P2TR
// (bech32m, witness v1) and legacy P2PKH / P2SH (base58check) addresses.
func validateBitcoin(addr string) error {
	lower := strings.ToLower(addr)
	if i := strings.LastIndexByte(lower, '1'); i > 0 {
		hrp := lower[:i]
		if hrp == btcHRP {
			return validateSegwit(addr)
		}
		if btcOtherHRPs[hrp] {
			return errorf(ErrNetwork, "bech32 prefix %q is not Bitcoin mainnet (bc1...)", hrp)
		}
	}
	return validateBase58Bitcoin(addr)
}

func validateSegwit(addr string) error {
	if len(addr) > 90 {
		return errorf(ErrLength, "bech32 address has %d characters, at most 90", len(addr))
	}
	hrp, data, ver, err := bech32.DecodeGeneric(addr)
	if err != nil {
		return bech32Error(err)
	}
	if hrp != btcHRP {
		return errorf(ErrPrefix, "bech32 prefix %q, want %q", hrp, btcHRP)
	}
	if len(data) < 1 {
		return errorf(ErrLength, "no witness version")
	}
	wv := data[0]
	prog, err := bech32.ConvertBits(data[1:], 5, 8, false)
	if err != nil {
		return errorf(ErrFormat, "witness program padding: %v", err)
	}
	switch wv {
	case 0:
		if ver != bech32.Version0 {
			return errorf(ErrChecksum, "witness v0 must use bech32, not bech32m")
		}
		if len(prog) != 20 && len(prog) != 32 {
			return errorf(ErrLength, "witness v0 program is %d bytes, want 20 (P2WPKH) or 32 (P2WSH)", len(prog))
		}
	case 1:
		if ver != bech32.VersionM {
			return errorf(ErrChecksum, "witness v1 must use bech32m")
		}
		if len(prog) != 32 {
			return errorf(ErrLength, "witness v1 program is %d bytes, want 32 (P2TR)", len(prog))
		}
	default:
		// Versions 2..16 are reserved for future soft forks; nothing can
		// spend them safely today, so the exchange refuses to send there.
		return errorf(ErrFormat, "unsupported witness version %d", wv)
	}
	return nil
}

// bech32Error maps the library's decode errors onto this package's errors.
func bech32Error(err error) error {
	switch err.(type) {
	case bech32.ErrInvalidChecksum:
		return errorf(ErrChecksum, "bech32 checksum mismatch")
	case bech32.ErrInvalidCharacter, bech32.ErrNonCharsetChar, bech32.ErrMixedCase:
		return errorf(ErrCharacter, "%v", err)
	case bech32.ErrInvalidLength:
		return errorf(ErrLength, "%v", err)
	}
	return errorf(ErrFormat, "%v", err)
}

func validateBase58Bitcoin(addr string) error {
	// P2PKH is 26..34 characters, P2SH 34; anything else is not an address.
	if len(addr) < 25 || len(addr) > 35 {
		return errorf(ErrLength, "address has %d characters, want 26 to 34 (legacy) or a bc1 address", len(addr))
	}
	payload, version, err := decodeBase58Check(addr, bitcoinAlphabet)
	if err != nil {
		return err
	}
	if btcOtherVersions[version] {
		return errorf(ErrNetwork, "testnet address (version 0x%02x)", version)
	}
	if version != btcP2PKHVersion && version != btcP2SHVersion {
		return errorf(ErrPrefix, "version byte 0x%02x is neither P2PKH (1...) nor P2SH (3...)", version)
	}
	if len(payload) != 20 {
		return errorf(ErrLength, "payload is %d bytes, want 20", len(payload))
	}
	return nil
}

// Base58 alphabets. Ripple uses the same scheme with its own alphabet.
const (
	bitcoinAlphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	rippleAlphabet  = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz"
)

// decodeBase58Check decodes a base58check string written in alphabet into
// its version byte and payload, checking characters and the double-SHA256
// checksum. Other alphabets are translated to Bitcoin's by position, which
// is exactly how they are defined.
func decodeBase58Check(s, alphabet string) (payload []byte, version byte, err error) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		j := strings.IndexByte(alphabet, s[i])
		if j < 0 {
			return nil, 0, errorf(ErrCharacter, "%q at position %d is not base58", s[i], i+1)
		}
		b.WriteByte(bitcoinAlphabet[j])
	}
	payload, version, err = base58.CheckDecode(b.String())
	switch err {
	case nil:
		return payload, version, nil
	case base58.ErrChecksum:
		return nil, 0, errorf(ErrChecksum, "base58check checksum mismatch")
	default:
		return nil, 0, errorf(ErrLength, "too short for base58check")
	}
}

// encodeBase58Check is the inverse of decodeBase58Check.
func encodeBase58Check(payload []byte, version byte, alphabet string) string {
	s := base58.CheckEncode(payload, version)
	if alphabet == bitcoinAlphabet {
		return s
	}
	out := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = alphabet[strings.IndexByte(bitcoinAlphabet, s[i])]
	}
	return string(out)
}
