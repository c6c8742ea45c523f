package marketdata

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"tenger/internal/markets"
)

func lv(p, q string) Level { return Level{Price: d(p), Qty: d(q)} }

func TestDepthStepsMerge(t *testing.T) {
	e := newEnv(t)
	bids := []Level{lv("100.57", "1"), lv("100.55", "2"), lv("100.49", "3"), lv("99.99", "1")}
	asks := []Level{lv("100.61", "1"), lv("100.68", "1"), lv("100.71", "2"), lv("101.00", "1")}
	e.md.OnDepth("btcusdt", bids, asks, e.clock.Now())
	if err := e.md.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	check := func(step, limit int, buys, asks [][2]string) {
		t.Helper()
		v, err := e.md.Depth("btcusdt", step, limit)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(v.Buys, buys) || !reflect.DeepEqual(v.Asks, asks) {
			t.Errorf("step %d limit %d:\nbuys %v want %v\nasks %v want %v", step, limit, v.Buys, buys, v.Asks, asks)
		}
		if v.TS != e.clock.Now().UnixMilli() {
			t.Errorf("ts %d", v.TS)
		}
	}
	check(0, 0, [][2]string{{"100.57", "1"}, {"100.55", "2"}, {"100.49", "3"}, {"99.99", "1"}},
		[][2]string{{"100.61", "1"}, {"100.68", "1"}, {"100.71", "2"}, {"101.00", "1"}})
	check(0, 2, [][2]string{{"100.57", "1"}, {"100.55", "2"}}, [][2]string{{"100.61", "1"}, {"100.68", "1"}})
	// btcusdt's steps 1 and 2 are its depthSteps, grids 10 and 100 (markets_default.json):
	// bids round down, asks round up.
	check(1, 0, [][2]string{{"100", "6"}, {"90", "1"}}, [][2]string{{"110", "5"}})
	check(2, 0, [][2]string{{"100", "6"}, {"0", "1"}}, [][2]string{{"200", "5"}})
	check(2, 1, [][2]string{{"100", "6"}}, [][2]string{{"200", "5"}})
	// A pair without depthSteps merges on tick × 10 and tick × 100.
	plain := markets.Pair{PriceTick: d("0.01")}
	for _, c := range []struct {
		step       int
		buys, asks [][2]string
	}{
		{1, [][2]string{{"100.5", "3"}, {"100.4", "3"}, {"99.9", "1"}}, [][2]string{{"100.7", "2"}, {"100.8", "2"}, {"101.0", "1"}}},
		{2, [][2]string{{"100", "6"}, {"99", "1"}}, [][2]string{{"101", "5"}}},
	} {
		g := plain.DepthStep(c.step)
		if b, a := mergeLevels(bids, g, 2, true, true, 10), mergeLevels(asks, g, 2, true, false, 10); !reflect.DeepEqual(b, c.buys) || !reflect.DeepEqual(a, c.asks) {
			t.Errorf("default grid %s: buys %v asks %v", g, b, a)
		}
	}
	if _, err := e.md.Depth("btcusdt", 3, 0); err == nil {
		t.Fatal("step 3 accepted")
	}
	if _, err := e.md.Depth("nosuch", 0, 0); err == nil {
		t.Fatal("unknown symbol accepted")
	}
	// An empty book answers empty lists, not null.
	v, _ := e.md.Depth("ethusdt", 0, 0)
	b, _ := json.Marshal(v)
	if string(b) != `{"buys":[],"asks":[],"ts":0}` {
		t.Fatalf("empty book %s", b)
	}
}

type tickMsg struct {
	Channel string          `json:"channel"`
	TS      int64           `json:"ts"`
	Tick    json.RawMessage `json:"tick"`
	Data    json.RawMessage `json:"data"`
}

