// Package apigw is the AWS adapter of the push port: clients connect to an
// API Gateway WebSocket API, the ws Lambda records connections and
// subscriptions in the store, and publishers deliver with the management
// API's PostToConnection.
//
// Items (single table, through the store port):
//
//	pk WSCONN#<conn>  sk META             connId, userId, connectedAt, ttl,
//	                                      gsi2pk WSUSER#<user>, gsi2sk <conn> once bound,
//	                                      inflight, inflightAt once it sent a request
//	pk WSCONN#<conn>  sk SUB#<channel>    gsi1pk WSCHAN#<channel>, gsi1sk <conn>, ttl
//
// So a channel's subscribers are one gsi1 query, a user's connections one
// gsi2 query, and everything of a connection one partition to delete. Items
// carry a TTL longer than API Gateway's two-hour connection limit, so state
// of connections whose $disconnect never ran disappears by itself; readers
// also skip expired items, and a GoneException from PostToConnection removes
// the connection at once.
package apigw

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi/types"
	"github.com/rs/zerolog"

	"tenger/internal/push"
	"tenger/internal/store"
)

// ManagementAPI is the part of the API Gateway management client the
// adapter uses (*apigatewaymanagementapi.Client has it).
type ManagementAPI interface {
	PostToConnection(ctx context.Context, in *apigatewaymanagementapi.PostToConnectionInput, optFns ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.PostToConnectionOutput, error)
	DeleteConnection(ctx context.Context, in *apigatewaymanagementapi.DeleteConnectionInput, optFns ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.DeleteConnectionOutput, error)
}

// Options configure the adapter.
type Options struct {
	// TTL of connection and subscription items; 0 means 3 h (API Gateway
	// closes every connection after 2 h).
	TTL time.Duration
	// Concurrency bounds parallel PostToConnection calls of one publish;
	// 0 means 16.
	Concurrency int
	// Auth resolves auth frames; nil refuses them.
	Auth push.AuthFunc
	// Channels, when set, refuses subscriptions to channels it does not know.
	Channels push.ChannelFunc
	// Logger receives delivery warnings; message contents are never logged.
	Logger zerolog.Logger
	// Now replaces the clock (tests); nil means time.Now.
	Now func() time.Time
	// ChannelCache, when positive, keeps each channel's subscriber list
	// that long, so a publisher sending the same channels many times a
	// second (the market data service: depth every 100 ms per pair) reads
	// them once per interval instead of once per message. A new subscriber
	// then waits up to that long for its first message; a connection found
	// gone drops the channel's list at once. Zero reads the list on every
	// Publish (the ws and stream functions, which publish rarely).
	ChannelCache time.Duration
	// Requests answers request frames (order entry); nil answers them with
	// an error reply.
	Requests push.RequestFunc
	// MaxInFlight bounds the requests of one connection running at once,
	// counted on its META item; 0 means push.MaxInFlight.
	MaxInFlight int
	// Namespace, when set, starts the partition keys of this adapter's
	// items (<Namespace>WSCONN#…, <Namespace>WSCHAN#…, <Namespace>WSUSER#…),
	// so that a second WebSocket API on the same table (the
	// Binance-compatible one) keeps connections apart from the web app's:
	// neither adapter sees, posts to or forgets the other's.
	Namespace string
	// InFlightStale is how long after a connection's latest request its
	// count of requests in flight is surely stale (every request counted
	// has ended, by the function's timeout, and one that died before
	// uncounting itself left it too high): a full count older than that
	// starts again. 0 means one minute.
	InFlightStale time.Duration
}

// Fanout is the AWS push adapter.
type Fanout struct {
	st   store.Store
	api  ManagementAPI
	opts Options
	now  func() time.Time

	cacheMu sync.Mutex
	cache   map[string]cachedMembers
}

// cachedMembers is a channel's subscriber list read at some time.
type cachedMembers struct {
	ids   []string
	until time.Time
}

var _ push.Pusher = (*Fanout)(nil)

