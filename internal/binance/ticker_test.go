package binance

import (
	"testing"
	"time"
)

func TestTickers(t *testing.T) {
	e := newEnv(t, nil)
	// Market data's 24 h window: the current minute and the 1439 before,
	// from 2026-02-01 00:01:00. Weighted average 372.5 / 3.5.
	btcFull := `{"symbol":"BTCUSDT","priceChange":"5.00","priceChangePercent":"5.000","weightedAvgPrice":"106.42857143",` +
		`"prevClosePrice":"0.00","lastPrice":"105.00","lastQty":"0.500000","bidPrice":"100.57","bidQty":"1.000000",` +
		`"askPrice":"100.61","askQty":"1.000000","openPrice":"100.00","highPrice":"110.00","lowPrice":"100.00",` +
		`"volume":"3.500000","quoteVolume":"372.50000000","openTime":1769904060000,"closeTime":1769990430000,` +
		`"firstId":1,"lastId":3,"count":3}`
	btcMini := `{"symbol":"BTCUSDT","openPrice":"100.00","highPrice":"110.00","lowPrice":"100.00","lastPrice":"105.00",` +
		`"volume":"3.500000","quoteVolume":"372.50000000","openTime":1769904060000,"closeTime":1769990430000,` +
		`"firstId":1,"lastId":3,"count":3}`
	ethMini := `{"symbol":"ETHUSDT","openPrice":"0.00","highPrice":"0.00","lowPrice":"0.00","lastPrice":"0.00",` +
		`"volume":"0.00000","quoteVolume":"0.0000000","openTime":1769904060000,"closeTime":1769990430000,` +
		`"firstId":-1,"lastId":-1,"count":0}`
	runOKCases(t, e, []okCase{
		{"24hr symbol", "/api/v3/ticker/24hr?symbol=BTCUSDT", btcFull},
		{"24hr FULL", "/api/v3/ticker/24hr?symbol=BTCUSDT&type=FULL", btcFull},
		{"24hr MINI", "/api/v3/ticker/24hr?symbol=BTCUSDT&type=MINI", btcMini},
		{"24hr symbols is an array", `/api/v3/ticker/24hr?symbols=["BTCUSDT"]`, `[` + btcFull + `]`},
		{"24hr MINI symbols", `/api/v3/ticker/24hr?symbols=["ETHUSDT","BTCUSDT"]&type=MINI`, `[` + ethMini + `,` + btcMini + `]`},
		{"24hr status filter drops", `/api/v3/ticker/24hr?symbols=["ETHUSDT"]&symbolStatus=BREAK`, `[]`},
		{"price", "/api/v3/ticker/price?symbol=BTCUSDT", `{"symbol":"BTCUSDT","price":"105.00"}`},
		{"prices", "/api/v3/ticker/price", `[{"symbol":"BTCUSDT","price":"105.00"},{"symbol":"ETHUSDT","price":"0.00"},` +
			`{"symbol":"TRXUSDT","price":"0.00000"},{"symbol":"XRPUSDT","price":"0.0000"},{"symbol":"TONUSDT","price":"0.000"},` +
			`{"symbol":"USDTMNT","price":"0.0"},{"symbol":"BTCMNT","price":"0"}]`},
		{"prices of symbols", `/api/v3/ticker/price?symbols=["BTCMNT","BTCUSDT"]`,
			`[{"symbol":"BTCMNT","price":"0"},{"symbol":"BTCUSDT","price":"105.00"}]`},
		{"bookTicker", "/api/v3/ticker/bookTicker?symbol=BTCUSDT",
			`{"symbol":"BTCUSDT","bidPrice":"100.57","bidQty":"1.000000","askPrice":"100.61","askQty":"1.000000"}`},
		{"bookTicker empty book", `/api/v3/ticker/bookTicker?symbols=["ETHUSDT"]`,
			`[{"symbol":"ETHUSDT","bidPrice":"0.00","bidQty":"0.00000","askPrice":"0.00","askQty":"0.00000"}]`},
		// Rolling: the window opens windowSize before the current minute.
		{"rolling 1h", "/api/v3/ticker?symbol=BTCUSDT&windowSize=1h",
			`{"symbol":"BTCUSDT","priceChange":"-5.00","priceChangePercent":"-4.545","weightedAvgPrice":"109.00000000",` +
				`"openPrice":"110.00","highPrice":"110.00","lowPrice":"105.00","lastPrice":"105.00","volume":"2.500000",` +
				`"quoteVolume":"272.50000000","openTime":1769986800000,"closeTime":1769990430000,"firstId":2,"lastId":3,"count":2}`},
		{"rolling default 1d", "/api/v3/ticker?symbol=BTCUSDT&type=MINI",
			`{"symbol":"BTCUSDT","openPrice":"100.00","highPrice":"110.00","lowPrice":"100.00","lastPrice":"105.00",` +
				`"volume":"3.500000","quoteVolume":"372.50000000","openTime":1769904000000,"closeTime":1769990430000,` +
				`"firstId":1,"lastId":3,"count":3}`},
		{"rolling 1m", `/api/v3/ticker?symbols=["BTCUSDT"]&windowSize=1m&type=MINI`,
			`[{"symbol":"BTCUSDT","openPrice":"110.00","highPrice":"110.00","lowPrice":"105.00","lastPrice":"105.00",` +
				`"volume":"2.500000","quoteVolume":"272.50000000","openTime":1769990340000,"closeTime":1769990430000,` +
				`"firstId":2,"lastId":3,"count":2}]`},
	})
	runErrCases(t, e, []errCase{
		{"24hr bad type", "/api/v3/ticker/24hr?symbol=BTCUSDT&type=mini", 400, -1139, "Invalid ticker type."},
		{"24hr unknown", "/api/v3/ticker/24hr?symbol=DOGEUSDT", 400, -1121, ""},
		{"24hr symbol and symbols", `/api/v3/ticker/24hr?symbol=BTCUSDT&symbols=["BTCUSDT"]`, 400, -1128, ""},
		{"24hr status mismatch", "/api/v3/ticker/24hr?symbol=BTCUSDT&symbolStatus=HALT", 400, -1220, ""},
		{"price lower case", "/api/v3/ticker/price?symbol=btcusdt", 400, -1100, ""},
		{"rolling no symbol", "/api/v3/ticker", 400, -1102, "Param 'symbol' or 'symbols' must be sent, but both were empty/null!"},
		{"rolling 60m", "/api/v3/ticker?symbol=BTCUSDT&windowSize=60m", 400, -1130,
			"Data sent for parameter 'windowSize' is not valid."},
		{"rolling 8d", "/api/v3/ticker?symbol=BTCUSDT&windowSize=8d", 400, -1130, ""},
		{"rolling 0h", "/api/v3/ticker?symbol=BTCUSDT&windowSize=0h", 400, -1130, ""},
		{"rolling 1w", "/api/v3/ticker?symbol=BTCUSDT&windowSize=1w", 400, -1130, ""},
		{"rolling bad type", "/api/v3/ticker?symbol=BTCUSDT&type=X", 400, -1139, ""},
	})
}

