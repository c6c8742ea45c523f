package remote

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/matching"
	"tenger/internal/risk"
)

func TestSubmitOverTheEndpoint(t *testing.T) {
	e, err := engine.Open(context.Background(), engine.Options{Dir: t.TempDir(), Policy: journal.NoFsync, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	key := []byte("0123456789abcdef0123456789abcdef")
	srv := httptest.NewServer(Handler(e, key, nil))
	defer srv.Close()
	c := &Client{URL: srv.URL, Key: key, HTTP: srv.Client()}
	ctx := context.Background()
	res, err := c.SubmitMany(ctx, []engine.Command{
		{Kind: engine.KindAddCoin, Coin: "BTC", Decimals: 8},
		{Kind: engine.KindAddCoin, Coin: "USDT", Decimals: 8},
	})
	if err != nil || res[0].Code != engine.OK || res[1].Code != engine.OK {
		t.Fatalf("%+v %v", res, err)
	}
	c.Submit(ctx, engine.Command{Kind: engine.KindAddPair, Pair: engine.PairSpec{Symbol: 7, Name: "btcusdt", Base: "BTC", Quote: "USDT",
		LotUnits: 100, QuoteUnitUnits: 1}})
	if r := c.Submit(ctx, engine.Command{Kind: engine.KindCredit, Ref: "d", User: 1, UserID: "1", Coin: "USDT", Amount: 10}); r.Code != engine.OK || r.Seq != 4 {
		t.Fatalf("credit %+v", r)
	}
	// A balance that cannot cover an order is answered in the request.
	r := c.Submit(ctx, engine.Command{Kind: engine.KindPlace, User: 1, UserID: "1", Order: matching.Command{OrderID: 1, UserID: 1,
		Symbol: 7, Side: matching.Buy, Type: matching.Limit, TIF: matching.GTC, Price: 100, Qty: 100}, Spec: risk.OrderSpec{}})
	if r.Code != engine.Insufficient {
		t.Fatalf("place %+v", r)
	}
	// A client order id placed already answers with its order's id.
	c.Submit(ctx, engine.Command{Kind: engine.KindCredit, Ref: "d2", User: 1, UserID: "1", Coin: "USDT", Amount: 1_000_000})
	coid := func(id uint64) engine.Command {
		return engine.Command{Kind: engine.KindPlace, Ref: "bot-7", User: 1, UserID: "1", Note: []byte("n"), Order: matching.Command{OrderID: id,
			UserID: 1, Symbol: 7, Side: matching.Buy, Type: matching.Limit, TIF: matching.GTC, Price: 100, Qty: 100}}
	}
	if r := c.Submit(ctx, coid(2)); r.Code != engine.OK {
		t.Fatalf("place with a client order id %+v", r)
	}
	if r := c.Submit(ctx, coid(3)); r.Code != engine.Exists || r.OrderID != 2 {
		t.Fatalf("its retry %+v", r)
	}
	if r := c.Submit(ctx, engine.Command{Kind: engine.KindCredit, Ref: "d", User: 1, UserID: "1", Coin: "USDT", Amount: 10}); r.Code != engine.Exists {
		t.Fatalf("retry %+v", r)
	}

	// Wrong key, stale time, garbage, too many: refused before the engine.
	bad := &Client{URL: srv.URL, Key: []byte("another key"), HTTP: srv.Client()}
	if _, err := bad.SubmitMany(ctx, []engine.Command{{Kind: engine.KindAddCoin, Coin: "X", Decimals: 8}}); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("wrong key: %v", err)
	}
	stale := &Client{URL: srv.URL, Key: key, HTTP: srv.Client(), Now: func() time.Time { return time.Now().Add(-2 * time.Minute) }}
	if _, err := stale.SubmitMany(ctx, []engine.Command{{Kind: engine.KindAddCoin, Coin: "X", Decimals: 8}}); err == nil {
		t.Fatal("a stale request was served")
	}
	resp, err := srv.Client().Post(srv.URL+Path, "application/octet-stream", strings.NewReader("junk"))
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("an unsigned request: %v %v", resp, err)
	}
	if _, err := c.SubmitMany(ctx, make([]engine.Command, MaxCommands+1)); err == nil {
		t.Fatal("too many commands were served")
	}
	var seq uint64
	e.Read(func(s *engine.State) { seq = s.Seq() })
	if seq != 9 {
		t.Fatalf("the engine applied %d commands, 9 were valid", seq)
	}
}

