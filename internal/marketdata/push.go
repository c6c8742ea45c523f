package marketdata

import (
	"context"
	"strconv"
	"strings"
	"time"

	"tenger/internal/markets"
	"tenger/internal/push"
)

// Channel names (spec §7 Realtime).

// DepthChannel is market_{symbol}_depth_step{step}.
func DepthChannel(symbol string, step int) string {
	return "market_" + symbol + "_depth_step" + strconv.Itoa(step)
}

// TradeChannel is market_{symbol}_trade_ticker.
func TradeChannel(symbol string) string { return "market_" + symbol + "_trade_ticker" }

// TickerChannel is market_{symbol}_ticker.
func TickerChannel(symbol string) string { return "market_" + symbol + "_ticker" }

// KlineChannel is market_{symbol}_kline_{period}.
func KlineChannel(symbol string, p Period) string { return "market_" + symbol + "_kline_" + string(p) }

// KnownChannel returns the check of the market channels subscribers may
// ask for: market_{symbol}_depth_step{0..2}, _trade_ticker, _ticker and
// _kline_{period}, for a pair of the catalogue as it is now (pairs added
// to markets.json are known at once), spelled as the messages are
// published (lower-case symbol, the period's canonical text).
func KnownChannel(cat *markets.Catalogue) push.ChannelFunc {
	return func(ch string) bool {
		rest, ok := strings.CutPrefix(ch, "market_")
		if !ok {
			return false
		}
		sym, kind, ok := strings.Cut(rest, "_")
		if !ok {
			return false
		}
		// Names exactly as messages are published: the pair's own symbol
		// and the period's own text, not the spellings the REST calls
		// also take.
		if p, ok := cat.Pair(sym); !ok || p.Symbol != sym {
			return false
		}
		switch {
		case kind == "trade_ticker" || kind == "ticker":
			return true
		case strings.HasPrefix(kind, "depth_step"):
			step := strings.TrimPrefix(kind, "depth_step")
			return step == "0" || step == "1" || step == "2"
		case strings.HasPrefix(kind, "kline_"):
			text := strings.TrimPrefix(kind, "kline_")
			p, ok := ParsePeriod(text)
			return ok && string(p) == text
		}
		return false
	}
}

type outMsg struct {
	channel string
	body    []byte
}

// flush builds the messages due at now and publishes them: new trades at
// once; depth, ticker and klines at most once per PushInterval per symbol,
// and only when they changed (the ticker also when its 24 h window lost a
// candle without a trade).
func (s *Service) flush(ctx context.Context, now time.Time) {
	if s.pusher == nil {
		s.mu.Lock()
		for _, st := range s.syms {
			st.pending = nil
		}
		s.mu.Unlock()
		return
	}
	var msgs []outMsg
	add := func(ch string, b []byte, err error) {
		if err == nil {
			msgs = append(msgs, outMsg{ch, b})
		}
	}
	s.mu.Lock()
	for sym, st := range s.syms {
		if len(st.pending) > 0 {
			views := make([]TradeView, len(st.pending))
			for i, t := range st.pending {
				views[i] = tradeView(t, st.pair.PricePrecision)
			}
			st.pending = nil
			b, err := push.Data(TradeChannel(sym), now, views)
			add(TradeChannel(sym), b, err)
		}
		if st.depthDirty && now.Sub(st.depthPush) >= PushInterval {
			for step := 0; step <= MaxDepthStep; step++ {
				ch := DepthChannel(sym, step)
				b, err := push.Tick(ch, now, st.depthView(step, MaxDepthLimit))
				add(ch, b, err)
			}
			st.depthDirty, st.depthPush = false, now
		}
		// The ticker changes with a trade, and without one when the oldest
		// candle of its 24 h window leaves it (at tickLeave): only then is
		// it recomputed, and pushed when it differs from the one last
		// pushed. Idle pairs cost a comparison per flush.
		if (st.tickDirty || now.Unix() >= st.tickLeave) && now.Sub(st.tickPushAt) >= PushInterval {
			tk, leave := st.tickerLeave(now)
			st.tickLeave = leave
			if cmp := withoutTS(tk); cmp != st.tickSent {
				b, err := push.Tick(TickerChannel(sym), now, tk)
				add(TickerChannel(sym), b, err)
				st.tickSent, st.tickPushAt = cmp, now
			}
			if st.tickDirty {
				for _, p := range Periods {
					from, ok := st.dirtyK[p]
					if !ok {
						continue
					}
					// Every candle changed since the last push, oldest first:
					// trades of two buckets within one interval must not leave
					// the earlier bucket's last state unpushed.
					ser := st.series[p]
					i := len(ser)
					for i > 0 && ser[i-1].start >= from {
						i--
					}
					ch := KlineChannel(sym, p)
					for _, c := range ser[i:] {
						b, err := push.Tick(ch, now, klineView(c, st.pair.PricePrecision))
						add(ch, b, err)
					}
					delete(st.dirtyK, p)
				}
				st.tickDirty, st.tickPushAt = false, now
			}
		}
	}
	s.mu.Unlock()
	for _, m := range msgs {
		if _, err := s.pusher.Publish(ctx, m.channel, m.body); err != nil {
			s.log.Debug().Err(err).Str("channel", m.channel).Msg("marketdata: publish")
		}
	}
}

// withoutTS is the ticker without its time, to compare contents.
func withoutTS(t Ticker) Ticker {
	t.TS = 0
	return t
}
