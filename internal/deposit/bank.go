package deposit

import (
	"context"
	"errors"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
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
// The credit comes before the record is written; a notification retried
// after a crash between the two writes the record and credits nothing more.
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
	// The credit, then the record in its own step: a crash between the two
	// leaves no record, so the notification retried credits nothing more
	// (the credit answers nil) and writes it.
	if err := s.o.Funds.Credit(ctx, spotfunds.Move{Ref: "deposit:" + id, UID: uid, Coin: fiat.Symbol, Amount: amt,
		Other: ledger.BankAccount(s.o.Bank.Bank), Reason: "deposit"}); err != nil {
		return Record{}, internal(err)
	}
	if err := s.o.Store.Put(ctx, it, store.ItemNotExists()); err != nil && !errors.Is(err, store.ErrConditionFailed) {
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
// action) and moves the record to the user's history. A crash part way is
// repaired by assigning it again to the same user; another user is refused
// once the record is claimed.
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
	// Three steps, each repaired by the assignment retried: the record is
	// claimed for the user (still in review), the user credited, the
	// record credited. The claim keeps a retry after a crash from crediting
	// another user: the record names whom the money may already be with.
	_, err = s.o.Store.Update(ctx, depositKey(id), store.NewUpdate().Set("uid", uid),
		store.And(store.Eq("status", StatusReview), store.Or(store.NotExists("uid"), store.Eq("uid", ""), store.Eq("uid", uid))))
	if errors.Is(err, store.ErrConditionFailed) {
		cur, gerr := s.getRecord(ctx, id)
		if gerr != nil {
			return Record{}, internal(gerr)
		}
		if cur.Status == StatusReview && cur.UID != "" && cur.UID != uid {
			return Record{}, apperr.New(apperr.CodeSimInput, "deposit is being assigned to "+clip(cur.UID, 20)+"; assign it to that user to finish")
		}
		return Record{}, apperr.New(apperr.CodeReviewUnknown)
	}
	if err != nil {
		return Record{}, internal(err)
	}
	err = s.o.Funds.Credit(ctx, spotfunds.Move{Ref: "deposit:" + id, UID: uid, Coin: rec.Coin, Amount: rec.Amount,
		Other: ledger.BankAccount(s.o.Bank.Bank), Reason: "deposit"})
	if errors.Is(err, spotfunds.ErrConflict) {
		// Credited before under this reference with other fields (nothing
		// was credited now): the claim goes, the record stays in review.
		_, uerr := s.o.Store.Update(ctx, depositKey(id), store.NewUpdate().Set("uid", ""),
			store.And(store.Eq("status", StatusReview), store.Eq("uid", uid)))
		return Record{}, internal(errors.Join(err, uerr))
	}
	if err != nil {
		return Record{}, internal(err)
	}
	now := s.o.Now()
	_, err = s.o.Store.Update(ctx, depositKey(id), store.NewUpdate().Set("status", StatusCredited).
		Set("credited", now.UnixMilli()).Set(store.AttrGSI1PK, "DEPHIST#"+uid),
		store.And(store.Eq("status", StatusReview), store.Eq("uid", uid)))
	if errors.Is(err, store.ErrConditionFailed) {
		return Record{}, apperr.New(apperr.CodeReviewUnknown) // another run finished it
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
