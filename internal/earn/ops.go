package earn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// An op is a money movement between the spot account (the engine's) and
// the earn account (the store ledger's): it cannot be one transaction, so
// its record says how far it got, and Resume finishes what a process left
// between the steps.
//
//	subscribe  pending → Funds.Debit (spot → transit) → posting transit →
//	           earn with the position's change → success; a debit refused
//	           removes the record, a cap exceeded meanwhile refunds (failed)
//	fast, payout  the posting earn → transit with the position's change
//	           writes the record pending → Funds.Credit (transit → spot) →
//	           success
//	standard   the posting freezes the amount in earn with the position's
//	           change and writes the record done: the day's settlement
//	           pays it out (a payout op)
type op struct {
	id, uid, prod, coin string
	kind                string
	amount              int64
	status              string
	ctime               int64
	reqID               string
	day                 Day
}

// Op kinds and statuses.
const (
	opSubscribe = "subscribe"
	opFast      = "fast"
	opStandard  = "standard"
	opPayout    = "payout"
	opStake     = "stake"
	opCommit    = "commit"
	opBorrow    = "borrow"
	// opTake is money a loan's repayment or added collateral took from
	// spot: left pending (its loan change never made), it goes back.
	opTake = "take"

	opPending = "pending"
	opSuccess = "success"
	opFailed  = "failed"
)

// ResumeAge is how old a pending op must be before Resume finishes it.
const ResumeAge = 30 * time.Second

func opKey(uid, id string) store.Key { return store.Key{PK: earnPK(uid), SK: "OP#" + id} }

func pendingPK(shard int) string { return fmt.Sprintf("EARNPEND#%02d", shard) }

func (o *op) key() store.Key { return opKey(o.uid, o.id) }

// ref is the op's money reference (Funds' Ref; its postings begin with it).
func (o *op) ref() string { return "earn:" + o.uid + ":" + o.id }

func (o *op) item(prec int32) store.Item {
	k := o.key()
	it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "id": o.id, "uid": o.uid, "prod": o.prod, "coin": o.coin,
		"kind": o.kind, "amount": fixed(o.amount, prec), "units": o.amount, "prec": int64(prec), "status": o.status,
		"ctime": o.ctime, "requestId": o.reqID, "day": o.day}
	if o.status == opPending {
		it[store.AttrGSI2PK] = pendingPK(shardOf(o.uid, o.id))
		it[store.AttrGSI2SK] = fmt.Sprintf("%013d#%s#%s", o.ctime, o.uid, o.id)
	}
	return it
}

func opOf(it store.Item) *op {
	return &op{id: it.Str("id"), uid: it.Str("uid"), prod: it.Str("prod"), coin: it.Str("coin"), kind: it.Str("kind"),
		amount: it.Int("units"), status: it.Str("status"), ctime: it.Int("ctime"), reqID: it.Str("requestId"), day: it.Int("day")}
}

// done marks a pending op finished (success or failed), out of the
// pending index.
func (o *op) doneOp(status string) store.Op {
	upd := store.NewUpdate().Set("status", status).Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK)
	return store.UpdateOp(o.key(), upd, store.Eq("status", opPending))
}

// finishOp does the remaining money step of a pending op and records its
// outcome. Each step is idempotent by the op's reference.
func (s *Service) finishOp(ctx context.Context, o *op, prec int32) error {
	switch o.kind {
	case opFast, opPayout:
		err := s.funds.Credit(ctx, spotfunds.Move{Ref: o.ref(), UID: o.uid, Coin: o.coin, Amount: amountOf(o.amount, prec),
			Other: spotfunds.TransitAccount(), Reason: ReasonRedeem})
		if err != nil {
			return fmt.Errorf("earn: %s credit: %w", o.ref(), err)
		}
		return s.markDone(ctx, o, opSuccess)
	case opSubscribe:
		return s.finishSubscribe(ctx, o, prec)
	case opStake:
		return s.finishStake(ctx, o, prec)
	case opCommit:
		return s.finishCommit(ctx, o, prec)
	case opBorrow:
		return s.finishBorrow(ctx, o, prec)
	case opTake:
		if err := s.takeFromSpot(ctx, o, prec, ReasonLoanRepay); err != nil {
			return err
		}
		return s.refund(ctx, o, prec)
	}
	return fmt.Errorf("earn: op %s of kind %q has no step to finish", o.id, o.kind)
}

// markDone records a pending op's end; one already ended is left as it is.
func (s *Service) markDone(ctx context.Context, o *op, status string) error {
	err := s.st.Transact(ctx, []store.Op{o.doneOp(status)})
	var tc *store.TxCanceledError
	if err != nil && !errors.As(err, &tc) {
		return err
	}
	o.status = status
	return nil
}

// Resume finishes the ops left pending for at least ResumeAge (a process
// died between their steps). It returns how many it finished; the error
// joins what stopped the others, which stay for the next run.
func (s *Service) Resume(ctx context.Context) (int, error) {
	cutoff := s.now().Add(-ResumeAge).UnixMilli()
	n := 0
	var errs []error
	for shard := range shards {
		q := store.Query{Index: store.IndexGSI2, PK: pendingPK(shard), SK: store.SKCond{Kind: store.SKLt, A: fmt.Sprintf("%013d", cutoff)}}
		for {
			page, err := s.st.Query(ctx, q)
			if err != nil {
				errs = append(errs, err)
				break
			}
			for _, hit := range page.Items {
				it, err := s.st.Get(ctx, hit.Key())
				if errors.Is(err, store.ErrNotFound) {
					continue
				}
				if err != nil {
					errs = append(errs, err)
					continue
				}
				o := opOf(it)
				if o.status != opPending || o.ctime >= cutoff {
					continue
				}
				if err := s.finishOp(ctx, o, int32(it.Int("prec"))); err != nil {
					errs = append(errs, err)
					continue
				}
				n++
			}
			if page.Cursor == "" {
				break
			}
			q.Cursor = page.Cursor
		}
	}
	return n, errors.Join(errs...)
}

