package main

import (
	"context"
	"encoding/json"
	"tenger/internal/push/apigw/apigwtest"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/push/apigw"
	"tenger/internal/store/embedded"
	"tenger/internal/userfeed"
)

type pushed struct {
	Channel string         `json:"channel"`
	TS      int64          `json:"ts"`
	Data    map[string]any `json:"data"`
}

// TestStreamUserUpdates feeds the recorded batch of a placed and cancelled
// order (a posting, the owner's USDT hold, the order insert, another user's
// BTC hold, the fee account, the order's end) through the stream function
// with the API Gateway adapter: each user's authenticated connections get
// exactly that user's order and balance messages, in stream order; an
// anonymous connection, a third user and the exchange's own accounts get
// nothing. Each user's connections are looked up once for the batch.
func TestStreamUserUpdates(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cst := newCounting(st)
	api := apigwtest.New()
	fan := apigw.New(cst, api, apigw.Options{Logger: zerolog.Nop()})
	bind := map[string]string{"owner-tab-1": "10000001", "owner-tab-2": "10000001", "other-tab": "10000002", "third-tab": "10000003"}
	for _, c := range []string{"owner-tab-1", "owner-tab-2", "other-tab", "third-tab", "anonymous"} {
		if err := fan.OnConnect(ctx, c); err != nil {
			t.Fatal(err)
		}
		if u := bind[c]; u != "" {
			if err := fan.Bind(ctx, c, u, ""); err != nil {
				t.Fatal(err)
			}
		}
	}

	ev := loadBatch(t, "ddb_stream_user_updates.json")
	h := streamHandler(fan)
	resp, err := h(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("batch: %+v %v", resp, err)
	}

	decode := func(conn string) []pushed {
		var out []pushed
		for _, p := range api.Posts[conn] {
			var m pushed
			if err := json.Unmarshal([]byte(p), &m); err != nil {
				t.Fatalf("%s got %q: %v", conn, p, err)
			}
			out = append(out, m)
		}
		return out
	}
	for _, conn := range []string{"owner-tab-1", "owner-tab-2"} {
		got := decode(conn)
		if len(got) != 3 {
			t.Fatalf("%s got %d messages, want 3: %q", conn, len(got), api.Posts[conn])
		}
		if m := got[0]; m.Channel != userfeed.ChannelBalances || m.TS != 1795252400000 || m.Data["coin"] != "USDT" ||
			m.Data["account"] != "spot" || m.Data["normal"] != "760" || m.Data["lock"] != "240" || m.Data["total"] != "1000" {
			t.Errorf("%s first message %+v, want the USDT hold", conn, m)
		}
		if m := got[1]; m.Channel != userfeed.ChannelOrders || m.Data["event"] != "placed" || m.Data["order_id"] != "1795252400000123" ||
			m.Data["status_text"] != "NEW" || m.Data["price"] != "60000" || m.Data["volume"] != "0.004" {
			t.Errorf("%s second message %+v, want the placed order", conn, m)
		}
		if m := got[2]; m.Channel != userfeed.ChannelOrders || m.Data["event"] != "done" || m.Data["status"] != float64(4) ||
			m.Data["status_text"] != "CANCELLED" || m.Data["updated_at"] != float64(1795252401000) {
			t.Errorf("%s third message %+v, want the cancelled order", conn, m)
		}
	}
	other := decode("other-tab")
	if len(other) != 1 || other[0].Channel != userfeed.ChannelBalances || other[0].Data["coin"] != "BTC" || other[0].Data["lock"] != "0.01" {
		t.Errorf("the other user got %q, want only their BTC hold", api.Posts["other-tab"])
	}
	for _, conn := range []string{"third-tab", "anonymous"} {
		if len(api.Posts[conn]) != 0 {
			t.Errorf("%s got %q, want nothing", conn, api.Posts[conn])
		}
	}

	// A delivery failure that is not a gone client fails the batch at the
	// first private record, so Lambda retries from it.
	if got := cst.counts(); len(got) != 2 || got["10000001"] != 1 || got["10000002"] != 1 {
		t.Errorf("connection lookups per user = %v, want one for each user with a message", got)
	}
	api.FailIf = func(string) bool { return true }
	resp, _ = h(ctx, ev)
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[1].Change.SequenceNumber {
		t.Errorf("failures = %+v, want the owner's balance record", resp.BatchItemFailures)
	}
}
