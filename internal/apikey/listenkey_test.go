package apikey

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestListenKeys: a listen key is found by the service and by
// LookupListenKey (the AWS functions' read) while it lives; keeping it
// alive extends it; it is unknown once expired, closed, or its API key
// deleted.
func TestListenKeys(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	c, err := e.svc.Create(ctx, "u1", Input{Label: "bot", Permissions: []string{"spot"}, Codes: emailOnly})
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.svc.Resolve(ctx, c.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	lk, err := e.svc.OpenListenKey(ctx, r)
	if err != nil || len(lk) != KeyLen {
		t.Fatalf("open: %q %v", lk, err)
	}
	if again, err := e.svc.OpenListenKey(ctx, r); err != nil || again != lk {
		t.Fatalf("opened again: %q %v", again, err)
	}
	both := func(when string, want error) {
		t.Helper()
		a, u, err := e.svc.ListenKeyOwner(ctx, lk)
		a2, u2, err2 := LookupListenKey(ctx, e.st, lk, e.now)
		if !errors.Is(err, want) || !errors.Is(err2, want) {
			t.Fatalf("%s: service %v, lookup %v, want %v", when, err, err2, want)
		}
		if want == nil && (a != c.APIKey || u != "u1" || a2 != a || u2 != u) {
			t.Fatalf("%s: service %s %s, lookup %s %s", when, a, u, a2, u2)
		}
	}
	both("open", nil)
	e.now = e.now.Add(ListenKeyTTL - time.Minute)
	if err := e.svc.KeepListenKey(ctx, r, lk); err != nil {
		t.Fatal(err)
	}
	e.now = e.now.Add(2 * time.Minute)
	both("kept alive", nil)
	e.now = e.now.Add(ListenKeyTTL)
	both("expired", ErrUnknownListenKey)
	if _, _, err := LookupListenKey(ctx, e.st, "short", e.now); !errors.Is(err, ErrUnknownListenKey) {
		t.Fatalf("malformed: %v", err)
	}

	lk, err = e.svc.OpenListenKey(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	both("reopened", nil)
	if err := e.svc.Delete(ctx, "u1", c.APIKey); err != nil {
		t.Fatal(err)
	}
	both("API key deleted", ErrUnknownListenKey)
}