// New returns the adapter.
func New(st store.Store, api ManagementAPI, opts Options) *Fanout {
	if opts.TTL <= 0 {
		opts.TTL = 3 * time.Hour
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 16
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = push.MaxInFlight
	}
	if opts.InFlightStale <= 0 {
		opts.InFlightStale = time.Minute
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Fanout{st: st, api: api, opts: opts, now: now, cache: map[string]cachedMembers{}}
}

// WithChannelCache returns an adapter on the same store and management API
// whose Publish caches subscriber lists for ttl (Options.ChannelCache).
func (f *Fanout) WithChannelCache(ttl time.Duration) *Fanout {
	o := f.opts
	o.ChannelCache = ttl
	return New(f.st, f.api, o)
}

// WithRequests returns an adapter on the same store and management API
// that answers request frames with rf (Options.Requests): the ws function's.
func (f *Fanout) WithRequests(rf push.RequestFunc) *Fanout {
	o := f.opts
	o.Requests = rf
	return New(f.st, f.api, o)
}

// Key prefixes.
const (
	connPrefix = "WSCONN#"
	chanPrefix = "WSCHAN#"
	userPrefix = "WSUSER#"
	skMeta     = "META"
	skSub      = "SUB#"
	// attrSession is the bound session's id on a connection's META item.
	attrSession = "session"
	// attrInFlight counts the connection's requests running, and
	// attrInFlightAt is when the latest was counted (Unix ms).
	attrInFlight   = "inflight"
	attrInFlightAt = "inflightAt"
)

func (f *Fanout) connKey(id string) store.Key { return store.Key{PK: f.ConnPartition(id), SK: skMeta} }

// ConnPartition is the partition key of a connection's items: its META
// item, its subscriptions, and any item a caller keeps there (deleted with
// the connection).
func (f *Fanout) ConnPartition(connID string) string { return f.opts.Namespace + connPrefix + connID }

func (f *Fanout) ttl() int64 { return f.now().Add(f.opts.TTL).Unix() }

func (f *Fanout) live(it store.Item) bool {
	return !it.Has(store.AttrTTL) || it.Int(store.AttrTTL) > f.now().Unix()
}

// liveConn holds when the connection's META item exists and has not expired.
func (f *Fanout) liveConn() store.Cond {
	return store.And(store.ItemExists(), store.Compare(store.AttrTTL, store.CmpGt, f.now().Unix()))
}

// OnConnect records a new connection ($connect route).
func (f *Fanout) OnConnect(ctx context.Context, connID string) error {
	if err := push.ValidateID(connID); err != nil {
		return err
	}
	now := f.now()
	return f.st.Put(ctx, store.Item{
		store.AttrPK: f.ConnPartition(connID), store.AttrSK: skMeta,
		"connId": connID, "connectedAt": now.UnixMilli(), store.AttrTTL: f.ttl(),
	}, nil)
}

// OnDisconnect forgets a connection that API Gateway has closed
// ($disconnect route).
func (f *Fanout) OnDisconnect(ctx context.Context, connID string) error {
	return f.forget(ctx, connID)
}

// OnMessage handles one client frame ($default route) and posts the reply
// to the client: a request frame (order entry) is run by Options.Requests
// and answered the same way. A connection found gone is forgotten, not an
// error.
func (f *Fanout) OnMessage(ctx context.Context, connID string, body []byte) error {
	fr, perr := push.ParseFrame(body)
	var (
		reply []byte
		err   error
	)
	if fr.Kind == push.FrameRequest && f.opts.Requests != nil {
		reply, err = f.request(ctx, connID, push.RequestOf(fr, perr))
	} else {
		reply, err = push.ApplyFrame(ctx, f, f.opts.Auth, f.opts.Channels, connID, fr, perr)
	}
	if err == nil && reply != nil {
		err = f.SendTo(ctx, connID, reply)
	}
	if errors.Is(err, push.ErrGone) {
		return nil
	}
	return err
}

// request runs one request frame of connID and returns its answer. The
// function invocation is the request's own (API Gateway invokes one per
// frame, concurrently), so many are in flight per connection; counting it
// on the connection's META item bounds them to MaxInFlight and reads the
// connection's binding in the same write.
func (f *Fanout) request(ctx context.Context, connID string, r push.Request) ([]byte, error) {
	if r.Refused == nil {
		meta, counted, err := f.countIn(ctx, connID)
		switch {
		case errors.Is(err, push.ErrGone):
			return nil, err
		case err != nil:
			f.opts.Logger.Warn().Err(err).Str("conn", connID).Msg("push: counting a request in flight failed")
			r.Refused = err
		case !counted:
			r.Refused = push.TooManyInFlight(f.opts.MaxInFlight)
		default:
			r.UserID, r.SessionID = meta.Str("userId"), meta.Str(attrSession)
			defer f.countOut(ctx, connID)
		}
	}
	answer, p := push.ServeRequest(ctx, f.opts.Requests, r)
	if p != nil {
		f.opts.Logger.Error().Str("conn", connID).Str("method", r.Method).Str("panic", fmt.Sprint(p)).Msg("push: request panicked")
	}
	return answer, nil
}

// countIn counts a request of connID in flight unless MaxInFlight are, and
// returns the connection's META item. ErrGone: the connection is gone.
func (f *Fanout) countIn(ctx context.Context, connID string) (store.Item, bool, error) {
	if push.ValidateID(connID) != nil {
		return nil, false, push.ErrGone
	}
	now := f.now().UnixMilli()
	key := f.connKey(connID)
	it, err := f.st.Update(ctx, key, store.NewUpdate().AddInt(attrInFlight, 1).Set(attrInFlightAt, now),
		store.And(f.liveConn(), store.Or(store.NotExists(attrInFlight), store.Compare(attrInFlight, store.CmpLt, f.opts.MaxInFlight))))
	if err == nil {
		return it, true, nil
	}
	if !errors.Is(err, store.ErrConditionFailed) {
		return nil, false, err
	}
	cur, err := f.st.Get(ctx, key)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !f.live(cur)) {
		return nil, false, push.ErrGone
	}
	if err != nil {
		return nil, false, err
	}
	last := cur.Int(attrInFlightAt)
	if last >= now-f.opts.InFlightStale.Milliseconds() {
		return cur, false, nil
	}
	// The full count is stale: start again, unless another request just did.
	it, err = f.st.Update(ctx, key, store.NewUpdate().Set(attrInFlight, 1).Set(attrInFlightAt, now),
		store.And(f.liveConn(), store.Eq(attrInFlightAt, last)))
	if errors.Is(err, store.ErrConditionFailed) {
		return cur, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return it, true, nil
}

// countOut uncounts a request of connID that has ended. A failure leaves
// the count high until it is stale (InFlightStale).
func (f *Fanout) countOut(ctx context.Context, connID string) {
	_, err := f.st.Update(context.WithoutCancel(ctx), f.connKey(connID), store.NewUpdate().AddInt(attrInFlight, -1),
		store.And(store.ItemExists(), store.Compare(attrInFlight, store.CmpGt, 0)))
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		f.opts.Logger.Warn().Err(err).Str("conn", connID).Msg("push: uncounting a request in flight failed")
	}
}

