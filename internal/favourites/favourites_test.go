package favourites

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"tenger/internal/apperr"
	"tenger/internal/markets"
	"tenger/internal/store/embedded"
)

func newService(t *testing.T) *Service {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return New(st, markets.Defaults())
}

func wantList(t *testing.T, got []string, err error, want ...string) {
	t.Helper()
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("list %v, %v; want %v", got, err, want)
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if e := apperr.As(err); err == nil || e.Entry.Code != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
}

func TestAddRemoveAndMerge(t *testing.T) {
	s, ctx := newService(t), context.Background()
	l, err := s.List(ctx, "u1")
	wantList(t, l, err)
	l, err = s.Update(ctx, "u1", Add, []string{"BTC/USDT"})
	wantList(t, l, err, "btcusdt")
	l, err = s.Update(ctx, "u1", Add, []string{"btcusdt"}) // already there: no change
	wantList(t, l, err, "btcusdt")
	// A visitor's list merged at sign-in keeps the order and adds only what is new.
	l, err = s.Update(ctx, "u1", AddMany, []string{"ethusdt", "btcusdt", "usdt_mnt"})
	wantList(t, l, err, "btcusdt", "ethusdt", "usdtmnt")
	l, err = s.Update(ctx, "u1", Remove, []string{"btcusdt"})
	wantList(t, l, err, "ethusdt", "usdtmnt")
	l, err = s.Update(ctx, "u1", Remove, []string{"trxusdt"}) // not there: no change
	wantList(t, l, err, "ethusdt", "usdtmnt")
	l, err = s.List(ctx, "u1")
	wantList(t, l, err, "ethusdt", "usdtmnt")
	// Each user has their own list.
	l, err = s.List(ctx, "u2")
	wantList(t, l, err)
}

func TestRefusals(t *testing.T) {
	s, ctx := newService(t), context.Background()
	_, err := s.Update(ctx, "u1", Add, []string{"nopeusdt"})
	wantCode(t, err, apperr.CodeMarketSymbolUnknown)
	_, err = s.Update(ctx, "u1", AddMany, []string{"btcusdt", "nopeusdt"})
	wantCode(t, err, apperr.CodeMarketSymbolUnknown)
	_, err = s.Update(ctx, "u1", Op(3), []string{"btcusdt"})
	wantCode(t, err, apperr.CodeParam)
	_, err = s.Update(ctx, "u1", Add, []string{"btcusdt", "ethusdt"})
	wantCode(t, err, apperr.CodeParam)
	_, err = s.Update(ctx, "u1", Add, nil)
	wantCode(t, err, apperr.CodeParam)
	many := make([]string, MaxSymbols+1)
	for i := range many {
		many[i] = "btcusdt"
	}
	_, err = s.Update(ctx, "u1", AddMany, many)
	wantCode(t, err, apperr.CodeFavouritesFull)
	// Nothing of the refused calls was stored.
	l, err := s.List(ctx, "u1")
	wantList(t, l, err)
}

// Concurrent updates of one user's list never lose each other's change
// (fewer writers than maxAttempts, so none can run out of retries).
func TestConcurrentUpdatesAllLand(t *testing.T) {
	s, ctx := newService(t), context.Background()
	pairs := []string{}
	for _, p := range markets.Defaults().List() {
		pairs = append(pairs, p.Symbol)
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(pairs))
	for _, p := range pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Update(ctx, "u1", Add, []string{p}); err != nil {
				errs <- fmt.Errorf("%s: %w", p, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	l, err := s.List(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(l)
	slices.Sort(pairs)
	if !slices.Equal(l, pairs) {
		t.Fatalf("list %v after adding %v concurrently", l, pairs)
	}
}
