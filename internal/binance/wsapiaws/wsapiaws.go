// Package wsapiaws keeps the Binance-compatible WebSocket API's
// connections in AWS: the wsapi function handles each frame of an API
// Gateway WebSocket API as one invocation, so what a connection remembers
// between frames (binance.WSState: its address, whether answers carry
// rateLimits, the key it logged on with, its user data subscriptions) is
// kept in the table, beside the connection items of its push adapter
// (apigw.Fanout with its own namespace), and goes away with them on
// $disconnect or by TTL. The stream function finds a user's subscriptions
// (Subscribers) and posts the user data events to them.
//
// Items, in the connection's partition (Fanout.ConnPartition):
//
//	sk BSTATE          ip, connected (Unix ms), rateLimits, logonKey, logonAt,
//	                   logonSub (-1 none), nextSub, ttl
//	sk BSUB#<id>       subscriptionId, apiKey, uid, logon, ttl,
//	                   gsi1pk BUD#<uid>, gsi1sk <conn>#<id>
package wsapiaws

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"tenger/internal/apikey"
	"tenger/internal/binance"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/store"
)

// Namespace is the push adapter namespace of the Binance-compatible
// WebSocket API's connections (apigw.Options.Namespace).
const Namespace = "B"

// TTL of the items: longer than API Gateway's two-hour connections, as the
// push adapter's.
const TTL = 3 * time.Hour

const (
	skState   = "BSTATE"
	skSub     = "BSUB#"
	userIndex = "BUD#"
)

// ErrGone: the connection is not (any more) known.
var ErrGone = push.ErrGone

// Conn is one connection's state as read for one frame; it implements
// binance.WSConn.
type Conn struct {
	st    store.Store
	fan   *apigw.Fanout
	id    string
	now   func() time.Time
	state binance.WSState
	ip    string
	subs  []sub
}

// sub is one user data subscription of a connection.
type sub struct {
	id     int64
	apiKey string
	uid    string
	logon  bool
}

var _ binance.WSConn = (*Conn)(nil)

func stateKey(fan *apigw.Fanout, connID string) store.Key {
	return store.Key{PK: fan.ConnPartition(connID), SK: skState}
}

// Connect records a new connection: the push adapter's items and its
// state (its address; rateLimits false when it asked
// ?returnRateLimits=false).
func Connect(ctx context.Context, st store.Store, fan *apigw.Fanout, connID, ip string, rateLimits bool, now time.Time) error {
	if err := fan.OnConnect(ctx, connID); err != nil {
		return err
	}
	k := stateKey(fan, connID)
	return st.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "ip": ip, "connected": now.UnixMilli(),
		"rateLimits": rateLimits, "logonSub": int64(-1), "nextSub": int64(0), store.AttrTTL: now.Add(TTL).Unix()}, nil)
}

// Open reads a connection's state for one frame (ErrGone when it is not
// known or expired).
func Open(ctx context.Context, st store.Store, fan *apigw.Fanout, connID string, now func() time.Time) (*Conn, error) {
	c := &Conn{st: st, fan: fan, id: connID, now: now}
	q := store.Query{PK: fan.ConnPartition(connID), SK: store.SKPrefixed("BS")}
	found := false
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			if it.Int(store.AttrTTL) <= now().Unix() {
				continue
			}
			switch sk := it.Str(store.AttrSK); {
			case sk == skState:
				found = true
				c.ip = it.Str("ip")
				c.state.Connected = time.UnixMilli(it.Int("connected"))
				c.state.RateLimits = it.Bool("rateLimits")
				if k := it.Str("logonKey"); k != "" {
					c.state.LogonKey, c.state.LogonAt = k, time.UnixMilli(it.Int("logonAt"))
				}
			case strings.HasPrefix(sk, skSub):
				c.subs = append(c.subs, sub{id: it.Int("subscriptionId"), apiKey: it.Str("apiKey"), uid: it.Str("uid"),
					logon: it.Bool("logon")})
			}
		}
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	if !found {
		return nil, ErrGone
	}
	for _, s := range c.subs {
		c.state.Subs = append(c.state.Subs, s.id)
	}
	return c, nil
}

// IP implements binance.WSConn.
func (c *Conn) IP() string { return c.ip }

// Send implements binance.WSConn (a connection found gone is forgotten by
// the push adapter).
func (c *Conn) Send(ctx context.Context, frame []byte) { _ = c.fan.SendTo(ctx, c.id, frame) }

// State implements binance.WSConn.
func (c *Conn) State(context.Context) (binance.WSState, error) {
	st := c.state
	st.Subs = slices.Clone(c.state.Subs)
	return st, nil
}

