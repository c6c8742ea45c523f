package wallet

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/reqid"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Transfer types (the record's type and the history filter).
const (
	TransferOTC     = "otc"
	TransferFutures = "futures"
	TransferMargin  = "margin"
)

// MaxRequestIDLen bounds a client's request id.
const MaxRequestIDLen = 64

// TransferInput is one transfer between the spot account and another
// account of the same user.
type TransferInput struct {
	From, To ledger.Kind
	// Pair is the isolated margin pair (BTCUSDT) when one side is MarginIsolated.
	Pair   string
	Coin   string
	Amount string
	// RequestID is the client's idempotency key (requestId / clientOid):
	// retrying with the same id applies the transfer once. Empty means a
	// fresh transfer.
	RequestID string
}

// TransferRecord is one transfer as history shows it.
type TransferRecord struct {
	ID         string `json:"id"`
	Type       string `json:"type" doc:"otc, futures or margin"`
	CoinSymbol string `json:"coinSymbol"`
	Amount     string `json:"amount"`
	From       string `json:"fromAccount" doc:"spot, otc, futures, margin_cross or margin_isolated"`
	To         string `json:"toAccount"`
	FromName   string `json:"fromAccountName"`
	ToName     string `json:"toAccountName"`
	Symbol     string `json:"symbol" doc:"isolated margin pair, empty otherwise"`
	Status     string `json:"status" doc:"pending: accepted, on its way (finished within a minute); success: done. A refused transfer is answered with its error and never listed, so history shows no money moved that did not"`
	Ctime      int64  `json:"ctime" doc:"Unix ms"`
	// Replayed is true when the request id had been applied before and
	// nothing changed now.
	Replayed bool `json:"replayed"`
}

// Transfer statuses (TransferRecord.Status).
const (
	TransferPending = "pending"
	TransferSuccess = "success"
	// TransferFailed: spot refused the amount after it had left the other
	// account, and it went back there. History does not list it.
	TransferFailed = "failed"
)

// TransferResumeAge is how old a pending transfer must be before
// ResumeTransfers finishes it: a younger one is left to the call running it.
const TransferResumeAge = 30 * time.Second

// transferStepTimeout bounds the money steps of one Transfer call once its
// record is written, well under TransferResumeAge, so that ResumeTransfers
// seldom meets a call still running them.
const transferStepTimeout = 10 * time.Second

const attrXferStatus = "status"

// pendingShards spread the pending-transfer index (gsi2, set only while a
// record is pending) over partitions, as the ledger's posting index is.
const pendingShards = 16

func pendingPK(shard int) string { return fmt.Sprintf("XFERPEND#%02d", shard) }

func pendingShard(uid, id string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(uid + "#" + id))
	return int(h.Sum32() % pendingShards)
}

// transferSeq orders the records of one millisecond within a process
// (seeded from the wall clock so it keeps rising across restarts).
var transferSeq = func() *atomic.Int64 {
	var n atomic.Int64
	n.Store(time.Now().UnixNano())
	return &n
}()

func transferKey(uid, id string) store.Key { return store.Key{PK: walletPK(uid), SK: "XFER#" + id} }

func transferLogPK(uid string) string { return "XFERLOG#" + uid }

// AccountName names an account kind for people.
func AccountName(k ledger.Kind, pair string) string {
	switch k {
	case ledger.Spot:
		return "Spot account"
	case ledger.OTC:
		return "OTC account"
	case ledger.Futures:
		return "Futures account"
	case ledger.MarginCross:
		return "Cross margin"
	case ledger.MarginIsolated:
		return "Isolated margin " + pair
	case ledger.Earn:
		return "Earn account"
	}
	return string(k)
}

