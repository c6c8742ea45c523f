package platform

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/contracts"
	"tenger/internal/futures"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/notify/outbox"
	"tenger/internal/push/hub"
	"tenger/internal/refprice"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store/embedded"
	"tenger/internal/upload/diskstore"
	"tenger/internal/wallet"
)

// engineDir holds the engine's journal and snapshots under the data
// directory; oldEngineDir is the matching engine's of the design before
// the engine owned the balances.
const (
	engineDir    = "spot-engine"
	oldEngineDir = "engine"
)

// OpenEngine starts the engine that owns the spot balances, with its
// store projection and market data (spot.Runtime), under
// dataDir/spot-engine, and sets d.Engine (Close closes it). old is a path
// the engine of the design before this one wrote: a directory that has it
// but no engine directory is refused, since its balances live in the store
// alone (an empty engine would refuse every order and its projection
// would overwrite them).
func OpenEngine(d *Deps, dataDir, old string) error {
	if _, err := os.Stat(old); err == nil {
		if _, err := os.Stat(filepath.Join(dataDir, engineDir)); os.IsNotExist(err) {
			return fmt.Errorf("data directory %s was written before the engine owned the spot balances; "+
				"start from a new data directory (balances are not carried over)", dataDir)
		}
	}
	md, err := d.MarketData()
	if err != nil {
		return err
	}
	ro := spot.RuntimeOptions{Dir: filepath.Join(dataDir, engineDir), Store: d.Store,
		Coins: d.Coins, Markets: d.Markets, Feed: md, Prices: d.RefPrices(), Counter: spotfunds.Counter, Fence: d.EngineFence, Log: d.Log, Now: d.Now}
	// Perpetual futures run on the same engine: their contracts' books,
	// items and market data beside the pairs'.
	fr, err := d.newFuturesRuntime(&ro)
	if err != nil {
		return err
	}
	rt, err := spot.StartRuntime(context.Background(), ro)
	if err != nil {
		return err
	}
	d.Engine = rt
	d.onClose(rt.Close)
	// The futures account became the engine's: balances the store ledger
	// kept before are brought in once, before any request is served.
	var all []string
	for _, c := range d.Coins.List() {
		all = append(all, c.Symbol)
	}
	n, err := spotfunds.AdoptFutures(context.Background(), d.Store, spotfunds.Engine{Submit: rt, Decimals: rt.Decimals}, all)
	if err != nil {
		return fmt.Errorf("futures balances into the engine: %w", err)
	}
	if n > 0 {
		d.Log.Info().Int("balances", n).Msg("engine: futures balances adopted from the store ledger")
	}
	if err := fr.Start(context.Background(), rt); err != nil {
		return fmt.Errorf("futures: %w", err)
	}
	// Closed before the engine (closers run in reverse).
	d.onClose(func() error { fr.Close(); return nil })
	return nil
}

// Local is the local runtime: Deps plus the adapters only it has.
type Local struct {
	*Deps
	// Outbox records SMS and e-mail; /dev/outbox reads it.
	Outbox *outbox.Outbox
	// Hub is the in-process WebSocket hub served at /ws.
	Hub *hub.Hub
}

// OpenLocal opens the local runtime's ports under dataDir: store/ (the
// embedded item store), outbox/ (SMS and e-mail), and secret.key (the key
// that seals secrets at rest, created on first start).
func OpenLocal(dataDir string, cfg Config, log zerolog.Logger) (*Local, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	if cfg.Stage == "" {
		cfg.Stage = "local"
	}
	d := &Deps{Log: log, Now: time.Now, Config: cfg}
	d.apiKeys.cacheTTL = localAPIKeyCacheTTL
	var err error
	if d.Coins, err = coins.Load(dataDir); err != nil {
		return nil, err
	}
	if d.Markets, err = markets.Load(dataDir); err != nil {
		return nil, err
	}
	if d.fut.cat, err = contracts.Load(dataDir); err != nil {
		return nil, err
	}
	key, err := auth.LoadOrCreateKey(filepath.Join(dataDir, "secret.key"))
	if err != nil {
		return nil, err
	}
	d.SecretKey = key
	st, err := embedded.Open(filepath.Join(dataDir, "store"), embedded.Options{Logger: &log})
	if err != nil {
		return nil, err
	}
	d.Store = st
	d.onClose(st.Close)
	// Uploaded files (identity documents among them) are kept beside the
	// store, readable by this user only.
	if d.UploadFiles, err = diskstore.Open(filepath.Join(dataDir, "uploads")); err != nil {
		_ = d.Close()
		return nil, err
	}
	ob, err := outbox.Open(filepath.Join(dataDir, "outbox"))
	if err != nil {
		_ = d.Close()
		return nil, err
	}
	d.Notify = ob
	d.onClose(ob.Close)
	h := hub.New(hub.Options{PingInterval: 30 * time.Second, Auth: PushAuth(d.Auth()), Channels: d.knownChannels(),
		Requests: d.OrderRequests(), Logger: log})
	d.Push = h
	// The engine owns the spot balances: it is open from here on, so every
	// service built on Deps sends it their commands. It closes after the
	// hub (closers run in reverse), so no WebSocket order reaches a closed
	// engine, and after the background work Start adds.
	if err := OpenEngine(d, dataDir, filepath.Join(dataDir, oldEngineDir)); err != nil {
		_ = h.Close(context.Background())
		_ = d.Close()
		return nil, err
	}
	d.onClose(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return h.Close(ctx)
	})
	return &Local{Deps: d, Outbox: ob, Hub: h}, nil
}

