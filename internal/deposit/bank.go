package deposit

import (
	"context"
	"errors"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

const reviewPK = "DEPREVIEW"

// Users tells whether a bank reference is a user id (*auth.Service).
type Users interface {
	User(ctx context.Context, uid string) (auth.User, error)
}

var _ Users = (*auth.Service)(nil)

// BankTransfer is an incoming bank notification.
type BankTransfer struct {
	// TxID is the bank's transaction id: one credit per TxID, ever.
	TxID string
	// Reference is the transfer's description; the user id when the user
	// followed the deposit modal.
	Reference string
	Amount    string
}

func bankDepositID(txid string) string { return coins.Bank + ":" + txid }

// CreditBank credits an incoming MNT bank transfer to the user whose id is
// the reference, once per bank transaction id. A reference that names no
// user is held for review (stored, listed by Review, credited by Assign).
func (s *Service) CreditBank(ctx context.Context, users Users, t BankTransfer) (Record, error) {
	txid := strings.TrimSpace(t.TxID)
	if txid == "" || len(txid) > 100 || strings.ContainsAny(txid, "#") {
		return Record{}, apperr.New(apperr.CodeSimInput, "bankTxId must be 1-100 characters")
	}
	fiat, ok := s.o.Coins.Fiat()
	if !ok {
		return Record{}, apperr.New(apperr.CodeCoinUnknown)
	}
	cfg, _ := fiat.Chain(coins.Bank)
	amt, err := coins.ParseAmount(strings.TrimSpace(t.Amount), cfg.Precision)
	if err != nil {
		return Record{}, apperr.New(apperr.CodeAmountInvalid, cfg.Precision)
	}
	id := bankDepositID(txid)
	if rec, err := s.getRecord(ctx, id); err == nil {
		return rec, nil // this bank transaction was handled already
	} else if !errors.Is(err, store.ErrNotFound) {
		return Record{}, internal(err)
	}
	ref := strings.TrimSpace(t.Reference)
	uid := ""
	if ref != "" && len(ref) <= 64 && !strings.ContainsAny(ref, "#") && users != nil {
		if _, err := users.User(ctx, ref); err == nil {
			uid = ref
		} else if !errors.Is(err, apperr.New(apperr.CodeNotSignedIn)) {
			return Record{}, internal(err)
		}
	}
	now := s.o.Now()
	k := depositKey(id)
	it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "id": id, "uid": uid, "coin": fiat.Symbol, "chain": coins.Bank,
		"txid": txid, "vout": 0, "address": s.o.Bank.AccountNo, "memo": clip(ref, 64), "amount": amt,
		"confirmations": 0, "required": 0, "created": now.UnixMilli(), store.AttrGSI1SK: histSK(now.UnixMilli(), id)}
	if uid == "" {
		it["status"] = StatusReview
		it[store.AttrGSI1PK] = reviewPK
		err := s.o.Store.Put(ctx, it, store.ItemNotExists())
		if err != nil && !errors.Is(err, store.ErrConditionFailed) {
			return Record{}, internal(err)
		}
		s.o.Log.Warn().Str("bankTxId", txid).Msg("bank deposit with an unknown reference held for review")
		rec, err := s.getRecord(ctx, id)
		if err != nil {
			return Record{}, internal(err)
		}
		return rec, nil
	}
	it["status"] = StatusCredited
	it["credited"] = now.UnixMilli()
	it[store.AttrGSI1PK] = "DEPHIST#" + uid
	_, err = s.o.Ledger.Post(ctx, ledger.Posting{
		ID:     "deposit:" + id,
		Reason: "deposit",
		Legs:   []ledger.Leg{ledger.Move(ledger.BankAccount(s.o.Bank.Bank), ledger.UserAccount(uid, ledger.Spot), fiat.Symbol, amt)},
		Meta:   map[string]string{"deposit": id},
		Extra:  []store.Op{store.PutOp(it, store.ItemNotExists())},
	})
	var xf *ledger.ExtraFailedError
	if err != nil && !errors.As(err, &xf) {
		return Record{}, internal(err)
	}
	rec, err := s.getRecord(ctx, id)
	if err != nil {
		return Record{}, internal(err)
	}
	s.notify(ctx, rec)
	return rec, nil
}

// Review lists the deposits held for review (bank and chain), oldest first.
func (s *Service) Review(ctx context.Context) ([]Record, error) {
	q := store.Query{Index: store.IndexGSI1, PK: reviewPK, Limit: 200}
	out := []Record{}
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, internal(err)
		}
		for _, it := range page.Items {
			out = append(out, recordOf(it))
		}
		if page.Cursor == "" || len(out) >= 1000 {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// AssignBank credits a bank deposit held for review to a user (operator
// action): one posting that also moves the record to the user's history.
func (s *Service) AssignBank(ctx context.Context, users Users, bankTxID, uid string) (Record, error) {
	id := bankDepositID(strings.TrimSpace(bankTxID))
	rec, err := s.getRecord(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && rec.Status != StatusReview) {
		return Record{}, apperr.New(apperr.CodeReviewUnknown)
	}
	if err != nil {
		return Record{}, internal(err)
	}
	if _, err := users.User(ctx, uid); err != nil {
		return Record{}, apperr.New(apperr.CodeSimInput, "no user "+clip(uid, 20))
	}
	now := s.o.Now()
	_, err = s.o.Ledger.Post(ctx, ledger.Posting{
		ID:     "deposit:" + id,
		Reason: "deposit",
		Legs:   []ledger.Leg{ledger.Move(ledger.BankAccount(s.o.Bank.Bank), ledger.UserAccount(uid, ledger.Spot), rec.Coin, rec.Amount)},
		Meta:   map[string]string{"deposit": id, "assigned": "review"},
		Extra: []store.Op{store.UpdateOp(depositKey(id), store.NewUpdate().Set("uid", uid).Set("status", StatusCredited).
			Set("credited", now.UnixMilli()).Set(store.AttrGSI1PK, "DEPHIST#"+uid), store.Eq("status", StatusReview))},
	})
	var xf *ledger.ExtraFailedError
	if errors.As(err, &xf) {
		return Record{}, apperr.New(apperr.CodeReviewUnknown)
	}
	if err != nil {
		return Record{}, internal(err)
	}
	rec, err = s.getRecord(ctx, id)
	if err != nil {
		return Record{}, internal(err)
	}
	s.notify(ctx, rec)
	return rec, nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
