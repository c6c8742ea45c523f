package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"tenger/internal/apikey"
	"tenger/internal/binance"
	"tenger/internal/binance/wsapiaws"
	"tenger/internal/binance/wsstreamsaws"
	"tenger/internal/platform"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/spot"
	"tenger/internal/store"
)

// binanceFanout delivers the Binance-compatible user data events
// (executionReport, outboundAccountPosition, balanceUpdate) to the
// connections listening to the user, as UserData does in `tenger serve`:
// the WebSocket API's subscriptions (userDataStream.subscribe*,
// internal/binance/wsapiaws), each event wrapped with its subscription id,
// and the listen-key streams of the web app's WebSocket API
// (internal/binance/wsstreamsaws), raw or combined. A subscription whose API
// key was deleted gets eventStreamTerminated and ends; a listen-key stream
// whose key expired, was closed or lost its API key gets listenKeyExpired
// and ends.
type binanceFanout struct {
	st store.Store
	// fan is the WebSocket API's push adapter (nil without it), web the web
	// app's API's.
	fan, web *apigw.Fanout
	events   *binance.UserEvents
	// keyOwner is the user of a live API key ("" when it is gone).
	keyOwner func(ctx context.Context, apiKey string) (string, error)
	now      func() time.Time
}

// newBinanceFanout is the Binance delivery the stream function runs over
// d, with web the web app's API's adapter. The events read orders and
// fills straight from the table (spot.Reader): the function has no engine,
// and needs none.
func newBinanceFanout(d *platform.Deps, web *apigw.Fanout) *binanceFanout {
	return &binanceFanout{st: d.Store, fan: d.BinancePush, web: web, now: d.Now, keyOwner: apiKeyOwner(d.Store),
		events: binance.NewUserEvents(d.Markets, spot.Reader{Store: d.Store}, d.Log.With().Str("service", "binance").Logger())}
}

// binanceBatch is a stream batch's lookups: each user's subscribers and
// listeners, each key's owner and each listen key's user, read once.
type binanceBatch struct {
	*binanceFanout
	subs      map[string][]wsapiaws.Subscriber
	listeners map[string][]wsstreamsaws.Listener
	owners    map[string]string
	// listenUsers: a listen key's user, "" when it is not live.
	listenUsers map[string]string
}

func (f *binanceFanout) batch() *binanceBatch {
	return &binanceBatch{binanceFanout: f, subs: map[string][]wsapiaws.Subscriber{}, owners: map[string]string{},
		listeners: map[string][]wsstreamsaws.Listener{}, listenUsers: map[string]string{}}
}

// deliver posts a change's events to its user's subscribers and
// listeners. A failed lookup or post returns the error (the batch is
// retried from this record); connections found gone are forgotten by the
// adapters.
func (b *binanceBatch) deliver(ctx context.Context, ch store.Change) error {
	user, build := b.events.Of(ch)
	if user == "" {
		return nil
	}
	subs, err := b.subscribers(ctx, user)
	if err != nil {
		return err
	}
	listeners, err := b.listenersOf(ctx, user)
	if err != nil {
		return err
	}
	if len(subs) == 0 && len(listeners) == 0 {
		return nil
	}
	evs := build(ctx)
	if len(evs) == 0 {
		return nil
	}
	if err := b.toSubscribers(ctx, user, subs, evs); err != nil {
		return err
	}
	return b.toListeners(ctx, user, listeners, evs)
}

func (b *binanceBatch) subscribers(ctx context.Context, user string) ([]wsapiaws.Subscriber, error) {
	if b.fan == nil {
		return nil, nil
	}
	subs, ok := b.subs[user]
	if !ok {
		var err error
		if subs, err = wsapiaws.Subscribers(ctx, b.st, user, b.now()); err != nil {
			return nil, fmt.Errorf("binance subscribers of %s: %w", user, err)
		}
		b.subs[user] = subs
	}
	return subs, nil
}

func (b *binanceBatch) listenersOf(ctx context.Context, user string) ([]wsstreamsaws.Listener, error) {
	if b.web == nil {
		return nil, nil
	}
	ls, ok := b.listeners[user]
	if !ok {
		var err error
		if ls, err = wsstreamsaws.Listeners(ctx, b.st, user, b.now()); err != nil {
			return nil, fmt.Errorf("listen-key streams of %s: %w", user, err)
		}
		b.listeners[user] = ls
	}
	return ls, nil
}

// toSubscribers posts the events to the WebSocket API's subscriptions.
func (b *binanceBatch) toSubscribers(ctx context.Context, user string, subs []wsapiaws.Subscriber, evs [][]byte) error {
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
		if err := b.send(ctx, b.fan, s.ConnID, evs, func(ev []byte) []byte { return binance.UserEvent(s.SubscriptionID, ev) }); err != nil {
			if errors.Is(err, push.ErrGone) {
				live = live[:len(live)-1]
				continue
			}
			return err
		}
	}
	b.subs[user] = live
	return nil
}

// toListeners posts the events to the listen-key streams.
func (b *binanceBatch) toListeners(ctx context.Context, user string, ls []wsstreamsaws.Listener, evs [][]byte) error {
	var live []wsstreamsaws.Listener
	for _, l := range ls {
		owner, seen := b.listenUsers[l.ListenKey]
		if !seen {
			_, uid, err := apikey.LookupListenKey(ctx, b.st, l.ListenKey, b.now())
			if err != nil && !errors.Is(err, apikey.ErrUnknownListenKey) {
				return fmt.Errorf("listen key: %w", err)
			}
			owner = uid
			b.listenUsers[l.ListenKey] = owner
		}
		if owner != user {
			_ = b.web.SendTo(ctx, l.ConnID, binance.ListenKeyEvent(l.ListenKey, l.Combined, binance.ListenKeyExpired(l.ListenKey, b.now())))
			if err := wsstreamsaws.EndListener(ctx, b.st, b.web, l); err != nil {
				return err
			}
			continue
		}
		live = append(live, l)
		if err := b.send(ctx, b.web, l.ConnID, evs, func(ev []byte) []byte { return binance.ListenKeyEvent(l.ListenKey, l.Combined, ev) }); err != nil {
			if errors.Is(err, push.ErrGone) {
				live = live[:len(live)-1]
				continue
			}
			return err
		}
	}
	b.listeners[user] = live
	return nil
}

// send posts each event, in its form, to a connection: push.ErrGone when
// the connection is gone (forgotten by the adapter).
func (b *binanceBatch) send(ctx context.Context, fan *apigw.Fanout, conn string, evs [][]byte, form func([]byte) []byte) error {
	for _, ev := range evs {
		err := fan.SendTo(ctx, conn, form(ev))
		if errors.Is(err, push.ErrGone) {
			return err
		}
		if err != nil {
			return fmt.Errorf("binance event to %s: %w", conn, err)
		}
	}
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
