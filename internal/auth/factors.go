package auth

import (
	"context"
	"errors"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// ChannelGoogle names the authenticator in a Factor.
const ChannelGoogle = "google"

// Factor is one code an operation of another service requires: an e-mail
// or SMS code sent to the user's own bound address or phone, requested
// under one of Ops (the first that has a code decides, see VerifyAll), or a
// Google authenticator code (Channel ChannelGoogle, no Ops).
type Factor struct {
	Channel string
	Ops     []int
	Code    string
}

// VerifyAll checks the factors in order and uses them up together: every
// code is checked first, and only when all are right are they used up, in
// one transaction. A wrong code therefore answers its error and leaves the
// right ones valid for the retry (a wrong code still counts towards its own
// tries and the authenticator's lock-out). Withdrawals, the trade password,
// the address book and bank accounts call it.
func (s *Service) VerifyAll(ctx context.Context, uid string, factors ...Factor) error {
	u, err := s.getUser(ctx, uid)
	if err != nil {
		return err
	}
	ops := make([]store.Op, 0, len(factors))
	google := false
	for _, f := range factors {
		var op store.Op
		switch f.Channel {
		case ChannelGoogle:
			if !u.GoogleOn {
				return apperr.New(apperr.CodeGoogleNotSetUp)
			}
			step, err := s.matchUserTOTP(ctx, u, f.Code, false)
			if err != nil {
				return err
			}
			op, google = totpStepOp(u.ID, step), true
		case ChannelEmail, ChannelSMS:
			if op, err = s.matchSentCode(ctx, u, f); err != nil {
				return err
			}
		default:
			return internal(errors.New("auth: unknown factor channel " + f.Channel))
		}
		ops = append(ops, op)
	}
	if len(ops) == 0 {
		return nil
	}
	if err := s.st.Transact(ctx, ops); err != nil {
		var tx *store.TxCanceledError
		switch {
		case errors.As(err, &tx) && tx.Index >= 0 && tx.Index < len(factors) && factors[tx.Index].Channel == ChannelGoogle:
			return apperr.New(apperr.CodeGoogleCodeUsed)
		case errors.Is(err, store.ErrConditionFailed):
			// A code was used up (or burned) by a concurrent request.
			return apperr.New(apperr.CodeCodeExpired)
		}
		return internal(err)
	}
	if google {
		s.totpAccepted(ctx, u.ID)
	}
	return nil
}

// matchSentCode checks an e-mail or SMS factor without using it up and
// returns the operation that uses it up. With several operations, the first
// one's answer wins unless it had no code at all (expired or never
// requested) and a later operation's code matches: the add-bank form may
// request its code under operationType 28 or 6 (spec §7).
func (s *Service) matchSentCode(ctx context.Context, u User, f Factor) (store.Op, error) {
	id, err := u.boundTarget(f.Channel)
	if err != nil {
		return store.Op{}, err
	}
	if len(f.Ops) == 0 {
		return store.Op{}, internal(errors.New("auth: a code factor without an operation"))
	}
	var first error
	for i, op := range f.Ops {
		del, err := s.checkCode(ctx, id, op, f.Code)
		if err == nil {
			return del, nil
		}
		if i == 0 {
			first = err
		}
		var ae *apperr.Error
		if !errors.As(err, &ae) {
			return store.Op{}, err
		}
		if i > 0 && ae.Entry.Code != apperr.CodeCodeExpired {
			// A code exists under this operation and it is wrong: say so.
			return store.Op{}, err
		}
	}
	return store.Op{}, first
}

// WithdrawalFactors are the codes a withdrawal asks of a user, and what
// asks for codes as a withdrawal does (API keys): an e-mail code when the
// account has an e-mail, an SMS code when the phone check is on (or when
// the phone is the account's only factor), a Google code when the
// authenticator is on.
func WithdrawalFactors(u User) (email, sms, google bool) {
	email, sms, google = u.Email != "", u.MobileCheck, u.GoogleOn
	if !email && !sms && !google && u.Mobile != "" {
		sms = true
	}
	return email, sms, google
}

// Verifier checks and uses up codes (Service.VerifyAll).
type Verifier interface {
	VerifyAll(ctx context.Context, uid string, factors ...Factor) error
}

// Codes are the verification codes a call carries.
type Codes struct{ Email, SMS, Google string }

// VerifyWithdrawalCodes requires the codes WithdrawalFactors names for u,
// all present before any is checked (a missing e-mail code is answered
// first, then SMS, then Google), then checks them (Google, SMS under
// smsOp, e-mail under emailOp), used up together only when all are right:
// a wrong code leaves the right ones valid for the retry.
func VerifyWithdrawalCodes(ctx context.Context, v Verifier, u User, c Codes, smsOp, emailOp int) error {
	needEmail, needSMS, needGoogle := WithdrawalFactors(u)
	c.Email, c.SMS, c.Google = strings.TrimSpace(c.Email), strings.TrimSpace(c.SMS), strings.TrimSpace(c.Google)
	switch {
	case needEmail && c.Email == "":
		return apperr.New(apperr.CodeEmailCodeRequired)
	case needSMS && c.SMS == "":
		return apperr.New(apperr.CodeSMSCodeRequired)
	case needGoogle && c.Google == "":
		return apperr.New(apperr.CodeGoogleCodeRequired)
	}
	var fs []Factor
	if needGoogle {
		fs = append(fs, Factor{Channel: ChannelGoogle, Code: c.Google})
	}
	if needSMS {
		fs = append(fs, Factor{Channel: ChannelSMS, Ops: []int{smsOp}, Code: c.SMS})
	}
	if needEmail {
		fs = append(fs, Factor{Channel: ChannelEmail, Ops: []int{emailOp}, Code: c.Email})
	}
	return v.VerifyAll(ctx, u.ID, fs...)
}
