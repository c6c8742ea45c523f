package withdraw

import (
	"context"

	"tenger/internal/deposit"
	"tenger/internal/store"
)

// History lists the user's withdrawals (chain and bank), newest first,
// filtered by coin, status and time within the last 180 days.
func (s *Service) History(ctx context.Context, uid string, f deposit.Filter) ([]Record, int, error) {
	f = f.Normalize(s.o.Now())
	if f.Coin != "" {
		if c, ok := s.o.Coins.Coin(f.Coin); ok {
			f.Coin = c.Symbol
		}
	}
	items, count, err := deposit.QueryHistory(ctx, s.o.Store, "WDHIST#"+uid, f, func(it store.Item) bool {
		return it.Str("uid") == uid && (f.Coin == "" || it.Str("coin") == f.Coin) && (f.Status == "" || it.Str("status") == f.Status)
	})
	if err != nil {
		return nil, 0, internal(err)
	}
	out := make([]Record, 0, len(items))
	for _, it := range items {
		r := recordOf(it)
		r.ExplorerURL = deposit.ExplorerURL(s.o.Coins, s.o.ExplorerTxURL, r.Coin, r.Chain, r.TxID)
		out = append(out, r)
	}
	return out, count, nil
}
