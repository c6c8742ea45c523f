package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"tenger/internal/push/apigw/apigwtest"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"

	"tenger/functions/fntest"
	"tenger/internal/push/apigw"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
	"tenger/internal/userfeed"
)

// counting is the table as the stream function and the push adapter see
// it: it counts the lookups of each user's connections (queries of the
// user's WSUSER# partition of gsi2) and fails those of the users in fail.
type counting struct {
	store.Store
	mu      sync.Mutex
	lookups map[string]int
	fail    map[string]bool
}

func newCounting(st store.Store) *counting {
	return &counting{Store: st, lookups: map[string]int{}, fail: map[string]bool{}}
}

func (c *counting) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if user, ok := strings.CutPrefix(q.PK, "WSUSER#"); ok && q.Index == store.IndexGSI2 {
		c.mu.Lock()
		c.lookups[user]++
		fail := c.fail[user]
		c.mu.Unlock()
		if fail {
			return store.Page{}, errors.New("ProvisionedThroughputExceededException")
		}
	}
	return c.Store.Query(ctx, q)
}

func (c *counting) counts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.lookups))
	for u, n := range c.lookups {
		out[u] = n
	}
	c.lookups = map[string]int{}
	return out
}

func loadBatch(t *testing.T, name string) events.DynamoDBEvent {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

// connect opens connections through the adapter and binds those given a
// user.
func connect(t *testing.T, ctx context.Context, fan *apigw.Fanout, conns map[string]string) {
	t.Helper()
	for c, user := range conns {
		if err := fan.OnConnect(ctx, c); err != nil {
			t.Fatal(err)
		}
		if user != "" {
			if err := fan.Bind(ctx, c, user, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// what names a pushed message: channel and order event or balance coin
// and amounts.
func what(t *testing.T, raw string) string {
	t.Helper()
	var m struct {
		Channel string         `json:"channel"`
		Data    map[string]any `json:"data"`
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatalf("pushed %q: %v", raw, err)
	}
	if m.Channel == userfeed.ChannelBalances {
		return fmt.Sprintf("%s %v %v/%v", m.Channel, m.Data["coin"], m.Data["normal"], m.Data["lock"])
	}
	return fmt.Sprintf("%s %v %v", m.Channel, m.Data["event"], m.Data["status_text"])
}

func whats(t *testing.T, raws []string) []string {
	out := make([]string, len(raws))
	for i, r := range raws {
		out[i] = what(t, r)
	}
	return out
}

// takerSees is what the taker's connections get from the recorded trade
// batch, in stream order (records 0, 1, 3, 5, 9, 11 and 13).
var takerSees = []string{
	"user_orders placed NEW",
	"user_balances USDT 880/120",
	"user_orders accepted NEW",
	"user_balances USDT 880/0",
	"user_balances BTC 0.501998/0",
	"user_orders trade FILLED",
	"user_orders done FILLED",
}

// TestStreamTradeBatch feeds the recorded stream batch of a trade (the
// taker's order placed, held, accepted, traded against a resting sell and
// filled; postings, both users' balances, the fee accounts, the maker's
// order; an expired session and connection removed by TTL) through the
// stream function on DynamoDB Local. The taker, connected twice, gets
// exactly their seven messages in stream order on each connection, after
// one lookup of their connections for the whole batch; the maker, who is
// not connected, costs one lookup and no post; a connection that is gone
// is tried once and forgotten; an anonymous connection gets nothing. A
// failed post fails the batch at that record, after every earlier record
// was delivered.
func TestStreamTradeBatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ddb := fntest.Table(t, "stream-fn")
	st := newCounting(ddb)
	api := apigwtest.New()
	fan := apigw.New(st, api, apigw.Options{Logger: zerolog.Nop()})
	connect(t, ctx, fan, map[string]string{"taker-tab-1": "10000001", "taker-tab-2": "10000001", "taker-gone": "10000001", "anonymous": ""})
	api.Gone["taker-gone"] = true

	ev := loadBatch(t, "ddb_stream_batch.json")
	h := streamHandler(fan)
	resp, err := h(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("batch: %+v %v", resp, err)
	}
	for _, c := range []string{"taker-tab-1", "taker-tab-2"} {
		if got := whats(t, api.Posts[c]); strings.Join(got, "\n") != strings.Join(takerSees, "\n") {
			t.Errorf("%s got\n%s\nwant\n%s", c, strings.Join(got, "\n"), strings.Join(takerSees, "\n"))
		}
	}
	if got := api.Attempts["taker-gone"]; got != 1 {
		t.Errorf("the gone connection was tried %d times, want once", got)
	}
	if _, err := ddb.Get(ctx, store.Key{PK: "WSCONN#taker-gone", SK: "META"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the gone connection was not forgotten: %v", err)
	}
	if n := api.Attempts["anonymous"]; n != 0 {
		t.Errorf("the anonymous connection got %d posts", n)
	}
	if got := st.counts(); len(got) != 2 || got["10000001"] != 1 || got["10000002"] != 1 {
		t.Errorf("connection lookups per user = %v, want one for each of the two users", got)
	}
	if n := len(api.Attempts); n != 3 {
		t.Errorf("posts went to %v, want the taker's three connections only", api.Attempts)
	}

	// A post that fails (not a gone client) fails the batch at its record,
	// the taker's trade (record 11): everything before it was delivered,
	// nothing after it was.
	api.Reset()
	api.FailIf = func(data string) bool { return strings.Contains(data, `"event":"trade"`) }
	resp, _ = h(ctx, ev)
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[11].Change.SequenceNumber {
		t.Errorf("failures = %+v, want the taker's trade record %s", resp.BatchItemFailures, ev.Records[11].Change.SequenceNumber)
	}
	for _, c := range []string{"taker-tab-1", "taker-tab-2"} {
		if got := whats(t, api.Posts[c]); strings.Join(got, "\n") != strings.Join(takerSees[:5], "\n") {
			t.Errorf("%s got %q before the failure, want %q", c, got, takerSees[:5])
		}
	}
	if got := st.counts(); got["10000001"] != 1 || got["10000002"] != 1 {
		t.Errorf("connection lookups per user in the failed batch = %v", got)
	}
}

// TestStreamLookupFailure: when looking up a user's connections fails, the
// batch fails at that user's first record (the maker's USDT balance, record
// 6); the records before it were delivered to the other user, and none
// after it, as when a post fails.
func TestStreamLookupFailure(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	emb, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	st := newCounting(emb)
	api := apigwtest.New()
	fan := apigw.New(st, api, apigw.Options{Logger: zerolog.Nop()})
	connect(t, ctx, fan, map[string]string{"taker-tab": "10000001", "maker-tab": "10000002"})
	st.fail["10000002"] = true

	ev := loadBatch(t, "ddb_stream_batch.json")
	resp, err := streamHandler(fan)(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[6].Change.SequenceNumber {
		t.Fatalf("batch: %+v %v, want a failure at the maker's first record %s", resp, err, ev.Records[6].Change.SequenceNumber)
	}
	if got := whats(t, api.Posts["taker-tab"]); strings.Join(got, "\n") != strings.Join(takerSees[:4], "\n") {
		t.Errorf("the taker got %q, want %q", got, takerSees[:4])
	}
	if n := len(api.Posts["maker-tab"]); n != 0 {
		t.Errorf("the maker got %d messages", n)
	}
}
