package binance

import (
	"testing"
	"time"
)

func TestDepthAndTrades(t *testing.T) {
	e := newEnv(t, nil)
	t1 := `{"id":1,"price":"100.00","qty":"1.000000","quoteQty":"100.00000000","time":1769983230000,"isBuyerMaker":false,"isBestMatch":true}`
	t2 := `{"id":2,"price":"110.00","qty":"2.000000","quoteQty":"220.00000000","time":1769990410000,"isBuyerMaker":true,"isBestMatch":true}`
	t3 := `{"id":3,"price":"105.00","qty":"0.500000","quoteQty":"52.50000000","time":1769990420000,"isBuyerMaker":false,"isBestMatch":true}`
	a1 := `{"a":1,"p":"100.00","q":"1.000000","f":1,"l":1,"T":1769983230000,"m":false,"M":true}`
	a2 := `{"a":2,"p":"110.00","q":"2.000000","f":2,"l":2,"T":1769990410000,"m":true,"M":true}`
	a3 := `{"a":3,"p":"105.00","q":"0.500000","f":3,"l":3,"T":1769990420000,"m":false,"M":true}`
	runOKCases(t, e, []okCase{
		{"depth", "/api/v3/depth?symbol=BTCUSDT",
			`{"lastUpdateId":1769990430000,"bids":[["100.57","1.000000"],["100.51","2.000000"]],"asks":[["100.61","1.000000"]]}`},
		{"depth limit 1", "/api/v3/depth?symbol=BTCUSDT&limit=1",
			`{"lastUpdateId":1769990430000,"bids":[["100.57","1.000000"]],"asks":[["100.61","1.000000"]]}`},
		{"depth above max", "/api/v3/depth?symbol=BTCUSDT&limit=9999&symbolStatus=TRADING",
			`{"lastUpdateId":1769990430000,"bids":[["100.57","1.000000"],["100.51","2.000000"]],"asks":[["100.61","1.000000"]]}`},
		{"depth of a book never published", "/api/v3/depth?symbol=ETHUSDT", `{"lastUpdateId":0,"bids":[],"asks":[]}`},
		{"trades oldest first", "/api/v3/trades?symbol=BTCUSDT", `[` + t1 + `,` + t2 + `,` + t3 + `]`},
		{"trades limit keeps the newest", "/api/v3/trades?symbol=BTCUSDT&limit=2", `[` + t2 + `,` + t3 + `]`},
		{"trades none", "/api/v3/trades?symbol=ETHUSDT", `[]`},
		{"historical newest", "/api/v3/historicalTrades?symbol=BTCUSDT&limit=1", `[` + t3 + `]`},
		{"historical fromId", "/api/v3/historicalTrades?symbol=BTCUSDT&fromId=2&limit=1", `[` + t2 + `]`},
		{"historical fromId 0", "/api/v3/historicalTrades?symbol=BTCUSDT&fromId=0", `[` + t1 + `,` + t2 + `,` + t3 + `]`},
		{"historical past the end", "/api/v3/historicalTrades?symbol=BTCUSDT&fromId=9", `[]`},
		{"aggTrades", "/api/v3/aggTrades?symbol=BTCUSDT", `[` + a1 + `,` + a2 + `,` + a3 + `]`},
		{"aggTrades newest", "/api/v3/aggTrades?symbol=BTCUSDT&limit=1", `[` + a3 + `]`},
		{"aggTrades fromId", "/api/v3/aggTrades?symbol=BTCUSDT&fromId=2&limit=1", `[` + a2 + `]`},
		{"aggTrades startTime inclusive", "/api/v3/aggTrades?symbol=BTCUSDT&startTime=1769990410000", `[` + a2 + `,` + a3 + `]`},
		{"aggTrades endTime inclusive", "/api/v3/aggTrades?symbol=BTCUSDT&endTime=1769990410000", `[` + a1 + `,` + a2 + `]`},
		{"aggTrades microseconds", "/api/v3/aggTrades?symbol=BTCUSDT&startTime=1769990410000000&endTime=1769990410000999",
			`[` + a2 + `]`},
		{"aggTrades start and end", "/api/v3/aggTrades?symbol=BTCUSDT&startTime=1769983230000&endTime=1769990420000&limit=2",
			`[` + a1 + `,` + a2 + `]`},
		{"avgPrice of the last 5 minutes", "/api/v3/avgPrice?symbol=BTCUSDT",
			`{"mins":5,"price":"109.00000000","closeTime":1769990420000}`},
		{"avgPrice never traded", "/api/v3/avgPrice?symbol=ETHUSDT", `{"mins":5,"price":"0.00","closeTime":0}`},
	})
	runErrCases(t, e, []errCase{
		{"depth no symbol", "/api/v3/depth", 400, -1102,
			"Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."},
		{"depth empty symbol", "/api/v3/depth?symbol=", 400, -1102, ""},
		{"depth unknown symbol", "/api/v3/depth?symbol=DOGEUSDT", 400, -1121, "Invalid symbol."},
		{"depth limit 0", "/api/v3/depth?symbol=BTCUSDT&limit=0", 400, -1130,
			"Data sent for parameter 'limit' is not valid."},
		{"depth limit negative", "/api/v3/depth?symbol=BTCUSDT&limit=-1", 400, -1100,
			"Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,20}$'."},
		{"depth limit text", "/api/v3/depth?symbol=BTCUSDT&limit=abc", 400, -1100, ""},
		{"depth limit overflow", "/api/v3/depth?symbol=BTCUSDT&limit=99999999999999999999", 400, -1108,
			"Parameter 'limit' overflowed."},
		{"depth status", "/api/v3/depth?symbol=BTCUSDT&symbolStatus=HALT", 400, -1220, ""},
		{"depth bad status", "/api/v3/depth?symbol=BTCUSDT&symbolStatus=x", 400, -1122, ""},
		{"trades empty limit", "/api/v3/trades?symbol=BTCUSDT&limit=", 400, -1105, "Parameter 'limit' was empty."},
		{"trades unknown parameter", "/api/v3/trades?symbol=BTCUSDT&depth=5", 400, -1104,
			"Not all sent parameters were read; read '1' parameter(s) but was sent '2'."},
		{"historical bad fromId", "/api/v3/historicalTrades?symbol=BTCUSDT&fromId=x", 400, -1100, ""},
		{"aggTrades bad startTime", "/api/v3/aggTrades?symbol=BTCUSDT&startTime=1.5", 400, -1100, ""},
		{"avgPrice no symbol", "/api/v3/avgPrice", 400, -1102, ""},
	})
}

