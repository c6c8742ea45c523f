// Package platform assembles Tenger's ports into one set of dependencies for
// either runtime: OpenLocal for `tenger serve` (embedded store, local
// outbox, in-process WebSocket hub) and NewAWS for the Lambda functions and
// the engine service (DynamoDB, SNS/SES, API Gateway management API).
// Services are then built from Deps the same way in both.
package platform

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/analytics"
	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/favourites"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/notify"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/refprice"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/upload"
	"tenger/internal/wallet"
)

// Config is what differs between deployments.
type Config struct {
	// Dev turns on the local simulators and /dev routes.
	Dev bool
	// Stage names the deployment ("local", "dev", "prod").
	Stage string
	// SecureCookies sets the Secure flag on cookies (behind HTTPS).
	SecureCookies bool
	// SiteOrigin is the web app's origin (CORS in AWS).
	SiteOrigin string
	// FuturesLive and WalletLive are the web app's feature flags.
	FuturesLive bool
	WalletLive  bool
	// ContentReadToken is the content service's static read token (empty = open).
	ContentReadToken string
	// MarketDataRefresh, when positive, makes the market data this process
	// serves (the /fe-ex-api/market/* calls, the tickers of the market
	// document) and values wallets with a reader of what the engine's
	// process stores, reloading a pair's data when it is older than this
	// (marketdata.Options.Refresh): the AWS functions, whose engine runs in
	// another task. Zero (tenger serve): they read the service the engine
	// feeds in this process (MarketData).
	MarketDataRefresh time.Duration
	// PriceSources lists the external sources of the reference prices
	// (refprice.ParseSources: "binance,okx"; empty: the exchange's own
	// books only). Only the process that runs the engine polls them.
	PriceSources string
	// APIWeightLimit is the request weight an IP may use per minute on
	// the Binance-compatible API (0: Binance's 6000).
	APIWeightLimit int
	// APIOrderLimit is how many orders an account may place per 10
	// seconds on the Binance-compatible API (0: Binance's 100); the day's
	// limit keeps Binance's ratio, 2000 times as many (200000).
	APIOrderLimit int
	// CodeIPSends is how many verification codes one address may have sent
	// per hour (0: auth.DefaultLimits', 50). The browser suite raises it:
	// every journey signs up and verifies from 127.0.0.1.
	CodeIPSends int
	// DevHistory is how much made-up market history the market-maker
	// simulator gives pairs that never traded, when it starts (local
	// only; 0: none).
	DevHistory time.Duration
}

// Deps are the ports every service is built from.
type Deps struct {
	Store  store.Store
	Notify notify.Sender
	// Push fans messages out to WebSocket connections.
	Push push.Pusher
	// BinancePush posts to the Binance-compatible WebSocket API's
	// connections (AWS, $BINANCE_WS_ENDPOINT; nil elsewhere): its own
	// namespace of connection items (internal/binance/wsapiaws).
	BinancePush *apigw.Fanout
	// Coins and Markets are the coin/chain and trading-pair catalogues.
	Coins   *coins.Catalogue
	Markets *markets.Catalogue
	// SecretKey seals secrets at rest (TOTP secrets); 32 random bytes.
	SecretKey []byte
	// EngineFence, set before StartEngine by an engine that holds a lease
	// (the engine task: lease.Lease.Fence), is carried by every write of
	// the engine's store projection, so an engine that lost its lease
	// writes nothing more (projector.Options.Fence). nil locally, where
	// the data directory's lock keeps one engine.
	EngineFence *store.Op
	Log         zerolog.Logger
	Now         func() time.Time
	Config      Config

	closers    []func() error
	authOnce   sync.Once
	auth       *auth.Service
	walletOnce sync.Once
	ledger     *ledger.Ledger
	wallet     *wallet.Service
	fundsOnce  sync.Once
	funds      *httpapi.Funds
	fundsErr   error
	mdOnce     sync.Once
	md         *marketdata.Service
	mdErr      error
	mdrOnce    sync.Once
	mdr        *marketdata.Service
	mdrErr     error
	spotOnce   sync.Once
	spot       *spot.Service
	// wsOrders is OrderRequests'.
	wsOrdersOnce sync.Once
	wsOrders     push.RequestFunc
	refOnce      sync.Once
	ref          *refprice.Reader
	apiKeys      apiKeyState
	account      accountState
	kyc          kycState
	p2p          p2pState
	fut          futuresState
	comp         competitionState
	earn         earnState
	// Engine is the engine that owns the spot balances, when this process
	// runs it (tenger serve, the engine task).
	Engine *spot.Runtime
	// EngineRemote reaches the engine task's endpoint (the AWS functions
	// that submit engine commands); EngineKey signs its requests.
	EngineRemote *RemoteEngine
	EngineKey    []byte
	// OriginKey is what the edge sends in awslambda.HeaderOrigin (AWS,
	// behind CloudFront): the functions serve only requests carrying it.
	OriginKey []byte
	// UploadFiles keeps the bytes of uploaded files (upload.Storage: the
	// data directory's uploads/ locally, S3 in AWS); nil: no uploads
	// (uploads.go).
	UploadFiles upload.Storage
	uploads     uploadState
}

