package platform

import (
	"context"
	"sync"

	"github.com/shopspring/decimal"

	"tenger/internal/contracts"
	"tenger/internal/futures"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/push"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
)

// futuresState holds the futures services of a Deps, built once.
type futuresState struct {
	catOnce sync.Once
	cat     *contracts.Catalogue
	mcat    *markets.Catalogue
	mcatErr error

	mdOnce sync.Once
	md     *marketdata.Service
	mdErr  error

	svcOnce sync.Once
	svc     *futures.Service

	// runtime runs in the process that runs the engine.
	runtime *futures.Runtime
}

// Contracts is the perpetual contracts' catalogue (Config's data
// directory's contracts.json locally; the defaults otherwise).
func (d *Deps) Contracts() *contracts.Catalogue {
	d.futuresCatalogues()
	return d.fut.cat
}

func (d *Deps) futuresCatalogues() {
	d.fut.catOnce.Do(func() {
		if d.fut.cat == nil {
			d.fut.cat = contracts.Defaults()
		}
		d.fut.mcat, d.fut.mcatErr = futures.MarketCatalogue(d.fut.cat)
	})
}

// FuturesMarkets is the catalogue the contracts' market data is kept
// under (btcusdtperp ...).
func (d *Deps) FuturesMarkets() (*markets.Catalogue, error) {
	d.futuresCatalogues()
	return d.fut.mcat, d.fut.mcatErr
}

// knownChannels accepts the market channels of the spot pairs and of the
// contracts, and the contracts' mark channels (market_btcusdtperp_mark).
// Both the local hub and, in AWS, the ws function's adapter check
// subscriptions with it.
func (d *Deps) knownChannels() push.ChannelFunc {
	spotKnown := marketdata.KnownChannel(d.Markets)
	mcat, err := d.FuturesMarkets()
	if err != nil {
		return spotKnown
	}
	futKnown := marketdata.KnownChannel(mcat)
	markKnown := futures.KnownMarkChannel(d.Contracts())
	return func(ch string) bool { return spotKnown(ch) || futKnown(ch) || markKnown(ch) }
}

// FuturesMarketData is the contracts' market data: fed by the engine in
// its process, a reader of what it stores elsewhere (as MarketReader).
func (d *Deps) FuturesMarketData() (*marketdata.Service, error) {
	d.fut.mdOnce.Do(func() {
		mcat, err := d.FuturesMarkets()
		if err != nil {
			d.fut.mdErr = err
			return
		}
		o := marketdata.Options{Store: d.Store, Markets: mcat, Log: d.Log, Now: d.Now}
		if d.Engine == nil && d.Config.MarketDataRefresh > 0 {
			o.Refresh = d.Config.MarketDataRefresh
		} else {
			o.Pusher = d.Push
		}
		d.fut.md, d.fut.mdErr = marketdata.New(context.Background(), o)
	})
	return d.fut.md, d.fut.mdErr
}

// Futures is the futures service (/fe-co-api); its commands go to the
// engine.
func (d *Deps) Futures() *futures.Service {
	d.fut.svcOnce.Do(func() {
		d.fut.svc = futures.NewService(futures.ServiceOptions{Store: d.Store, Contracts: d.Contracts(), Engine: d.engine(),
			Decimals: d.coinDecimals, Log: d.Log.With().Str("service", "futures").Logger(), Now: d.Now})
	})
	return d.fut.svc
}

func (d *Deps) coinDecimals(coin string) int32 {
	dec, _ := spot.CoinDecimals(d.Coins, coin)
	return dec
}

// newFuturesRuntime builds the futures side of the engine this process
// runs and sets what the engine's runtime needs of it.
func (d *Deps) newFuturesRuntime(ro *spot.RuntimeOptions) (*futures.Runtime, error) {
	md, err := d.FuturesMarketData()
	if err != nil {
		return nil, err
	}
	// The marks go out on the same push port as the contracts' market
	// data (in AWS the engine task's, UseAsyncMarketPush).
	rt, err := futures.New(futures.Options{Contracts: d.Contracts(), Decimals: d.coinDecimals, Store: d.Store, Feed: md,
		Pusher: d.Push, Index: d.RefPrices().Price, Log: d.Log.With().Str("service", "futures").Logger(), Now: d.Now})
	if err != nil {
		return nil, err
	}
	rt.EngineOptions(ro)
	d.fut.runtime = rt
	return rt, nil
}

// FuturesArea returns the routers of the futures service; with Config.Dev
// also the index simulator (/dev/index).
func (d *Deps) FuturesArea() ([]*httpapi.Router, error) {
	md, err := d.FuturesMarketData()
	if err != nil {
		return nil, err
	}
	opts := d.APIOptions("futures", httpapi.AuthSessions(d.Auth()))
	out := []*httpapi.Router{httpapi.NewFuturesRouter(d.Futures(), md, opts)}
	if d.Config.Dev && d.fut.runtime != nil {
		out = append(out, httpapi.NewDevFuturesRouter(d.fut.runtime, d.APIOptions("dev-futures", httpapi.AuthSessions(d.Auth()))))
	}
	return out, nil
}

// futuresFaucet funds the futures maker locally: its coins come from the
// "dev-faucet" chain account into spot, then into futures.
type futuresFaucet struct {
	led   *ledger.Ledger
	funds spotfunds.Funds
}

func (f futuresFaucet) FundFutures(ctx context.Context, uid, coin string, amount decimal.Decimal) error {
	b, err := f.led.Balance(ctx, ledger.UserAccount(uid, ledger.Futures), coin)
	if err != nil {
		return err
	}
	diff := amount.Sub(b.Total())
	if !diff.IsPositive() {
		return nil
	}
	ref := "faucet:" + uid + ":futures:" + coin + ":" + b.Total().String()
	if err := f.funds.Credit(ctx, spotfunds.Move{Ref: ref, UID: uid, Coin: coin, Amount: diff, Other: ledger.ChainAccount("dev-faucet"),
		Reason: "dev_faucet"}); err != nil {
		return err
	}
	return f.funds.Futures(ctx, spotfunds.Move{Ref: ref + ":in", UID: uid, Coin: coin, Amount: diff, Reason: "dev_faucet"}, true)
}
