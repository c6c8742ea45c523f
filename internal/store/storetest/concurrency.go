package storetest

import (
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// testRaceDebits has 50 goroutines make conditional debits of one balance
// until it runs out. Serializable conditional writes mean: the balance never
// goes negative, exactly floor(start/amount) debits succeed, and every
// successful debit saw a distinct balance.
func testRaceDebits(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	const (
		workers = 50
		start   = 1000
		amount  = 7
	)
	k := key("race#acct", "USDT")
	mustPut(t, s, store.Item{"pk": k.PK, "sk": k.SK, "balance": start})

	var (
		mu      sync.Mutex
		results []int64
		wg      sync.WaitGroup
		errs    = make(chan error, workers)
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				var (
					bal decimal.Decimal
					err error
				)
				// Alternate single updates and transactions, both conditional.
				if (w+i)%2 == 0 {
					var it store.Item
					it, err = s.Update(ctx, k, store.NewUpdate().AddInt("balance", -amount), store.Ge("balance", amount))
					if err == nil {
						bal = it.Dec("balance")
					}
				} else {
					err = s.Transact(ctx, []store.Op{
						store.UpdateOp(k, store.NewUpdate().AddInt("balance", -amount), store.Ge("balance", amount)),
						store.PutOp(store.Item{"pk": "race#debit", "sk": fmt.Sprintf("%02d-%04d", w, i)}, store.ItemNotExists()),
					})
					bal = decimal.NewFromInt(-1) // unknown from a transaction
				}
				if errors.Is(err, store.ErrConditionFailed) {
					return
				}
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				results = append(results, bal.IntPart())
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("debit: %v", err)
	}
	wantDebits := start / amount
	if len(results) != wantDebits {
		t.Fatalf("%d successful debits, want %d", len(results), wantDebits)
	}
	final := mustGet(t, s, k).Dec("balance")
	if !final.Equal(decimal.NewFromInt(start - int64(wantDebits)*amount)) {
		t.Fatalf("final balance %s, want %d", final, start-wantDebits*amount)
	}
	// Balances returned by single updates are distinct multiples on the way down.
	seen := map[int64]bool{}
	for _, b := range results {
		if b == -1 {
			continue
		}
		if b < 0 || (start-b)%amount != 0 || seen[b] {
			t.Fatalf("update returned balance %d (seen before: %v)", b, seen[b])
		}
		seen[b] = true
	}
	txDebits := len(results) - len(seen)
	if got := len(queryAll(t, s, store.Query{PK: "race#debit"})); got != txDebits {
		t.Fatalf("%d debit records, want %d transactional debits", got, txDebits)
	}
}

// testConcurrentTransfers moves random amounts between accounts from many
// goroutines with conditional transactions: the total is conserved, no
// balance is negative, and each final balance equals its start plus the net
// of the transfers that succeeded.
func testConcurrentTransfers(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	const (
		accounts  = 5
		workers   = 10
		perWorker = 30
		start     = 100
	)
	acct := func(i int) store.Key { return key(fmt.Sprintf("xfer#%d", i), "MNT") }
	for i := 0; i < accounts; i++ {
		mustPut(t, s, store.Item{"pk": acct(i).PK, "sk": "MNT", "balance": dec(fmt.Sprintf("%d.00", start))})
	}
	var (
		net      [accounts]atomic.Int64 // in hundredths
		ok, fail atomic.Int64
		wg       sync.WaitGroup
		errs     = make(chan error, workers)
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(w)))
			for i := 0; i < perWorker; i++ {
				from := rng.Intn(accounts)
				to := (from + 1 + rng.Intn(accounts-1)) % accounts
				cents := int64(1 + rng.Intn(6000))
				amt := decimal.New(cents, -2)
				err := s.Transact(ctx, []store.Op{
					store.UpdateOp(acct(from), store.NewUpdate().Add("balance", amt.Neg()), store.Ge("balance", amt)),
					store.UpdateOp(acct(to), store.NewUpdate().Add("balance", amt), store.ItemExists()),
				})
				switch {
				case err == nil:
					ok.Add(1)
					net[from].Add(-cents)
					net[to].Add(cents)
				case errors.Is(err, store.ErrConditionFailed):
					var txe *store.TxCanceledError
					if !errors.As(err, &txe) || txe.Index != 0 {
						errs <- fmt.Errorf("transfer failed on the wrong operation: %v", err)
						return
					}
					fail.Add(1)
				default:
					errs <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("transfer: %v", err)
	}
	if ok.Load()+fail.Load() != workers*perWorker || ok.Load() == 0 {
		t.Fatalf("%d transfers succeeded, %d failed", ok.Load(), fail.Load())
	}
	total := decimal.Zero
	var balances []string
	for i := 0; i < accounts; i++ {
		b := mustGet(t, s, acct(i)).Dec("balance")
		balances = append(balances, b.String())
		if b.IsNegative() {
			t.Fatalf("account %d negative: %s", i, b)
		}
		want := decimal.New(start*100+net[i].Load(), -2)
		if !b.Equal(want) {
			t.Fatalf("account %d: balance %s, want %s", i, b, want)
		}
		total = total.Add(b)
	}
	if !total.Equal(decimal.NewFromInt(start * accounts)) {
		sort.Strings(balances)
		t.Fatalf("total %s, want %d (balances %v)", total, start*accounts, balances)
	}
}