// Start runs the local background work until Close, which stops it before
// the store closes: the private updates of /ws (userfeed), the withdrawal
// workflow runner, the deposit watcher and the chain simulator, the
// savings' daily settlement (with --dev its products seeded), the market
// data loop, the spot engine (journal and snapshots under dataDir/engine)
// and, when maker is true, the market-maker simulator.
func (l *Local) Start(ctx context.Context, dataDir string, maker bool) error {
	l.startUserFeed(ctx)
	funds, err := l.Funds()
	if err != nil {
		return err
	}
	// P2P orders' payment deadlines run on the same runner (p2p.go).
	funds.Runner.Register(l.P2P().TimeoutDefinition())
	funds.Start(ctx)
	l.onClose(func() error { funds.Stop(); return nil })
	l.ResumeTransfers(ctx)
	l.StartCompetitionRefresher(ctx)
	if l.Config.Dev {
		if err := l.SeedDevSavings(ctx); err != nil {
			return err
		}
	}
	l.StartEarnScheduler(ctx)
	md, err := l.MarketData()
	if err != nil {
		return err
	}
	var m *marketdata.Maker
	if maker {
		m = marketdata.NewMaker(marketdata.MakerOptions{Placer: l.Spot(), Accounts: faucet{led: l.Ledger(), funds: l.SpotFunds()}, Markets: l.Markets,
			Seed: wallet.SeededPrices(), Last: md.LastPrice, Log: l.Log})
		if l.Config.DevHistory > 0 {
			n := uint64(time.Now().UnixNano())
			seeded, err := md.SeedHistory(ctx, m.SeedPrices(ctx), l.Config.DevHistory, rand.New(rand.NewPCG(n, n>>9|1)))
			if err != nil {
				return err
			}
			if len(seeded) > 0 {
				l.Log.Info().Strs("symbols", seeded).Dur("span", l.Config.DevHistory).Msg("market history seeded for the charts")
			}
		}
	}
	md.Start()
	// The books the engine recovered replace the depth the market data
	// stored.
	l.Engine.PublishDepth()
	l.onClose(func() error { md.Stop(); return nil })
	fmd, err := l.FuturesMarketData()
	if err != nil {
		return err
	}
	if maker && l.Config.DevHistory > 0 {
		// The contracts' charts start with made-up history too, ending at
		// their index (the reference price of their index pair).
		prices := map[string]decimal.Decimal{}
		for _, c := range l.Contracts().List() {
			if p, ok, err := l.RefPrices().Price(ctx, strings.ToLower(c.IndexPair)); err == nil && ok {
				prices[futures.MarketSymbol(c)] = p
			}
		}
		n := uint64(time.Now().UnixNano())
		if _, err := fmd.SeedHistory(ctx, prices, l.Config.DevHistory, rand.New(rand.NewPCG(n, n>>5|1))); err != nil {
			return err
		}
	}
	fmd.Start()
	l.onClose(func() error { fmd.Stop(); return nil })
	// The reference prices sample the books the engine publishes to md;
	// operators pin them in DATA/prices.json (tenger prices pin).
	if err := l.StartRefPrices(ctx, md, refprice.FileSource{Dir: dataDir}); err != nil {
		return err
	}
	// Pairs added to markets.json open without a restart (markets/reload.go).
	wctx, stopWatch := context.WithCancel(ctx)
	go l.Markets.Watch(wctx, markets.FileSource{Dir: dataDir}, 2*time.Second, l.Log)
	l.onClose(func() error { stopWatch(); return nil })
	if maker {
		fm := futures.NewMaker(l.Futures(), futuresFaucet{led: l.Ledger(), funds: l.SpotFunds()}, l.Log)
		fctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := fm.Run(fctx); err != nil && ctx.Err() == nil {
				l.Log.Warn().Err(err).Msg("futures market maker stopped")
			}
		}()
		l.onClose(func() error { cancel(); <-done; return nil })
	}
	if m != nil {
		mctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := m.Run(mctx); err != nil && ctx.Err() == nil {
				l.Log.Warn().Err(err).Msg("market maker stopped")
			}
		}()
		l.onClose(func() error { cancel(); <-done; return nil })
	}
	return nil
}

// faucet funds the market-maker users locally. Their coins come from an
// external "dev-faucet" account, as a deposit would, so the audit stays
// clean: the faucet's negative balance is the money that came in.
type faucet struct {
	led   *ledger.Ledger
	funds spotfunds.Funds
}

// EnsureMakerUser uses the maker's name as its user id: the ids of real
// users are 8 digits, so they never collide.
func (f faucet) EnsureMakerUser(_ context.Context, name string) (string, error) { return name, nil }

// Fund tops the user's spot balance up to at least amount. The reference
// names the balance it starts from, so a retry after a crash is a no-op.
func (f faucet) Fund(ctx context.Context, uid, coin string, amount decimal.Decimal) error {
	b, err := f.led.Balance(ctx, ledger.UserAccount(uid, ledger.Spot), coin)
	if err != nil {
		return err
	}
	diff := amount.Sub(b.Total())
	if !diff.IsPositive() {
		return nil
	}
	return f.funds.Credit(ctx, spotfunds.Move{Ref: "faucet:" + uid + ":" + coin + ":" + b.Total().String(), UID: uid, Coin: coin,
		Amount: diff, Other: ledger.ChainAccount("dev-faucet"), Reason: "dev_faucet"})
}
