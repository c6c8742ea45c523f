package futures_test

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/coins"
	"tenger/internal/contracts"
	"tenger/internal/futures"
	"tenger/internal/marketdata"
	"tenger/internal/push"
	"tenger/internal/spot"
	"tenger/internal/store/embedded"
)

// published is a push port that records what is published.
type published struct {
	push.Pusher // only Publish is used
	mu          sync.Mutex
	msgs        []pushed
}

type pushed struct {
	Channel string       `json:"channel"`
	TS      int64        `json:"ts"`
	Tick    futures.Mark `json:"tick"`
	raw     []byte
}

func (p *published) Publish(_ context.Context, channel string, msg []byte) (int, error) {
	var m pushed
	if err := json.Unmarshal(msg, &m); err != nil {
		return 0, err
	}
	m.raw = msg
	if m.Channel != channel {
		return 0, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, m)
	return 1, nil
}

// take answers what was published since the last take.
func (p *published) take() []pushed {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.msgs
	p.msgs = nil
	return out
}

// markEnv is the runtime with a push port, its price loop stepped by the
// test on a settable clock (no loop runs).
type markEnv struct {
	*env
	pub *published
}

func newMarkEnv(t *testing.T) *markEnv {
	t.Helper()
	pub := &published{}
	e := newEnvWith(t, func(o *futures.Options) { o.Pusher = pub })
	e.clk.now = time.Date(2026, 12, 7, 6, 0, 0, 0, time.UTC)
	return &markEnv{env: e, pub: pub}
}

// step moves the clock by dt and runs the price loop once.
func (e *markEnv) step(dt time.Duration) {
	e.t.Helper()
	e.clk.Add(dt)
	if err := e.fut.Step(ctx); err != nil {
		e.t.Fatal(err)
	}
}

func (e *markEnv) index(price string) {
	e.t.Helper()
	if err := e.fut.SetDevIndex("BTCUSDT", d(price)); err != nil {
		e.t.Fatal(err)
	}
}

// wantMarks checks the marks published since the last check: their mark
// prices, in order.
func (e *markEnv) wantMarks(why string, marks ...string) []pushed {
	e.t.Helper()
	got := e.pub.take()
	var prices []string
	for _, m := range got {
		prices = append(prices, m.Tick.MarkPrice)
	}
	if len(prices) != len(marks) {
		e.t.Fatalf("%s: published marks %v, want %v", why, prices, marks)
	}
	for i := range marks {
		if prices[i] != marks[i] {
			e.t.Fatalf("%s: published marks %v, want %v", why, prices, marks)
		}
	}
	return got
}

// The mark channel: the price loop publishes a contract's mark, index and
// funding on market_<marketSymbol>_mark as public_market_info shows them,
// only when something but the time changed, and at most once a second
// (a change held back goes out with the next step a second on).
func TestMarkChannel(t *testing.T) {
	e := newMarkEnv(t)
	e.step(time.Second)
	e.wantMarks("no index yet: no mark")

	e.index("50000")
	e.step(time.Second)
	got := e.wantMarks("the first mark", "50000.0")
	m := got[0]
	if m.Channel != "market_btcusdtperp_mark" || m.Channel != futures.MarkChannel("btcusdtperp") || m.TS != e.clk.Now().UnixMilli() {
		t.Fatalf("message %s", m.raw)
	}
	info, err := e.svc.MarketInfo(ctx, "BTCUSDT", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := futures.Mark{Symbol: "BTCUSDT", MarkPrice: info.MarkPrice, IndexPrice: info.IndexPrice, FundingRate: info.FundingRate,
		LastFundingRate: info.LastFundingRate, NextFundingTime: info.NextFundingTime, Time: info.Time}
	if m.Tick != want || want.MarkPrice != "50000.0" || want.IndexPrice != "50000.0" || want.Time != e.clk.Now().UnixMilli() ||
		want.NextFundingTime != time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC).UnixMilli() {
		t.Fatalf("pushed %+v, public_market_info %+v", m.Tick, info)
	}
	// Exactly these keys, with decimal strings and Unix ms.
	var msg struct {
		Tick map[string]any `json:"tick"`
	}
	if err := json.Unmarshal(m.raw, &msg); err != nil {
		t.Fatal(err)
	}
	if len(msg.Tick) != 7 {
		t.Fatalf("tick %v", msg.Tick)
	}
	for _, k := range []string{"symbol", "markPrice", "indexPrice", "fundingRate", "lastFundingRate"} {
		if _, ok := msg.Tick[k].(string); !ok {
			t.Fatalf("%s of %v is not a string", k, msg.Tick)
		}
	}

	e.step(time.Second)
	e.step(5 * time.Second)
	e.wantMarks("nothing changed but the time")

	e.index("50100")
	e.step(time.Second)
	e.wantMarks("changed", "50100.0")
	e.index("50200")
	e.step(300 * time.Millisecond)
	e.wantMarks("0.3 s after the last push")
	e.step(200 * time.Millisecond)
	e.wantMarks("0.5 s after the last push")
	// The held-back change goes out with the next step, a second after
	// the last push.
	e.step(500 * time.Millisecond)
	got = e.wantMarks("a second after the last push", "50200.0")
	if got[0].Tick.IndexPrice != "50200.0" || got[0].Tick.Time != e.clk.Now().UnixMilli() {
		t.Fatalf("pushed %+v", got[0].Tick)
	}
	// Back and forth within the second: nothing left to tell.
	e.index("50400")
	e.step(200 * time.Millisecond)
	e.index("50200")
	e.step(time.Second)
	e.wantMarks("back where it was pushed")
}