// parseTransferAmount applies spec §5: digits with at most one decimal
// point, above 0, at most the coin's precision; futures amounts are
// truncated to 3 decimals instead of refused (spec §5, §9).
func parseTransferAmount(raw string, c coins.Coin, futures bool) (decimal.Decimal, error) {
	raw = strings.TrimSpace(raw)
	if futures {
		d, err := coins.ParseAmount(raw, coins.MaxPrecision)
		if err != nil {
			return zero, coins.AmountError(err, coins.MaxPrecision)
		}
		p := min(int32(coins.PrecisionFuturesTransfer), c.Precision)
		d = coins.TruncateToPrecision(d, p)
		if !d.IsPositive() {
			return zero, apperr.New(apperr.CodeWalletAmountZero)
		}
		return d, nil
	}
	d, err := coins.ParseAmount(raw, c.Precision)
	if err != nil {
		return zero, coins.AmountError(err, c.Precision)
	}
	return d, nil
}

// Transfer moves an amount between the user's spot account and one of the
// OTC, futures, cross margin or isolated margin accounts. The spot side
// moves through Funds (the engine owns spot balances), which cannot share
// a store transaction with the transfer record, so a transfer is a few
// steps, each safe to do again:
//
//   - spot → other: the record is written pending; Funds.Debit takes the
//     amount from spot to the other account; the record becomes success.
//     A refused debit (short balance) removes the record again.
//   - other → spot: ONE ledger posting ("xfer:<uid>:<id>:out") takes the
//     amount from the other account (checking its balance) to
//     spotfunds.TransitAccount and writes the pending record with it;
//     Funds.Credit brings it from transit into spot; the record becomes
//     success.
//
// A retry with the same RequestID finds the record: a pending one is
// finished by the retry (its remaining steps done again), a finished one is
// answered Replayed. A call that stops between the steps leaves the record
// pending, and ResumeTransfers finishes it.
func (s *Service) Transfer(ctx context.Context, uid string, in TransferInput) (TransferRecord, error) {
	if uid == "" {
		return TransferRecord{}, apperr.New(apperr.CodeNotSignedIn)
	}
	other := in.To
	if in.To == ledger.Spot {
		other = in.From
	}
	if (in.From != ledger.Spot && in.To != ledger.Spot) || other == ledger.Spot {
		return TransferRecord{}, apperr.New(apperr.CodeWalletTransferAccount)
	}
	c, err := s.coin(in.Coin)
	if err != nil {
		return TransferRecord{}, err
	}
	var typ string
	pair := ""
	switch other {
	case ledger.OTC:
		typ = TransferOTC
		if !contains(s.markets.OTCCoins, c.Symbol) {
			return TransferRecord{}, apperr.New(apperr.CodeWalletCoinNotTransferable, c.Symbol)
		}
	case ledger.Futures:
		typ = TransferFutures
		if !contains(s.markets.FuturesCoins, c.Symbol) {
			return TransferRecord{}, apperr.New(apperr.CodeWalletCoinNotTransferable, c.Symbol)
		}
	case ledger.MarginCross:
		typ = TransferMargin
		if !contains(s.markets.CrossCoins, c.Symbol) {
			return TransferRecord{}, apperr.New(apperr.CodeWalletCoinNotTransferable, c.Symbol)
		}
	case ledger.MarginIsolated:
		typ = TransferMargin
		p, ok := s.markets.pair(in.Pair)
		if !ok {
			return TransferRecord{}, apperr.New(apperr.CodeWalletPairUnknown)
		}
		if c.Symbol != p.Base && c.Symbol != p.Quote {
			return TransferRecord{}, apperr.New(apperr.CodeWalletCoinNotTransferable, c.Symbol)
		}
		pair = p.Symbol
	default:
		return TransferRecord{}, apperr.New(apperr.CodeWalletTransferAccount)
	}
	amount, err := parseTransferAmount(in.Amount, c, other == ledger.Futures)
	if err != nil {
		return TransferRecord{}, err
	}
	reqID := strings.TrimSpace(in.RequestID)
	if !reqid.Valid(reqID, MaxRequestIDLen) {
		return TransferRecord{}, apperr.Param(fmt.Sprintf("requestId: at most %d letters, digits, '-', '_' or '.'", MaxRequestIDLen))
	}
	idPart := "r" + randomID()
	if reqID != "" {
		idPart = "c" + shortHash(reqID)
	}
	x := xfer{uid: uid, id: idPart, typ: typ, coin: c.Symbol, amount: amount, from: in.From, to: in.To, pair: pair, reqID: reqID}
	if reqID != "" {
		it, err := s.st.Get(ctx, x.key())
		switch {
		case err == nil:
			return s.again(ctx, x, it)
		case !errors.Is(err, store.ErrNotFound):
			return TransferRecord{}, internal(err)
		}
	}
	rec := x.pendingItem(s.now().UnixMilli())
	if x.to == ledger.Spot && !x.futures() {
		res, err := s.led.Post(ctx, ledger.Posting{
			ID:     x.ref() + ":out",
			Reason: x.reason(),
			Legs:   []ledger.Leg{ledger.Move(x.otherAccount(), spotfunds.TransitAccount(), x.coin, x.amount)},
			Meta:   map[string]string{"uid": uid, "type": typ, "requestId": reqID},
			Extra:  []store.Op{store.PutOp(rec, store.ItemNotExists())},
		})
		switch {
		case errors.Is(err, ledger.ErrInsufficient):
			return TransferRecord{}, apperr.New(apperr.CodeWalletInsufficient)
		case errors.Is(err, store.ErrConditionFailed), errors.Is(err, ledger.ErrIDConflict), err == nil && res.Replayed:
			// The same request, written meanwhile by a concurrent call.
			return s.reread(ctx, x)
		case err != nil:
			return TransferRecord{}, internal(err)
		}
	} else {
		err := s.st.Put(ctx, rec, store.ItemNotExists())
		switch {
		case errors.Is(err, store.ErrConditionFailed):
			return s.reread(ctx, x)
		case err != nil:
			return TransferRecord{}, internal(err)
		}
	}
	sctx, cancel := stepContext(ctx)
	defer cancel()
	r, _, err := s.finish(sctx, x, rec)
	return r, err
}

