package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/coins"
	"tenger/internal/engine"
	"tenger/internal/engine/lease"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/push"
	"tenger/internal/risk"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

// world is what the engine tasks share in AWS, on embedded ports in a temp
// dir: the table (here the embedded store) and the EFS directory.
type world struct {
	t     *testing.T
	st    store.Store
	coins *coins.Catalogue
	cat   *markets.Catalogue
	efs   string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	st, err := embedded.Open(filepath.Join(dir, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	return &world{t: t, st: st, coins: cc, cat: markets.Defaults(), efs: filepath.Join(dir, "efs")}
}

// deps are a process's ports on the world (pusher may be nil).
func (w *world) deps(pusher push.Pusher) *platform.Deps {
	return &platform.Deps{Store: w.st, Coins: w.coins, Markets: w.cat, Push: pusher, Log: zerolog.Nop(), Now: time.Now}
}

// task is one engine task running until stop (SIGTERM).
type task struct {
	svc  *service
	d    *platform.Deps
	stop func() error
	lost chan error
}

func (w *world) task(name string, pusher push.Pusher) *task {
	w.t.Helper()
	d := w.deps(pusher)
	if pusher != nil {
		d.UseAsyncMarketPush()
	}
	svc := newService(d, config{DataDir: w.efs, Listen: "127.0.0.1:0", Owner: name, LeaseTTL: 400 * time.Millisecond, Key: testKey}, zerolog.Nop())
	tk := &task{svc: svc, d: d, lost: make(chan error, 1)}
	svc.onLost = func(err error) { tk.lost <- err }
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- svc.run(ctx) }()
	var once sync.Once
	var err error
	tk.stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-ran:
			case <-time.After(15 * time.Second):
				err = errors.New("the engine task did not stop within 15 s")
			}
			err = errors.Join(err, d.Close())
		})
		return err
	}
	w.t.Cleanup(func() { _ = tk.stop() })
	return tk
}