// LogOn implements binance.WSConn: a different key (or none) ends the
// subscription the previous logon made.
func (c *Conn) LogOn(ctx context.Context, key apikey.Resolved, at time.Time) error {
	upd := store.NewUpdate()
	if key.APIKey == "" {
		upd.Remove("logonKey").Remove("logonAt")
	} else {
		upd.Set("logonKey", key.APIKey).Set("logonAt", at.UnixMilli())
	}
	if key.APIKey != c.state.LogonKey {
		for _, s := range slices.Clone(c.subs) {
			if s.logon {
				if err := c.st.Delete(ctx, c.subKey(s.id), nil); err != nil {
					return err
				}
				c.forget(s.id)
			}
		}
	}
	if _, err := c.st.Update(ctx, stateKey(c.fan, c.id), upd, store.ItemExists()); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return binance.ErrDisconnected()
		}
		return err
	}
	c.state.LogonKey, c.state.LogonAt = key.APIKey, at
	return nil
}

func (c *Conn) subKey(id int64) store.Key {
	return store.Key{PK: c.fan.ConnPartition(c.id), SK: skSub + fmt.Sprintf("%06d", id)}
}

// Subscribe implements binance.WSConn.
func (c *Conn) Subscribe(ctx context.Context, key apikey.Resolved, logon bool) (int64, error) {
	for _, s := range c.subs {
		if s.logon == logon && (logon || s.apiKey == key.APIKey) {
			return s.id, nil
		}
	}
	if len(c.subs) >= binance.MaxUserDataSubs {
		return 0, binance.ErrTooManySubs()
	}
	it, err := c.st.Update(ctx, stateKey(c.fan, c.id), store.NewUpdate().AddInt("nextSub", 1), store.ItemExists())
	if errors.Is(err, store.ErrConditionFailed) {
		return 0, binance.ErrDisconnected()
	}
	if err != nil {
		return 0, err
	}
	id := it.Int("nextSub") - 1
	k := c.subKey(id)
	if err := c.st.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "subscriptionId": id, "apiKey": key.APIKey,
		"uid": key.UserID, "logon": logon, store.AttrTTL: c.now().Add(TTL).Unix(),
		store.AttrGSI1PK: userIndex + key.UserID, store.AttrGSI1SK: c.id + "#" + strconv.FormatInt(id, 10)}, nil); err != nil {
		return 0, err
	}
	c.subs = append(c.subs, sub{id: id, apiKey: key.APIKey, uid: key.UserID, logon: logon})
	c.state.Subs = append(c.state.Subs, id)
	return id, nil
}

// Unsubscribe implements binance.WSConn.
func (c *Conn) Unsubscribe(ctx context.Context, id int64, all bool) (bool, error) {
	found := false
	for _, s := range slices.Clone(c.subs) {
		if all || s.id == id {
			found = true
			if err := c.st.Delete(ctx, c.subKey(s.id), nil); err != nil {
				return found, err
			}
			c.forget(s.id)
		}
	}
	return found, nil
}

// forget drops an ended subscription from the state this frame read, so
// what the frame answers next (session.logout's userDataStream, a new
// Subscribe) does not count it.
func (c *Conn) forget(id int64) {
	c.subs = slices.DeleteFunc(c.subs, func(s sub) bool { return s.id == id })
	c.state.Subs = slices.DeleteFunc(c.state.Subs, func(x int64) bool { return x == id })
}

// Subscriber is a connection listening to a user's events.
type Subscriber struct {
	ConnID         string
	SubscriptionID int64
	APIKey         string
}

// Subscribers lists the live subscriptions to a user's events.
func Subscribers(ctx context.Context, st store.Store, uid string, now time.Time) ([]Subscriber, error) {
	var out []Subscriber
	err := store.EachLive(ctx, st, store.Query{Index: store.IndexGSI1, PK: userIndex + uid, Limit: 200}, now, func(it store.Item) {
		conn, _, _ := strings.Cut(it.Str(store.AttrGSI1SK), "#")
		out = append(out, Subscriber{ConnID: conn, SubscriptionID: it.Int("subscriptionId"), APIKey: it.Str("apiKey")})
	})
	return out, err
}

// Drop ends one subscription (its key was deleted).
func Drop(ctx context.Context, st store.Store, fan *apigw.Fanout, s Subscriber) error {
	return st.Delete(ctx, store.Key{PK: fan.ConnPartition(s.ConnID), SK: skSub + fmt.Sprintf("%06d", s.SubscriptionID)}, nil)
}