// stepContext runs a transfer's money steps once its record is written:
// on even if the caller goes away (a step half done is left for
// ResumeTransfers otherwise), within transferStepTimeout.
func stepContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), transferStepTimeout)
}

// reread answers a request whose record a concurrent call wrote first.
func (s *Service) reread(ctx context.Context, x xfer) (TransferRecord, error) {
	it, err := s.st.Get(ctx, x.key())
	switch {
	case errors.Is(err, store.ErrNotFound):
		// The ":out" posting exists for other legs and no record does:
		// the id was used for another movement.
		return TransferRecord{}, apperr.New(apperr.CodeWalletRequestReused)
	case err != nil:
		return TransferRecord{}, internal(err)
	}
	return s.again(ctx, x, it)
}

// again answers a request whose record exists (a retry of its RequestID):
// one for another transfer is refused, a pending one is finished, a
// finished one is answered Replayed.
func (s *Service) again(ctx context.Context, x xfer, it store.Item) (TransferRecord, error) {
	y, err := xferOf(it)
	if err != nil {
		return TransferRecord{}, internal(err)
	}
	if !x.same(y) {
		return TransferRecord{}, apperr.New(apperr.CodeWalletRequestReused)
	}
	y.uid = x.uid // records written before the status had no uid
	switch statusOf(it) {
	case TransferPending:
		sctx, cancel := stepContext(ctx)
		defer cancel()
		r, _, err := s.finish(sctx, y, it)
		return r, err
	case TransferFailed:
		return TransferRecord{}, failedError(y)
	}
	r := transferOf(it)
	r.Replayed = true
	return r, nil
}

