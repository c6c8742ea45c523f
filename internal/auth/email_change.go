package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// EmailChangeLock is how long withdrawals stay locked after the e-mail
// changes: whoever took over a session and the codes cannot move the
// new address into place and take money out before the owner, told at
// the old address, can react. It is the lock a trade-password change and
// an authenticator reset set (spec §6), kept on the profile beside the
// reset's (attrWithdrawLock), which every withdrawal checks through
// wallet.Service.WithdrawLockedUntil.
const EmailChangeLock = 24 * time.Hour

// EmailChange is an email_update: the new address with the code sent to
// it, and the codes the account's own factors ask for.
type EmailChange struct {
	// Email is the new address.
	Email string
	// NewCode is the code of operationType 5 sent to the new address.
	NewCode string
	// Codes are the account's own factors as a withdrawal asks for them
	// (WithdrawalFactors): the code sent to the current address under
	// operationType 17 when the account has one, the SMS code under 11
	// when the SMS check is on (or when the phone is the only factor),
	// the authenticator's when it is on.
	Codes Codes
}

// EmailChanged is what a stored e-mail change answers.
type EmailChanged struct {
	Email string `json:"email" doc:"the new address"`
	// WithdrawLockedUntil is when the withdrawal lock the change set ends.
	WithdrawLockedUntil int64 `json:"withdrawLockedUntil" doc:"Unix ms: withdrawals are locked until then (24 hours)"`
}

// ChangeEmail changes the account's e-mail, or adds one to a phone
// account. The new address proves itself with its code (operationType 5);
// the account proves itself with the codes of its own factors, the current
// address's among them, so a stolen session alone cannot move the account
// to an address its thief controls. One transaction reserves the new
// address, frees the old one, updates the profile, locks withdrawals for
// EmailChangeLock, uses the codes up and writes the setting history; then
// the old address (or, without one, the phone) is told.
//
// The new address's code is checked before whether another account has
// the address, so this call tells nobody more than the code-sending step
// did (which refuses to send a code to an address an account has, and
// counts each such answer against the caller's address: codes.go): only
// an address taken after its code was sent is refused here.
func (s *Service) ChangeEmail(ctx context.Context, m Meta, in EmailChange) (EmailChanged, error) {
	id, err := normEmail(in.Email)
	if err != nil {
		return EmailChanged{}, err
	}
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return EmailChanged{}, err
	}
	if u.CancelledMs != 0 {
		return EmailChanged{}, apperr.New(apperr.CodeAccountCancelled)
	}
	if u.Email == id.email {
		return EmailChanged{}, apperr.New(apperr.CodeSameTarget)
	}
	newCode := strings.TrimSpace(in.NewCode)
	if newCode == "" {
		return EmailChanged{}, apperr.New(apperr.CodeNewEmailCodeRequired)
	}
	// Every code the account's factors ask for must be there before any
	// is checked (a wrong one counts a try), as a withdrawal's must.
	if err := requireOwnFactors(u, in.Codes); err != nil {
		return EmailChanged{}, err
	}
	useNew, err := s.checkCode(ctx, id, OpChangeTarget, newCode)
	if err != nil {
		return EmailChanged{}, err
	}
	if err := s.targetFree(ctx, u, id); err != nil {
		return EmailChanged{}, err
	}
	own, err := s.checkOwnFactors(ctx, u, in.Codes)
	if err != nil {
		return EmailChanged{}, err
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actEmailUpdate, m)
	if err != nil {
		return EmailChanged{}, err
	}
	until := s.now().Add(EmailChangeLock).UnixMilli()
	upd := store.NewUpdate().Set(attrEmail, id.email).Set(attrWithdrawLock, until)
	cond := store.And(store.ItemExists(), store.NotExists(attrCancelledAt))
	if u.Email == "" {
		cond = store.And(cond, store.Or(store.NotExists(attrEmail), store.Eq(attrEmail, "")))
	} else {
		cond = store.And(cond, store.Eq(attrEmail, u.Email))
	}
	if c := own.profileUpdate(upd); c != nil {
		cond = store.And(cond, c)
	}
	uk := id.uniqueKey()
	ops := []store.Op{
		store.PutOp(store.Item{store.AttrPK: uk.PK, store.AttrSK: uk.SK, attrUID: u.ID}, store.ItemNotExists()).Named(opNameNew),
		store.UpdateOp(profileKey(u.ID), upd, cond).Named(opNameProfile),
		useNew.Named(opNameCode),
		hist.Named(opNameHistory),
	}
	ops = append(ops, own.ops...)
	old, hadOld := u.emailIdent()
	if hadOld {
		ops = append(ops, store.DeleteOp(old.uniqueKey(), store.Eq(attrUID, u.ID)).Named(opNameOld))
	}
	if err := s.st.Transact(ctx, ops); err != nil {
		return EmailChanged{}, sensitiveTxErr(err, ops)
	}
	if own.step != 0 {
		s.totpAccepted(ctx, u.ID)
	}
	s.log.Info().Str("uid", u.ID).Bool("added", !hadOld).Msg("e-mail changed; withdrawals locked for 24 h")
	// The old address hears of it: if the owner did not ask for it, they
	// learn while withdrawals are still locked. A phone account that
	// added an address hears on its phone.
	to := old
	if !hadOld {
		to, _ = u.phone()
	}
	subject, text := emailChangedMessage(m.Lang, maskEmail(id.email), m.IP, s.now())
	s.notice(ctx, to, subject, text)
	return EmailChanged{Email: id.email, WithdrawLockedUntil: until}, nil
}

