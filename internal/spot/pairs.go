package spot

import (
	"fmt"

	"tenger/internal/markets"
	"tenger/internal/matching"
)

// Pairs open while the engine runs. The catalogue is replaced by its
// watcher when the operator adds a pair (markets/reload.go); before each
// batch the engine compares the catalogue's version with the one it last
// saw and gives every open pair it does not know a book, so a place command
// for the new pair finds one. The journal needs nothing new: on a restart
// NewEngine builds books for the whole (new) catalogue before it replays,
// and pairs are never removed or re-gridded while the exchange runs.

// openNewPairs adds books for pairs of the catalogue the engine does not
// have yet. It runs in the engine goroutine between batches, when no
// settlement job reads the settler's maps.
func (e *Engine) openNewPairs() error {
	v := e.o.Markets.Version()
	if v == e.marketsVersion {
		return nil
	}
	for _, p := range e.o.Markets.List() {
		if _, ok := e.bySym[p.Symbol]; ok {
			continue
		}
		if err := e.addPair(p); err != nil {
			// Refuse the pair, not the batch: its orders are rejected as
			// for an unknown symbol, every other pair keeps trading.
			e.o.Log.Error().Err(err).Str("symbol", p.Symbol).Msg("spot: pair not opened")
			continue
		}
		if err := e.books.Add(matching.NewBook(e.bookCfg[e.bySym[p.Symbol]], e.buf)); err != nil {
			return err
		}
		e.o.Log.Info().Str("symbol", p.Symbol).Msg("spot: book opened")
	}
	e.marketsVersion = v
	return nil
}

// addPair registers a pair's symbol id and grid with the engine and the
// settler (not yet its book).
func (e *Engine) addPair(p markets.Pair) error {
	id := symbolNum(p.Symbol)
	if q, dup := e.set.pairs[id]; dup && q.Symbol != p.Symbol {
		return fmt.Errorf("spot: symbol id collision for %s", p.Symbol)
	}
	cfg := symbolConfig(p)
	bc, err := cfg.BookConfig(id)
	if err != nil {
		return err
	}
	e.set.pairs[id], e.set.cfgs[id], e.bySym[p.Symbol], e.bookCfg[id] = p, cfg, id, bc
	return nil
}