// opAnswer is what a finished op answers its caller.
func opAnswer(o *op, prec int32, replayed bool) OpResult {
	return OpResult{ID: o.id, Kind: o.kind, Product: o.prod, CoinSymbol: o.coin, Amount: fixed(o.amount, prec),
		Status: o.status, Ctime: o.ctime, Replayed: replayed}
}

// OpResult is the answer to a subscription or a redemption.
type OpResult struct {
	ID         string `json:"id"`
	Kind       string `json:"kind" doc:"subscribe, fast or standard"`
	Product    string `json:"projectId"`
	CoinSymbol string `json:"coinSymbol"`
	Amount     string `json:"amount"`
	Status     string `json:"status" doc:"success; a standard redemption is success once asked: it is paid out with the next day's settlement (arriveDate)"`
	ArriveDate string `json:"arriveDate,omitempty" doc:"standard redemption: the UTC date it reaches the spot account"`
	Ctime      int64  `json:"ctime" doc:"Unix ms"`
	Replayed   bool   `json:"replayed" doc:"the request id had been applied before: nothing changed now"`
}

// again answers a request whose op record exists: one for other fields is
// refused, a pending one is finished, a finished one answered Replayed.
func (s *Service) again(ctx context.Context, want *op, it store.Item, prec int32) (OpResult, error) {
	o := opOf(it)
	if o.kind != want.kind || o.prod != want.prod || o.amount != want.amount {
		return OpResult{}, apperr.New(apperr.CodeEarnRequestReused)
	}
	switch o.status {
	case opPending:
		if err := s.finishOp(ctx, o, prec); err != nil {
			return OpResult{}, internal(err)
		}
		if o.status == opFailed {
			return OpResult{}, failedAnswer(o)
		}
		return opAnswer(o, prec, false), nil
	case opFailed:
		return OpResult{}, failedAnswer(o)
	}
	r := opAnswer(o, prec, true)
	if o.kind == opStandard {
		r.ArriveDate = DayString(o.day + 1)
	}
	return r, nil
}

// failedAnswer is the error of an op that ended failed, its money back in
// spot: a cap reached meanwhile, or a sale's subscription phase over.
func failedAnswer(o *op) error {
	if o.kind == opCommit {
		return apperr.New(apperr.CodeLaunchNotOpen, PhaseCalculation)
	}
	return apperr.New(apperr.CodeEarnAboveCap, "0 "+o.coin)
}

// findOp reads the op of a client's request id, if it exists.
func (s *Service) findOp(ctx context.Context, want *op) (store.Item, bool, error) {
	if want.reqID == "" {
		return nil, false, nil
	}
	it, err := s.st.Get(ctx, want.key())
	if errors.Is(err, store.ErrNotFound) {
		return nil, false, nil
	}
	return it, err == nil, err
}

// earnPosting is the ledger posting of an op's move into or out of the
// earn account.
func earnPosting(id, reason string, o *op, legs []ledger.Leg, extra []store.Op) ledger.Posting {
	return ledger.Posting{ID: id, Reason: reason, Legs: legs, Extra: extra,
		Meta: map[string]string{"uid": o.uid, "product": o.prod, "op": o.id}}
}

// newOp reads what every money request names: the signed-in user, the
// amount in the coin's units, the client's request id; it returns the op
// the request is (its id from the request id, prefixed by kind).
func newOp(uid, kind, prefix, prod, coin, rawAmount, rawReqID string, prec int32) (*op, error) {
	if uid == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	amount, err := parseAmount(rawAmount, prec)
	if err != nil {
		return nil, err
	}
	reqID, err := checkRequestID(rawReqID)
	if err != nil {
		return nil, err
	}
	return &op{id: opID(prefix, reqID), uid: uid, prod: prod, coin: coin, kind: kind, amount: amount, reqID: reqID}, nil
}

// runSpotOp is what a subscription, a stake and a commitment share: a
// retried request id answers its op; otherwise check may refuse the
// request before anything is written, the op is recorded pending and its
// money steps done (finishOp: from spot into earn); an op that ended
// failed (a cap or a phase reached meanwhile: its money went back)
// answers failedAnswer.
func (s *Service) runSpotOp(ctx context.Context, o *op, prec int32, check func() error) (OpResult, error) {
	if it, ok, err := s.findOp(ctx, o); err != nil {
		return OpResult{}, internal(err)
	} else if ok {
		return s.again(ctx, o, it, prec)
	}
	if err := check(); err != nil {
		return OpResult{}, err
	}
	now := s.now()
	o.status, o.ctime, o.day = opPending, now.UnixMilli(), DayOf(now)
	if err := s.st.Put(ctx, o.item(prec), store.ItemNotExists()); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			it, gerr := s.st.Get(ctx, o.key())
			if gerr != nil {
				return OpResult{}, internal(gerr)
			}
			return s.again(ctx, o, it, prec)
		}
		return OpResult{}, internal(err)
	}
	if err := s.finishOp(context.WithoutCancel(ctx), o, prec); err != nil {
		return OpResult{}, err
	}
	if o.status == opFailed {
		return OpResult{}, failedAnswer(o)
	}
	return opAnswer(o, prec, false), nil
}
