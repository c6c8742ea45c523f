// Package wsstreamsaws serves Binance's market streams in AWS. A client
// on the web app's WebSocket API sends Binance's subscription frames
// (SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS, SET_PROPERTY,
// GET_PROPERTY) or names streams when it connects; the ws function keeps
// its subscriptions in the table (Conn) and subscribes the connection to
// each stream's push channel (binance.StreamChannel). The engine task,
// which has the market data, reads the registry of subscribed channels
// every second (Follow) and publishes each stream's events once to its
// channel (binance.ChannelStreams); API Gateway's push adapter delivers
// them to the channel's connections.
//
// Items:
//
//	pk <conn partition>  sk BSTREAMS     names (stream names joined by "/", in
//	                                     subscription order), combined, ver, ttl
//	pk <conn partition>  sk SUB#<channel>  the push adapter's subscription
//	pk <conn partition>  sk BLK#<listenKey>  a listen-key stream: apiKey, uid,
//	                                     combined, ttl, gsi1pk BLK#<uid>,
//	                                     gsi1sk <conn>#<listenKey>
//	pk BSTREAMCH         sk <channel>    joined (Unix ms of the latest
//	                                     subscription), ttl
//
// A listen key named at $connect (?streams=<listenKey>) streams its user's
// data: the stream function finds the connections listening to a user
// (Listeners) and posts the events, raw or combined as the connection
// says (SET_PROPERTY combined changes the listen-key items too).
//
// The connection's items go with it ($disconnect, or their TTL). A
// channel's registry item lives three hours after its latest subscriber
// joined, longer than API Gateway keeps a connection, so a stream is
// published while anyone may still listen; one nobody listens to any more
// is computed until then, and its events reach no one.
package wsstreamsaws

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/binance"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/store"
)

const (
	skState = "BSTREAMS"
	// skListen and listenIndex: a connection's listen-key streams, and
	// the gsi1 partition of a user's.
	skListen    = "BLK#"
	listenIndex = "BLK#"
	// registryPK is the partition of the subscribed channels.
	registryPK = "BSTREAMCH"
	// TTL of a connection's state and of a channel's registry item after
	// its latest subscriber joined: longer than API Gateway's two-hour
	// connections.
	TTL = 3 * time.Hour
	// FreshFor is how long after a subscriber joined its channel counts as
	// Fresh (binance.ChannelState): the engine's push adapter reads a
	// channel's subscribers at most once a second (platform.MarketPushCache)
	// and the registry is read every second, so within it at least one
	// picture is published after the newcomer is among the subscribers.
	FreshFor = 3 * time.Second
	// maxTries bounds the retries of a frame whose connection's state was
	// changed meanwhile by another of its frames.
	maxTries = 8
)

// Conn is a connection's market stream subscriptions (binance.StreamSubs).
type Conn struct {
	st  store.Store
	fan *apigw.Fanout
	id  string
	now func() time.Time
}

var _ binance.StreamSubs = (*Conn)(nil)

// Open is connID's subscriptions on the push adapter fan (the web app's
// WebSocket API's).
func Open(st store.Store, fan *apigw.Fanout, connID string, now func() time.Time) *Conn {
	if now == nil {
		now = time.Now
	}
	return &Conn{st: st, fan: fan, id: connID, now: now}
}

func (c *Conn) stateKey() store.Key { return store.Key{PK: c.fan.ConnPartition(c.id), SK: skState} }

type state struct {
	names    []string
	combined bool
	ver      int64
	exists   bool
}

func (c *Conn) read(ctx context.Context) (state, error) {
	it, err := c.st.Get(ctx, c.stateKey())
	if errors.Is(err, store.ErrNotFound) {
		return state{}, nil
	}
	if err != nil {
		return state{}, err
	}
	var s state
	if v := it.Str("names"); v != "" {
		s.names = strings.Split(v, "/")
	}
	s.combined, s.ver, s.exists = it.Bool("combined"), it.Int("ver"), true
	return s, nil
}