// Subscribe implements push.Pusher.
func (f *Fanout) Subscribe(ctx context.Context, connID, channel string) error {
	op, err := f.SubscribeOp(connID, channel)
	if err != nil {
		return err
	}
	err = f.st.Transact(ctx, []store.Op{f.LiveConnOp(connID), op})
	if errors.Is(err, store.ErrConditionFailed) {
		return push.ErrGone
	}
	return err
}

// SubscribeOp is the write that subscribes connID to channel, for a
// caller's own transaction; put LiveConnOp in it too, so that a connection
// gone meanwhile subscribes to nothing (the transaction then fails with
// store.ErrConditionFailed).
func (f *Fanout) SubscribeOp(connID, channel string) (store.Op, error) {
	if err := push.ValidateChannel(channel); err != nil {
		return store.Op{}, err
	}
	if err := push.ValidateID(connID); err != nil {
		return store.Op{}, err
	}
	return store.PutOp(store.Item{
		store.AttrPK: f.ConnPartition(connID), store.AttrSK: skSub + channel,
		store.AttrGSI1PK: f.opts.Namespace + chanPrefix + channel, store.AttrGSI1SK: connID,
		"channel": channel, store.AttrTTL: f.ttl(),
	}, nil), nil
}

// UnsubscribeOp is the write that ends connID's subscription to channel,
// for a caller's own transaction.
func (f *Fanout) UnsubscribeOp(connID, channel string) store.Op {
	return store.DeleteOp(store.Key{PK: f.ConnPartition(connID), SK: skSub + channel}, nil)
}

