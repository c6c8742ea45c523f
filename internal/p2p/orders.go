package p2p

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/store"
	"tenger/internal/workflow"
)

// Order is a P2P order as stored and shown to its two sides.
type Order struct {
	ID     string `json:"id"`
	Seq    string `json:"sequence" doc:"the order number (the id)"`
	AdID   string `json:"advertId"`
	Maker  string `json:"makerUid" doc:"the merchant whose ad it is"`
	Taker  string `json:"takerUid"`
	Buyer  string `json:"buyerUid"`
	Seller string `json:"sellerUid"`
	// Side is the reader's: BUY when the caller is the buyer (set by the
	// calls that answer one user).
	Side    string          `json:"side"`
	Coin    string          `json:"coinSymbol"`
	Fiat    string          `json:"paySymbol"`
	Price   decimal.Decimal `json:"price"`
	Volume  decimal.Decimal `json:"volume" doc:"coins"`
	Total   decimal.Decimal `json:"totalPrice" doc:"fiat the buyer pays"`
	Methods []Method        `json:"payments" doc:"the seller's accounts the buyer pays to"`
	Terms   string          `json:"description" doc:"the ad's terms when the order opened"`
	Status  string          `json:"status" doc:"PENDING, BUYER_PAID, IN_APPEAL, COMPLETED, CANCELLED or CANCELLED_BY_SYSTEM"`
	// CancelBy says who ended a cancelled order: buyer, system or operator.
	CancelBy   string  `json:"cancelBy,omitempty"`
	Created    int64   `json:"ctime"`
	Deadline   int64   `json:"payDeadline" doc:"Unix ms by which the buyer must pay"`
	PaidAt     int64   `json:"payTime"`
	DoneAt     int64   `json:"finishTime"`
	Appeal     *Appeal `json:"appeal,omitempty"`
	BuyerNick  string  `json:"buyerNickName"`
	SellerNick string  `json:"sellerNickName"`

	ver int64
	// raw is the item the order was read from (nil for one built in memory).
	raw store.Item
}

// Appeal is a dispute over a paid order.
type Appeal struct {
	By          string   `json:"by" doc:"the appellant's uid"`
	Reason      string   `json:"reason"`
	Description string   `json:"description"`
	Evidence    []string `json:"evidence" doc:"upload ids"`
	At          int64    `json:"ctime"`
	// Status: open, cancelled (withdrawn), decided (by an operator) or
	// resolved (the seller released during it).
	Status    string `json:"status"`
	Outcome   string `json:"outcome,omitempty" doc:"release (to the buyer) or refund (to the seller)"`
	DecidedBy string `json:"decidedBy,omitempty"`
	DecidedAt int64  `json:"decidedAt,omitempty"`
	Note      string `json:"note,omitempty"`
}

// Appeal outcomes an operator decides.
const (
	OutcomeRelease = "release"
	OutcomeRefund  = "refund"
)

// fromSellAd reports whether the order's coins came from a SELL ad's hold.
func (o Order) fromSellAd() bool { return o.Seller == o.Maker }

// OrderInput is buy_order_save / sell_order_save.
type OrderInput struct {
	AdID string
	// Side is the taker's (BUY from a SELL ad).
	Side string
	// Volume (coins) or Amount (fiat): one of them.
	Volume decimal.Decimal
	Amount decimal.Decimal
	// MethodIDs are the taker's payment methods when the taker sells (they
	// are where the merchant pays).
	MethodIDs []string
}

