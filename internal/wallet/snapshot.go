package wallet

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

// Daily snapshots: the first balance read of a (UTC) day stores the USDT
// value of each account kind and the futures amounts per coin. Yesterday's
// profit is the spot value at the start of today minus the one at the start
// of yesterday; the futures statistics read the futures amounts. Deposits,
// withdrawals and transfers of the day count as change too: these are value
// changes, not trading results, until trading posts realized profits.

const dayLayout = "2006-01-02"

func snapshotKey(uid, day string) store.Key { return store.Key{PK: walletPK(uid), SK: "SNAP#" + day} }

func errNotSignedIn() error { return apperr.New(apperr.CodeNotSignedIn) }

var snapshotKinds = map[ledger.Kind]string{
	ledger.Spot: "spot", ledger.Earn: "earn", ledger.Futures: "futures", ledger.MarginCross: "marginCross",
	ledger.MarginIsolated: "marginIsolated", ledger.OTC: "otc",
}

// snapshot stores today's snapshot unless it exists. Failures are logged
// only: a missing snapshot shows as zero profit, never as a failed page.
func (s *Service) snapshot(ctx context.Context, uid string, h holdings, v *valuer) {
	day := s.now().UTC().Format(dayLayout)
	if d, ok := s.snapped.Load(uid); ok && d.(string) == day {
		return // stored (or found) earlier today by this process
	}
	k := snapshotKey(uid, day)
	it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "day": day, "at": s.now().UnixMilli(),
		store.AttrTTL: s.now().Add(400 * 24 * time.Hour).Unix()}
	for kind, name := range snapshotKinds {
		it[name] = h.value(v, "USDT", kind)
	}
	fut := map[string]any{}
	for coin, b := range h.byKind[ledger.Futures] {
		fut[coin] = b.Total()
	}
	it["futuresCoins"] = fut
	err := s.st.Put(ctx, it, store.ItemNotExists())
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		s.log.Warn().Err(err).Str("uid", uid).Msg("wallet snapshot not stored")
		return
	}
	s.snapped.Store(uid, day)
}

func (s *Service) snapshotOf(ctx context.Context, uid string, day time.Time) (store.Item, bool, error) {
	it, err := s.st.Get(ctx, snapshotKey(uid, day.UTC().Format(dayLayout)))
	if errors.Is(err, store.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, internal(err)
	}
	return it, true, nil
}

// usdtToFiat converts a USDT amount to the currency (USDT counts as USD).
func (v *valuer) usdtToFiat(cur Currency, u decimal.Decimal) decimal.Decimal {
	if cur.Locale == LocaleMN {
		return u.Mul(v.fiat)
	}
	return u
}

// yesterdayProfit is the spot value change over yesterday in the currency,
// and its rate in percent; "0" without both snapshots.
func (s *Service) yesterdayProfit(ctx context.Context, uid string, v *valuer, cur Currency) (string, string) {
	today := s.now().UTC()
	t, ok1, err1 := s.snapshotOf(ctx, uid, today)
	y, ok2, err2 := s.snapshotOf(ctx, uid, today.Add(-24*time.Hour))
	if err1 != nil || err2 != nil || !ok1 || !ok2 {
		return "0", "0"
	}
	diff := t.Dec("spot").Sub(y.Dec("spot"))
	profit := coins.FormatFixed(v.usdtToFiat(cur, diff), coins.PrecisionFiatValuation)
	if diff.IsNegative() {
		profit = "-" + coins.FormatFixed(v.usdtToFiat(cur, diff.Neg()), coins.PrecisionFiatValuation)
	}
	if !y.Dec("spot").IsPositive() {
		return profit, "0"
	}
	return profit, diff.Mul(decimal.NewFromInt(100)).DivRound(y.Dec("spot"), 2).StringFixed(2)
}

// FuturesStats is get_futures_balance_statistics.
type FuturesStats struct {
	CoinSymbol string `json:"coinSymbol"`
	StartDate  string `json:"startDate"`
	EndDate    string `json:"endDate"`
	// LastDayAmount is the futures amount of the coin at the end date (the
	// latest snapshot in the window), 8 decimals.
	LastDayAmount string `json:"lastDayAmount"`
	// LastRealizedAmountRate is the percent change of that amount over the
	// window (first to last snapshot), 2 decimals; 0 without two snapshots.
	LastRealizedAmountRate string `json:"lastRealizedAmountRate"`
}

// parseDay accepts yyyy-mm-dd, or Unix milliseconds.
func parseDay(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(dayLayout, s); err == nil {
		return t, true
	}
	if t, err := time.Parse("2006-01-02 15:04:05", s); err == nil {
		return t, true
	}
	var ms int64
	for _, c := range s {
		if c < '0' || c > '9' || ms > 1e14 {
			return time.Time{}, false
		}
		ms = ms*10 + int64(c-'0')
	}
	if s == "" {
		return time.Time{}, false
	}
	return time.UnixMilli(ms).UTC(), true
}

// FuturesStatistics answers get_futures_balance_statistics over
// [startDate, endDate], by default 7 days back to 1 day back (spec §9).
func (s *Service) FuturesStatistics(ctx context.Context, uid, startDate, endDate, coin string) (FuturesStats, error) {
	if uid == "" {
		return FuturesStats{}, errNotSignedIn()
	}
	sym := "USDT"
	if strings.TrimSpace(coin) != "" {
		c, err := s.coin(coin)
		if err != nil {
			return FuturesStats{}, err
		}
		sym = c.Symbol
	}
	today := s.now().UTC().Truncate(24 * time.Hour)
	start, end := today.Add(-7*24*time.Hour), today.Add(-24*time.Hour)
	if startDate != "" {
		t, ok := parseDay(startDate)
		if !ok {
			return FuturesStats{}, apperr.Param("startDate: yyyy-mm-dd")
		}
		start = t.UTC().Truncate(24 * time.Hour)
	}
	if endDate != "" {
		t, ok := parseDay(endDate)
		if !ok {
			return FuturesStats{}, apperr.Param("endDate: yyyy-mm-dd")
		}
		end = t.UTC().Truncate(24 * time.Hour)
	}
	if end.Before(start) || end.Sub(start) > HistoryDays*24*time.Hour {
		return FuturesStats{}, apperr.New(apperr.CodeWalletHistoryRange)
	}
	items, err := s.queryAll(ctx, store.Query{PK: walletPK(uid),
		SK: store.SKRange("SNAP#"+start.Format(dayLayout), "SNAP#"+end.Format(dayLayout))})
	if err != nil {
		return FuturesStats{}, err
	}
	out := FuturesStats{CoinSymbol: sym, StartDate: start.Format(dayLayout), EndDate: end.Format(dayLayout),
		LastDayAmount: coins.FormatFixed(zero, coins.PrecisionFutures), LastRealizedAmountRate: "0.00"}
	amount := func(it store.Item) decimal.Decimal {
		m, _ := it["futuresCoins"].(map[string]any)
		d, _ := m[sym].(decimal.Decimal)
		return d
	}
	if len(items) == 0 {
		return out, nil
	}
	first, last := amount(items[0]), amount(items[len(items)-1])
	out.LastDayAmount = coins.FormatFixed(last, coins.PrecisionFutures)
	if len(items) > 1 && first.IsPositive() {
		out.LastRealizedAmountRate = last.Sub(first).Mul(decimal.NewFromInt(100)).DivRound(first, 2).StringFixed(2)
	}
	return out, nil
}
