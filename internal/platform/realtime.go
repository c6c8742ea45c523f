package platform

import (
	"context"
	"strings"
	"time"

	"tenger/internal/binance"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/userfeed"
)

// startUserFeed runs the local runtime's private updates: a consumer of the
// embedded store's change feed that sends each user's order and balance
// changes to that user's authenticated /ws connections (internal/userfeed).
// It starts at the present (the feed's history is nobody's news), reads
// nothing while no connection is signed in, and stops on Close, before the
// hub and the store.
func (l *Local) startUserFeed(ctx context.Context) {
	c := &userfeed.Consumer{Feed: l.Store.Changes(), Pusher: l.Push, Translator: userfeed.New(l.Markets),
		Since: l.Now(), Watching: func() bool { return l.Hub.BoundUsers() > 0 }, Log: l.Log}
	l.runConsumerCtx(ctx, c)
}

// runConsumerCtx runs a feed consumer until ctx ends or Close.
func (l *Local) runConsumerCtx(ctx context.Context, c *userfeed.Consumer) {
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := c.Run(cctx); err != nil {
			l.Log.Error().Err(err).Msg("private updates stopped")
		}
	}()
	l.onClose(func() error { cancel(); <-done; return nil })
}

// FollowFeed runs a second reader of the store's change feed with its own
// messages (the Binance-compatible user data events), from the present,
// reading nothing while the sink has no listener; it stops on Close.
func (l *Local) FollowFeed(sink userfeed.Sink) {
	l.runConsumerCtx(context.Background(), &userfeed.Consumer{Feed: l.Store.Changes(), Sink: sink, Since: l.Now(), Log: l.Log})
}

// MarketPushCache is how long the engine task's market data publisher keeps
// a channel's subscriber list (apigw.Options.ChannelCache): a new
// subscriber waits at most that long for its first depth or ticker.
const MarketPushCache = time.Second

// MarketPushWindow is how long the engine task gathers a connection's
// market messages before it posts them as one frame (apigw.Batcher): API
// Gateway bills each message to each connection, and a busy pair's viewer
// would otherwise get a dozen a second.
const MarketPushWindow = 500 * time.Millisecond

// UseAsyncMarketPush prepares the push port of a process whose publisher
// is the market data service (the AWS engine task) before MarketData
// builds it: each Publish is queued and sent by a background goroutine
// (push.Async), snapshot channels (depth, ticker, kline) keep only their
// newest waiting message, and the API Gateway adapter caches subscriber
// lists for MarketPushCache and gathers each connection's messages for
// MarketPushWindow into one frame (Binance's streams excepted: their
// clients expect Binance's frames). So the 100 ms depth throttle of the
// market data service holds however slow the clients are, a pair's depth
// costs one subscriber query per second rather than ten, and a viewer at
// most two posts a second. Queued messages are sent on Close. Without a
// push port (no WS_ENDPOINT) it does nothing.
func (d *Deps) UseAsyncMarketPush() {
	if d.Push == nil {
		return
	}
	p := d.Push
	if f, ok := p.(*apigw.Fanout); ok {
		b := apigw.NewBatcher(f.WithChannelCache(MarketPushCache), apigw.BatchOptions{Window: MarketPushWindow,
			Latest: MarketSnapshotChannel,
			Direct: func(ch string) bool { _, _, ok := binance.ParseStreamChannel(ch); return ok }})
		d.onClose(func() error { return b.Close(context.Background()) })
		p = b
	}
	a := push.NewAsync(p, push.AsyncOptions{Latest: MarketSnapshotChannel, Logger: d.Log})
	d.Push = a
	d.onClose(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return a.Close(ctx)
	})
}

// MarketSnapshotChannel reports the market channels whose every message is
// a whole picture (depth, ticker, kline), as opposed to the trade channel,
// whose messages are the new trades since the last one.
func MarketSnapshotChannel(channel string) bool {
	return strings.HasPrefix(channel, "market_") && !strings.HasSuffix(channel, "_trade_ticker")
}
