package push

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// AsyncOptions configure NewAsync.
type AsyncOptions struct {
	// Latest reports the channels whose messages are snapshots (order book
	// depth, tickers, klines): a message still waiting for such a channel
	// is replaced by the newer one, as nobody needs the stale picture.
	// Other channels (trade lists) keep every message, in order. Nil means
	// no channel is a snapshot channel.
	Latest func(channel string) bool
	// MaxPending bounds the messages waiting for one channel; beyond it the
	// oldest is dropped (and counted). 0 means 64.
	MaxPending int
	// Timeout bounds one delivery of the wrapped pusher; 0 means 10 s.
	Timeout time.Duration
	Logger  zerolog.Logger
}

// Async wraps a Pusher so that Publish never waits for the network: the
// message is queued and a background goroutine publishes it through the
// wrapped pusher, channel by channel in arrival order. It is for a
// publisher whose own loop must not slow down with the clients, such as the
// market data service in the AWS engine task, where one publish is a store
// query and a PostToConnection per subscriber. Subscribe, Bind, SendTo,
// PublishUser and the rest go straight to the wrapped pusher.
type Async struct {
	Pusher
	opts AsyncOptions

	mu      sync.Mutex
	pending map[string][][]byte
	order   []string // channels with pending messages, first arrival first
	closed  bool
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	dropped atomic.Int64
}

var _ Pusher = (*Async)(nil)

// NewAsync starts the background sender; Close stops it.
func NewAsync(p Pusher, opts AsyncOptions) *Async {
	if opts.MaxPending <= 0 {
		opts.MaxPending = 64
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	a := &Async{Pusher: p, opts: opts, pending: map[string][][]byte{},
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go a.run()
	return a
}

// Publish queues msg for the channel's subscribers and returns at once.
// The count is 0: delivery has not happened yet. After Close it returns
// ErrClosed. msg must not be modified afterwards.
func (a *Async) Publish(_ context.Context, channel string, msg []byte) (int, error) {
	if err := ValidateChannel(channel); err != nil {
		return 0, err
	}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return 0, ErrClosed
	}
	q, waiting := a.pending[channel]
	switch {
	case !waiting:
		a.order = append(a.order, channel)
		q = [][]byte{msg}
	case a.opts.Latest != nil && a.opts.Latest(channel):
		q = [][]byte{msg}
	case len(q) >= a.opts.MaxPending:
		a.dropped.Add(1)
		q = append(q[1:], msg)
	default:
		q = append(q, msg)
	}
	a.pending[channel] = q
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
	return 0, nil
}

// Dropped is how many messages were dropped because their channel had
// MaxPending messages waiting (snapshots replaced by newer ones are not
// counted).
func (a *Async) Dropped() int64 { return a.dropped.Load() }

// Close stops accepting messages, publishes what is queued and waits for
// that, at most until ctx ends. It does not close the wrapped pusher.
func (a *Async) Close(ctx context.Context) error {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		close(a.stop)
	}
	a.mu.Unlock()
	select {
	case <-a.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (a *Async) run() {
	defer close(a.done)
	for {
		select {
		case <-a.wake:
			a.sendPending()
		case <-a.stop:
			a.sendPending()
			return
		}
	}
}

// sendPending publishes everything queued so far; messages queued
// meanwhile wait for the next round, after these, so each channel's
// messages keep their order.
func (a *Async) sendPending() {
	a.mu.Lock()
	pending, order := a.pending, a.order
	a.pending, a.order = map[string][][]byte{}, nil
	a.mu.Unlock()
	for _, ch := range order {
		for _, m := range pending[ch] {
			ctx, cancel := context.WithTimeout(context.Background(), a.opts.Timeout)
			_, err := a.Pusher.Publish(ctx, ch, m)
			cancel()
			if err != nil {
				a.opts.Logger.Warn().Err(err).Str("channel", ch).Msg("push: asynchronous publish failed")
			}
		}
	}
}
