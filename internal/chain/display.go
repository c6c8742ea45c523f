package chain

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	qrcode "github.com/skip2/go-qrcode"
)

// MemoSeparator joins an address and its memo in the spec's single-string
// "address_memo" form (spec §3).
const MemoSeparator = "_"

// JoinAddressMemo renders the "address_memo" form; without a memo it is the
// address alone.
func JoinAddressMemo(address, memo string) string {
	if memo == "" {
		return address
	}
	return address + MemoSeparator + memo
}

// ParseAddressMemo splits the "address_memo" form of a memo chain into
// address and memo. Non-memo chains never split (their addresses have no
// memo). XRP classic addresses contain no underscore, so the first one
// separates. TON base64url addresses may themselves contain underscores, so
// a user-friendly address is taken as its fixed 48 characters, and only the
// raw form (which has no underscore) splits at the first underscore. The
// parts are not validated here; pass them to Validate and ValidateMemo.
func ParseAddressMemo(c Chain, s string) (address, memo string) {
	s = strings.TrimSpace(s)
	if !c.IsMemoChain() {
		return s, ""
	}
	if c == TON && !strings.Contains(s, ":") {
		if len(s) > tonFriendlyLen && s[tonFriendlyLen:tonFriendlyLen+1] == MemoSeparator {
			return s[:tonFriendlyLen], s[tonFriendlyLen+1:]
		}
		if len(s) <= tonFriendlyLen {
			return s, ""
		}
		// Not a 48-character address: fall back to the last underscore so
		// validation reports what is wrong with the address part.
		if i := strings.LastIndex(s, MemoSeparator); i >= 0 {
			return s[:i], s[i+1:]
		}
		return s, ""
	}
	if a, m, ok := strings.Cut(s, MemoSeparator); ok {
		return a, m
	}
	return s, ""
}

// Spec §5 / §9: an address longer than 37 characters shows as its first
// 28 characters, an ellipsis and its last 6.
const (
	shortThreshold = 37
	shortHead      = 28
	shortTail      = 6
)

// ShortAddress returns the display form of an address (spec §5).
func ShortAddress(s string) string {
	if utf8.RuneCountInString(s) <= shortThreshold {
		return s
	}
	r := []rune(s)
	return string(r[:shortHead]) + "..." + string(r[len(r)-shortTail:])
}

// qrSize is the QR image edge in pixels; it stays sharp in the deposit
// modal on high-density screens.
const qrSize = 256

// QRDataURL renders text as a QR code PNG and returns it as a data URL
// (the addressQRCode field of the deposit address result).
func QRDataURL(text string) (string, error) {
	if text == "" {
		return "", ErrEmpty
	}
	png, err := qrcode.Encode(text, qrcode.Medium, qrSize)
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}
