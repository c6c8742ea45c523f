package earn

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Coins is what the service needs of the coin catalogue.
type Coins interface {
	Coin(symbol string) (coins.Coin, bool)
}

// Options build a Service.
type Options struct {
	Store  store.Store
	Ledger *ledger.Ledger
	// Funds moves money into and out of the spot account (the engine's).
	Funds spotfunds.Funds
	Coins Coins
	// Prices gives the index prices loans are valued at; Seller sells a
	// liquidated loan's collateral through the spot books.
	Prices Prices
	Seller Seller
	// Now is the clock (tests move it day by day).
	Now func() time.Time
	Log zerolog.Logger
}

// Service runs the earn products.
type Service struct {
	st     store.Store
	led    *ledger.Ledger
	funds  spotfunds.Funds
	coins  Coins
	prices Prices
	seller Seller
	now    func() time.Time
	log    zerolog.Logger
}

// New returns the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{st: o.Store, led: o.Ledger, funds: o.Funds, coins: o.Coins, prices: o.Prices, seller: o.Seller, now: o.Now, log: o.Log}
}

// Treasury is the account interest is paid from: the exchange's own
// money (external, as a chain is), so the audit stays exact.
func Treasury() ledger.Account { return ledger.TreasuryAccount("earn") }

// Day is a UTC calendar day, counted from 1970-01-01.
type Day = int64

// DayOf is the UTC day of t.
func DayOf(t time.Time) Day {
	s := t.Unix()
	d := s / 86400
	if s < 0 && s%86400 != 0 {
		d--
	}
	return d
}

// DayStart is the first instant of a day.
func DayStart(d Day) time.Time { return time.Unix(d*86400, 0).UTC() }

// DayString is a day as 2006-01-02.
func DayString(d Day) string { return DayStart(d).Format(time.DateOnly) }

// MaxRequestIDLen bounds a client's request id.
const MaxRequestIDLen = 64

// opID is an operation's id: from the client's request id when it gave
// one (a retry finds the same operation), random otherwise.
func opID(prefix, reqID string) string {
	if reqID != "" {
		h := sha256.Sum256([]byte(reqID))
		return prefix + "c" + hex.EncodeToString(h[:10])
	}
	var b [10]byte
	_, _ = rand.Read(b[:])
	return prefix + "r" + hex.EncodeToString(b[:])
}

// shards spread the service's indexes over partitions.
const shards = 16

func shardOf(parts ...string) int {
	h := fnv.New32a()
	for _, p := range parts {
		_, _ = h.Write([]byte(p))
		_, _ = h.Write([]byte{'#'})
	}
	return int(h.Sum32() % shards)
}

func internal(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return apperr.New(apperr.CodeInternal).WithCause(err)
}

// units turns an amount into the coin's smallest units.
func units(d decimal.Decimal, precision int32) (int64, error) {
	u := d.Shift(precision)
	if !u.IsInteger() || u.IsNegative() || u.GreaterThan(decimal.NewFromInt(maxUnits)) {
		return 0, fmt.Errorf("earn: amount %s does not fit %d decimals", d, precision)
	}
	return u.IntPart(), nil
}

// amountOf turns units back into an amount.
func amountOf(u int64, precision int32) decimal.Decimal { return decimal.New(u, -precision) }

// fixed prints units with exactly the coin's decimals.
func fixed(u int64, precision int32) string { return amountOf(u, precision).StringFixed(precision) }

// coin finds a coin (its precision) or answers the catalogue error.
func (s *Service) coin(symbol string) (coins.Coin, error) {
	c, ok := s.coins.Coin(symbol)
	if !ok {
		return coins.Coin{}, apperr.New(apperr.CodeEarnUnknownProduct, symbol)
	}
	return c, nil
}
