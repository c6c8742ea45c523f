package auth

import (
	"context"
	"errors"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// attrCancelledAt is the profile attribute holding when (Unix ms) the
// owner cancelled the account; absent while it is open. The profile stays:
// see CancelAccount.
const attrCancelledAt = "cancelledAt"

// CancelInput is a cancellation as the account service (internal/account)
// asks it of the profile.
type CancelInput struct {
	// Codes are the account's own factors, as a withdrawal asks for them.
	Codes Codes
	// Extra are the caller's operations, committed in the same
	// transaction: condition checks on what made the account eligible
	// (balances still zero), the revocation of its API keys, the
	// cancellation record. Any of them failing refuses the whole
	// cancellation with CodeAccountChanged.
	Extra []store.Op
}

// CancelAccount closes the signed-in user's account in one transaction:
// the profile is marked cancelled and its session generation raised (so
// every session ends at once, this one included), the codes are used up,
// the setting history records it, and the caller's operations (in.Extra)
// commit with it. Then the user's WebSocket connections are closed and the
// account's e-mail (or phone) is told.
//
// What stays, on purpose: the profile, its e-mail and phone reservations
// (EMAIL#/PHONE# keep naming this account, so nobody else can sign up with
// them or be mistaken for its owner, and deposits to its addresses or with
// its user id stay attributable to it), its histories and everything other
// services keep about it. Anti-money-laundering law requires an exchange
// to keep its customers' identification and transaction records for years
// after the relationship ends (internal/account's RetentionPeriod), and an
// operator may reopen the account (ReopenAccount). Sign-in to a cancelled
// account answers CodeAccountCancelled once the password is right.
func (s *Service) CancelAccount(ctx context.Context, m Meta, in CancelInput) (time.Time, error) {
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return time.Time{}, err
	}
	if u.CancelledMs != 0 {
		return time.Time{}, apperr.New(apperr.CodeAccountCancelled)
	}
	own, err := s.checkOwnFactors(ctx, u, in.Codes)
	if err != nil {
		return time.Time{}, err
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actAccountCancel, m)
	if err != nil {
		return time.Time{}, err
	}
	now := s.now()
	upd := store.NewUpdate().Set(attrCancelledAt, now.UnixMilli()).Set(attrSessGen, u.SessGen+1)
	cond := store.And(store.ItemExists(), store.NotExists(attrCancelledAt), genIs(u.SessGen))
	if c := own.profileUpdate(upd); c != nil {
		cond = store.And(cond, c)
	}
	ops := []store.Op{store.UpdateOp(profileKey(u.ID), upd, cond).Named(opNameProfile), hist.Named(opNameHistory)}
	ops = append(ops, own.ops...)
	ops = append(ops, in.Extra...)
	if len(ops) > store.MaxTransactItems {
		return time.Time{}, internal(errors.New("auth: a cancellation of more than the store's transaction items"))
	}
	err = s.st.Transact(ctx, ops)
	// Forgotten whatever the outcome: the cancellation may have happened.
	s.sessions.revokeUser(u.ID)
	if err != nil {
		return time.Time{}, sensitiveTxErr(err, ops)
	}
	if own.step != 0 {
		s.totpAccepted(ctx, u.ID)
	}
	s.revoked(ctx, Revoked{UserID: u.ID})
	s.log.Info().Str("uid", u.ID).Msg("account cancelled by its owner")
	subject, text := cancelledMessage(m.Lang, now)
	s.notice(ctx, u.contact(), subject, text)
	return now, nil
}

// ReopenAccount opens a cancelled account again (an operator's action,
// after checking who asks: `tenger account reopen`), with extra
// operations of the caller in the same transaction. Its sessions stay
// ended; the owner signs in with the password they had. API keys deleted
// by the cancellation are not restored.
func (s *Service) ReopenAccount(ctx context.Context, uid string, extra ...store.Op) error {
	u, err := s.getUser(ctx, uid)
	if errors.Is(err, apperr.New(apperr.CodeNotSignedIn)) {
		return apperr.New(apperr.CodeAccountUnknown, uid)
	}
	if err != nil {
		return err
	}
	if u.CancelledMs == 0 {
		return apperr.New(apperr.CodeAccountNotCancelled)
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actAccountReopen, Meta{Device: "operator"})
	if err != nil {
		return err
	}
	ops := append([]store.Op{
		store.UpdateOp(profileKey(u.ID), store.NewUpdate().Remove(attrCancelledAt), store.Eq(attrCancelledAt, u.CancelledMs)).Named(opNameProfile),
		hist.Named(opNameHistory),
	}, extra...)
	if err := s.st.Transact(ctx, ops); err != nil {
		return sensitiveTxErr(err, ops)
	}
	s.log.Info().Str("uid", u.ID).Msg("cancelled account reopened")
	return nil
}

// Cancelled reports when the account was cancelled (the zero time while it
// is open); CodeAccountUnknown when there is no such account.
func (s *Service) Cancelled(ctx context.Context, uid string) (time.Time, error) {
	u, err := s.getUser(ctx, uid)
	if errors.Is(err, apperr.New(apperr.CodeNotSignedIn)) {
		return time.Time{}, apperr.New(apperr.CodeAccountUnknown, uid)
	}
	if err != nil {
		return time.Time{}, err
	}
	if u.CancelledMs == 0 {
		return time.Time{}, nil
	}
	return time.UnixMilli(u.CancelledMs), nil
}

func cancelledMessage(lang string, at time.Time) (subject, text string) {
	when := at.UTC().Format("2006-01-02 15:04") + " UTC"
	if lang == apperr.LangMN {
		return "Tenger: таны бүртгэл хаагдлаа",
			"Таны Tenger бүртгэл " + when + "-д хаагдлаа. Хуулийн дагуу таны мэдээллийг тогтоосон хугацаанд хадгална. " +
				"Хаагдсаны дараа таны хаяг руу ирсэн орлого алга болохгүй: бүртгэлд тань орж, хяналтад хадгалагдана. " +
				"Бүртгэлээ дахин нээлгэх бол тусламжийн төвд хандана уу. Хэрэв та үүнийг хийгээгүй бол даруй хандана уу."
	}
	return "Tenger: your account was closed",
		"Your Tenger account was closed at " + when + ". As the law requires, its records are kept for the legal period. " +
			"Deposits that reach your addresses after this are not lost: they are credited to the closed account and held for review. " +
			"To reopen the account, contact support. If this was not you, contact support at once."
}