func TestDepthPushThrottled(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	t0 := e.clock.Now()
	e.push.take()
	e.md.OnDepth("btcusdt", []Level{lv("100", "1")}, []Level{lv("101", "1")}, t0)
	_ = e.md.Sync(ctx)
	msgs := e.push.take()
	var chans []string
	for _, m := range msgs {
		chans = append(chans, m.Channel)
	}
	want := []string{"market_btcusdt_depth_step0", "market_btcusdt_depth_step1", "market_btcusdt_depth_step2"}
	if !reflect.DeepEqual(chans, want) {
		t.Fatalf("first push %v", chans)
	}
	var m tickMsg
	decodeJSON(t, msgs[0].Body, &m)
	if m.Channel != want[0] || m.TS != t0.UnixMilli() || m.Data != nil ||
		string(m.Tick) != `{"buys":[["100.00","1"]],"asks":[["101.00","1"]],"ts":`+ms(t0)+`}` {
		t.Fatalf("depth message %s", msgs[0].Body)
	}
	// Changes within 100 ms are held back; the latest goes out when due.
	for i, step := range []time.Duration{30, 30, 39} {
		e.clock.Add(step * time.Millisecond)
		e.md.OnDepth("btcusdt", []Level{lv("100", string(rune('2'+i)))}, nil, e.clock.Now())
		_ = e.md.Sync(ctx)
		if got := e.push.take(); len(got) != 0 {
			t.Fatalf("pushed %d messages %v after %d ms", len(got), got[0].Channel, e.clock.Now().Sub(t0).Milliseconds())
		}
	}
	e.clock.Set(t0.Add(PushInterval))
	_ = e.md.Sync(ctx)
	got := e.push.take()
	if len(got) != 3 {
		t.Fatalf("due push: %d messages", len(got))
	}
	decodeJSON(t, got[0].Body, &m)
	if string(m.Tick) != `{"buys":[["100.00","4"]],"asks":[],"ts":`+ms(t0.Add(99*time.Millisecond))+`}` {
		t.Fatalf("latest snapshot not pushed: %s", got[0].Body)
	}
	// Nothing changed: nothing pushed however long it waits.
	e.clock.Add(time.Second)
	_ = e.md.Sync(ctx)
	if got := e.push.take(); len(got) != 0 {
		t.Fatalf("unchanged book pushed %d", len(got))
	}
	// Another symbol is throttled on its own.
	e.md.OnDepth("ethusdt", []Level{lv("3000", "1")}, nil, e.clock.Now())
	e.md.OnDepth("btcusdt", []Level{lv("100", "9")}, nil, e.clock.Now())
	_ = e.md.Sync(ctx)
	if got := e.push.take(); len(got) != 6 {
		t.Fatalf("two symbols: %d messages", len(got))
	}
}

func TestTradePushesAndShapes(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.push.take()
	e.md.OnTrades("btcusdt", sequence()[:2])
	_ = e.md.Sync(ctx)
	byCh := map[string][]byte{}
	klines := map[string][][]byte{}
	for _, m := range e.push.take() {
		if strings.Contains(m.Channel, "_kline_") {
			klines[m.Channel] = append(klines[m.Channel], m.Body)
			continue
		}
		if _, dup := byCh[m.Channel]; dup {
			t.Fatalf("two messages on %s", m.Channel)
		}
		byCh[m.Channel] = m.Body
	}
	var m tickMsg
	decodeJSON(t, byCh[TradeChannel("btcusdt")], &m)
	if m.Channel != "market_btcusdt_trade_ticker" || m.Tick != nil || m.TS != e.clock.Now().UnixMilli() {
		t.Fatalf("trade message %s", byCh[TradeChannel("btcusdt")])
	}
	var trades []TradeView
	decodeJSON(t, m.Data, &trades)
	want := []TradeView{
		{ID: "1", Side: "BUY", Price: "100.00", Vol: "1", Amount: "100", TS: at("2026-01-31T23:58:10Z").UnixMilli(), Ds: "2026-01-31 23:58:10"},
		{ID: "2", Side: "SELL", Price: "105.00", Vol: "2", Amount: "210", TS: at("2026-01-31T23:59:59Z").UnixMilli(), Ds: "2026-01-31 23:59:59"},
	}
	if !reflect.DeepEqual(trades, want) {
		t.Fatalf("trades %+v", trades)
	}
	m = tickMsg{}
	decodeJSON(t, byCh["market_btcusdt_ticker"], &m)
	var tk Ticker
	decodeJSON(t, m.Tick, &tk)
	if m.Data != nil || tk.Close != "105.00" || tk.Symbol != "btcusdt" {
		t.Fatalf("ticker message %s", byCh["market_btcusdt_ticker"])
	}
	for _, p := range Periods {
		// The two trades are in different minutes (23:58:10, 23:59:59):
		// the 1min channel gets both candles' last state, oldest first;
		// every longer period has them in one candle.
		wantClose := []string{"105.00"}
		if p == Min1 {
			wantClose = []string{"100.00", "105.00"}
		}
		bs := klines[KlineChannel("btcusdt", p)]
		if len(bs) != len(wantClose) {
			t.Fatalf("%s: %d kline pushes, want %d", p, len(bs), len(wantClose))
		}
		for i, b := range bs {
			m = tickMsg{}
			decodeJSON(t, b, &m)
			var k KlineView
			decodeJSON(t, m.Tick, &k)
			if m.Channel != "market_btcusdt_kline_"+string(p) || k.Close != wantClose[i] {
				t.Fatalf("kline message %s", b)
			}
		}
	}
	if len(byCh) != 2 || len(klines) != len(Periods) {
		t.Fatalf("channels %d and %d", len(byCh), len(klines))
	}
	// A second trade within 100 ms: the trade goes out at once, the
	// ticker and klines wait for their interval.
	e.clock.Add(10 * time.Millisecond)
	e.md.OnTrades("btcusdt", sequence()[2:3])
	_ = e.md.Sync(ctx)
	got := e.push.take()
	if len(got) != 1 || got[0].Channel != TradeChannel("btcusdt") {
		t.Fatalf("within interval: %d messages", len(got))
	}
	e.clock.Add(PushInterval)
	_ = e.md.Sync(ctx)
	if n := len(e.push.take()); n != 1+len(Periods) {
		t.Fatalf("after interval: %d messages", n)
	}
	// A replayed trade pushes nothing.
	e.clock.Add(PushInterval)
	e.md.OnTrades("btcusdt", sequence()[:3])
	_ = e.md.Sync(ctx)
	if got := e.push.take(); len(got) != 0 {
		t.Fatalf("replay pushed %d", len(got))
	}
}