// Windows over an hour are summed from minutes at their ends and hours
// between: a window opening at 22:10 leaves trade 1 (22:00:30) out, one
// opening at 21:10 takes it.
func TestRollingWindowEdges(t *testing.T) {
	e := newEnv(t, nil)
	e.clock.Add(70 * time.Minute) // 01:10:30
	runOKCases(t, e, []okCase{
		{"3h", "/api/v3/ticker?symbol=BTCUSDT&windowSize=3h&type=MINI",
			`{"symbol":"BTCUSDT","openPrice":"110.00","highPrice":"110.00","lowPrice":"105.00","lastPrice":"105.00",` +
				`"volume":"2.500000","quoteVolume":"272.50000000","openTime":1769983800000,"closeTime":1769994630000,` +
				`"firstId":2,"lastId":3,"count":2}`},
		{"4h", "/api/v3/ticker?symbol=BTCUSDT&windowSize=4h&type=MINI",
			`{"symbol":"BTCUSDT","openPrice":"100.00","highPrice":"110.00","lowPrice":"100.00","lastPrice":"105.00",` +
				`"volume":"3.500000","quoteVolume":"372.50000000","openTime":1769980200000,"closeTime":1769994630000,` +
				`"firstId":1,"lastId":3,"count":3}`},
		{"7d", "/api/v3/ticker?symbol=BTCUSDT&windowSize=7d&type=MINI",
			`{"symbol":"BTCUSDT","openPrice":"100.00","highPrice":"110.00","lowPrice":"100.00","lastPrice":"105.00",` +
				`"volume":"3.500000","quoteVolume":"372.50000000","openTime":1769389800000,"closeTime":1769994630000,` +
				`"firstId":1,"lastId":3,"count":3}`},
		{"59m without trades", "/api/v3/ticker?symbol=BTCUSDT&windowSize=59m",
			`{"symbol":"BTCUSDT","priceChange":"0.00","priceChangePercent":"0.000","weightedAvgPrice":"0.00000000",` +
				`"openPrice":"105.00","highPrice":"105.00","lowPrice":"105.00","lastPrice":"105.00","volume":"0.000000",` +
				`"quoteVolume":"0.00000000","openTime":1769991060000,"closeTime":1769994630000,"firstId":-1,"lastId":-1,"count":0}`},
	})
	// 24 h later the window is empty; the previous close is the last price.
	e.clock.Add(24 * time.Hour)
	runOKCases(t, e, []okCase{
		{"24hr after a quiet day", "/api/v3/ticker/24hr?symbol=BTCUSDT",
			`{"symbol":"BTCUSDT","priceChange":"0.00","priceChangePercent":"0.000","weightedAvgPrice":"0.00000000",` +
				`"prevClosePrice":"105.00","lastPrice":"105.00","lastQty":"0.500000","bidPrice":"100.57","bidQty":"1.000000",` +
				`"askPrice":"100.61","askQty":"1.000000","openPrice":"105.00","highPrice":"105.00","lowPrice":"105.00",` +
				`"volume":"0.000000","quoteVolume":"0.00000000","openTime":1769994660000,"closeTime":1770081030000,` +
				`"firstId":-1,"lastId":-1,"count":0}`},
	})
}

