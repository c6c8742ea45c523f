// Package userfeed derives every user's private realtime messages from the
// store's change feed: a change of one of the user's spot orders becomes a
// message on the channel user_orders, a change of one of the user's
// balances a message on user_balances, and both are sent with
// push.Pusher.PublishUser to the connections the user has authenticated
// (auth frame with the session token). Clients do not subscribe to these
// channels; a connection bound to a user receives them, and no other does.
//
// Why the change feed. Balances change through many writers (deposits,
// transfers, withdrawals, order holds and releases, trade settlement) and
// orders through the API and the engine's settlement. The change feed sees
// every one of them, in commit order per item, and only once the write has
// committed, so a client is never told about a write that was rolled back
// and no writer has to remember to publish. Locally Consumer reads the
// embedded store's feed inside `tenger serve` and hands the messages to the
// in-process hub; in AWS the stream function receives the same changes from
// DynamoDB Streams and sends them through the API Gateway adapter. Both use
// Translator, so the two runtimes send the same messages.
//
// Message shapes (push.Data envelopes {"channel","ts","data"}; ts is the
// commit time in Unix ms):
//
//	user_orders    data: OrderUpdate   the order as the REST order list shows it, plus "event"
//	user_balances  data: BalanceUpdate one account's balance of one coin
package userfeed

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/push"
	"tenger/internal/spot"
	"tenger/internal/store"
)

// Private channel names. They carry only the bound user's own updates.
const (
	ChannelOrders   = "user_orders"
	ChannelBalances = "user_balances"
	// ChannelFutures tells the user that one of their futures positions,
	// orders or trigger orders changed (FuturesUpdate): the page reads
	// what changed again.
	ChannelFutures = "user_futures"
)

// FuturesUpdate is the data of a user_futures message.
type FuturesUpdate struct {
	Event  string `json:"event" doc:"position, order or trigger"`
	Symbol string `json:"symbol"`
	ID     string `json:"id,omitempty" doc:"the order's or trigger order's id"`
	Status string `json:"status,omitempty" doc:"the order's or trigger order's status"`
}

// futuresKinds are the futures items a user_futures message tells of, by
// their partition key's prefix (internal/futures/project.go owns the
// layout).
var futuresKinds = map[string]string{"FPOS#": "position", "FORD#": "order", "FTRIG#": "trigger"}

// FuturesKeyPrefixes are the partition key prefixes of the futures items
// user_futures tells of.
func FuturesKeyPrefixes() []string { return []string{"FORD#", "FPOS#", "FTRIG#"} }

// futuresOf reads a change of a futures item.
func futuresOf(ch store.Change) (user string, u FuturesUpdate, ok bool) {
	if ch.New == nil {
		return "", FuturesUpdate{}, false
	}
	i := strings.IndexByte(ch.Key.PK, '#')
	if i < 0 {
		return "", FuturesUpdate{}, false
	}
	event, ok := futuresKinds[ch.Key.PK[:i+1]]
	if !ok {
		return "", FuturesUpdate{}, false
	}
	user = ch.New.Str("uid")
	if event == "position" {
		user = ch.Key.PK[i+1:]
	}
	u = FuturesUpdate{Event: event, Symbol: ch.New.Str("symbol")}
	if event != "position" {
		u.ID, u.Status = ch.New.Str("id"), ch.New.Str("status")
	}
	if user == ledger.SystemOwner || push.ValidateID(user) != nil {
		return "", FuturesUpdate{}, false
	}
	return user, u, true
}

// Order events: what changed in the order.
const (
	// EventPlaced: the order was stored (status NEW) and its funds held.
	EventPlaced = "placed"
	// EventAccepted: the engine has sequenced the order into its book.
	EventAccepted = "accepted"
	// EventTrade: a fill was settled (deal_volume, deal_money, fee grew).
	EventTrade = "trade"
	// EventDone: the order ended: status FILLED, CANCELLED or REJECTED, and
	// what was left of its hold was released.
	EventDone = "done"
	// EventAmended: the order's volume was reduced in place (order/amend).
	EventAmended = "amended"
	// EventUpdate: any other change of the stored order.
	EventUpdate = "update"
)