// Streams implements binance.StreamSubs.
func (c *Conn) Streams(ctx context.Context) ([]string, bool, error) {
	s, err := c.read(ctx)
	return s.names, s.combined, err
}

// Update implements binance.StreamSubs: the channel subscriptions that
// change, those of the streams the frame names, and the new state are
// written in one transaction (more when a frame changes more than about
// a hundred streams: the state is written last), the state only if no
// other frame of the connection changed it meanwhile; then the change is
// tried again on what that frame left. A frame cut short by a failure
// between transactions has subscribed some channels without listing them:
// sending it again completes it, as its streams are written anew.
func (c *Conn) Update(ctx context.Context, named []string, change func([]string, bool) ([]string, bool, error)) error {
	for range maxTries {
		cur, err := c.read(ctx)
		if err != nil {
			return err
		}
		names, combined, err := change(slices.Clone(cur.names), cur.combined)
		if err != nil {
			return err
		}
		err = c.write(ctx, cur, named, names, combined)
		if !errors.Is(err, errConflict) {
			return err
		}
	}
	return fmt.Errorf("wsstreamsaws: %s: the connection's subscriptions kept changing", c.id)
}

var errConflict = errors.New("wsstreamsaws: changed meanwhile")

// write moves the connection from cur to names and combined.
func (c *Conn) write(ctx context.Context, cur state, named, names []string, combined bool) error {
	now := c.now()
	// want: channel → subscribed (true) or not.
	want := map[string]bool{}
	for _, n := range cur.names {
		if combined != cur.combined || !slices.Contains(names, n) {
			want[binance.StreamChannel(n, cur.combined)] = false
		}
	}
	for _, n := range names {
		if combined != cur.combined || !slices.Contains(cur.names, n) {
			want[binance.StreamChannel(n, combined)] = true
		}
	}
	for _, n := range named {
		want[binance.StreamChannel(n, combined)] = slices.Contains(names, n)
	}
	var ops []store.Op
	for _, ch := range slices.Sorted(maps.Keys(want)) {
		if !want[ch] {
			ops = append(ops, c.fan.UnsubscribeOp(c.id, ch))
			continue
		}
		op, err := c.fan.SubscribeOp(c.id, ch)
		if err != nil {
			return err
		}
		ops = append(ops, op, registryOp(ch, now))
	}
	if combined != cur.combined {
		// The listen-key streams' events change form too.
		err := store.EachLive(ctx, c.st, store.Query{PK: c.fan.ConnPartition(c.id), SK: store.SKPrefixed(skListen)}, now,
			func(it store.Item) {
				ops = append(ops, store.UpdateOp(it.Key(), store.NewUpdate().Set("combined", combined), store.ItemExists()).Named(condListen))
			})
		if err != nil {
			return err
		}
	}
	cond := store.NotExists(store.AttrPK)
	if cur.exists {
		cond = store.Eq("ver", cur.ver)
	}
	k := c.stateKey()
	return c.apply(ctx, ops, store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "names": strings.Join(names, "/"),
		"combined": combined, "ver": cur.ver + 1, store.AttrTTL: now.Add(TTL).Unix()}, cond).Named(condState))
}

// apply writes ops, then last (the state write, whose condition says
// whether the connection's state is still as read), in transactions of at
// most store.MaxTransactItems writes, each checking first that the
// connection is live. A subscription and its registry write go in the
// same one. Any other failed condition (the state, or a listen-key item
// gone meanwhile) is errConflict: the frame is tried again.
func (c *Conn) apply(ctx context.Context, ops []store.Op, last store.Op) error {
	const room = store.MaxTransactItems - 2 // the liveness check, and last
	for len(ops) > room {
		n := room
		if ops[n-1].Key.PK != registryPK && ops[n].Key.PK == registryPK {
			n-- // keep a subscription with its registry write
		}
		if err := c.transact(ctx, ops[:n]); err != nil {
			return err
		}
		ops = ops[n:]
	}
	return c.transact(ctx, append(ops, last))
}