// OpenOrder opens an order against an ad; the coins go into escrow at once.
func (s *Service) OpenOrder(ctx context.Context, uid string, in OrderInput) (Order, error) {
	a, err := s.readAd(ctx, in.AdID)
	if err != nil {
		return Order{}, err
	}
	if a.Status != AdOpen {
		return Order{}, apperr.New(apperr.CodeP2PAdClosed)
	}
	if a.UID == uid {
		return Order{}, apperr.New(apperr.CodeP2POwnAd).WithErrorMsg("own_ad_cannot_be_traded")
	}
	if b, err := s.blocked(ctx, uid, a.UID); err != nil {
		return Order{}, err
	} else if b {
		return Order{}, apperr.New(apperr.CodeP2PBlocked)
	}
	want := Buy
	if a.Side == Buy {
		want = Sell
	}
	if strings.ToUpper(in.Side) != want {
		return Order{}, apperr.Param("side")
	}
	if a.KYC {
		p, err := s.o.Profiles.P2PProfile(ctx, uid)
		if err != nil {
			return Order{}, internal(err)
		}
		if !p.KYCVerified {
			return Order{}, apperr.New(apperr.CodeP2PKYCRequired)
		}
	}
	if err := s.pricing(ctx, &a); err != nil {
		return Order{}, err
	}
	scale := s.o.Coins[a.Coin]
	vol := in.Volume
	switch {
	case vol.IsPositive():
		if vol.Exponent() < -scale {
			return Order{}, apperr.Param("volume")
		}
	case in.Amount.IsPositive():
		vol = in.Amount.Div(a.Price).RoundDown(scale)
	default:
		return Order{}, apperr.Param("volume or amount")
	}
	total := vol.Mul(a.Price).Round(FiatScale)
	if !vol.IsPositive() || total.LessThan(a.MinFiat) || total.GreaterThan(a.MaxFiat) {
		return Order{}, apperr.New(apperr.CodeP2POrderLimits, a.MinFiat.String(), a.MaxFiat.String(), a.Fiat)
	}
	if vol.GreaterThan(a.Remaining) {
		return Order{}, apperr.New(apperr.CodeP2PAdRemaining, a.Remaining.String(), a.Coin)
	}
	o := Order{AdID: a.ID, Maker: a.UID, Taker: uid, Coin: a.Coin, Fiat: a.Fiat, Price: a.Price, Volume: vol, Total: total,
		Methods: a.Methods, Terms: a.Terms, Status: StatusPending}
	if a.Side == Sell {
		o.Buyer, o.Seller = uid, a.UID
	} else {
		o.Buyer, o.Seller = a.UID, uid
		// The merchant pays the taker: the taker's own methods, of the kinds the ad accepts.
		mine, err := s.o.Methods.Methods(ctx, uid, in.MethodIDs)
		if err != nil {
			return Order{}, err
		}
		o.Methods = slices.DeleteFunc(mine, func(m Method) bool {
			return !slices.ContainsFunc(a.Methods, func(x Method) bool { return x.Kind == m.Kind })
		})
		if len(o.Methods) == 0 {
			return Order{}, apperr.Param("payments: none of the kinds this ad accepts")
		}
	}
	now := s.o.Now()
	o.ID = newID(now)
	o.Seq, o.Created, o.Deadline, o.ver = o.ID, ms(now), ms(now.Add(time.Duration(a.PayMin)*time.Minute)), 1

	ops := []store.Op{
		store.UpdateOp(adKey(a.ID), store.NewUpdate().Add("remaining", vol.Neg()).AddInt(store.AttrVersion, 1).Set("updated", ms(now)),
			store.And(store.Eq("status", AdOpen), store.Ge("remaining", vol), store.Eq("ever", a.ever))).Named(opAd),
		store.UpdateOp(profileKey(uid), store.NewUpdate().AddInt("open", 1),
			store.Or(store.NotExists("open"), store.Compare("open", store.CmpLt, int64(MaxOpenOrders)))).Named(opTaker),
		store.PutOp(o.item(), store.ItemNotExists()),
		store.PutOp(linkItem(o.Buyer, true, o), nil),
		store.PutOp(linkItem(o.Seller, true, o), nil),
		systemMessage(o.ID, now, "created"),
	}
	if s.o.Start != nil {
		wf, err := s.o.Start(timeoutID(o.ID), TimeoutInput{OrderID: o.ID}, now, time.UnixMilli(o.Deadline))
		if err != nil {
			return Order{}, internal(err)
		}
		ops = append(ops, wf)
	}
	if a.Side == Buy {
		_, err = s.o.Ledger.Post(ctx, ledger.Posting{ID: "p2p:order:" + o.ID + ":escrow", Reason: "p2p_escrow",
			Legs: []ledger.Leg{ledger.HoldLeg(otc(uid), o.Coin, vol)}, Meta: map[string]string{"order": o.ID}, Extra: ops})
	} else {
		err = s.o.Store.Transact(ctx, ops)
	}
	if err != nil {
		return Order{}, s.openError(ctx, a, vol, failedName(err, ops), err)
	}
	s.o.Log.Info().Str("order", o.ID).Str("ad", a.ID).Str("buyer", o.Buyer).Str("seller", o.Seller).
		Str("coin", o.Coin).Str("volume", vol.String()).Msg("p2p order opened")
	s.changed(ctx, o)
	o.Side = Buy
	if uid == o.Seller {
		o.Side = Sell
	}
	return s.withNicks(ctx, o), nil
}

