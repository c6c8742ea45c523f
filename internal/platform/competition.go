package platform

import (
	"context"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/competition"
	"tenger/internal/futures"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/wallet"
)

// competitionState holds the competition service of a Deps, built once.
type competitionState struct {
	once sync.Once
	svc  *competition.Service
}

// Competition is the futures trading competition: the operator's
// competitions, joining, the ranking and the prizes (paid into spot from
// the treasury account through SpotFunds). Built once per Deps.
func (d *Deps) Competition() *competition.Service {
	d.comp.once.Do(func() {
		var coins []string
		seen := map[string]bool{}
		for _, c := range d.Contracts().List() {
			if !seen[c.Quote] {
				seen[c.Quote] = true
				coins = append(coins, c.Quote)
			}
		}
		d.comp.svc = competition.New(competition.Options{Store: d.Store, Users: competitionUsers{d}, Futures: competitionFutures{d.Futures()},
			Transfers: competitionTransfers{d.Wallet()}, Funds: d.SpotFunds(), Coins: coins, Now: d.Now,
			Log: d.Log.With().Str("service", "competition").Logger()})
	})
	return d.comp.svc
}

// CompetitionArea returns the routers of the competition (under
// /fe-co-api, beside the futures service's).
func (d *Deps) CompetitionArea() []*httpapi.Router {
	return []*httpapi.Router{httpapi.NewCompetitionRouter(d.Competition(), d.APIOptions("futures", httpapi.AuthSessions(d.Auth())))}
}

// StartCompetitionRefresher works the competitions' rankings out every
// minute (and, after a competition's end, fixes its winners and pays
// them) until Close. The process that runs the engine starts it (tenger
// serve); in AWS a schedule calls Competition().Refresh instead.
func (d *Deps) StartCompetitionRefresher(ctx context.Context) {
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	r := d.Competition().Refresher(time.Minute)
	go func() {
		defer close(done)
		r.Run(rctx)
	}()
	d.onClose(func() error { cancel(); <-done; return nil })
}

// competitionUsers reads the rules' facts from the user items.
type competitionUsers struct{ d *Deps }

func (u competitionUsers) CompetitionUser(ctx context.Context, uid string) (competition.User, error) {
	a, err := u.d.Auth().User(ctx, uid)
	if err != nil {
		return competition.User{}, err
	}
	out := competition.User{Nick: a.NickName, Mobile: a.Mobile != ""}
	if a.KYCStatus == 2 { // verified
		out.KYCLevel = 1
	}
	return out, nil
}

// competitionFutures reads the futures accounts from the store projection.
type competitionFutures struct{ svc *futures.Service }

func (f competitionFutures) MarginBalance(ctx context.Context, uid, coin string) (decimal.Decimal, error) {
	a, err := f.svc.Assets(ctx, uid)
	if err != nil {
		return decimal.Zero, err
	}
	for _, acc := range a.Accounts {
		if acc.Coin == coin {
			return decimal.NewFromString(acc.MarginBalance)
		}
	}
	return decimal.Zero, nil
}

func (f competitionFutures) Opened(ctx context.Context, uid string) (bool, error) {
	return f.svc.Opened(ctx, uid)
}

// competitionTransfers reads the wallet's transfer records between spot
// and futures (type futures), pending ones included.
type competitionTransfers struct{ w *wallet.Service }

func (t competitionTransfers) FuturesTransfers(ctx context.Context, uid, coin string, from, to int64) ([]competition.Transfer, error) {
	var out []competition.Transfer
	if from > to {
		return out, nil
	}
	for page := 1; ; page++ {
		p, err := t.w.Transfers(ctx, uid, wallet.HistoryFilter{Coin: coin, Type: wallet.TransferFutures,
			Begin: time.UnixMilli(from), End: time.UnixMilli(to), Page: page, PageSize: wallet.MaxPageSize})
		if err != nil {
			return nil, err
		}
		for _, r := range p.List {
			amount, err := decimal.NewFromString(r.Amount)
			if err != nil {
				return nil, err
			}
			out = append(out, competition.Transfer{At: r.Ctime, Amount: amount, In: r.To == string(ledger.Futures),
				Pending: r.Status == wallet.TransferPending})
		}
		if len(p.List) == 0 || page*wallet.MaxPageSize >= p.Count {
			return out, nil
		}
	}
}
