package spotfunds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"tenger/internal/engine"
	"tenger/internal/ledger"
	"tenger/internal/risk"
	"tenger/internal/store"
)

// adoptedKey marks that the futures balances the store ledger kept were
// brought into the engine.
var adoptedKey = store.Key{PK: "ENGPROJ", SK: "ADOPTED#futures"}

// AdoptFutures brings the users' futures balances into the engine, once:
// before the engine owned the futures account, transfers moved them in
// the store ledger alone. Each balance becomes an engine credit of the
// futures account (Ref "adopt:futures:<uid>:<coin>") whose other side is
// that same ledger account, so its posting nets to nothing there and the
// projection then writes the balance as the engine holds it. A marker item
// records that it was done; a start that dies part-way does it again (the
// credits done answer Exists). Call it when the engine has started and
// before any request reaches it.
func AdoptFutures(ctx context.Context, st store.Store, e Engine, coins []string) (int, error) {
	if _, err := st.Get(ctx, adoptedKey); err == nil {
		return 0, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return 0, err
	}
	led := ledger.New(st, nil)
	n := 0
	for _, coin := range coins {
		err := led.CoinBalances(ctx, coin, func(b ledger.Balance) error {
			if b.Account.Owner == ledger.SystemOwner || b.Account.Kind != ledger.Futures || b.Total().IsZero() {
				return nil
			}
			if !b.Frozen.IsZero() || b.Available.IsNegative() {
				return fmt.Errorf("spotfunds: futures balance %s %s is %s/%s: nothing held it before the engine did",
					b.Account, coin, b.Available, b.Frozen)
			}
			m := Move{Ref: "adopt:futures:" + b.Account.Owner + ":" + coin, UID: b.Account.Owner, Coin: coin, Amount: b.Available}
			amount, err := e.units(m, m.Amount)
			if err != nil {
				return err
			}
			other := b.Account
			note, err := json.Marshal(note{Other: &other, Reason: "adopt_futures"})
			if err != nil {
				return err
			}
			res, err := e.Submit.SubmitProjected(ctx, engine.Command{Kind: engine.KindCredit, Ref: m.Ref, User: engine.UserNumber(m.UID),
				UserID: m.UID, Account: risk.KindFutures, Coin: coin, Amount: amount, Note: note})
			if err != nil {
				return err
			}
			if err := answer(res, engine.KindCredit, m.Ref); err != nil {
				return err
			}
			if res.Code == engine.OK {
				n++
			}
			return nil
		})
		if err != nil {
			return n, err
		}
	}
	return n, st.Put(ctx, store.Item{store.AttrPK: adoptedKey.PK, store.AttrSK: adoptedKey.SK, "done": true}, nil)
}
