package deposit_test

import (
	"testing"

	"tenger/internal/chainsim"
	"tenger/internal/deposit"
)

// A transfer smaller than the chain's depositMin (BTC: 0.0001) is final at
// once: recorded in the user's history as below the minimum, closed on the
// chain, and never credited, also when it is observed again after blocks.
func TestDepositBelowMinimumRecordedNotCredited(t *testing.T) {
	e := newEnv(t)
	const uid = "10000001"
	a, err := e.svc.ChargeAddress(ctx, uid, "BTC", "BTC")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := e.sim.Deposit(ctx, chainsim.DepositReq{Coin: "BTC", Chain: "BTC", Address: a.AddressLong, Amount: "0.00009999"})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.w.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	l, n, err := e.svc.History(ctx, uid, deposit.Filter{})
	if err != nil || n != 1 || l[0].Status != deposit.StatusBelowMin || l[0].TxID != tx.TxID {
		t.Fatalf("history %+v %d %v", l, n, err)
	}
	if open, _ := e.sim.OpenIncoming(ctx, "BTC"); len(open) != 0 {
		t.Fatalf("transfer still open: %v", open)
	}
	e.mine(t, "BTC", 5)
	got, _ := e.sim.Get(ctx, "BTC", tx.TxID)
	if final, err := e.svc.Observe(ctx, got, 100); err != nil || !final {
		t.Fatalf("observed again: %v %v", final, err)
	}
	if b := e.spot(t, uid, "BTC"); !b.Available.IsZero() {
		t.Fatalf("credited %s", b.Available)
	}
	if l, _, _ := e.svc.History(ctx, uid, deposit.Filter{}); l[0].Status != deposit.StatusBelowMin || l[0].ExplorerURL != "https://mempool.space/tx/"+tx.TxID {
		t.Fatalf("after blocks %+v", l[0])
	}
	e.audit(t)
}