// Named conditions of a frame's transactions.
const (
	condLive   = "live"   // the connection is still connected
	condState  = "state"  // its state is as the frame read it
	condListen = "listen" // a listen-key stream it read is still there
)

// transact writes ops after a check that the connection is live.
func (c *Conn) transact(ctx context.Context, ops []store.Op) error {
	all := append([]store.Op{c.fan.LiveConnOp(c.id).Named(condLive)}, ops...)
	err := c.st.Transact(ctx, all)
	switch name, failed := store.FailedCondition(err, all); {
	case !failed:
		return err
	case name == condLive:
		return push.ErrGone
	default:
		return errConflict
	}
}

// registryOp records that channel has a subscriber who joined at now.
func registryOp(channel string, now time.Time) store.Op {
	return store.PutOp(store.Item{store.AttrPK: registryPK, store.AttrSK: channel, "joined": now.UnixMilli(),
		store.AttrTTL: now.Add(TTL).Unix()}, nil)
}

// Registry reads the channels subscribed (live registry items), those
// joined within FreshFor of now Fresh.
func Registry(ctx context.Context, st store.Store, now time.Time) ([]binance.ChannelState, error) {
	var out []binance.ChannelState
	err := store.EachLive(ctx, st, store.Query{PK: registryPK}, now, func(it store.Item) {
		out = append(out, binance.ChannelState{Channel: it.Str(store.AttrSK),
			Fresh: it.Int("joined") > now.Add(-FreshFor).UnixMilli()})
	})
	return out, err
}

// Follow keeps streams publishing the registry's channels: it reads the
// registry every interval until ctx ends. A failed read keeps the channels
// as they were and is logged.
func Follow(ctx context.Context, st store.Store, streams *binance.Streams, every time.Duration, now func() time.Time, log zerolog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		chans, err := Registry(ctx, st, now())
		switch {
		case err == nil:
			streams.SyncChannels(chans)
		case ctx.Err() == nil:
			log.Warn().Err(err).Msg("binance streams: reading the subscribed channels failed")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Listen makes the connection stream a listen key's user data (checked
// live by the caller: apikey.LookupListenKey), raw or combined.
func (c *Conn) Listen(ctx context.Context, listenKey, apiKey, uid string, combined bool) error {
	now := c.now()
	return c.transact(ctx, []store.Op{store.PutOp(store.Item{
		store.AttrPK: c.fan.ConnPartition(c.id), store.AttrSK: skListen + listenKey,
		"listenKey": listenKey, "apiKey": apiKey, "uid": uid, "combined": combined, store.AttrTTL: now.Add(TTL).Unix(),
		store.AttrGSI1PK: listenIndex + uid, store.AttrGSI1SK: c.id + "#" + listenKey}, nil)})
}

// Listener is a connection streaming a listen key of a user.
type Listener struct {
	ConnID, ListenKey, APIKey string
	Combined                  bool
}

// Listeners lists the live listen-key streams of a user's data.
func Listeners(ctx context.Context, st store.Store, uid string, now time.Time) ([]Listener, error) {
	var out []Listener
	err := store.EachLive(ctx, st, store.Query{Index: store.IndexGSI1, PK: listenIndex + uid, Limit: 200}, now, func(it store.Item) {
		conn, _, _ := strings.Cut(it.Str(store.AttrGSI1SK), "#")
		out = append(out, Listener{ConnID: conn, ListenKey: it.Str("listenKey"), APIKey: it.Str("apiKey"), Combined: it.Bool("combined")})
	})
	return out, err
}

// EndListener ends a listen-key stream (its key expired, was closed, or
// its API key deleted).
func EndListener(ctx context.Context, st store.Store, fan *apigw.Fanout, l Listener) error {
	return st.Delete(ctx, store.Key{PK: fan.ConnPartition(l.ConnID), SK: skListen + l.ListenKey}, nil)
}
