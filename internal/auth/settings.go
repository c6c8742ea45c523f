package auth

import (
	"context"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// txIndexErr maps the failing operation of a transaction to an answer.
func txIndexErr(err error, byIndex map[int]error, fallback error) error {
	var tx *store.TxCanceledError
	if errors.As(err, &tx) {
		if e, ok := byIndex[tx.Index]; ok {
			return e
		}
		return fallback
	}
	return internalOrNil(err)
}

// BindMobile binds a first phone number, proven by an SMS code
// (operationType 4) sent to it, plus the Google code when that is on.
func (s *Service) BindMobile(ctx context.Context, m Meta, cc, number, smsCode, googleCode string) error {
	id, err := normPhone(cc, number)
	if err != nil {
		return err
	}
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return err
	}
	if u.Mobile != "" {
		return apperr.New(apperr.CodePhoneAlreadyBound)
	}
	if err := s.targetFree(ctx, u, id); err != nil {
		return err
	}
	del, err := s.checkCode(ctx, id, OpBindPhone, smsCode)
	if err != nil {
		return err
	}
	if err := s.checkGoogleIfOn(ctx, u, googleCode); err != nil {
		return err
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actMobileBind, m)
	if err != nil {
		return err
	}
	uk := id.uniqueKey()
	ops := []store.Op{
		store.PutOp(store.Item{store.AttrPK: uk.PK, store.AttrSK: uk.SK, attrUID: u.ID}, store.ItemNotExists()),
		store.UpdateOp(profileKey(u.ID), store.NewUpdate().Set(attrCountryCode, id.cc).Set(attrMobile, id.num),
			store.And(store.ItemExists(), store.Or(store.NotExists(attrMobile), store.Eq(attrMobile, "")))),
		del, hist,
	}
	err = s.st.Transact(ctx, ops)
	return txIndexErr(err, map[int]error{
		0: apperr.New(apperr.CodeAccountExists), 1: apperr.New(apperr.CodePhoneAlreadyBound),
		2: apperr.New(apperr.CodeCodeExpired),
	}, apperr.New(apperr.CodeCodeExpired))
}

// UpdateMobile changes the bound phone, proven by an SMS code
// (operationType 5) sent to the new number, plus the Google code when on.
func (s *Service) UpdateMobile(ctx context.Context, m Meta, cc, number, smsCode, googleCode string) error {
	id, err := normPhone(cc, number)
	if err != nil {
		return err
	}
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return err
	}
	old, ok := u.phone()
	if !ok {
		return apperr.New(apperr.CodePhoneNotBound)
	}
	return s.changeTarget(ctx, m, u, old, id, smsCode, googleCode, actMobileUpdate)
}

// The e-mail is changed (or, for phone accounts, added) by ChangeEmail
// (email_change.go), which asks more of the account than a phone change.

func (s *Service) targetFree(ctx context.Context, u User, id ident) error {
	it, err := s.st.Get(ctx, id.uniqueKey())
	switch {
	case err == nil && it.Str(attrUID) == u.ID:
		return apperr.New(apperr.CodeSameTarget)
	case err == nil:
		return apperr.New(apperr.CodeAccountExists)
	case !errors.Is(err, store.ErrNotFound):
		return internal(err)
	}
	return nil
}

// changeTarget moves the account from old (zero when none) to the new
// e-mail or phone: uniqueness items and profile in one transaction.
func (s *Service) changeTarget(ctx context.Context, m Meta, u User, old, id ident, code, googleCode, action string) error {
	if old.target() == id.target() {
		return apperr.New(apperr.CodeSameTarget)
	}
	if err := s.targetFree(ctx, u, id); err != nil {
		return err
	}
	del, err := s.checkCode(ctx, id, OpChangeTarget, code)
	if err != nil {
		return err
	}
	if err := s.checkGoogleIfOn(ctx, u, googleCode); err != nil {
		return err
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, action, m)
	if err != nil {
		return err
	}
	uk := id.uniqueKey()
	upd := store.NewUpdate()
	var cond store.Cond
	if id.isEmail() {
		upd.Set(attrEmail, id.email)
		cond = store.NotExists(attrEmail)
		if u.Email != "" {
			cond = store.Eq(attrEmail, u.Email)
		}
	} else {
		upd.Set(attrCountryCode, id.cc).Set(attrMobile, id.num)
		cond = store.And(store.Eq(attrMobile, u.Mobile), store.Eq(attrCountryCode, u.CountryCode))
	}
	ops := []store.Op{
		store.PutOp(store.Item{store.AttrPK: uk.PK, store.AttrSK: uk.SK, attrUID: u.ID}, store.ItemNotExists()),
		store.UpdateOp(profileKey(u.ID), upd, store.And(store.ItemExists(), cond)),
		del, hist,
	}
	if old.isEmail() || old.num != "" {
		ops = append(ops, store.DeleteOp(old.uniqueKey(), store.Eq(attrUID, u.ID)))
	}
	err = s.st.Transact(ctx, ops)
	return txIndexErr(err, map[int]error{
		0: apperr.New(apperr.CodeAccountExists), 2: apperr.New(apperr.CodeCodeExpired),
	}, apperr.New(apperr.CodeCodeExpired))
}

