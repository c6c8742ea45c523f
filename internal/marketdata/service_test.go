package marketdata

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"tenger/internal/store"
)

// sequence is a known trade sequence crossing minute, 5-minute, day, month
// and week boundaries: 2026-01-31 is a Saturday, 2026-02-02 a Monday.
func sequence() []Trade {
	return []Trade{
		tr("1", "2026-01-31T23:58:10Z", "100", "1", "BUY"),
		tr("2", "2026-01-31T23:59:59Z", "105", "2", "SELL"),
		tr("3", "2026-02-01T00:00:00Z", "95", "1", "SELL"),
		tr("4", "2026-02-01T00:04:59Z", "98", "0.5", "BUY"),
		tr("5", "2026-02-01T00:05:00Z", "99", "1.5", "BUY"),
		tr("6", "2026-02-02T00:00:01Z", "101", "1", "BUY"),
	}
}

// row renders a candle as "start open high low close vol amount count".
func row(k KlineView) string {
	return fmt.Sprintf("%s %s %s %s %s %s %s %d", time.Unix(k.ID, 0).UTC().Format("01-02T15:04"),
		k.Open, k.High, k.Low, k.Close, k.Vol, k.Amount, k.Count)
}

func (e *env) rows(p Period) string {
	e.t.Helper()
	ks, err := e.md.Klines(context.Background(), "btcusdt", p, 0, 0, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, k := range ks {
		out = append(out, row(k))
	}
	return strings.Join(out, "\n")
}

// Prices show the pair's two decimals, as tickers do.
var wantKlines = map[Period]string{
	Min1: `01-31T23:58 100.00 100.00 100.00 100.00 1 100 1
01-31T23:59 105.00 105.00 105.00 105.00 2 210 1
02-01T00:00 95.00 95.00 95.00 95.00 1 95 1
02-01T00:04 98.00 98.00 98.00 98.00 0.5 49 1
02-01T00:05 99.00 99.00 99.00 99.00 1.5 148.5 1
02-02T00:00 101.00 101.00 101.00 101.00 1 101 1`,
	Min5: `01-31T23:55 100.00 105.00 100.00 105.00 3 310 2
02-01T00:00 95.00 98.00 95.00 98.00 1.5 144 2
02-01T00:05 99.00 99.00 99.00 99.00 1.5 148.5 1
02-02T00:00 101.00 101.00 101.00 101.00 1 101 1`,
	Min15: `01-31T23:45 100.00 105.00 100.00 105.00 3 310 2
02-01T00:00 95.00 99.00 95.00 99.00 3 292.5 3
02-02T00:00 101.00 101.00 101.00 101.00 1 101 1`,
	Min30: `01-31T23:30 100.00 105.00 100.00 105.00 3 310 2
02-01T00:00 95.00 99.00 95.00 99.00 3 292.5 3
02-02T00:00 101.00 101.00 101.00 101.00 1 101 1`,
	Min60: `01-31T23:00 100.00 105.00 100.00 105.00 3 310 2
02-01T00:00 95.00 99.00 95.00 99.00 3 292.5 3
02-02T00:00 101.00 101.00 101.00 101.00 1 101 1`,
	Hour4: `01-31T20:00 100.00 105.00 100.00 105.00 3 310 2
02-01T00:00 95.00 99.00 95.00 99.00 3 292.5 3
02-02T00:00 101.00 101.00 101.00 101.00 1 101 1`,
	Day1: `01-31T00:00 100.00 105.00 100.00 105.00 3 310 2
02-01T00:00 95.00 99.00 95.00 99.00 3 292.5 3
02-02T00:00 101.00 101.00 101.00 101.00 1 101 1`,
	Week1: `01-26T00:00 100.00 105.00 95.00 99.00 6 602.5 5
02-02T00:00 101.00 101.00 101.00 101.00 1 101 1`,
	Month1: `01-01T00:00 100.00 105.00 100.00 105.00 3 310 2
02-01T00:00 95.00 101.00 95.00 101.00 4 393.5 4`,
}

func (e *env) checkKlines() {
	e.t.Helper()
	for _, p := range Periods {
		if got := e.rows(p); got != wantKlines[p] {
			e.t.Errorf("%s klines:\n%s\nwant:\n%s", p, got, wantKlines[p])
		}
	}
}

func TestKlinesFromKnownSequence(t *testing.T) {
	e := newEnv(t)
	e.feed("btcusdt", sequence()...)
	e.checkKlines()
}

func TestBucketStarts(t *testing.T) {
	cases := []struct {
		p          Period
		when, want string
	}{
		{Min1, "2026-03-04T10:04:59Z", "2026-03-04T10:04:00Z"},
		{Min5, "2026-03-04T10:04:59Z", "2026-03-04T10:00:00Z"},
		{Min5, "2026-03-04T10:05:00Z", "2026-03-04T10:05:00Z"},
		{Min15, "2026-03-04T10:44:59Z", "2026-03-04T10:30:00Z"},
		{Min30, "2026-03-04T10:59:59Z", "2026-03-04T10:30:00Z"},
		{Min60, "2026-03-04T10:59:59Z", "2026-03-04T10:00:00Z"},
		{Hour4, "2026-03-04T07:59:59Z", "2026-03-04T04:00:00Z"},
		{Day1, "2026-03-04T23:59:59Z", "2026-03-04T00:00:00Z"},
		{Week1, "2026-03-01T12:00:00Z", "2026-02-23T00:00:00Z"}, // Sunday belongs to the week of Monday 23rd
		{Week1, "2026-03-02T00:00:00Z", "2026-03-02T00:00:00Z"}, // Monday starts a week
		{Month1, "2024-02-29T23:59:59Z", "2024-02-01T00:00:00Z"},
		{Month1, "2026-12-31T23:59:59Z", "2026-12-01T00:00:00Z"},
	}
	for _, c := range cases {
		if got := time.Unix(c.p.BucketStart(at(c.when)), 0).UTC(); !got.Equal(at(c.want)) {
			t.Errorf("%s %s: bucket %s, want %s", c.p, c.when, got, c.want)
		}
	}
	// Another zone is converted to UTC first.
	ulan := time.FixedZone("ULAT", 8*3600)
	if got := Day1.BucketStart(time.Date(2026, 3, 5, 7, 0, 0, 0, ulan)); got != at("2026-03-04T00:00:00Z").Unix() {
		t.Errorf("day bucket of a +08:00 time: %d", got)
	}
}

func TestCompareIDs(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{{"9", "10", -1}, {"10", "9", 1}, {"007", "7", 0}, {"a", "b", -1}, {"t-2", "t-1", 1}}
	for _, c := range cases {
		if got := compareIDs(c.a, c.b); got != c.want {
			t.Errorf("compareIDs(%q,%q)=%d want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestReplayedTradesNotCountedTwice(t *testing.T) {
	e := newEnv(t)
	seq := sequence()
	e.feed("btcusdt", seq...)
	e.feed("btcusdt", seq...)     // the whole batch again
	e.feed("btcusdt", seq[3:]...) // a tail again
	e.checkKlines()
	tv, err := e.md.Trades("btcusdt", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(tv) != 6 || tv[0].ID != "6" || tv[5].ID != "1" {
		t.Fatalf("recent trades %+v", tv)
	}
	// A replayed tail followed by a new trade: only the new one counts.
	e.feed("btcusdt", seq[4], seq[5], tr("7", "2026-02-02T00:00:20Z", "103", "2", "BUY"))
	ks, _ := e.md.Klines(context.Background(), "btcusdt", Day1, 0, 0, 0)
	if got := row(ks[len(ks)-1]); got != "02-02T00:00 101.00 103.00 101.00 103.00 3 307 2" {
		t.Fatalf("day candle after replay+new: %s", got)
	}
}

func TestTickerRollingWindowAndSparkline(t *testing.T) {
	e := newEnv(t) // now = 2026-02-02T00:00:30Z
	e.feed("btcusdt", sequence()...)
	tk, err := e.md.Ticker("btcusdt")
	if err != nil {
		t.Fatal(err)
	}
	// The window starts at 2026-02-01T00:01: trades 4, 5 and 6.
	want := Ticker{Symbol: "btcusdt", Open: "98.00", High: "101.00", Low: "98.00", Close: "101.00", Vol: "3",
		Amount: "298.5", Rose: "0.030612", Count: 3, TS: e.clock.Now().UnixMilli()}
	if tk != want {
		t.Fatalf("ticker\n%+v\nwant\n%+v", tk, want)
	}
	sp := e.md.Sparkline("btcusdt")
	if len(sp) != SparkPoints || sp[0] != "99.00" || sp[22] != "99.00" || sp[23] != "101.00" {
		t.Fatalf("sparkline %v", sp)
	}
	// Two days later nothing is in the window: volume 0, close is still the last price.
	e.clock.Add(48 * time.Hour)
	tk, _ = e.md.Ticker("btcusdt")
	if tk.Vol != "0" || tk.Count != 0 || tk.Close != "101.00" || tk.Open != "101.00" || tk.Rose != "0" {
		t.Fatalf("stale ticker %+v", tk)
	}
	all := e.md.Tickers()
	if _, ok := all["ethusdt"]; !ok || all["btcusdt"].Close != "101.00" {
		t.Fatalf("tickers %v", all)
	}
	if p, ok := e.md.LastPrice("btcusdt"); !ok || !p.Equal(d("101")) {
		t.Fatalf("last price %v %v", p, ok)
	}
	if _, ok := e.md.LastPrice("ethusdt"); ok {
		t.Fatal("ethusdt has no last price")
	}
}

// TestSparklineOfAYoungPair: a pair first traded within the last 24 hours
// has no hourly closes before its first trade; its line then samples its
// minutes from the first trade to now, so it has SparkPoints points as an
// old pair's does (and a reader answers the same). Once the first trade is
// 23 hours old the hourly closes cover the line again.
func TestSparklineOfAYoungPair(t *testing.T) {
	e := newEnv(t) // now = 2026-02-02T00:00:30Z
	if sp := e.md.Sparkline("btcusdt"); len(sp) != 0 {
		t.Fatalf("before any trade: %v", sp)
	}
	// One trade this minute: the line is flat at its price.
	e.feed("btcusdt", tr("1", "2026-02-02T00:00:05Z", "100", "1", "BUY"))
	if sp := e.md.Sparkline("btcusdt"); len(sp) != SparkPoints || sp[0] != "100.00" || sp[SparkPoints-1] != "100.00" {
		t.Fatalf("one trade: %v", sp)
	}

	e = newEnv(t)
	e.feed("btcusdt",
		tr("1", "2026-02-01T22:00:10Z", "100", "1", "BUY"),
		tr("2", "2026-02-01T22:30:00Z", "104", "1", "BUY"),
		tr("3", "2026-02-01T23:15:59Z", "102", "1", "SELL"),
		tr("4", "2026-02-02T00:00:01Z", "101", "1", "SELL"),
	)
	// 22:00 to 00:00 in 24 steps of 5 minutes: the close of the newest
	// minute at 22:05, 22:10 ... 00:00.
	var want []string
	for _, run := range []struct {
		price string
		n     int
	}{{"100.00", 5}, {"104.00", 9}, {"102.00", 9}, {"101.00", 1}} {
		for range run.n {
			want = append(want, run.price)
		}
	}
	if sp := e.md.Sparkline("btcusdt"); !reflect.DeepEqual(sp, want) {
		t.Fatalf("young pair\n%v\nwant\n%v", sp, want)
	}
	// The ticker's open is the first trade's price, where the line starts.
	if tk, _ := e.md.Ticker("btcusdt"); tk.Open != "100.00" {
		t.Fatalf("open %s", tk.Open)
	}
	r := e.reader(e.st)
	if sp := r.Sparkline("btcusdt"); !reflect.DeepEqual(sp, want) {
		t.Fatalf("reader\n%v\nwant\n%v", sp, want)
	}

	// 21 hours later the first trade's hour is the line's first hour: 24
	// hourly closes.
	e.clock.Add(21 * time.Hour)
	sp := e.md.Sparkline("btcusdt")
	if len(sp) != SparkPoints || sp[0] != "104.00" || sp[1] != "102.00" || sp[2] != "101.00" || sp[SparkPoints-1] != "101.00" {
		t.Fatalf("a day old: %v", sp)
	}
	if got := r.Sparkline("btcusdt"); !reflect.DeepEqual(got, sp) {
		t.Fatalf("reader a day old %v, want %v", got, sp)
	}
}

func TestRestartRebuildsFromStore(t *testing.T) {
	e := newEnv(t)
	e.feed("btcusdt", sequence()...)
	before, _ := e.md.Ticker("btcusdt")
	e.restart()
	e.checkKlines()
	after, _ := e.md.Ticker("btcusdt")
	if before != after {
		t.Fatalf("ticker after restart %+v, before %+v", after, before)
	}
	tv, _ := e.md.Trades("btcusdt", 3)
	if len(tv) != 3 || tv[0].ID != "6" || tv[0].Price != "101.00" || tv[0].Side != "BUY" || tv[0].Ds != "2026-02-02 00:00:01" {
		t.Fatalf("trades after restart %+v", tv)
	}
	// The engine replays its journal after a restart: nothing is counted twice.
	e.feed("btcusdt", sequence()...)
	e.checkKlines()
}

func TestRestartAfterPartialWrite(t *testing.T) {
	// The 1min candles and the recent trades, which hold the high-water
	// mark, are written after the other periods. A crash that stored the
	// day candle of trade 6 but not its 1min candle nor its recent entry:
	// after the restart the replay fills exactly the missing candle, and
	// the day candle counts trade 6 once.
	e := newEnv(t)
	e.feed("btcusdt", sequence()...)
	ctx := context.Background()
	key := store.Key{PK: klinePK("btcusdt", Min1), SK: klineSK(at("2026-02-02T00:00:00Z").Unix())}
	if err := e.st.Delete(ctx, key, nil); err != nil {
		t.Fatal(err)
	}
	rk := store.Key{PK: recentPK, SK: "btcusdt"}
	it, err := e.st.Get(ctx, rk)
	if err != nil {
		t.Fatal(err)
	}
	list, _ := it["trades"].([]any)
	it["trades"] = list[:len(list)-1]
	if err := e.st.Put(ctx, it, nil); err != nil {
		t.Fatal(err)
	}
	e.restart()
	if got := e.rows(Min1); strings.Contains(got, "02-02") {
		t.Fatalf("1min candle should be missing: %s", got)
	}
	e.feed("btcusdt", sequence()...)
	e.checkKlines()
}

// Trades delivered again with other times (an engine replaying its
// journal after a crash stamps them anew) are not counted again.
func TestReplayedTradesWithNewTimesAreSkipped(t *testing.T) {
	e := newEnv(t)
	e.feed("btcusdt", sequence()...)
	e.restart()
	again := sequence()
	for i := range again {
		again[i].At = again[i].At.Add(36 * time.Hour)
	}
	e.feed("btcusdt", again...)
	e.checkKlines()
}

func TestKlinesRangeAndLimit(t *testing.T) {
	e := newEnv(t)
	e.feed("btcusdt", sequence()...)
	ctx := context.Background()
	ks, err := e.md.Klines(ctx, "btcusdt", Min1, at("2026-02-01T00:00:00Z").Unix(), at("2026-02-01T00:05:00Z").Unix(), 0)
	if err != nil || len(ks) != 3 || ks[0].Open != "95.00" || ks[2].Open != "99.00" {
		t.Fatalf("range: %v %+v", err, ks)
	}
	ks, _ = e.md.Klines(ctx, "btcusdt", Min1, 0, 0, 2)
	if len(ks) != 2 || ks[1].Close != "101.00" || ks[0].Close != "99.00" {
		t.Fatalf("newest 2: %+v", ks)
	}
	ks, _ = e.md.Klines(ctx, "btcusdt", Min1, at("2026-01-31T00:00:00Z").Unix(), 0, 2)
	if len(ks) != 2 || ks[0].Close != "100.00" {
		t.Fatalf("oldest 2 from: %+v", ks)
	}
	if _, err := e.md.Klines(ctx, "btcusdt", Min1, 10, 5, 0); err == nil {
		t.Fatal("from after to accepted")
	}
	if _, err := e.md.Klines(ctx, "nosuch", Min1, 0, 0, 0); err == nil {
		t.Fatal("unknown symbol accepted")
	}
}

func TestKlinesBeyondMemoryReadTheStore(t *testing.T) {
	e := newEnv(t)
	// More one-minute candles than memory keeps.
	base := at("2026-01-01T00:00:00Z")
	var ts []Trade
	for i := 0; i < MemoryCandles+20; i++ {
		ts = append(ts, Trade{ID: fmt.Sprint(i + 1), Price: d(fmt.Sprint(100 + i%7)), Qty: d("1"), TakerSide: "BUY",
			At: base.Add(time.Duration(i) * time.Minute)})
	}
	e.feed("btcusdt", ts...)
	ks, err := e.md.Klines(context.Background(), "btcusdt", Min1, base.Unix(), 0, 5)
	if err != nil || len(ks) != 5 || ks[0].ID != base.Unix() || ks[4].ID != base.Unix()+240 {
		t.Fatalf("old range from the store: %v %+v", err, ks)
	}
	ks, _ = e.md.Klines(context.Background(), "btcusdt", Min1, 0, 0, MaxKlineLimit)
	if len(ks) != MaxKlineLimit || ks[len(ks)-1].ID != base.Unix()+int64(MemoryCandles+19)*60 {
		t.Fatalf("newest %d: last %+v", len(ks), ks[len(ks)-1])
	}
}

func TestUnknownPairTradesIgnored(t *testing.T) {
	e := newEnv(t)
	e.md.OnTrades("nosuchpair", []Trade{tr("1", "2026-02-01T00:00:00Z", "1", "1", "BUY")})
	if err := e.md.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.md.Trades("nosuchpair", 0); err == nil {
		t.Fatal("unknown pair has trades")
	}
}

// flakyStore fails transactions while down is set.
type flakyStore struct {
	store.Store
	down bool
}

func (f *flakyStore) Transact(ctx context.Context, ops []store.Op) error {
	if f.down {
		return fmt.Errorf("store down")
	}
	return f.Store.Transact(ctx, ops)
}

func TestStoreFailureRetried(t *testing.T) {
	e := newEnv(t)
	fs := &flakyStore{Store: e.st, down: true}
	e.md.st = fs
	e.md.OnTrades("btcusdt", sequence()[:3])
	if err := e.md.Sync(context.Background()); err == nil {
		t.Fatal("write failure not reported")
	}
	fs.down = false
	e.feed("btcusdt", sequence()[3:]...)
	e.restart()
	e.checkKlines()
}
