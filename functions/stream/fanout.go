package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"

	"tenger/internal/awslambda"
	"tenger/internal/push"
	"tenger/internal/store"
	"tenger/internal/userfeed"
)

// Push outbox items. A domain transaction that changes something a client
// watches (an order, a balance, a trade) also puts one outbox item in the
// same transaction; its INSERT on the change feed is delivered here, so a
// push is never announced for a write that did not commit.
//
//	pk PUSH#<id>  sk MSG  channel  data (JSON text)  [user]  [kind "tick"]  ttl
//
// With user set the message goes to that user's connections
// (PublishUser), otherwise to the channel's subscribers (Publish). kind
// "tick" builds {"channel","ts","tick"} (market data), anything else
// {"channel","ts","data"} (private updates).
const (
	outboxPrefix = "PUSH#"
	attrChannel  = "channel"
	attrData     = "data"
	attrUser     = "user"
	attrKind     = "kind"
)

// fanout delivers the change feed's private updates and push outbox to
// WebSocket clients.
type fanout struct {
	pusher push.Pusher
	// users turns order and balance changes into the owner's private
	// messages (user_orders, user_balances), as the local runtime does.
	users *userfeed.Translator
}

// handle processes one stream record: a change of a user's order or
// balance goes to that user's authenticated connections (userfeed), an
// outbox insert to its channel or user, and everything else (connection
// items, postings, the exchange's own accounts ...) pushes nothing. A
// failed delivery returns the error so the batch is retried from this
// record; gone connections are dropped by the pusher and are not failures.
func (f fanout) handle(ctx context.Context, rec events.DynamoDBEventRecord) error {
	ch, err := awslambda.ChangeFromStreamRecord(rec)
	if err != nil {
		// A record we cannot read never becomes readable: log and skip it
		// rather than block the shard.
		zerolog.Ctx(ctx).Error().Err(err).Msg("unreadable stream record skipped")
		return nil
	}
	if f.users != nil {
		if m, ok := f.users.Translate(ch); ok {
			n, err := userfeed.Deliver(ctx, f.pusher, m)
			if err != nil {
				return fmt.Errorf("publish %s of %s: %w", m.Channel, ch.Key.PK, err)
			}
			zerolog.Ctx(ctx).Debug().Str("channel", m.Channel).Int("delivered", n).Msg("pushed")
			return nil
		}
	}
	if ch.Kind != store.ChangeInsert || !strings.HasPrefix(ch.Key.PK, outboxPrefix) {
		return nil
	}
	msg, err := outboxMessage(ch)
	if err != nil {
		zerolog.Ctx(ctx).Error().Err(err).Str("pk", ch.Key.PK).Msg("malformed push outbox item skipped")
		return nil
	}
	var n int
	if user := ch.New.Str(attrUser); user != "" {
		n, err = f.pusher.PublishUser(ctx, user, msg)
	} else {
		n, err = f.pusher.Publish(ctx, ch.New.Str(attrChannel), msg)
	}
	if err != nil {
		return fmt.Errorf("publish %s: %w", ch.Key.PK, err)
	}
	zerolog.Ctx(ctx).Debug().Str("channel", ch.New.Str(attrChannel)).Int("delivered", n).Msg("pushed")
	return nil
}

// outboxMessage builds the client message of an outbox item.
func outboxMessage(ch store.Change) ([]byte, error) {
	channel := ch.New.Str(attrChannel)
	if err := push.ValidateChannel(channel); err != nil {
		return nil, err
	}
	data := ch.New.Str(attrData)
	if !json.Valid([]byte(data)) {
		return nil, fmt.Errorf("data of %s is not JSON", ch.Key.PK)
	}
	at := time.UnixMilli(ch.At)
	if ch.New.Str(attrKind) == "tick" {
		return push.Tick(channel, at, json.RawMessage(data))
	}
	return push.Data(channel, at, json.RawMessage(data))
}
