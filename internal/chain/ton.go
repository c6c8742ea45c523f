package chain

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TON user-friendly address layout: tag (1) || workchain (1) || account
// hash (32) || CRC16-XMODEM of the first 34 bytes (2, big endian), 36 bytes
// that encode to exactly 48 base64 characters.
const (
	tonFriendlyLen   = 48
	tonBounceable    = 0x11
	tonNonBounceable = 0x51
	tonTestOnly      = 0x80
	tonBasechain     = 0
	tonMasterchain   = -1
	// MaxTONCommentLen is the longest text comment accepted as a TON memo:
	// one cell holds 127 bytes, 4 of which are the comment op code.
	MaxTONCommentLen = 123
)

// crc16XModem is CRC-16 with polynomial 0x1021, initial value 0, no
// reflection (the XMODEM variant TON uses).
func crc16XModem(data []byte) uint16 {
	var crc uint16
	for _, b := range data {
		crc ^= uint16(b) << 8
		for i := 0; i < 8; i++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// tonFriendly encodes a workchain and account hash as a user-friendly
// address in base64url (the form wallets show today).
func tonFriendly(workchain int8, hash [32]byte, bounceable bool) string {
	var raw [36]byte
	raw[0] = tonNonBounceable
	if bounceable {
		raw[0] = tonBounceable
	}
	raw[1] = byte(workchain)
	copy(raw[2:34], hash[:])
	binary.BigEndian.PutUint16(raw[34:], crc16XModem(raw[:34]))
	return base64.RawURLEncoding.EncodeToString(raw[:])
}

// validateTON accepts a user-friendly address (48 characters of base64 or
// base64url, bounceable or non-bounceable, mainnet, CRC16 checked) or a raw
// address "workchain:64 hex digits" on the basechain (0) or masterchain (-1).
func validateTON(addr string) error {
	_, _, err := tonAccount(addr)
	return err
}

// tonAccount decodes a valid TON address, in any of its forms, into the
// account it names: workchain and 32-byte account hash. The bounceable flag
// and the base64 alphabet of a user-friendly form are hints to the sender's
// wallet, not part of the account.
func tonAccount(addr string) (wc int8, hash []byte, err error) {
	if strings.Contains(addr, ":") {
		return tonRawAccount(addr)
	}
	if len(addr) != tonFriendlyLen {
		return 0, nil, errorf(ErrLength, "address has %d characters, want 48 (or the raw form workchain:hex)", len(addr))
	}
	hasStd, hasURL := false, false
	for i := 0; i < len(addr); i++ {
		c := addr[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '+' || c == '/':
			hasStd = true
		case c == '-' || c == '_':
			hasURL = true
		default:
			return 0, nil, errorf(ErrCharacter, "%q at position %d is not base64", c, i+1)
		}
	}
	if hasStd && hasURL {
		return 0, nil, errorf(ErrCharacter, "address mixes base64 and base64url characters")
	}
	enc := base64.RawURLEncoding
	if hasStd {
		enc = base64.RawStdEncoding
	}
	raw, err := enc.DecodeString(addr)
	if err != nil || len(raw) != 36 {
		return 0, nil, errorf(ErrFormat, "not a base64 TON address")
	}
	if binary.BigEndian.Uint16(raw[34:]) != crc16XModem(raw[:34]) {
		return 0, nil, errorf(ErrChecksum, "CRC16 checksum mismatch")
	}
	tag := raw[0]
	if tag&tonTestOnly != 0 {
		return 0, nil, errorf(ErrNetwork, "testnet-only TON address")
	}
	if tag != tonBounceable && tag != tonNonBounceable {
		return 0, nil, errorf(ErrPrefix, "unknown address tag 0x%02x", tag)
	}
	if wc := int8(raw[1]); wc != tonBasechain && wc != tonMasterchain {
		return 0, nil, errorf(ErrNetwork, "unknown workchain %d", wc)
	}
	return int8(raw[1]), raw[2:34], nil
}

func tonRawAccount(addr string) (int8, []byte, error) {
	wc, hash, _ := strings.Cut(addr, ":")
	if wc != "0" && wc != "-1" {
		return 0, nil, errorf(ErrNetwork, "raw address workchain %q, want 0 or -1", wc)
	}
	if len(hash) != 64 {
		return 0, nil, errorf(ErrLength, "raw address hash has %d characters, want 64 hex digits", len(hash))
	}
	b, err := hex.DecodeString(hash)
	if err != nil {
		return 0, nil, errorf(ErrCharacter, "raw address hash is not hex")
	}
	if wc == "-1" {
		return tonMasterchain, b, nil
	}
	return tonBasechain, b, nil
}

// validateTONComment accepts printable UTF-8 text up to MaxTONCommentLen
// bytes: it travels as a plain text comment in the transfer message.
func validateTONComment(memo string) error {
	if len(memo) > MaxTONCommentLen {
		return errorf(ErrMemo, "comment is %d bytes, at most %d", len(memo), MaxTONCommentLen)
	}
	if !utf8.ValidString(memo) {
		return errorf(ErrMemo, "comment is not valid UTF-8")
	}
	for _, r := range memo {
		if !unicode.IsPrint(r) {
			return errorf(ErrMemo, "comment contains a control character")
		}
	}
	return nil
}
