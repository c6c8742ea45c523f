package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/coins"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/store/embedded"
)

type mdAnswer struct {
	Code string          `json:"code"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
}

func newMarketDataRouter(t *testing.T) (*Router, *marketdata.Service) {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	now := time.Date(2026, 2, 2, 0, 0, 30, 0, time.UTC)
	md, err := marketdata.New(context.Background(), marketdata.Options{Store: st, Markets: markets.Defaults(),
		Log: zerolog.Nop(), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	dec := decimal.RequireFromString
	md.OnTrades("btcusdt", []marketdata.Trade{
		{ID: "1", Price: dec("100"), Qty: dec("1"), TakerSide: "BUY", At: now.Add(-2 * time.Hour)},
		{ID: "2", Price: dec("110"), Qty: dec("2"), TakerSide: "SELL", At: now.Add(-20 * time.Second)},
	})
	md.OnDepth("btcusdt", []marketdata.Level{{Price: dec("100.57"), Qty: dec("1")}, {Price: dec("100.51"), Qty: dec("2")}},
		[]marketdata.Level{{Price: dec("100.61"), Qty: dec("1")}}, now)
	if err := md.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	return NewMarketRouterWith(cc, markets.Defaults(), md, nil, Options{Service: "market", Log: zerolog.Nop()}), md
}

func mdCall(t *testing.T, h http.Handler, method, target, body string) mdAnswer {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var a mdAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatalf("%s %s: %q: %v", method, target, rec.Body.String(), err)
	}
	return a
}

func TestMarketDataRoutes(t *testing.T) {
	h, _ := newMarketDataRouter(t)
	cases := []struct {
		name, method, target, body, code, data string
	}{
		{"depth", "POST", PathMarketDepth, `{"symbol":"btcusdt"}`, "0",
			`{"buys":[["100.57","1"],["100.51","2"]],"asks":[["100.61","1"]],"ts":1769990430000}`},
		// btcusdt merges on its depthSteps, grids 10 and 100.
		{"depth step1 as type, BTC/USDT", "POST", PathMarketDepth, `{"symbol":"BTC/USDT","type":"step1"}`, "0",
			`{"buys":[["100","3"]],"asks":[["110","1"]],"ts":1769990430000}`},
		{"depth GET", "GET", PathMarketDepth + "?symbol=btcusdt&step=2&limit=1", "", "0",
			`{"buys":[["100","3"]],"asks":[["200","1"]],"ts":1769990430000}`},
		{"depth bad step", "POST", PathMarketDepth, `{"symbol":"btcusdt","step":3}`, "14502", ""},
		{"depth bad type", "POST", PathMarketDepth, `{"symbol":"btcusdt","type":"step9"}`, "14502", ""},
		{"depth unknown", "POST", PathMarketDepth, `{"symbol":"dogeusdt"}`, "14500", ""},
		{"depth missing symbol", "POST", PathMarketDepth, `{}`, "410", ""},
		{"depth step not a number", "POST", PathMarketDepth, `{"symbol":"btcusdt","step":"x"}`, "410", ""},
		{"trades", "POST", PathMarketTrades, `{"symbol":"btcusdt","limit":1}`, "0",
			`[{"id":"2","side":"SELL","price":"110.00","vol":"2","amount":"220","ts":1769990410000,"ds":"2026-02-02 00:00:10"}]`},
		{"trades bad limit", "POST", PathMarketTrades, `{"symbol":"btcusdt","limit":0}`, "14503", ""},
		{"kline", "POST", PathMarketKline, `{"symbol":"btcusdt","period":"60min"}`, "0",
			`[{"id":1769983200,"open":"100.00","high":"100.00","low":"100.00","close":"100.00","vol":"1","amount":"100","count":1},` +
				`{"id":1769990400,"open":"110.00","high":"110.00","low":"110.00","close":"110.00","vol":"2","amount":"220","count":1}]`},
		{"kline GET ms range", "GET", PathMarketKline + "?symbol=btcusdt&period=1day&from=1769990400000&to=1769990400000", "", "0",
			`[{"id":1769990400,"open":"110.00","high":"110.00","low":"110.00","close":"110.00","vol":"2","amount":"220","count":1}]`},
		{"kline bad period", "POST", PathMarketKline, `{"symbol":"btcusdt","period":"2min"}`, "14501", ""},
		{"kline missing period", "POST", PathMarketKline, `{"symbol":"btcusdt"}`, "410", ""},
		{"kline from after to", "POST", PathMarketKline, `{"symbol":"btcusdt","period":"1min","from":20,"to":10}`, "14503", ""},
		{"kline negative", "POST", PathMarketKline, `{"symbol":"btcusdt","period":"1min","from":-1}`, "14503", ""},
		{"method", "PUT", PathMarketTickers, ``, "10006", ""},
	}
	for _, c := range cases {
		a := mdCall(t, h, c.method, c.target, c.body)
		if a.Code != c.code {
			t.Errorf("%s: code %s (%s), want %s", c.name, a.Code, a.Msg, c.code)
			continue
		}
		if c.data != "" && string(a.Data) != c.data {
			t.Errorf("%s: data\n%s\nwant\n%s", c.name, a.Data, c.data)
		}
	}
}

func TestMarketTickersAndPublicInfo(t *testing.T) {
	h, _ := newMarketDataRouter(t)
	a := mdCall(t, h, "POST", PathMarketTickers, `{}`)
	var tr MarketTickersResp
	if err := json.Unmarshal(a.Data, &tr); err != nil || a.Code != "0" {
		t.Fatalf("%s %v", a.Data, err)
	}
	bt := tr.Tickers["btcusdt"]
	if bt.Close != "110.00" || bt.Open != "100.00" || bt.Rose != "0.1" || bt.Vol != "3" || bt.Count != 2 {
		t.Fatalf("btcusdt ticker %+v", bt)
	}
	// First traded two hours ago: 24 points from its first minute (22:00)
	// to now in steps of 5 minutes, the last at the price now.
	if sp := tr.Sparklines["btcusdt"]; len(sp) != marketdata.SparkPoints || sp[0] != "100.00" || sp[22] != "100.00" || sp[23] != "110.00" {
		t.Fatalf("sparkline %v", sp)
	}
	// A pair that never traded has an empty line.
	if sp, ok := tr.Sparklines["usdtmnt"]; !ok || len(sp) != 0 {
		t.Fatalf("usdtmnt sparkline %v %v", sp, ok)
	}
	if _, ok := tr.Tickers["usdtmnt"]; !ok {
		t.Fatal("usdtmnt missing")
	}
	a = mdCall(t, h, "GET", PathMarketTicker+"?symbol=btc_usdt", "")
	var one MarketTickerResp
	if err := json.Unmarshal(a.Data, &one); err != nil || one.Close != "110.00" || len(one.Sparkline) != marketdata.SparkPoints {
		t.Fatalf("ticker %s", a.Data)
	}
	a = mdCall(t, h, "POST", "/fe-ex-api/common/public_info_market", `{}`)
	var doc PublicInfoMarket
	if err := json.Unmarshal(a.Data, &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Market["USDT"]["BTC/USDT"]
	if p.Close != "110.00" || p.Rose != "0.1" || p.Vol != "3" || doc.Tickers["btcusdt"].Close != "110.00" {
		t.Fatalf("public info pair %+v", p)
	}
}
