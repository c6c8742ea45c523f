package userfeed

import (
	"context"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/push"
	"tenger/internal/store"
)

// Deliver sends m to the user's connections. A user without connections is
// not an error (nobody is watching); the error is the pusher's failure.
func Deliver(ctx context.Context, p push.Pusher, m Message) (int, error) {
	return p.PublishUser(ctx, m.User, m.Body)
}

// Consumer delivers the private messages of a change feed (the embedded
// store's, in `tenger serve`) to a pusher (the in-process hub).
type Consumer struct {
	// Feed is the change feed to follow.
	Feed store.Feed
	// Pusher receives the messages (PublishUser).
	Pusher push.Pusher
	// Translator builds them.
	Translator *Translator
	// Since: changes committed before it are read past without a message.
	// The feed keeps a day of history, and nobody connected before the
	// process started could be waiting for those; zero sends everything.
	Since time.Time
	// Poll is how long to wait when the feed has nothing new; 0 means 20 ms.
	// An idle read of the embedded feed is one atomic load.
	Poll time.Duration
	// From, when set, is the checkpoint to follow the feed from instead of
	// its head at the start of Run (a caller that must not miss changes
	// made right after starting the consumer reads the head itself).
	From *string
	// Batch is the most changes read at once; 0 means 500.
	Batch int
	// Watching, when set, reports whether any connection is bound to a
	// user now. While nobody is, and the feed can tell its head, the feed
	// is not read at all: the consumer keeps its checkpoint at the head,
	// so `tenger serve` spends nothing on private updates nobody receives
	// (reading a change costs a few microseconds, and an order makes about
	// fifteen).
	Watching func() bool
	// Sink, when set, receives every change instead of Translator and
	// Pusher (a second reader of the same feed with its own messages: the
	// Binance-compatible user data streams); its Watching stands for the
	// field's.
	Sink Sink
	Log  zerolog.Logger
}

// Sink is a reader of the private changes that builds and sends its own
// messages.
type Sink interface {
	// Watching reports whether anybody listens now (while nobody does,
	// the feed is not read).
	Watching() bool
	// Change handles one committed change, on the consumer's goroutine;
	// it must not block on slow clients.
	Change(ctx context.Context, ch store.Change)
}

// headFeed is a feed that can tell the checkpoint of its newest change
// (the embedded store's can).
type headFeed interface {
	Head(ctx context.Context) (string, error)
}

// Run follows the feed from its start until ctx ends. Delivery is best
// effort: a message the pusher refuses is logged and skipped, so one bad
// connection never holds up everyone's updates (clients that reconnect
// read the current state over REST anyway).
func (c *Consumer) Run(ctx context.Context) error {
	poll := c.Poll
	if poll <= 0 {
		poll = 20 * time.Millisecond
	}
	batch := c.Batch
	if batch <= 0 {
		batch = 500
	}
	since := int64(0)
	if !c.Since.IsZero() {
		since = c.Since.UnixMilli()
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	checkpoint := ""
	hf, _ := c.Feed.(headFeed)
	watching := c.Watching
	if c.Sink != nil {
		watching = c.Sink.Watching
	}
	if c.From != nil {
		checkpoint = *c.From
	} else if hf != nil {
		// Start at the present: the history is nobody's news.
		h, err := hf.Head(ctx)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, store.ErrClosed) {
				return nil
			}
			return err
		}
		checkpoint = h
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		}
		if hf != nil && watching != nil {
			// The head is read before asking whether anyone is bound: a
			// user bound after this check gets every change committed
			// after the head, which is all that follows the binding.
			h, err := hf.Head(ctx)
			if err == nil && !watching() {
				checkpoint = h
				timer.Reset(poll)
				continue
			}
		}
		changes, next, err := c.Feed.Read(ctx, checkpoint, batch)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, store.ErrClosed) {
				return nil
			}
			c.Log.Warn().Err(err).Msg("userfeed: reading the change feed")
			timer.Reset(time.Second)
			continue
		}
		checkpoint = next
		for _, ch := range changes {
			if ch.At < since {
				continue
			}
			if c.Sink != nil {
				c.Sink.Change(ctx, ch)
				continue
			}
			for _, m := range c.Translator.TranslateAll(ch) {
				if _, err := Deliver(ctx, c.Pusher, m); err != nil {
					if errors.Is(err, push.ErrClosed) {
						return nil
					}
					c.Log.Debug().Err(err).Str("channel", m.Channel).Msg("userfeed: delivery failed")
				}
			}
		}
		if len(changes) == batch {
			timer.Reset(0) // more is waiting
		} else {
			timer.Reset(poll)
		}
	}
}