// balancePK starts a balance item's key (internal/ledger/account.go owns
// the layout); orders are read with spot.OrderFromItem.
const balancePK = "BAL#"

// BalanceKeyPrefix starts the partition key of every balance item.
const BalanceKeyPrefix = balancePK

// OrderUpdate is the data of a user_orders message: the order as the REST
// order lists show it (spot.OrderView), so a client can put it straight
// into the list it shows, and Event, what happened.
type OrderUpdate struct {
	Event string `json:"event" doc:"placed, accepted, trade, amended, done or update"`
	spot.OrderView
}

// BalanceUpdate is the data of a user_balances message: one coin of one of
// the user's accounts after the change. Amounts are exact decimal strings.
type BalanceUpdate struct {
	Account string `json:"account" doc:"spot, otc, futures, margin_cross, margin_isolated or earn"`
	Sub     string `json:"sub,omitempty" doc:"the pair of an isolated margin account"`
	Coin    string `json:"coin"`
	Normal  string `json:"normal" doc:"available"`
	Lock    string `json:"lock" doc:"frozen (held by open orders and pending withdrawals)"`
	Total   string `json:"total"`
}

// Message is one private message for one user.
type Message struct {
	User    string
	Channel string
	// Body is the push.Data envelope to send.
	Body []byte
}

// Translator turns store changes into private messages.
type Translator struct {
	markets *markets.Catalogue
}

// New returns a translator; the catalogue gives each pair's price
// precision (for avg_price), as the REST API uses it.
func New(cat *markets.Catalogue) *Translator { return &Translator{markets: cat} }

// Translate returns the private message a committed change causes, and
// false for changes that concern no user's orders or balances (everything
// else in the table, the exchange's own accounts, removals).
func (t *Translator) Translate(ch store.Change) (Message, bool) {
	if fuser, fu, ok := futuresOf(ch); ok {
		body, err := push.Data(ChannelFutures, time.UnixMilli(ch.At), fu)
		if err != nil {
			return Message{}, false
		}
		return Message{User: fuser, Channel: ChannelFutures, Body: body}, true
	}
	user, o, isOrder := Owner(ch)
	if user == "" {
		return Message{}, false
	}
	var (
		channel string
		data    any
	)
	if isOrder {
		if o.ID == "" {
			return Message{}, false
		}
		event := OrderEvent(ch)
		if event == "" {
			return Message{}, false
		}
		upd := t.orderUpdate(event, o)
		if event == EventUpdate {
			// A change the order's view does not show (an amend's pending
			// volume stored or withdrawn) tells the user nothing.
			if old, ok := spot.OrderFromItem(ch.Key, ch.Old); ok && sameJSON(t.orderUpdate(event, old), upd) {
				return Message{}, false
			}
		}
		channel, data = ChannelOrders, upd
	} else {
		b, ok := BalanceOf(ch)
		if !ok {
			return Message{}, false
		}
		channel, data = ChannelBalances, b
	}
	body, err := push.Data(channel, time.UnixMilli(ch.At), data)
	if err != nil {
		return Message{}, false
	}
	return Message{User: user, Channel: channel, Body: body}, true
}

// TranslateAll is Translate, except that an order the store shows for the
// first time already sequenced (the engine's projection writes an order
// as it is after the batch that placed it) is told as the events it went
// through: placed, accepted, and done when it ended in that batch, each
// with the order as the store shows it.
func (t *Translator) TranslateAll(ch store.Change) []Message {
	m, ok := t.Translate(ch)
	if !ok {
		return nil
	}
	out := []Message{m}
	user, o, isOrder := Owner(ch)
	if !isOrder || (ch.Kind != store.ChangeInsert && ch.Old != nil) || !ch.New.Has("seq") {
		return out
	}
	events := []string{EventAccepted}
	if ch.New.Has("doneAt") && !spot.FillsPending(ch.New) {
		events = append(events, EventDone)
	}
	for _, ev := range events {
		body, err := push.Data(ChannelOrders, time.UnixMilli(ch.At), t.orderUpdate(ev, o))
		if err == nil {
			out = append(out, Message{User: user, Channel: ChannelOrders, Body: body})
		}
	}
	return out
}

