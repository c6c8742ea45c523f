package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// RecoveryLock is how long withdrawals stay locked after a lost
// authenticator was reset: whoever took over the e-mail and the phone
// cannot move money out before the owner notices.
const RecoveryLock = 24 * time.Hour

// attrWithdrawLock is the profile attribute holding when (Unix ms) the
// recovery's withdrawal lock ends.
const attrWithdrawLock = "withdrawLockUntil"

// ResetTargets names, masked, where the reset codes went.
type ResetTargets struct {
	Email  string `json:"email" doc:"the account's e-mail, masked"`
	Mobile string `json:"mobile" doc:"the account's phone number, masked"`
}

// googleChallenge is the user a live Google sign-in challenge (the step
// after the password) belongs to: a reset is open only to who knows the
// password.
func (s *Service) googleChallenge(ctx context.Context, token string) (store.Key, User, error) {
	if len(token) != 64 {
		return store.Key{}, User{}, apperr.New(apperr.CodeChallengeExpired)
	}
	k := challengeKey(hashToken(token))
	ch, err := s.st.Get(ctx, k)
	if errors.Is(err, store.ErrNotFound) {
		return k, User{}, apperr.New(apperr.CodeChallengeExpired)
	}
	if err != nil {
		return k, User{}, internal(err)
	}
	if ch.Int("expiresAt") <= s.now().UnixMilli() || ch.Int("tries") >= challengeTries || ch.Str("type") != ChallengeGoogle {
		return k, User{}, apperr.New(apperr.CodeChallengeExpired)
	}
	u, err := s.getUser(ctx, ch.Str(attrUID))
	if err != nil {
		return k, User{}, apperr.New(apperr.CodeChallengeExpired)
	}
	return k, u, nil
}

// recoveryTargets are the account's e-mail and phone: both are needed.
func recoveryTargets(u User) (email, phone ident, err error) {
	email, ok1 := u.emailIdent()
	phone, ok2 := u.phone()
	if !ok1 || !ok2 {
		return ident{}, ident{}, apperr.New(apperr.CodeRecoveryUnavailable)
	}
	return email, phone, nil
}

// SendAuthenticatorResetCodes sends a code (operationType 29) to the
// account's own e-mail and phone, for the user of a Google sign-in
// challenge who lost the authenticator; the usual IP, target and resend
// limits apply.
func (s *Service) SendAuthenticatorResetCodes(ctx context.Context, m Meta, challengeToken string) (ResetTargets, error) {
	_, u, err := s.googleChallenge(ctx, challengeToken)
	if err != nil {
		return ResetTargets{}, err
	}
	email, phone, err := recoveryTargets(u)
	if err != nil {
		return ResetTargets{}, err
	}
	if err := s.sendCode(ctx, m, email, OpResetAuthenticator); err != nil {
		return ResetTargets{}, err
	}
	if err := s.sendCode(ctx, m, phone, OpResetAuthenticator); err != nil {
		return ResetTargets{}, err
	}
	return ResetTargets{Email: maskEmail(u.Email), Mobile: maskMobile(u.Mobile)}, nil
}

// ResetAuthenticator turns a lost authenticator off with the codes sent to
// the account's e-mail and phone, locks withdrawals for RecoveryLock and
// finishes the sign-in, in one transaction: the challenge and the codes
// are used up. A wrong code counts against the challenge as a wrong
// authenticator code does.
func (s *Service) ResetAuthenticator(ctx context.Context, m Meta, challengeToken, emailCode, smsCode string) (LoginResult, error) {
	k, u, err := s.googleChallenge(ctx, challengeToken)
	if err != nil {
		return LoginResult{}, err
	}
	email, phone, err := recoveryTargets(u)
	if err != nil {
		return LoginResult{}, err
	}
	delEmail, err := s.checkCode(ctx, email, OpResetAuthenticator, emailCode)
	if err != nil {
		s.challengeFailed(ctx, k, u, m, err)
		return LoginResult{}, err
	}
	delSMS, err := s.checkCode(ctx, phone, OpResetAuthenticator, smsCode)
	if err != nil {
		s.challengeFailed(ctx, k, u, m, err)
		return LoginResult{}, err
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actGoogleReset, m)
	if err != nil {
		return LoginResult{}, err
	}
	until := s.now().Add(RecoveryLock).UnixMilli()
	upd := store.NewUpdate().Set(attrGoogle, 0).Remove(attrGoogleSecret).Set(attrWithdrawLock, until)
	ops := []store.Op{
		store.DeleteOp(k, store.And(store.ItemExists(), store.Compare("tries", store.CmpLt, challengeTries))),
		delEmail, delSMS, hist,
		store.UpdateOp(profileKey(u.ID), upd, store.Eq(attrGoogle, 1)),
	}
	if err := s.commit(ctx, ops, apperr.New(apperr.CodeChallengeExpired)); err != nil {
		return LoginResult{}, err
	}
	u.GoogleOn = false
	return s.finishLogin(ctx, u, m, deviceUnchecked)
}

// WithdrawLockedUntil is when the withdrawal lock of a recovery ends; the
// zero time when there is none (or it has ended).
func (s *Service) WithdrawLockedUntil(ctx context.Context, uid string) (time.Time, error) {
	it, err := s.st.Get(ctx, profileKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, internal(err)
	}
	t := time.UnixMilli(it.Int(attrWithdrawLock))
	if it.Int(attrWithdrawLock) == 0 || !t.After(s.now()) {
		return time.Time{}, nil
	}
	return t, nil
}

// maskEmail shows an address's first character and its domain
// ("s***@example.mn").
func maskEmail(email string) string {
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" {
		return "***"
	}
	r := []rune(local)
	return string(r[0]) + "***@" + domain
}

// maskMobile shows a number's last two digits ("******12").
func maskMobile(mobile string) string {
	if len(mobile) <= 2 {
		return "***"
	}
	return strings.Repeat("*", len(mobile)-2) + mobile[len(mobile)-2:]
}
