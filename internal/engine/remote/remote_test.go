package remote

import (
	"context"
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
	if seq != 6 {
		t.Fatalf("the engine applied %d commands, 6 were valid", seq)
	}
}
