package platform

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/markets"
	"tenger/internal/notify/outbox"
	"tenger/internal/push/hub"
	qembedded "tenger/internal/queue/embedded"
	"tenger/internal/store/embedded"
)

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
	EventsQueue   = "events"
	EventsDLQ     = "events-dlq"
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
	if d.Events, err = qdb.Queue(EventsQueue, qembedded.QueueOptions{MaxReceives: maxQueueTries, DeadLetter: EventsDLQ}); err != nil {
		_ = d.Close()
		return nil, err
	}
	h := hub.New(hub.Options{PingInterval: 30 * time.Second, Auth: PushAuth(d.Auth()), Logger: log})
	d.Push = h
	d.onClose(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return h.Close(ctx)
	})
	return &Local{Deps: d, Outbox: ob, Hub: h}, nil
}

// Start runs the local background work (the withdrawal workflow runner, the
// deposit watcher and the chain simulator) until Close, which stops it
// before the store closes.
func (l *Local) Start(ctx context.Context) error {
	funds, err := l.Funds()
	if err != nil {
		return err
	}
	funds.Start(ctx)
	l.onClose(func() error { funds.Stop(); return nil })
	return nil
}
