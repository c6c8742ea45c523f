package paymethod

import (
	"errors"
	"slices"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/coins"
)

// Kind codes.
const (
	KindBank      = "bank"
	KindQPay      = "qpay"
	KindSocialPay = "socialpay"
)

// Fields a kind asks for, as the API spells them.
const (
	FieldBank     = "bank"
	FieldAccount  = "account"
	FieldUserName = "userName"
)

// FiatMNT is the fiat every kind serves: the tugrik.
const FiatMNT = "MNT"

// PhoneDigits is the length of a Mongolian phone number, the account of
// the wallet-style kinds.
const PhoneDigits = 8

// Bank is one bank a bank transfer may name (the wallet's bank list:
// wallet.Banks, read through Options.Banks).
type Bank struct {
	// Code is what a new method sends as its bank (wallet.Bank.Payment).
	Code   string `json:"code"`
	Name   string `json:"name"`
	NameMN string `json:"nameMn"`
}

// Kind is one kind of payment method a user may choose (the
// getCompanyPayment answer).
type Kind struct {
	Code   string `json:"code" doc:"bank, qpay or socialpay"`
	Name   string `json:"name"`
	NameMN string `json:"nameMn"`
	// Fields are the fields a new method of the kind must give.
	Fields []string `json:"fields" doc:"bank, account, userName"`
	Fiat   string   `json:"fiat" doc:"MNT"`
	// Banks are the banks to choose from (the bank kind only).
	Banks []Bank `json:"banks,omitempty"`
}

// walletKinds are the kinds whose account is a phone number.
var walletKinds = []Kind{
	{Code: KindQPay, Name: "QPay", NameMN: "QPay", Fields: []string{FieldAccount, FieldUserName}, Fiat: FiatMNT},
	{Code: KindSocialPay, Name: "SocialPay", NameMN: "SocialPay", Fields: []string{FieldAccount, FieldUserName}, Fiat: FiatMNT},
}

// Kinds lists the kinds a user may choose, bank transfer first. Without a
// bank list (Options.Banks unset or empty) the bank kind is left out,
// since no bank could be chosen.
func (s *Service) Kinds() []Kind {
	out := make([]Kind, 0, 1+len(walletKinds))
	if banks := s.banks(); len(banks) > 0 {
		out = append(out, Kind{Code: KindBank, Name: "Bank transfer", NameMN: "Банкны шилжүүлэг",
			Fields: []string{FieldBank, FieldAccount, FieldUserName}, Fiat: FiatMNT, Banks: banks})
	}
	for _, k := range walletKinds {
		k.Fields = append([]string(nil), k.Fields...)
		out = append(out, k)
	}
	return out
}

func (s *Service) banks() []Bank {
	if s.o.Banks == nil {
		return nil
	}
	// A copy, so a caller changing the answer never changes the list.
	return slices.Clone(s.o.Banks())
}

// kind finds an offered kind by its code, in any letter case.
func (s *Service) kind(code string) (Kind, bool) {
	code = strings.ToLower(strings.TrimSpace(code))
	for _, k := range s.Kinds() {
		if k.Code == code {
			return k, true
		}
	}
	return Kind{}, false
}

// bankOf finds a bank of kind k (the bank kind) by its code, in any letter
// case.
func bankOf(k Kind, code string) (Bank, bool) {
	code = strings.TrimSpace(code)
	for _, b := range k.Banks {
		if code != "" && strings.EqualFold(b.Code, code) {
			return b, true
		}
	}
	return Bank{}, false
}

// normalizePhone is the stored form of a wallet-style account: 8 digits.
// Spaces and dashes between digits are dropped and a leading +976 (the
// country code) is accepted, as people copy numbers in those forms.
func normalizePhone(s string) (string, bool) {
	s = strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(s))
	s = strings.TrimPrefix(s, "+976")
	if len(s) != PhoneDigits {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", false
		}
	}
	return s, true
}

// ibanError maps the coins package's IBAN rule failures to this area's
// codes, which carry the same texts.
func ibanError(err error) error {
	switch {
	case errors.Is(err, coins.ErrIBANRequired):
		return apperr.New(apperr.CodePayIBANRequired)
	case errors.Is(err, coins.ErrIBANDigits):
		return apperr.New(apperr.CodePayIBANDigits)
	default:
		return apperr.New(apperr.CodePayIBANFormat)
	}
}
