package platform

import (
	"math"
	"sync"
	"time"

	"tenger/internal/apikey"
	"tenger/internal/auth"
	"tenger/internal/binance"
)

// apiKeyState is the API key service of a Deps, built once.
type apiKeyState struct {
	once sync.Once
	svc  *apikey.Service
	err  error
	// cacheTTL is how long a resolved key is trusted (apikey.Options):
	// tenger serve is one process, where every change drops the cached
	// key at once, so it caches; the AWS functions leave it 0 and read
	// the key on every signed request, so a delete is immediate there too.
	cacheTTL time.Duration
}

// localAPIKeyCacheTTL is the cache of tenger serve's API key resolution.
const localAPIKeyCacheTTL = time.Minute

// APIKeys is the API key service: management for the profile area and
// resolution for the Binance-compatible API. Its secrets are sealed with
// the process's secret key under their own purpose.
func (d *Deps) APIKeys() (*apikey.Service, error) {
	d.apiKeys.once.Do(func() {
		sealer, err := auth.NewSealer(d.SecretKey, "tenger-apikey-v1")
		if err != nil {
			d.apiKeys.err = err
			return
		}
		d.apiKeys.svc = apikey.New(apikey.Options{Store: d.Store, Auth: d.Auth(), Sealer: sealer, Now: d.Now,
			Log: d.Log.With().Str("service", "apikey").Logger(), CacheTTL: d.apiKeys.cacheTTL})
	})
	return d.apiKeys.svc, d.apiKeys.err
}

// BinanceAPI is the Binance-compatible REST API (/api/v3, /sapi, /fapi,
// /dapi) on this deployment's market data, API keys, spot order entry and
// balances.
func (d *Deps) BinanceAPI() (*binance.Server, error) {
	md, err := d.MarketReader()
	if err != nil {
		return nil, err
	}
	keys, err := d.APIKeys()
	if err != nil {
		return nil, err
	}
	o := binance.Options{Markets: d.Markets, Coins: d.Coins, Data: md, Now: d.Now,
		Log: d.Log.With().Str("service", "binance").Logger(), Keys: keys, ListenKeys: keys, Trading: d.Spot(), Balances: d.Ledger(),
		WeightLimit: d.Config.APIWeightLimit, RateLimits: apiOrderLimits(d.Config.APIOrderLimit)}
	// Deposit addresses and withdrawals go through the wallet's services:
	// the same limits, workflow and records as the web's.
	funds, err := d.Funds()
	if err != nil {
		return nil, err
	}
	o.Deposits, o.Withdrawals = funds.Deposit, funds.Withdraw
	return binance.New(o), nil
}

// apiOrderLimits are the Binance-compatible API's ORDERS limits for
// Config.APIOrderLimit: that many orders per 10 seconds (0: Binance's 100)
// and, as on Binance, 2000 times as many per day.
func apiOrderLimits(per10s int) []binance.RateLimit {
	if per10s <= 0 {
		return binance.OrderRateLimits(0, 0)
	}
	const ratio = binance.DefaultOrderLimitDay / binance.DefaultOrderLimit10s
	return binance.OrderRateLimits(per10s, min(per10s, math.MaxInt/ratio)*ratio)
}