// waitRole waits until the task has the role.
func (tk *task) waitRole(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for tk.svc.currentRole() != want {
		if time.Now().After(deadline) {
			t.Fatalf("role %s, want %s", tk.svc.currentRole(), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// client is an API function's ports: it reaches the active engine through
// the lease item, as platform.NewAWS wires it.
func (w *world) client() *platform.Deps {
	d := w.deps(nil)
	d.EngineRemote = platform.NewRemoteEngine(w.st, w.coins, testKey)
	return d
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func credit(t *testing.T, d *platform.Deps, uid, coin, amount string) {
	t.Helper()
	if err := d.SpotFunds().Credit(context.Background(), spotfunds.Move{Ref: "dep:" + uid + ":" + coin, UID: uid, Coin: coin,
		Amount: dec(amount), Other: ledger.ChainAccount("TEST"), Reason: "deposit"}); err != nil {
		t.Fatalf("credit %s %s: %v", uid, coin, err)
	}
}

func place(t *testing.T, d *platform.Deps, uid, side, price, volume string) string {
	t.Helper()
	id, err := d.Spot().PlaceOrder(context.Background(), uid, spot.PlaceRequest{Symbol: "btcusdt", Side: side, Type: "LIMIT",
		Price: price, Volume: volume})
	if err != nil {
		t.Fatalf("place %s %s@%s: %v", side, volume, price, err)
	}
	return id
}

func balance(t *testing.T, d *platform.Deps, uid, coin string) ledger.Balance {
	t.Helper()
	b, err := d.Ledger().Balance(context.Background(), ledger.UserAccount(uid, ledger.Spot), coin)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A function's orders and deposits reach the active engine through the
// lease; the standby serves nothing until the active task stops, then
// takes over with every balance and order of the journal they share, and
// the function follows it without a restart.
func TestStandbyTakesOverWithTheBalances(t *testing.T) {
	w := newWorld(t)
	a := w.task("task-a", nil)
	a.waitRole(t, roleActive)
	b := w.task("task-b", nil)
	fn := w.client()
	const seller, buyer = "10000001", "10000002"
	credit(t, fn, seller, "BTC", "1")
	credit(t, fn, buyer, "USDT", "10000")
	place(t, fn, seller, "SELL", "50000", "0.1")
	place(t, fn, buyer, "BUY", "50000", "0.1")
	// An order the balance cannot cover is refused in the request.
	if _, err := fn.Spot().PlaceOrder(context.Background(), buyer, spot.PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: "LIMIT",
		Price: "50000", Volume: "1"}); err == nil || !strings.Contains(err.Error(), "nsufficient") {
		t.Fatalf("an order beyond the balance: %v", err)
	}
	if got := balance(t, fn, buyer, "BTC"); !got.Available.Equal(dec("0.0999")) {
		t.Fatalf("the buyer's BTC after the trade: %+v", got)
	}

	// The standby is healthy, holds nothing and refuses commands.
	if b.svc.currentRole() != roleStandby {
		t.Fatalf("b is %s", b.svc.currentRole())
	}
	if code, v := getHealth(t, b.svc.healthHandler()); code != http.StatusOK || v.Role != roleStandby {
		t.Fatalf("standby health %d %+v", code, v)
	}
	resp, err := http.Post("http://"+b.svc.bound.Load().(string)+"/engine/submit", "application/octet-stream", strings.NewReader("x"))
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("the standby's endpoint: %v %v", resp, err)
	}
	resp.Body.Close()
	if code, v := getHealth(t, a.svc.healthHandler()); code != http.StatusOK || v.Role != roleActive || v.Seq == 0 || v.Term != 1 {
		t.Fatalf("active health %d %+v", code, v)
	}

	if err := a.stop(); err != nil {
		t.Fatal(err)
	}
	b.waitRole(t, roleActive)
	if h, ok, _ := lease.Lookup(context.Background(), w.st, platform.EngineLease, time.Now()); !ok || h.Owner != "task-b" || h.Term != 2 {
		t.Fatalf("the lease after the takeover: %+v %v", h, ok)
	}
	// The buyer sells what it bought on a: b replayed a's journal.
	place(t, fn, buyer, "SELL", "60000", "0.0999")
	if got := balance(t, fn, buyer, "BTC"); !got.Available.IsZero() || !got.Frozen.Equal(dec("0.0999")) {
		t.Fatalf("the buyer's BTC on b: %+v", got)
	}
	if _, err := fn.Spot().PlaceOrder(context.Background(), buyer, spot.PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: "LIMIT",
		Price: "60000", Volume: "0.0001"}); err == nil {
		t.Fatal("b let the buyer sell BTC it holds for an order already")
	}
	problems, err := b.d.Engine.Verify(context.Background())
	if err != nil || len(problems) != 0 {
		t.Fatalf("engine and store disagree on b: %v %v", problems, err)
	}
}

// An engine whose lease another took stops serving at once.
func TestLostLeaseStopsTheEngine(t *testing.T) {
	w := newWorld(t)
	a := w.task("task-a", nil)
	a.waitRole(t, roleActive)
	// Another owner holds it now (as after a partition that outlasted it).
	if err := w.st.Put(context.Background(), store.Item{store.AttrPK: "ENGLEASE", store.AttrSK: platform.EngineLease,
		"owner": "task-x", "term": int64(9), "expiresAt": time.Now().Add(time.Hour).UnixMilli(), "addr": "10.9.9.9:8082"}, nil); err != nil {
		t.Fatal(err)
	}
	// Before it notices, the engine still applies a command in process; its
	// projection carries the old term and the store refuses it (fencing).
	note, _ := json.Marshal(struct {
		Other ledger.Account `json:"o"`
	}{ledger.ChainAccount("TEST")}) // spotfunds' note: the credit's other side
	res := a.d.Engine.Submit(context.Background(), engine.Command{Kind: engine.KindCredit, Ref: "dep:fenced",
		User: engine.UserNumber("10000001"), UserID: "10000001", Account: risk.KindSpot, Coin: "BTC", Amount: 100_000_000, Note: note})
	if res.Code != engine.OK {
		t.Fatalf("the credit: %s %s", res.Code, res.Reason)
	}
	select {
	case err := <-a.lost:
		if !errors.Is(err, lease.ErrLost) {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the engine kept serving without its lease")
	}
	if code, v := getHealth(t, a.svc.healthHandler()); code != http.StatusServiceUnavailable || v.Role != roleFailed {
		t.Fatalf("health after the loss %d %+v", code, v)
	}
	resp, err := http.Post("http://"+a.svc.bound.Load().(string)+"/engine/submit", "application/octet-stream", strings.NewReader("x"))
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("the endpoint after the loss: %v %v", resp, err)
	}
	resp.Body.Close()
	// Stopping writes what the projection has queued, which is nothing of
	// a fenced-off engine's, and does not wait for it.
	if err := a.stop(); err != nil {
		t.Fatal(err)
	}
	if got := balance(t, a.d, "10000001", "BTC"); !got.Available.IsZero() {
		t.Fatalf("a fenced-off engine's credit reached the store: %+v", got)
	}
}

func getHealth(t *testing.T, h http.Handler) (int, healthView) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	var v healthView
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("healthz body %q: %v", rec.Body.String(), err)
	}
	return rec.Code, v
}

// The healthcheck subcommand exits 0 for a healthy task and 1 otherwise.
func TestHealthcheck(t *testing.T) {
	w := newWorld(t)
	svc := newService(w.deps(nil), config{}, zerolog.Nop())
	srv := httptest.NewServer(svc.healthHandler())
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	if code := healthcheck(addr); code != 0 {
		t.Fatalf("a standby: exit %d", code)
	}
	svc.role.Store(roleStopping)
	if code := healthcheck(addr); code != 1 {
		t.Fatalf("a stopping task: exit %d", code)
	}
	if code := healthcheck("127.0.0.1:1"); code != 1 {
		t.Fatalf("no task: exit %d", code)
	}
}

// The advertised address is the task's private IPv4 address from the ECS
// task metadata endpoint v4, with the endpoint's port.
func TestTaskAddressFromMetadata(t *testing.T) {
	meta := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v4/abc/task" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"Cluster":"c","TaskARN":"arn:aws:ecs:ap-east-1:1:task/c/1f2e","Containers":[{"Name":"engine",` +
			`"Networks":[{"NetworkMode":"awsvpc","IPv4Addresses":["10.0.1.23"]}]}]}`))
	}))
	defer meta.Close()
	t.Setenv("ENGINE_ADVERTISE", "")
	t.Setenv("ECS_CONTAINER_METADATA_URI_V4", meta.URL+"/v4/abc")
	addr, owner, err := advertise(context.Background(), ":8082")
	if err != nil || addr != "10.0.1.23:8082" || owner != "arn:aws:ecs:ap-east-1:1:task/c/1f2e" {
		t.Fatalf("%q %q %v", addr, owner, err)
	}
	t.Setenv("ECS_CONTAINER_METADATA_URI_V4", "")
	if _, _, err := advertise(context.Background(), ":8082"); err == nil {
		t.Fatal("an address without metadata or ENGINE_ADVERTISE")
	}
}
