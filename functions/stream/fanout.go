package main

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"

	"tenger/internal/awslambda"
	"tenger/internal/push"
	"tenger/internal/store"
	"tenger/internal/userfeed"
)

// Parallelism of one batch: connection lookups of different users, and
// posts of one message to one user's connections.
const (
	lookupConcurrency = 8
	postConcurrency   = 16
)

// connLister lists the ids of the live connections bound to a user.
type connLister func(ctx context.Context, userID string) ([]string, error)

// fanout delivers the change feed's private updates to WebSocket clients.
type fanout struct {
	// pusher posts to one connection (SendTo) and forgets connections that
	// are gone.
	pusher push.Pusher
	// conns finds a user's connections (apigw's UserConnections).
	conns connLister
	// users turns order and balance changes into the owner's private
	// messages (user_orders, user_balances), as the local runtime does.
	users *userfeed.Translator
	// binance, when set, also posts the Binance-compatible user data
	// events to the WebSocket API's subscribed connections.
	binance *binanceFanout
}

// handler is the Lambda handler of a stream batch. It first finds the
// users whose orders or balances the batch's records wrote and looks up
// each one's connections, once per batch and in parallel (a trade writes
// about six items of the same two users, and most users are not connected
// at all); then the runtime's batch loop (awslambda.DynamoDBBatch) handles
// the records one after another, in stream order, and stops at the first
// failure, which it reports: Lambda retries the batch from that record.
//
// A connection bound while a batch is under way gets the user's messages
// from the next batch on; it was authenticated a moment ago and reads the
// current state over REST anyway.
func (f fanout) handler(rt *awslambda.Runtime) awslambda.DynamoDBFunc {
	return func(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		b := f.lookUp(ctx, ev.Records)
		return rt.DynamoDBBatch(b.handle)(ctx, ev)
	}
}

// batch is what one stream batch knows of its users' connections.
type batch struct {
	fanout
	byUser map[string]*userConns
	bin    *binanceBatch
}

// userConns is the outcome of one user's lookup; ids shrinks as
// connections are found gone.
type userConns struct {
	ids []string
	err error
}

// lookUp looks up the connections of every user a record of recs concerns.
// A failed lookup is kept and fails that user's first record, so the
// records before it are still delivered and Lambda retries from it.
func (f fanout) lookUp(ctx context.Context, recs []events.DynamoDBEventRecord) *batch {
	b := &batch{fanout: f, byUser: map[string]*userConns{}}
	if f.binance != nil {
		b.bin = f.binance.batch()
	}
	var (
		wg  sync.WaitGroup
		sem = make(chan struct{}, lookupConcurrency)
	)
	for _, rec := range recs {
		ch, err := awslambda.ChangeFromStreamRecord(rec)
		if err != nil {
			continue // skipped by handle
		}
		user, ok := f.users.User(ch)
		if !ok || b.byUser[user] != nil {
			continue
		}
		c := &userConns{}
		b.byUser[user] = c
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			c.ids, c.err = f.conns(ctx, user)
		}()
	}
	wg.Wait()
	return b
}

// handle processes one stream record: a change of a user's order or
// balance goes to that user's authenticated connections (userfeed), and
// everything else (postings, sessions, connection items, the exchange's own
// accounts ...) pushes nothing; so does a change of a user without
// connections, whose message is not even built. A failed lookup or
// delivery returns the error so the batch is retried from this record;
// gone connections are forgotten by the pusher and are not failures.
func (b *batch) handle(ctx context.Context, rec events.DynamoDBEventRecord) error {
	ch, err := awslambda.ChangeFromStreamRecord(rec)
	if err != nil {
		// A record we cannot read never becomes readable: log and skip it
		// rather than block the shard.
		zerolog.Ctx(ctx).Error().Err(err).Msg("unreadable stream record skipped")
		return nil
	}
	if err := b.web(ctx, ch); err != nil {
		return err
	}
	if b.bin != nil {
		return b.bin.deliver(ctx, ch)
	}
	return nil
}

// web pushes a change to its user's web app connections.
func (b *batch) web(ctx context.Context, ch store.Change) error {
	user, ok := b.users.User(ch)
	if !ok {
		return nil
	}
	c := b.byUser[user]
	if c == nil { // lookUp saw every record; kept for safety
		c = &userConns{}
		c.ids, c.err = b.fanout.conns(ctx, user)
		b.byUser[user] = c
	}
	if c.err != nil {
		return fmt.Errorf("connections of the owner of %s: %w", ch.Key.PK, c.err)
	}
	if len(c.ids) == 0 {
		return nil
	}
	m, ok := b.users.Translate(ch)
	if !ok {
		return nil
	}
	n, err := b.post(ctx, c, m.Body)
	if err != nil {
		return fmt.Errorf("publish %s of %s: %w", m.Channel, ch.Key.PK, err)
	}
	zerolog.Ctx(ctx).Debug().Str("channel", m.Channel).Int("delivered", n).Msg("pushed")
	return nil
}

// post sends msg to every connection of c in parallel, as PublishUser
// does (push.SendAll): connections found gone are forgotten (by the
// pusher) and leave c, and the first other failure is returned after
// everyone else got the message.
func (b *batch) post(ctx context.Context, c *userConns, msg []byte) (int, error) {
	delivered, gone, err := push.SendAll(ctx, b.pusher.SendTo, c.ids, msg, postConcurrency)
	if len(gone) > 0 {
		c.ids = slices.DeleteFunc(slices.Clone(c.ids), func(id string) bool { return slices.Contains(gone, id) })
	}
	return delivered, err
}