// openError says why an order could not be opened.
func (s *Service) openError(ctx context.Context, a Ad, vol decimal.Decimal, failed string, err error) error {
	if errors.Is(err, ledger.ErrInsufficient) {
		return apperr.New(apperr.CodeP2PInsufficient, a.Coin)
	}
	switch failed {
	case opAd:
		cur, rerr := s.readAd(ctx, a.ID)
		switch {
		case rerr != nil:
			return rerr
		case cur.Status != AdOpen:
			return apperr.New(apperr.CodeP2PAdClosed)
		case cur.Remaining.LessThan(vol):
			return apperr.New(apperr.CodeP2PAdRemaining, cur.Remaining.String(), cur.Coin)
		default:
			return apperr.New(apperr.CodeP2PAdChanged)
		}
	case opTaker:
		return apperr.New(apperr.CodeP2PTooManyOpen, MaxOpenOrders)
	}
	return internal(err)
}

// Names of the conditions a transition or an order's opening may fail.
const (
	opAd    = "ad"
	opTaker = "taker"
	opOrder = "order"
)

// failedName is the name of the operation of ops whose condition failed,
// whether ops ran as a transaction or as a posting's extra operations;
// "" when err is no such failure.
func failedName(err error, ops []store.Op) string {
	var ex *ledger.ExtraFailedError
	if errors.As(err, &ex) && ex.Index >= 0 && ex.Index < len(ops) {
		return ops[ex.Index].Name
	}
	name, _ := store.FailedCondition(err, ops)
	return name
}

// Order reads an order of the caller (buyer or seller); anyone else's
// answers not found.
func (s *Service) Order(ctx context.Context, uid, id string) (Order, error) {
	o, err := s.readOrder(ctx, id)
	if err != nil {
		return Order{}, err
	}
	if uid != o.Buyer && uid != o.Seller {
		return Order{}, apperr.New(apperr.CodeP2POrderNotFound)
	}
	o.Side = Buy
	if uid == o.Seller {
		o.Side = Sell
	}
	return s.withNicks(ctx, o), nil
}

// OrderForOperator reads any order (the operator's tools).
func (s *Service) OrderForOperator(ctx context.Context, id string) (Order, error) {
	o, err := s.readOrder(ctx, id)
	if err != nil {
		return Order{}, err
	}
	return s.withNicks(ctx, o), nil
}

func (s *Service) readOrder(ctx context.Context, id string) (Order, error) {
	if !validID(id) {
		return Order{}, apperr.New(apperr.CodeP2POrderNotFound)
	}
	it, err := s.o.Store.Get(ctx, orderKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Order{}, apperr.New(apperr.CodeP2POrderNotFound)
	}
	if err != nil {
		return Order{}, internal(err)
	}
	return orderOf(it), nil
}

func (s *Service) withNicks(ctx context.Context, o Order) Order {
	seen := map[string]string{}
	o.BuyerNick, o.SellerNick = s.nick(ctx, seen, o.Buyer), s.nick(ctx, seen, o.Seller)
	return o
}

// plan is what one transition does beyond moving the state.
type plan struct {
	to string
	// msg is the system message's key.
	msg string
	upd func(u *store.Update)
	// release moves the escrow to the buyer; refund returns it.
	release, refund bool
	// stats are profile changes of the two sides, committed with the move.
	stats []store.Op
	// appealIndex sets (true) or removes (false) the order from the
	// operator's appeal queue; nil leaves it.
	appealIndex *bool
}

// transition moves an order: decide reads the current order and answers
// the plan, or an error when the move does not fit. Conflicts with a
// concurrent move are retried with the order read again.
func (s *Service) transition(ctx context.Context, id string, decide func(o Order, now time.Time) (plan, error)) (Order, error) {
	for attempt := 0; ; attempt++ {
		o, err := s.readOrder(ctx, id)
		if err != nil {
			return Order{}, err
		}
		now := s.o.Now()
		p, err := decide(o, now)
		if err != nil {
			return Order{}, err
		}
		next, failed, err := s.apply(ctx, o, p, now, true)
		if failed == opAd {
			// The ad closed meanwhile: return the coins to the seller instead.
			next, failed, err = s.apply(ctx, o, p, now, false)
		}
		if failed == opOrder && attempt < 8 {
			continue // another move came first: decide again on the order as it is now
		}
		if err != nil {
			return Order{}, internal(err)
		}
		s.changed(ctx, next)
		return next, nil
	}
}