func TestDepthWeight(t *testing.T) {
	e := newEnv(t, nil)
	prev := 0
	for _, c := range []struct {
		limit  string
		weight int
	}{{"", 5}, {"100", 5}, {"101", 25}, {"500", 25}, {"1000", 50}, {"5000", 250}, {"6000", 250}, {"x", 5}} {
		target := "/api/v3/depth?symbol=BTCUSDT"
		if c.limit != "" {
			target += "&limit=" + c.limit
		}
		a := e.get(target)
		used := 0
		if _, err := fmtSscan(a.header.Get("X-MBX-USED-WEIGHT-1M"), &used); err != nil {
			t.Fatal(err)
		}
		if used-prev != c.weight {
			t.Errorf("limit %q: weight %d, want %d", c.limit, used-prev, c.weight)
		}
		prev = used
	}
}

func TestKlines(t *testing.T) {
	e := newEnv(t, nil)
	// One-hour candles: 22:00 (trade 1), 23:00 without trades (the previous
	// close, zero volume), 00:00 (trades 2 and 3, the current one).
	h22 := `[1769983200000,"100.00","100.00","100.00","100.00","1.000000",1769986799999,"100.00000000",1,"0.000000","0.00000000","0"]`
	h23 := `[1769986800000,"100.00","100.00","100.00","100.00","0.000000",1769990399999,"0.00000000",0,"0.000000","0.00000000","0"]`
	h00 := `[1769990400000,"110.00","110.00","105.00","105.00","2.500000",1769993999999,"272.50000000",2,"0.000000","0.00000000","0"]`
	m2200 := `[1769983200000,"100.00","100.00","100.00","100.00","1.000000",1769983259999,"100.00000000",1,"0.000000","0.00000000","0"]`
	m2201 := `[1769983260000,"100.00","100.00","100.00","100.00","0.000000",1769983319999,"0.00000000",0,"0.000000","0.00000000","0"]`
	runOKCases(t, e, []okCase{
		{"newest, from the first trade", "/api/v3/klines?symbol=BTCUSDT&interval=1h", `[` + h22 + `,` + h23 + `,` + h00 + `]`},
		{"limit", "/api/v3/klines?symbol=BTCUSDT&interval=1h&limit=2", `[` + h23 + `,` + h00 + `]`},
		{"uiKlines", "/api/v3/uiKlines?symbol=BTCUSDT&interval=1h&limit=1", `[` + h00 + `]`},
		{"startTime on a bucket", "/api/v3/klines?symbol=BTCUSDT&interval=1h&startTime=1769986800000", `[` + h23 + `,` + h00 + `]`},
		{"startTime inside a bucket opens at the next", "/api/v3/klines?symbol=BTCUSDT&interval=1h&startTime=1769983200001",
			`[` + h23 + `,` + h00 + `]`},
		{"startTime before the first trade", "/api/v3/klines?symbol=BTCUSDT&interval=1m&startTime=0&limit=2", `[` + m2200 + `,` + m2201 + `]`},
		{"endTime", "/api/v3/klines?symbol=BTCUSDT&interval=1h&endTime=1769986800000", `[` + h22 + `,` + h23 + `]`},
		{"start and end", "/api/v3/klines?symbol=BTCUSDT&interval=1h&startTime=1769983200000&endTime=1769986799999", `[` + h22 + `]`},
		{"start after end", "/api/v3/klines?symbol=BTCUSDT&interval=1h&startTime=1769990400000&endTime=1769983200000", `[]`},
		{"start in the future", "/api/v3/klines?symbol=BTCUSDT&interval=1h&startTime=1779990400000", `[]`},
		{"never traded", "/api/v3/klines?symbol=ETHUSDT&interval=1m", `[]`},
		{"timeZone of whole hours on hours", "/api/v3/klines?symbol=BTCUSDT&interval=1h&limit=1&timeZone=%2B8", `[` + h00 + `]`},
		{"timeZone 0 on days", "/api/v3/klines?symbol=BTCUSDT&interval=1d&limit=1&timeZone=0", `[` +
			`[1769990400000,"110.00","110.00","105.00","105.00","2.500000",1770076799999,"272.50000000",2,"0.000000","0.00000000","0"]]`},
		// 2026-02-02 is a Monday: trade 1 is in the week of 26 January.
		{"weeks from Monday", "/api/v3/klines?symbol=BTCUSDT&interval=1w",
			`[[1769385600000,"100.00","100.00","100.00","100.00","1.000000",1769990399999,"100.00000000",1,"0.000000","0.00000000","0"],` +
				`[1769990400000,"110.00","110.00","105.00","105.00","2.500000",1770595199999,"272.50000000",2,"0.000000","0.00000000","0"]]`},
		{"months", "/api/v3/klines?symbol=BTCUSDT&interval=1M",
			`[[1769904000000,"100.00","110.00","100.00","105.00","3.500000",1772323199999,"372.50000000",3,"0.000000","0.00000000","0"]]`},
	})
	runErrCases(t, e, []errCase{
		{"no interval", "/api/v3/klines?symbol=BTCUSDT", 400, -1102,
			"Mandatory parameter 'interval' was not sent, was empty/null, or malformed."},
		{"3m not kept", "/api/v3/klines?symbol=BTCUSDT&interval=3m", 400, -1120, "Invalid interval."},
		{"1s not kept", "/api/v3/uiKlines?symbol=BTCUSDT&interval=1s", 400, -1120, "Invalid interval."},
		{"case sensitive", "/api/v3/klines?symbol=BTCUSDT&interval=1H", 400, -1120, "Invalid interval."},
		{"market data names", "/api/v3/klines?symbol=BTCUSDT&interval=1min", 400, -1120, "Invalid interval."},
		{"no symbol", "/api/v3/klines?interval=1m", 400, -1102, ""},
		{"limit 0", "/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=0", 400, -1130, ""},
		{"bad startTime", "/api/v3/klines?symbol=BTCUSDT&interval=1m&startTime=-5", 400, -1100, ""},
		{"bad timeZone", "/api/v3/klines?symbol=BTCUSDT&interval=1m&timeZone=UTC", 400, -1130,
			"Data sent for parameter 'timeZone' is not valid."},
		{"timeZone out of range", "/api/v3/klines?symbol=BTCUSDT&interval=1m&timeZone=-13", 400, -1130, ""},
		{"timeZone on days", "/api/v3/klines?symbol=BTCUSDT&interval=1d&timeZone=8", 400, -1020,
			"This operation is not supported."},
		{"half-hour timeZone on hours", "/api/v3/klines?symbol=BTCUSDT&interval=1h&timeZone=05:30", 400, -1020, ""},
	})
}

// A long quiet spell: candles repeat the last close up to now, and limit
// counts them.
func TestKlinesFillQuietBuckets(t *testing.T) {
	e := newEnv(t, nil)
	e.clock.Add(3 * time.Hour) // 03:00:30
	a := e.get("/api/v3/klines?symbol=BTCUSDT&interval=1h&limit=2")
	want := `[[1769997600000,"105.00","105.00","105.00","105.00","0.000000",1770001199999,"0.00000000",0,"0.000000","0.00000000","0"],` +
		`[1770001200000,"105.00","105.00","105.00","105.00","0.000000",1770004799999,"0.00000000",0,"0.000000","0.00000000","0"]]`
	if a.body != want {
		t.Fatalf("got %s\nwant %s", a.body, want)
	}
}
