package wallet

import (
	"context"
	"fmt"
	"strings"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// History limits (spec §9: "Order history range: last 180 days").
const (
	HistoryDays     = 180
	DefaultPageSize = 10
	MaxPageSize     = 100
)

// HistoryFilter selects transfers.
type HistoryFilter struct {
	// Coin filters by coin (any of its codes) when not empty.
	Coin string
	// Account filters by an account kind on either side (otc, futures,
	// margin_cross, margin_isolated, spot) when not empty.
	Account string
	// Type filters by transfer type (otc, futures, margin) when not empty.
	Type string
	// Begin and End bound the time (zero: the last 180 days up to now).
	Begin, End time.Time
	// Page is 1-based; PageSize 1..100 (default 10).
	Page, PageSize int
}

// TransferPage is one page of transfer history.
type TransferPage struct {
	Count int              `json:"count" doc:"matching transfers in all pages"`
	List  []TransferRecord `json:"list"`
	Page  int              `json:"page"`
	Size  int              `json:"pageSize"`
}

// Transfers lists the user's transfers, newest first, within the last 180
// days: the finished ones and the pending ones (on their way), not the
// failed ones (see TransferRecord.Status).
func (s *Service) Transfers(ctx context.Context, uid string, f HistoryFilter) (TransferPage, error) {
	if uid == "" {
		return TransferPage{}, apperr.New(apperr.CodeNotSignedIn)
	}
	now := s.now()
	oldest := now.Add(-HistoryDays * 24 * time.Hour)
	begin, end := f.Begin, f.End
	if end.IsZero() || end.After(now) {
		end = now
	}
	if begin.IsZero() || begin.Before(oldest) {
		begin = oldest
	}
	if begin.After(end) {
		return TransferPage{}, apperr.New(apperr.CodeWalletHistoryRange)
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
	sym := ""
	if strings.TrimSpace(f.Coin) != "" {
		c, err := s.coin(f.Coin)
		if err != nil {
			return TransferPage{}, err
		}
		sym = c.Symbol
	}
	acct := strings.ToLower(strings.TrimSpace(f.Account))
	typ := strings.ToLower(strings.TrimSpace(f.Type))
	items, err := s.queryAll(ctx, store.Query{
		Index: store.IndexGSI1, PK: transferLogPK(uid), Desc: true,
		SK: store.SKRange(fmt.Sprintf("%013d", begin.UnixMilli()), fmt.Sprintf("%013d~", end.UnixMilli())),
	})
	if err != nil {
		return TransferPage{}, err
	}
	out := TransferPage{List: []TransferRecord{}, Page: f.Page, Size: f.PageSize}
	skip := (f.Page - 1) * f.PageSize
	for _, it := range items {
		if statusOf(it) == TransferFailed {
			continue // moved nothing in the end (see TransferRecord.Status)
		}
		r := transferOf(it)
		if sym != "" && r.CoinSymbol != sym || typ != "" && r.Type != typ || acct != "" && r.From != acct && r.To != acct {
			continue
		}
		if out.Count >= skip && len(out.List) < f.PageSize {
			out.List = append(out.List, r)
		}
		out.Count++
	}
	return out, nil
}