// onClose registers a closer; Close runs them in reverse order.
func (d *Deps) onClose(f func() error) { d.closers = append(d.closers, f) }

// Close releases every port (the store last, after its users).
func (d *Deps) Close() error {
	var errs []error
	for i := len(d.closers) - 1; i >= 0; i-- {
		errs = append(errs, d.closers[i]())
	}
	return errors.Join(errs...)
}

// APIOptions are the router options of a service in this deployment.
func (d *Deps) APIOptions(service string, sessions httpapi.SessionResolver) httpapi.Options {
	return httpapi.Options{Service: service, Log: d.Log, Sessions: sessions, SecureCookies: d.Config.SecureCookies, Now: d.Now}
}

// Auth builds the accounts and sign-in service; it is also the session
// resolver of every other service's router.
// The service is built once per Deps.
func (d *Deps) Auth() *auth.Service {
	d.authOnce.Do(func() {
		o := auth.Options{Store: d.Store, Notifier: d.Notify, Now: d.Now, Log: d.Log, SecretKey: d.SecretKey,
			OnRevoke: d.disconnectUser}
		if d.Config.CodeIPSends > 0 {
			l := auth.DefaultLimits
			l.CodeIPSends = d.Config.CodeIPSends
			o.Limits = &l
		}
		d.auth = auth.New(o)
	})
	return d.auth
}

// disconnectUser is the auth service's OnRevoke: once a sign-out, password
// change or reset is stored, it closes the user's WebSocket connections
// bound by the ended sessions, so such a socket stops receiving user_orders
// and user_balances while the user's other devices keep theirs. d.Push is read at call time because the runtimes set it
// after building the auth service (whose PushAuth the hub needs); without a
// push port (an AWS function without WS_ENDPOINT) there is nothing to close.
// A failure is logged, never returned: the user's request has succeeded.
func (d *Deps) disconnectUser(ctx context.Context, r auth.Revoked) {
	p := d.Push
	if p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := p.DisconnectUser(ctx, r.UserID, r.Ended); err != nil {
		d.Log.Warn().Err(err).Str("user", r.UserID).Msg("push: closing the connections of ended sessions failed")
	}
}

// PushAuth resolves a WebSocket auth frame's session token to a user id
// and the session's id (the hash of the token).
func PushAuth(svc *auth.Service) push.AuthFunc {
	return func(ctx context.Context, token string) (string, string, bool) {
		sess, err := svc.Authenticate(ctx, token)
		if err != nil {
			return "", "", false
		}
		return sess.UserID, sess.ID, true
	}
}

