package wallet

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/store"
)

// WithdrawBan is how long withdrawals stay blocked after the trade
// password is set or changed (spec §6, §9).
const WithdrawBan = 24 * time.Hour

// Trade password rule: 8–32 characters with at least one letter and one
// digit, no spaces or control characters (the login password's rule, so
// users meet one rule), and not equal to the login password.
const (
	minCapitalPw = 8
	maxCapitalPw = 32
)

func checkCapitalRule(pw string) error {
	n := utf8.RuneCountInString(pw)
	if !utf8.ValidString(pw) || n < minCapitalPw || n > maxCapitalPw {
		return apperr.New(apperr.CodeWalletTradePasswordRule)
	}
	var letter, digit bool
	for _, r := range pw {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsControl(r) || unicode.IsSpace(r):
			return apperr.New(apperr.CodeWalletTradePasswordRule)
		}
	}
	if !letter || !digit {
		return apperr.New(apperr.CodeWalletTradePasswordRule)
	}
	return nil
}

// CapitalPasswordInput is a /v4/capital_password/reset call.
type CapitalPasswordInput struct {
	NewPassword string
	// Confirm, when given, must equal NewPassword.
	Confirm string
	Codes   Codes
}

// CapitalStatus says whether the trade password is set and until when
// withdrawals are blocked.
type CapitalStatus struct {
	IsSet int `json:"isCapitalPwordSet" doc:"1 when a trade password is set"`
	// WithdrawLockedUntil is Unix ms; 0 when withdrawals are not blocked.
	WithdrawLockedUntil int64 `json:"withdrawLockedUntil"`
	// LockSeconds is the remaining ban in seconds (0 when none).
	LockSeconds int64 `json:"lockSeconds"`
	SetAt       int64 `json:"setAt" doc:"Unix ms of the last change, 0 when never set"`
}

// SetCapitalPassword sets or replaces the trade password. It needs the SMS
// code of operationType 6 sent to the bound phone (the form always asks for
// it); an account without a phone gives the e-mail code of operationType 6
// instead; plus the Google code when the authenticator is on. A change of
// an existing password then blocks withdrawals for 24 hours.
func (s *Service) SetCapitalPassword(ctx context.Context, uid string, in CapitalPasswordInput) (CapitalStatus, error) {
	u, err := s.user(ctx, uid)
	if err != nil {
		return CapitalStatus{}, err
	}
	if len(in.NewPassword) > 256 {
		return CapitalStatus{}, apperr.New(apperr.CodeWalletTradePasswordRule)
	}
	if err := checkCapitalRule(in.NewPassword); err != nil {
		return CapitalStatus{}, err
	}
	if in.Confirm != "" && in.Confirm != in.NewPassword {
		return CapitalStatus{}, apperr.New(apperr.CodeWalletPasswordMismatch)
	}
	if u.PasswordHash != "" && s.auth.CheckSecret(u.PasswordHash, in.NewPassword) {
		return CapitalStatus{}, apperr.New(apperr.CodeWalletTradePasswordIsLogin)
	}
	sms, email, google := strings.TrimSpace(in.Codes.SMS), strings.TrimSpace(in.Codes.Email), strings.TrimSpace(in.Codes.Google)
	switch {
	case u.Mobile != "" && sms == "":
		return CapitalStatus{}, apperr.New(apperr.CodeSMSCodeRequired)
	case u.Mobile == "" && u.Email == "":
		return CapitalStatus{}, apperr.New(apperr.CodeWalletNoVerifyTarget)
	case u.Mobile == "" && email == "":
		return CapitalStatus{}, apperr.New(apperr.CodeWalletEmailCodeRequired)
	case u.GoogleOn && google == "":
		return CapitalStatus{}, apperr.New(apperr.CodeGoogleCodeRequired)
	}
	fs := []auth.Factor{{Channel: auth.ChannelSMS, Ops: []int{auth.OpTradePassword}, Code: sms}}
	if u.Mobile == "" {
		fs[0] = auth.Factor{Channel: auth.ChannelEmail, Ops: []int{auth.OpTradePassword}, Code: email}
	}
	if u.GoogleOn {
		fs = append(fs, auth.Factor{Channel: auth.ChannelGoogle, Code: google})
	}
	if err := s.auth.VerifyAll(ctx, uid, fs...); err != nil {
		return CapitalStatus{}, err
	}
	hash, err := s.auth.HashSecret(in.NewPassword)
	if err != nil {
		return CapitalStatus{}, internal(err)
	}
	now := s.now()
	// A first trade password changes no one's access, so only a change (a
	// password replaced) blocks withdrawals for 24 hours (spec §6). The
	// first one is written on condition that there is none yet: a set that
	// loses that race is a change.
	first := store.NewUpdate().Set(attrCapitalHash, hash).Set(attrCapitalSetAt, now.UnixMilli())
	err = s.setSettingIf(ctx, uid, first, store.NotExists(attrCapitalHash))
	switch {
	case err == nil:
		s.log.Info().Str("uid", uid).Msg("trade password set")
		return s.CapitalStatus(ctx, uid)
	case !errors.Is(err, store.ErrConditionFailed):
		return CapitalStatus{}, err
	}
	upd := store.NewUpdate().Set(attrCapitalHash, hash).Set(attrCapitalSetAt, now.UnixMilli()).
		Set(attrWithdrawLocked, now.Add(WithdrawBan).UnixMilli())
	if err := s.setSetting(ctx, uid, upd); err != nil {
		return CapitalStatus{}, err
	}
	s.log.Info().Str("uid", uid).Msg("trade password changed; withdrawals blocked for 24 h")
	return s.CapitalStatus(ctx, uid)
}

// CapitalStatus reports the trade password state.
func (s *Service) CapitalStatus(ctx context.Context, uid string) (CapitalStatus, error) {
	it, err := s.settings(ctx, uid)
	if err != nil {
		return CapitalStatus{}, err
	}
	st := CapitalStatus{SetAt: it.Int(attrCapitalSetAt)}
	if it.Str(attrCapitalHash) != "" {
		st.IsSet = 1
	}
	if until := it.Int(attrWithdrawLocked); until > s.now().UnixMilli() {
		st.WithdrawLockedUntil = until
		st.LockSeconds = (until - s.now().UnixMilli() + 999) / 1000
	}
	return st, nil
}

// CheckCapitalPassword reports whether pw is the user's trade password
// (false when none is set); for the P2P fund-password checks.
func (s *Service) CheckCapitalPassword(ctx context.Context, uid, pw string) (bool, error) {
	it, err := s.settings(ctx, uid)
	if err != nil {
		return false, err
	}
	h := it.Str(attrCapitalHash)
	if h == "" || len(pw) > 256 {
		return false, nil
	}
	return s.auth.CheckSecret(h, pw), nil
}