// finish does the money step of a pending transfer (again: each is
// idempotent by the transfer's Ref) and records its outcome. done reports
// that the record is pending no more (success, or refused); otherwise the
// error says what stopped it, and it stays for a retry or ResumeTransfers.
func (s *Service) finish(ctx context.Context, x xfer, it store.Item) (r TransferRecord, done bool, err error) {
	m := spotfunds.Move{Ref: x.ref(), UID: x.uid, Coin: x.coin, Amount: x.amount, Reason: x.reason()}
	futures := x.futures()
	if futures && x.to == ledger.Spot {
		// A transfer begun before the futures account was the engine's
		// took its amount to transit first: it ends as it began.
		if _, err := s.led.Lookup(ctx, x.ref()+":out"); err == nil {
			futures = false
		} else if !errors.Is(err, store.ErrNotFound) {
			return TransferRecord{}, false, internal(err)
		}
	}
	if x.to == ledger.Spot && !futures {
		m.Other = spotfunds.TransitAccount()
		err := s.funds.Credit(ctx, m)
		switch {
		case err == nil:
			return s.succeed(ctx, x, it)
		case errors.Is(err, spotfunds.ErrInvalid):
			// Spot takes no such movement (a coin the engine does not
			// list): the amount goes back from transit.
			return s.reverse(ctx, x)
		}
		return TransferRecord{}, false, internal(fmt.Errorf("transfer %s: credit: %w", m.Ref, err))
	}
	m.Other = x.otherAccount()
	if futures {
		err = s.funds.Futures(ctx, m, x.to == ledger.Futures)
	} else {
		err = s.funds.Debit(ctx, m)
	}
	var refused error
	switch {
	case err == nil:
		return s.succeed(ctx, x, it)
	case errors.Is(err, spotfunds.ErrInsufficient):
		refused = apperr.New(apperr.CodeWalletInsufficient)
	case errors.Is(err, spotfunds.ErrConflict):
		refused = apperr.New(apperr.CodeWalletRequestReused)
	case errors.Is(err, spotfunds.ErrInvalid):
		refused = apperr.New(apperr.CodeWalletCoinNotTransferable, x.coin)
	default:
		return TransferRecord{}, false, internal(fmt.Errorf("transfer %s: debit: %w", m.Ref, err))
	}
	// Nothing moved: the record goes, unless a concurrent call's debit
	// went through meanwhile and recorded its success.
	err = s.st.Delete(ctx, x.key(), store.Eq(attrXferStatus, TransferPending))
	if errors.Is(err, store.ErrConditionFailed) {
		cur, gerr := s.st.Get(ctx, x.key())
		if gerr == nil && statusOf(cur) == TransferSuccess {
			return transferOf(cur), true, nil
		}
		err = nil // gone already
	}
	if err != nil {
		return TransferRecord{}, false, internal(err)
	}
	return TransferRecord{}, true, refused
}

// succeed records that the money of a transfer moved.
func (s *Service) succeed(ctx context.Context, x xfer, it store.Item) (TransferRecord, bool, error) {
	for range 3 {
		upd := store.NewUpdate().Set(attrXferStatus, TransferSuccess).Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK)
		after, err := s.st.Update(ctx, x.key(), upd, store.Eq(attrXferStatus, TransferPending))
		if err == nil {
			return transferOf(after), true, nil
		}
		if !errors.Is(err, store.ErrConditionFailed) {
			return TransferRecord{}, false, internal(err)
		}
		cur, err := s.st.Get(ctx, x.key())
		switch {
		case errors.Is(err, store.ErrNotFound):
			// A concurrent call saw the debit refused and removed the
			// record before this one's went through: the money moved, so
			// the record is written again, as done.
			rec := it.Clone()
			rec[attrXferStatus] = TransferSuccess
			delete(rec, store.AttrGSI2PK)
			delete(rec, store.AttrGSI2SK)
			err = s.st.Put(ctx, rec, store.ItemNotExists())
			if err == nil {
				return transferOf(rec), true, nil
			}
			if !errors.Is(err, store.ErrConditionFailed) {
				return TransferRecord{}, false, internal(err)
			}
		case err != nil:
			return TransferRecord{}, false, internal(err)
		case statusOf(cur) == TransferSuccess:
			return transferOf(cur), true, nil
		case statusOf(cur) == TransferFailed:
			return TransferRecord{}, false, internal(fmt.Errorf("transfer %s: the money moved but the record says failed", x.ref()))
		}
	}
	return TransferRecord{}, false, internal(fmt.Errorf("transfer %s: the record keeps changing", x.ref()))
}