// ProfileArea returns the routers of the profile area: accounts and sign-in,
// the web app's page views, the public market lists and the market data
// calls (MarketReader). `tenger serve` mounts them with the rest; the
// profile Lambda function serves exactly these.
func (d *Deps) ProfileArea() []*httpapi.Router {
	md, err := d.MarketReader()
	if err != nil {
		d.Log.Error().Err(err).Msg("market data unavailable; the market calls are not served")
		md = nil
	}
	sessions := httpapi.AuthSessions(d.Auth())
	routers := []*httpapi.Router{
		httpapi.NewProfileRouter(d.Auth(), d.APIOptions("profile", sessions)),
		httpapi.NewSiteRouter(analytics.NewRecorder(d.Store), d.APIOptions("site", sessions)),
		httpapi.NewMarketRouterWith(d.Coins, d.Markets, md, favourites.New(d.Store, d.Markets), d.APIOptions("market", sessions)),
		httpapi.NewIndexPriceRouter(d.RefPrices(), d.APIOptions("market", sessions)),
	}
	if keys, err := d.APIKeys(); err != nil {
		d.Log.Error().Err(err).Msg("API keys unavailable; the openapi calls are not served")
	} else {
		routers = append(routers, httpapi.NewAPIKeyRouter(keys, d.APIOptions("profile", sessions)))
	}
	// The account's cancellation and the support tickets (account.go).
	routers = append(routers, d.accountArea(sessions)...)
	// Corporate verification (corporate.go).
	routers = append(routers, d.corporateArea(sessions)...)
	// Individual verification and its provider's webhook (kyc.go).
	routers = append(routers, d.kycArea(sessions)...)
	// Uploads for verification and other image fields (uploads.go).
	routers = append(routers, d.uploadRouters(sessions)...)
	return routers
}

// Ledger is the book every balance change goes through (built once per Deps).
func (d *Deps) Ledger() *ledger.Ledger {
	d.walletOnce.Do(d.buildWallet)
	return d.ledger
}

// Wallet is the wallet's accounts service (built once per Deps).
func (d *Deps) Wallet() *wallet.Service {
	d.walletOnce.Do(d.buildWallet)
	return d.wallet
}

func (d *Deps) buildWallet() {
	d.ledger = ledger.New(d.Store, d.Now)
	// Valuations and the withdrawal limit follow the reference prices,
	// never the last trade price (package refprice).
	d.wallet = wallet.New(wallet.Options{Store: d.Store, Ledger: d.ledger, Funds: d.spotFunds(d.ledger), Coins: d.Coins, Auth: d.Auth(), Prices: d.RefPrices(),
		Earn: walletEarn{d}, Now: d.Now, Log: d.Log})
}

// RefPrices reads the reference prices the process that runs the engine
// forms (StartRefPrices), with the seeded table as the anchors of indexes
// that have none yet. Built once per Deps.
func (d *Deps) RefPrices() *refprice.Reader {
	d.refOnce.Do(func() {
		d.ref = refprice.NewReader(d.Store, d.refAnchors(), 0, d.Now)
	})
	return d.ref
}

// refAnchors are the seeded prices of the catalogue's coins, by index.
func (d *Deps) refAnchors() map[string]decimal.Decimal {
	seed := wallet.SeededPrices()
	out := map[string]decimal.Decimal{}
	ctx := context.Background()
	for _, c := range d.Coins.List() {
		if c.IsFiat {
			if f, _ := seed.FiatPerUSDT(ctx); f.IsPositive() {
				out[refprice.FiatIndex] = f
			}
			continue
		}
		if p, ok, _ := seed.USDTPrice(ctx, c.Symbol); ok && c.Symbol != "USDT" {
			out[refprice.IndexOf(c.Symbol)] = p
		}
	}
	return out
}

// refIndexes lists the indexes of the catalogue's coins.
func (d *Deps) refIndexes() []string { return RefIndexes(d.Coins) }

// RefIndexes lists the reference price indexes of a coin catalogue: one
// per coin other than USDT, the fiat's (usdtmnt) included.
func RefIndexes(cat *coins.Catalogue) []string {
	var names []string
	for _, c := range cat.List() {
		if c.IsFiat {
			names = append(names, refprice.FiatCoin)
			continue
		}
		names = append(names, c.Symbol)
	}
	return refprice.Indexes(names)
}

