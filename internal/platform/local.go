package platform

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/notify/outbox"
	"tenger/internal/push/hub"
	qembedded "tenger/internal/queue/embedded"
	"tenger/internal/refprice"
	"tenger/internal/spot"
	"tenger/internal/store/embedded"
	"tenger/internal/wallet"
)

// localEngineBatch is the most commands the local engine takes per batch.
// Receiving from the embedded queue costs nothing per message, and every
// batch has fixed costs (a journal fsync, the stored batch record, market
// data), so under load larger batches settle more orders per second:
// tenger bench at 64 connections settled a median 2.82k orders/s with 1024
// against 2.53k with the engine's default of 256 (five alternated runs),
// and finished settling 130–320 ms after the last acknowledgement instead
// of 690–960 ms. The engine on Fargate keeps the default: each SQS receive
// is a network round trip of at most ten messages.
const localEngineBatch = 1024

// Local is the local runtime: Deps plus the adapters only it has.
type Local struct {
	*Deps
	// Outbox records SMS and e-mail; /dev/outbox reads it.
	Outbox *outbox.Outbox
	// Hub is the in-process WebSocket hub served at /ws.
	Hub *hub.Hub
}

// Queue names, shared with the AWS runtime's queue stack.
const (
	OrdersQueue   = "orders"
	OrdersDLQ     = "orders-dlq"
	maxQueueTries = 5
)

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
	var err error
	if d.Coins, err = coins.Load(dataDir); err != nil {
		return nil, err
	}
	if d.Markets, err = markets.Load(dataDir); err != nil {
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
	ob, err := outbox.Open(filepath.Join(dataDir, "outbox"))
	if err != nil {
		_ = d.Close()
		return nil, err
	}
	d.Notify = ob
	d.onClose(ob.Close)
	qdb, err := qembedded.Open(filepath.Join(dataDir, "queues"), qembedded.Options{Logger: log})
	if err != nil {
		_ = d.Close()
		return nil, err
	}
	d.onClose(qdb.Close)
	if d.Orders, err = qdb.Queue(OrdersQueue, qembedded.QueueOptions{MaxReceives: maxQueueTries, DeadLetter: OrdersDLQ}); err != nil {
		_ = d.Close()
		return nil, err
	}
	h := hub.New(hub.Options{PingInterval: 30 * time.Second, Auth: PushAuth(d.Auth()), Channels: marketdata.KnownChannel(d.Markets),
		Requests: d.OrderRequests(), Logger: log})
	d.Push = h
	d.onClose(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return h.Close(ctx)
	})
	return &Local{Deps: d, Outbox: ob, Hub: h}, nil
}

// Start runs the local background work until Close, which stops it before
// the store closes: the private updates of /ws (userfeed), the withdrawal
// workflow runner, the deposit watcher and the chain simulator, the market
// data loop, the spot engine (journal and snapshots under dataDir/engine)
// and, when maker is true, the market-maker simulator.
func (l *Local) Start(ctx context.Context, dataDir string, maker bool) error {
	l.startUserFeed(ctx)
	funds, err := l.Funds()
	if err != nil {
		return err
	}
	funds.Start(ctx)
	l.onClose(func() error { funds.Stop(); return nil })
	md, err := l.MarketData()
	if err != nil {
		return err
	}
	md.Start()
	l.onClose(func() error { md.Stop(); return nil })
	// The reference prices sample the books the engine publishes to md;
	// operators pin them in DATA/prices.json (tenger prices pin).
	if err := l.StartRefPrices(ctx, md, refprice.FileSource{Dir: dataDir}); err != nil {
		return err
	}
	eng, err := spot.NewEngine(ctx, spot.EngineOptions{Store: l.Store, Ledger: l.Ledger(), Markets: l.Markets,
		Orders: l.Orders, DataDir: filepath.Join(dataDir, "engine"), Feed: md, Prices: l.RefPrices(), Log: l.Log, Now: l.Now,
		Exclusive: true, Batch: localEngineBatch})
	if err != nil {
		return err
	}
	eng.Start()
	l.onClose(eng.Stop)
	// Pairs added to markets.json open without a restart (markets/reload.go).
	wctx, stopWatch := context.WithCancel(ctx)
	go l.Markets.Watch(wctx, markets.FileSource{Dir: dataDir}, 2*time.Second, l.Log)
	l.onClose(func() error { stopWatch(); return nil })
	if maker {
		mctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		m := marketdata.NewMaker(marketdata.MakerOptions{Placer: l.Spot(), Accounts: faucet{l.Ledger()}, Markets: l.Markets,
			Seed: wallet.SeededPrices(), Last: md.LastPrice, Log: l.Log})
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
type faucet struct{ led *ledger.Ledger }

// EnsureMakerUser uses the maker's name as its user id: the ids of real
// users are 8 digits, so they never collide.
func (f faucet) EnsureMakerUser(_ context.Context, name string) (string, error) { return name, nil }

// Fund tops the user's spot balance up to at least amount. The posting id
// names the balance it starts from, so a retry after a crash is a no-op.
func (f faucet) Fund(ctx context.Context, uid, coin string, amount decimal.Decimal) error {
	acct := ledger.UserAccount(uid, ledger.Spot)
	b, err := f.led.Balance(ctx, acct, coin)
	if err != nil {
		return err
	}
	diff := amount.Sub(b.Total())
	if !diff.IsPositive() {
		return nil
	}
	_, err = f.led.Post(ctx, ledger.Posting{ID: "faucet:" + uid + ":" + coin + ":" + b.Total().String(), Reason: "dev_faucet",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("dev-faucet"), acct, coin, diff)}})
	return err
}
