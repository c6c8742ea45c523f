package wallet

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/ledger"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// CountPendingTransfers counts the user's transfers still between their
// steps: not the finished ones, nor another user's.
func TestCountPendingTransfers(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for _, x := range []xfer{
		{uid: "u1", id: "r1", typ: "otc", coin: "USDT", amount: decimal.NewFromInt(1), from: ledger.Spot, to: ledger.OTC},
		{uid: "u1", id: "r2", typ: "otc", coin: "USDT", amount: decimal.NewFromInt(2), from: ledger.OTC, to: ledger.Spot},
		{uid: "u2", id: "r3", typ: "otc", coin: "USDT", amount: decimal.NewFromInt(3), from: ledger.Spot, to: ledger.OTC},
	} {
		if err := st.Put(ctx, x.pendingItem(1), nil); err != nil {
			t.Fatal(err)
		}
	}
	done := store.NewUpdate().Set(attrXferStatus, TransferSuccess).Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK)
	if _, err := st.Update(ctx, transferKey("u1", "r2"), done, nil); err != nil {
		t.Fatal(err)
	}
	if n, err := CountPendingTransfers(ctx, st, "u1"); err != nil || n != 1 {
		t.Fatalf("u1: %d %v", n, err)
	}
}