// requireOwnFactors answers the first code WithdrawalFactors asks of u
// that c lacks (nil when none is missing).
func requireOwnFactors(u User, c Codes) error {
	needEmail, needSMS, needGoogle := WithdrawalFactors(u)
	switch {
	case needEmail && strings.TrimSpace(c.Email) == "":
		return apperr.New(apperr.CodeEmailCodeRequired)
	case needSMS && strings.TrimSpace(c.SMS) == "":
		return apperr.New(apperr.CodeSMSCodeRequired)
	case needGoogle && strings.TrimSpace(c.Google) == "":
		return apperr.New(apperr.CodeGoogleCodeRequired)
	}
	return nil
}

// sensitiveTxErr answers a failed transaction of a sensitive change by the
// operation that failed: the new address taken meanwhile, a code used by
// a concurrent request, or the account changed (cancelled, its address or
// sessions changed, an authenticator code accepted) since it was read.
func sensitiveTxErr(err error, ops []store.Op) error {
	name, ok := store.FailedCondition(err, ops)
	if !ok {
		if errors.Is(err, store.ErrConditionFailed) {
			return apperr.New(apperr.CodeAccountChanged)
		}
		return internal(err)
	}
	switch name {
	case opNameNew:
		return apperr.New(apperr.CodeAccountExists)
	case opNameCode:
		return apperr.New(apperr.CodeCodeExpired)
	}
	return apperr.New(apperr.CodeAccountChanged)
}

func emailChangedMessage(lang, masked, ip string, at time.Time) (subject, text string) {
	when := at.UTC().Format("2006-01-02 15:04") + " UTC"
	if ip == "" {
		ip = "-"
	}
	if lang == apperr.LangMN {
		return "Tenger: таны имэйл хаяг солигдлоо",
			"Таны Tenger бүртгэлийн имэйл хаяг " + when + "-д " + masked + " болж солигдлоо (IP " + ip + "). " +
				"Аюулгүй байдлын үүднээс 24 цагийн турш зарлага хийх боломжгүй. " +
				"Хэрэв та үүнийг хийгээгүй бол нууц үгээ даруй сольж, тусламжийн төвд хандана уу."
	}
	return "Tenger: your e-mail address was changed",
		"The e-mail address of your Tenger account was changed to " + masked + " at " + when + " (IP " + ip + "). " +
			"For your safety, withdrawals are locked for 24 hours. " +
			"If this was not you, change your password at once and contact support."
}
