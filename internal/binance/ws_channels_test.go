package binance

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tenger/internal/marketdata"
)

// channelLog records what ChannelStreams publish, by channel.
type channelLog struct {
	mu   sync.Mutex
	msgs map[string][]string
}

func (l *channelLog) publish(ch string, msg []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs[ch] = append(l.msgs[ch], string(msg))
}

func (l *channelLog) of(ch string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.msgs[ch])
}

// wait waits until the channel has more than n messages and returns them.
func (l *channelLog) wait(t *testing.T, ch string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if got := l.of(ch); len(got) > n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %d messages: %q", ch, len(l.of(ch)), l.of(ch))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestChannelStreams: the streams AWS's engine task publishes to the
// registry's channels, each computed once for its raw or combined
// listeners: trades raw, diff depth combined with consecutive update ids,
// a ticker at its first period and again for a fresh subscriber only;
// unknown channels are ignored and a channel dropped from the registry
// stops.
func TestChannelStreams(t *testing.T) {
	e := newEnv(t, nil)
	log := &channelLog{msgs: map[string][]string{}}
	st := e.srv.ChannelStreams(log.publish)
	st.fast = 2 * time.Millisecond
	t.Cleanup(st.Close)
	trade, depth, ticker := StreamChannel("btcusdt@trade", false), StreamChannel("btcusdt@depth@100ms", true),
		StreamChannel("btcusdt@ticker", false)
	st.SyncChannels([]ChannelState{{Channel: trade}, {Channel: depth}, {Channel: ticker},
		{Channel: "market_btcusdt_ticker"}, {Channel: StreamChannel("nosuch@trade", false)}})
	if got := st.Channels(); !slices.Equal(got, []string{"binance+:btcusdt@depth@100ms", "binance:btcusdt@ticker", "binance:btcusdt@trade"}) {
		t.Fatalf("channels = %q", got)
	}

	e.md.OnTrades("btcusdt", []marketdata.Trade{{ID: "4", Price: d("106"), Qty: d("0.25"), TakerSide: "SELL", At: testNow}})
	e.md.OnDepth("btcusdt", []marketdata.Level{lvl("100.57", "3")}, []marketdata.Level{lvl("100.61", "1")}, testNow)
	if err := e.md.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := log.wait(t, trade, 0); !strings.HasPrefix(got[0], `{"e":"trade",`) || !strings.Contains(got[0], `"t":4,`) {
		t.Fatalf("trade: %q", got)
	}
	var ev struct {
		Stream string `json:"stream"`
		Data   struct {
			E     string      `json:"e"`
			Time  int64       `json:"E"`
			First int64       `json:"U"`
			Last  int64       `json:"u"`
			Bids  [][2]string `json:"b"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(log.wait(t, depth, 0)[0]), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Stream != "btcusdt@depth@100ms" || ev.Data.E != "depthUpdate" || ev.Data.First > ev.Data.Last ||
		!slices.Contains(ev.Data.Bids, [2]string{"100.51", "0.000000"}) {
		t.Fatalf("depth: %+v", ev)
	}
	e.md.OnDepth("btcusdt", []marketdata.Level{lvl("100.57", "4")}, []marketdata.Level{lvl("100.61", "1")}, testNow)
	if err := e.md.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	prevLast := ev.Data.Last
	if err := json.Unmarshal([]byte(log.wait(t, depth, 1)[1]), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Data.First != prevLast+1 || !slices.Contains(ev.Data.Bids, [2]string{"100.57", "4.000000"}) {
		t.Fatalf("next depth event: U %d after u %d: %+v", ev.Data.First, prevLast, ev)
	}

	// The ticker is sent at its first period, then only when it changes
	// or a subscriber is fresh.
	first := log.wait(t, ticker, 0)
	if !strings.HasPrefix(first[0], `{"e":"24hrTicker",`) {
		t.Fatalf("ticker: %q", first)
	}
	time.Sleep(100 * time.Millisecond) // five periods
	if got := log.of(ticker); len(got) != 1 {
		t.Fatalf("an unchanged ticker was sent again: %q", got)
	}
	st.SyncChannels([]ChannelState{{Channel: trade}, {Channel: depth}, {Channel: ticker, Fresh: true}})
	if got := log.wait(t, ticker, 1); got[1] != got[0] {
		t.Fatalf("the ticker for a fresh subscriber: %q", got)
	}

	// Channels dropped from the registry stop; with none left the loop ends.
	st.SyncChannels([]ChannelState{{Channel: trade}})
	if got := st.Channels(); !slices.Equal(got, []string{trade}) {
		t.Fatalf("channels = %q", got)
	}
	st.SyncChannels(nil)
	st.mu.Lock()
	n, done := len(st.streams), st.done
	st.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d streams left", n)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("stream loop did not end")
	}
}

// TestStreamFrameClaims: which frames on the web app's endpoint are
// Binance's (both runtimes route by IsStreamFrame).
func TestStreamFrameClaims(t *testing.T) {
	for frame, want := range map[string]bool{
		`{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":1}`:      true,
		`{"method":"LIST_SUBSCRIPTIONS","id":3}`:                        true,
		`{"method":"subscribe","params":["btcusdt@trade"],"id":1}`:      true,
		`{"method":"FOO","id":1}`:                                       true,
		`{"event":"sub","params":{"channel":"market_btcusdt_ticker"}}`:  false,
		`{"id":7,"method":"order.place","params":{"symbol":"btcusdt"}}`: false,
		`{"id":"bad","method":"order.cancel","params":["x"]}`:           false,
		`{"ping":1}`: false,
		`{"method":"SUBSCRIBE","event":"sub","params":["btcusdt@trade"]}`: false,
		`not json {"method"`: false,
	} {
		if got := IsStreamFrame([]byte(frame)); got != want {
			t.Errorf("%s: claimed %v, want %v", frame, got, want)
		}
	}
}