// reverse takes an amount spot refused back from transit to the account it
// came from, and marks the record failed, in one posting.
func (s *Service) reverse(ctx context.Context, x xfer) (TransferRecord, bool, error) {
	upd := store.NewUpdate().Set(attrXferStatus, TransferFailed).Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK)
	res, err := s.led.Post(ctx, ledger.Posting{
		ID:     x.ref() + ":back",
		Reason: x.reason(),
		Legs:   []ledger.Leg{ledger.Move(spotfunds.TransitAccount(), x.otherAccount(), x.coin, x.amount)},
		Meta:   map[string]string{"uid": x.uid, "type": x.typ},
		Extra:  []store.Op{store.UpdateOp(x.key(), upd, store.Eq(attrXferStatus, TransferPending))},
	})
	if err == nil && !res.Replayed {
		return TransferRecord{}, true, failedError(x)
	}
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return TransferRecord{}, false, internal(fmt.Errorf("transfer %s: reverse: %w", x.ref(), err))
	}
	// The record was finished meanwhile.
	cur, err := s.st.Get(ctx, x.key())
	if err != nil {
		return TransferRecord{}, false, internal(err)
	}
	switch statusOf(cur) {
	case TransferSuccess:
		return transferOf(cur), true, nil
	case TransferFailed:
		return TransferRecord{}, true, failedError(x)
	}
	return TransferRecord{}, false, internal(fmt.Errorf("transfer %s: reversed but the record is still pending", x.ref()))
}

// failedError is the answer for a transfer spot refused after its amount
// left the other account (and went back to it).
func failedError(x xfer) error { return apperr.New(apperr.CodeWalletCoinNotTransferable, x.coin) }

// ResumeTransfers finishes the transfers left pending for at least
// TransferResumeAge: a call that stopped between its steps (its process
// died, or the money step failed), whose client did not retry. Each is
// finished as a retry would: its money step is done again (idempotent) and
// its record becomes success, or it is refused and its record removed (or
// marked failed, its amount back in the other account). It returns how many
// it finished; the error joins what stopped the others, which stay pending
// for the next run. Run it at start and every minute.
func (s *Service) ResumeTransfers(ctx context.Context) (int, error) {
	cutoff := s.now().Add(-TransferResumeAge).UnixMilli()
	n := 0
	var errs []error
	for shard := range pendingShards {
		hits, err := s.queryAll(ctx, store.Query{Index: store.IndexGSI2, PK: pendingPK(shard),
			SK: store.SKCond{Kind: store.SKLt, A: fmt.Sprintf("%013d", cutoff)}})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, hit := range hits {
			if err := ctx.Err(); err != nil {
				return n, errors.Join(append(errs, err)...)
			}
			// The index may lag the table: the record itself decides.
			it, err := s.st.Get(ctx, hit.Key())
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if statusOf(it) != TransferPending || it.Int("ctime") >= cutoff {
				continue
			}
			x, err := xferOf(it)
			if err != nil {
				errs = append(errs, fmt.Errorf("transfer record %s: %w", it.Key(), err))
				continue
			}
			_, done, err := s.finish(ctx, x, it)
			if done {
				n++
			} else if err != nil {
				errs = append(errs, fmt.Errorf("transfer %s: %w", x.ref(), err))
			}
		}
	}
	return n, errors.Join(errs...)
}

// xfer is one transfer's fields, as its record holds them.
type xfer struct {
	uid, id, typ, coin string
	amount             decimal.Decimal
	from, to           ledger.Kind
	pair, reqID        string
}

// ref is the transfer's money reference (Move.Ref; its ledger postings'
// ids begin with it).
func (x xfer) ref() string { return "xfer:" + x.uid + ":" + x.id }

