package spot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"tenger/internal/marketdata"
	"tenger/internal/store"
)

// Market data after a rebuild.
//
// The engine hands each batch's trades to market data (EngineOptions.Feed)
// after settling them, and market data stores them a moment later. A crash
// in between loses them there. After a restart from the journal the engine
// sends its replayed trades again, and a snapshot (which drops the journal)
// first has market data store what it holds (snapshot). A rebuild from the
// store replays nothing, so every trade market data lost before it would be
// missing from recent trades, candles and tickers for good.
//
// So after a rebuild, when the feed can say which trade it applied last
// (marketdata.TradeMarks), the engine reads the trades after that one, up
// to each rebuilt book's last trade, back from the store and sends them
// again in id order. Every such trade is settled: the rebuild first
// completes the last batch (pending.go). Each trade is read from its ledger
// posting ("trade:<symbol>:<id>", whose meta names the two orders) and the
// buyer's trade row. Sending a trade the feed already has (one the journal
// replay sent before the engine found the store ahead of it) is harmless:
// market data skips ids at or below its mark.

// maxFeedCatchUp bounds the trades sent again per symbol at one start: a
// crash loses the trades of the last moments, and a larger gap means
// market data lost its store, which this does not rebuild.
const maxFeedCatchUp = 5000

// feedCatchUpWorkers read stored trades in parallel (each read is a
// network round trip on DynamoDB).
const feedCatchUpWorkers = 8

// catchUpFeed sends the feed the stored trades it lacks, per symbol, up to
// each book's last trade.
func (e *Engine) catchUpFeed(ctx context.Context) error {
	marks, ok := e.o.Feed.(marketdata.TradeMarks)
	if !ok {
		return nil
	}
	for _, id := range e.books.Symbols() {
		sym := e.set.pairs[id].Symbol
		last := e.books.Book(id).LastTradeID()
		have, _ := strconv.ParseUint(marks.LastTradeID(sym), 10, 64) // "" is none
		if have >= last {
			continue
		}
		from := have + 1
		if last-have > maxFeedCatchUp {
			from = last - maxFeedCatchUp + 1
			e.o.Log.Warn().Str("symbol", sym).Uint64("feed", have).Uint64("book", last).
				Msg("spot: market data is far behind the book; sending only its latest trades again")
		}
		trades, missing, err := e.storedTrades(ctx, sym, from, last)
		if err != nil {
			return fmt.Errorf("spot: read %s trades for market data: %w", sym, err)
		}
		if len(trades) > 0 {
			marks.OnTrades(sym, trades)
		}
		ev := e.o.Log.Info()
		if missing > 0 {
			ev = e.o.Log.Warn().Int("notStored", missing)
		}
		ev.Str("symbol", sym).Uint64("from", from).Uint64("to", last).Int("sent", len(trades)).
			Msg("spot: trades market data had lost were sent again")
	}
	return nil
}

// storedTrades reads the symbol's trades from..to (ids) as market data
// sees them, in id order; missing counts ids with no stored trade.
func (e *Engine) storedTrades(ctx context.Context, sym string, from, to uint64) ([]marketdata.Trade, int, error) {
	got := make([]marketdata.Trade, to-from+1)
	found := make([]bool, len(got))
	jobs := make([]job, len(got))
	for i := range jobs {
		tid := from + uint64(i)
		jobs[i] = func(ctx context.Context) error {
			t, ok, err := e.storedTrade(ctx, sym, tid)
			got[i], found[i] = t, ok
			return err
		}
	}
	if err := run(ctx, jobs, feedCatchUpWorkers); err != nil {
		return nil, 0, err
	}
	out := got[:0]
	missing := 0
	for i, ok := range found {
		if ok {
			out = append(out, got[i])
		} else {
			missing++
		}
	}
	return out, missing, nil
}

// storedTrade reads one settled trade; ok is false when it is not stored.
func (e *Engine) storedTrade(ctx context.Context, sym string, tid uint64) (marketdata.Trade, bool, error) {
	ids := strconv.FormatUint(tid, 10)
	rec, err := e.o.Ledger.Lookup(ctx, "trade:"+sym+":"+ids)
	if errors.Is(err, store.ErrNotFound) {
		return marketdata.Trade{}, false, nil
	}
	if err != nil {
		return marketdata.Trade{}, false, err
	}
	row, err := e.o.Store.Get(ctx, store.Key{PK: pkTrades + rec.Meta["buyOrder"], SK: fmt.Sprintf("%020d", tid)})
	if errors.Is(err, store.ErrNotFound) {
		return marketdata.Trade{}, false, nil
	}
	if err != nil {
		return marketdata.Trade{}, false, err
	}
	taker := "SELL"
	if row.Str("role") == "TAKER" {
		taker = "BUY"
	}
	return marketdata.Trade{ID: ids, Symbol: sym, Price: row.Dec("price"), Qty: row.Dec("volume"), TakerSide: taker,
		At: time.UnixMilli(row.Int("at")).UTC()}, true, nil
}