// apply commits a plan. withAd returns a SELL ad's escrow to the ad (when
// the plan refunds and the ad may still be open); without it the coins go
// back to the seller's available balance.
// It answers the name of the condition that failed, if one did.
func (s *Service) apply(ctx context.Context, o Order, p plan, now time.Time, withAd bool) (Order, string, error) {
	next := o
	next.Status, next.ver = p.to, o.ver+1
	upd := store.NewUpdate().Set("status", p.to).Set("updated", ms(now)).Set(store.AttrVersion, next.ver)
	if p.upd != nil {
		p.upd(upd)
	}
	if p.appealIndex != nil {
		if *p.appealIndex {
			upd.Set(store.AttrGSI2PK, appealsIndexPK).Set(store.AttrGSI2SK, sortKey(ms(now), o.ID))
		} else {
			upd.Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK)
		}
	}
	ops := []store.Op{store.UpdateOp(orderKey(o.ID), upd, store.And(store.VersionIs(o.ver), store.Eq("status", o.Status))).Named(opOrder)}
	finished := Finished(p.to)
	var legs []ledger.Leg
	postingID, reason := "", ""
	switch {
	case p.release:
		legs = []ledger.Leg{{From: otc(o.Seller), FromBucket: ledger.Frozen, To: otc(o.Buyer), ToBucket: ledger.Available, Coin: o.Coin, Amount: o.Volume}}
		postingID, reason = "p2p:order:"+o.ID+":release", "p2p_release"
	case p.refund:
		adUpd := store.NewUpdate().Add("remaining", o.Volume).AddInt(store.AttrVersion, 1).Set("updated", ms(now))
		adOp := store.UpdateOp(adKey(o.AdID), adUpd, store.Eq("status", AdOpen)).Named(opAd)
		if withAd {
			ops = append(ops, adOp)
		}
		if !o.fromSellAd() || !withAd {
			legs = []ledger.Leg{ledger.ReleaseLeg(otc(o.Seller), o.Coin, o.Volume)}
			postingID, reason = "p2p:order:"+o.ID+":refund", "p2p_refund"
		}
	}
	if finished {
		next.DoneAt = ms(now)
		// The finished order as it will be stored: its list entries carry it.
		final := next.item()
		if o.raw != nil {
			if it, err := upd.Apply(orderKey(o.ID), o.raw); err == nil {
				final = it
			}
		}
		ops = append(ops,
			store.DeleteOp(linkKey(o.Buyer, true, o.Created, o.ID), nil),
			store.DeleteOp(linkKey(o.Seller, true, o.Created, o.ID), nil),
			store.PutOp(doneLinkItem(o.Buyer, final), nil),
			store.PutOp(doneLinkItem(o.Seller, final), nil),
		)
	}
	ops = append(ops, p.stats...)
	if finished {
		// The taker's count of unfinished orders, merged into the stats
		// update of the same profile when there is one (one item, one op).
		ops = mergeProfileAdd(ops, o.Taker, "open", -1)
	}
	ops = append(ops, systemMessage(o.ID, now, p.msg))
	var err error
	if len(legs) > 0 {
		_, err = s.o.Ledger.Post(ctx, ledger.Posting{ID: postingID, Reason: reason, Legs: legs,
			Meta: map[string]string{"order": o.ID}, Extra: ops})
	} else {
		err = s.o.Store.Transact(ctx, ops)
	}
	if err != nil {
		return Order{}, failedName(err, ops), err
	}
	it, err := s.o.Store.Get(ctx, orderKey(o.ID))
	if err != nil {
		return next, "", nil // stored; the answer shows what was planned
	}
	return orderOf(it), "", nil
}

// mergeProfileAdd adds delta to attr of uid's profile: in the update of
// that profile already among ops, or as a new update.
func mergeProfileAdd(ops []store.Op, uid, attr string, delta int64) []store.Op {
	k := profileKey(uid)
	for i := range ops {
		if ops[i].Kind == store.OpUpdate && ops[i].Key == k {
			ops[i].Update.AddInt(attr, delta)
			return ops
		}
	}
	return append(ops, store.UpdateOp(k, store.NewUpdate().AddInt(attr, delta), nil))
}

