package apigw

import (
	"context"
	"errors"
	"sync"
	"time"

	"tenger/internal/push"
)

// BatchOptions configure a Batcher.
type BatchOptions struct {
	// Window is how long messages to a connection are gathered before they
	// are posted together; 0 means one second.
	Window time.Duration
	// Latest reports the channels whose messages are snapshots (depth,
	// tickers, klines): a connection's waiting message of such a channel is
	// replaced by the newer one. Other channels' messages are all kept, in
	// order.
	Latest func(channel string) bool
	// Direct reports the channels never gathered (each message posted at
	// once, as it is): Binance's streams, whose clients expect its exact
	// frames.
	Direct func(channel string) bool
	// Concurrency bounds the parallel posts of one flush; 0 means 16.
	Concurrency int
}

// Batcher is the market publisher's push port in AWS: API Gateway bills
// every message to every connection, and a viewer of a busy pair would get
// a depth picture every 100 ms, a ticker every second and each trade: a
// dozen messages a second. The Batcher gathers, per connection, what the
// publisher sends within Window and posts it as one frame: the message
// itself when there is one, else a JSON array of them, oldest first (the
// web app's socket unpacks arrays); a snapshot channel keeps only its
// newest picture. Everything but Publish goes straight to the Fanout.
type Batcher struct {
	*Fanout
	opts BatchOptions

	mu      sync.Mutex
	pending map[string]*connBatch // by connection
	closed  bool
	stop    chan struct{}
	done    chan struct{}
}

// connBatch is what waits for one connection.
type connBatch struct {
	msgs [][]byte
	// at is the index in msgs of a snapshot channel's waiting message.
	at map[string]int
}

var _ push.Pusher = (*Batcher)(nil)

// NewBatcher starts gathering for f's connections; Close flushes and stops.
func NewBatcher(f *Fanout, opts BatchOptions) *Batcher {
	if opts.Window <= 0 {
		opts.Window = time.Second
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 16
	}
	b := &Batcher{Fanout: f, opts: opts, pending: map[string]*connBatch{}, stop: make(chan struct{}), done: make(chan struct{})}
	go b.run()
	return b
}

// Publish implements push.Pusher: the channel's subscribers (the Fanout's
// cached list) get msg in their next frame. The count is of the
// subscribers it waits for.
func (b *Batcher) Publish(ctx context.Context, channel string, msg []byte) (int, error) {
	if b.opts.Direct != nil && b.opts.Direct(channel) {
		return b.Fanout.Publish(ctx, channel, msg)
	}
	if err := push.ValidateChannel(channel); err != nil {
		return 0, err
	}
	ids, err := b.channelMembers(ctx, channel)
	if err != nil {
		return 0, err
	}
	latest := b.opts.Latest != nil && b.opts.Latest(channel)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, push.ErrClosed
	}
	for _, id := range ids {
		cb := b.pending[id]
		if cb == nil {
			cb = &connBatch{at: map[string]int{}}
			b.pending[id] = cb
		}
		if i, ok := cb.at[channel]; ok && latest {
			cb.msgs[i] = msg
			continue
		}
		if latest {
			cb.at[channel] = len(cb.msgs)
		}
		cb.msgs = append(cb.msgs, msg)
	}
	return len(ids), nil
}

// frame is one connection's post: its one message, or a JSON array of them.
func frame(msgs [][]byte) []byte {
	if len(msgs) == 1 {
		return msgs[0]
	}
	n := 1
	for _, m := range msgs {
		n += len(m) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, m := range msgs {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, m...)
	}
	return append(out, ']')
}

func (b *Batcher) run() {
	defer close(b.done)
	t := time.NewTicker(b.opts.Window)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			b.Flush(context.Background())
			return
		case <-t.C:
			b.Flush(context.Background())
		}
	}
}

// Flush posts what waits now. A connection found gone is forgotten (by
// SendTo); other failures are logged.
func (b *Batcher) Flush(ctx context.Context) {
	b.mu.Lock()
	batch := b.pending
	b.pending = map[string]*connBatch{}
	b.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	var (
		wg  sync.WaitGroup
		sem = make(chan struct{}, b.opts.Concurrency)
	)
	for id, cb := range batch {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := b.SendTo(ctx, id, frame(cb.msgs)); err != nil && !errors.Is(err, push.ErrGone) {
				b.Fanout.opts.Logger.Warn().Err(err).Str("conn", id).Msg("push: batched post failed")
			}
		}()
	}
	wg.Wait()
}

// Close flushes what waits and stops gathering.
func (b *Batcher) Close(context.Context) error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	b.mu.Unlock()
	close(b.stop)
	<-b.done
	return nil
}