func TestTickerWeights(t *testing.T) {
	e := newEnv(t, nil)
	many := `["BTCUSDT","ETHUSDT","TRXUSDT","XRPUSDT","TONUSDT","USDTMNT","BTCMNT"]`
	prev := 0
	for _, c := range []struct {
		target string
		weight int
	}{
		{"/api/v3/ticker/24hr?symbol=BTCUSDT", 2},
		{"/api/v3/ticker/24hr", 80},
		{"/api/v3/ticker/24hr?symbols=" + many, 2},
		{"/api/v3/ticker/price?symbol=BTCUSDT", 2},
		{"/api/v3/ticker/price", 4},
		{"/api/v3/ticker/bookTicker?symbols=" + many, 4},
		{"/api/v3/ticker?symbol=BTCUSDT", 4},
		{"/api/v3/ticker?symbols=" + many, 28},
		{"/api/v3/exchangeInfo", 20},
		{"/api/v3/trades?symbol=BTCUSDT", 25},
		{"/api/v3/historicalTrades?symbol=BTCUSDT", 25},
		{"/api/v3/aggTrades?symbol=BTCUSDT", 4},
		{"/api/v3/klines?symbol=BTCUSDT&interval=1m", 2},
		{"/api/v3/avgPrice?symbol=BTCUSDT", 2},
		{"/api/v3/ping", 1},
		{"/api/v3/nowhere", 1},
	} {
		a := e.get(c.target)
		used := 0
		if _, err := fmtSscan(a.header.Get("X-MBX-USED-WEIGHT-1M"), &used); err != nil {
			t.Fatal(err)
		}
		if used-prev != c.weight || a.header.Get("X-MBX-USED-WEIGHT") != a.header.Get("X-MBX-USED-WEIGHT-1M") {
			t.Errorf("%s: weight %d, want %d", c.target, used-prev, c.weight)
		}
		prev = used
	}
	// Weights of many symbols.
	list := func(n int) *Params {
		v := "["
		for i := range n {
			if i > 0 {
				v += ","
			}
			v += `"A"`
		}
		return &Params{vals: map[string]string{"symbols": v + "]"}}
	}
	for _, c := range []struct {
		n, w24, rolling int
	}{{1, 2, 4}, {20, 2, 80}, {21, 40, 84}, {50, 40, 200}, {51, 40, 200}, {100, 40, 200}, {101, 80, 200}} {
		if w := ticker24Weight(list(c.n)); w != c.w24 {
			t.Errorf("24hr %d symbols: %d, want %d", c.n, w, c.w24)
		}
		if w := rollingWeight(list(c.n)); w != c.rolling {
			t.Errorf("rolling %d symbols: %d, want %d", c.n, w, c.rolling)
		}
	}
}