// StartRefPrices starts the service that forms the reference prices from
// the engine's books (book: the fed market data), the external sources of
// Config.PriceSources and the operator's pins; Close stops it. Only the
// process that runs the engine calls it.
func (d *Deps) StartRefPrices(ctx context.Context, book refprice.Book, pins refprice.PinSource) error {
	sources, err := refprice.ParseSources(d.Config.PriceSources, nil)
	if err != nil {
		return err
	}
	svc, err := refprice.New(ctx, refprice.Options{Store: d.Store, Symbols: d.refIndexes, Book: book, Sources: sources,
		Pins: pins, Anchors: d.refAnchors(), Now: d.Now, Log: d.Log})
	if err != nil {
		return err
	}
	svc.Start()
	d.onClose(func() error { svc.Stop(); return nil })
	return nil
}

// MarketData is the market data service the engine feeds (trades,
// tickers, klines, depth), rebuilt from the store when first built; Start
// runs its loop, which stores candles, recent trades and depth and pushes
// the market channels. The process that runs the engine builds it:
// `tenger serve`, and the engine task in AWS.
func (d *Deps) MarketData() (*marketdata.Service, error) {
	d.mdOnce.Do(func() {
		d.md, d.mdErr = marketdata.New(context.Background(), marketdata.Options{Store: d.Store, Markets: d.Markets,
			Pusher: d.Push, Log: d.Log, Now: d.Now})
	})
	return d.md, d.mdErr
}

// MarketReader is the market data the routers serve and wallets are valued
// with: MarketData itself, or with Config.MarketDataRefresh a reader of
// what the engine's process stores, which loads a pair when it is first
// asked for and reloads it when older than the refresh time (AWS: the
// functions run apart from the engine task). Built once per Deps.
func (d *Deps) MarketReader() (*marketdata.Service, error) {
	if d.Config.MarketDataRefresh <= 0 {
		return d.MarketData()
	}
	d.mdrOnce.Do(func() {
		d.mdr, d.mdrErr = marketdata.New(context.Background(), marketdata.Options{Store: d.Store, Markets: d.Markets,
			Log: d.Log, Now: d.Now, Refresh: d.Config.MarketDataRefresh})
	})
	return d.mdr, d.mdrErr
}

// Spot is the spot trading service (order entry, cancels, queries); its
// order entry goes to the engine, so d must reach one (NeedEngine).
func (d *Deps) Spot() *spot.Service {
	d.spotOnce.Do(func() {
		d.spot = spot.New(spot.Options{Store: d.Store, Markets: d.Markets, Engine: d.engine(),
			FeeCoin: d.Wallet(), Prices: d.RefPrices(), Now: d.Now, Log: d.Log})
	})
	return d.spot
}

// SpotFunds moves money on users' spot balances: through the engine that
// owns them, or the store ledger where none does.
func (d *Deps) SpotFunds() spotfunds.Funds { return d.spotFunds(d.Ledger()) }

func (d *Deps) spotFunds(led *ledger.Ledger) spotfunds.Funds {
	if e := d.engine(); e != nil {
		return spotfunds.Engine{Submit: e, Decimals: e.Decimals}
	}
	return spotfunds.Ledger{Led: led, Store: d.Store}
}

// OrderRequests answers the order-entry requests of WebSocket connections
// (order.place, order.cancel, order.amend, order.cancelAll) with the spot
// service, which it builds when the first request arrives: the hub's in
// `tenger serve`, the ws function's in AWS. Built once per Deps.
func (d *Deps) OrderRequests() push.RequestFunc {
	d.wsOrdersOnce.Do(func() {
		var once sync.Once
		var oe *httpapi.WSOrderEntry
		d.wsOrders = func(ctx context.Context, r push.Request) []byte {
			once.Do(func() { oe = httpapi.NewWSOrderEntry(d.Spot(), d.Log) })
			return oe.Serve(ctx, r)
		}
	})
	return d.wsOrders
}

