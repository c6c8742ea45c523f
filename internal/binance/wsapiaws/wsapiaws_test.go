package wsapiaws

import (
	"context"
	"errors"
	"tenger/internal/push/apigw/apigwtest"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apikey"
	"tenger/internal/push/apigw"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

func TestConnectionState(t *testing.T) {
	ctx := context.Background()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	api := apigwtest.New()
	fan := apigw.New(st, api, apigw.Options{Namespace: Namespace, TTL: TTL, Logger: zerolog.Nop(), Now: now})
	web := apigw.New(st, api, apigw.Options{Logger: zerolog.Nop(), Now: now})

	if err := Connect(ctx, st, fan, "c1", "198.51.100.7", false, clock); err != nil {
		t.Fatal(err)
	}
	c, err := Open(ctx, st, fan, "c1", now)
	if err != nil {
		t.Fatal(err)
	}
	state, _ := c.State(ctx)
	if c.IP() != "198.51.100.7" || state.RateLimits || !state.Connected.Equal(clock) || state.LogonKey != "" || len(state.Subs) != 0 {
		t.Fatalf("state %+v ip %s", state, c.IP())
	}
	// The web app's adapter does not see the connection.
	if ids, _ := web.UserConnections(ctx, "u1"); len(ids) != 0 {
		t.Fatalf("web connections %v", ids)
	}

	ed := apikey.Resolved{APIKey: "EDKEY", UserID: "u1", KeyType: apikey.TypeEd25519}
	hm := apikey.Resolved{APIKey: "HMKEY", UserID: "u1", KeyType: apikey.TypeHMAC}
	other := apikey.Resolved{APIKey: "BOBKEY", UserID: "u2", KeyType: apikey.TypeHMAC}
	if err := c.LogOn(ctx, ed, clock); err != nil {
		t.Fatal(err)
	}
	logonSub, err := c.Subscribe(ctx, ed, true)
	if err != nil {
		t.Fatal(err)
	}
	// A frame later: the state is read again.
	c, _ = Open(ctx, st, fan, "c1", now)
	if again, _ := c.Subscribe(ctx, ed, true); again != logonSub {
		t.Fatalf("the logon's subscription again: %d, want %d", again, logonSub)
	}
	sigSub, _ := c.Subscribe(ctx, hm, false)
	bobSub, _ := c.Subscribe(ctx, other, false)
	if sigSub == logonSub || bobSub == sigSub {
		t.Fatalf("ids %d %d %d", logonSub, sigSub, bobSub)
	}
	c, _ = Open(ctx, st, fan, "c1", now)
	if again, _ := c.Subscribe(ctx, hm, false); again != sigSub {
		t.Fatalf("the key's subscription again: %d, want %d", again, sigSub)
	}
	state, _ = c.State(ctx)
	if state.LogonKey != "EDKEY" || len(state.Subs) != 3 {
		t.Fatalf("state %+v", state)
	}
	subs, err := Subscribers(ctx, st, "u1", clock)
	if err != nil || len(subs) != 2 {
		t.Fatalf("u1's subscribers %+v %v", subs, err)
	}
	if bob, _ := Subscribers(ctx, st, "u2", clock); len(bob) != 1 || bob[0].ConnID != "c1" || bob[0].SubscriptionID != bobSub || bob[0].APIKey != "BOBKEY" {
		t.Fatalf("u2's subscribers %+v", bob)
	}

	// Logging off ends the logon's subscription only; unsubscribing one
	// leaves the others.
	if err := c.LogOn(ctx, apikey.Resolved{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if found, err := c.Unsubscribe(ctx, bobSub, false); !found || err != nil {
		t.Fatalf("unsubscribe %v %v", found, err)
	}
	// The frame that logged off and unsubscribed sees it too.
	if state, _ = c.State(ctx); state.LogonKey != "" || len(state.Subs) != 1 || state.Subs[0] != sigSub {
		t.Fatalf("the same frame's state after logoff and unsubscribe %+v", state)
	}
	c, _ = Open(ctx, st, fan, "c1", now)
	state, _ = c.State(ctx)
	if state.LogonKey != "" || len(state.Subs) != 1 || state.Subs[0] != sigSub {
		t.Fatalf("after logoff and unsubscribe %+v", state)
	}
	if found, _ := c.Unsubscribe(ctx, 99, false); found {
		t.Fatal("unsubscribing an unknown id found one")
	}

	// Posting goes to the connection; $disconnect forgets everything.
	c.Send(ctx, []byte(`{"id":1}`))
	if len(api.Posts["c1"]) != 1 {
		t.Fatalf("posts %v", api.Posts)
	}
	if err := fan.OnDisconnect(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, st, fan, "c1", now); !errors.Is(err, ErrGone) {
		t.Fatalf("open after disconnect: %v", err)
	}
	if subs, _ := Subscribers(ctx, st, "u1", clock); len(subs) != 0 {
		t.Fatalf("subscribers after disconnect %+v", subs)
	}
	page, err := st.Query(ctx, store.Query{PK: fan.ConnPartition("c1")})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("items left %v %v", page.Items, err)
	}

	// A connection whose $disconnect never came expires with its items.
	if err := Connect(ctx, st, fan, "c2", "203.0.113.9", true, clock); err != nil {
		t.Fatal(err)
	}
	c2, _ := Open(ctx, st, fan, "c2", now)
	if _, err := c2.Subscribe(ctx, hm, false); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(TTL + time.Second)
	if _, err := Open(ctx, st, fan, "c2", now); !errors.Is(err, ErrGone) {
		t.Fatalf("open after the TTL: %v", err)
	}
	if subs, _ := Subscribers(ctx, st, "u1", clock); len(subs) != 0 {
		t.Fatalf("expired subscribers listed %+v", subs)
	}
}
