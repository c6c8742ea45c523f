package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"tenger/internal/apikey"
	"tenger/internal/binance"
	"tenger/internal/binance/wsapiaws"
	"tenger/internal/platform"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/spot"
	"tenger/internal/store"
)

// binanceFanout delivers the Binance-compatible user data events
// (executionReport, outboundAccountPosition, balanceUpdate) to the
// WebSocket API connections subscribed to the user
// (userDataStream.subscribe*, internal/binance/wsapiaws), as UserData does
// in `tenger serve`. A subscription whose API key was deleted gets
// eventStreamTerminated and ends.
type binanceFanout struct {
	st     store.Store
	fan    *apigw.Fanout
	events *binance.UserEvents
	// keyOwner is the user of a live API key ("" when it is gone).
	keyOwner func(ctx context.Context, apiKey string) (string, error)
	now      func() time.Time
}

// newBinanceFanout is the Binance delivery the stream function runs over
// d: nil without the WebSocket API's endpoint ($BINANCE_WS_ENDPOINT). The
// events read orders and fills straight from the table (spot.Reader): the
// function has no engine, and needs none.
func newBinanceFanout(d *platform.Deps) *binanceFanout {
	if d.BinancePush == nil {
		return nil
	}
	return &binanceFanout{st: d.Store, fan: d.BinancePush, now: d.Now, keyOwner: apiKeyOwner(d.Store),
		events: binance.NewUserEvents(d.Markets, spot.Reader{Store: d.Store}, d.Log.With().Str("service", "binance").Logger())}
}

// binanceBatch is a stream batch's lookups: each user's subscribers and
// each key's owner, read once.
type binanceBatch struct {
	*binanceFanout
	subs   map[string][]wsapiaws.Subscriber
	owners map[string]string
}

func (f *binanceFanout) batch() *binanceBatch {
	return &binanceBatch{binanceFanout: f, subs: map[string][]wsapiaws.Subscriber{}, owners: map[string]string{}}
}

// deliver posts a change's events to its user's subscribers. A failed
// lookup or post returns the error (the batch is retried from this
// record); connections found gone are forgotten by the adapter.
func (b *binanceBatch) deliver(ctx context.Context, ch store.Change) error {
	user, build := b.events.Of(ch)
	if user == "" {
		return nil
	}
	subs, ok := b.subs[user]
	if !ok {
		var err error
		if subs, err = wsapiaws.Subscribers(ctx, b.st, user, b.now()); err != nil {
			return fmt.Errorf("binance subscribers of %s: %w", user, err)
		}
		b.subs[user] = subs
	}
	if len(subs) == 0 {
		return nil
	}
	evs := build(ctx)
	if len(evs) == 0 {
		return nil
	}
	var live []wsapiaws.Subscriber
	for _, s := range subs {
		owner, seen := b.owners[s.APIKey]
		if !seen {
			var err error
			if owner, err = b.keyOwner(ctx, s.APIKey); err != nil {
				return fmt.Errorf("binance subscription's key: %w", err)
			}
			b.owners[s.APIKey] = owner
		}
		if owner != user {
			// The key was deleted: the stream ends, as on Binance.
			_ = b.fan.SendTo(ctx, s.ConnID, binance.UserEvent(s.SubscriptionID, binance.StreamTerminated(b.now())))
			if err := wsapiaws.Drop(ctx, b.st, b.fan, s); err != nil {
				return err
			}
			continue
		}
		live = append(live, s)
		for _, ev := range evs {
			err := b.fan.SendTo(ctx, s.ConnID, binance.UserEvent(s.SubscriptionID, ev))
			if errors.Is(err, push.ErrGone) {
				live = live[:len(live)-1]
				break
			}
			if err != nil {
				return fmt.Errorf("binance event to %s: %w", s.ConnID, err)
			}
		}
	}
	b.subs[user] = live
	return nil
}

// apiKeyOwner reads an API key's owner without opening its secret.
func apiKeyOwner(st store.Store) func(ctx context.Context, apiKey string) (string, error) {
	return func(ctx context.Context, apiKey string) (string, error) {
		uid, err := apikey.Owner(ctx, st, apiKey)
		if errors.Is(err, apikey.ErrUnknownKey) {
			return "", nil
		}
		return uid, err
	}
}
