// Package spotfundstest gives tests both implementations of
// spotfunds.Funds on one store: the store ledger, and an engine (journal in
// a temporary directory, no fsync) with its store projection behind it.
package spotfundstest

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/projector"
	"tenger/internal/risk"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Impl is one implementation under test.
type Impl struct {
	Name  string
	Funds spotfunds.Funds
	// Engine is the engine behind Funds (nil for the ledger).
	Engine *Engine
}

// Both returns the ledger and the engine implementations on st; the
// engine lists coins (code → engine decimals; nil: DefaultCoins).
func Both(t testing.TB, st store.Store, coins map[string]int32) []Impl {
	e := NewEngine(t, st, coins)
	return []Impl{
		{Name: "ledger", Funds: spotfunds.Ledger{Led: ledger.New(st, nil), Store: st}},
		{Name: "engine", Funds: e.Funds(), Engine: e},
	}
}

// DefaultCoins are the coins of the local catalogue tests use most.
var DefaultCoins = map[string]int32{"BTC": 8, "ETH": 18, "USDT": 8, "MNT": 8, "TRX": 8, "TON": 9, "BNB": 18}

// Engine is an engine and its projection on a store.
type Engine struct {
	Eng      *engine.Engine
	runner   *projector.Runner
	decimals map[string]int32
}

// NewEngine opens an engine in a temporary directory, projecting into st,
// with coins listed; it is closed when the test ends.
func NewEngine(t testing.TB, st store.Store, coins map[string]int32) *Engine {
	t.Helper()
	if coins == nil {
		coins = DefaultCoins
	}
	ctx := context.Background()
	p := projector.New(projector.Options{Store: st, Counter: spotfunds.Counter})
	start, err := p.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e := &Engine{runner: projector.NewRunner(p, start, zerolog.Nop()), decimals: coins}
	e.Eng, err = engine.Open(ctx, engine.Options{Dir: t.TempDir(), Policy: journal.NoFsync, Checkpoint: p.Checkpoint, Resume: p.Resume,
		Deliver: e.runner.Enqueue, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = e.Eng.Close()
		e.runner.Close()
	})
	for code, d := range coins {
		if res := e.Eng.Submit(ctx, engine.Command{Kind: engine.KindAddCoin, Coin: code, Decimals: d}); res.Code != engine.OK && res.Code != engine.Exists {
			t.Fatalf("listing %s: %s", code, res.Code)
		}
	}
	return e
}

// SubmitProjected implements spotfunds.Submitter.
func (e *Engine) SubmitProjected(ctx context.Context, c engine.Command) (engine.Result, error) {
	res := e.Eng.Submit(ctx, c)
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return res, e.runner.WaitProjected(wctx, res.Seq)
}

// Funds is the engine implementation of spotfunds.Funds.
func (e *Engine) Funds() spotfunds.Engine {
	return spotfunds.Engine{Submit: e, Decimals: func(coin string) (int32, bool) {
		d, ok := e.decimals[coin]
		return d, ok
	}}
}

// Available is the engine's available and held balance of a user's spot
// coin, in engine units.
func (e *Engine) Available(uid, coin string) (avail, held int64) {
	e.Eng.Read(func(s *engine.State) {
		if c, ok := s.Coin(coin); ok {
			b := s.Accounts().Get(engine.UserNumber(uid), risk.KindSpot, c)
			avail, held = b.Avail, b.Held
		}
	})
	return avail, held
}