func TestChannelNames(t *testing.T) {
	if DepthChannel("btcusdt", 2) != "market_btcusdt_depth_step2" || TradeChannel("ethusdt") != "market_ethusdt_trade_ticker" ||
		TickerChannel("usdtmnt") != "market_usdtmnt_ticker" || KlineChannel("btcmnt", Hour4) != "market_btcmnt_kline_4h" {
		t.Fatal("channel names")
	}
	for _, s := range []string{"1h", "60min", "1H"} {
		if p, ok := ParsePeriod(s); !ok || p != Min60 {
			t.Fatalf("ParsePeriod(%s)", s)
		}
	}
	if _, ok := ParsePeriod("2min"); ok {
		t.Fatal("2min accepted")
	}
}

func TestStartStopLoop(t *testing.T) {
	e := newEnv(t)
	e.md.Start()
	e.md.OnTrades("btcusdt", sequence())
	deadline := time.Now().Add(5 * time.Second)
	for {
		if p, ok := e.md.LastPrice("btcusdt"); ok && p.Equal(d("101")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("loop did not apply the trades")
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.md.Stop()
	e.checkKlines()
}

func TestKnownChannel(t *testing.T) {
	known := KnownChannel(markets.Defaults())
	for _, ch := range []string{"market_btcusdt_ticker", "market_btcusdt_trade_ticker", "market_ethusdt_depth_step0",
		"market_ethusdt_depth_step2", "market_usdtmnt_kline_1min", "market_btcusdt_kline_1month"} {
		if !known(ch) {
			t.Errorf("%s refused", ch)
		}
	}
	for _, ch := range []string{"market_dogeusdt_ticker", "market_btcusdt_depth_step9", "market_btcusdt_kline_7min",
		"market_btcusdt", "market__ticker", "btcusdt_ticker", "market_btcusdt_tickers", "market_btcusdt_depth_step", "chat_1",
		// Only the names messages are published under: another spelling of
		// a pair or a period would be answered ok and never pushed to.
		"market_BTCUSDT_ticker", "market_BTC/USDT_ticker", "market_btcusdt_kline_1h", "market_btcusdt_kline_1MIN",
		"market_btcusdt_kline_1d", "market_btcusdt_kline_4hour", "market_btcusdt_kline_60m"} {
		if known(ch) {
			t.Errorf("%s accepted", ch)
		}
	}
}
