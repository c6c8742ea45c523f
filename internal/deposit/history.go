package deposit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// HistoryWindow is how far back history goes (spec §9: last 180 days).
const HistoryWindow = 180 * 24 * time.Hour

// Page sizes of the history calls.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
	// maxScan bounds how many records one history call reads.
	maxScan = 5000
)

// Filter selects history records.
type Filter struct {
	// Coin matches the coin symbol ("" for any).
	Coin string
	// Status matches the status ("" for any).
	Status string
	// From and To bound the creation time; zero values mean the whole
	// window (From is never earlier than now-HistoryWindow).
	From, To time.Time
	// Page is 1-based; PageSize defaults to DefaultPageSize.
	Page, PageSize int
}

// Normalize applies the defaults and the 180-day window at now.
func (f Filter) Normalize(now time.Time) Filter {
	oldest := now.Add(-HistoryWindow)
	if f.From.IsZero() || f.From.Before(oldest) {
		f.From = oldest
	}
	if f.To.IsZero() || f.To.After(now) {
		f.To = now
	}
	if f.Page < 1 {
		f.Page = 1
	}
	if f.PageSize < 1 {
		f.PageSize = DefaultPageSize
	}
	if f.PageSize > MaxPageSize {
		f.PageSize = MaxPageSize
	}
	f.Coin = strings.ToUpper(strings.TrimSpace(f.Coin))
	f.Status = strings.TrimSpace(f.Status)
	return f
}

// QueryHistory reads the records of one history partition of gsi1 (sort
// keys "<created ms>#<id>") within the filter's time range, newest first,
// keeps those match accepts and returns the filter's page and the total
// count of matches.
//
// A range that ends before it starts (after Normalize, also one that ends
// before the 180-day window) is refused with 13540, as the transfer
// history refuses it.
func QueryHistory(ctx context.Context, st store.Store, pk string, f Filter, match func(store.Item) bool) ([]store.Item, int, error) {
	if f.From.After(f.To) {
		return nil, 0, apperr.New(apperr.CodeWalletHistoryRange)
	}
	q := store.Query{Index: store.IndexGSI1, PK: pk, Desc: true, Limit: 200,
		SK: store.SKRange(fmt.Sprintf("%013d", f.From.UnixMilli()), fmt.Sprintf("%013d~", f.To.UnixMilli()))}
	var matched []store.Item
	scanned := 0
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return nil, 0, err
		}
		for _, it := range page.Items {
			scanned++
			if match(it) {
				matched = append(matched, it)
			}
		}
		if page.Cursor == "" || scanned >= maxScan {
			break
		}
		q.Cursor = page.Cursor
	}
	start := (f.Page - 1) * f.PageSize
	if start >= len(matched) {
		return nil, len(matched), nil
	}
	end := min(start+f.PageSize, len(matched))
	return matched[start:end], len(matched), nil
}

// History lists the user's deposits (chain and bank), newest first.
func (s *Service) History(ctx context.Context, uid string, f Filter) ([]Record, int, error) {
	f = f.Normalize(s.o.Now())
	if f.Coin != "" {
		if c, ok := s.o.Coins.Coin(f.Coin); ok {
			f.Coin = c.Symbol
		}
	}
	items, count, err := QueryHistory(ctx, s.o.Store, "DEPHIST#"+uid, f, func(it store.Item) bool {
		return it.Str("uid") == uid && (f.Coin == "" || it.Str("coin") == f.Coin) && (f.Status == "" || it.Str("status") == f.Status)
	})
	if err != nil {
		return nil, 0, internal(err)
	}
	out := make([]Record, 0, len(items))
	for _, it := range items {
		r := recordOf(it)
		r.ExplorerURL = ExplorerURL(s.o.Coins, s.o.ExplorerTxURL, r.Coin, r.Chain, r.TxID)
		out = append(out, r)
	}
	return out, count, nil
}

// HistoryKey is the gsi1 sort key of a history record created at t.
func HistoryKey(t time.Time, id string) string { return histSK(t.UnixMilli(), id) }
