package spot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/engine"
	"tenger/internal/engine/journal"
)

// A process killed under load, while the projection is writing (its store
// writes fail from one moment on, the engine's journal tail is lost), comes
// back with the store's open orders exactly the engine's book: the batch
// the projection was writing is written again whole, and the commands the
// store had change nothing again.
func TestStoreShowsTheBookAfterAKill(t *testing.T) {
	e := newEnv(t, func(e *env) { e.policy = journal.Durable })
	users := []string{"10000001", "10000002", "10000003", "10000004"}
	for _, u := range users {
		e.deposit(u, "USDT", "100000")
		e.deposit(u, "BTC", "2")
	}
	svc, ds := e.svc, e.st
	ctx := AckAtJournal(context.Background())
	var wg sync.WaitGroup
	types := []string{"LIMIT", "LIMIT", "LIMIT", "POST_ONLY", "IOC", "FOK", "MARKET"}
	crash := make(chan struct{})
	for w, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			var mine []string
			for i := 0; i < 400 && !ds.dead.Load(); i++ {
				if i == 300 && w == 0 {
					close(crash)
				}
				side := "BUY"
				if r.IntN(2) == 0 {
					side = "SELL"
				}
				typ := types[r.IntN(len(types))]
				req := PlaceRequest{Symbol: "btcusdt", Side: side, Type: typ, Volume: fmt.Sprintf("0.000%d", 1+r.IntN(9))}
				if typ != "MARKET" {
					req.Price = fmt.Sprint(49990 + r.IntN(21))
				} else if side == "BUY" {
					req.Volume, req.QuoteVolume = "", fmt.Sprintf("%d.%02d", 10+r.IntN(40), r.IntN(100))
				}
				if r.IntN(15) == 0 {
					svc.CancelAll(ctx, u, "btcusdt")
					mine = nil
					continue
				}
				if r.IntN(6) == 0 && len(mine) > 0 {
					svc.CancelOrder(ctx, u, "btcusdt", mine[r.IntN(len(mine))])
					continue
				}
				id, err := svc.PlaceOrder(ctx, u, req)
				if err == nil {
					mine = append(mine, id)
				}
			}
		}()
	}
	<-crash
	ds.dead.Store(true)
	e.rt.Engine.Crash()
	wg.Wait()
	e.crash() // the restarted process gets a live store
	svc = e.svc
	// The engine's balances and the store's agree.
	e.drain()
	// store open orders remaining per price/side
	store := map[string]decimal.Decimal{}
	for _, u := range users {
		os, err := svc.ListOpenOrders(context.Background(), u, "btcusdt")
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range os {
			k := o.Side + " " + o.Price.String()
			store[k] = store[k].Add(o.Volume.Sub(o.DealVolume))
		}
	}
	book := map[string]decimal.Decimal{}
	pr, _ := e.cat.Pair("btcusdt")
	e.rt.Engine.Read(func(s *engine.State) {
		bids, asks, _ := depthOf(s.Book(symbolNum("btcusdt")), pr, nil)
		for _, l := range bids {
			book["BUY "+l.Price.String()] = l.Qty
		}
		for _, l := range asks {
			book["SELL "+l.Price.String()] = l.Qty
		}
	})
	var keys []string
	for k := range store {
		keys = append(keys, k)
	}
	for k := range book {
		if _, ok := store[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	placed := 0
	for _, u := range users {
		_, n, err := svc.SearchOrders(context.Background(), u, OrderFilter{})
		if err != nil {
			t.Fatal(err)
		}
		placed += n
	}
	if placed < 100 {
		t.Fatalf("the store shows %d orders: the load placed too few to say anything", placed)
	}
	for _, k := range keys {
		if !store[k].Equal(book[k]) {
			t.Errorf("%s: the store's open orders hold %s, the book %s", k, store[k], book[k])
		}
	}
}
