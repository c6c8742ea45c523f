package auth

import (
	"net/mail"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Account names an account by e-mail, or by country code and mobile number.
type Account struct {
	Email       string
	CountryCode string
	Mobile      string
}

// ident is a validated, normalised e-mail or phone number.
type ident struct {
	email string // lower case; "" for a phone
	cc    string // digits, no "+"
	num   string // digits
}

func (i ident) isEmail() bool { return i.email != "" }

// channel is the notifier channel that reaches the identity.
func (i ident) channel() string {
	if i.isEmail() {
		return ChannelEmail
	}
	return ChannelSMS
}

// target is the identity inside code and rate-limit keys.
func (i ident) target() string {
	if i.isEmail() {
		return "email:" + i.email
	}
	return "phone:+" + i.cc + "#" + i.num
}

// to is the delivery address.
func (i ident) to() string {
	if i.isEmail() {
		return i.email
	}
	return "+" + i.cc + i.num
}

// uniqueKey is the item that reserves the identity for one account.
func (i ident) uniqueKey() store.Key {
	if i.isEmail() {
		return store.Key{PK: "EMAIL#" + i.email, SK: "UNIQUE"}
	}
	return store.Key{PK: "PHONE#+" + i.cc + "#" + i.num, SK: "UNIQUE"}
}

// normalize validates the account: exactly one of e-mail or phone.
func (a Account) normalize() (ident, error) {
	email := strings.TrimSpace(a.Email)
	hasPhone := strings.TrimSpace(a.CountryCode) != "" || strings.TrimSpace(a.Mobile) != ""
	switch {
	case email != "" && hasPhone:
		return ident{}, apperr.Param("give either email or countryCode+mobileNumber, not both")
	case email != "":
		return normEmail(email)
	case hasPhone:
		return normPhone(a.CountryCode, a.Mobile)
	}
	return ident{}, apperr.Param("email or countryCode+mobileNumber: required")
}

func normEmail(s string) (ident, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	bad := apperr.Param("email: must be a valid e-mail address")
	if len(s) < 3 || len(s) > 254 || strings.ContainsAny(s, " \t\r\n<>\"(),;:\\[]#") {
		return ident{}, bad
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s {
		return ident{}, bad
	}
	at := strings.LastIndexByte(s, '@')
	if at < 1 || !strings.Contains(s[at+1:], ".") || strings.HasSuffix(s, ".") {
		return ident{}, bad
	}
	return ident{email: s}, nil
}

func normPhone(cc, num string) (ident, error) {
	cc = strings.TrimPrefix(strings.TrimSpace(cc), "+")
	num = strings.NewReplacer(" ", "", "-", "", "(", "", ")", "").Replace(strings.TrimSpace(num))
	if cc == "" {
		return ident{}, apperr.Param("countryCode: required")
	}
	if num == "" {
		return ident{}, apperr.Param("mobileNumber: required")
	}
	if len(cc) > 4 || !allDigits(cc) || cc[0] == '0' {
		return ident{}, apperr.Param("countryCode: must be 1-4 digits")
	}
	if len(num) < 4 || len(num) > 14 || !allDigits(num) {
		return ident{}, apperr.Param("mobileNumber: must be 4-14 digits")
	}
	// E.164: the whole number has at most 15 digits (and SMS gateways want 7+).
	if n := len(cc) + len(num); n < 7 || n > 15 {
		return ident{}, apperr.Param("mobileNumber: not a valid number for this country code")
	}
	return ident{cc: cc, num: num}, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
