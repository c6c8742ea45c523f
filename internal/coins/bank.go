package coins

import "strings"

// Mongolian bank account (IBAN) rules of spec §5 and §9: MN followed by
// exactly 18 digits, 20 characters in all. The input takes digits only (up
// to 18) behind a fixed MN; a pasted value must be the full 20 characters;
// MN is prepended on submit when absent.
const (
	IBANPrefix = "MN"
	IBANDigits = 18
	IBANLength = len(IBANPrefix) + IBANDigits
)

// IBANError is an IBAN rule failure carrying the spec's message texts, so
// the HTTP layer can register them as catalogue codes.
type IBANError struct {
	// Rule names the failed rule (required, digits, format).
	Rule string
	// MN is the spec's Mongolian text (spec §8); EN its English rendering.
	MN, EN string
}

func (e *IBANError) Error() string { return "coins: " + e.EN }

// IBAN errors, compared with errors.Is (they are singletons).
var (
	// ErrIBANRequired: no bank account was given (add-bank "bank address required").
	ErrIBANRequired = &IBANError{Rule: "required",
		MN: "Банкны дансны дугаар оруулна уу.", EN: "Please enter the bank account (IBAN)."}
	// ErrIBANDigits: typed digits are not exactly 18 — spec text
	// 'Буруу IBAN формат. 18 орон байх ёстой.'
	ErrIBANDigits = &IBANError{Rule: "digits",
		MN: "Буруу IBAN формат. 18 орон байх ёстой.", EN: "Invalid IBAN format. It must have 18 digits."}
	// ErrIBANFormat: a pasted or full value is not MN plus 18 digits —
	// spec text 'Буруу IBAN формат. MN-ээр эхэлж, 20 тэмдэгттэй байх ёстой.'
	ErrIBANFormat = &IBANError{Rule: "format",
		MN: "Буруу IBAN формат. MN-ээр эхэлж, 20 тэмдэгттэй байх ёстой.", EN: "Invalid IBAN format. It must start with MN and be 20 characters long."}
)

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// NormalizeIBAN applies the submit rules to what the user gave and returns
// the stored form "MN" + 18 digits. Digits alone must be exactly 18
// (ErrIBANDigits) and get MN prepended; anything else must be exactly MN
// and 18 digits, 20 characters (ErrIBANFormat). Surrounding spaces are
// ignored; the MN prefix is accepted in any case.
func NormalizeIBAN(input string) (string, error) {
	s := strings.TrimSpace(input)
	if s == "" {
		return "", ErrIBANRequired
	}
	if allDigits(s) {
		if len(s) != IBANDigits {
			return "", ErrIBANDigits
		}
		return IBANPrefix + s, nil
	}
	if len(s) != IBANLength || !strings.EqualFold(s[:len(IBANPrefix)], IBANPrefix) || !allDigits(s[len(IBANPrefix):]) {
		return "", ErrIBANFormat
	}
	return IBANPrefix + s[len(IBANPrefix):], nil
}

// ValidateIBAN checks the stored form strictly: "MN" and 18 digits.
func ValidateIBAN(iban string) error {
	if iban == "" {
		return ErrIBANRequired
	}
	if len(iban) != IBANLength || iban[:len(IBANPrefix)] != IBANPrefix || !allDigits(iban[len(IBANPrefix):]) {
		return ErrIBANFormat
	}
	return nil
}

// IBANInput applies the input field's rules to typed or pasted text and
// returns what the field keeps: the 18 digits of a pasted full IBAN, or
// the digits typed, at most 18 (any other character is dropped). A pasted
// value that starts with MN but is not MN plus 18 digits is refused with
// ErrIBANFormat, as the spec's paste rule says.
func IBANInput(text string) (string, error) {
	s := strings.TrimSpace(text)
	if len(s) >= len(IBANPrefix) && strings.EqualFold(s[:len(IBANPrefix)], IBANPrefix) {
		if len(s) != IBANLength || !allDigits(s[len(IBANPrefix):]) {
			return "", ErrIBANFormat
		}
		return s[len(IBANPrefix):], nil
	}
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < IBANDigits; i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}