// statsOp updates a user's profile counters.
func statsOp(uid string, f func(u *store.Update)) store.Op {
	u := store.NewUpdate()
	f(u)
	return store.UpdateOp(profileKey(uid), u, nil)
}

func stateError(o Order) error {
	return apperr.New(apperr.CodeP2POrderState, strings.ToLower(strings.ReplaceAll(o.Status, "_", " ")))
}

func roleError(role string) error { return apperr.New(apperr.CodeP2POrderRole, role) }

// MarkPaid is order_payed: the buyer says the fiat was sent.
func (s *Service) MarkPaid(ctx context.Context, uid, id string) (Order, error) {
	return s.ownTransition(ctx, uid, id, func(o Order, now time.Time) (plan, error) {
		if uid != o.Buyer {
			return plan{}, roleError("buyer")
		}
		if o.Status != StatusPending {
			return plan{}, stateError(o)
		}
		if ms(now) > o.Deadline {
			return plan{}, apperr.New(apperr.CodeP2POrderState, "past its payment time")
		}
		return plan{to: StatusBuyerPaid, msg: "paid", upd: func(u *store.Update) { u.Set("paidAt", ms(now)) }}, nil
	})
}

// Cancel is order_cancel: the buyer ends an order before the release; the
// escrow returns to the seller.
func (s *Service) Cancel(ctx context.Context, uid, id string) (Order, error) {
	return s.ownTransition(ctx, uid, id, func(o Order, now time.Time) (plan, error) {
		if uid != o.Buyer {
			return plan{}, roleError("buyer")
		}
		if o.Status != StatusPending && o.Status != StatusBuyerPaid {
			return plan{}, stateError(o)
		}
		return plan{to: StatusCancelled, msg: "cancelled", refund: true,
			upd:   func(u *store.Update) { u.Set("cancelBy", "buyer").Set("doneAt", ms(now)) },
			stats: []store.Op{statsOp(o.Buyer, func(u *store.Update) { u.AddInt("cancelled", 1) })}}, nil
	})
}

// Release is confirm_order: the seller received the fiat and releases the
// coins to the buyer, with the fund password.
func (s *Service) Release(ctx context.Context, uid, id, fundPassword string) (Order, error) {
	o, err := s.Order(ctx, uid, id)
	if err != nil {
		return Order{}, err
	}
	if uid != o.Seller {
		return Order{}, roleError("seller")
	}
	if err := s.checkFund(ctx, uid, fundPassword); err != nil {
		return Order{}, err
	}
	return s.ownTransition(ctx, uid, id, func(o Order, now time.Time) (plan, error) {
		if o.Status != StatusBuyerPaid && o.Status != StatusInAppeal {
			return plan{}, stateError(o)
		}
		return s.completePlan(o, now, "released", func(a *Appeal) { a.Status, a.Outcome = "resolved", OutcomeRelease }), nil
	})
}

// completePlan releases the escrow and counts the trade for both sides.
func (s *Service) completePlan(o Order, now time.Time, msg string, closeAppeal func(a *Appeal)) plan {
	p := plan{to: StatusCompleted, msg: msg, release: true}
	p.upd = func(u *store.Update) {
		u.Set("doneAt", ms(now))
		if o.Appeal != nil && o.Status == StatusInAppeal {
			a := *o.Appeal
			closeAppeal(&a)
			u.Set("appeal", appealJSON(&a))
		}
	}
	if o.Status == StatusInAppeal {
		f := false
		p.appealIndex = &f
	}
	paidAt := o.PaidAt
	if paidAt == 0 {
		paidAt = ms(now)
	}
	p.stats = []store.Op{
		statsOp(o.Buyer, func(u *store.Update) {
			u.AddInt("trades", 1).AddInt("buys", 1).AddInt("payMs", paidAt-o.Created).AddInt("payN", 1).SetIfMissing("first", ms(now))
		}),
		statsOp(o.Seller, func(u *store.Update) {
			u.AddInt("trades", 1).AddInt("sells", 1).AddInt("relMs", ms(now)-paidAt).AddInt("relN", 1).SetIfMissing("first", ms(now))
		}),
	}
	return p
}