// User returns the user whose order or balance a change wrote, without
// building a message: Translate's messages go to this user, and a change
// for which ok is false has no message. So a consumer can find out whether
// anybody watches the user before building anything (the stream function
// looks up each user's connections once per batch and skips the users
// nobody watches). A change with a user may still have no message (a
// balance whose amounts did not change).
func (t *Translator) User(ch store.Change) (user string, ok bool) {
	if fuser, _, ok := futuresOf(ch); ok {
		return fuser, true
	}
	user, _, _ = Owner(ch)
	return user, user != ""
}

// Owner is the user whose order or balance a change wrote ("" for any other
// change, a removal and the exchange's own accounts), and the order when
// the change is one.
func Owner(ch store.Change) (user string, o spot.Order, isOrder bool) {
	if ch.New == nil {
		return "", spot.Order{}, false
	}
	if o, isOrder = spot.OrderFromItem(ch.Key, ch.New); isOrder {
		user = o.UID
	} else if strings.HasPrefix(ch.Key.PK, balancePK) {
		user = strings.TrimPrefix(ch.Key.PK, balancePK)
	}
	if user == ledger.SystemOwner || push.ValidateID(user) != nil {
		user = ""
	}
	return user, o, isOrder
}

// OrderEvent names what a change did to an order (EventPlaced ...
// EventUpdate), or "" for a change that is not told. An order's end is written concurrently with its last trades
// (spot.AttrEndDeal): an end that lands before them is held back, and the
// trade that completes its fills is told as the end, so "done" always comes
// last and carries the final figures.
func OrderEvent(ch store.Change) string {
	if ch.Kind == store.ChangeInsert || ch.Old == nil {
		return EventPlaced
	}
	switch {
	case ch.New.Has("doneAt") && spot.FillsPending(ch.New):
		return ""
	case ch.New.Has("doneAt") && !ch.Old.Has("doneAt"):
		return EventDone
	case ch.New.Has("doneAt") && spot.FillsPending(ch.Old):
		return EventDone
	case !ch.New.Dec("dealVolume").Equal(ch.Old.Dec("dealVolume")):
		return EventTrade
	case !ch.New.Dec("volume").Equal(ch.Old.Dec("volume")):
		return EventAmended
	case ch.New.Has("seq") && !ch.Old.Has("seq"):
		return EventAccepted
	}
	return EventUpdate
}

func (t *Translator) orderUpdate(event string, o spot.Order) OrderUpdate {
	pp := int32(8)
	if t.markets != nil {
		if p, ok := t.markets.Pair(o.Symbol); ok {
			pp = p.PricePrecision
		}
	}
	return OrderUpdate{Event: event, OrderView: o.View(pp)}
}

// BalanceOf reads a change of a balance item (pk "BAL#<owner>", sk
// "<kind>#<sub>#<coin>", numbers "avail" and "frozen") of a user's account.
// A change that left both amounts as they were is no update (ok false).
func BalanceOf(ch store.Change) (BalanceUpdate, bool) {
	parts := strings.SplitN(ch.Key.SK, "#", 3)
	if len(parts) != 3 || parts[0] == "" || parts[2] == "" {
		return BalanceUpdate{}, false
	}
	kind := ledger.Kind(parts[0])
	if kind.External() || kind == ledger.Fees || kind == ledger.Insurance {
		return BalanceUpdate{}, false
	}
	avail, frozen := ch.New.Dec(string(ledger.Available)), ch.New.Dec(string(ledger.Frozen))
	if ch.Old != nil && avail.Equal(ch.Old.Dec(string(ledger.Available))) && frozen.Equal(ch.Old.Dec(string(ledger.Frozen))) {
		return BalanceUpdate{}, false
	}
	return BalanceUpdate{Account: string(kind), Sub: parts[1], Coin: parts[2],
		Normal: avail.String(), Lock: frozen.String(), Total: avail.Add(frozen).String()}, true
}

// sameJSON reports whether two values encode alike.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