// OpenMobileCheck turns on the SMS check with a code (operationType 11) sent
// to the bound phone.
func (s *Service) OpenMobileCheck(ctx context.Context, m Meta, smsCode string) error {
	return s.setMobileCheck(ctx, m, true, smsCode, "")
}

// CloseMobileCheck turns off the SMS check with a code (operationType 11)
// sent to the bound phone, plus the Google code when on.
func (s *Service) CloseMobileCheck(ctx context.Context, m Meta, smsCode, googleCode string) error {
	return s.setMobileCheck(ctx, m, false, smsCode, googleCode)
}

func (s *Service) setMobileCheck(ctx context.Context, m Meta, on bool, smsCode, googleCode string) error {
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return err
	}
	ph, ok := u.phone()
	if !ok {
		return apperr.New(apperr.CodePhoneNotBound)
	}
	if u.MobileCheck == on {
		if on {
			return apperr.New(apperr.CodeMobileCheckAlreadyOn)
		}
		return apperr.New(apperr.CodeMobileCheckAlreadyOff)
	}
	del, err := s.checkCode(ctx, ph, OpSecurity, smsCode)
	if err != nil {
		return err
	}
	if !on {
		if err := s.checkGoogleIfOn(ctx, u, googleCode); err != nil {
			return err
		}
	}
	action, val, prev := actMobileCheckOn, 1, 0
	if !on {
		action, val, prev = actMobileCheckOff, 0, 1
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, action, m)
	if err != nil {
		return err
	}
	prevCond := store.Eq(attrMobileCheck, prev)
	if prev == 0 {
		prevCond = store.Or(store.NotExists(attrMobileCheck), prevCond)
	}
	ops := []store.Op{
		store.UpdateOp(profileKey(u.ID), store.NewUpdate().Set(attrMobileCheck, val), store.And(store.ItemExists(), prevCond)),
		del, hist,
	}
	return s.commit(ctx, ops, apperr.New(apperr.CodeCodeExpired))
}

// UpdatePassword changes the password (old one and, when on, the Google code
// required) and ends every other session of the user.
func (s *Service) UpdatePassword(ctx context.Context, m Meta, oldPw, newPw, googleCode string) error {
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return err
	}
	if err := checkPasswordRule(newPw); err != nil {
		return err
	}
	if err := s.checkUserPassword(ctx, u, oldPw); err != nil {
		return err
	}
	if oldPw == newPw {
		return apperr.New(apperr.CodeSamePassword)
	}
	if err := s.checkGoogleIfOn(ctx, u, googleCode); err != nil {
		return err
	}
	hash, err := hashPassword(newPw, s.pw)
	if err != nil {
		return internal(err)
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actPasswordUpdate, m)
	if err != nil {
		return err
	}
	ops := endOtherSessions(u, m, store.NewUpdate().Set(attrPwHash, hash), store.Eq(attrPwHash, u.PasswordHash))
	ops = append(ops, hist)
	// A conflict means a concurrent password change or sign-out: ask again.
	err = s.commit(ctx, ops, apperr.New(apperr.CodeNotSignedIn))
	s.sessions.revokeUser(u.ID) // whatever the outcome: the change may have happened
	if err != nil {
		return err
	}
	s.revoked(ctx, Revoked{UserID: u.ID, Keep: m.SessionID})
	return nil
}

// UpdateNickname sets the nickname (1–32 characters, no control characters).
func (s *Service) UpdateNickname(ctx context.Context, m Meta, nick string) error {
	nick = strings.TrimSpace(nick)
	n := utf8.RuneCountInString(nick)
	if !utf8.ValidString(nick) || n < 1 || n > 32 || strings.ContainsFunc(nick, func(r rune) bool {
		return unicode.IsControl(r) || r == '<' || r == '>' || unicode.Is(unicode.Cf, r)
	}) {
		return apperr.New(apperr.CodeNicknameInvalid)
	}
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return err
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actNicknameUpdate, m)
	if err != nil {
		return err
	}
	return s.commit(ctx, []store.Op{
		store.UpdateOp(profileKey(u.ID), store.NewUpdate().Set(attrNickName, nick), store.ItemExists()),
		hist,
	}, apperr.New(apperr.CodeNotSignedIn))
}
