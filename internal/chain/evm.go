package chain

import (
	"encoding/hex"
	"strings"

	"golang.org/x/crypto/sha3"
)

// keccak256 is the original Keccak (not FIPS SHA3-256) that Ethereum and
// TRON use for addresses.
func keccak256(data []byte) []byte {
	h := sha3.NewLegacyKeccak256()
	h.Write(data)
	return h.Sum(nil)
}

// evmAccount returns the 20-byte account id of an uncompressed secp256k1
// public key (65 bytes, 0x04 prefix): the last 20 bytes of the Keccak-256 of
// the 64 coordinate bytes.
func evmAccount(uncompressedPubKey []byte) []byte {
	return keccak256(uncompressedPubKey[1:])[12:]
}

// eip55 renders a 20-byte account as a 0x address with the EIP-55 mixed-case
// checksum: a hex letter is upper case when the matching nibble of the
// Keccak-256 of the lower-case hex is 8 or more.
func eip55(account []byte) string {
	lower := hex.EncodeToString(account)
	hash := keccak256([]byte(lower))
	out := []byte(lower)
	for i := range out {
		if out[i] < 'a' {
			continue
		}
		nibble := hash[i/2]
		if i%2 == 0 {
			nibble >>= 4
		}
		if nibble&0x0f >= 8 {
			out[i] -= 'a' - 'A'
		}
	}
	return "0x" + string(out)
}

// ChecksumEVMAddress returns the EIP-55 form of a valid EVM address (for
// storing and showing addresses the user typed in lower case).
func ChecksumEVMAddress(addr string) (string, error) {
	if err := validateEVM(addr); err != nil {
		return "", err
	}
	b, _ := hex.DecodeString(strings.ToLower(addr[2:]))
	return eip55(b), nil
}

// validateEVM accepts 0x followed by 40 hex digits. All-lower and all-upper
// hex carry no checksum and are accepted as is; mixed case must match
// EIP-55 exactly, which catches almost every typo.
func validateEVM(addr string) error {
	if len(addr) != 42 {
		return errorf(ErrLength, "address has %d characters, want 42 (0x and 40 hex digits)", len(addr))
	}
	if addr[:2] != "0x" {
		return errorf(ErrPrefix, "address must start with 0x")
	}
	body := addr[2:]
	hasLower, hasUpper := false, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f':
			hasLower = true
		case c >= 'A' && c <= 'F':
			hasUpper = true
		default:
			return errorf(ErrCharacter, "%q at position %d is not a hex digit", c, i+3)
		}
	}
	if hasLower && hasUpper {
		b, _ := hex.DecodeString(strings.ToLower(body))
		if eip55(b)[2:] != body {
			return errorf(ErrChecksum, "mixed-case address fails the EIP-55 checksum")
		}
	}
	return nil
}