// LiveConnOp checks, in a caller's transaction, that connID is still
// connected.
func (f *Fanout) LiveConnOp(connID string) store.Op {
	return store.CheckOp(f.connKey(connID), f.liveConn())
}

// Unsubscribe implements push.Pusher.
func (f *Fanout) Unsubscribe(ctx context.Context, connID, channel string) error {
	if push.ValidateChannel(channel) != nil || push.ValidateID(connID) != nil {
		return nil
	}
	return f.st.Delete(ctx, f.UnsubscribeOp(connID, channel).Key, nil)
}

// Bind implements push.Pusher.
func (f *Fanout) Bind(ctx context.Context, connID, userID, sessionID string) error {
	if err := push.ValidateID(userID); err != nil {
		return err
	}
	if err := push.ValidateID(connID); err != nil {
		return err
	}
	upd := store.NewUpdate().
		Set("userId", userID).
		Set(store.AttrGSI2PK, f.opts.Namespace+userPrefix+userID).
		Set(store.AttrGSI2SK, connID)
	if sessionID != "" {
		upd.Set(attrSession, sessionID)
	} else {
		upd.Remove(attrSession)
	}
	_, err := f.st.Update(ctx, f.connKey(connID), upd, f.liveConn())
	if errors.Is(err, store.ErrConditionFailed) {
		return push.ErrGone
	}
	return err
}

// Disconnect implements push.Pusher: it closes the client's connection at
// API Gateway and forgets it.
func (f *Fanout) Disconnect(ctx context.Context, connID string) error {
	if push.ValidateID(connID) != nil {
		return nil
	}
	_, err := f.api.DeleteConnection(ctx, &apigatewaymanagementapi.DeleteConnectionInput{ConnectionId: aws.String(connID)})
	if err != nil && !isGone(err) {
		f.opts.Logger.Warn().Err(err).Str("conn", connID).Msg("push: DeleteConnection failed")
	}
	return f.forget(ctx, connID)
}

