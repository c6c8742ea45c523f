package auth

import (
	"context"
	"errors"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// RegisterInput is a sign-up.
type RegisterInput struct {
	Account     Account
	Password    string
	Code        string
	InvitedCode string
}

// Register creates an account after checking the sign-up code
// (operationType 1) sent to the e-mail or phone. It returns the new uid.
func (s *Service) Register(ctx context.Context, m Meta, in RegisterInput) (string, error) {
	id, err := in.Account.normalize()
	if err != nil {
		return "", err
	}
	if err := checkPasswordRule(in.Password); err != nil {
		return "", err
	}
	if len(in.InvitedCode) > 32 {
		return "", apperr.Param("invitedCode: at most 32 characters")
	}
	// The code first: without one, whether an e-mail or phone has an
	// account stays unknown here (the code-sending path counts the
	// lookups it answers "exists" to against the IP's limit). The code is
	// spent only with the account's creation, so a taken e-mail or phone
	// is refused below before it is.
	del, err := s.checkCode(ctx, id, OpRegister, in.Code)
	if err != nil {
		return "", err
	}
	if _, err := s.st.Get(ctx, id.uniqueKey()); err == nil {
		return "", apperr.New(apperr.CodeAccountExists)
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", internal(err)
	}
	hash, err := hashPassword(in.Password, s.pw)
	if err != nil {
		return "", internal(err)
	}
	return s.createAccount(ctx, m, id, hash, strings.TrimSpace(in.InvitedCode), del)
}

// createAccount writes the profile, the uniqueness item and (when given) the
// code's deletion in one transaction, retrying on a uid collision.
func (s *Service) createAccount(ctx context.Context, m Meta, id ident, pwHash, invited string, extra ...store.Op) (string, error) {
	for attempt := 0; attempt < 8; attempt++ {
		uid := newUID()
		now := s.now()
		pk := profileKey(uid)
		profile := store.Item{
			store.AttrPK: pk.PK, store.AttrSK: pk.SK, attrUID: uid, attrPwHash: pwHash,
			attrKYC: 0, attrAccountType: AccountRegular, attrGoogle: 0, attrMobileCheck: 0,
			attrSessGen: 0, attrCtime: now.UnixMilli(),
		}
		if id.isEmail() {
			profile[attrEmail] = id.email
		} else {
			profile[attrCountryCode], profile[attrMobile] = id.cc, id.num
		}
		if invited != "" {
			profile[attrInvited] = invited
		}
		uk := id.uniqueKey()
		ops := []store.Op{
			store.PutOp(profile, store.ItemNotExists()),
			store.PutOp(store.Item{store.AttrPK: uk.PK, store.AttrSK: uk.SK, attrUID: uid}, store.ItemNotExists()),
			store.PutOp(store.Item{
				store.AttrPK: "USER#" + uid, store.AttrSK: historySK(histSetting, 1),
				"time": now.UnixMilli(), "ip": m.IP, "device": clip(m.Device, 128), "action": actRegister,
			}, store.ItemNotExists()),
			store.PutOp(store.Item{store.AttrPK: "USER#" + uid, store.AttrSK: "COUNTERS", histSetting + "Seq": 1}, store.ItemNotExists()),
		}
		ops = append(ops, extra...)
		err := s.st.Transact(ctx, ops)
		if err == nil {
			return uid, nil
		}
		var tx *store.TxCanceledError
		if !errors.As(err, &tx) {
			return "", internal(err)
		}
		switch {
		case tx.Index == 1:
			return "", apperr.New(apperr.CodeAccountExists)
		case tx.Index >= 4:
			return "", apperr.New(apperr.CodeCodeExpired)
		}
		// uid taken: draw another.
	}
	return "", internal(errors.New("auth: no free uid after 8 draws"))
}

// ResetStart sends the forgot-password code (operationType 3).
func (s *Service) ResetStart(ctx context.Context, m Meta, acct Account) error {
	id, err := acct.normalize()
	if err != nil {
		return err
	}
	return s.sendCodeChecked(ctx, Meta{IP: m.IP, Device: m.Device, Lang: m.Lang}, id, OpForgot)
}

func resetKey(hash string) store.Key { return store.Key{PK: "RESET#" + hash, SK: "RESET"} }

// ResetVerify checks the forgot-password code and returns a reset token.
func (s *Service) ResetVerify(ctx context.Context, m Meta, acct Account, code string) (string, error) {
	id, err := acct.normalize()
	if err != nil {
		return "", err
	}
	// The code first: an e-mail or phone without an account has no code,
	// so it gets the answer of a wrong or expired one, and this step tells
	// nobody which accounts exist (step one does, within the code limits).
	del, err := s.checkCode(ctx, id, OpForgot, code)
	if err != nil {
		return "", err
	}
	u, err := s.userByIdent(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return "", apperr.New(apperr.CodeAccountNotFound)
	}
	if err != nil {
		return "", internal(err)
	}
	token, hash := newToken()
	now := s.now()
	k := resetKey(hash)
	put := store.PutOp(store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, attrUID: u.ID, "target": id.target(),
		"expiresAt": now.Add(ResetTTL).UnixMilli(), store.AttrTTL: ttlAt(now.Add(ResetTTL)),
	}, store.ItemNotExists())
	if err := s.commit(ctx, []store.Op{del, put}, apperr.New(apperr.CodeCodeExpired)); err != nil {
		return "", err
	}
	return token, nil
}

// ResetFinish sets a new password with a reset token; every session of the
// user ends.
func (s *Service) ResetFinish(ctx context.Context, m Meta, token, password string) error {
	if len(token) != 64 {
		return apperr.New(apperr.CodeResetTokenInvalid)
	}
	if err := checkPasswordRule(password); err != nil {
		return err
	}
	k := resetKey(hashToken(token))
	it, err := s.st.Get(ctx, k)
	if errors.Is(err, store.ErrNotFound) {
		return apperr.New(apperr.CodeResetTokenInvalid)
	}
	if err != nil {
		return internal(err)
	}
	if it.Int("expiresAt") <= s.now().UnixMilli() {
		return apperr.New(apperr.CodeResetTokenInvalid)
	}
	u, err := s.getUser(ctx, it.Str(attrUID))
	if err != nil {
		return apperr.New(apperr.CodeResetTokenInvalid)
	}
	hash, err := hashPassword(password, s.pw)
	if err != nil {
		return internal(err)
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actPasswordReset, m)
	if err != nil {
		return err
	}
	ops := endOtherSessions(u, Meta{}, store.NewUpdate().Set(attrPwHash, hash), nil)
	ops = append(ops, store.DeleteOp(k, store.ItemExists()), hist)
	err = s.commit(ctx, ops, apperr.New(apperr.CodeResetTokenInvalid))
	s.sessions.revokeUser(u.ID) // whatever the outcome: the change may have happened
	if err != nil {
		return err
	}
	s.revoked(ctx, Revoked{UserID: u.ID})
	// The owner proved control of the e-mail or phone: lift sign-in locks.
	_ = s.limiter.Reset(ctx, "login-acct:"+it.Str("target"))
	_ = s.limiter.Reset(ctx, "pw:"+u.ID)
	return nil
}
