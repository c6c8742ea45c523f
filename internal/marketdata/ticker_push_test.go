package marketdata

import (
	"context"
	"testing"
	"time"
)

// syncAt sets the clock, applies what is queued and returns what was pushed.
func (e *env) syncAt(when time.Time) []published {
	e.t.Helper()
	e.clock.Set(when)
	if err := e.md.Sync(context.Background()); err != nil {
		e.t.Fatal(err)
	}
	return e.push.take()
}

// onlyTicker checks that msgs is one btcusdt ticker push, equal to the REST
// ticker at the same time, and returns it.
func (e *env) onlyTicker(msgs []published) Ticker {
	e.t.Helper()
	if len(msgs) != 1 || msgs[0].Channel != TickerChannel("btcusdt") {
		var chans []string
		for _, m := range msgs {
			chans = append(chans, m.Channel)
		}
		e.t.Fatalf("at %s pushed %v, want one btcusdt ticker", e.clock.Now().Format(time.RFC3339Nano), chans)
	}
	var m tickMsg
	decodeJSON(e.t, msgs[0].Body, &m)
	var tk Ticker
	decodeJSON(e.t, m.Tick, &tk)
	rest, err := e.md.Ticker("btcusdt")
	if err != nil {
		e.t.Fatal(err)
	}
	if tk != rest || m.TS != e.clock.Now().UnixMilli() {
		e.t.Fatalf("pushed ticker %+v (ts %d), REST %+v", tk, m.TS, rest)
	}
	return tk
}

func checkTicker(t *testing.T, tk Ticker, open, high, low, close, vol, amount, rose string, count int64) {
	t.Helper()
	want := Ticker{Symbol: "btcusdt", Open: open, High: high, Low: low, Close: close, Vol: vol, Amount: amount,
		Rose: rose, Count: count, TS: tk.TS}
	if tk != want {
		t.Fatalf("ticker %+v\nwant   %+v", tk, want)
	}
}

// A pair that stops trading: its pushed ticker follows the 24 h window
// as trades leave it, and nothing is pushed while the window keeps its
// trades (nor for pairs that never traded, nor after a restart).
func TestTickerPushedWhenTradesLeaveWindow(t *testing.T) {
	e := newEnv(t)
	e.push.take()
	// The clock starts at 2026-02-02T00:00:30Z.
	e.feed("btcusdt", tr("1", "2026-02-02T00:00:10Z", "100", "1", "BUY"))
	e.push.take()
	e.clock.Set(at("2026-02-02T01:30:05Z"))
	e.feed("btcusdt", tr("2", "2026-02-02T01:30:00Z", "120", "2", "BUY"), tr("3", "2026-02-02T01:30:02Z", "90", "1", "SELL"))
	tk := e.onlyTicker(e.push.on(TickerChannel("btcusdt")))
	checkTicker(t, tk, "100.00", "120.00", "90.00", "90.00", "4", "430", "-0.1", 3)

	// Idle: the window still holds every trade, nothing is pushed.
	for _, when := range []string{"2026-02-02T01:30:06Z", "2026-02-02T02:00:00Z", "2026-02-02T12:00:00Z",
		"2026-02-02T23:59:00Z", "2026-02-02T23:59:59.999Z"} {
		if got := e.syncAt(at(when)); len(got) != 0 {
			t.Fatalf("idle at %s: pushed %d, first %s", when, len(got), got[0].Channel)
		}
	}
	// A restart does not push what clients already have, and still
	// knows when the window moves.
	e.restart()
	if got := e.syncAt(at("2026-02-02T23:59:59.999Z")); len(got) != 0 {
		t.Fatalf("after restart: pushed %d, first %s", len(got), got[0].Channel)
	}

	// 24 h after the first trade's minute began it leaves the window:
	// the ticker is pushed with the figures of the two trades left.
	tk = e.onlyTicker(e.syncAt(at("2026-02-03T00:00:00Z")))
	checkTicker(t, tk, "120.00", "120.00", "90.00", "90.00", "3", "330", "-0.25", 2)
	for _, when := range []string{"2026-02-03T00:00:00.5Z", "2026-02-03T00:01:00Z", "2026-02-03T01:29:59Z"} {
		if got := e.syncAt(at(when)); len(got) != 0 {
			t.Fatalf("unchanged window at %s: pushed %d", when, len(got))
		}
	}
	// The last trades leave: an empty window at the last price.
	tk = e.onlyTicker(e.syncAt(at("2026-02-03T01:30:00Z")))
	checkTicker(t, tk, "90.00", "90.00", "90.00", "90.00", "0", "0", "0", 0)
	// Nothing left to leave: never pushed again.
	for _, when := range []string{"2026-02-03T01:30:01Z", "2026-02-03T01:31:00Z", "2026-02-05T00:00:00Z"} {
		if got := e.syncAt(at(when)); len(got) != 0 {
			t.Fatalf("empty window at %s: pushed %d", when, len(got))
		}
	}
}

// A window move right after a trade's push waits for the push interval,
// then pushes the figures as they are then.
func TestTickerWindowPushThrottled(t *testing.T) {
	e := newEnv(t)
	e.push.take()
	e.feed("btcusdt", tr("1", "2026-02-02T00:00:10Z", "100", "1", "BUY"))
	e.push.take()
	last := at("2026-02-02T23:59:59.95Z")
	e.clock.Set(last)
	e.feed("btcusdt", tr("2", "2026-02-02T23:59:59.95Z", "110", "1", "BUY"))
	tk := e.onlyTicker(e.push.on(TickerChannel("btcusdt")))
	checkTicker(t, tk, "100.00", "110.00", "100.00", "110.00", "2", "210", "0.1", 2)
	// Trade 1 leaves at 00:00:00, 50 ms after the trade's push.
	for _, when := range []time.Time{at("2026-02-03T00:00:00Z"), last.Add(PushInterval - time.Millisecond)} {
		if got := e.syncAt(when); len(got) != 0 {
			t.Fatalf("within the interval (%s): pushed %d", when.Format(time.RFC3339Nano), len(got))
		}
	}
	tk = e.onlyTicker(e.syncAt(last.Add(PushInterval)))
	checkTicker(t, tk, "110.00", "110.00", "110.00", "110.00", "1", "110", "0", 1)
	if got := e.syncAt(last.Add(2 * PushInterval)); len(got) != 0 {
		t.Fatalf("after the due push: pushed %d", len(got))
	}
}