// projecting answers like spot.Runtime: OK, and "not shown yet" for
// commands whose Ref says so.
type projecting struct{ waited []string }

func (p *projecting) Submit(_ context.Context, c engine.Command) engine.Result {
	return engine.Result{Code: engine.OK, Seq: 1}
}

func (p *projecting) SubmitProjected(_ context.Context, c engine.Command) (engine.Result, error) {
	p.waited = append(p.waited, c.Ref)
	if c.Ref == "slow" {
		return engine.Result{Code: engine.OK, Seq: 9}, ErrNotProjected
	}
	return engine.Result{Code: engine.OK, Seq: 8}, nil
}

func TestSubmitProjectedWaitsForTheStore(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	p := &projecting{}
	srv := httptest.NewServer(Handler(p, key, nil))
	defer srv.Close()
	c := &Client{URL: srv.URL, Key: key, HTTP: srv.Client()}
	ctx := context.Background()
	if r, err := c.SubmitProjected(ctx, engine.Command{Kind: engine.KindCredit, Ref: "fast"}); err != nil || r.Seq != 8 {
		t.Fatalf("fast: %+v %v", r, err)
	}
	if r, err := c.SubmitProjected(ctx, engine.Command{Kind: engine.KindCredit, Ref: "slow"}); !errors.Is(err, ErrNotProjected) || r.Code != engine.OK || r.Seq != 9 {
		t.Fatalf("slow: %+v %v", r, err)
	}
	if r := c.Submit(ctx, engine.Command{Kind: engine.KindCredit, Ref: "journal"}); r.Seq != 1 {
		t.Fatalf("at the journal: %+v", r)
	}
	if strings.Join(p.waited, ",") != "fast,slow" {
		t.Fatalf("waited for %v", p.waited)
	}
	// The wait is signed: a request whose header was changed is refused.
	e, err := engine.Open(ctx, engine.Options{Dir: t.TempDir(), Policy: journal.NoFsync, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	plain := httptest.NewServer(Handler(e, key, nil))
	defer plain.Close()
	pc := &Client{URL: plain.URL, Key: key, HTTP: plain.Client()}
	if r, _ := pc.SubmitProjected(ctx, engine.Command{Kind: engine.KindAddCoin, Coin: "BTC", Decimals: 8}); r.Code != engine.Unavailable {
		t.Fatalf("an engine without a projection waited: %+v", r)
	}
}

// When the engine the lease named is gone, the client asks again and
// sends to the engine that took over; never twice to one engine.
func TestClientFollowsTheActiveEngine(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	var calls int
	active := httptest.NewServer(Handler(countingSubmitter{&calls}, key, nil))
	defer active.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // refuses connections
	standby := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "standby", http.StatusServiceUnavailable)
	}))
	defer standby.Close()
	ctx := context.Background()
	for _, stale := range []string{gone.URL, standby.URL} {
		calls = 0
		resolved := []string{stale, active.URL}
		c := &Client{Key: key, Resolve: func(context.Context) (string, error) {
			u := resolved[0]
			if len(resolved) > 1 {
				resolved = resolved[1:]
			}
			return u, nil
		}}
		if r := c.Submit(ctx, engine.Command{Kind: engine.KindCredit, Ref: "d"}); r.Code != engine.OK || calls != 1 {
			t.Fatalf("after %s: %+v, %d calls", stale, r, calls)
		}
		// The new address is kept.
		if r := c.Submit(ctx, engine.Command{Kind: engine.KindCredit, Ref: "e"}); r.Code != engine.OK || calls != 2 {
			t.Fatalf("second call: %+v, %d calls", r, calls)
		}
	}
	// An engine that cannot be reached and no other: unavailable.
	c := &Client{Key: key, Resolve: func(context.Context) (string, error) { return gone.URL, nil }}
	if r := c.Submit(ctx, engine.Command{Kind: engine.KindCredit, Ref: "d"}); r.Code != engine.Unavailable {
		t.Fatalf("no engine: %+v", r)
	}
}

type countingSubmitter struct{ n *int }

func (s countingSubmitter) Submit(context.Context, engine.Command) engine.Result {
	*s.n++
	return engine.Result{Code: engine.OK}
}
