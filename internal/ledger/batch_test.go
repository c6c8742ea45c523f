package ledger

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"tenger/internal/store"
)

// TestConcurrentReplaysApplyOnce: the same posting submitted by many
// goroutines at once (they land in one batch or in several) applies once.
func TestConcurrentReplaysApplyOnce(t *testing.T) {
	l := New(openStore(t), nil)
	u := UserAccount("1", Spot)
	p := Posting{ID: "dep:same", Reason: "deposit", Legs: []Leg{Move(ChainAccount("C"), u, "BTC", d("1.5"))}}
	var fresh, replayed atomic.Int32
	var wg sync.WaitGroup
	for g := 0; g < 20; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := l.Post(context.Background(), p)
			switch {
			case err != nil:
				t.Error(err)
			case r.Replayed:
				replayed.Add(1)
			default:
				fresh.Add(1)
			}
		}()
	}
	wg.Wait()
	if fresh.Load() != 1 || replayed.Load() != 19 {
		t.Fatalf("fresh %d, replayed %d", fresh.Load(), replayed.Load())
	}
	wantBalance(t, l, u, "BTC", "1.5", "0")
	wantClean(t, l)
}

// TestConcurrentBatchesWithExtras: postings whose extras write the same
// item cannot share a batch (the store forbids one item twice in a
// transaction), and one whose extra condition fails must not take the
// others down with it.
func TestConcurrentBatchesWithExtras(t *testing.T) {
	st := openStore(t)
	l := New(st, nil)
	for i := 0; i < 8; i++ {
		u := UserAccount(fmt.Sprint(i), Spot)
		if _, err := l.Post(context.Background(), Posting{ID: fmt.Sprint("seed", i), Reason: "deposit",
			Legs: []Leg{Move(ChainAccount("C"), u, "USDT", d("100"))}}); err != nil {
			t.Fatal(err)
		}
	}
	var ok, dup atomic.Int32
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		for i := 0; i < 10; i++ {
			wg.Add(1)
			go func(g, i int) {
				defer wg.Done()
				u := UserAccount(fmt.Sprint(g), Spot)
				// Every user's orders share one counter item; order ids
				// 0..4 repeat, so half the postings find their order
				// already there and must fail alone.
				order := store.Item{store.AttrPK: fmt.Sprintf("ORDER#%d-%d", g, i%5), store.AttrSK: "O"}
				_, err := l.Post(context.Background(), Posting{ID: fmt.Sprintf("o%d-%d", g, i), Reason: "order_hold",
					Legs: []Leg{HoldLeg(u, "USDT", d("1"))},
					Extra: []store.Op{
						store.PutOp(order, store.ItemNotExists()),
						store.UpdateOp(store.Key{PK: fmt.Sprint("COUNT#", g), SK: "C"}, store.NewUpdate().AddInt("n", 1), nil),
					}})
				var xe *ExtraFailedError
				switch {
				case err == nil:
					ok.Add(1)
				case errors.As(err, &xe):
					dup.Add(1)
				default:
					t.Error(err)
				}
			}(g, i)
		}
	}
	wg.Wait()
	if ok.Load() != 40 || dup.Load() != 40 {
		t.Fatalf("ok %d, duplicates %d", ok.Load(), dup.Load())
	}
	for g := 0; g < 8; g++ {
		wantBalance(t, l, UserAccount(fmt.Sprint(g), Spot), "USDT", "95", "5")
		it, err := st.Get(context.Background(), store.Key{PK: fmt.Sprint("COUNT#", g), SK: "C"})
		if err != nil || it.Int("n") != 5 {
			t.Fatalf("user %d counter %v %v", g, it, err)
		}
	}
	wantClean(t, l)
}
