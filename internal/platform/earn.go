package platform

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/earn"
	"tenger/internal/httpapi"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/wallet"
)

// earnState holds the earn service of a Deps, built once.
type earnState struct {
	once sync.Once
	svc  *earn.Service
	// ahead moves the earn service's clock forward (--dev: /dev/earn/advance).
	ahead atomic.Int64
}

// Earn is the earn service: savings products, subscriptions, redemptions,
// the daily settlement. Built once per Deps.
func (d *Deps) Earn() *earn.Service {
	d.earn.once.Do(func() {
		d.earn.svc = earn.New(earn.Options{Store: d.Store, Ledger: d.Ledger(), Funds: d.SpotFunds(), Coins: d.Coins, Prices: d.RefPrices(), Seller: loanSeller{d}, Now: d.earnNow,
			Log: d.Log.With().Str("service", "earn").Logger()})
	})
	return d.earn.svc
}

// earnNow is the earn service's clock: the process's, moved forward by
// /dev/earn/advance in development.
func (d *Deps) earnNow() time.Time { return d.Now().Add(time.Duration(d.earn.ahead.Load())) }

// EarnArea returns the routers of the earn function (and of tenger serve);
// with Config.Dev also /dev/earn/advance.
func (d *Deps) EarnArea() []*httpapi.Router {
	sessions := httpapi.AuthSessions(d.Auth())
	out := []*httpapi.Router{httpapi.NewEarnRouter(d.Earn(), d.APIOptions("earn", sessions))}
	if d.Config.Dev {
		out = append(out, httpapi.NewDevEarnRouter(d.advanceEarn, d.APIOptions("dev-earn", sessions)))
	}
	return out
}

// advanceEarn moves the earn clock forward and runs the daily settlement.
func (d *Deps) advanceEarn(days int) (httpapi.DevEarnAdvance, error) {
	d.Earn()
	d.earn.ahead.Add(int64(time.Duration(days) * 24 * time.Hour))
	ctx := context.Background()
	rep, err := d.Earn().RunDue(ctx)
	if err != nil {
		return httpapi.DevEarnAdvance{}, err
	}
	return httpapi.DevEarnAdvance{Now: d.earnNow().UTC().Format(time.RFC3339), RunReport: rep}, nil
}

// SeedDevSavings gives a development install its savings and staking
// products and a launchpad sale open for three days, when none is
// configured (tenger serve --dev).
func (d *Deps) SeedDevSavings(ctx context.Context) error {
	have, err := d.Earn().SavingsProducts(ctx)
	if err != nil {
		return err
	}
	if len(have) == 0 {
		for _, p := range earn.DevSavingsProducts() {
			if _, ok := d.Coins.Coin(p.Coin); !ok {
				continue
			}
			if err := d.Earn().PutSavingsProduct(ctx, p); err != nil {
				return err
			}
		}
	}
	stakes, err := d.Earn().StakingProducts(ctx)
	if err != nil {
		return err
	}
	if len(stakes) == 0 {
		for _, p := range earn.DevStakingProducts() {
			if _, ok := d.Coins.Coin(p.Coin); !ok {
				continue
			}
			if err := d.Earn().PutStakingProduct(ctx, p); err != nil {
				return err
			}
		}
	}
	sales, err := d.Earn().LaunchProjects(ctx)
	if err != nil || len(sales) > 0 {
		return err
	}
	for _, p := range earn.DevLaunchProjects(d.earnNow()) {
		if err := d.Earn().PutLaunchProject(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// StartEarnScheduler runs the savings' daily settlement and the resume of
// interrupted subscriptions and redemptions every minute until Close (the
// process that runs the engine: tenger serve; in AWS an EventBridge
// schedule invokes the earn function's run).
func (d *Deps) StartEarnScheduler(ctx context.Context) {
	stop := d.Earn().StartScheduler(ctx, time.Minute)
	d.onClose(func() error { stop(); return nil })
}

// walletEarn gives the wallet's earn view its figures from the earn
// service, built when first asked (the earn service needs the wallet's
// ledger).
type walletEarn struct{ d *Deps }

func (w walletEarn) EarnFigures(ctx context.Context, uid string) (map[string]wallet.EarnFigures, error) {
	sum, err := w.d.Earn().Summary(ctx, uid)
	if err != nil {
		return nil, err
	}
	out := make(map[string]wallet.EarnFigures, len(sum))
	for coin, s := range sum {
		out[coin] = wallet.EarnFigures{Auto: s.Auto, YearRate: s.YearRate, TotalInterest: s.TotalInterest,
			InterestYesterday: s.InterestYesterday, Interest30Days: s.Interest30Days}
	}
	return out, nil
}

// LoanLiquidator is the user whose spot account sells liquidated loans'
// collateral through the books (real users' ids are 8 digits).
const LoanLiquidator = "loan-liquidator"

// loanSeller sells a liquidated loan's collateral with a market order of
// LoanLiquidator: the collateral comes from transit into its spot account,
// the order's client id is the loan's reference (a second call finds the
// same order), and the proceeds (its fee paid) and any unsold part go back
// to transit.
type loanSeller struct{ d *Deps }

func (s loanSeller) Sell(ctx context.Context, ref, base, quote string, volume decimal.Decimal) (decimal.Decimal, decimal.Decimal, error) {
	pair, ok := s.d.Markets.Pair(strings.ToLower(base + quote))
	if !ok {
		return decimal.Zero, decimal.Zero, fmt.Errorf("earn: no %s/%s pair to sell a loan's collateral on", base, quote)
	}
	funds := s.d.SpotFunds()
	move := func(suffix, coin string, amount decimal.Decimal) spotfunds.Move {
		return spotfunds.Move{Ref: ref + suffix, UID: LoanLiquidator, Coin: coin, Amount: amount, Other: spotfunds.TransitAccount(), Reason: "loan_liquidation"}
	}
	if err := funds.Credit(ctx, move(":in", base, volume)); err != nil {
		return decimal.Zero, decimal.Zero, err
	}
	cid := strings.ReplaceAll(ref, ":", "-")
	sell := volume.Truncate(pair.VolumePrecision)
	if pair.LotSize.IsPositive() {
		sell = sell.Div(pair.LotSize).Floor().Mul(pair.LotSize)
	}
	o, err := s.d.Spot().OrderByClientID(ctx, LoanLiquidator, cid)
	if err != nil && sell.IsPositive() {
		if _, perr := s.d.Spot().PlaceOrder(ctx, LoanLiquidator, spot.PlaceRequest{Symbol: pair.Symbol, Side: "SELL", Type: "MARKET",
			Volume: sell.String(), ClientOrderID: cid}); perr != nil {
			return decimal.Zero, decimal.Zero, perr
		}
		if o, err = s.d.Spot().OrderByClientID(ctx, LoanLiquidator, cid); err != nil {
			return decimal.Zero, decimal.Zero, err
		}
	}
	if o.Status.Open() {
		return decimal.Zero, decimal.Zero, fmt.Errorf("earn: liquidation order %s is still open", cid)
	}
	proceeds := o.DealMoney
	if o.FeeCoin == quote {
		proceeds = proceeds.Sub(o.Fee)
	}
	unsold := volume.Sub(o.DealVolume)
	if proceeds.IsPositive() {
		if err := funds.Debit(ctx, move(":out-"+quote, quote, proceeds)); err != nil {
			return decimal.Zero, decimal.Zero, err
		}
	}
	if unsold.IsPositive() {
		if err := funds.Debit(ctx, move(":out-"+base, base, unsold)); err != nil {
			return decimal.Zero, decimal.Zero, err
		}
	}
	return proceeds, unsold, nil
}
