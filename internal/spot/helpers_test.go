package spot

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

const (
	alice = "10000001"
	bob   = "10000002"
	carol = "10000003"
)

// env is one exchange: a store, the runtime (the engine that owns the
// balances, its store projection and the market-data feed) on a data
// directory, the order service on it, and spot funds for deposits.
type env struct {
	t   testing.TB
	ctx context.Context
	// raw is the store; the runtime writes through st, which a test can
	// kill (dyingStore), and a restarted runtime gets a live one.
	raw   store.Store
	st    *dyingStore
	led   *ledger.Ledger
	coins *coins.Catalogue
	cat   *markets.Catalogue
	rt    *Runtime
	svc   *Service
	funds spotfunds.Funds
	feed  marketdata.Feed
	rec   *recFeed
	dir   string // the engine's journal and snapshots

	// What the runtime and the service are started with, each start.
	policy  journal.Policy
	prices  RefPrices
	feeCoin FeeCoinSwitch
	now     func() time.Time
	log     zerolog.Logger
}

// recFeed records what the runtime publishes.
type recFeed struct {
	mu     sync.Mutex
	trades []marketdata.Trade
	depths int
	asks   map[string][]marketdata.Level // last asks per symbol
}

func (f *recFeed) OnTrades(symbol string, ts []marketdata.Trade) {
	f.mu.Lock()
	f.trades = append(f.trades, ts...)
	f.mu.Unlock()
}

func (f *recFeed) OnDepth(symbol string, bids, asks []marketdata.Level, at time.Time) {
	f.mu.Lock()
	f.depths++
	if f.asks == nil {
		f.asks = map[string][]marketdata.Level{}
	}
	f.asks[symbol] = asks
	f.mu.Unlock()
}

// published is what the feed received so far: the trades, the number of
// depth updates and the last asks of symbol.
func (f *recFeed) published(symbol string) ([]marketdata.Trade, int, []marketdata.Level) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]marketdata.Trade(nil), f.trades...), f.depths, f.asks[symbol]
}

// newEnv starts an exchange with the default catalogues; opts change what
// it starts with (prices, fee-coin switch, clock, feed, journal policy).
func newEnv(t testing.TB, opts ...func(*env)) *env {
	t.Helper()
	dir := t.TempDir()
	raw, err := embedded.Open(dir+"/store", embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = raw.Close() })
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	rec := &recFeed{}
	e := &env{t: t, ctx: context.Background(), raw: raw, led: ledger.New(raw, nil), coins: cc, cat: markets.Defaults(),
		feed: rec, rec: rec, dir: dir + "/engine", policy: journal.NoFsync, log: zerolog.Nop()}
	for _, o := range opts {
		o(e)
	}
	e.start()
	t.Cleanup(func() { _ = e.rt.Close() })
	return e
}

// start starts the runtime on the env's directories and the service on it.
// Snapshots are written only when the runtime closes.
func (e *env) start() {
	e.t.Helper()
	e.st = &dyingStore{Store: e.raw}
	rt, err := StartRuntime(e.ctx, RuntimeOptions{Dir: e.dir, Policy: e.policy, Store: e.st, Coins: e.coins, Markets: e.cat,
		Feed: e.feed, Prices: e.prices, Counter: spotfunds.Counter, SnapshotEvery: time.Hour, Log: e.log, Now: e.now})
	if err != nil {
		e.t.Fatal(err)
	}
	e.rt = rt
	e.svc = New(Options{Store: e.raw, Markets: e.cat, Engine: rt, FeeCoin: e.feeCoin, Prices: e.prices, Now: e.now, Log: zerolog.Nop()})
	e.funds = spotfunds.Engine{Submit: rt, Decimals: rt.Decimals}
}

// restart stops the runtime cleanly (it writes a snapshot) and starts
// another on the same directories.
func (e *env) restart() {
	e.t.Helper()
	if err := e.rt.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.start()
}

// crash stops the runtime as kill -9 would: the engine's journal tail not
// yet written is lost, no snapshot is written, and the projection writes
// nothing more once its store is dead (dyingStore); then another runtime
// starts on the same directories. (With the store alive, the projection
// writes what it has queued first, so no two processes write at once.)
func (e *env) crash() {
	e.t.Helper()
	rt := e.rt
	rt.Engine.Crash()
	close(rt.stop)
	rt.done.Wait()
	if !e.st.dead.Load() {
		rt.runner.Close()
	}
	rt.closed.Do(func() {}) // nothing is left to close
	e.start()
}

// wantSameAfter restarts the exchange with restart (env.restart, env.crash)
// and checks that the engine comes back in the same state and, once the
// store shows everything, with the same balances of users' coins: nothing
// is lost and nothing is written twice.
func (e *env) wantSameAfter(restart func(), users, coins []string) {
	e.t.Helper()
	e.drain()
	before, hash := e.balances(users, coins), e.engineHash()
	restart()
	if got := e.engineHash(); got != hash {
		e.t.Fatalf("the engine came back with state hash %x, not %x", got, hash)
	}
	e.drain()
	if after := e.balances(users, coins); after != before {
		e.t.Fatalf("the restart changed balances:\n%s\n%s", before, after)
	}
}