// Timeout cancels an order still unpaid at its deadline (the timeout
// workflow's step). It reports whether it cancelled; an order that moved
// on is left alone.
func (s *Service) Timeout(ctx context.Context, id string) (bool, error) {
	cancelled := false
	_, err := s.transition(ctx, id, func(o Order, now time.Time) (plan, error) {
		if o.Status != StatusPending {
			return plan{}, errNothing
		}
		if ms(now) < o.Deadline {
			return plan{}, ErrNotDue
		}
		cancelled = true
		return plan{to: StatusCancelledBySystem, msg: "expired", refund: true,
			upd:   func(u *store.Update) { u.Set("cancelBy", "system").Set("doneAt", ms(now)) },
			stats: []store.Op{statsOp(o.Buyer, func(u *store.Update) { u.AddInt("cancelled", 1) })}}, nil
	})
	if errors.Is(err, errNothing) {
		return false, nil
	}
	return cancelled && err == nil, err
}

// EndPaymentTime ends an unpaid order's time to pay now: its deadline
// becomes now and its timeout workflow due now, so the runner cancels the
// order as it would at the deadline (the --dev simulator's fast-forward;
// an order whose timeout runs in Step Functions is refused).
func (s *Service) EndPaymentTime(ctx context.Context, id string) (Order, error) {
	o, err := s.readOrder(ctx, id)
	if err != nil {
		return Order{}, err
	}
	if o.Status != StatusPending {
		return Order{}, stateError(o)
	}
	now := s.o.Now()
	ops := []store.Op{store.UpdateOp(orderKey(o.ID), store.NewUpdate().Set("deadline", ms(now)).Set(store.AttrVersion, o.ver+1),
		store.And(store.VersionIs(o.ver), store.Eq("status", StatusPending))).Named(opOrder)}
	if s.o.Start != nil {
		ops = append(ops, workflow.DueOp(timeoutID(o.ID), now))
	}
	if err := s.o.Store.Transact(ctx, ops); err != nil {
		if failedName(err, ops) == opOrder {
			if cur, rerr := s.readOrder(ctx, id); rerr == nil {
				return Order{}, stateError(cur) // it moved on meanwhile
			}
		}
		return Order{}, internal(err)
	}
	o.Deadline, o.ver = ms(now), o.ver+1
	return s.withNicks(ctx, o), nil
}

var errNothing = errors.New("p2p: nothing to do")

// ErrNotDue: Timeout ran before the order's deadline (a clock ahead of
// the scheduler's); the caller runs it again later.
var ErrNotDue = errors.New("p2p: the order's payment time has not ended yet")

// Complain is complain_order: either side disputes a paid order.
func (s *Service) Complain(ctx context.Context, uid, id, reason, description string, evidence []string) (Order, error) {
	if !slices.Contains(AppealReasons, reason) {
		return Order{}, apperr.New(apperr.CodeP2PAppealField, "reason")
	}
	desc, ok := cleanText(description, MaxAppealLen)
	if !ok || desc == "" {
		return Order{}, apperr.New(apperr.CodeP2PAppealField, "description")
	}
	if len(evidence) > MaxEvidence {
		return Order{}, apperr.New(apperr.CodeP2PAppealField, "evidence")
	}
	if len(evidence) > 0 {
		if s.o.Uploads == nil {
			return Order{}, apperr.New(apperr.CodeP2PAppealField, "evidence")
		}
		if err := s.o.Uploads.Owned(ctx, uid, evidence); err != nil {
			return Order{}, err
		}
	}
	return s.ownTransition(ctx, uid, id, func(o Order, now time.Time) (plan, error) {
		if o.Status != StatusBuyerPaid {
			return plan{}, stateError(o)
		}
		a := Appeal{By: uid, Reason: reason, Description: desc, Evidence: evidence, At: ms(now), Status: "open"}
		t := true
		return plan{to: StatusInAppeal, msg: "appealed", appealIndex: &t,
			upd: func(u *store.Update) { u.Set("appeal", appealJSON(&a)) }}, nil
	})
}

// ComplainCancel is complain_cancel: the appellant withdraws the appeal.
func (s *Service) ComplainCancel(ctx context.Context, uid, id string) (Order, error) {
	return s.ownTransition(ctx, uid, id, func(o Order, now time.Time) (plan, error) {
		if o.Status != StatusInAppeal || o.Appeal == nil {
			return plan{}, stateError(o)
		}
		if o.Appeal.By != uid {
			return plan{}, apperr.New(apperr.CodeP2PAppealNotYours)
		}
		a := *o.Appeal
		a.Status = "cancelled"
		f := false
		return plan{to: StatusBuyerPaid, msg: "appeal_cancelled", appealIndex: &f,
			upd: func(u *store.Update) { u.Set("appeal", appealJSON(&a)) }}, nil
	})
}

