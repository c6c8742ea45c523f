// Package favourites keeps each user's favourite trading pairs (the star in
// the market lists), so they follow a signed-in user from browser to
// browser. Visitors keep theirs in the browser's local storage only; the
// web app merges the two when a visitor signs in (operation AddMany).
//
// Storage: one item per user, pk "FAV#<uid>" sk "FAV", with "symbols" (the
// pairs in the order they were added, comma-separated) and "v", a version
// that every write checks and raises, so two concurrent updates of one
// user's list never lose each other's change.
package favourites

import (
	"context"
	"errors"
	"slices"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/markets"
	"tenger/internal/store"
)

// Op is an update of a user's list (the operationType of
// /optional/update_symbol).
type Op int

// Operations.
const (
	AddMany Op = 0 // add several pairs at once (a visitor's list at sign-in)
	Add     Op = 1 // add one pair
	Remove  Op = 2 // remove one pair
)

// MaxSymbols bounds one user's list.
const MaxSymbols = 100

// maxAttempts bounds the retries of an update that raced others: each lost
// race means another update of the list landed, so n concurrent updates
// all land when n ≤ maxAttempts.
const maxAttempts = 16

// Service reads and updates favourite lists.
type Service struct {
	st  store.Store
	cat *markets.Catalogue
}

// New returns the service; cat decides which symbols exist.
func New(st store.Store, cat *markets.Catalogue) *Service { return &Service{st: st, cat: cat} }

func key(uid string) store.Key { return store.Key{PK: "FAV#" + uid, SK: "FAV"} }

// List returns the user's favourite symbols in the order they were added;
// pairs removed from the catalogue since are left out.
func (s *Service) List(ctx context.Context, uid string) ([]string, error) {
	syms, _, err := s.read(ctx, uid)
	if err != nil {
		return nil, err
	}
	out := syms[:0:0]
	for _, sym := range syms {
		if _, ok := s.cat.Pair(sym); ok {
			out = append(out, sym)
		}
	}
	return out, nil
}

func (s *Service) read(ctx context.Context, uid string) ([]string, int64, error) {
	it, err := s.st.Get(ctx, key(uid))
	if errors.Is(err, store.ErrNotFound) {
		return []string{}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	syms := []string{}
	if v := it.Str("symbols"); v != "" {
		syms = strings.Split(v, ",")
	}
	return syms, it.Int("v"), nil
}

// Update applies op with symbols (pair symbols or names: "btcusdt",
// "BTC/USDT") and returns the new list. Adding a pair already listed or
// removing one that is not changes nothing. Unknown pairs answer
// CodeMarketSymbolUnknown, a list beyond MaxSymbols CodeFavouritesFull.
func (s *Service) Update(ctx context.Context, uid string, op Op, symbols []string) ([]string, error) {
	if op != AddMany && op != Add && op != Remove {
		return nil, apperr.Param("operationType must be 0 (add several), 1 (add) or 2 (remove)")
	}
	if len(symbols) == 0 || (op != AddMany && len(symbols) != 1) {
		return nil, apperr.Param("symbols: one pair, or several with operationType 0")
	}
	if len(symbols) > MaxSymbols {
		return nil, apperr.New(apperr.CodeFavouritesFull, MaxSymbols)
	}
	want := make([]string, 0, len(symbols))
	for _, raw := range symbols {
		p, ok := s.cat.Pair(strings.TrimSpace(raw))
		if !ok || (p.Closed && op != Remove) {
			return nil, apperr.New(apperr.CodeMarketSymbolUnknown, clip(strings.TrimSpace(raw), 40))
		}
		want = append(want, p.Symbol)
	}
	for attempt := 0; attempt < maxAttempts; attempt++ {
		cur, v, err := s.read(ctx, uid)
		if err != nil {
			return nil, err
		}
		next := slices.Clone(cur)
		for _, sym := range want {
			i := slices.Index(next, sym)
			switch {
			case op == Remove && i >= 0:
				next = slices.Delete(next, i, i+1)
			case op != Remove && i < 0:
				next = append(next, sym)
			}
		}
		if slices.Equal(next, cur) {
			return next, nil
		}
		if len(next) > MaxSymbols {
			return nil, apperr.New(apperr.CodeFavouritesFull, MaxSymbols)
		}
		cond := store.ItemNotExists()
		if v > 0 {
			cond = store.Eq("v", v)
		}
		k := key(uid)
		err = s.st.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "symbols": strings.Join(next, ","), "v": v + 1}, cond)
		if errors.Is(err, store.ErrConditionFailed) {
			continue // another update came first: apply op to its result
		}
		if err != nil {
			return nil, err
		}
		return next, nil
	}
	return nil, apperr.New(apperr.CodeTradeBusy)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