// TradeArea returns the routers of spot trading.
func (d *Deps) TradeArea() []*httpapi.Router {
	return []*httpapi.Router{httpapi.NewTradeRouter(d.Spot(), d.APIOptions("trade", httpapi.AuthSessions(d.Auth())))}
}

// Funds are the deposit and withdrawal services with their workflow runner
// and deposit watcher (built once per Deps; Start runs them).
func (d *Deps) Funds() (*httpapi.Funds, error) {
	d.fundsOnce.Do(func() {
		d.funds, d.fundsErr = httpapi.NewFunds(httpapi.FundsConfig{Store: d.Store, Ledger: d.Ledger(), SpotFunds: d.SpotFunds(), Coins: d.Coins,
			Auth: d.Auth(), Wallet: d.Wallet(), Push: d.Push, Now: d.Now, Log: d.Log, Stage: d.Config.Stage, Dev: d.Config.Dev,
			// Each user's 24 h withdrawal limit is the verification level's.
			Limits: d.KYC()})
	})
	return d.funds, d.fundsErr
}

// WalletArea returns the routers of the wallet area: balances, transfers,
// rates, address book, bank accounts, trade password, deposits and
// withdrawals; with Config.Dev also the chain and bank simulators.
func (d *Deps) WalletArea() ([]*httpapi.Router, error) {
	funds, err := d.Funds()
	if err != nil {
		return nil, err
	}
	sessions := httpapi.AuthSessions(d.Auth())
	out := []*httpapi.Router{
		httpapi.NewWalletRouter(d.Wallet(), d.APIOptions("wallet", sessions)),
		funds.Router(d.APIOptions("funds", sessions)),
		httpapi.NewWalletNamedRouter(d.Auth(), d.Coins, d.Markets, favourites.New(d.Store, d.Markets), d.APIOptions("wallet-named", sessions)),
		httpapi.NewFuturesAccountRouter(d.Futures(), d.APIOptions("wallet-futures", sessions)),
	}
	if d.Config.Dev {
		out = append(out, funds.DevRouter(d.APIOptions("dev-funds", sessions)))
	}
	return out, nil
}

// ResumeTransfers finishes transfers between spot and the user's other
// accounts that a process left between their steps: at start and every
// minute, until Close. The process that runs the engine runs it (tenger
// serve, the active engine task).
func (d *Deps) ResumeTransfers(ctx context.Context) {
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			if n, err := d.Wallet().ResumeTransfers(rctx); err != nil && rctx.Err() == nil {
				d.Log.Warn().Err(err).Int("finished", n).Msg("wallet: pending transfers not all finished")
			} else if n > 0 {
				d.Log.Info().Int("finished", n).Msg("wallet: pending transfers finished")
			}
			select {
			case <-rctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	d.onClose(func() error { cancel(); <-done; return nil })
}

// StartEngine runs the engine that owns the spot balances in this process
// (the active engine task in AWS), under dataDir: it recovers the engine
// (OpenEngine), starts the market data it feeds and publishes the
// recovered books, forms the reference prices (pins from pins) and
// finishes transfers left between their steps. Close stops them.
func (d *Deps) StartEngine(ctx context.Context, dataDir string, pins refprice.PinSource) error {
	// The engine of the design before this one kept its book snapshots
	// here, beside its journal.
	if err := OpenEngine(d, dataDir, filepath.Join(dataDir, "spot-snapshots")); err != nil {
		return err
	}
	md, err := d.MarketData()
	if err != nil {
		return err
	}
	md.Start()
	d.Engine.PublishDepth()
	d.onClose(func() error { md.Stop(); return nil })
	fmd, err := d.FuturesMarketData()
	if err != nil {
		return err
	}
	fmd.Start()
	d.onClose(func() error { fmd.Stop(); return nil })
	if err := d.StartRefPrices(ctx, md, pins); err != nil {
		return err
	}
	d.ResumeTransfers(ctx)
	return nil
}