// Decide is the operator's decision of an open appeal: release to the
// buyer or refund to the seller. Both sides see it in the order and its chat.
func (s *Service) Decide(ctx context.Context, id, outcome, by, note string) (Order, error) {
	if outcome != OutcomeRelease && outcome != OutcomeRefund {
		return Order{}, apperr.New(apperr.CodeP2PAppealDecision, "outcome must be release or refund")
	}
	note = clip(strings.TrimSpace(note), MaxAppealLen)
	return s.transition(ctx, id, func(o Order, now time.Time) (plan, error) {
		if o.Status != StatusInAppeal || o.Appeal == nil {
			return plan{}, apperr.New(apperr.CodeP2PAppealDecision, "the order is not in appeal")
		}
		decided := func(a *Appeal) {
			a.Status, a.Outcome, a.DecidedBy, a.DecidedAt, a.Note = "decided", outcome, clip(by, 128), ms(now), note
		}
		if outcome == OutcomeRelease {
			return s.completePlan(o, now, "decided_release", decided), nil
		}
		a := *o.Appeal
		decided(&a)
		f := false
		return plan{to: StatusCancelled, msg: "decided_refund", refund: true, appealIndex: &f,
			upd: func(u *store.Update) {
				u.Set("cancelBy", "operator").Set("doneAt", ms(now)).Set("appeal", appealJSON(&a))
			}}, nil
	})
}

// ownTransition is a transition of the caller's own order.
func (s *Service) ownTransition(ctx context.Context, uid, id string, decide func(o Order, now time.Time) (plan, error)) (Order, error) {
	if _, err := s.Order(ctx, uid, id); err != nil {
		return Order{}, err
	}
	o, err := s.transition(ctx, id, decide)
	if err != nil {
		return Order{}, err
	}
	o.Side = Buy
	if uid == o.Seller {
		o.Side = Sell
	}
	return s.withNicks(ctx, o), nil
}

func (s *Service) checkFund(ctx context.Context, uid, pw string) error {
	if s.o.Fund == nil {
		return apperr.New(apperr.CodeP2PFundPasswordUnset)
	}
	set, err := s.o.Fund.FundPasswordSet(ctx, uid)
	if err != nil {
		return internal(err)
	}
	if !set {
		return apperr.New(apperr.CodeP2PFundPasswordUnset)
	}
	ok, err := s.o.Fund.CheckFundPassword(ctx, uid, pw)
	if err != nil {
		return internal(err)
	}
	if !ok {
		return apperr.New(apperr.CodeP2PFundPassword)
	}
	return nil
}

// Orders lists the caller's orders: unfinished (open) or finished, newest first.
func (s *Service) Orders(ctx context.Context, uid string, open bool, page, size int) ([]Order, int, error) {
	prefix := "DONE#"
	if open {
		prefix = "OPEN#"
	}
	var links []store.Item
	q := store.Query{PK: "P2PUSER#" + uid, SK: store.SKPrefixed(prefix), Desc: true}
	if err := store.EachLive(ctx, s.o.Store, q, s.o.Now(), func(it store.Item) { links = append(links, it) }); err != nil {
		return nil, 0, internal(err)
	}
	out := make([]Order, 0, size)
	nicks := map[string]string{}
	for _, link := range pageOf(links, page, size) {
		var o Order
		if link.Str("id") != "" {
			o = orderOf(link) // a finished order's entry carries it
		} else {
			var err error
			if o, err = s.readOrder(ctx, link.Str("order")); err != nil {
				return nil, 0, err
			}
		}
		if uid != o.Buyer && uid != o.Seller {
			continue
		}
		o.Side = Buy
		if uid == o.Seller {
			o.Side = Sell
		}
		o.BuyerNick, o.SellerNick = s.nick(ctx, nicks, o.Buyer), s.nick(ctx, nicks, o.Seller)
		out = append(out, o)
	}
	return out, len(links), nil
}

// nick is a user's P2P nickname, read once per list (seen keeps them).
func (s *Service) nick(ctx context.Context, seen map[string]string, uid string) string {
	if n, ok := seen[uid]; ok || s.o.Profiles == nil {
		return n
	}
	if p, err := s.o.Profiles.P2PProfile(ctx, uid); err == nil {
		seen[uid] = p.Nick
	}
	return seen[uid]
}