// DisconnectUser implements push.Pusher: it closes, at API Gateway, every
// connection bound to the user by an ended session and forgets them. Every
// connection is tried; the first failure to forget one is returned.
func (f *Fanout) DisconnectUser(ctx context.Context, userID string, ended func(sessionID string) bool) error {
	if push.ValidateID(userID) != nil {
		return nil
	}
	var keep func(store.Item) bool
	if ended != nil {
		keep = func(it store.Item) bool { return ended(it.Str(attrSession)) }
	}
	ids, err := f.membersWhere(ctx, store.IndexGSI2, f.opts.Namespace+userPrefix+userID, keep)
	if err != nil {
		return err
	}
	var first error
	for _, id := range ids {
		if err := f.Disconnect(ctx, id); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// forget deletes every item of a connection.
func (f *Fanout) forget(ctx context.Context, connID string) error {
	if push.ValidateID(connID) != nil {
		return nil
	}
	q := store.Query{PK: f.ConnPartition(connID)}
	for {
		page, err := f.st.Query(ctx, q)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if err := f.st.Delete(ctx, it.Key(), nil); err != nil {
				return err
			}
		}
		if page.Cursor == "" {
			return nil
		}
		q.Cursor = page.Cursor
	}
}

// SendTo implements push.Pusher.
func (f *Fanout) SendTo(ctx context.Context, connID string, msg []byte) error {
	if push.ValidateID(connID) != nil {
		return push.ErrGone
	}
	_, err := f.api.PostToConnection(ctx, &apigatewaymanagementapi.PostToConnectionInput{ConnectionId: aws.String(connID), Data: msg})
	if err == nil {
		return nil
	}
	if isGone(err) {
		if ferr := f.forget(ctx, connID); ferr != nil {
			f.opts.Logger.Warn().Err(ferr).Str("conn", connID).Msg("push: forgetting a gone connection failed")
		}
		return push.ErrGone
	}
	return fmt.Errorf("push: PostToConnection: %w", err)
}

// Publish implements push.Pusher.
func (f *Fanout) Publish(ctx context.Context, channel string, msg []byte) (int, error) {
	if err := push.ValidateChannel(channel); err != nil {
		return 0, err
	}
	ids, err := f.channelMembers(ctx, channel)
	if err != nil {
		return 0, err
	}
	n, gone, err := f.deliver(ctx, ids, msg)
	if gone > 0 && f.opts.ChannelCache > 0 {
		f.cacheMu.Lock()
		delete(f.cache, channel)
		f.cacheMu.Unlock()
	}
	return n, err
}

// channelMembers lists a channel's live subscribers, from the cache when
// Options.ChannelCache allows.
func (f *Fanout) channelMembers(ctx context.Context, channel string) ([]string, error) {
	ttl := f.opts.ChannelCache
	if ttl <= 0 {
		return f.members(ctx, store.IndexGSI1, f.opts.Namespace+chanPrefix+channel)
	}
	now := f.now()
	f.cacheMu.Lock()
	c, ok := f.cache[channel]
	f.cacheMu.Unlock()
	if ok && now.Before(c.until) {
		return c.ids, nil
	}
	ids, err := f.members(ctx, store.IndexGSI1, f.opts.Namespace+chanPrefix+channel)
	if err != nil {
		return nil, err
	}
	f.cacheMu.Lock()
	f.cache[channel] = cachedMembers{ids: ids, until: now.Add(ttl)}
	f.cacheMu.Unlock()
	return ids, nil
}

// PublishUser implements push.Pusher.
func (f *Fanout) PublishUser(ctx context.Context, userID string, msg []byte) (int, error) {
	if err := push.ValidateID(userID); err != nil {
		return 0, err
	}
	ids, err := f.members(ctx, store.IndexGSI2, f.opts.Namespace+userPrefix+userID)
	if err != nil {
		return 0, err
	}
	n, _, err := f.deliver(ctx, ids, msg)
	return n, err
}

// UserConnections lists the live connections bound to the user: the
// stream function looks each user up once per batch and posts with SendTo.
func (f *Fanout) UserConnections(ctx context.Context, userID string) ([]string, error) {
	if err := push.ValidateID(userID); err != nil {
		return nil, err
	}
	return f.members(ctx, store.IndexGSI2, f.opts.Namespace+userPrefix+userID)
}

// members lists the live connection ids under an index partition.
func (f *Fanout) members(ctx context.Context, index, pk string) ([]string, error) {
	return f.membersWhere(ctx, index, pk, nil)
}

// membersWhere is members limited to the items match accepts (all when
// match is nil).
func (f *Fanout) membersWhere(ctx context.Context, index, pk string, match func(store.Item) bool) ([]string, error) {
	var ids []string
	q := store.Query{Index: index, PK: pk, Limit: 500}
	for {
		page, err := f.st.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			if !f.live(it) || (match != nil && !match(it)) {
				continue
			}
			if id := strings.TrimPrefix(it.Str(store.AttrPK), f.opts.Namespace+connPrefix); id != "" {
				ids = append(ids, id)
			}
		}
		if page.Cursor == "" {
			return ids, nil
		}
		q.Cursor = page.Cursor
	}
}

// deliver posts msg to every id with bounded parallelism (push.SendAll):
// gone connections are forgotten by SendTo and counted apart.
func (f *Fanout) deliver(ctx context.Context, ids []string, msg []byte) (delivered, gone int, firstErr error) {
	n, g, err := push.SendAll(ctx, f.SendTo, ids, msg, f.opts.Concurrency)
	return n, len(g), err
}

func isGone(err error) bool {
	var gone *types.GoneException
	return errors.As(err, &gone)
}
