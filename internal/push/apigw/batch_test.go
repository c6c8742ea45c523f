package apigw

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/push"
	"tenger/internal/push/apigw/apigwtest"
	"tenger/internal/store/embedded"
)

// TestBatcherGathersPerConnection: within a window a connection gets one
// post: a lone message as it is, several as a JSON array in order, a
// snapshot channel's newest picture only; a direct channel is posted at
// once and never gathered; a gone connection is forgotten; after Close
// nothing is taken and what waited was posted.
func TestBatcherGathersPerConnection(t *testing.T) {
	ctx := context.Background()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	api := apigwtest.New()
	f := New(st, api, Options{Logger: zerolog.Nop()})
	subs := map[string][]string{
		"c1": {"market_btcusdt_depth_step0", "market_btcusdt_trade_ticker", "binance:btcusdt@trade"},
		"c2": {"market_btcusdt_depth_step0"},
		"c3": {"market_ethusdt_ticker"},
	}
	for conn, chans := range subs {
		if err := f.OnConnect(ctx, conn); err != nil {
			t.Fatal(err)
		}
		for _, ch := range chans {
			if err := f.Subscribe(ctx, conn, ch); err != nil {
				t.Fatal(err)
			}
		}
	}
	b := NewBatcher(f, BatchOptions{Window: time.Hour, // flushed by hand
		Latest: func(ch string) bool { return !strings.HasSuffix(ch, "_trade_ticker") },
		Direct: func(ch string) bool { return strings.HasPrefix(ch, "binance:") }})
	pub := func(ch, msg string) {
		t.Helper()
		if _, err := b.Publish(ctx, ch, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	pub("market_btcusdt_depth_step0", `{"d":1}`)
	pub("market_btcusdt_trade_ticker", `{"t":1}`)
	pub("market_btcusdt_depth_step0", `{"d":2}`)
	pub("market_btcusdt_trade_ticker", `{"t":2}`)
	pub("binance:btcusdt@trade", `{"e":"trade"}`)
	pub("market_ethusdt_ticker", `{"k":1}`)
	// The direct channel went at once; nothing else yet.
	if got := api.Posts["c1"]; len(got) != 1 || got[0] != `{"e":"trade"}` {
		t.Fatalf("before the flush c1 got %q", got)
	}
	if len(api.Posts["c2"])+len(api.Posts["c3"]) != 0 {
		t.Fatalf("posted before the flush: %v", api.Posts)
	}
	api.Gone["c3"] = true
	b.Flush(ctx)
	c1 := api.Posts["c1"][1]
	var arr []json.RawMessage
	if err := json.Unmarshal([]byte(c1), &arr); err != nil || c1 != `[{"d":2},{"t":1},{"t":2}]` {
		t.Fatalf("c1's frame %s (%v)", c1, err)
	}
	if got := api.Posts["c2"]; len(got) != 1 || got[0] != `{"d":2}` {
		t.Fatalf("c2 got %q", got)
	}
	// c3 was gone: forgotten, so later publishes do not wait for it.
	if n, _ := f.Publish(ctx, "market_ethusdt_ticker", []byte(`{}`)); n != 0 {
		t.Errorf("the gone connection is still subscribed (%d)", n)
	}
	b.Flush(ctx)
	if len(api.Posts["c1"]) != 2 || len(api.Posts["c2"]) != 1 {
		t.Fatalf("an empty flush posted: %v", api.Posts)
	}
	pub("market_btcusdt_depth_step0", `{"d":3}`)
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if got := api.Posts["c2"]; len(got) != 2 || got[1] != `{"d":3}` {
		t.Fatalf("Close did not flush: %q", got)
	}
	if _, err := b.Publish(ctx, "market_btcusdt_depth_step0", []byte(`{}`)); err != push.ErrClosed {
		t.Fatalf("publish after Close: %v", err)
	}
}