// Appeals lists the orders in appeal, the longest waiting first (the operator's queue).
func (s *Service) Appeals(ctx context.Context) ([]Order, error) {
	var out []Order
	q := store.Query{Index: store.IndexGSI2, PK: appealsIndexPK}
	err := store.EachLive(ctx, s.o.Store, q, s.o.Now(), func(it store.Item) { out = append(out, orderOf(it)) })
	return out, internal(err)
}

// Escrowed is what a seller's frozen OTC balance of a coin should be: the
// remaining of their open SELL ads and the volume of their unfinished
// orders as seller. The tests hold the ledger to it.
func (s *Service) Escrowed(ctx context.Context, uid, coin string) (decimal.Decimal, error) {
	sum := decimal.Zero
	q := store.Query{Index: store.IndexGSI2, PK: myAdsIndexPK(uid)}
	err := store.EachLive(ctx, s.o.Store, q, s.o.Now(), func(it store.Item) {
		a := adOf(it)
		if a.Status == AdOpen && a.Side == Sell && a.Coin == coin {
			sum = sum.Add(a.Remaining)
		}
	})
	if err != nil {
		return decimal.Zero, internal(err)
	}
	orders, _, err := s.Orders(ctx, uid, true, 1, 50)
	if err != nil {
		return decimal.Zero, err
	}
	for _, o := range orders {
		if o.Seller == uid && o.Coin == coin && !Finished(o.Status) {
			sum = sum.Add(o.Volume)
		}
	}
	return sum, nil
}

func linkItem(uid string, open bool, o Order) store.Item {
	k := linkKey(uid, open, o.Created, o.ID)
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "order": o.ID, "status": o.Status}
}

// orderFields are the attributes of an order item that orderOf reads.
var orderFields = []string{"id", "ad", "maker", "taker", "buyer", "seller", "coin", "fiat", "price", "volume", "total",
	"methods", "terms", "status", "cancelBy", "created", "deadline", "paidAt", "doneAt", "appeal"}

// doneLinkItem is a user's entry for a finished order: it carries the
// order (which never changes again), so the finished list reads no order.
func doneLinkItem(uid string, final store.Item) store.Item {
	it := linkItem(uid, false, orderOf(final))
	for _, f := range orderFields {
		if v, ok := final[f]; ok {
			it[f] = v
		}
	}
	return it
}

func appealJSON(a *Appeal) string {
	b, _ := json.Marshal(a)
	return string(b)
}

func (o Order) item() store.Item {
	k := orderKey(o.ID)
	mj, _ := json.Marshal(o.Methods)
	return store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, "id": o.ID, "ad": o.AdID, "maker": o.Maker, "taker": o.Taker,
		"buyer": o.Buyer, "seller": o.Seller, "coin": o.Coin, "fiat": o.Fiat, "price": o.Price, "volume": o.Volume,
		"total": o.Total, "methods": string(mj), "terms": o.Terms, "status": o.Status, "created": o.Created,
		"deadline": o.Deadline, store.AttrVersion: o.ver,
	}
}

func orderOf(it store.Item) Order {
	o := Order{ID: it.Str("id"), AdID: it.Str("ad"), Maker: it.Str("maker"), Taker: it.Str("taker"), Buyer: it.Str("buyer"),
		Seller: it.Str("seller"), Coin: it.Str("coin"), Fiat: it.Str("fiat"), Price: it.Dec("price"), Volume: it.Dec("volume"),
		Total: it.Dec("total"), Terms: it.Str("terms"), Status: it.Str("status"), CancelBy: it.Str("cancelBy"),
		Created: it.Int("created"), Deadline: it.Int("deadline"), PaidAt: it.Int("paidAt"), DoneAt: it.Int("doneAt"),
		ver: it.Int(store.AttrVersion), raw: it}
	o.Seq = o.ID
	_ = json.Unmarshal([]byte(it.Str("methods")), &o.Methods)
	if o.Methods == nil {
		o.Methods = []Method{}
	}
	if a := it.Str("appeal"); a != "" {
		var ap Appeal
		if json.Unmarshal([]byte(a), &ap) == nil {
			o.Appeal = &ap
		}
	}
	return o
}

func (s *Service) changed(ctx context.Context, o Order) {
	if s.o.Notify != nil {
		s.o.Notify.OrderChanged(ctx, o)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