// KnownMarkChannel accepts the contracts' mark channels as they are
// published, nothing else.
func TestKnownMarkChannel(t *testing.T) {
	known := futures.KnownMarkChannel(contracts.Defaults())
	for ch, want := range map[string]bool{
		"market_btcusdtperp_mark":   true,
		"market_ethusdtperp_mark":   true,
		"market_btcusdt_mark":       false, // a pair's, not a contract's
		"market_BTCUSDTperp_mark":   false,
		"market_btc_usdtperp_mark":  false,
		"market_dogeusdtperp_mark":  false,
		"market_btcusdtperp_marks":  false,
		"market_btcusdtperp_ticker": false, // the market data's own check
		"market_perp_mark":          false,
		"btcusdtperp_mark":          false,
	} {
		if known(ch) != want {
			t.Errorf("%s known = %v", ch, !want)
		}
	}
}

// The 24 h figures of public_market_info and price_list come from the
// contracts' market data ticker (the one-minute candles of the last 24 h):
// trades at known times give the open (the window's first trade), high,
// low, change of the last price against the open in percent, volume in
// contracts and turnover in the margin coin.
func TestMarketInfo24h(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 30, 0, time.UTC)
	type tr struct {
		ago   time.Duration
		price string
		qty   string // BTC: 0.001 a contract
	}
	for _, tc := range []struct {
		name                                   string
		trades                                 []tr
		open, high, low, change, vol, turnover string
	}{
		{name: "no trades", change: "0.00", vol: "0", turnover: "0"},
		{name: "one trade", trades: []tr{{time.Hour, "50000", "0.002"}},
			open: "50000.0", high: "50000.0", low: "50000.0", change: "0.00", vol: "2", turnover: "100"},
		{name: "rising", trades: []tr{
			{25 * time.Hour, "10000", "1"}, // out of the window
			{23 * time.Hour, "40000", "0.1"},
			{2 * time.Hour, "41000", "0.05"},
			{time.Hour, "39000", "0.01"},
			{time.Minute, "40500", "0.003"},
		}, open: "40000.0", high: "41000.0", low: "39000.0", change: "1.25", vol: "163", turnover: "6561.5"},
		{name: "falling", trades: []tr{
			{20 * time.Hour, "80000", "0.001"},
			{10 * time.Hour, "81000.5", "0.001"},
			{0, "79000", "0.001"},
		}, open: "80000.0", high: "81000.5", low: "79000.0", change: "-1.25", vol: "3", turnover: "240.0005"},
		{name: "change rounds to 2 places", trades: []tr{
			{3 * time.Hour, "30000", "0.001"},
			{time.Hour, "30001.3", "0.001"},
		}, open: "30000.0", high: "30001.3", low: "30000.0", change: "0.00", vol: "2", turnover: "60.0013"},
		{name: "a third up", trades: []tr{
			{3 * time.Hour, "30000", "0.001"},
			{time.Hour, "40000", "0.001"},
		}, open: "30000.0", high: "40000.0", low: "30000.0", change: "33.33", vol: "2", turnover: "70"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = st.Close() })
			cat := contracts.Defaults()
			mcat, err := futures.MarketCatalogue(cat)
			if err != nil {
				t.Fatal(err)
			}
			clk := func() time.Time { return now }
			md, err := marketdata.New(ctx, marketdata.Options{Store: st, Markets: mcat, Log: zerolog.Nop(), Now: clk})
			if err != nil {
				t.Fatal(err)
			}
			var trades []marketdata.Trade
			for i, x := range tc.trades {
				trades = append(trades, marketdata.Trade{ID: strconv.Itoa(i + 1), Price: d(x.price), Qty: d(x.qty), TakerSide: "BUY",
					At: now.Add(-x.ago)})
			}
			md.OnTrades("btcusdtperp", trades)
			if err := md.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			cc, _ := coins.Defaults()
			svc := futures.NewService(futures.ServiceOptions{Store: st, Contracts: cat, Now: clk,
				Decimals: func(coin string) int32 { d, _ := spot.CoinDecimals(cc, coin); return d }})
			m, err := svc.MarketInfo(ctx, "BTCUSDT", md)
			if err != nil {
				t.Fatal(err)
			}
			list, err := svc.PriceList(ctx, md)
			if err != nil || len(list) != 2 || list[0] != m {
				t.Fatalf("price_list %+v %v, public_market_info %+v", list, err, m)
			}
			if m.Open24h != tc.open || m.High24h != tc.high || m.Low24h != tc.low || m.Change24h != tc.change ||
				m.Volume24h != tc.vol || m.Turnover24h != tc.turnover {
				t.Fatalf("24 h: open %q high %q low %q change %q volume %q turnover %q", m.Open24h, m.High24h, m.Low24h,
					m.Change24h, m.Volume24h, m.Turnover24h)
			}
			// Another contract's trades are not this one's.
			if eth := list[1]; eth.Symbol != "ETHUSDT" || eth.Volume24h != "0" || eth.Open24h != "" || eth.Change24h != "0.00" {
				t.Fatalf("ETHUSDT %+v", eth)
			}
			// Without the market data the figures are zero.
			if m, _ := svc.MarketInfo(ctx, "BTCUSDT", nil); m.Volume24h != "0" || m.Open24h != "" {
				t.Fatalf("without tickers %+v", m)
			}
		})
	}
}