// drain waits until the store shows every command the engine applied and
// checks that every balance the engine owns is the store's.
func (e *env) drain() {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	problems, err := e.rt.Verify(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	if len(problems) > 0 {
		e.t.Fatalf("the store and the engine disagree:\n%s", strings.Join(problems, "\n"))
	}
}

// engineHash is the engine's state hash (books, balances, sequence).
func (e *env) engineHash() uint64 {
	var h uint64
	e.rt.Engine.Read(func(s *engine.State) { h = s.StateHash() })
	return h
}

// bookHash is the state hash of one pair's book.
func (e *env) bookHash(symbol string) uint64 {
	var h uint64
	e.rt.Engine.Read(func(s *engine.State) {
		if b := s.Book(symbolNum(symbol)); b != nil {
			h = b.StateHash()
		}
	})
	return h
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func (e *env) deposit(uid, coin, amt string) {
	e.t.Helper()
	if err := e.funds.Credit(e.ctx, spotfunds.Move{Ref: "dep:" + uid + ":" + coin + ":" + amt, UID: uid, Coin: coin, Amount: dec(amt),
		Other: ledger.ChainAccount("TEST"), Reason: "deposit"}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) place(uid string, r PlaceRequest) string {
	e.t.Helper()
	id, err := e.svc.PlaceOrder(e.ctx, uid, r)
	if err != nil {
		e.t.Fatalf("place %+v: %v", r, err)
	}
	return id
}

func limit(sym, side, price, vol string) PlaceRequest {
	return PlaceRequest{Symbol: sym, Side: side, Type: TypeLimit, Price: price, Volume: vol}
}

func spotAccount(uid string) ledger.Account { return ledger.UserAccount(uid, ledger.Spot) }

// balance is the user's spot balance as the store shows it; uid "FEES" is
// the account the engine's fees go to.
func (e *env) balance(uid, coin string) ledger.Balance {
	e.t.Helper()
	a := spotAccount(uid)
	if uid == "FEES" {
		a = ledger.EngineFeeAccount()
	}
	b, err := e.led.Balance(e.ctx, a, coin)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

func (e *env) wantBal(uid, coin, avail, frozen string) {
	e.t.Helper()
	if b := e.balance(uid, coin); !b.Available.Equal(dec(avail)) || !b.Frozen.Equal(dec(frozen)) {
		e.t.Fatalf("%s %s = %s/%s, want %s/%s", uid, coin, b.Available, b.Frozen, avail, frozen)
	}
}

func (e *env) order(uid, id string) Order {
	e.t.Helper()
	o, err := e.svc.GetOrder(e.ctx, uid, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return o
}

func (e *env) wantOrder(uid, id string, st Status, deal, money, fee string) {
	e.t.Helper()
	o := e.order(uid, id)
	if o.Status != st || !o.DealVolume.Equal(dec(deal)) || !o.DealMoney.Equal(dec(money)) || !o.Fee.Equal(dec(fee)) {
		e.t.Fatalf("order %s: status %s deal %s money %s fee %s; want %s %s %s %s", id, o.Status.Text(),
			o.DealVolume, o.DealMoney, o.Fee, st.Text(), deal, money, fee)
	}
}

// wantReason checks why an order ended, as clients see it (end_reason).
func (e *env) wantReason(uid, id, reason string) {
	e.t.Helper()
	if got := e.order(uid, id).View(2).EndReason; got != reason {
		e.t.Fatalf("order %s: end_reason %q, want %q", id, got, reason)
	}
}

// audit proves the store's postings explain its balances.
func (e *env) audit() {
	e.t.Helper()
	rep, err := e.led.Audit(e.ctx, "BTC", "USDT", "ETH", "MNT", "TRX", "XRP", "TON")
	if err != nil {
		e.t.Fatal(err)
	}
	if !rep.Clean() {
		var sb strings.Builder
		rep.Write(&sb)
		e.t.Fatalf("audit not clean:\n%s", sb.String())
	}
}

// balances lists the users' spot balances of coins, for comparisons.
func (e *env) balances(users, coins []string) string {
	e.t.Helper()
	var sb strings.Builder
	for _, u := range users {
		for _, c := range coins {
			b := e.balance(u, c)
			sb.WriteString(u + " " + c + " " + b.Available.String() + "/" + b.Frozen.String() + "\n")
		}
	}
	return sb.String()
}

func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
}

// dyingStore fails every write once dead, as a killed process writes
// nothing more.
type dyingStore struct {
	store.Store
	dead atomic.Bool
}

func (s *dyingStore) Transact(ctx context.Context, ops []store.Op) error {
	if s.dead.Load() {
		return errors.New("dead")
	}
	return s.Store.Transact(ctx, ops)
}

func (s *dyingStore) Put(ctx context.Context, it store.Item, c store.Cond) error {
	if s.dead.Load() {
		return errors.New("dead")
	}
	return s.Store.Put(ctx, it, c)
}

func (s *dyingStore) Update(ctx context.Context, k store.Key, u *store.Update, c store.Cond) (store.Item, error) {
	if s.dead.Load() {
		return nil, errors.New("dead")
	}
	return s.Store.Update(ctx, k, u, c)
}

// staleStore answers the read of one key with an item read earlier, as an
// API process that read an order before the engine changed it further.
type staleStore struct {
	store.Store
	key  store.Key
	item store.Item
}

func (s staleStore) Get(ctx context.Context, k store.Key) (store.Item, error) {
	if k == s.key {
		return s.item.Clone(), nil
	}
	return s.Store.Get(ctx, k)
}

// staleService is the order service of an API process that still sees
// order id as it is now, whatever the engine does to it next.
func (e *env) staleService(id string) *Service {
	e.t.Helper()
	oid, err := parseOrderID(id)
	if err != nil {
		e.t.Fatal(err)
	}
	it, err := e.raw.Get(e.ctx, orderKey(oid))
	if err != nil {
		e.t.Fatal(err)
	}
	return New(Options{Store: staleStore{Store: e.raw, key: orderKey(oid), item: it}, Markets: e.cat, Engine: e.rt, Log: zerolog.Nop()})
}