func (x xfer) reason() string { return "transfer_" + x.typ }

// futures says the transfer is between the spot and futures accounts: one
// money step, both accounts being the engine's.
func (x xfer) futures() bool { return x.from == ledger.Futures || x.to == ledger.Futures }

func (x xfer) key() store.Key { return transferKey(x.uid, x.id) }

// otherAccount is the account on the non-spot side.
func (x xfer) otherAccount() ledger.Account {
	k := x.to
	if k == ledger.Spot {
		k = x.from
	}
	if k == ledger.MarginIsolated {
		return ledger.IsolatedAccount(x.uid, x.pair)
	}
	return ledger.UserAccount(x.uid, k)
}

// same reports whether y is the same transfer request as x.
func (x xfer) same(y xfer) bool {
	return x.typ == y.typ && x.coin == y.coin && x.amount.Equal(y.amount) && x.from == y.from && x.to == y.to && x.pair == y.pair
}

// pendingItem is the record of a new transfer: pending, in the user's
// history (gsi1) and in the pending index (gsi2) until it is finished.
func (x xfer) pendingItem(now int64) store.Item {
	k := x.key()
	return store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, "id": x.id, "uid": x.uid, "type": x.typ, "coin": x.coin,
		"amount": x.amount.String(), "from": string(x.from), "to": string(x.to), "symbol": x.pair, "requestId": x.reqID,
		"ctime": now, attrXferStatus: TransferPending,
		store.AttrGSI1PK: transferLogPK(x.uid), store.AttrGSI1SK: fmt.Sprintf("%013d#%020d#%s", now, transferSeq.Add(1), x.id),
		store.AttrGSI2PK: pendingPK(pendingShard(x.uid, x.id)), store.AttrGSI2SK: fmt.Sprintf("%013d#%s#%s", now, x.uid, x.id),
	}
}

func xferOf(it store.Item) (xfer, error) {
	amount, err := decimal.NewFromString(it.Str("amount"))
	if err != nil {
		return xfer{}, fmt.Errorf("amount: %w", err)
	}
	return xfer{uid: it.Str("uid"), id: it.Str("id"), typ: it.Str("type"), coin: it.Str("coin"), amount: amount,
		from: ledger.Kind(it.Str("from")), to: ledger.Kind(it.Str("to")), pair: it.Str("symbol"), reqID: it.Str("requestId")}, nil
}

// statusOf is a record's status (records written before transfers had
// one applied at once: success).
func statusOf(it store.Item) string {
	if st := it.Str(attrXferStatus); st != "" {
		return st
	}
	return TransferSuccess
}

func transferOf(it store.Item) TransferRecord {
	r := TransferRecord{
		ID: it.Str("id"), Type: it.Str("type"), CoinSymbol: it.Str("coin"), Amount: it.Str("amount"),
		From: it.Str("from"), To: it.Str("to"), Symbol: it.Str("symbol"), Status: statusOf(it), Ctime: it.Int("ctime"),
	}
	r.FromName = AccountName(ledger.Kind(r.From), r.Symbol)
	r.ToName = AccountName(ledger.Kind(r.To), r.Symbol)
	return r
}

// TransferDoneBy is the transfer a committed change completed, and its
// user: a transfer record whose status became success (the change feed's
// readers tell the user: the Binance-compatible balanceUpdate event).
func TransferDoneBy(ch store.Change) (uid string, r TransferRecord, ok bool) {
	pk := walletPK("")
	if ch.New == nil || !strings.HasPrefix(ch.Key.SK, "XFER#") || !strings.HasPrefix(ch.Key.PK, pk) || len(ch.Key.PK) == len(pk) {
		return "", TransferRecord{}, false
	}
	if statusOf(ch.New) != TransferSuccess || ch.Old != nil && statusOf(ch.Old) == TransferSuccess {
		return "", TransferRecord{}, false
	}
	return strings.TrimPrefix(ch.Key.PK, pk), transferOf(ch.New), true
}
