package coins

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
)

// Display precisions of spec §9. Per-coin precisions come from the
// catalogue (Coin.Precision is showPrecision).
const (
	PrecisionOTC             = 2 // OTC balances
	PrecisionFutures         = 8 // futures balances
	PrecisionMarginDefault   = 4 // margin balances when the server gives none
	PrecisionTotals          = 8 // totals
	PrecisionFiatValuation   = 2 // valuations in the chosen fiat currency
	PrecisionFee             = 2 // fees
	PrecisionWithdrawBounds  = 4 // withdraw min / max
	PrecisionWithdrawable    = 8 // withdrawable amount
	PrecisionFuturesTransfer = 3 // futures transfer amounts are truncated to this
)

// TruncateToPrecision cuts amount to precision decimals without rounding
// (toward zero): the spec's "at the asset's decimal precision", which must
// never show or send more than the user has.
func TruncateToPrecision(amount decimal.Decimal, precision int32) decimal.Decimal {
	if precision < 0 {
		precision = 0
	}
	return amount.Truncate(precision)
}

// FormatFixed renders amount truncated to precision with exactly precision
// decimals (the "fix" display of spec §3).
func FormatFixed(amount decimal.Decimal, precision int32) string {
	if precision < 0 {
		precision = 0
	}
	return TruncateToPrecision(amount, precision).StringFixed(precision)
}

// Amount validation errors (spec §5 "digits with an optional decimal point
// only"). Callers test them with errors.Is.
var (
	ErrAmountEmpty     = errors.New("coins: amount is empty")
	ErrAmountFormat    = errors.New("coins: amount must be digits with an optional decimal point")
	ErrAmountPrecision = errors.New("coins: amount has too many decimals")
	ErrAmountZero      = errors.New("coins: amount must be above 0")
	ErrAmountTooLong   = errors.New("coins: amount is too long")
)

// MaxAmountLen bounds the text of an amount; no real amount is longer, and
// it keeps hostile input from costing big-number arithmetic.
const MaxAmountLen = 40

// IsPlainDecimal reports whether s is digits with at most one decimal point
// and at least one digit ("5", "5.", ".5", "0.25"): how users' amounts and
// orders' prices and quantities are written (no sign, exponent or spaces).
func IsPlainDecimal(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// ParseAmount validates an amount typed by a user: digits with an optional
// decimal point only (no sign, exponent, spaces or separators), at most
// precision decimals, and above zero (every user amount — withdrawal,
// transfer — must be). It returns the exact value.
func ParseAmount(s string, precision int32) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Zero, ErrAmountEmpty
	}
	if len(s) > MaxAmountLen {
		return decimal.Zero, fmt.Errorf("%w: at most %d characters", ErrAmountTooLong, MaxAmountLen)
	}
	if !IsPlainDecimal(s) {
		return decimal.Zero, ErrAmountFormat
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		// Trailing zeros do not add precision ("1.50" at precision 1 is 1.5),
		// and the value is taken without them: "1.000…0" with thirty zeros
		// is 1, not a number of thirty decimals that the ledger refuses.
		frac := strings.TrimRight(s[i+1:], "0")
		if int32(len(frac)) > max(precision, 0) {
			return decimal.Zero, fmt.Errorf("%w: at most %d", ErrAmountPrecision, max(precision, 0))
		}
		if s = s[:i]; frac != "" {
			s += "." + frac
		}
		if s == "" {
			s = "0"
		}
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, ErrAmountFormat
	}
	if !d.IsPositive() {
		return decimal.Zero, ErrAmountZero
	}
	return d, nil
}

// AmountError maps ParseAmount's errors to the catalogue's codes (spec
// §5: digits with at most one decimal point, above 0, at most precision
// decimals), for services that answer with them.
func AmountError(err error, precision int32) error {
	switch {
	case errors.Is(err, ErrAmountEmpty):
		return apperr.Param("amount: required")
	case errors.Is(err, ErrAmountTooLong):
		return apperr.New(apperr.CodeWalletAmountTooLong)
	case errors.Is(err, ErrAmountPrecision):
		return apperr.New(apperr.CodeWalletAmountPrecision, precision)
	case errors.Is(err, ErrAmountZero):
		return apperr.New(apperr.CodeWalletAmountZero)
	}
	return apperr.New(apperr.CodeWalletAmountFormat)
}
