package binance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"tenger/internal/marketdata"
)

// inStream matches a combined stream's messages.
func inStream(name string) func([]byte) bool {
	prefix := `{"stream":"` + name + `","data":`
	return func(m []byte) bool { return strings.HasPrefix(string(m), prefix) }
}

// data is a combined message's payload.
func data(t *testing.T, m []byte) json.RawMessage {
	t.Helper()
	var w struct {
		Stream string          `json:"stream"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(m, &w); err != nil || w.Data == nil {
		t.Fatalf("not a combined message: %s", m)
	}
	return w.Data
}

// TestTradeStreams: a raw connection per stream (subscribed by its URL)
// gets each new trade as Binance's trade and aggTrade events.
func TestTradeStreams(t *testing.T) {
	w := newWSEnv(t)
	tc, ac := w.dial("/ws/btcusdt@trade"), w.dial("/ws/btcusdt@aggTrade")
	// The URL's stream is listed (and subscribed before frames are read).
	if a := tc.request(`{"method":"LIST_SUBSCRIPTIONS","id":1}`, "1"); a != `{"result":["btcusdt@trade"],"id":1}` {
		t.Fatalf("list: %s", a)
	}
	if a := ac.request(`{"method":"LIST_SUBSCRIPTIONS","id":1}`, "1"); a != `{"result":["btcusdt@aggTrade"],"id":1}` {
		t.Fatalf("list: %s", a)
	}
	ms := testNow.UnixMilli()
	w.md.OnTrades("btcusdt", []marketdata.Trade{
		{ID: "4", Price: d("106"), Qty: d("0.25"), TakerSide: "SELL", At: testNow},
		{ID: "5", Price: d("107.5"), Qty: d("1"), TakerSide: "BUY", At: testNow.Add(time.Millisecond)},
	})
	w.apply()
	for i, want := range []string{
		fmt.Sprintf(`{"e":"trade","E":%d,"s":"BTCUSDT","t":4,"p":"106.00","q":"0.250000","T":%d,"m":true,"M":true}`, ms, ms),
		fmt.Sprintf(`{"e":"trade","E":%d,"s":"BTCUSDT","t":5,"p":"107.50","q":"1.000000","T":%d,"m":false,"M":true}`, ms, ms+1),
	} {
		if got := string(tc.next("trade", nil)); got != want {
			t.Fatalf("trade %d:\n got %s\nwant %s", i, got, want)
		}
	}
	for i, want := range []string{
		fmt.Sprintf(`{"e":"aggTrade","E":%d,"s":"BTCUSDT","a":4,"p":"106.00","q":"0.250000","f":4,"l":4,"T":%d,"m":true,"M":true}`, ms, ms),
		fmt.Sprintf(`{"e":"aggTrade","E":%d,"s":"BTCUSDT","a":5,"p":"107.50","q":"1.000000","f":5,"l":5,"T":%d,"m":false,"M":true}`, ms, ms+1),
	} {
		if got := string(ac.next("aggTrade", nil)); got != want {
			t.Fatalf("aggTrade %d:\n got %s\nwant %s", i, got, want)
		}
	}
	// A trade replayed is not sent again; another pair's trades are not
	// sent at all.
	w.md.OnTrades("btcusdt", []marketdata.Trade{{ID: "5", Price: d("107.5"), Qty: d("1"), TakerSide: "BUY", At: testNow}})
	w.md.OnTrades("ethusdt", []marketdata.Trade{{ID: "1", Price: d("10"), Qty: d("1"), TakerSide: "BUY", At: testNow}})
	w.md.OnTrades("btcusdt", []marketdata.Trade{{ID: "6", Price: d("108"), Qty: d("1"), TakerSide: "BUY", At: testNow}})
	w.apply()
	if got := string(tc.next("trade", nil)); !strings.Contains(got, `"t":6,`) {
		t.Fatalf("after a replay: %s", got)
	}
}

// TestDepthStreams: diff depth (100 ms and 1000 ms), partial book and
// book ticker payloads on a combined connection.
func TestDepthStreams(t *testing.T) {
	w := newWSEnv(t)
	c := w.dial("/stream?streams=btcusdt@depth@100ms/btcusdt@depth/btcusdt@depth5/btcusdt@depth10@100ms/btcusdt@bookTicker")
	s0 := testNow.UnixMilli() // the env's book is version s0
	partial0 := fmt.Sprintf(`{"lastUpdateId":%d,"bids":[["100.57","1.000000"],["100.51","2.000000"]],"asks":[["100.61","1.000000"]]}`, s0)
	// New subscribers get the partial books and the book ticker at once.
	for _, name := range []string{"btcusdt@depth5", "btcusdt@depth10@100ms"} {
		if got := string(data(t, c.next(name, inStream(name)))); got != partial0 {
			t.Fatalf("%s:\n got %s\nwant %s", name, got, partial0)
		}
	}
	book0 := fmt.Sprintf(`{"u":%d,"s":"BTCUSDT","b":"100.57","B":"1.000000","a":"100.61","A":"1.000000"}`, s0)
	if got := string(data(t, c.next("book ticker", inStream("btcusdt@bookTicker")))); got != book0 {
		t.Fatalf("book ticker:\n got %s\nwant %s", got, book0)
	}
	// The book changes twice: the diff events carry every level that
	// changed over both versions (100.52 came and went: gone), removed
	// ones with a zero quantity, bids best first and asks too.
	w.book([]marketdata.Level{lvl("100.57", "1"), lvl("100.52", "5")}, []marketdata.Level{lvl("100.61", "1")})
	w.book([]marketdata.Level{lvl("100.57", "1"), lvl("100.55", "3")},
		[]marketdata.Level{lvl("100.61", "2"), lvl("100.70", "1")})
	ms := testNow.UnixMilli()
	diffBody := `"b":[["100.55","3.000000"],["100.52","0.000000"],["100.51","0.000000"]],"a":[["100.61","2.000000"],["100.70","1.000000"]]}`
	for _, name := range []string{"btcusdt@depth@100ms", "btcusdt@depth"} {
		// The 100 ms stream may have sent the first version alone: its
		// events, applied in turn, must end at the second.
		got := map[string][2]string{}
		u := s0
		for u < s0+2 {
			var ev wsDepthUpdate
			raw := data(t, c.next(name, inStream(name)))
			if err := json.Unmarshal(raw, &ev); err != nil {
				t.Fatal(err)
			}
			if ev.Event != "depthUpdate" || ev.EventTime != ms || ev.Symbol != "BTCUSDT" || ev.First != u+1 || ev.Last < ev.First {
				t.Fatalf("%s after %d: %s", name, u, raw)
			}
			if ev.First == s0+1 && ev.Last == s0+2 {
				want := fmt.Sprintf(`{"e":"depthUpdate","E":%d,"s":"BTCUSDT","U":%d,"u":%d,`, ms, s0+1, s0+2) + diffBody
				if string(raw) != want {
					t.Fatalf("%s:\n got %s\nwant %s", name, raw, want)
				}
			}
			for _, l := range ev.Bids {
				got["b"+l[0]] = l
			}
			for _, l := range ev.Asks {
				got["a"+l[0]] = l
			}
			u = ev.Last
		}
		want := map[string][2]string{"b100.55": {"100.55", "3.000000"}, "b100.52": {"100.52", "0.000000"},
			"b100.51": {"100.51", "0.000000"}, "a100.61": {"100.61", "2.000000"}, "a100.70": {"100.70", "1.000000"}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: levels %v, want %v", name, got, want)
		}
	}
	partial2 := fmt.Sprintf(`{"lastUpdateId":%d,"bids":[["100.57","1.000000"],["100.55","3.000000"]],"asks":[["100.61","2.000000"],["100.70","1.000000"]]}`, s0+2)
	for _, name := range []string{"btcusdt@depth5", "btcusdt@depth10@100ms"} {
		m := c.next(name, func(m []byte) bool {
			return inStream(name)(m) && strings.Contains(string(m), fmt.Sprint(s0+2))
		})
		if got := string(data(t, m)); got != partial2 {
			t.Fatalf("%s:\n got %s\nwant %s", name, got, partial2)
		}
	}
	// The book ticker went out for each change of the best levels.
	for _, want := range []string{
		fmt.Sprintf(`{"u":%d,"s":"BTCUSDT","b":"100.57","B":"1.000000","a":"100.61","A":"2.000000"}`, s0+2),
	} {
		if got := string(data(t, c.next("book ticker", inStream("btcusdt@bookTicker")))); got != want {
			t.Fatalf("book ticker:\n got %s\nwant %s", got, want)
		}
	}
	// An empty side: zeros, as the REST book ticker.
	w.book(nil, []marketdata.Level{lvl("100.61", "2")})
	want := fmt.Sprintf(`{"u":%d,"s":"BTCUSDT","b":"0.00","B":"0.000000","a":"100.61","A":"2.000000"}`, s0+3)
	if got := string(data(t, c.next("book ticker", inStream("btcusdt@bookTicker")))); got != want {
		t.Fatalf("book ticker of an empty side:\n got %s\nwant %s", got, want)
	}
	// Partial book levels: at most the stream's.
	var bids, asks []marketdata.Level
	for i := range 30 {
		bids = append(bids, lvl(fmt.Sprintf("%d.00", 90-i), "1"))
		asks = append(asks, lvl(fmt.Sprintf("%d.00", 110+i), "1"))
	}
	w.book(bids, asks)
	for name, n := range map[string]int{"btcusdt@depth5": 5, "btcusdt@depth10@100ms": 10} {
		m := c.next(name, func(m []byte) bool {
			return inStream(name)(m) && strings.Contains(string(m), fmt.Sprint(s0+4))
		})
		var p wsPartialDepth
		if err := json.Unmarshal(data(t, m), &p); err != nil || len(p.Bids) != n || len(p.Asks) != n ||
			p.Bids[0][0] != "90.00" || p.Asks[n-1][0] != fmt.Sprintf("%d.00", 110+n-1) {
			t.Fatalf("%s: %s", name, m)
		}
	}
}

// TestTickerAndKlineStreams: tickers and klines carry what the REST
// ticker/24hr and klines answer, in Binance's stream fields.
func TestTickerAndKlineStreams(t *testing.T) {
	w := newWSEnv(t)
	c := w.dial("/stream?streams=btcusdt@ticker/btcusdt@miniTicker/btcusdt@kline_1m/btcusdt@kline_1h/!ticker@arr/!miniTicker@arr")
	ms := testNow.UnixMilli()

	var rest Ticker24
	w.restJSON("/api/v3/ticker/24hr?symbol=BTCUSDT", &rest)
	raw := data(t, c.next("ticker", inStream("btcusdt@ticker")))
	if k := strings.Join(keys(t, raw), ","); k != "e,E,s,p,P,w,x,c,Q,b,B,a,A,o,h,l,v,q,O,C,F,L,n" {
		t.Fatalf("ticker keys %s", k)
	}
	want := wsTicker{Event: "24hrTicker", EventTime: ms, Symbol: "BTCUSDT", Change: rest.PriceChange,
		ChangePct: rest.PriceChangePercent, WeightedAvg: rest.WeightedAvgPrice, PrevClose: rest.PrevClosePrice,
		Last: rest.LastPrice, LastQty: rest.LastQty, Bid: rest.BidPrice, BidQty: rest.BidQty, Ask: rest.AskPrice,
		AskQty: rest.AskQty, Open: rest.OpenPrice, High: rest.HighPrice, Low: rest.LowPrice, Volume: rest.Volume,
		QuoteVolume: rest.QuoteVolume, OpenTime: rest.OpenTime, CloseTime: rest.CloseTime, FirstID: rest.FirstID,
		LastID: rest.LastID, Count: rest.Count}
	var got wsTicker
	if err := json.Unmarshal(raw, &got); err != nil || got != want {
		t.Fatalf("ticker:\n got %s\nwant %+v", raw, want)
	}
	if got.Last != "105.00" || got.Count != 3 || got.FirstID != 1 || got.LastID != 3 || got.Bid != "100.57" {
		t.Fatalf("ticker figures: %s", raw)
	}

	var mini TickerMini
	w.restJSON("/api/v3/ticker/24hr?symbol=BTCUSDT&type=MINI", &mini)
	raw = data(t, c.next("mini ticker", inStream("btcusdt@miniTicker")))
	wantMini := fmt.Sprintf(`{"e":"24hrMiniTicker","E":%d,"s":"BTCUSDT","c":%q,"o":%q,"h":%q,"l":%q,"v":%q,"q":%q}`,
		ms, mini.LastPrice, mini.OpenPrice, mini.HighPrice, mini.LowPrice, mini.Volume, mini.QuoteVolume)
	if string(raw) != wantMini {
		t.Fatalf("mini ticker:\n got %s\nwant %s", raw, wantMini)
	}

	// The current candle, as the REST klines' last row.
	for _, iv := range []string{"1m", "1h"} {
		var rows [][]any
		w.restJSON("/api/v3/klines?symbol=BTCUSDT&interval="+iv+"&limit=1", &rows)
		r := rows[0]
		raw = data(t, c.next("kline "+iv, inStream("btcusdt@kline_"+iv)))
		wantK := fmt.Sprintf(`{"e":"kline","E":%d,"s":"BTCUSDT","k":{"t":%.0f,"T":%.0f,"s":"BTCUSDT","i":%q,"f":2,"L":3,"o":%q,"c":%q,"h":%q,"l":%q,"v":%q,"n":%.0f,"x":false,"q":%q,"V":%q,"Q":%q,"B":%q}}`,
			ms, r[0], r[6], iv, r[1], r[4], r[2], r[3], r[5], r[8], r[7], r[9], r[10], r[11])
		if string(raw) != wantK {
			t.Fatalf("kline %s:\n got %s\nwant %s", iv, raw, wantK)
		}
	}

	// The all-market arrays: every open pair to a new subscriber.
	for _, name := range []string{"!ticker@arr", "!miniTicker@arr"} {
		var arr []map[string]any
		if err := json.Unmarshal(data(t, c.next(name, inStream(name))), &arr); err != nil {
			t.Fatal(err)
		}
		if len(arr) != 7 {
			t.Fatalf("%s: %d tickers", name, len(arr))
		}
		event := map[string]string{"!ticker@arr": "24hrTicker", "!miniTicker@arr": "24hrMiniTicker"}[name]
		for _, tk := range arr {
			if tk["e"] != event {
				t.Fatalf("%s: %v", name, tk)
			}
		}
	}

	// A trade: the btcusdt tickers change, and the arrays hold only it.
	w.md.OnTrades("btcusdt", []marketdata.Trade{{ID: "4", Price: d("120"), Qty: d("1"), TakerSide: "BUY", At: testNow}})
	w.apply()
	changedTo := func(name, sub string) []byte {
		return c.next(name+" with "+sub, func(m []byte) bool {
			return inStream(name)(m) && strings.Contains(string(m), sub)
		})
	}
	changedTo("btcusdt@ticker", `"c":"120.00"`)
	changedTo("btcusdt@miniTicker", `"c":"120.00"`)
	changedTo("btcusdt@kline_1m", `"c":"120.00"`)
	for _, name := range []string{"!ticker@arr", "!miniTicker@arr"} {
		var arr []map[string]any
		if err := json.Unmarshal(data(t, changedTo(name, `"c":"120.00"`)), &arr); err != nil {
			t.Fatal(err)
		}
		if len(arr) != 1 || arr[0]["s"] != "BTCUSDT" {
			t.Fatalf("%s after a trade: %v", name, arr)
		}
	}

	// A minute later: the closed candle (x true), then the new one, which
	// has no trades (f and L -1) and opens at the last close.
	w.clock.Add(time.Minute)
	closed := changedTo("btcusdt@kline_1m", `"x":true`)
	var k wsKline
	if err := json.Unmarshal(data(t, closed), &k); err != nil || k.K.Start != ms-30_000 || k.K.Close != "120.00" ||
		k.K.Count != 3 || k.K.FirstID != 2 || k.K.LastID != 4 {
		t.Fatalf("closed kline: %s", closed)
	}
	next := changedTo("btcusdt@kline_1m", fmt.Sprintf(`"t":%d`, ms+30_000))
	wantNext := fmt.Sprintf(`{"e":"kline","E":%d,"s":"BTCUSDT","k":{"t":%d,"T":%d,"s":"BTCUSDT","i":"1m","f":-1,"L":-1,"o":"120.00","c":"120.00","h":"120.00","l":"120.00","v":"0.000000","n":0,"x":false,"q":"0.00000000","V":"0.000000","Q":"0.00000000","B":"0"}}`,
		ms+60_000, ms+30_000, ms+90_000-1)
	if got := string(data(t, next)); got != wantNext {
		t.Fatalf("new kline:\n got %s\nwant %s", got, wantNext)
	}
}

// TestStreamNamesParse: the names served and some that are not.
func TestStreamNamesParse(t *testing.T) {
	e := newEnv(t, nil)
	good := []string{"btcusdt@trade", "btcusdt@aggTrade", "btcusdt@depth", "btcusdt@depth@100ms", "btcusdt@depth@1000ms",
		"btcusdt@depth5", "btcusdt@depth10@100ms", "btcusdt@depth20@1000ms", "btcusdt@ticker", "btcusdt@miniTicker",
		"btcusdt@bookTicker", "!ticker@arr", "!miniTicker@arr", "usdtmnt@trade"}
	for _, iv := range IntervalNames {
		good = append(good, "ethusdt@kline_"+iv)
	}
	for _, n := range good {
		if _, ok := e.srv.parseStream(n); !ok {
			t.Errorf("%s refused", n)
		}
	}
	for _, n := range []string{"", "btcusdt", "BTCUSDT@trade", "btc_usdt@trade", "dogeusdt@trade", "btcusdt@foo",
		"btcusdt@Trade", "btcusdt@trade@100ms", "btcusdt@depth@250ms", "btcusdt@depth15", "btcusdt@kline_2h",
		"btcusdt@kline_1m@+08:00", "btcusdt@kline_", "!bookTicker", "!ticker_1h@arr", "@trade", "0"} {
		if _, ok := e.srv.parseStream(n); ok {
			t.Errorf("%q accepted", n)
		}
	}
}
